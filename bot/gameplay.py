"""The game service: the one place where the bot joins the engine, storage and the computer.

Handlers call it with "who did what"; it loads the game, lets the engine decide, plays the
automatic parts (rolling when there is no cube decision, forced passes, single-play turns, the
computer's turns), saves with optimistic concurrency, and returns a :class:`Snapshot` for the
presenter. It never talks to Telegram and never words a message: errors carry a catalog key.
"""

from __future__ import annotations

import asyncio
import random
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import storage
from bot.recent import Recent
from engine import (
    Event,
    Game,
    IllegalActionError,
    IllegalMoveError,
    Match,
    NotationError,
    Options,
    Phase,
    Reason,
    ResultKind,
    Side,
)


class GameplayError(Exception):
    """Something the player should be told; ``key`` is a text-catalog key."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class RuleRejection(GameplayError):
    """An illegal move or action: carries the engine's reason (and so the rule IDs)."""

    def __init__(self, reason: Reason, detail: str = "") -> None:
        super().__init__("rejected", detail=detail)
        self.reason = reason


class NotationRejection(GameplayError):
    """Typed text that is not a move: carries the engine's error (its code and parameters),
    worded by the catalog in the reader's language."""

    def __init__(self, error: NotationError) -> None:
        super().__init__("bad_notation")
        self.error = error


@dataclass(slots=True)
class Snapshot:
    """A game after an action: what the presenter needs to draw and describe it."""

    row: storage.Game
    match: Match
    names: dict[int, str]  # seat -> display name
    user_ids: dict[int, int | None]  # seat -> Telegram user id (None: the computer)
    events: list[Event] = field(default_factory=list)  # new history lines of this action
    forced: bool = False  # a single legal play was played for the human
    finished: storage.FinishedGame | None = None
    next_row: storage.Game | None = None  # the next game of the match, if one started

    @property
    def game(self) -> Game:
        return self.match.current

    @property
    def version(self) -> int:
        return self.row.version

    def seat_of_user(self, user_id: int) -> int | None:
        for seat, uid in self.user_ids.items():
            if uid == user_id:
                return seat
        return None

    @property
    def ai_seat(self) -> int | None:
        for seat, uid in self.user_ids.items():
            if uid is None:
                return seat
        return None


def seat_users(row: storage.Game, game: Game) -> dict[int, int | None]:
    """Which Telegram user sits in each engine seat (colours come from the stored row)."""
    return {
        game.seat_of(Side.WHITE): row.white_user_id,
        game.seat_of(Side.BLACK): row.black_user_id,
    }


def new_move(event: Event) -> storage.NewMove:
    colour = storage.Colour.WHITE if event.side is Side.WHITE else storage.Colour.BLACK
    dice = (event.dice[0], event.dice[1]) if len(event.dice) == 2 else None
    if event.kind in ("move", "pass"):
        play = event.notation
    else:
        extra = f" {event.dice[0]}" if event.dice else ""
        play = f"{event.kind}{extra}".strip()
        dice = None
    return storage.NewMove(colour, dice, play, event.position_id)


def storage_kind(kind: ResultKind) -> storage.ResultKind:
    if kind is ResultKind.HOME_MARS:
        return storage.ResultKind.KOKS  # V-8's «домашний марс» is counted with кокс (×3)
    return storage.ResultKind(str(kind))


class ComputerPlayers:
    """The computer opponent seen from the game service: one cached player per level."""

    def __init__(self, *, seed: int | None = None) -> None:
        self._players: dict[tuple[str, str], Any] = {}
        self.seed = seed

    def _player(self, level: str, variant: str) -> Any:
        import ai

        key = (level, variant)
        player = self._players.get(key)
        if player is None:
            player = ai.get_player(level, variant, seed=self.seed)
            self._players[key] = player
        return player

    def choose_play(self, game: Game, level: str) -> Any:
        assert game.dice is not None
        return self._player(level, game.variant_name).choose_play(
            game.pos,
            game.dice,
            first_turn=game.first_turn(game.side_to_move),
            options=game.options,
        )

    def should_double(self, game: Game, level: str) -> bool:
        return bool(self._player(level, game.variant_name).should_double(game))

    def should_take(self, game: Game, level: str) -> bool:
        return bool(self._player(level, game.variant_name).should_take(game))

    def hints(self, game: Game, n: int = 3) -> list[tuple[Any, float]]:
        import ai

        assert game.dice is not None
        return ai.hint(
            game.pos,
            game.dice,
            first_turn=game.first_turn(game.side_to_move),
            options=game.options,
            n=n,
        )


class GameService:
    """Game actions with per-game locks (one process) and optimistic versions (always)."""

    def __init__(
        self,
        store: storage.Storage,
        *,
        rng: random.Random | None = None,
        ai: Any | None = None,
        invitation_ttl: timedelta = timedelta(hours=24),
    ) -> None:
        self.store = store
        self.rng = rng or random.SystemRandom()
        self.ai = ai
        self.invitation_ttl = invitation_ttl
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._names: Recent[int, str] = Recent(100_000)
        self._matches: Recent[tuple[int, int], Match] = Recent(512)
        self._rows: Recent[int, storage.Game] = Recent(4096)

    async def hints_allowed(self, snap: Snapshot) -> bool:
        """Hints in games between people only where the chat's settings allow them."""
        if snap.ai_seat is not None:
            return True
        if snap.row.chat_id > 0:
            return False
        try:
            chat = await self.store.get_chat(snap.row.chat_id)
        except storage.NotFoundError:
            return False
        return bool(chat.options.get("hints", False))

    async def _settle(
        self, match: Match, seats: dict[int, int | None], ai_level: str | None
    ) -> bool:
        """:meth:`_advance`, in a worker thread when the computer plays (its search is slow)."""
        if any(uid is None for uid in seats.values()):
            return await asyncio.to_thread(self._advance, match, seats, ai_level)
        return self._advance(match, seats, ai_level)

    def hints(self, game: Game) -> list[tuple[Any, float]]:
        """The best plays for the current roll (runs in a worker thread)."""
        if self.ai is None:
            return [(p, 0.0) for p in game.turn.legal_plays[:3]]
        return self.ai.hints(game)

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    # ---- loading ----------------------------------------------------------------------------

    async def name_of(self, user_id: int | None, ai_level: str | None = None) -> str:
        if user_id is None:
            return f"🤖 {ai_level or 'AI'}"
        name = self._names.get(user_id)
        if name is None:
            try:
                name = (await self.store.get_user(user_id)).display_name
            except storage.NotFoundError:
                name = str(user_id)
            self._names[user_id] = name
        return name

    def remember_name(self, user_id: int, name: str) -> None:
        self._names[user_id] = name

    def _match_of(self, row: storage.Game) -> Match:
        """The row's match, from a small cache keyed by (game, version): loading a game is
        the commonest step of every tap, and parsing and re-validating its JSON (which replays
        the legal-move generation) is not free. The version makes a stale entry impossible."""
        cached = self._matches.get((row.game_id, row.version))
        if cached is not None:
            return cached.copy()
        match = Match.from_json(row.state)
        self._remember(row, match)
        return match.copy()

    def _remember(self, row: storage.Game, match: Match) -> None:
        self._matches[(row.game_id, row.version)] = match.copy()

    async def snapshot(self, row: storage.Game, match: Match | None = None) -> Snapshot:
        self._keep_row(row)
        if match is None:
            match = self._match_of(row)
        else:
            self._remember(row, match)
        users = seat_users(row, match.current)
        names = {seat: await self.name_of(uid, row.ai_level) for seat, uid in users.items()}
        return Snapshot(row, match, names, users)

    def _keep_row(self, row: storage.Game) -> None:
        """Remember the newest stored row of each recent game.

        Every write to a game goes through this service, and each returns the row it stored,
        so the newest row is known without reading it back: a tap then costs no database read
        before its answer. A row written by someone else (another process on the same file)
        cannot be overwritten from a stale copy — every save checks the stored version — and
        a version mismatch reloads the row (see :meth:`act`).
        """
        cached = self._rows.get(row.game_id)
        if cached is None or row.version >= cached.version:
            self._rows[row.game_id] = row

    def _forget_row(self, game_id: int) -> None:
        self._rows.pop(game_id, None)

    async def load(self, game_id: int, *, fresh: bool = False) -> Snapshot:
        row = None if fresh else self._rows.get(game_id)
        if row is None:
            try:
                row = await self.store.get_game(game_id)
            except storage.NotFoundError:
                raise GameplayError("game_not_found") from None
        return await self.snapshot(row)

    async def find_for_chat(
        self, chat_id: int, thread_id: int, user_id: int | None, *, private: bool
    ) -> Snapshot | None:
        """The active game shown in this chat (private chats: the user's game shown here)."""
        row = await self.store.get_active_game(chat_id, thread_id)
        if row is None and private and user_id is not None:
            candidates = await self.store.list_user_games(
                user_id, status=storage.GameStatus.ACTIVE, limit=20
            )
            for cand in candidates:
                messages = await self.store.get_game_messages(cand.game_id)
                if any(m.chat_id == chat_id for m in messages):
                    row = cand
                    break
        if row is None:
            return None
        return await self.snapshot(row)

    # ---- creating ---------------------------------------------------------------------------

    def new_match(self, variant: str, length: int, options: Options) -> Match:
        match = Match(variant, length=length, options=options)
        match.current.roll_lot(self.rng)
        return match

    def new_game_row(
        self,
        match: Match,
        chat_id: int,
        thread_id: int,
        seats: dict[int, int | None],
        *,
        ai_level: str | None = None,
    ) -> storage.NewGame:
        game = match.current
        return storage.NewGame(
            variant=match.variant_name,
            chat_id=chat_id,
            thread_id=thread_id,
            white_user_id=seats[game.seat_of(Side.WHITE)],
            black_user_id=seats[game.seat_of(Side.BLACK)],
            state=match.to_json(),
            match_length=match.length,
            options=match.options.to_dict(),
            ai_level=ai_level,
        )

    async def start_vs_ai(
        self, user_id: int, chat_id: int, variant: str, level: str, options: Options
    ) -> Snapshot:
        """A game in a private chat against the computer (the human is seat 0)."""
        match = self.new_match(variant, 1, options)
        seats: dict[int, int | None] = {0: user_id, 1: None}
        await self._settle(match, seats, level)
        try:
            row = await self.store.create_game(
                self.new_game_row(match, chat_id, 0, seats, ai_level=level)
            )
        except storage.ActiveGameExistsError:
            raise GameplayError("game_exists") from None
        row = await self._log_initial(row, match)
        snap = await self.snapshot(row, match)
        snap.events = list(match.current.history)
        return snap

    async def _log_initial(self, row: storage.Game, match: Match) -> storage.Game:
        """Write the move log of what was played before the game's first save (forced opening
        plays, the computer's first turn), so the log is complete from move one."""
        events = [e for e in match.current.history if e.kind in ("move", "pass")]
        if not events:
            return row
        return await self.store.save_game(
            row.game_id, row.version, match.to_json(), moves=[new_move(e) for e in events]
        )

    async def accept(self, token: str, user_id: int, *, chat_id: int, thread_id: int) -> Snapshot:
        """Accept an invitation: roll the lot, seat both players and create the game."""
        try:
            inv = await self.store.get_invitation(token)
        except storage.NotFoundError:
            raise GameplayError("invite_unknown") from None
        if inv.inviter_id == user_id:
            raise GameplayError("invite_own")
        if inv.state is not storage.InvitationState.PENDING:
            raise GameplayError("invite_closed")
        match = self.new_match(
            str(inv.variant), inv.match_length, Options.from_dict(dict(inv.options))
        )
        seats: dict[int, int | None] = {0: inv.inviter_id, 1: user_id}
        await self._settle(match, seats, None)
        game_chat = inv.chat_id if inv.chat_id is not None else inv.inviter_id
        game_thread = inv.thread_id if inv.chat_id is not None else 0
        if game_chat > 0:
            await self.store.upsert_chat(game_chat, storage.ChatType.PRIVATE)
        try:
            accepted = await self.store.accept_invitation(
                token,
                user_id,
                game=self.new_game_row(match, game_chat, game_thread, seats),
            )
        except storage.InvitationExpiredError:
            raise GameplayError("invite_expired") from None
        except storage.InvitationNotForYouError:
            raise GameplayError("invite_not_for_you") from None
        except storage.InvitationNotPendingError:
            raise GameplayError("invite_closed") from None
        except storage.ActiveGameExistsError:
            raise GameplayError("game_exists") from None
        assert accepted.game is not None
        row = await self._log_initial(accepted.game, match)
        snap = await self.snapshot(row, match)
        snap.events = list(match.current.history)
        return snap

    # ---- acting -----------------------------------------------------------------------------

    async def act(
        self,
        game_id: int,
        user_id: int,
        action: Callable[[Game, int], object],
        *,
        version: int | None = None,
        anyone: bool = False,
        decided: Callable[[], object] | None = None,
    ) -> Snapshot:
        """Run ``action(game, seat)`` for ``user_id`` and everything automatic after it.

        ``version`` (from a button) must match the stored one, else the board is outdated.
        Only the seat that must act may act, unless ``anyone`` (resigning is always allowed).
        ``decided()`` is called as soon as the engine has accepted the action — before the
        computer's reply and before the save — so a button can be answered without waiting
        for either. (If the save then fails, the board simply stays as it was.)
        """
        async with self.lock(game_id):
            snap = await self.load(game_id)
            if version is not None and version != snap.row.version:
                snap = await self.load(game_id, fresh=True)  # written elsewhere?
            row, match = snap.row, snap.match
            if row.status is not storage.GameStatus.ACTIVE:
                raise GameplayError("game_over_already")
            if version is not None and version != row.version:
                raise GameplayError("outdated")
            seat = snap.seat_of_user(user_id)
            if seat is None:
                raise GameplayError("not_a_player")
            game = match.current
            if not anyone and game.seat_to_act != seat:
                raise GameplayError("not_your_turn")
            before = len(game.history)
            try:
                action(game, seat)
            except IllegalMoveError as exc:
                raise RuleRejection(exc.reason, exc.detail) from None
            except IllegalActionError as exc:
                if exc.reason in (Reason.NOT_YOUR_TURN, Reason.NO_DICE, Reason.WRONG_PHASE):
                    raise GameplayError("not_your_turn") from None
                raise RuleRejection(exc.reason, exc.detail) from None
            except NotationError as exc:
                raise NotationRejection(exc) from None
            if decided is not None:
                decided()
            forced = await self._settle(match, snap.user_ids, row.ai_level)
            return await self._save(snap, before, forced)

    def _advance(self, match: Match, seats: dict[int, int | None], ai_level: str | None) -> bool:
        """Play everything that needs no human decision; True if a human's only legal play
        was played for them."""
        forced = False
        for _ in range(1000):
            game = match.current
            if game.phase is Phase.OVER:
                return forced
            if game.phase is Phase.OPENING:
                game.roll_lot(self.rng)
                continue
            actor = game.seat_to_act
            assert actor is not None
            is_ai = seats.get(actor, 0) is None
            if game.phase is Phase.DOUBLE:
                if not is_ai:
                    return forced
                if self.ai is not None and self.ai.should_take(game, ai_level or "medium"):
                    game.take(actor)
                else:
                    game.drop(actor)
                continue
            if game.phase is Phase.ROLL:
                if is_ai:
                    if (
                        game.can_double(actor)
                        and self.ai is not None
                        and self.ai.should_double(game, ai_level or "medium")
                    ):
                        game.offer_double(actor)
                        continue
                elif game.can_double(actor):
                    return forced
                game.roll(self.rng, seat=actor)
                continue
            if game.phase is Phase.MOVE:
                turn = game.turn
                if is_ai:
                    play = self._ai_play(game, ai_level)
                    game.play(play, seat=actor)
                    continue
                single = turn.single_play
                if single is not None and not game.steps:
                    game.play(single, seat=actor)
                    forced = True
                    continue
                return forced
        raise RuntimeError("game did not settle")  # pragma: no cover

    def _ai_play(self, game: Game, level: str | None):
        turn = game.turn
        if self.ai is None:
            return turn.legal_plays[0]
        return self.ai.choose_play(game, level or "medium")

    async def _save(self, snap: Snapshot, before: int, forced: bool) -> Snapshot:
        row, match = snap.row, snap.match
        game = match.current
        events = game.history[before:]
        moves = [new_move(e) for e in events if e.kind != "roll" and e.kind != "end"]
        score = _score_by_colour(match, game)
        try:
            if game.phase is Phase.OVER and game.result is not None:
                match.record_result()
                score = _score_by_colour(match, game)
                result = storage.GameResult(
                    storage.Colour(game.result.winner.label),
                    storage_kind(game.result.kind),
                    game.result.points,
                )
                finished = await self.store.finish_game(
                    row.game_id, row.version, match.to_json(), result, moves=moves, score=score
                )
                out = await self.snapshot(finished.game, match)
                out.finished = finished
                if not match.is_over:
                    out.next_row = await self._start_next(finished.game, match, out.user_ids)
            else:
                saved = await self.store.save_game(
                    row.game_id, row.version, match.to_json(), moves=moves, score=score
                )
                out = await self.snapshot(saved, match)
        except storage.StaleVersionError:
            self._forget_row(row.game_id)
            raise GameplayError("outdated") from None
        except storage.GameNotActiveError:
            self._forget_row(row.game_id)
            raise GameplayError("game_over_already") from None
        out.events = list(events)
        out.forced = forced
        return out

    async def _start_next(
        self, row: storage.Game, match: Match, seats: dict[int, int | None]
    ) -> storage.Game | None:
        """The next game of a match (M-15 … M-18) as a new stored game in the same chat."""
        nxt = match.copy()
        nxt.next_game()
        await self._settle(nxt, seats, row.ai_level)
        try:
            new_row = await self.store.create_game(
                self.new_game_row(nxt, row.chat_id, row.thread_id, seats, ai_level=row.ai_level)
            )
        except storage.ActiveGameExistsError:
            return None
        return await self._log_initial(new_row, nxt)

    async def rematch(self, game_id: int, user_id: int) -> Snapshot:
        """A new match with the same players and settings, after a finished one."""
        snap = await self.load(game_id)
        row = snap.row
        if row.status is storage.GameStatus.ACTIVE:
            raise GameplayError("game_exists")
        if snap.seat_of_user(user_id) is None:
            raise GameplayError("not_a_player")
        match = self.new_match(snap.match.variant_name, snap.match.length, snap.match.options)
        seats = dict(snap.user_ids)
        await self._settle(match, seats, row.ai_level)
        try:
            new_row = await self.store.create_game(
                self.new_game_row(match, row.chat_id, row.thread_id, seats, ai_level=row.ai_level)
            )
        except storage.ActiveGameExistsError:
            raise GameplayError("game_exists") from None
        new_row = await self._log_initial(new_row, match)
        out = await self.snapshot(new_row, match)
        out.events = list(match.current.history)
        return out

    async def abandon(self, game_id: int) -> None:
        self._forget_row(game_id)
        row = await self.store.get_game(game_id)
        if row.status is storage.GameStatus.ACTIVE:
            await self.store.abandon_game(row.game_id, row.version)

    # ---- invitations ------------------------------------------------------------------------

    async def invite(
        self,
        inviter_id: int,
        variant: str,
        *,
        chat_id: int | None,
        thread_id: int = 0,
        invitee_id: int | None = None,
        match_length: int = 1,
        options: Options | None = None,
    ) -> storage.Invitation:
        expires = datetime.now(UTC) + self.invitation_ttl
        return await self.store.create_invitation(
            storage.NewInvitation(
                inviter_id=inviter_id,
                variant=variant,
                expires_at=expires,
                chat_id=chat_id,
                thread_id=thread_id,
                invitee_id=invitee_id,
                match_length=match_length,
                options=(options or Options()).to_dict(),
            )
        )


def _score_by_colour(match: Match, game: Game) -> tuple[int, int]:
    """(white's, black's) match score for the stored row's score columns."""
    return (match.score[game.seat_of(Side.WHITE)], match.score[game.seat_of(Side.BLACK)])
