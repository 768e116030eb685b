"""Move clocks through the game layer, on both backends, with one fake clock for the store and
the service: every write sets the deadline; a timeout claim is a resignation (M-19) and ends
only the current game of a match; a claim racing a move, two claims, two processes — exactly
one outcome; an admin or both players end a game without a result; the scheduler reminds once,
announces the timeout once and closes an abandoned game, also after a restart."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

import storage
from engine import Phase, format_steps
from gameplay import Actor, GameService, Lobby, PlayText, Refusal, Refused, Resign, Snapshot
from gameplay.clocks import ClockState, MoveClock
from gameplay.scheduler import ClockScheduler
from storage import Game, GameClock
from tests.fake_time import FakeTime
from tests.gameplay.conftest import ANNA, BORIS, GROUP, PEOPLE, mover, waiter


@dataclass
class Clocked:
    location: str
    time: FakeTime
    store: storage.Storage
    games: GameService
    lobby: Lobby

    async def open_process(self) -> tuple[storage.Storage, GameService]:
        """Another bot process on the same database (its own store, service and locks)."""
        store = await storage.open_storage(self.location, clock=self.time)
        return store, GameService(store, rng=random.Random(9), clock=self.time)

    async def game(
        self, clock: MoveClock = MoveClock.HOUR_1, *, length: int = 1, variant: str = "long"
    ) -> Snapshot:
        invitation = await self.lobby.invite(
            ANNA, GROUP, variant=variant, match_length=length, move_clock=clock
        )
        return await self.lobby.accept(invitation.token, BORIS)


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each test once per backend: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "clocks.sqlite3")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
async def world(location: str) -> AsyncIterator[Clocked]:
    time = FakeTime()
    store = await storage.open_storage(location, clock=time)
    try:
        await store.upsert_chat(GROUP.chat_id, storage.ChatType.SUPERGROUP, title="Нарды")
        games = GameService(store, rng=random.Random(5), clock=time)
        yield Clocked(location, time, store, games, Lobby(games))
    finally:
        await store.close()


def a_play(snap: Snapshot) -> PlayText:
    """The mover's first legal play, typed."""
    return PlayText(format_steps(snap.game.turn.legal_plays[0].steps))


async def play_turn(world: Clocked, snap: Snapshot) -> Snapshot:
    assert snap.game.phase is Phase.MOVE
    outcome = await world.games.act(mover(snap), a_play(snap), game_id=snap.game_id)
    assert outcome.snap is not None
    return outcome.snap


async def refusal(coro: object) -> Refusal:
    with pytest.raises(Refused) as caught:
        await coro  # type: ignore[misc]
    return caught.value.refusal


async def test_every_write_sets_the_deadline_of_the_next_move(world: Clocked) -> None:
    snap = await world.game(MoveClock.HOUR_1)
    for _ in range(4):
        clock = await world.store.get_clock(snap.game_id)
        assert clock is not None and clock.game_version == snap.version
        assert clock.on_clock_user_id == mover(snap).user_id
        assert clock.deadline_at == world.time.now() + timedelta(hours=1)
        assert clock.remind_at == world.time.now() + timedelta(minutes=30)
        assert snap.clock is not None and snap.clock.state is ClockState.RUNNING
        world.time.moment += timedelta(minutes=20)
        snap = await play_turn(world, snap)
    # The game over: no clock is left to fire.
    outcome = await world.games.act(mover(snap), Resign(), game_id=snap.game_id)
    assert outcome.snap is not None and outcome.snap.clock is None
    assert await world.store.get_clock(snap.game_id) is None


async def test_a_claim_is_the_resignation_of_the_player_on_the_clock(world: Clocked) -> None:
    snap = await world.game(MoveClock.HOUR_1)
    late, waiting = mover(snap), waiter(snap)
    world.time.moment += timedelta(minutes=59)
    assert await refusal(world.games.claim(waiting, snap.game_id, snap.version)) is (
        Refusal.CLAIM_NOT_YET
    )
    world.time.moment += timedelta(minutes=2)
    assert await refusal(world.games.claim(late, snap.game_id, snap.version)) is (
        Refusal.CLAIM_OWN_CLOCK
    )
    outcome = await world.games.claim(waiting, snap.game_id, snap.version)
    assert outcome.snap is not None and outcome.snap.finished is not None
    row = outcome.snap.row
    assert row.status is storage.GameStatus.FINISHED
    assert row.end_reason is storage.EndReason.TIMEOUT
    assert row.winner_user_id == waiting.user_id
    result = outcome.snap.game.result
    assert result is not None and result.resigned  # M-19: scored as a resignation
    rating = await world.store.get_rating(waiting.user_id, "long")
    assert rating.games == 1  # a claimed game is rated like any finished game
    # A second tap, a second process: the game is over, nothing changes.
    assert await refusal(world.games.claim(waiting, snap.game_id, snap.version)) in (
        Refusal.GAME_OVER,
        Refusal.OUTDATED,
    )
    store2, games2 = await world.open_process()
    try:
        assert await refusal(games2.claim(waiting, snap.game_id, snap.version)) is (
            Refusal.GAME_OVER
        )
    finally:
        await store2.close()
    assert (await world.store.get_rating(waiting.user_id, "long")).games == 1


async def test_no_claim_without_a_clock(world: Clocked) -> None:
    snap = await world.game(MoveClock.OFF)
    world.time.moment += timedelta(days=10)
    assert await refusal(world.games.claim(waiter(snap), snap.game_id, snap.version)) is (
        Refusal.CLAIM_NO_CLOCK
    )
    assert (await world.store.get_clock(snap.game_id)).deadline_at is None  # type: ignore[union-attr]


async def test_a_last_second_move_beats_a_claim_from_another_process(world: Clocked) -> None:
    snap = await world.game(MoveClock.MIN_5)
    late, waiting = mover(snap), waiter(snap)
    world.time.moment += timedelta(minutes=5, seconds=1)
    store2, games2 = await world.open_process()
    try:
        # The move is saved first (here), the claim read the game before it (there).
        loaded = await games2.load(snap.game_id, fresh=True)
        moved = await world.games.act(late, a_play(snap), game_id=snap.game_id)
        assert moved.snap is not None
        assert await refusal(games2.claim(waiting, snap.game_id, loaded.version)) is (
            Refusal.OUTDATED
        )
        # And the other way round: the claim is saved first; the move's save then fails.
        nxt = moved.snap
        world.time.moment += timedelta(minutes=6)
        decision = await world.games.decide(mover(nxt), a_play(nxt), game_id=nxt.game_id)
        claimed = await games2.claim(waiter(nxt), nxt.game_id, nxt.version)
        assert claimed.snap is not None
        assert await refusal(world.games.commit(decision)) in (
            Refusal.GAME_OVER,
            Refusal.OUTDATED,
        )
    finally:
        await store2.close()
    row = await world.store.get_game(snap.game_id)
    assert row.status is storage.GameStatus.FINISHED and row.winner_user_id == waiter(nxt).user_id
    moves = await world.store.get_moves(snap.game_id)
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))


async def test_two_processes_claiming_at_once_claim_once(world: Clocked) -> None:
    snap = await world.game(MoveClock.MIN_5)
    waiting = waiter(snap)
    world.time.moment += timedelta(minutes=6)
    store2, games2 = await world.open_process()
    try:
        results = await asyncio.gather(
            world.games.claim(waiting, snap.game_id, snap.version),
            games2.claim(waiting, snap.game_id, snap.version),
            return_exceptions=True,
        )
    finally:
        await store2.close()
    won = [r for r in results if not isinstance(r, BaseException)]
    lost = [r for r in results if isinstance(r, Refused)]
    assert len(won) == 1 and len(lost) == 1, results
    assert lost[0].refusal in (Refusal.OUTDATED, Refusal.GAME_OVER)
    assert (await world.store.get_rating(waiting.user_id, "long")).games == 1


async def test_in_a_match_the_claim_ends_only_the_current_game(world: Clocked) -> None:
    snap = await world.game(MoveClock.HOUR_1, length=3)
    waiting = waiter(snap)
    world.time.moment += timedelta(hours=2)
    outcome = await world.games.claim(waiting, snap.game_id, snap.version)
    assert outcome.snap is not None
    assert not outcome.snap.match.is_over
    nxt = outcome.snap.next_game
    assert nxt is not None and nxt.active and nxt.move_clock is MoveClock.HOUR_1
    seat = outcome.snap.seat_of_user(waiting.user_id)
    assert seat is not None and outcome.snap.match.score[seat] >= 1
    # The next game's clock runs from now, for whoever moves first in it.
    clock = await world.store.get_clock(nxt.game_id)
    assert clock is not None and clock.deadline_at == world.time.now() + timedelta(hours=1)


async def test_an_admin_frees_the_chat_without_a_rating_change(world: Clocked) -> None:
    snap = await world.game()
    ended = await world.games.end_by_admin(snap.game_id)
    assert ended is not None and ended.abandoned and ended.end_reason == "admin"
    assert await world.store.get_active_game(GROUP.chat_id) is None
    assert (await world.store.get_rating(ANNA.user_id, "long")).games == 0
    assert await world.store.get_clock(snap.game_id) is None
    assert await refusal(world.games.end_by_admin(snap.game_id)) is Refusal.GAME_OVER
    again = await world.game()  # the chat is free for a new game
    assert again.active


async def test_abandoning_by_agreement_needs_the_other_player(world: Clocked) -> None:
    snap = await world.game()
    first, other = mover(snap), waiter(snap)
    await world.games.offer_abandon(first, snap.game_id)
    assert await refusal(world.games.accept_abandon(first, snap.game_id, snap.version)) is (
        Refusal.OWN_OFFER
    )
    moved = await play_turn(world, snap)  # a move lapses the offer
    assert await refusal(world.games.accept_abandon(other, snap.game_id, moved.version)) is (
        Refusal.NO_OFFER
    )
    await world.games.offer_abandon(other, snap.game_id)
    assert await world.games.decline_abandon(first, snap.game_id)
    assert await refusal(world.games.accept_abandon(first, snap.game_id, moved.version)) is (
        Refusal.NO_OFFER
    )
    await world.games.offer_abandon(other, snap.game_id)
    ended = await world.games.accept_abandon(first, snap.game_id, moved.version)
    assert ended is not None and ended.abandoned and ended.end_reason == "agreement"
    assert (await world.store.get_rating(first.user_id, "long")).games == 0
    stranger = Actor(99, "Zoe")
    assert await refusal(world.games.offer_abandon(stranger, snap.game_id)) is Refusal.GAME_OVER


class Recorder:
    """The bot's side of the scheduler, through the service as the bot uses it."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.events: list[tuple[str, int | None]] = []

    async def remind(self, game_id: int, clock: GameClock) -> None:
        self.events.append(("remind", clock.on_clock_user_id))

    async def timed_out(self, game_id: int, clock: GameClock) -> None:
        self.events.append(("timeout", clock.on_clock_user_id))

    async def abandoned(self, game_id: int, game: Game) -> None:
        snap = await self.games.closed_inactive(game)
        self.events.append(("abandoned", 1 if snap.abandoned else 0))


async def run_scheduler(world: Clocked, handler: Recorder) -> tuple[ClockScheduler, asyncio.Task]:
    scheduler = ClockScheduler(world.store, handler, time=world.time)
    world.games.on_clock_written = scheduler.wake_by
    task = asyncio.create_task(scheduler.run())
    await world.time.settled()
    return scheduler, task


async def stop(scheduler: ClockScheduler, task: asyncio.Task) -> None:
    scheduler.stop()
    await asyncio.wait_for(task, 10)


async def test_the_scheduler_reminds_once_per_move_and_survives_restarts(world: Clocked) -> None:
    snap = await world.game(MoveClock.MIN_5)
    late = mover(snap)
    handler = Recorder(world.games)
    scheduler, task = await run_scheduler(world, handler)
    await world.time.advance(minutes=2, seconds=31)
    assert handler.events == [("remind", late.user_id)]
    await stop(scheduler, task)
    # A restart: the reminder of this move is not sent again.
    scheduler, task = await run_scheduler(world, handler)
    await world.time.advance(seconds=30)
    assert handler.events == [("remind", late.user_id)]
    # A move (a new move number): the other player's reminder, counted from that move; the
    # scheduler was woken by the write (a 5-minute clock falls due before its longest sleep).
    moved = await play_turn(world, snap)
    await world.time.settled()
    await world.time.advance(minutes=2, seconds=31)
    assert handler.events[-1] == ("remind", mover(moved).user_id)
    await stop(scheduler, task)
    # Down while the deadline passed: on start the timeout fires once (no late reminder).
    world.time.moment += timedelta(minutes=10)
    scheduler, task = await run_scheduler(world, handler)
    assert handler.events[-1] == ("timeout", mover(moved).user_id)
    count = len(handler.events)
    await world.time.advance(minutes=5)
    assert len(handler.events) == count
    await stop(scheduler, task)


async def test_a_game_nobody_touches_is_closed_as_abandoned(world: Clocked) -> None:
    world.games.abandon_after = timedelta(days=7)
    snap = await world.game(MoveClock.OFF)
    handler = Recorder(world.games)
    scheduler, task = await run_scheduler(world, handler)
    try:
        await world.time.advance(days=6, hours=23)
        assert handler.events == []
        await world.time.advance(hours=2)
        assert handler.events == [("abandoned", 1)]
    finally:
        await stop(scheduler, task)
    row = await world.store.get_game(snap.game_id)
    assert row.status is storage.GameStatus.ABANDONED
    assert row.end_reason is storage.EndReason.INACTIVE
    for person in PEOPLE.values():
        assert (await world.store.get_rating(person.user_id, "long")).games == 0


async def test_schedulers_of_two_processes_send_each_event_once(world: Clocked) -> None:
    """Two bot processes (webhook workers) each run a scheduler on the same database: every
    reminder and timeout reaches exactly one of them."""
    snap = await world.game(MoveClock.MIN_5)
    store2, games2 = await world.open_process()
    first, second = Recorder(world.games), Recorder(games2)
    schedulers = [
        ClockScheduler(world.store, first, time=world.time),
        ClockScheduler(store2, second, time=world.time),
    ]
    tasks = [asyncio.create_task(s.run()) for s in schedulers]
    try:
        while len(world.time.sleeps) < 2:  # both asleep after their first pass, at 0:00
            await asyncio.sleep(0.01)
        for _ in range(4):
            await world.time.advance(minutes=2, seconds=31)
            await asyncio.sleep(0.05)  # the other one's pass, too
    finally:
        for scheduler in schedulers:
            scheduler.stop()
        await asyncio.wait_for(asyncio.gather(*tasks), 10)
        await store2.close()
    events = first.events + second.events
    late = mover(snap).user_id
    assert sorted(events) == [("remind", late), ("timeout", late)]
