"""``Boards``' private pickers against the fake Bot API server: what a picker's picture is
remembered as, so an edit that would show the same picture changes only its caption."""

from __future__ import annotations

from pathlib import Path

from bot.boards import Board, Boards, Target
from bot.drawing import Painter
from bot.outbox import Outbox
from engine import Side
from engine.variants import VARIANTS
from renderer.options import BoardOptions
from storage import open_storage
from tests.fake_telegram import FakeTelegram

TOKEN = "123456789:AAHfakeTokenForTheNardyBotTests_x9"


async def test_a_pickers_picture_is_remembered_per_chat(tmp_path: Path) -> None:
    """Ephemeral message ids count per chat: one person's pickers in two groups can have the
    same id. What one of them shows says nothing about the other, so an edit of the first to
    the second's picture uploads that picture instead of changing only the caption."""
    start = VARIANTS["long"].start_position()
    white = Board("white", None, start, BoardOptions(viewer=Side.WHITE))
    black = Board("black", None, start, BoardOptions(viewer=Side.BLACK))
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(701, "Alice")
        first = tg.group(-701, "first", admins=[alice])
        second = tg.group(-702, "second", admins=[alice])
        store = await open_storage(tmp_path / "p.sqlite3")
        bot = tg.make_bot()
        try:
            boards = Boards(bot, store, Outbox(), Painter(0))
            here = await boards.send_picker(
                1, Target(first.id), alice.id, white, query_id=None, replace=False
            )
            there = await boards.send_picker(
                2, Target(second.id), alice.id, black, query_id=None, replace=False
            )
            assert here.ephemeral_id == there.ephemeral_id  # each chat counts its own
            mark = tg.mark()
            await boards.edit_picker(1, here, black, version=1)
            assert [c.method for c in tg.calls(chat_id=first.id) if c.seq >= mark] == [
                "editEphemeralMessageMedia"
            ]
            shown = tg.ephemerals[first.id][(alice.id, here.ephemeral_id)]
            assert shown.caption == "black"
            # The same picture again: now only the caption and buttons change.
            mark = tg.mark()
            await boards.edit_picker(1, here, Board("again", None, start, black.options), version=1)
            assert [c.method for c in tg.calls(chat_id=first.id) if c.seq >= mark] == [
                "editEphemeralMessageCaption"
            ]
        finally:
            await bot.session.close()
            await store.close()
