"""Send budgets shared by several workers through a real Redis server (``bot.shared``).

Each "worker" is an :class:`Outbox` of its own with its own connection to Redis, as two
``python -m bot`` processes would have; what one spends, the other cannot. Real time here: the
budgets are counted on the Redis server's clock.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiogram.exceptions import TelegramRetryAfter
from aiogram.methods import SendMessage

from bot.outbox import Outbox
from bot.shared import RedisShared

GROUP = -100_777


@pytest_asyncio.fixture
async def workers(redis_url: str, redis_namespace: str) -> AsyncIterator[list[Outbox]]:
    shared = [await RedisShared(redis_url, redis_namespace).connect() for _ in range(2)]
    boxes = [
        Outbox(group_send=(3, 1.0), group_edit=(2, 4.0), private=(2, 4.0), shared=s) for s in shared
    ]
    try:
        yield boxes
    finally:
        for s in shared:
            await s.close()


async def test_two_workers_share_a_groups_window_of_new_messages(workers: list[Outbox]) -> None:
    """3 new messages in any second, whichever worker sends: 7 sends (4 + 3) need > 2 s and
    no second ever holds more than 3."""
    sent: list[float] = []

    async def send() -> None:
        sent.append(time.monotonic())

    start = time.monotonic()
    await asyncio.gather(*(workers[i % 2].run(GROUP, send) for i in range(7)))
    assert len(sent) == 7
    assert sent[-1] - start >= 2.0
    for i in range(len(sent) - 3):
        assert sent[i + 3] - sent[i] >= 0.99, sent


async def test_a_token_bucket_is_shared_too(workers: list[Outbox]) -> None:
    """A private chat: burst 2, then 4 a second, counted once for both workers."""
    sent: list[float] = []

    async def send() -> None:
        sent.append(time.monotonic())

    start = time.monotonic()
    await asyncio.gather(*(workers[i % 2].run(42, send) for i in range(6)))
    # 2 at once, then 4 more at 4/s: at least ~1 s in all.
    assert sent[-1] - start >= 0.9


async def test_a_429_pauses_the_chat_for_every_worker(workers: list[Outbox]) -> None:
    first, second = workers
    calls: list[tuple[str, float]] = []
    failed = False

    async def flaky() -> str:
        nonlocal failed
        calls.append(("first", time.monotonic()))
        if not failed:
            failed = True
            raise TelegramRetryAfter(
                method=SendMessage(chat_id=GROUP, text="x"), message="flood", retry_after=1
            )
        return "ok"

    async def other() -> str:
        calls.append(("second", time.monotonic()))
        return "ok"

    start = time.monotonic()
    task = asyncio.create_task(first.run(GROUP, flaky, kind="edit"))
    while not failed:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    assert await second.run(GROUP, other, kind="edit") == "ok"
    assert await task == "ok"
    second_at = next(at for who, at in calls if who == "second")
    assert second_at - start >= 0.9  # the other worker waited out the pause


async def test_a_newer_edit_asked_by_another_worker_overtakes(workers: list[Outbox]) -> None:
    first, second = workers
    mine = await first.ticket(GROUP, 5)
    assert not await first.overtaken(GROUP, 5, mine)
    newer = await second.ticket(GROUP, 5)
    assert newer > mine
    assert await first.overtaken(GROUP, 5, mine)
    assert not await second.overtaken(GROUP, 5, newer)
    assert not await first.overtaken(GROUP, 6, mine)  # another message


async def test_an_older_version_never_overtakes_a_newer_one_whichever_asked_first(
    workers: list[Outbox],
) -> None:
    """The stale group board of session 6: worker 1 committed version 8 and took its edit's
    ticket while drawing; worker 2, showing the board as stored a moment earlier (version 7),
    took a later ticket. Ordered by time alone, the version-8 edit was overtaken and the
    version-7 one skipped as outdated: nobody edited the board. The version orders first."""
    first, second = workers
    board = 40
    newer = await first.ticket(GROUP, board, version=8)
    older = await second.ticket(GROUP, board, version=7)  # asked later, shows less
    assert await second.overtaken(GROUP, board, older)
    assert not await first.overtaken(GROUP, board, newer)
    shown: list[str] = []

    async def show(what: str) -> str:
        shown.append(what)
        return what

    assert await second.edit(GROUP, board, lambda: show("v7"), ticket=older, version=7) is None
    assert await first.edit(GROUP, board, lambda: show("v8"), ticket=newer, version=8) == "v8"
    # Within one version the later wins (a picked checker, then the plain board again) ...
    picked = await first.ticket(GROUP, board, version=8)
    plain = await second.ticket(GROUP, board, version=8)
    assert await first.overtaken(GROUP, board, picked)
    assert not await second.overtaken(GROUP, board, plain)
    # ... and a state of the next version wanted in the budget's own round trip wins too.
    assert await second.edit(GROUP, board, lambda: show("v9"), version=9) == "v9"
    assert await first.overtaken(GROUP, board, plain)
    assert await first.edit(GROUP, board, lambda: show("v8 late"), version=8) is None
    assert shown == ["v8", "v9"]


async def test_a_board_edit_is_one_round_trip_and_an_overtaken_one_costs_no_budget(
    redis_url: str, redis_namespace: str
) -> None:
    """An edit of a board's caption takes its ticket and its budget in one call to Redis. An
    edit with a picture took its ticket before drawing; once drawn, the "overtaken?" check
    and the budget are one call, and if another worker asked for a newer state meanwhile the
    edit is skipped without spending the group's edit budget (here: one edit, then one
    every 100 s)."""
    shared = [await RedisShared(redis_url, redis_namespace).connect() for _ in range(2)]
    first, second = (Outbox(group_edit=(1, 0.01), shared=s) for s in shared)
    try:
        shown: list[str] = []

        async def show(what: str) -> str:
            shown.append(what)
            return what

        await first.edit(GROUP - 1, 1, lambda: show("warm-up"))  # the scripts are loaded
        calls = shared[1].calls
        assert await second.edit(GROUP - 2, 1, lambda: show("caption")) == "caption"
        assert shared[1].calls - calls == 1

        older = await first.ticket(GROUP, 7)  # worker 1 draws #7's next picture ...
        newer = await second.ticket(GROUP, 7)  # ... worker 2 a newer one
        calls = shared[0].calls
        assert await first.edit(GROUP, 7, lambda: show("older"), ticket=older) is None
        assert shared[0].calls - calls == 1
        # The skipped edit spent nothing: the newer one goes at once, not in 100 s.
        newest = second.edit(GROUP, 7, lambda: show("newer"), ticket=newer)
        assert await asyncio.wait_for(newest, 5) == "newer"
        assert shown == ["warm-up", "caption", "newer"]
        # The group's one edit is spent now: another waits, whichever worker asks.
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(first.edit(GROUP, 8, lambda: show("too soon")), 1)
    finally:
        for s in shared:
            await s.close()


async def test_ephemeral_calls_share_their_own_budget_and_pause(
    redis_url: str, redis_namespace: str
) -> None:
    """Pickers' calls (ephemeral: seen by one member) are counted once for both workers in a
    budget of their own; a 429 on them pauses them for every worker but not the group's
    messages, and a newer picker state asked by one worker overtakes the other's."""
    shared = [await RedisShared(redis_url, redis_namespace).connect() for _ in range(2)]
    first, second = (Outbox(group_send=(1, 60.0), ephemeral=(2, 4.0), shared=s) for s in shared)
    try:
        sent: list[tuple[str, float]] = []

        async def call(what: str) -> str:
            sent.append((what, time.monotonic()))
            return what

        start = time.monotonic()
        await asyncio.gather(
            *(
                (first, second)[i % 2].run(GROUP, lambda i=i: call(f"picker {i}"), kind="ephemeral")
                for i in range(6)
            )
        )
        # burst 2, then 4 more at 4 a second, whichever worker: about 1 s in all.
        assert max(at for _, at in sent) - start >= 0.9
        assert await second.run(GROUP, lambda: call("group")) == "group"  # the group's own slot

        failed = False

        async def flaky() -> str:
            nonlocal failed
            if not failed:
                failed = True
                raise TelegramRetryAfter(
                    method=SendMessage(chat_id=GROUP, text="x"), message="flood", retry_after=2
                )
            return await call("picker after 429")

        task = asyncio.create_task(first.run(GROUP, flaky, kind="ephemeral"))
        while not failed:
            await asyncio.sleep(0.01)
        paused_at = time.monotonic()
        await second.run(GROUP, lambda: call("edit"), kind="edit")  # not paused by it
        assert time.monotonic() - paused_at < 1.0
        await second.run(GROUP, lambda: call("other picker"), kind="ephemeral")
        assert time.monotonic() - paused_at >= 1.5  # the other worker's pickers waited
        assert await task == "picker after 429"

        key = ("ephemeral", 501, 3)
        mine = await first.ticket(GROUP, key)
        assert not await first.overtaken(GROUP, key, mine)
        await second.ticket(GROUP, key)
        assert await first.overtaken(GROUP, key, mine)
        assert not await first.overtaken(GROUP, ("ephemeral", 502, 3), mine)
    finally:
        for s in shared:
            await s.close()


async def test_a_notice_is_stale_once_any_worker_showed_a_newer_version(
    workers: list[Outbox],
) -> None:
    first, second = workers
    await first.shown(31, 3)
    assert not await second.moved_on(31, 3)
    await second.shown(31, 4)
    await first.shown(31, 2)  # an older state shown late does not undo that
    assert await first.moved_on(31, 3)
    assert not await first.moved_on(31, 4)
    assert not await first.moved_on(32, 1)  # never shown: nothing newer


async def test_without_redis_the_outbox_falls_back_to_its_own_budgets() -> None:
    """Redis gone (here: nothing listens on the port): calls still go out, counted locally."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    shared = RedisShared(f"redis://127.0.0.1:{port}/0")
    with pytest.raises(Exception):  # noqa: B017 - connecting must fail loudly at start
        await shared.connect()
    box = Outbox(group_send=(2, 60.0), shared=shared)
    sent: list[int] = []

    async def send(n: int) -> int:
        sent.append(n)
        return n

    assert await box.run(GROUP, lambda: send(1)) == 1
    assert await box.ticket(GROUP, 1) == 1
    assert await box.edit(GROUP, 1, lambda: send(2)) == 2  # its ticket is this process's
    assert await box.edit(GROUP, 1, lambda: send(3), ticket=1) is None  # overtaken by that
    assert box.shared_failures >= 2
    await shared.close()
