"""The repository's methods, shared by both backends.

Reads are single ``SELECT`` statements written once, in the SQL both databases speak, with
``?`` / ``?N`` placeholders (the PostgreSQL store numbers them ``$N``); each backend supplies
``_fetch_all``.  Every write method checks its arguments (programming errors become
``ValueError`` before any transaction starts), reads the store's clock, and hands one
transaction body to the backend's ``_write``: the SQLite store runs the body in its writer
thread, the PostgreSQL store awaits it on a pooled connection.  The bodies are written once
(:mod:`storage.sql.writes`; what the databases do differently is their ``Dialect``'s), so the
two backends refuse, time-stamp and order writes identically.
"""

from __future__ import annotations

import abc
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar

from storage.base import UNSET, Storage
from storage.checks import (
    check_clock,
    check_dice,
    check_dice_seed,
    check_moves,
    check_new_game,
    check_result,
    check_score,
    check_state,
)
from storage.errors import NotFoundError
from storage.models import (
    INITIAL_RATING,
    AbandonOffer,
    AcceptedInvitation,
    Chat,
    ChatType,
    ClockEvent,
    ClockUpdate,
    DiceRolls,
    DiceSeed,
    EndReason,
    ErrorRate,
    FinishedGame,
    Game,
    GameClock,
    GameMessage,
    GameResult,
    GameStatus,
    Invitation,
    InvitationState,
    LeaderboardEntry,
    MoveRecord,
    NewGame,
    NewInvitation,
    NewMove,
    NextGame,
    PickerMessage,
    PickerTurn,
    Rating,
    ReviewTotals,
    StoredReview,
    User,
    UserStats,
    Variant,
)
from storage.sql import clocks as clock_tx
from storage.sql import dice as dice_tx
from storage.sql import pickers as picker_tx
from storage.sql import reviews as review_tx
from storage.sql import writes as tx
from storage.sql.reviews import (
    ERROR_RATES,
    REVIEW_COLUMNS,
    error_rate_from_row,
    review_from_row,
)
from storage.sql.steps import Body
from storage.sqlite.rows import (
    CHAT_COLUMNS,
    CLOCK_COLUMNS,
    DICE_SEED_COLUMNS,
    GAME_COLUMNS,
    INVITATION_COLUMNS,
    MESSAGE_COLUMNS,
    MOVE_COLUMNS,
    OFFER_COLUMNS,
    RATING_COLUMNS,
    STATS_COLUMNS,
    USER_COLUMNS,
    chat_from_row,
    clock_from_row,
    dice_seed_from_row,
    dump_options,
    from_us_or_none,
    game_from_row,
    invitation_from_row,
    message_from_row,
    move_from_row,
    offer_from_row,
    rating_from_row,
    stats_from_row,
    to_us,
    user_from_row,
)

#: The ways a move picker can open (``player_settings.picker_way``).
PICKER_WAYS = ("steps", "plays")


def _turn(turn: tuple[int, int]) -> tuple[int, int]:
    """A picker's turn, ``(game_number, move_number)``, checked before any transaction."""
    game_number, move_number = turn
    if game_number < 0 or move_number < 0:
        raise ValueError(f"a turn is two counts, not {turn!r}")
    return int(game_number), int(move_number)


def _checked_next(nxt: NextGame | None) -> NextGame | None:
    """A match's next game, checked like a created game before any transaction starts."""
    if nxt is None:
        return None
    check_new_game(nxt.game)
    return NextGame(nxt.game, check_moves(nxt.moves))


def _picker_kind(kind: str) -> None:
    if kind not in picker_tx.KINDS:
        raise ValueError(f"a picker message is one of {picker_tx.KINDS}, not {kind!r}")


Clock = Callable[[], datetime]
T = TypeVar("T")


#: ``LIMIT`` for "all rows": both databases take a 64-bit count (SQLite refuses NULL).
NO_LIMIT = 2**63 - 1


class SqlRepository(Storage):
    """:class:`Storage` in terms of a statement reader, a transaction runner and a module of
    transaction bodies."""

    _clock: Clock

    @abc.abstractmethod
    async def _write(self, body: Callable[..., Body[T]], *args: Any) -> T:
        """Run the body ``body(dialect, *args)`` as one transaction and return its result."""

    @abc.abstractmethod
    async def _fetch_all(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """Rows of one read statement; each row is indexable by column name."""

    async def _fetch_one(self, sql: str, params: Sequence[Any]) -> Any | None:
        rows = await self._fetch_all(sql, params)
        return rows[0] if rows else None

    def _now(self) -> int:
        return to_us(self._clock())

    async def ping(self) -> None:
        await self._fetch_one("SELECT 1 AS one", ())

    # == writes =================================================================================

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
            tx.upsert_user, user_id, display_name, username, language, self._now()
        )

    async def set_picker_way(self, user_id: int, way: str) -> None:
        if way not in PICKER_WAYS:
            raise ValueError(f"picker way must be one of {PICKER_WAYS}, not {way!r}")
        await self._write(tx.set_picker_way, user_id, way, self._now())

    async def upsert_chat(
        self, chat_id: int, chat_type: ChatType | str, *, title: str | None = None
    ) -> Chat:
        return await self._write(tx.upsert_chat, chat_id, ChatType(chat_type), title, self._now())

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
        return await self._write(tx.update_chat, chat_id, changes)

    # -- games --------------------------------------------------------------------------------

    async def create_game(self, new: NewGame) -> Game:
        variant = check_new_game(new)
        return await self._write(tx.insert_game, new, variant, self._now())

    async def save_game(
        self,
        game_id: int,
        expected_version: int,
        state: str,
        *,
        moves: Sequence[NewMove] = (),
        score: tuple[int, int] | None = None,
        update_id: int | None = None,
        dice: DiceRolls | None = None,
        clock: ClockUpdate | None = None,
    ) -> Game:
        check_state(state)
        checked_moves = check_moves(moves)
        check_score(score)
        return await self._write(
            tx.save_game,
            game_id,
            expected_version,
            state,
            checked_moves,
            score,
            update_id,
            self._now(),
            check_dice(dice),
            check_clock(clock),
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
        dice: DiceRolls | None = None,
        next_game: NextGame | None = None,
    ) -> FinishedGame:
        check_state(state)
        checked_result = check_result(result)
        checked_moves = check_moves(moves)
        check_score(score)
        return await self._write(
            tx.finish_game,
            game_id,
            expected_version,
            state,
            checked_result,
            checked_moves,
            score,
            update_id,
            self._now(),
            check_dice(dice),
            None,
            _checked_next(next_game),
        )

    async def start_next_game(
        self, game_id: int, expected_version: int, next_game: NextGame
    ) -> Game | None:
        checked = _checked_next(next_game)
        return await self._write(
            tx.start_next_game, game_id, expected_version, checked, self._now()
        )

    async def abandon_game(
        self,
        game_id: int,
        expected_version: int,
        state: str | None = None,
        *,
        update_id: int | None = None,
        reason: EndReason | str | None = None,
    ) -> Game:
        if state is not None:
            check_state(state)
        why = None if reason is None else EndReason(reason)
        if why is EndReason.TIMEOUT:
            raise ValueError("a timeout ends a game with a result: use claim_timeout")
        return await self._write(
            tx.abandon_game, game_id, expected_version, state, update_id, self._now(), why
        )

    # -- move clocks, ending without play, provably fair dice ---------------------------------

    async def fire_clock_event(
        self, game_id: int, game_version: int, event: ClockEvent | str
    ) -> GameClock | None:
        kind = ClockEvent(event)
        if kind is ClockEvent.ABANDON:
            raise ValueError("abandonment ends the game: use abandon_inactive")
        return await self._write(clock_tx.fire, game_id, game_version, kind, self._now())

    async def abandon_inactive(self, game_id: int, game_version: int) -> Game | None:
        return await self._write(tx.fire_abandon, game_id, game_version, self._now())

    async def claim_timeout(
        self,
        game_id: int,
        expected_version: int,
        claimant_id: int,
        state: str,
        result: GameResult,
        *,
        moves: Sequence[NewMove] = (),
        score: tuple[int, int] | None = None,
        update_id: int | None = None,
        next_game: NextGame | None = None,
    ) -> FinishedGame:
        check_state(state)
        checked_result = check_result(result)
        checked_moves = check_moves(moves)
        check_score(score)
        return await self._write(
            tx.claim_timeout,
            game_id,
            expected_version,
            claimant_id,
            state,
            checked_result,
            checked_moves,
            score,
            update_id,
            self._now(),
            _checked_next(next_game),
        )

    async def offer_abandon(
        self, game_id: int, user_id: int, expected_version: int
    ) -> AbandonOffer:
        return await self._write(tx.offer_abandon, game_id, user_id, expected_version, self._now())

    async def withdraw_abandon_offer(self, game_id: int, user_id: int) -> bool:
        return await self._write(tx.withdraw_offer, game_id, user_id)

    async def accept_abandon(
        self, game_id: int, user_id: int, expected_version: int, *, update_id: int | None = None
    ) -> Game:
        return await self._write(
            tx.accept_abandon, game_id, user_id, expected_version, update_id, self._now()
        )

    async def create_dice_seed(
        self, commitment: str, server_seed: bytes, client_seeds: Sequence[str] = ()
    ) -> DiceSeed:
        seeds = check_dice_seed(commitment, server_seed, client_seeds)
        return await self._write(dice_tx.insert_seed, commitment, server_seed, seeds, self._now())

    async def add_client_seed(self, seed_id: int, client_seed: str) -> DiceSeed:
        if not isinstance(client_seed, str) or not client_seed:
            raise ValueError("a client seed is non-empty text")
        return await self._write(dice_tx.add_client_seed, seed_id, client_seed)

    async def reveal_dice_seed(self, seed_id: int) -> DiceSeed:
        return await self._write(dice_tx.reveal, seed_id, self._now())

    # -- game reviews -------------------------------------------------------------------------

    async def claim_review(self, game_id: int, owner: str, lease: timedelta) -> StoredReview:
        if not owner:
            raise ValueError("a review's owner is non-empty text")
        if lease <= timedelta(0):
            raise ValueError("a review's lease is positive")
        now = self._now()
        until = now + lease // timedelta(microseconds=1)
        return await self._write(review_tx.claim, game_id, owner, until, now)

    async def finish_review(
        self, game_id: int, summary: str, white: ReviewTotals, black: ReviewTotals
    ) -> StoredReview:
        if not isinstance(summary, str) or not summary:
            raise ValueError("a review's summary is non-empty text")
        for totals in (white, black):
            if totals.decisions < 0 or not totals.error >= 0:
                raise ValueError(f"review totals must not be negative: {totals}")
        return await self._write(review_tx.finish, game_id, summary, white, black, self._now())

    async def release_review(self, game_id: int, owner: str) -> bool:
        return await self._write(review_tx.release, game_id, owner)

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
            tx.set_game_message,
            game_id,
            chat_id,
            message_id,
            thread_id,
            kind,
            self._now(),
        )

    async def claim_first_board(self, game_id: int, *, lease: timedelta) -> bool:
        if lease <= timedelta(0):
            raise ValueError("a board claim's lease is positive")
        now = self._now()
        expired = now - lease // timedelta(microseconds=1)
        return await self._write(tx.claim_first_board, game_id, now, expired)

    async def delete_game_message(
        self, game_id: int, chat_id: int, *, thread_id: int = 0, kind: str = "board"
    ) -> bool:
        return await self._write(tx.delete_game_message, game_id, chat_id, thread_id, kind)

    # -- group pickers ------------------------------------------------------------------------

    async def count_picker_send(self, game_id: int, turn: tuple[int, int]) -> PickerTurn:
        return await self._write(picker_tx.count_send, game_id, *_turn(turn), self._now())

    async def put_turn_on_board(self, game_id: int, turn: tuple[int, int]) -> PickerTurn:
        return await self._write(picker_tx.put_on_board, game_id, *_turn(turn), self._now())

    async def keep_picker_message(
        self, message: PickerMessage, *, newest_wins: bool = True
    ) -> PickerMessage | None:
        _picker_kind(message.kind)
        if message.ephemeral_id <= 0:
            raise ValueError("an ephemeral message id is positive")
        _turn(message.turn)
        return await self._write(picker_tx.keep_message, message, newest_wins, self._now())

    async def take_picker_messages(
        self, game_id: int, kind: str, *, keep_turn: tuple[int, int] | None = None
    ) -> list[PickerMessage]:
        _picker_kind(kind)
        keep = None if keep_turn is None else _turn(keep_turn)
        return await self._write(picker_tx.take_messages, game_id, kind, keep)

    async def forget_picker_message(self, message: PickerMessage) -> bool:
        return await self._write(picker_tx.forget_message, message)

    # -- invitations --------------------------------------------------------------------------

    async def create_invitation(self, new: NewInvitation) -> Invitation:
        variant = Variant(new.variant)
        if new.invitee_id is not None and new.invitee_id == new.inviter_id:
            raise ValueError("a user cannot invite themselves")
        if new.match_length < 1:
            raise ValueError("match_length must be at least 1")
        return await self._write(
            tx.insert_invitation,
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
            new.dice_seed_id,
            new.invitee_username,
        )

    async def accept_invitation(
        self, token: str, user_id: int, *, game: NewGame | None = None
    ) -> AcceptedInvitation:
        variant = None if game is None else check_new_game(game)
        return await self._write(tx.accept_invitation, token, user_id, game, variant, self._now())

    async def decline_invitation(self, token: str, user_id: int) -> Invitation:
        return await self._write(tx.decline_invitation, token, user_id, self._now())

    async def cancel_invitation(self, token: str, user_id: int) -> Invitation:
        return await self._write(tx.cancel_invitation, token, user_id, self._now())

    async def expire_invitations(self, now: datetime | None = None) -> list[Invitation]:
        moment = self._now() if now is None else to_us(now)
        return await self._write(tx.expire_invitations, moment)

    # -- Telegram updates ---------------------------------------------------------------------

    async def mark_update_processed(self, update_id: int) -> bool:
        return await self._write(tx.claim_update, update_id, self._now())

    async def mark_inline_message_lost(self, inline_message_id: str) -> bool:
        if not inline_message_id:
            raise ValueError("an inline message id is non-empty text")
        return await self._write(tx.mark_inline_lost, inline_message_id, self._now())

    async def prune_processed_updates(self, older_than: timedelta = timedelta(days=2)) -> int:
        return await self._write(tx.prune_updates, to_us(self._clock() - older_than))

    # == reads ==================================================================================

    # -- users and chats ---------------------------------------------------------------------

    async def get_user(self, user_id: int) -> User:
        row = await self._fetch_one(
            f"SELECT {USER_COLUMNS} FROM users WHERE user_id = ?", (user_id,)
        )
        if row is None:
            raise NotFoundError("user", user_id)
        return user_from_row(row)

    async def get_picker_way(self, user_id: int) -> str | None:
        row = await self._fetch_one(
            "SELECT picker_way FROM player_settings WHERE user_id = ?", (user_id,)
        )
        return None if row is None else str(row[0])

    async def get_chat(self, chat_id: int) -> Chat:
        row = await self._fetch_one(
            f"SELECT {CHAT_COLUMNS} FROM chats WHERE chat_id = ?", (chat_id,)
        )
        if row is None:
            raise NotFoundError("chat", chat_id)
        return chat_from_row(row)

    # -- games -------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> Game:
        row = await self._fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,)
        )
        if row is None:
            raise NotFoundError("game", game_id)
        return game_from_row(row)

    async def get_active_game(self, chat_id: int, thread_id: int = 0) -> Game | None:
        row = await self._fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games "
            "WHERE chat_id = ? AND thread_id = ? AND status = 'active' "
            "AND inline_message_id IS NULL",
            (chat_id, thread_id),
        )
        return None if row is None else game_from_row(row)

    async def find_game_by_inline_message(self, inline_message_id: str) -> Game | None:
        row = await self._fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE inline_message_id = ? "
            "ORDER BY game_id DESC LIMIT 1",
            (inline_message_id,),
        )
        return None if row is None else game_from_row(row)

    async def inline_message_lost(self, inline_message_id: str) -> bool:
        row = await self._fetch_one(
            "SELECT 1 FROM inline_messages_lost WHERE inline_message_id = ?",
            (inline_message_id,),
        )
        return row is not None

    async def list_user_games(
        self, user_id: int, *, status: GameStatus | str | None = None, limit: int = 20
    ) -> list[Game]:
        status_value = None if status is None else GameStatus(status).value
        # Two index lookups (one per seat) merged, instead of an OR that scans the table.
        rows = await self._fetch_all(
            f"SELECT {GAME_COLUMNS} FROM ("
            f" SELECT {GAME_COLUMNS} FROM games WHERE white_user_id = ?1"
            " UNION ALL"
            f" SELECT {GAME_COLUMNS} FROM games WHERE black_user_id = ?1"
            ") AS seats WHERE CAST(?2 AS TEXT) IS NULL OR status = ?2 "
            "ORDER BY updated_at DESC, game_id DESC LIMIT ?3",
            (user_id, status_value, limit),
        )
        return [game_from_row(row) for row in rows]

    async def list_chat_games(
        self, chat_id: int, *, status: GameStatus | str | None = None, limit: int = 20
    ) -> list[Game]:
        status_value = None if status is None else GameStatus(status).value
        rows = await self._fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE chat_id = ?1 "
            "AND (CAST(?2 AS TEXT) IS NULL OR status = ?2) "
            "ORDER BY updated_at DESC, game_id DESC LIMIT ?3",
            (chat_id, status_value, limit),
        )
        return [game_from_row(row) for row in rows]

    async def match_games(self, game_id: int) -> list[Game]:
        game = await self.get_game(game_id)
        if game.dice_seed_id is None:
            return [game]
        rows = await self._fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE dice_seed_id = ? ORDER BY game_id",
            (game.dice_seed_id,),
        )
        return [game_from_row(row) for row in rows]

    async def get_moves(
        self, game_id: int, *, after_seq: int = 0, limit: int | None = None
    ) -> list[MoveRecord]:
        rows = await self._fetch_all(
            f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (game_id, after_seq, NO_LIMIT if limit is None else limit),
        )
        return [move_from_row(row) for row in rows]

    # -- board messages ----------------------------------------------------------------------

    async def get_picker_turn(self, game_id: int) -> PickerTurn | None:
        row = await self._fetch_one(picker_tx.SELECT_TURN, (game_id,))
        return None if row is None else picker_tx.turn_from_row(row)

    async def get_picker_messages(self, game_id: int) -> list[PickerMessage]:
        found = await self._fetch_all(picker_tx.SELECT_MESSAGES, (game_id,))
        return [picker_tx.message_from_row(r) for r in found]

    async def get_game_messages(self, game_id: int) -> list[GameMessage]:
        rows = await self._fetch_all(
            f"SELECT {MESSAGE_COLUMNS} FROM game_messages WHERE game_id = ? "
            "ORDER BY chat_id, thread_id, kind",
            (game_id,),
        )
        return [message_from_row(row) for row in rows]

    async def find_game_by_message(self, chat_id: int, message_id: int) -> Game | None:
        row = await self._fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ("
            " SELECT game_id FROM game_messages WHERE chat_id = ? AND message_id = ?"
            " ORDER BY updated_at DESC LIMIT 1)",
            (chat_id, message_id),
        )
        return None if row is None else game_from_row(row)

    # -- invitations -------------------------------------------------------------------------

    async def get_invitation(self, token: str) -> Invitation:
        row = await self._fetch_one(
            f"SELECT {INVITATION_COLUMNS} FROM invitations WHERE token = ?", (token,)
        )
        if row is None:
            raise NotFoundError("invitation", token)
        return invitation_from_row(row)

    async def list_invitations(
        self, inviter_id: int, *, state: InvitationState | str | None = None, limit: int = 50
    ) -> list[Invitation]:
        sql = f"SELECT {INVITATION_COLUMNS} FROM invitations WHERE inviter_id = ?"
        params: list[Any] = [inviter_id]
        if state is not None:
            sql += " AND state = ?"
            params.append(InvitationState(state).value)
        sql += " ORDER BY created_at DESC, token LIMIT ?"
        params.append(limit)
        return [invitation_from_row(r) for r in await self._fetch_all(sql, params)]

    # -- statistics and ratings --------------------------------------------------------------

    async def get_user_stats(
        self, user_id: int, variant: Variant | str, *, vs_ai: bool = False
    ) -> UserStats:
        kind = Variant(variant)
        row = await self._fetch_one(
            f"SELECT {STATS_COLUMNS} FROM user_stats "
            "WHERE user_id = ? AND variant = ? AND vs_ai = ?",
            (user_id, kind.value, int(vs_ai)),
        )
        if row is None:
            return UserStats(user_id=user_id, variant=kind, vs_ai=vs_ai)
        return stats_from_row(row)

    async def list_user_stats(self, user_id: int) -> list[UserStats]:
        rows = await self._fetch_all(
            f"SELECT {STATS_COLUMNS} FROM user_stats WHERE user_id = ? ORDER BY variant, vs_ai",
            (user_id,),
        )
        return [stats_from_row(row) for row in rows]

    async def get_rating(self, user_id: int, variant: Variant | str) -> Rating:
        kind = Variant(variant)
        row = await self._fetch_one(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ? AND variant = ?",
            (user_id, kind.value),
        )
        if row is None:
            return Rating(user_id, kind, INITIAL_RATING, 0, INITIAL_RATING, None)
        return rating_from_row(row)

    async def leaderboard(
        self,
        variant: Variant | str,
        *,
        chat_id: int | None = None,
        limit: int = 10,
        min_games: int = 1,
    ) -> list[LeaderboardEntry]:
        kind = Variant(variant).value
        if chat_id is None:
            rows = await self._fetch_all(
                "SELECT r.user_id, u.display_name, r.rating, r.games, "
                "COALESCE(s.wins, 0) AS wins "
                "FROM ratings AS r JOIN users AS u ON u.user_id = r.user_id "
                "LEFT JOIN user_stats AS s "
                "ON s.user_id = r.user_id AND s.variant = r.variant AND s.vs_ai = 0 "
                "WHERE r.variant = ? AND r.games >= ? "
                "ORDER BY r.rating DESC, r.games DESC, r.user_id LIMIT ?",
                (kind, min_games, limit),
            )
        else:
            rows = await self._fetch_all(
                "WITH seats (user_id, won) AS ("
                " SELECT white_user_id, CASE WHEN winner = 'white' THEN 1 ELSE 0 END FROM games"
                "  WHERE chat_id = ?1 AND variant = ?2 AND status = 'finished'"
                "  AND ai_level IS NULL"
                " UNION ALL"
                " SELECT black_user_id, CASE WHEN winner = 'black' THEN 1 ELSE 0 END FROM games"
                "  WHERE chat_id = ?1 AND variant = ?2 AND status = 'finished'"
                "  AND ai_level IS NULL"
                "), played (user_id, games, wins) AS ("
                " SELECT user_id, COUNT(*), SUM(won) FROM seats GROUP BY user_id"
                ") "
                "SELECT p.user_id, u.display_name, COALESCE(r.rating, ?3) AS rating, "
                "p.games, p.wins "
                "FROM played AS p JOIN users AS u ON u.user_id = p.user_id "
                "LEFT JOIN ratings AS r ON r.user_id = p.user_id AND r.variant = ?2 "
                "WHERE p.games >= ?4 "
                "ORDER BY rating DESC, p.games DESC, p.user_id LIMIT ?5",
                (chat_id, kind, INITIAL_RATING, min_games, limit),
            )
        return [
            LeaderboardEntry(
                rank=rank,
                user_id=row["user_id"],
                display_name=row["display_name"],
                rating=float(row["rating"]),
                games=int(row["games"]),
                wins=int(row["wins"]),
            )
            for rank, row in enumerate(rows, start=1)
        ]

    # -- game reviews -------------------------------------------------------------------------

    async def get_review(self, game_id: int) -> StoredReview | None:
        row = await self._fetch_one(
            f"SELECT {REVIEW_COLUMNS} FROM game_reviews WHERE game_id = ?", (game_id,)
        )
        return None if row is None else review_from_row(row)

    async def error_rates(self, user_id: int) -> list[ErrorRate]:
        rows = await self._fetch_all(ERROR_RATES, (user_id,))
        return [error_rate_from_row(user_id, row) for row in rows]

    # -- move clocks, offers, dice seeds ------------------------------------------------------

    async def get_clock(self, game_id: int) -> GameClock | None:
        row = await self._fetch_one(
            f"SELECT {CLOCK_COLUMNS} FROM game_clocks WHERE game_id = ?", (game_id,)
        )
        return None if row is None else clock_from_row(row)

    async def next_clock_due(self) -> datetime | None:
        row = await self._fetch_one(
            "SELECT next_due_at FROM game_clocks WHERE next_due_at IS NOT NULL "
            "ORDER BY next_due_at LIMIT 1",
            (),
        )
        return None if row is None else from_us_or_none(row["next_due_at"])

    async def due_clocks(self, now: datetime | None = None, *, limit: int = 100) -> list[GameClock]:
        moment = self._now() if now is None else to_us(now)
        rows = await self._fetch_all(
            f"SELECT {CLOCK_COLUMNS} FROM game_clocks "
            "WHERE next_due_at IS NOT NULL AND next_due_at <= ? ORDER BY next_due_at LIMIT ?",
            (moment, limit),
        )
        return [clock_from_row(row) for row in rows]

    async def get_abandon_offer(self, game_id: int) -> AbandonOffer | None:
        row = await self._fetch_one(
            f"SELECT {', '.join('o.' + c for c in OFFER_COLUMNS.split(', '))} "
            "FROM game_offers AS o JOIN games AS g ON g.game_id = o.game_id "
            "WHERE o.game_id = ? AND o.kind = 'abandon' AND o.game_version = g.version "
            "AND g.status = 'active'",
            (game_id,),
        )
        return None if row is None else offer_from_row(row)

    async def get_dice_seed(self, seed_id: int) -> DiceSeed:
        seed, _ = await self._read_dice_seed(seed_id, with_secret=False)
        return seed

    async def get_dice_draw(self, seed_id: int) -> tuple[DiceSeed, bytes]:
        seed, secret = await self._read_dice_seed(seed_id, with_secret=True)
        assert secret is not None
        return seed, secret

    async def _read_dice_seed(
        self, seed_id: int, *, with_secret: bool
    ) -> tuple[DiceSeed, bytes | None]:
        """The seed's public view (its server seed only once revealed), and the secret if
        asked for (a roll)."""
        secret = ", server_seed" if with_secret else ""
        row = await self._fetch_one(
            f"SELECT {DICE_SEED_COLUMNS}{secret}, "
            "CASE WHEN revealed_at IS NULL THEN NULL ELSE server_seed END AS revealed_seed "
            "FROM dice_seeds WHERE seed_id = ?",
            (seed_id,),
        )
        if row is None:
            raise NotFoundError("dice seed", seed_id)
        revealed = row["revealed_seed"]
        seed = dice_seed_from_row(row, None if revealed is None else bytes(revealed))
        return seed, bytes(row["server_seed"]) if with_secret else None

    async def get_dice_secret(self, seed_id: int) -> bytes:
        row = await self._fetch_one(
            "SELECT server_seed FROM dice_seeds WHERE seed_id = ?", (seed_id,)
        )
        if row is None:
            raise NotFoundError("dice seed", seed_id)
        return bytes(row["server_seed"])
