"""Pictures drawn ahead (``Boards.prepare``): used once by the message that wants them, and
not drawn at all when several workers share the games (the tap may reach another one)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from aiogram import Bot

from bot.boards import Board, Boards
from bot.drawing import Painter
from bot.outbox import Outbox
from engine import Side
from engine.variants import VARIANTS
from renderer.options import BoardOptions
from storage import open_storage
from tests.bot.test_e2e_picker_speed import counting_draws

TOKEN = "123456789:AAHfakeTokenForTheNardyBotTests_x9"


async def test_a_prepared_picture_is_drawn_once_and_only_for_a_sole_writer(
    tmp_path: Path,
) -> None:
    board = Board(
        "caption", None, VARIANTS["long"].start_position(), BoardOptions(viewer=Side.BLACK)
    )
    store = await open_storage(tmp_path / "p.sqlite3")
    bot = Bot(TOKEN)
    try:
        for sole in (True, False):
            painter = Painter(0)
            drawn = counting_draws(painter)
            boards = Boards(bot, store, Outbox(), painter, sole_writer=sole)
            boards.prepare(board)
            await asyncio.sleep(0)
            assert len(drawn) == (1 if sole else 0)  # drawn ahead by a sole writer only
            first = await boards._picture(1, board)
            assert len(drawn) == 1  # the prepared one was used (or, without it, drawn now)
            again = await boards._picture(1, board)  # used up: drawn anew
            assert len(drawn) == 2
            assert first.data == again.data
    finally:
        await bot.session.close()
        await store.close()


async def test_a_cancelled_prepared_picture_is_drawn_again_and_a_cancelled_tap_leaves_it(
    tmp_path: Path,
) -> None:
    """A picture drawn ahead whose drawing was cancelled (the drawing process restarted, the
    bot stopping) is drawn again for the message that wants it: the tap is not cancelled
    with it. A tap cancelled while it waits for a prepared picture stops; the drawing goes
    on for nobody, and is not cancelled by it."""
    board = Board(
        "caption", None, VARIANTS["long"].start_position(), BoardOptions(viewer=Side.WHITE)
    )
    store = await open_storage(tmp_path / "c.sqlite3")
    bot = Bot(TOKEN)
    try:
        painter = Painter(0)
        drawn = counting_draws(painter)
        boards = Boards(bot, store, Outbox(), painter)
        boards.prepare(board)
        boards._prepared[(board.position, board.options)].cancel()
        picture = await boards._picture(1, board)  # drawn here, not cancelled with it
        assert picture.data.startswith(b"\xff\xd8")
        assert len(drawn) == 1  # (the cancelled drawing never began)

        boards.prepare(board)
        drawing = boards._prepared[(board.position, board.options)]
        tap = asyncio.ensure_future(boards._picture(1, board))
        await asyncio.sleep(0)
        tap.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await tap
        assert tap.cancelled()
        assert (await drawing).startswith(b"\xff\xd8")  # the drawing itself finished
    finally:
        await bot.session.close()
        await store.close()
