"""The write half of the repository, shared by both backends.

Every write method checks its arguments (programming errors become ``ValueError`` before any
transaction starts), reads the store's clock, and hands one transaction body to the backend's
``_write``: the SQLite store runs the body in its writer thread, the PostgreSQL store awaits it
on a pooled connection.  The bodies have the same names and arguments in
:mod:`storage.sqlite.writes` and :mod:`storage.postgres.writes`, so the two backends refuse,
time-stamp and order writes identically; only their SQL differs.
"""

from __future__ import annotations

import abc
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from types import ModuleType
from typing import Any

from storage.base import UNSET, Storage
from storage.checks import check_moves, check_new_game, check_result, check_score, check_state
from storage.models import (
    AcceptedInvitation,
    Chat,
    ChatType,
    FinishedGame,
    Game,
    GameMessage,
    GameResult,
    Invitation,
    NewGame,
    NewInvitation,
    NewMove,
    User,
    Variant,
)
from storage.sqlite.rows import dump_options, to_us

Clock = Callable[[], datetime]


class WritingStorage(Storage):
    """:class:`Storage` writes in terms of a module of transaction bodies and a runner."""

    #: The backend's module of transaction bodies (``storage.<backend>.writes``).
    _tx: ModuleType
    _clock: Clock

    @abc.abstractmethod
    async def _write(self, body: Callable[..., Any], *args: Any) -> Any:
        """Run ``body(connection, *args)`` as one transaction and return what it returns."""

    def _now(self) -> int:
        return to_us(self._clock())

    # -- users and chats ----------------------------------------------------------------------

    async def upsert_user(
        self,
        user_id: int,
        display_name: str,
        *,
        username: str | None = None,
        language: str | None = None,
    ) -> User:
        return await self._write(
            self._tx.upsert_user, user_id, display_name, username, language, self._now()
        )

    async def upsert_chat(
        self, chat_id: int, chat_type: ChatType | str, *, title: str | None = None
    ) -> Chat:
        return await self._write(
            self._tx.upsert_chat, chat_id, ChatType(chat_type), title, self._now()
        )

    async def update_chat_settings(
        self,
        chat_id: int,
        *,
        language: str | None = UNSET,
        default_variant: Variant | str = UNSET,
        match_length: int = UNSET,
        options: Mapping[str, Any] = UNSET,
    ) -> Chat:
        changes: list[tuple[str, Any]] = []
        if language is not UNSET:
            changes.append(("language", language))
        if default_variant is not UNSET:
            changes.append(("default_variant", Variant(default_variant).value))
        if match_length is not UNSET:
            if int(match_length) < 1:
                raise ValueError("match_length must be at least 1")
            changes.append(("match_length", int(match_length)))
        if options is not UNSET:
            changes.append(("options_json", dump_options(options)))
        changes.append(("updated_at", self._now()))
        return await self._write(self._tx.update_chat, chat_id, changes)

    # -- games --------------------------------------------------------------------------------

    async def create_game(self, new: NewGame) -> Game:
        variant = check_new_game(new)
        return await self._write(self._tx.insert_game, new, variant, self._now())

    async def save_game(
        self,
        game_id: int,
        expected_version: int,
        state: str,
        *,
        moves: Sequence[NewMove] = (),
        score: tuple[int, int] | None = None,
        update_id: int | None = None,
    ) -> Game:
        check_state(state)
        checked_moves = check_moves(moves)
        check_score(score)
        return await self._write(
            self._tx.save_game,
            game_id,
            expected_version,
            state,
            checked_moves,
            score,
            update_id,
            self._now(),
        )

    async def finish_game(
        self,
        game_id: int,
        expected_version: int,
        state: str,
        result: GameResult,
        *,
        moves: Sequence[NewMove] = (),
        score: tuple[int, int] | None = None,
        update_id: int | None = None,
    ) -> FinishedGame:
        check_state(state)
        checked_result = check_result(result)
        checked_moves = check_moves(moves)
        check_score(score)
        return await self._write(
            self._tx.finish_game,
            game_id,
            expected_version,
            state,
            checked_result,
            checked_moves,
            score,
            update_id,
            self._now(),
        )

    async def abandon_game(
        self,
        game_id: int,
        expected_version: int,
        state: str | None = None,
        *,
        update_id: int | None = None,
    ) -> Game:
        if state is not None:
            check_state(state)
        return await self._write(
            self._tx.abandon_game, game_id, expected_version, state, update_id, self._now()
        )

    # -- board messages -----------------------------------------------------------------------

    async def set_game_message(
        self,
        game_id: int,
        chat_id: int,
        message_id: int,
        *,
        thread_id: int = 0,
        kind: str = "board",
    ) -> GameMessage:
        return await self._write(
            self._tx.set_game_message,
            game_id,
            chat_id,
            message_id,
            thread_id,
            kind,
            self._now(),
        )

    async def delete_game_message(
        self, game_id: int, chat_id: int, *, thread_id: int = 0, kind: str = "board"
    ) -> bool:
        return await self._write(self._tx.delete_game_message, game_id, chat_id, thread_id, kind)

    # -- invitations --------------------------------------------------------------------------

    async def create_invitation(self, new: NewInvitation) -> Invitation:
        variant = Variant(new.variant)
        if new.invitee_id is not None and new.invitee_id == new.inviter_id:
            raise ValueError("a user cannot invite themselves")
        if new.match_length < 1:
            raise ValueError("match_length must be at least 1")
        return await self._write(
            self._tx.insert_invitation,
            new.token if new.token is not None else secrets.token_urlsafe(12),
            new.inviter_id,
            new.invitee_id,
            new.chat_id,
            new.thread_id,
            variant,
            new.match_length,
            dump_options(new.options),
            to_us(new.expires_at),
            self._now(),
        )

    async def accept_invitation(
        self, token: str, user_id: int, *, game: NewGame | None = None
    ) -> AcceptedInvitation:
        variant = None if game is None else check_new_game(game)
        return await self._write(
            self._tx.accept_invitation, token, user_id, game, variant, self._now()
        )

    async def decline_invitation(self, token: str, user_id: int) -> Invitation:
        return await self._write(self._tx.decline_invitation, token, user_id, self._now())

    async def cancel_invitation(self, token: str, user_id: int) -> Invitation:
        return await self._write(self._tx.cancel_invitation, token, user_id, self._now())

    async def expire_invitations(self, now: datetime | None = None) -> list[Invitation]:
        moment = self._now() if now is None else to_us(now)
        return await self._write(self._tx.expire_invitations, moment)

    # -- Telegram updates ---------------------------------------------------------------------

    async def mark_update_processed(self, update_id: int) -> bool:
        return await self._write(self._tx.claim_update, update_id, self._now())

    async def prune_processed_updates(self, older_than: timedelta = timedelta(days=2)) -> int:
        return await self._write(self._tx.prune_updates, to_us(self._clock() - older_than))
