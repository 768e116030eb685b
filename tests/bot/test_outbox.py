"""The outbox's bookkeeping: budgets and edit numbers stay bounded in a long-running bot."""

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
