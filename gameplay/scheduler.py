"""The clock scheduler: one asyncio task that wakes for the next stored deadline.

No timer lives only in memory: each pass asks storage for the due clocks, fires each event
through storage's idempotent operations, and sleeps until :meth:`Storage.next_clock_due` (at
most :data:`MAX_SLEEP`, so a clock written by another process is seen too). A deadline that
passed while the bot was down is found on the first pass after a start and fires once; two
schedulers on one database (or a pass repeated after a crash) fire each event once, because
storage marks it before the handler is called and only the caller that marked it gets it.

Delivery is therefore *at most once*: if the process dies between the mark and the message, that
one reminder is lost, never doubled (the issue's "never more than one per move"). A lost
timeout notice costs nothing lasting: the board shows the claim button whenever the stored
deadline has passed (:func:`gameplay.clocks.view`).

Time comes from an injected :class:`TimeSource`, so tests advance a fake clock instead of
sleeping; the same source should be the store's clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta
from typing import Protocol

from storage.base import Storage
from storage.models import ClockEvent, Game, GameClock

log = logging.getLogger(__name__)

#: The longest sleep between passes, whatever the next stored deadline says.
MAX_SLEEP = timedelta(minutes=5)
#: Due clocks handled per storage query.
BATCH = 100
#: How long to wait before retrying events that are due but failed (a broken game, a database
#: error), instead of spinning on them.
RETRY_AFTER = timedelta(seconds=30)


class ClockHandler(Protocol):
    """What the bot does when a clock event fires (it words and sends the messages)."""

    async def remind(self, game_id: int, clock: GameClock) -> None:
        """Half the move's time is gone: remind ``clock.on_clock_user_id`` (once per move)."""

    async def timed_out(self, game_id: int, clock: GameClock) -> None:
        """The time is up: offer the waiting player to claim the game or keep waiting."""

    async def abandoned(self, game_id: int, game: Game) -> None:
        """Nobody acted for the abandonment period: the game is closed (``game`` as stored)."""


class TimeSource(Protocol):
    """The scheduler's notion of time: the current moment, and a sleep that ends at a moment
    or as soon as ``wake`` is set, whichever comes first."""

    def now(self) -> datetime: ...

    async def sleep_until(self, moment: datetime, wake: asyncio.Event) -> None: ...


class SystemTime:
    """Real time (UTC)."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep_until(self, moment: datetime, wake: asyncio.Event) -> None:
        delay = max(0.0, (moment - self.now()).total_seconds())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout=delay)


class ClockScheduler:
    """Fires move-clock events from storage; ``await run()`` in a task, ``stop()`` to end."""

    def __init__(
        self,
        store: Storage,
        handler: ClockHandler,
        *,
        time: TimeSource | None = None,
        max_sleep: timedelta = MAX_SLEEP,
        batch: int = BATCH,
        retry_after: timedelta = RETRY_AFTER,
    ) -> None:
        self.store = store
        self.handler = handler
        self.time: TimeSource = time or SystemTime()
        self.max_sleep = max_sleep
        self.batch = batch
        self.retry_after = retry_after
        self._wake = asyncio.Event()
        self._stopping = False
        self._until: datetime | None = None  # the moment it sleeps until (None: not asleep)

    def poke(self) -> None:
        """Look again now: the bot calls this after writing a clock that may fall due before
        the moment the scheduler sleeps until."""
        self._wake.set()

    def wake_by(self, moment: datetime) -> None:
        """A clock was written with an event due at ``moment``: wake early if the scheduler
        sleeps past it (a 5-minute clock's reminder falls due sooner than :data:`MAX_SLEEP`).
        The game service calls this with every write, so it costs nothing otherwise."""
        if self._until is not None and moment < self._until:
            self._wake.set()

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()

    async def run(self) -> None:
        """Pass, sleep until the next deadline, repeat, until :meth:`stop`. A pass that fails
        (the database unavailable for a moment) is logged and retried after ``retry_after``:
        the task never dies of it."""
        while not self._stopping:
            self._wake.clear()
            try:
                until = await self._pass()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock scheduler pass failed; retrying")
                until = self.time.now() + self.retry_after
            if self._stopping:
                break
            if until is not None:
                self._until = until
                try:
                    await self.time.sleep_until(until, self._wake)
                finally:
                    self._until = None

    async def _pass(self) -> datetime | None:
        """One pass; returns when to look again (None: at once)."""
        fired = await self.run_once()
        now = self.time.now()
        nxt = await self.store.next_clock_due()
        if nxt is not None and nxt <= now:
            if fired:
                return None  # fell due during the pass: another pass at once
            return now + self.retry_after  # due, yet nothing fired: it fails; back off
        until = now + self.max_sleep
        return nxt if nxt is not None and nxt < until else until

    async def run_once(self) -> int:
        """Fire every event due now; returns how many this scheduler fired."""
        fired = 0
        while True:
            now = self.time.now()
            due = await self.store.due_clocks(now, limit=self.batch)
            fired_here = 0
            for clock in due:
                fired_here += await self._fire(clock, now)
            fired += fired_here
            # Another batch only if this one was full and made progress; otherwise what is
            # left is held by a racing scheduler or fails every time, and is retried later.
            if len(due) < self.batch or not fired_here:
                return fired

    async def _fire(self, clock: GameClock, now: datetime) -> int:
        event = clock.due_event(now)
        try:
            if event is ClockEvent.ABANDON:
                game = await self.store.abandon_inactive(clock.game_id, clock.game_version)
                if game is None:
                    return 0
                await self.handler.abandoned(clock.game_id, game)
                return 1
            if event is None:
                return 0
            marked = await self.store.fire_clock_event(clock.game_id, clock.game_version, event)
            if marked is None:
                return 0
            if event is ClockEvent.REMIND:
                await self.handler.remind(clock.game_id, marked)
            else:
                await self.handler.timed_out(clock.game_id, marked)
            return 1
        except asyncio.CancelledError:
            raise
        except Exception:
            # One broken game or a failed message must not stop the clocks of all the others.
            log.exception("clock event %s of game %s failed", event, clock.game_id)
            return 0
