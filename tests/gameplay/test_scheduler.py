"""The clock scheduler on real SQLite files with a fake clock: tests move time forward and wait
until the scheduler is asleep again, instead of sleeping themselves."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from gameplay import clocks
from gameplay.clocks import MoveClock
from gameplay.scheduler import ClockScheduler, SystemTime
from storage import Game, GameClock, GameStatus, SqliteStorage
from tests.fake_time import FakeTime
from tests.storage.conftest import ALICE, BORIS, GROUP, new_game


class Recorder:
    """The bot's side of the protocol, recording what it was asked to send."""

    def __init__(self, fail: bool = False) -> None:
        self.events: list[tuple[str, int, int | None]] = []
        self.fail = fail

    async def remind(self, game_id: int, clock: GameClock) -> None:
        self.events.append(("remind", game_id, clock.on_clock_user_id))
        if self.fail:
            raise RuntimeError("Telegram said no")

    async def timed_out(self, game_id: int, clock: GameClock) -> None:
        self.events.append(("timeout", game_id, clock.on_clock_user_id))

    async def abandoned(self, game_id: int, game: Game) -> None:
        assert game.status is GameStatus.ABANDONED
        self.events.append(("abandoned", game_id, None))


@pytest.fixture
def time() -> FakeTime:
    return FakeTime()


async def open_store(path: Path, time: FakeTime) -> SqliteStorage:
    store = await SqliteStorage.open(path, clock=time)
    await store.upsert_user(ALICE, "Alice")
    await store.upsert_user(BORIS, "Boris")
    await store.upsert_chat(GROUP, "supergroup")
    return store


@pytest.fixture
async def store(tmp_path: Path, time: FakeTime) -> AsyncIterator[SqliteStorage]:
    opened = await open_store(tmp_path / "clocks.sqlite3", time)
    yield opened
    await opened.close()


class Running:
    """A scheduler task, stopped and awaited on exit."""

    def __init__(self, scheduler: ClockScheduler) -> None:
        self.scheduler = scheduler
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> ClockScheduler:
        self.task = asyncio.create_task(self.scheduler.run())
        return self.scheduler

    async def __aexit__(self, *exc: object) -> None:
        self.scheduler.stop()
        assert self.task is not None
        await asyncio.wait_for(self.task, timeout=10)


async def start_game(store: SqliteStorage, time: FakeTime, choice: MoveClock, thread: int = 0):
    update = clocks.clock_update(choice, time.now(), move=1, on_clock_user_id=ALICE)
    return await store.create_game(replace(new_game(ALICE, BORIS, thread_id=thread), clock=update))


async def test_reminder_timeout_and_abandonment_fire_once_each_in_order(
    store: SqliteStorage, time: FakeTime
) -> None:
    game = await start_game(store, time, MoveClock.HOURS_24)
    handler = Recorder()
    async with Running(ClockScheduler(store, handler, time=time)):
        await time.settled()
        assert handler.events == []
        assert time.sleeps[-1] == time.now() + timedelta(minutes=5)  # capped sleep
        for _ in range(12 * 12 - 1):  # up to 5 minutes before half time, 5 minutes a step
            await time.advance(minutes=5)
        assert handler.events == []
        await time.advance(minutes=5)
        assert handler.events == [("remind", game.game_id, ALICE)]
        await time.advance(hours=12)
        assert handler.events[-1] == ("timeout", game.game_id, ALICE)
        await time.advance(days=31)
        assert handler.events == [
            ("remind", game.game_id, ALICE),
            ("timeout", game.game_id, ALICE),
            ("abandoned", game.game_id, None),
        ]
        await time.advance(days=1)
        assert len(handler.events) == 3
    assert (await store.get_game(game.game_id)).status is GameStatus.ABANDONED


async def test_a_deadline_passed_while_down_fires_once_on_start(
    tmp_path: Path, time: FakeTime
) -> None:
    """Restart mid-wait: the first scheduler sleeps towards the reminder, the bot stops, time
    passes the deadline, a new process starts: it announces the timeout once, no reminder."""
    path = tmp_path / "restart.sqlite3"
    store = await open_store(path, time)
    game = await start_game(store, time, MoveClock.HOUR_1)
    first = Recorder()
    async with Running(ClockScheduler(store, first, time=time)):
        await time.advance(minutes=20)
    await store.close()
    assert first.events == []

    time.moment += timedelta(hours=2)  # the bot is down
    store = await open_store(path, time)
    try:
        second = Recorder()
        async with Running(ClockScheduler(store, second, time=time)):
            await time.settled()
            assert second.events == [("timeout", game.game_id, ALICE)]
            await time.advance(minutes=30)
        async with Running(ClockScheduler(store, second, time=time)):  # and once more
            await time.settled()
        assert second.events == [("timeout", game.game_id, ALICE)]
    finally:
        await store.close()


async def test_two_schedulers_on_one_database_fire_each_event_once(
    tmp_path: Path, time: FakeTime
) -> None:
    path = tmp_path / "two.sqlite3"
    one = await open_store(path, time)
    two = await SqliteStorage.open(path, clock=time)
    try:
        games = [await start_game(one, time, MoveClock.MIN_5, thread=t) for t in range(30)]
        handlers = [Recorder(), Recorder()]
        time.moment += timedelta(minutes=3)
        counts = await asyncio.gather(
            ClockScheduler(one, handlers[0], time=time, batch=7).run_once(),
            ClockScheduler(two, handlers[1], time=time, batch=7).run_once(),
        )
        reminded = sorted(g for h in handlers for kind, g, _ in h.events if kind == "remind")
        assert reminded == sorted(g.game_id for g in games)
        assert sum(counts) == 30
    finally:
        await two.close()
        await one.close()


async def test_a_move_moves_the_clock_and_a_poke_wakes_the_scheduler(
    store: SqliteStorage, time: FakeTime
) -> None:
    game = await start_game(store, time, MoveClock.HOUR_1)
    handler = Recorder()
    scheduler = ClockScheduler(store, handler, time=time, max_sleep=timedelta(hours=6))
    async with Running(scheduler):
        await time.advance(minutes=20)
        assert time.sleeps[-1] == game.created_at + timedelta(minutes=30)
        # Alice moves at 0:20; Boris is on the clock from now: reminder at 0:50, not 0:30.
        update = clocks.clock_update(MoveClock.HOUR_1, time.now(), move=2, on_clock_user_id=BORIS)
        await store.save_game(game.game_id, game.version, "{}", clock=update)
        scheduler.poke()
        await time.settled()
        await time.advance(minutes=15)
        assert handler.events == []
        await time.advance(minutes=15)
        assert handler.events == [("remind", game.game_id, BORIS)]


async def test_a_failing_handler_does_not_stop_the_others_or_repeat(
    store: SqliteStorage, time: FakeTime
) -> None:
    """The reminder is marked before it is sent: a send that fails is not retried (at most
    once), the scheduler goes on with the other games and does not spin."""
    games = [await start_game(store, time, MoveClock.HOUR_1, thread=t) for t in range(3)]
    handler = Recorder(fail=True)
    async with Running(ClockScheduler(store, handler, time=time)):
        await time.advance(minutes=30)
        assert sorted(g for _, g, _ in handler.events) == [g.game_id for g in games]
        await time.advance(minutes=10)
        assert len(handler.events) == 3
    assert len(time.sleeps) < 20  # slept, never spun


async def test_finished_games_have_no_events(store: SqliteStorage, time: FakeTime) -> None:
    game = await start_game(store, time, MoveClock.MIN_5)
    await store.abandon_game(game.game_id, game.version, reason="admin")
    handler = Recorder()
    async with Running(ClockScheduler(store, handler, time=time)):
        await time.advance(days=40)
    assert handler.events == []


async def test_an_event_that_cannot_fire_is_retried_slowly_not_spun(
    tmp_path: Path, time: FakeTime
) -> None:
    """A clock row out of step with its game (written by hand here; the API cannot make one)
    stays due but never fires: the scheduler backs off by ``retry_after`` between passes."""
    path = tmp_path / "stuck.sqlite3"
    store = await open_store(path, time)
    try:
        game = await start_game(store, time, MoveClock.MIN_5)
        with sqlite3.connect(path) as conn:
            conn.execute(
                "UPDATE game_clocks SET game_version = 99 WHERE game_id = ?", (game.game_id,)
            )
        conn.close()
        handler = Recorder()
        scheduler = ClockScheduler(store, handler, time=time, retry_after=timedelta(seconds=30))
        async with Running(scheduler):
            await time.advance(minutes=3)
            assert time.sleeps[-1] == time.now() + timedelta(seconds=30)
            before = len(time.sleeps)
            await time.advance(seconds=30)
            assert len(time.sleeps) == before + 1
        assert handler.events == []
    finally:
        await store.close()


class Flaky:
    """The store, except that its due-clock query fails the first ``failures`` times."""

    def __init__(self, store: SqliteStorage, failures: int) -> None:
        self._store = store
        self.failures = failures

    def __getattr__(self, name: str):
        return getattr(self._store, name)

    async def due_clocks(self, now: datetime | None = None, *, limit: int = 100):
        if self.failures:
            self.failures -= 1
            raise sqlite3.OperationalError("database is locked")
        return await self._store.due_clocks(now, limit=limit)


async def test_a_failing_pass_is_retried_and_the_task_lives_on(
    store: SqliteStorage, time: FakeTime, caplog: pytest.LogCaptureFixture
) -> None:
    game = await start_game(store, time, MoveClock.HOUR_1)
    handler = Recorder()
    flaky = Flaky(store, failures=2)
    scheduler = ClockScheduler(flaky, handler, time=time, retry_after=timedelta(seconds=30))
    async with Running(scheduler) as running:
        await time.settled()
        assert time.sleeps[-1] == time.now() + timedelta(seconds=30)
        await time.advance(seconds=30)  # the second pass fails too
        await time.advance(minutes=30)
        assert handler.events == [("remind", game.game_id, ALICE)]
        assert flaky.failures == 0 and running is scheduler
    assert caplog.text.count("clock scheduler pass failed") == 2


async def test_system_time_sleeps_until_the_moment_or_a_wake() -> None:
    real = SystemTime()
    wake = asyncio.Event()
    start = real.now()
    await real.sleep_until(start + timedelta(milliseconds=50), wake)
    assert real.now() - start >= timedelta(milliseconds=45)
    asyncio.get_running_loop().call_later(0.05, wake.set)
    start = real.now()
    await real.sleep_until(start + timedelta(seconds=30), wake)
    assert real.now() - start < timedelta(seconds=5)
    await real.sleep_until(start - timedelta(seconds=1), asyncio.Event())  # past: returns
