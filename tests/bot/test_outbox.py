"""The bot's bookkeeping stays bounded in a long-running bot: outbox budgets, edit numbers
and the in-memory caches."""

from __future__ import annotations

import asyncio

import pytest

from bot import outbox as outbox_module
from bot.outbox import Outbox


async def test_budgets_of_quiet_chats_are_forgotten_and_busy_ones_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [1_000.0]
    monkeypatch.setattr(outbox_module, "_now", lambda: clock[0])
    box = Outbox()
    for chat in range(1, 501):
        box.budget(chat)
    box.budget(-100, "edit").tokens = 3  # a group mid-game
    assert len(box._budgets) == 501

    clock[0] += outbox_module.IDLE_BUDGET_SECONDS / 2
    await box.run(-100, lambda: _ok(), kind="edit")  # the group keeps playing
    clock[0] += outbox_module.IDLE_BUDGET_SECONDS / 2 + 1
    box.budget(777)  # a new chat: the quiet ones are swept now
    assert set(box._budgets) == {(-100, "edit"), (777, "all")}
    assert box._budgets[(-100, "edit")].tokens < 20  # its state survived


async def _ok() -> bool:
    return True


async def test_edit_numbers_are_kept_for_recent_messages_only() -> None:
    box = Outbox()
    first = await box.ticket(-1, 1)
    for message_id in range(2, outbox_module.MAX_TICKETS + 50):
        await box.ticket(-1, message_id)
    assert len(box._latest) == outbox_module.MAX_TICKETS
    assert not await box.overtaken(-1, 1, first)  # forgotten: nothing newer is known
    older = await box.ticket(-2, 5)
    await box.ticket(-2, 5)
    assert await box.overtaken(-2, 5, older)


async def test_an_edit_overtaken_while_its_picture_was_drawn_is_skipped() -> None:
    """One process, no Redis: an edit whose ticket was taken before drawing is skipped if a
    newer state of the message was asked for meanwhile; one asked for now goes."""
    box = Outbox()
    drawn = await box.ticket(-3, 9)
    assert await box.edit(-3, 9, lambda: _ok()) is True  # a caption edit asked after it
    assert await box.edit(-3, 9, lambda: _ok(), ticket=drawn) is None
    assert await box.edit(-3, 10, lambda: _ok(), ticket=drawn) is True  # another message


async def test_a_state_of_an_older_version_asked_later_does_not_overtake() -> None:
    """One process: edit numbers order by the game version first, then by when asked."""
    box = Outbox()
    newer = await box.ticket(-4, 1, version=5)
    older = await box.ticket(-4, 1, version=4)
    assert await box.overtaken(-4, 1, older)
    assert not await box.overtaken(-4, 1, newer)
    assert await box.edit(-4, 1, lambda: _ok(), ticket=older, version=4) is None
    assert await box.edit(-4, 1, lambda: _ok(), ticket=newer, version=5) is True
    assert await box.edit(-4, 1, lambda: _ok(), version=4) is None  # asked now, still older
    assert await box.edit(-4, 1, lambda: _ok(), version=6) is True


def test_recent_keeps_the_most_recently_used_entries() -> None:
    from storage.recent import Recent

    names: Recent[int, str] = Recent(3)
    for uid in (1, 2, 3):
        names[uid] = f"user {uid}"
    assert names.get(1) == "user 1"  # used: now the newest
    names[4] = "user 4"  # the least recently used (2) goes
    assert list(names) == [3, 1, 4]
    assert names.get(2) is None and names.get(2, "?") == "?"
    names[3] = "renamed"
    assert list(names) == [1, 4, 3] and len(names) == 3


class VirtualClock:
    """The outbox's clock and sleep, without waiting: a sleep lets other tasks run once, then
    moves time on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = 1_000.0
        monkeypatch.setattr(outbox_module, "_now", lambda: self.now)
        monkeypatch.setattr(outbox_module, "_sleep", self.sleep)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)
        self.now += max(seconds, 0.0)


async def test_a_group_gets_at_most_20_new_messages_in_any_minute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Telegram allows about 20 messages a minute in a group: 100 queued sends must never put
    more than 20 into any 60 seconds, and must not wait longer than that needs."""
    clock = VirtualClock(monkeypatch)
    box = Outbox()
    sent: list[float] = []

    async def send() -> bool:
        sent.append(clock.now)
        return True

    for _ in range(100):
        await box.run(-1001, send)
    assert len(sent) == 100
    for first, twenty_first in zip(sent, sent[20:], strict=False):
        assert twenty_first - first >= 60.0
    assert sent[19] - sent[0] < 1.0  # the first 20 go at once …
    assert sent[-1] - sent[0] <= 4 * 60.0 + 1.0  # … and then 20 a minute, not slower
    # A private chat and the group's edits are budgets of their own.
    before = clock.now
    await box.run(-1001, send, kind="edit")
    await box.run(42, send)
    assert clock.now == before


async def test_a_notice_for_a_game_that_has_moved_on_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """'Your move' waits for the group's budget; if the game was shown at a newer version
    meanwhile (the player already started moving), it is not sent at all."""
    clock = VirtualClock(monkeypatch)
    box = Outbox(group_send=(1, 60.0))
    sent: list[str] = []

    async def send(text: str) -> str:
        sent.append(text)
        return text

    game = ("game", 7)
    await box.shown(game, 3)
    await box.run(-1001, lambda: send("board"))  # uses the minute's only slot
    waiting = [
        asyncio.create_task(
            box.run(-1001, lambda: send("your move, v3"), skip=lambda: box.moved_on(game, 3))
        ),
        asyncio.create_task(
            box.run(-1001, lambda: send("other game"), skip=lambda: box.moved_on(("game", 8), 1))
        ),
    ]
    await asyncio.sleep(0)
    await box.shown(game, 4)  # the player moved before the notice's turn came
    await box.shown(game, 2)  # an older state shown late does not undo that
    results = await asyncio.gather(*waiting)
    assert results == [None, "other game"]
    assert sent == ["board", "other game"]
    assert clock.now >= 1_060.0
    assert not await box.moved_on(game, 4) and await box.moved_on(game, 3)


async def test_ephemeral_calls_have_their_own_budget_and_their_own_429s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A mover's picker taps (ephemeral calls) never wait for the group's minute, and a 429
    on them pauses them only; a 429 on the group's messages does not pause pickers."""
    from aiogram.exceptions import TelegramRetryAfter
    from aiogram.methods import SendMessage

    clock = VirtualClock(monkeypatch)
    box = Outbox(group_send=(1, 60.0), ephemeral=(2, 1.0))
    times: list[tuple[str, float]] = []

    async def call(what: str) -> str:
        times.append((what, clock.now))
        return what

    await box.run(-5, lambda: call("board"))  # the group's only slot this minute
    for n in range(4):
        await box.run(-5, lambda n=n: call(f"picker {n}"), kind="ephemeral")
    start = 1_000.0
    assert [t for w, t in times if w.startswith("picker")] == [start, start, start + 1, start + 2]

    failures = [TelegramRetryAfter(SendMessage(chat_id=-5, text="x"), "Too Many", 7)]

    async def flaky() -> str:
        if failures:
            raise failures.pop()
        return await call("picker after 429")

    before = clock.now
    await box.run(-5, flaky, kind="ephemeral")
    assert clock.now - before >= 7  # retry_after honoured
    assert box._budgets[(-5, "send")].paused_until < clock.now - 6  # the group's not paused
    assert box.retries == 1


async def test_a_newer_picker_state_overtakes_an_older_pending_edit() -> None:
    box = Outbox()
    key = ("ephemeral", 501, 3)  # (receiver, ephemeral message) as bot.boards numbers them
    older = await box.ticket(-5, key)
    newer = await box.ticket(-5, key)
    assert await box.overtaken(-5, key, older)
    assert not await box.overtaken(-5, key, newer)
    assert not await box.overtaken(-5, ("ephemeral", 502, 3), older)  # another member's picker
