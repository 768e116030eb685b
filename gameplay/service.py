"""The game service: the one place that joins the engine, storage and the computer.

A change to a game is asked in two steps, so that the person who asked can be answered as
soon as the rules have spoken and before the (slower) computer's reply and save:

1. :meth:`GameService.decide` takes the game's lock, loads the game (from memory), checks
   who may act and lets the engine apply the action: a :class:`Decision`, or
   :class:`~gameplay.refusals.Refused` (nothing changed, the lock is released);
2. :meth:`GameService.commit` plays what needs nobody's decision (rolls without a cube
   question, forced passes, single-play turns, the computer's turns), saves with optimistic
   concurrency — claiming the Telegram update in the same transaction — and releases the lock:
   an :class:`Outcome`.

It never talks to Telegram and never words a message.
"""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import storage
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
from engine import Play as EnginePlay
from engine.fairness import FairDice, new_server_seed
from gameplay import clocks, fair_dice
from gameplay.actions import (
    ANYTIME,
    Action,
    Actor,
    Commit,
    Double,
    Drop,
    Place,
    PlayText,
    Resign,
    Roll,
    Step,
    Take,
    Undo,
    WholePlay,
)
from gameplay.cache import GameCache
from gameplay.clocks import ClockState, MoveClock
from gameplay.computer import ComputerPlayers
from gameplay.people import Chats, Players
from gameplay.refusals import Refusal, Refused
from gameplay.snapshot import Snapshot, seat_users
from storage.recent import Recent

log = logging.getLogger(__name__)

LEVELS = ("easy", "medium", "hard")
# The engine's order-of-play reasons (C-13) say *when* an action was out of place; the person
# is told that, not a rule.
ORDER_OF_PLAY: dict[Reason, Refusal] = {
    Reason.NOT_YOUR_TURN: Refusal.NOT_YOUR_TURN,
    Reason.NO_DICE: Refusal.NO_DICE_YET,
    Reason.WRONG_PHASE: Refusal.WRONG_PHASE,
}
DEFAULT_LEVEL = "medium"
#: How often a typed action that lost a race is decided again on the newer state.
ACT_RETRIES = 2
#: Seconds a chat's settings or language, once read, are believed when other processes may
#: change them (several workers on one database).
SHARED_MAX_AGE = 5.0
#: The versions a new game's own writes reach: its row, then its opening move log.
OPENING_VERSIONS = 2
#: How long a worker's claim on a new game's first board stands (drawing and sending it take
#: seconds): after it, a worker that died before sending no longer keeps others from it.
FIRST_BOARD_LEASE = timedelta(seconds=60)
# A match to many points has more games; more than this is not a real match.
MATCH_GAMES_LIMIT = 200


class NoDiceReport(Exception):
    """A game's dice cannot be reported: ``reason`` "none" (a game stored before dice seeds)
    or "not_over" (its match is still on, so its seed is still secret)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def new_move(event: Event) -> storage.NewMove:
    """The move-log line of a history event (plays and passes with their dice; cube actions
    and resignations by name)."""
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


def stored_result(game: Game) -> storage.GameResult:
    """The engine's result of a finished game, as storage records it."""
    assert game.result is not None
    return storage.GameResult(
        storage.Colour(game.result.winner.label),
        storage_kind(game.result.kind),
        game.result.points,
    )


# What storage's refusal of a timeout claim means for the person who tapped.
CLAIM_REFUSALS: dict[str, Refusal] = {
    "no_clock": Refusal.CLAIM_NO_CLOCK,
    "not_expired": Refusal.CLAIM_NOT_YET,
    "on_clock": Refusal.CLAIM_OWN_CLOCK,
    "not_a_player": Refusal.NOT_A_PLAYER,
}


# A game's dice: its seed's stream, or (a game stored before dice seeds) the service's rng.
Dice = FairDice | None


@dataclass(slots=True)
class Decision:
    """An action the engine accepted, not saved yet. It holds the game's lock: pass it to
    :meth:`GameService.commit` (or :meth:`release` it) promptly."""

    snap: Snapshot  # the game as it was loaded
    match: Match  # the same match with the action applied
    seat: int
    action: Action
    before: int  # length of the current game's history before the action
    _lock: asyncio.Lock | None
    dice: Dice = None  # the game's fair dice, continuing its stored stream (None: no seed)

    def release(self) -> None:
        """Give the game's lock back (idempotent); the decision can no longer be saved."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    @property
    def held(self) -> bool:
        return self._lock is not None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a commit did: the saved game (``snap``; its ``events`` are the new history lines,
    the computer's turns included, and ``forced_plays`` the plays made for a person because
    they were the only legal ones), or
    nothing at all because this Telegram update had been processed before (``snap`` None)."""

    snap: Snapshot | None

    @property
    def duplicate(self) -> bool:
        return self.snap is None


@dataclass(frozen=True, slots=True)
class Hints:
    dice: tuple[int, int]
    plays: list[EnginePlay]


class GameService:
    """Game actions with per-game locks (one process) and optimistic versions (always).

    ``sole_writer`` False: other processes write the same database (several bot workers on
    PostgreSQL). The per-game lock then only orders this process's own actions; the stored
    version is what serialises them all (a save from an older version fails, and the person is
    told the board is outdated, never that it was applied twice). Every load reads the stored
    row, so a game another worker moved on is seen at once; the cache still saves parsing its
    state when the row's version is the remembered one.
    """

    def __init__(
        self,
        store: storage.Storage,
        *,
        rng: random.Random | None = None,
        ai: ComputerPlayers | None = None,
        players: Players | None = None,
        chats: Chats | None = None,
        cache_size: int = 4096,
        clock: Callable[[], datetime] | None = None,
        abandon_after: timedelta = clocks.ABANDON_AFTER,
        sole_writer: bool = True,
    ) -> None:
        self.store = store
        self.sole_writer = sole_writer
        # The moment move clocks count from; the store's clock must be the same one (tests
        # inject one clock into both and advance it instead of sleeping).
        self.clock = clock or (lambda: datetime.now(UTC))
        self.abandon_after = abandon_after
        # Told the earliest event of every clock written (the scheduler wakes for it).
        self.on_clock_written: Callable[[datetime], None] | None = None
        self.rng = rng or random.SystemRandom()
        # Server seeds come from the OS's CSPRNG; a test that injects a seeded rng gets
        # reproducible seeds (and so reproducible fair dice) from it instead.
        self._server_seed = new_server_seed if rng is None else lambda: self.rng.randbytes(32)
        self.ai = ai
        self.players = players or Players(store, sole_writer=sole_writer)
        # Another worker may change a chat's settings: believe what was read for a few seconds.
        self.chats = chats or Chats(store, max_age=None if sole_writer else SHARED_MAX_AGE)
        self.cache = GameCache(cache_size)
        self._inline_lost: Recent[str, bool] = Recent(cache_size)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    # ---- loading ----------------------------------------------------------------------------

    async def snapshot(
        self, row: storage.Game, match: Match | None = None, *, remember: bool = True
    ) -> Snapshot:
        """The snapshot of a stored row (``match``: its state, when the caller has it; it is
        remembered as the game's newest state unless it came from the cache)."""
        if match is None:
            cached = self.cache.get(row.game_id)
            if cached is not None and cached[0].version == row.version:
                match = cached[1]
            else:
                match = Match.from_json(row.state)
                self.cache.put(row, match)
        elif remember:
            self.cache.put(row, match)
        users = seat_users(row, match.current)
        names = {
            seat: await self.players.name_of(uid) for seat, uid in users.items() if uid is not None
        }
        snap = Snapshot(row, match, names, users)
        snap.hints = await self.hints_allowed(snap)
        snap.move_clock = clocks.game_clock(row.options)
        if snap.active:
            snap.clock = clocks.view_since(
                snap.move_clock, row.updated_at, snap.on_clock_user_id, self.clock()
            )
        return snap

    def clock_update(
        self, options: Mapping[str, Any], match: Match, seats: dict[int, int | None]
    ) -> storage.ClockUpdate:
        """The clock of the move that follows a write of ``match`` (every game write passes
        one, in its transaction): counted from now, for the person to act (nobody when the
        computer is to move — then only abandonment applies)."""
        game = match.current
        seat = game.seat_to_act
        on_clock = None if seat is None or game.phase is Phase.OVER else seats.get(seat)
        update = clocks.clock_update(
            clocks.game_clock(options),
            self.clock(),
            move=clocks.move_number(game, match.game_number),
            on_clock_user_id=on_clock,
            abandon_after=self.abandon_after,
        )
        if self.on_clock_written is not None:
            due = [t for t in (update.remind_at, update.abandon_at) if t is not None]
            self.on_clock_written(min(due))
        return update

    async def load(self, game_id: int, *, fresh: bool = False) -> Snapshot:
        """The game, from memory unless ``fresh``; Refused(GAME_NOT_FOUND) if there is none."""
        cached = None if fresh or not self.sole_writer else self.cache.get(game_id)
        if cached is not None:
            return await self.snapshot(*cached, remember=False)
        try:
            row = await self.store.get_game(game_id)
        except storage.NotFoundError:
            raise Refused(Refusal.GAME_NOT_FOUND) from None
        return await self.snapshot(row)

    async def load_for_tap(
        self,
        game_id: int,
        user_id: int,
        version: int,
        *,
        anytime: bool = False,
        check: bool = True,
    ) -> Snapshot:
        """The game a board button belongs to, checked for the person tapping it: Refused
        when the board is outdated, the game is over, or it is not their turn (``anytime``:
        any player may act). A button newer than the remembered game reloads it (another
        process wrote it)."""
        snap = await self.load(game_id)
        if version > snap.version:
            snap = await self.load(game_id, fresh=True)
        if check:
            self._check(snap, user_id, version, anytime=anytime)
        return snap

    @staticmethod
    def _check(snap: Snapshot, user_id: int, version: int | None, *, anytime: bool) -> int:
        """The seat of ``user_id`` if they may act on ``snap`` now (the one such check)."""
        if not snap.active:
            raise Refused(Refusal.GAME_OVER)
        if version is not None and version != snap.version:
            raise Refused(Refusal.OUTDATED)
        seat = snap.seat_of_user(user_id)
        if seat is None:
            raise Refused(Refusal.NOT_A_PLAYER)
        if not anytime and snap.game.seat_to_act != seat:
            raise Refused(Refusal.NOT_YOUR_TURN)
        return seat

    async def find_inline(self, inline_message_id: str) -> Snapshot | None:
        """The game played in an inline message (the newest of its match), if any."""
        row = await self.store.find_game_by_inline_message(inline_message_id)
        return None if row is None else await self.snapshot(row)

    async def inline_lost(self, inline_message_id: str) -> bool:
        """Whether the bot can no longer edit this inline message (read once, then kept)."""
        known = self._inline_lost.get(inline_message_id)
        if known is None:
            known = await self.store.inline_message_lost(inline_message_id)
            self._inline_lost[inline_message_id] = known
        return known

    async def lose_inline(self, inline_message_id: str) -> bool:
        """Record that the inline message is lost; True the first time (tell the players)."""
        self._inline_lost[inline_message_id] = True
        return await self.store.mark_inline_message_lost(inline_message_id)

    async def inline_games(self, user_id: int, limit: int = 10) -> list[Snapshot]:
        """The person's active games that live in inline messages, newest first."""
        rows = await self.store.list_user_games(user_id, status=storage.GameStatus.ACTIVE, limit=50)
        return [await self.snapshot(r) for r in rows if r.inline_message_id is not None][:limit]

    async def find_for_chat(self, place: Place, user_id: int | None) -> Snapshot | None:
        """The active game shown here (a private chat: the user's game shown in it)."""
        row = await self.store.get_active_game(place.chat_id, place.thread_id)
        if row is None and place.private and user_id is not None:
            candidates = await self.store.list_user_games(
                user_id, status=storage.GameStatus.ACTIVE, limit=20
            )
            # A game of an inline message shown here (/board) comes after the chat's own.
            candidates.sort(key=lambda g: g.inline_message_id is not None)
            for cand in candidates:
                messages = await self.store.get_game_messages(cand.game_id)
                if any(m.chat_id == place.chat_id for m in messages):
                    row = cand
                    break
        if row is None:
            return None
        return await self.snapshot(row)

    # ---- hints ------------------------------------------------------------------------------

    async def hints_allowed(self, snap: Snapshot) -> bool:
        """The one rule for hints: always against the computer; in games between people only
        where the chat's settings switched them on (a private chat cannot: its settings have
        no such switch)."""
        if snap.ai_seat is not None:
            return True
        return await self.chats.hints_on(snap.row.chat_id)

    async def hints(self, actor: Actor, snap: Snapshot) -> Hints:
        """The best plays of the current roll for ``actor`` (the computer searches in a
        worker thread); Refused when hints are off here or there is nothing to hint."""
        seat = snap.seat_of_user(actor.user_id)
        if seat is None:
            raise Refused(Refusal.NOT_A_PLAYER)
        if not snap.hints:
            raise Refused(Refusal.HINTS_OFF)
        game = snap.game
        if game.phase is not Phase.MOVE or game.seat_to_act != seat or game.dice is None:
            raise Refused(Refusal.NO_HINT_NOW)
        if self.ai is None:
            plays = list(game.turn.legal_plays[:3])
        else:
            plays = [p for p, _ in await asyncio.to_thread(self.ai.hints, game)]
        return Hints(game.dice, plays)

    # ---- acting -----------------------------------------------------------------------------

    async def decide(
        self,
        actor: Actor,
        action: Action,
        *,
        game_id: int,
        version: int | None = None,
        loaded: Snapshot | None = None,
    ) -> Decision:
        """Let the engine apply ``action`` for ``actor``; the returned decision holds the
        game's lock until :meth:`commit`.

        ``version`` (from a button) must match the stored one, else the board is outdated.
        ``loaded`` is the game as the tap's middleware loaded it: used as is when it is still
        the newest, so a tap loads its game once.
        """
        await self.players.seen(actor)
        lock = self.lock(game_id)
        await lock.acquire()
        try:
            snap = loaded
            newest = self.cache.get_version(game_id)
            if snap is None or newest is None or snap.version != newest:
                snap = await self.load(game_id)
                if version is not None and version != snap.version:
                    snap = await self.load(game_id, fresh=True)  # written elsewhere?
            seat = self._check(snap, actor.user_id, version, anytime=isinstance(action, ANYTIME))
            match = snap.match
            game = match.current
            before = len(game.history)
            # A step or an undo leaves the turn being entered: nothing is rolled after it,
            # so the seed is not read (one storage round trip fewer on most taps).
            dice = None if isinstance(action, (Step, Undo)) else await self.dice_of(snap.row)
            self._apply(game, seat, action, dice)
        except BaseException:
            lock.release()
            raise
        return Decision(snap, match, seat, action, before, lock, dice)

    async def dice_of(self, row: storage.Game) -> Dice:
        """The game's fair dice, continuing after the last die stored: a retried action draws
        the same dice again, never new ones (None for a game stored before dice seeds)."""
        if row.dice_seed_id is None:
            return None
        return await fair_dice.dice_for(self.store, row.dice_seed_id)

    def _apply(self, game: Game, seat: int, action: Action, dice: Dice = None) -> None:
        try:
            match action:
                case Roll():
                    game.roll(dice or self.rng, seat=seat)
                case Step(src=src, dst=dst):
                    game.step(src, dst, seat=seat)
                case Undo():
                    if game.phase is not Phase.MOVE or not game.undo(seat=seat):
                        raise Refused(Refusal.NOTHING_TO_UNDO)
                case Commit():
                    game.commit(seat=seat)
                case PlayText(text=text):
                    if game.phase is not Phase.MOVE:
                        raise Refused(Refusal.NO_DICE_YET)
                    turn = game.apply_text(text, seat=seat)
                    if turn.is_complete() and not turn.legal_steps():
                        game.commit(seat=seat)
                case WholePlay(index=index):
                    if game.phase is not Phase.MOVE:
                        raise Refused(Refusal.NO_DICE_YET)
                    plays = game.turn.legal_plays
                    if not 0 <= index < len(plays):
                        raise Refused(Refusal.OUTDATED)
                    game.play(plays[index], seat=seat)
                case Double():
                    game.offer_double(seat)
                case Take():
                    game.take(seat)
                case Drop():
                    game.drop(seat)
                case Resign():
                    game.resign(seat)
        except IllegalMoveError as exc:
            raise Refused(Refusal.ILLEGAL, reason=exc.reason, detail=exc.detail) from None
        except IllegalActionError as exc:
            precise = ORDER_OF_PLAY.get(exc.reason)
            if precise is not None:
                raise Refused(precise, detail=exc.detail) from None
            raise Refused(Refusal.ILLEGAL, reason=exc.reason, detail=exc.detail) from None
        except NotationError as exc:
            raise Refused(Refusal.BAD_NOTATION, detail=str(exc), notation=exc) from None

    async def commit(self, decision: Decision, *, update_id: int | None = None) -> Outcome:
        """Play what follows automatically, save (claiming ``update_id`` in the same
        transaction) and release the lock. Refused(OUTDATED / GAME_OVER) if another writer
        won a race; a duplicate update saves nothing (``Outcome.duplicate``)."""
        if not decision.held:
            raise RuntimeError("a decision can be committed once")
        try:
            snap, match = decision.snap, decision.match
            forced = await self._settle(match, snap.user_ids, snap.row.ai_level, decision.dice)
            return Outcome(
                await self._save(snap, match, decision.before, forced, update_id, decision.dice)
            )
        finally:
            decision.release()

    async def act(
        self,
        actor: Actor,
        action: Action,
        *,
        game_id: int,
        version: int | None = None,
        update_id: int | None = None,
    ) -> Outcome:
        """:meth:`decide` and :meth:`commit` at once, for callers with nobody to answer early.

        An action without a version (a typed move: it means "on the game as it is now") that
        loses a race to another writer is decided again on the newer state, a few times, rather
        than refused as outdated; the engine judges it afresh, so it is applied once or refused
        for a reason that holds now."""
        for attempt in range(ACT_RETRIES + 1):
            decision = await self.decide(actor, action, game_id=game_id, version=version)
            try:
                return await self.commit(decision, update_id=update_id)
            except Refused as refused:
                if version is not None or refused.refusal is not Refusal.OUTDATED:
                    raise
                if attempt == ACT_RETRIES:
                    raise
                log.info("game %s moved on under a typed action; deciding again", game_id)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _settle(
        self,
        match: Match,
        seats: dict[int, int | None],
        ai_level: str | None,
        dice: Dice = None,
    ) -> list[Event]:
        """:meth:`advance`, in a worker thread when the computer plays (its search is slow)."""
        if any(uid is None for uid in seats.values()):
            return await asyncio.to_thread(self.advance, match, seats, ai_level, dice)
        return self.advance(match, seats, ai_level, dice)

    def advance(
        self,
        match: Match,
        seats: dict[int, int | None],
        ai_level: str | None,
        dice: Dice = None,
    ) -> list[Event]:
        """Play everything that needs no person's decision (the opening lot included, drawn
        from ``dice``); the plays made for a person because they were their only legal ones
        (a caption marks those and no other)."""
        rng = dice or self.rng
        forced: list[Event] = []
        level = ai_level or DEFAULT_LEVEL
        for _ in range(1000):
            game = match.current
            if game.phase is Phase.OVER:
                return forced
            if game.phase is Phase.OPENING:
                game.roll_lot(rng)
                continue
            actor = game.seat_to_act
            assert actor is not None
            is_ai = seats.get(actor, 0) is None
            if game.phase is Phase.DOUBLE:
                if not is_ai:
                    return forced
                if self.ai is not None and self.ai.should_take(game, level, match):
                    game.take(actor)
                else:
                    game.drop(actor)
                continue
            if game.phase is Phase.ROLL:
                if is_ai:
                    if (
                        game.can_double(actor)
                        and self.ai is not None
                        and self.ai.should_double(game, level, match)
                    ):
                        game.offer_double(actor)
                        continue
                elif game.can_double(actor):
                    return forced
                game.roll(rng, seat=actor)
                continue
            if game.phase is Phase.MOVE:
                if is_ai:
                    play = (
                        game.turn.legal_plays[0]
                        if self.ai is None
                        else self.ai.choose_play(game, level)
                    )
                    game.play(play, seat=actor)
                    continue
                single = game.turn.single_play
                if single is not None and not game.steps:
                    start = len(game.history)
                    game.play(single, seat=actor)
                    forced.extend(e for e in game.history[start:] if e.kind in ("move", "pass"))
                    continue
                return forced
        raise RuntimeError("game did not settle")  # pragma: no cover

    async def _save(
        self,
        snap: Snapshot,
        match: Match,
        before: int,
        forced: list[Event],
        update_id: int | None,
        dice: Dice = None,
    ) -> Snapshot | None:
        row = snap.row
        rolls = fair_dice.drawn(dice) if dice is not None else None
        game = match.current
        events = game.history[before:]
        moves = [new_move(e) for e in events if e.kind != "roll" and e.kind != "end"]
        try:
            if game.phase is Phase.OVER and game.result is not None:
                match.record_result()
                result = stored_result(game)
                nxt = await self._prepare_next(row, match, snap.user_ids, dice)
                finished = await self.store.finish_game(
                    row.game_id,
                    row.version,
                    match.to_json(),
                    result,
                    moves=moves,
                    score=_score_by_colour(match, game),
                    update_id=update_id,
                    dice=rolls,
                    next_game=None if nxt is None else nxt[0],
                )
                out = await self._after_finish(finished, match, nxt)
            else:
                saved = await self.store.save_game(
                    row.game_id,
                    row.version,
                    match.to_json(),
                    moves=moves,
                    score=_score_by_colour(match, game),
                    update_id=update_id,
                    dice=rolls,
                    clock=self.clock_update(row.options, match, snap.user_ids),
                )
                out = await self.snapshot(saved, match)
        except storage.DuplicateUpdateError:
            return None  # this update was saved before (a redelivery): nothing to do again
        except storage.StaleVersionError:
            self.cache.forget(row.game_id)
            raise Refused(Refusal.OUTDATED) from None
        except storage.GameNotActiveError:
            self.cache.forget(row.game_id)
            raise Refused(Refusal.GAME_OVER) from None
        out.events = list(events)
        out.forced_plays = forced
        return out

    async def _after_finish(
        self,
        finished: storage.FinishedGame,
        match: Match,
        nxt: tuple[storage.NextGame, Match] | None,
    ) -> Snapshot:
        """A game just finished with a result: reveal the seed if the match is over, else
        describe its next game (stored with the finish) as its first board shows it."""
        out = await self.snapshot(finished.game, match)
        out.finished = finished
        if match.is_over:
            await self._reveal(finished.game.dice_seed_id)
        elif finished.next_game is not None and nxt is not None:
            out.next_game = await self._first_view(finished.next_game, nxt[1])
        return out

    async def next_in_match(self, snap: Snapshot) -> Snapshot | None:
        """The match's game that came after ``snap``'s (the first stored with its finish):
        the newest, as its first board shows it (as it stands, once someone has played in
        it); None while ``snap`` is active, after the match, or for a game without a dice seed
        (its match's games cannot be told from others). A redelivered update that had
        finished a game shows this board, which the worker that saved the finish may have
        died before sending; an inline match's one message must show the game in play, not
        the end of one between. A match that older code left without its next game gets it
        now (:meth:`_start_missing_next`)."""
        if snap.active or snap.match.is_over or snap.row.dice_seed_id is None:
            return None
        return await self._newest_after(snap, repair=True)

    async def _newest_after(self, snap: Snapshot, *, repair: bool) -> Snapshot | None:
        """The match's newest game after ``snap``'s (see next_in_match); none stored: started
        now if ``repair``, else None."""
        later = [g for g in await self.store.match_games(snap.game_id) if g.game_id > snap.game_id]
        if not later:
            return await self._start_missing_next(snap) if repair else None
        newest = later[-1]
        if newest.version > OPENING_VERSIONS:  # played on since (an inline message's, say)
            return await self.snapshot(newest)
        return await self._first_view(newest)

    async def _start_missing_next(self, snap: Snapshot) -> Snapshot | None:
        """The next game of a match that finished ``snap``'s game without one, started now:
        before session 8 the finish and the next game were two writes, and a worker that died
        between them left the match stuck. Once: under the game's lock, looked for again, and
        in a write of the finished game's version (another worker starting it at the same
        moment loses; an inline game, which holds no chat, has nothing else to keep a second
        one out), as the place's one active game (None if the players have started another
        there)."""
        if snap.row.status is not storage.GameStatus.FINISHED or snap.game.result is None:
            return None
        async with self.lock(snap.game_id):
            started = await self._newest_after(snap, repair=False)
            if started is not None:  # meanwhile, here
                return started
            nxt = await self._prepare_next(snap.row, snap.match, snap.user_ids)
            if nxt is None:
                return None
            try:
                row = await self.store.start_next_game(snap.game_id, snap.version, nxt[0])
            except storage.StaleVersionError:  # meanwhile, by another worker
                self.cache.forget(snap.game_id)
                return await self._newest_after(snap, repair=False)
            self.cache.forget(snap.game_id)  # its version moved on
            if row is None:
                return None
            log.info("game %s: its match's next game %s started late", snap.game_id, row.game_id)
            return await self._first_view(row, nxt[1])

    async def claim_first_board(self, game_id: int) -> bool:
        """Whether this process is to send the new game's first board: always when it is the
        sole writer (it knows what it sends), else only if it claims it in storage first —
        several workers may show one finished game at once. A claim whose worker died
        before sending runs out after :data:`FIRST_BOARD_LEASE`."""
        if self.sole_writer:
            return True
        return await self.store.claim_first_board(game_id, lease=FIRST_BOARD_LEASE)

    # ---- move clocks and ending without play -------------------------------------------------

    async def claim(
        self, actor: Actor, game_id: int, version: int, *, update_id: int | None = None
    ) -> Outcome:
        """The waiting player claims a game whose move clock ran out: scored as the
        resignation of the player on the clock (RULES.md M-19); in a match only this game
        ends and the match goes on. Storage checks the deadline and the version in the same
        transaction, so a move that came first stands and a second claim finds the game over.
        """
        await self.players.seen(actor)
        async with self.lock(game_id):
            snap = await self.load(game_id, fresh=True)
            seat = self._check(snap, actor.user_id, version, anytime=True)
            view = snap.clock
            if view is None or view.state is ClockState.OFF:
                raise Refused(Refusal.CLAIM_NO_CLOCK)
            if view.on_clock_user_id == actor.user_id:
                raise Refused(Refusal.CLAIM_OWN_CLOCK)
            if view.state is not ClockState.EXPIRED:
                raise Refused(Refusal.CLAIM_NOT_YET)
            match = snap.match
            game = match.current
            before = len(game.history)
            game.resign(1 - seat)
            assert game.result is not None
            match.record_result()
            result = stored_result(game)
            moves = [new_move(e) for e in game.history[before:] if e.kind not in ("roll", "end")]
            nxt = await self._prepare_next(snap.row, match, snap.user_ids)
            try:
                finished = await self.store.claim_timeout(
                    game_id,
                    snap.version,
                    actor.user_id,
                    match.to_json(),
                    result,
                    moves=moves,
                    score=_score_by_colour(match, game),
                    update_id=update_id,
                    next_game=None if nxt is None else nxt[0],
                )
            except storage.DuplicateUpdateError:
                return Outcome(None)
            except storage.ClaimRefusedError as exc:
                self.cache.forget(game_id)
                raise Refused(CLAIM_REFUSALS.get(exc.reason, Refusal.CLAIM_NOT_YET)) from None
            except storage.StaleVersionError:
                self.cache.forget(game_id)
                raise Refused(Refusal.OUTDATED) from None
            except storage.GameNotActiveError:
                self.cache.forget(game_id)
                raise Refused(Refusal.GAME_OVER) from None
            out = await self._after_finish(finished, match, nxt)
            out.events = list(game.history[before:])
            return Outcome(out)

    async def end_by_admin(self, game_id: int, *, update_id: int | None = None) -> Snapshot | None:
        """A chat admin ends the game (the bot checked the rights): abandoned, recorded as
        ended by an admin, no statistics or rating change. None for a repeated update."""
        async with self.lock(game_id):
            snap = await self.load(game_id, fresh=True)
            if not snap.active:
                raise Refused(Refusal.GAME_OVER)
            try:
                row = await self.store.abandon_game(
                    game_id, snap.version, update_id=update_id, reason=storage.EndReason.ADMIN
                )
            except storage.DuplicateUpdateError:
                return None
            return await self._closed(row, snap.match)

    async def offer_abandon(self, actor: Actor, game_id: int) -> Snapshot:
        """A player offers the other to abandon the game by agreement (the offer lapses with
        the next move); the game as it stands, for wording the offer."""
        await self.players.seen(actor)
        snap = await self.load(game_id, fresh=True)
        self._check(snap, actor.user_id, None, anytime=True)
        if snap.ai_seat is not None:
            raise Refused(Refusal.ABANDON_VS_COMPUTER)
        try:
            await self.store.offer_abandon(game_id, actor.user_id, snap.version)
        except storage.StaleVersionError:
            raise Refused(Refusal.OUTDATED) from None
        except storage.GameNotActiveError:
            raise Refused(Refusal.GAME_OVER) from None
        return snap

    async def accept_abandon(
        self, actor: Actor, game_id: int, version: int, *, update_id: int | None = None
    ) -> Snapshot | None:
        """The other player accepts the standing offer: abandoned by agreement, no rating
        change. None for a repeated update."""
        await self.players.seen(actor)
        async with self.lock(game_id):
            snap = await self.load(game_id, fresh=True)
            self._check(snap, actor.user_id, version, anytime=True)
            try:
                row = await self.store.accept_abandon(
                    game_id, actor.user_id, snap.version, update_id=update_id
                )
            except storage.DuplicateUpdateError:
                return None
            except storage.OfferError as exc:
                refusal = Refusal.OWN_OFFER if exc.reason == "own_offer" else Refusal.NO_OFFER
                raise Refused(refusal) from None
            except storage.StaleVersionError:
                raise Refused(Refusal.NO_OFFER) from None
            except storage.GameNotActiveError:
                raise Refused(Refusal.GAME_OVER) from None
            return await self._closed(row, snap.match)

    async def decline_abandon(self, actor: Actor, game_id: int) -> bool:
        """Either player withdraws or declines the standing offer; True if one stood."""
        try:
            return await self.store.withdraw_abandon_offer(game_id, actor.user_id)
        except storage.OfferError:
            raise Refused(Refusal.NOT_A_PLAYER) from None
        except storage.NotFoundError:
            raise Refused(Refusal.GAME_NOT_FOUND) from None

    async def closed_inactive(self, row: storage.Game) -> Snapshot:
        """A game the scheduler closed as abandoned (nobody acted for the abandonment
        period): reveal its seed and return it as it now stands."""
        return await self._closed(row, None)

    async def _closed(self, row: storage.Game, match: Match | None) -> Snapshot:
        self.cache.forget(row.game_id)
        await self._reveal(row.dice_seed_id)
        if match is None:
            return await self.snapshot(row)
        return await self.snapshot(row, match)

    # ---- creating games ---------------------------------------------------------------------

    def new_match(self, variant: str, length: int, options: Options) -> Match:
        """A new match before its opening lot (:meth:`create` draws it from the game's dice)."""
        return Match(variant, length=length, options=options)

    async def _reveal(self, seed_id: int | None) -> None:
        """Reveal a seed whose match is over (or abandoned); a failure is logged and the
        Verify button reveals it later (revealing is idempotent)."""
        if seed_id is None:
            return
        try:
            await self.store.reveal_dice_seed(seed_id)
        except storage.StorageError:
            log.exception("could not reveal the dice seed of a finished match")

    async def commit_dice(self, client_seeds: Sequence[str] = ()) -> storage.DiceSeed:
        """A new secret server seed for a game offered now, stored with its commitment and the
        offerer's client seeds (docs/fairness.md, step 1)."""
        return await fair_dice.commit(self.store, client_seeds, server_seed=self._server_seed())

    async def dice_report(self, game_id: int) -> dict[str, Any]:
        """The dice report of the finished match the game belongs to (its games share the
        seed), revealing the seed; Refused(GAME_NOT_FOUND), or :class:`NoDiceReport`."""
        snap = await self.load(game_id)
        seed_id = snap.row.dice_seed_id
        if seed_id is None:
            raise NoDiceReport("none")
        if snap.active or not snap.match.is_over:
            raise NoDiceReport("not_over")
        player = next(uid for uid in snap.user_ids.values() if uid is not None)
        rows = await self.store.list_user_games(player, limit=MATCH_GAMES_LIMIT)
        games = sorted((r for r in rows if r.dice_seed_id == seed_id), key=lambda r: r.game_id)
        histories = [Match.from_json(r.state).current.history for r in games]
        return await fair_dice.report(
            self.store,
            seed_id,
            played=fair_dice.played_dice(histories),
            game={"game_ids": [r.game_id for r in games], "variant": str(snap.row.variant)},
        )

    async def seed_view(self, seed_id: int | None) -> storage.DiceSeed | None:
        """The public view of a seed (its commitment; the server seed once revealed)."""
        if seed_id is None:
            return None
        return await self.store.get_dice_seed(seed_id)

    def _new_row(
        self,
        match: Match,
        place: Place,
        seats: dict[int, int | None],
        ai_level: str | None,
        seed_id: int | None,
        dice: Dice,
        move_clock: MoveClock,
    ) -> storage.NewGame:
        game = match.current
        options = {**match.options.to_dict(), clocks.OPTION_KEY: str(move_clock)}
        return storage.NewGame(
            variant=match.variant_name,
            chat_id=place.chat_id,
            thread_id=place.thread_id,
            white_user_id=seats[game.seat_of(Side.WHITE)],
            black_user_id=seats[game.seat_of(Side.BLACK)],
            state=match.to_json(),
            match_length=match.length,
            options=options,
            ai_level=ai_level,
            dice_seed_id=seed_id,
            dice=fair_dice.drawn(dice) if dice is not None else None,
            inline_message_id=place.inline_message_id,
            clock=self.clock_update(options, match, seats),
        )

    async def create(
        self,
        match: Match,
        place: Place,
        seats: dict[int, int | None],
        *,
        ai_level: str | None = None,
        invitation: tuple[str, int] | None = None,
        seed_id: int | None = None,
        client_seeds: Sequence[str] = (),
        move_clock: MoveClock = MoveClock.OFF,
    ) -> Snapshot:
        """Store a new game (accepting ``invitation`` = (token, acceptor) in the same
        transaction) after playing its automatic opening; Refused(GAME_EXISTS) if the place
        already has one.

        Its dice come from ``seed_id`` (an invitation's seed, or the match's for its next
        game) with ``client_seeds`` added before the first die, or from a seed committed now
        to ``client_seeds``."""
        if seed_id is None:
            seed_id = (await self.commit_dice(client_seeds)).seed_id
        else:
            for client_seed in client_seeds:
                await self.store.add_client_seed(seed_id, client_seed)
        dice = await fair_dice.dice_for(self.store, seed_id)
        await self._settle(match, seats, ai_level, dice)
        new = self._new_row(match, place, seats, ai_level, seed_id, dice, move_clock)
        try:
            if invitation is None:
                row = await self.store.create_game(new)
            else:
                accepted = await self.store.accept_invitation(*invitation, game=new)
                assert accepted.game is not None
                row = accepted.game
        except storage.ActiveGameExistsError:
            raise Refused(Refusal.GAME_EXISTS) from None
        return await self._first_view(await self._log_initial(row, match, seats), match)

    async def _first_view(self, row: storage.Game, match: Match | None = None) -> Snapshot:
        """A new game as its first board shows it: what was played before anyone acted (the
        opening lot, forced plays, the computer's turn) and its dice seed's commitment."""
        snap = await self.snapshot(row, match)
        snap.events = list(snap.match.current.history)
        if row.dice_seed_id is not None:
            snap.dice_commitment = (await self.store.get_dice_seed(row.dice_seed_id)).commitment
        return snap

    async def _log_initial(
        self, row: storage.Game, match: Match, seats: dict[int, int | None]
    ) -> storage.Game:
        """Write the move log of what was played before the game's first save (forced opening
        plays, the computer's first turn), so the log is complete from move one."""
        events = [e for e in match.current.history if e.kind in ("move", "pass")]
        if not events:
            return row
        return await self.store.save_game(
            row.game_id,
            row.version,
            match.to_json(),
            moves=[new_move(e) for e in events],
            clock=self.clock_update(row.options, match, seats),
        )

    async def start_vs_computer(
        self,
        actor: Actor,
        place: Place,
        variant: str,
        level: str,
        options: Options,
        *,
        client_seed: str | None = None,
    ) -> Snapshot:
        """A game against the computer (the person is seat 0; ``client_seed`` is their
        contribution to the dice, from the update that started the game)."""
        await self.players.seen(actor)
        if place.private:
            await self.chats.seen(place.chat_id, storage.ChatType.PRIVATE)
        level = level if level in LEVELS else DEFAULT_LEVEL
        return await self.create(
            self.new_match(variant, 1, options),
            place,
            {0: actor.user_id, 1: None},
            ai_level=level,
            client_seeds=() if client_seed is None else (client_seed,),
        )

    async def _prepare_next(
        self, row: storage.Game, match: Match, seats: dict[int, int | None], dice: Dice = None
    ) -> tuple[storage.NextGame, Match] | None:
        """The next game of a match (M-15 … M-18) that the finish of ``match``'s game stores
        with it, in the same chat, its opening played (None: the match is over). Its dice
        continue ``dice`` after the finished game's (loaded from the seed when not given), so
        they follow the ones the finish stores."""
        if match.is_over:
            return None
        nxt = match.copy()
        nxt.next_game()
        if dice is None and row.dice_seed_id is not None:
            dice = await fair_dice.dice_for(self.store, row.dice_seed_id)
        await self._settle(nxt, seats, row.ai_level, dice)
        place = Place(row.chat_id, row.thread_id, inline_message_id=row.inline_message_id)
        new = self._new_row(
            nxt, place, seats, row.ai_level, row.dice_seed_id, dice, clocks.game_clock(row.options)
        )
        opening = [new_move(e) for e in nxt.current.history if e.kind in ("move", "pass")]
        return storage.NextGame(new, opening), nxt

    async def rematch(
        self, actor: Actor, game_id: int, *, client_seed: str | None = None
    ) -> Snapshot:
        """A new match with the same players and settings, after a finished one (its dice
        from a new seed, ``client_seed`` the asker's contribution)."""
        snap = await self.load(game_id)
        row = snap.row
        if snap.active:
            raise Refused(Refusal.GAME_EXISTS)
        if snap.seat_of_user(actor.user_id) is None:
            raise Refused(Refusal.NOT_A_PLAYER)
        await self.players.seen(actor)
        match = self.new_match(snap.match.variant_name, snap.match.length, snap.match.options)
        place = Place(row.chat_id, row.thread_id)
        return await self.create(
            match,
            place,
            dict(snap.user_ids),
            ai_level=row.ai_level,
            client_seeds=() if client_seed is None else (client_seed,),
            move_clock=snap.move_clock,
        )

    async def abandon(self, game_id: int) -> bool:
        """End a game without a result (its chat is gone); False if storage failed (logged:
        the game then stays as it was, which is safe)."""
        self.cache.forget(game_id)
        try:
            row = await self.store.get_game(game_id)
            if row.status is storage.GameStatus.ACTIVE:
                await self.store.abandon_game(row.game_id, row.version)
            await self._reveal(row.dice_seed_id)
        except storage.StorageError:
            log.exception("could not abandon game %s", game_id)
            return False
        return True

    # ---- Telegram updates -------------------------------------------------------------------

    async def claim_update(self, update_id: int) -> bool:
        """Claim an update that changes something other than a game's state (a lobby, a
        setting); True the first time. Game actions claim theirs in their save instead."""
        return await self.store.mark_update_processed(update_id)

    async def housekeeping(self) -> None:
        """Expire old invitations and forget old processed update ids."""
        await self.store.expire_invitations()
        await self.store.prune_processed_updates()

    # ---- records ----------------------------------------------------------------------------

    async def records(self, user_id: int) -> list[storage.UserStats]:
        """The user's finished games by variant and opponent kind (only kinds with games)."""
        return [r for r in await self.store.list_user_stats(user_id) if r.games]

    async def rating(self, user_id: int, variant: str) -> storage.Rating:
        return await self.store.get_rating(user_id, variant)

    async def leaderboard(
        self, variant: str, place: Place, limit: int = 10
    ) -> list[storage.LeaderboardEntry]:
        """The chat's best players (a private chat: everyone's)."""
        chat_id = None if place.private else place.chat_id
        return await self.store.leaderboard(variant, chat_id=chat_id, limit=limit)


def _score_by_colour(match: Match, game: Game) -> tuple[int, int]:
    """(white's, black's) match score for the stored row's score columns."""
    return (match.score[game.seat_of(Side.WHITE)], match.score[game.seat_of(Side.BLACK)])
