"""A clock for tests of anything that waits: the store, the game service and the clock
scheduler share it, and a test moves it forward instead of sleeping."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta


class FakeTime:
    """A clock for the store and the scheduler. ``advance`` moves it and wakes sleepers;
    ``asleep`` is set while the scheduler waits with nothing due."""

    def __init__(self) -> None:
        self.moment = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
        self._ticks: list[asyncio.Event] = []
        self.asleep = asyncio.Event()
        self.sleeps: list[datetime] = []

    def __call__(self) -> datetime:  # the store's clock
        return self.moment

    def now(self) -> datetime:
        return self.moment

    async def sleep_until(self, moment: datetime, wake: asyncio.Event) -> None:
        self.sleeps.append(moment)
        while self.moment < moment and not wake.is_set():
            tick = asyncio.Event()
            self._ticks.append(tick)
            self.asleep.set()
            waiting = [asyncio.ensure_future(tick.wait()), asyncio.ensure_future(wake.wait())]
            _, pending = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
        self.asleep.clear()

    async def advance(self, **delta: float) -> None:
        self.asleep.clear()
        self.moment += timedelta(**delta)
        for tick in self._ticks:
            tick.set()
        self._ticks.clear()
        await self.settled()

    async def settled(self) -> None:
        await asyncio.wait_for(self.asleep.wait(), timeout=10)
