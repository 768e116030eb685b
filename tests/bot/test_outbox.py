"""The bot's bookkeeping stays bounded in a long-running bot: outbox budgets, edit numbers
and the in-memory caches."""

from __future__ import annotations

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


def test_edit_numbers_are_kept_for_recent_messages_only() -> None:
    box = Outbox()
    first = box.ticket(-1, 1)
    for message_id in range(2, outbox_module.MAX_TICKETS + 50):
        box.ticket(-1, message_id)
    assert len(box._latest) == outbox_module.MAX_TICKETS
    assert not box.overtaken(-1, 1, first)  # forgotten: nothing newer is known
    older = box.ticket(-2, 5)
    box.ticket(-2, 5)
    assert box.overtaken(-2, 5, older)


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
