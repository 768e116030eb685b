"""Everything the bot sends goes through here: per-chat send budgets, 429 handling, "latest
wins" for board edits, and notices dropped once they are no longer true.

Telegram allows about one message a second in a private chat and about twenty a minute in a
group; beyond that it answers 429 with ``retry_after``. A lively group game taps faster than
that, so each chat has a budget and calls wait for it: new messages in a group at most 20 in
any 60 seconds (:class:`Window`), everything else a token bucket (:class:`Budget`). A 429
pauses the whole chat for ``retry_after`` and the call is retried. A board edit that has been
overtaken by a newer state of the same message is skipped instead of being sent late, and so is
a notice made for a version of a game that has moved on while the notice waited ("your move"
after the player has started moving).

Ephemeral messages (a group member's private move picker, private answers in a group) are
seen by one person and are not the group's messages: they have their own budget per chat
(``kind="ephemeral"``), so a mover's taps never eat into the group's 20 a minute, and a 429
on them pauses only that budget (a 429 on the group's messages pauses the group's two).

Several workers of one bot share all of that through Redis (:mod:`bot.shared`: Telegram's
limits are per bot); without it, or for a call made while Redis does not answer, the budgets
and records of this process are used.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from aiogram.exceptions import TelegramBadRequest, TelegramNetworkError, TelegramRetryAfter

from bot.private import private_to
from bot.shared import STRIDE, RedisShared, SharedUnavailable, Spec

log = logging.getLogger(__name__)
T = TypeVar("T")

NOT_MODIFIED = "message is not modified"


def _now() -> float:
    return time.monotonic()


async def _sleep(seconds: float) -> None:
    """Every wait for a budget goes through here (a test runs the outbox on a virtual clock)."""
    await asyncio.sleep(seconds)


#: A chat's budget is forgotten after this long without a call.
IDLE_BUDGET_SECONDS = 600.0
#: How many messages' latest edit numbers (and games' latest versions) are kept.
MAX_TICKETS = 10_000


class Limiter(Protocol):
    """What the outbox needs of a chat's budget."""

    #: When the budget was last used, and until when a 429 pauses it (monotonic seconds).
    stamp: float
    paused_until: float
    lock: asyncio.Lock

    async def take(self) -> None:
        """Wait until one more call is allowed, and count it."""


@dataclass(slots=True)
class Budget:
    """A token bucket: ``burst`` calls at once, then ``rate`` calls per second."""

    burst: float
    rate: float
    tokens: float = 0.0
    stamp: float = 0.0
    paused_until: float = 0.0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.stamp = _now()

    async def take(self) -> None:
        async with self.lock:
            while True:
                now = _now()
                if now < self.paused_until:
                    await _sleep(self.paused_until - now)
                    continue
                self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
                self.stamp = now
                if self.tokens >= 1:
                    self.tokens -= 1
                    return
                await _sleep((1 - self.tokens) / self.rate)


@dataclass(slots=True)
class Window:
    """At most ``limit`` calls in any ``seconds`` long stretch of time.

    Telegram counts a group's new messages per minute. A token bucket cannot promise that: a
    full bucket lets ``burst`` calls through at once and then refills, so "burst 5 + 20 a
    minute" sent 25 in the first minute. This keeps the times of the last ``limit`` calls and
    lets the next one go only when the oldest is ``seconds`` old.
    """

    limit: int
    seconds: float
    stamp: float = 0.0
    paused_until: float = 0.0
    sent: deque[float] = field(default_factory=deque)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def __post_init__(self) -> None:
        self.stamp = _now()

    async def take(self) -> None:
        async with self.lock:
            while True:
                now = _now()
                if now < self.paused_until:
                    await _sleep(self.paused_until - now)
                    continue
                while self.sent and now - self.sent[0] >= self.seconds:
                    self.sent.popleft()
                if len(self.sent) < self.limit:
                    self.sent.append(now)
                    self.stamp = now
                    return
                await _sleep(self.sent[0] + self.seconds - now)


@dataclass(slots=True)
class _Newest:
    """An edit showing the newest wanted state of ``message_id`` (a state of game
    ``version``; 0 when it shows no game version), and its ticket once taken."""

    message_id: Hashable
    ticket: int | None
    version: int = 0


def _family(kind: str) -> str:
    """Which of a chat's pauses a call of ``kind`` waits out after a 429: ephemeral calls
    (seen by one member) have their own; everything else shares the chat's ("")."""
    return "ephemeral" if kind == "ephemeral" else ""


class Outbox:
    """Runs Bot API calls for a chat under that chat's budget, with retries."""

    def __init__(
        self,
        *,
        private: tuple[float, float] = (8, 2.0),
        group_send: tuple[int, float] = (20, 60.0),
        group_edit: tuple[float, float] = (20, 2.0),
        ephemeral: tuple[float, float] = (30, 10.0),
        max_retries: int = 3,
        shared: RedisShared | None = None,
    ) -> None:
        """``private``, ``group_edit`` and ``ephemeral`` are token buckets, (burst, calls per
        second); ``group_send`` is (calls, per seconds): new messages in a group at
        Telegram's 20 a minute, edits (the board in place) faster, as edits are not
        notifications; ephemeral calls (seen by one member) on their own.
        ``shared``: the budgets and records all workers of the bot use (None: this process's)."""
        self.shared = shared
        self._budgets: dict[tuple[int, str], Limiter] = {}
        self._private = private
        self._group_send = group_send
        self._group_edit = group_edit
        self._ephemeral = ephemeral
        self._latest: OrderedDict[tuple[int, Hashable], int] = OrderedDict()
        self._versions: OrderedDict[Hashable, int] = OrderedDict()
        self._swept_at = _now()
        self.max_retries = max_retries
        self.retries = 0
        self.shared_failures = 0

    def budget(self, chat_id: int, kind: str = "send") -> Limiter:
        key = (chat_id, "all" if chat_id > 0 and kind != "ephemeral" else kind)
        budget = self._budgets.get(key)
        if budget is None:
            self._sweep()
            budget = self._new_budget(chat_id, kind)
            self._budgets[key] = budget
        return budget

    def _spec(self, chat_id: int, kind: str) -> tuple[str, Spec]:
        """The name and shape of the budget a call of ``kind`` in the chat is counted in."""
        if kind == "ephemeral":
            return "ephemeral", Spec("bucket", self._ephemeral[0], rate=self._ephemeral[1])
        if chat_id > 0:
            return "all", Spec("bucket", self._private[0], rate=self._private[1])
        if kind == "send":
            return "send", Spec("window", self._group_send[0], seconds=self._group_send[1])
        return "edit", Spec("bucket", self._group_edit[0], rate=self._group_edit[1])

    async def _take(self, chat_id: int, kind: str, newest: _Newest | None = None) -> bool:
        """Wait for the chat's budget: the shared one when there is one (this process's
        callers of one budget queue behind its local lock, so they ask Redis one at a time),
        else, or if Redis fails, this process's own.

        ``newest``: the call is an edit showing the newest wanted state of a message; False
        when a newer one was asked for (by any worker) — with Redis, the ticket, that check
        and the budget are one round trip, and a skipped edit is not counted."""
        budget = self.budget(chat_id, kind)
        if self.shared is not None:
            name, spec = self._spec(chat_id, kind)
            async with budget.lock:
                while True:
                    try:
                        if newest is None:
                            wait: float | None = await self.shared.take(
                                chat_id, name, spec, _family(kind)
                            )
                        else:
                            newest.ticket, wait = await self.shared.take_newest(
                                chat_id,
                                name,
                                spec,
                                _family(kind),
                                newest.message_id,
                                newest.ticket,
                                newest.version,
                            )
                    except SharedUnavailable as exc:
                        self._shared_failed(exc)
                        break
                    budget.stamp = _now()
                    if wait is None:
                        return False
                    if wait <= 0:
                        return True
                    await _sleep(wait)
        if newest is not None and newest.ticket is None:
            newest.ticket = self._local_ticket(chat_id, newest.message_id, newest.version)
        await budget.take()
        return newest is None or not self._overtaken_here(chat_id, newest.message_id, newest.ticket)

    def _shared_failed(self, exc: Exception) -> None:
        self.shared_failures += 1
        if self.shared_failures == 1 or self.shared_failures % 100 == 0:
            log.warning(
                "shared send budgets unavailable (%s); using this process's (%d times)",
                exc,
                self.shared_failures,
            )

    def _new_budget(self, chat_id: int, kind: str) -> Limiter:
        """This process's budget of the shape :meth:`_spec` names (one source for both)."""
        _, spec = self._spec(chat_id, kind)
        if spec.kind == "window":
            return Window(int(spec.limit), spec.seconds)
        return Budget(spec.limit, spec.rate)

    def _sweep(self) -> None:
        """Forget the budgets of chats quiet for a while (a new one starts full, which is
        what a quiet chat's would be by now), so a bot running for months does not keep one
        for every chat it ever wrote to."""
        now = _now()
        if now - self._swept_at < IDLE_BUDGET_SECONDS:
            return
        self._swept_at = now
        for key, budget in list(self._budgets.items()):
            idle = now - max(budget.stamp, budget.paused_until) > IDLE_BUDGET_SECONDS
            if idle and not budget.lock.locked():
                del self._budgets[key]

    async def ticket(self, chat_id: int, message_id: Hashable, version: int = 0) -> int:
        """A number for a new wanted state of a message (a board's id, or a picker's key)
        showing game ``version``: later requests (by any worker, when shared) of the same or
        a newer version get larger ones; one for an older version than a state already
        wanted is overtaken from the start (a slow worker's old state never covers a newer
        one, whichever asked first)."""
        if self.shared is not None:
            try:
                return await self.shared.ticket(chat_id, message_id, version)
            except SharedUnavailable as exc:
                self._shared_failed(exc)
        return self._local_ticket(chat_id, message_id, version)

    def _local_ticket(self, chat_id: int, message_id: Hashable, version: int = 0) -> int:
        """:meth:`ticket` in this process: the same numbers as the shared record's."""
        key = (chat_id, message_id)
        base = version * STRIDE
        known = self._latest.get(key, -1)
        if known >= base + STRIDE:
            return base
        ticket = max(known + 1, base + 1)
        self._latest[key] = ticket
        self._latest.move_to_end(key)
        # Only messages with an edit in flight need their number; the oldest are long done.
        while len(self._latest) > MAX_TICKETS:
            self._latest.popitem(last=False)
        return ticket

    async def overtaken(self, chat_id: int, message_id: Hashable, ticket: int) -> bool:
        """Whether a newer state of the message was requested after ``ticket``."""
        if self.shared is not None:
            try:
                return await self.shared.latest_ticket(chat_id, message_id) > ticket
            except SharedUnavailable as exc:
                self._shared_failed(exc)
        return self._overtaken_here(chat_id, message_id, ticket)

    def _overtaken_here(self, chat_id: int, message_id: Hashable, ticket: int | None) -> bool:
        return ticket is not None and self._latest.get((chat_id, message_id), -1) > ticket

    async def edit(
        self,
        chat_id: int,
        message_id: Hashable,
        call: Callable[[], Awaitable[T]],
        *,
        ticket: int | None = None,
        version: int = 0,
        kind: str = "edit",
        skip: Callable[[], bool | Awaitable[bool]] | None = None,
    ) -> T | None:
        """Run ``call``, an edit showing the newest wanted state of a message (a board's id,
        or a picker's key), when the chat's budget allows; skipped (None) if a newer state
        was asked for meanwhile, by this worker or another — one of a newer ``version``
        whenever it was asked, or a later one of the same — or if ``skip`` says so (as in
        :meth:`run`).

        ``ticket``: from :meth:`ticket`, taken when the state was wanted, before something
        slow (drawing its picture) came in between; None: the state (of game ``version``)
        is wanted now, and with Redis the ticket is taken in the budget's round trip —
        unless this process's calls of the budget queue, as the ticket must not wait behind
        them (a newer state asked meanwhile by another worker would get the smaller one)."""
        if ticket is None and (self.shared is None or self.budget(chat_id, kind).lock.locked()):
            ticket = await self.ticket(chat_id, message_id, version)
        return await self.run(
            chat_id, call, kind=kind, newest=_Newest(message_id, ticket, version), skip=skip
        )

    async def shown(self, subject: Hashable, version: int) -> None:
        """Record that ``subject`` (a game) is now being shown at ``version``."""
        if self.shared is not None:
            try:
                await self.shared.shown(subject, version)
            except SharedUnavailable as exc:
                self._shared_failed(exc)
        if self._versions.get(subject, -1) < version:
            self._versions[subject] = version
        self._versions.move_to_end(subject)
        while len(self._versions) > MAX_TICKETS:
            self._versions.popitem(last=False)

    async def moved_on(self, subject: Hashable, version: int) -> bool:
        """Whether ``subject`` has been shown at a version newer than ``version`` — a notice
        made for ``version`` (``skip=lambda: outbox.moved_on(game, version)``) is then
        stale."""
        if self.shared is not None:
            try:
                newest = await self.shared.shown_version(subject)
                return newest is not None and newest > version
            except SharedUnavailable as exc:
                self._shared_failed(exc)
        return self._versions.get(subject, version) > version

    async def run(
        self,
        chat_id: int,
        call: Callable[[], Awaitable[T]],
        *,
        skip: Callable[[], bool | Awaitable[bool]] | None = None,
        kind: str = "send",
        messages: int = 1,
        newest: _Newest | None = None,
    ) -> T | None:
        """Run ``call`` when the chat's budget allows; None if skipped or "not modified".

        ``skip`` (a function, or a coroutine function) is asked once the budget allows the
        call. ``messages``: how many messages the call sends (an album sends one per item,
        and each counts against the chat's limits). ``newest``: see :meth:`edit`. Other
        Telegram errors propagate to the caller, which knows what they mean for it.
        """
        if kind == "send" and private_to(chat_id) is not None:
            kind = "ephemeral"  # a private answer in a group (bot.private): not the group's
        attempt = 0
        while True:
            for _ in range(max(1, messages)):
                if not await self._take(chat_id, kind, newest):
                    return None
            if skip is not None:
                skipping = skip()
                if inspect.isawaitable(skipping):
                    skipping = await skipping
                if skipping:
                    return None
            try:
                return await call()
            except TelegramRetryAfter as exc:
                attempt += 1
                self.retries += 1
                wait = float(exc.retry_after)
                until = _now() + wait
                names = ("ephemeral",) if kind == "ephemeral" else ("all", "send", "edit")
                for key in ((chat_id, name) for name in names):
                    if key in self._budgets:
                        limiter = self._budgets[key]
                        limiter.paused_until = max(limiter.paused_until, until)
                if self.shared is not None:
                    try:
                        await self.shared.pause(chat_id, wait, _family(kind))
                    except SharedUnavailable as exc:
                        self._shared_failed(exc)
                log.warning("429 in chat %s: waiting %.1fs (attempt %d)", chat_id, wait, attempt)
                if attempt > self.max_retries:
                    raise
            except TelegramNetworkError:
                attempt += 1
                if attempt > self.max_retries:
                    raise
                await _sleep(0.5 * attempt)
            except TelegramBadRequest as exc:
                if NOT_MODIFIED in exc.message:
                    return None
                raise
