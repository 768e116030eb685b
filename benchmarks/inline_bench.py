"""What a turn's new picture costs in an inline-mode message, against a group's board.

    python benchmarks/inline_bench.py [--boards 60]

Telegram takes no upload into an inline message, so the bot uploads each new picture to a chat
it controls and edits the inline message with the picture's file_id (bot/inline_boards.py).
This runs the bot's real publishing code (``Boards.edit`` and ``InlineBoards.edit``, the
drawing in a thread) against the fake Bot API server over loopback HTTP, for the same boards
(positions from random play, with dice, highlights and names, as after a turn), three ways:

* group board: one ``editMessageMedia`` with the upload;
* inline, upload to a player's private chat: ``sendPhoto`` + ``deleteMessage`` + an
  ``editMessageMedia`` by file_id (``MEDIA_CHAT_ID`` unset);
* inline, upload to a media chat: ``sendPhoto`` + ``editMessageMedia`` (``MEDIA_CHAT_ID`` set);
* inline, a picture already uploaded: only the ``editMessageMedia`` by file_id.

It prints calls and bytes per board and the bot-side wall time (median, p90). Loopback has no
network latency: against Telegram each extra call adds a round trip (tens of milliseconds).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aiogram import Bot
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from benchmarks.render_bench import random_positions
from bot.boards import Board, Boards, Target
from bot.drawing import BOARD_WIDTH, Painter
from bot.inline_boards import InlineBoards
from bot.outbox import Outbox
from bot.session import ApiSession
from tests.fake_telegram import FakeTelegram

FAST = {"private": (10_000, 10_000), "group_send": (10_000, 1.0), "group_edit": (10_000, 10_000)}


class _NoStore:
    """Boards remembers board messages in storage; the benchmark keeps none."""

    async def set_game_message(self, *args: object, **kwargs: object) -> None:
        return None


def _keyboard(i: int) -> InlineKeyboardMarkup:
    button = InlineKeyboardButton(text=f"move {i}", callback_data=f"g:{i}")
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


async def _timed(run: Callable[[], Awaitable[None]]) -> float:
    start = time.perf_counter()
    await run()
    return (time.perf_counter() - start) * 1000


def _line(name: str, tg: FakeTelegram, mark: int, times: list[float], boards: int) -> str:
    calls = [c for c in tg.calls() if c.seq >= mark and c.method != "getUpdates"]
    methods: dict[str, int] = {}
    for call in calls:
        methods[call.method] = methods.get(call.method, 0) + 1
    per = ", ".join(f"{m} {n / boards:.1f}" for m, n in sorted(methods.items()))
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (
        f"{name:<38} {len(calls) / boards:4.1f} calls/board ({per}); "
        f"median {statistics.median(times):6.1f} ms, p90 {p90:6.1f} ms"
    )


async def main(count: int) -> None:
    boards_data = [
        (position, dataclasses.replace(options, width=BOARD_WIDTH, optimize_jpeg=False))
        for position, options in random_positions(count)
    ]
    async with FakeTelegram(decode_images=False) as tg:
        session = ApiSession()  # the bot's own session (edits whose reply it does not read)
        session.api = tg.api_server
        bot = Bot(token=tg.token, session=session)
        alice = tg.user(1, "Alice")
        tg.private_chat(alice)
        group = tg.group(-100500, "group")
        media = tg.group(-100600, "media", bot_is_admin=True)
        friends = tg.users_chat(alice, tg.user(2, "Bob"))
        painter = Painter(0)
        await painter.start()
        outbox = Outbox(**FAST)
        boards = Boards(bot, _NoStore(), outbox, painter)  # type: ignore[arg-type]
        first = Board("start", _keyboard(0), *boards_data[0])
        sent = await bot.send_photo(group.id, await boards._picture(0, first))
        # an inline message to edit: a card posted via the bot
        query_id = await tg.inline_query(alice, chat=friends)
        await bot.answer_inline_query(
            query_id,
            [
                {
                    "type": "photo",
                    "id": "card",
                    "photo_file_id": sent.photo[-1].file_id,
                    "reply_markup": _keyboard(0).model_dump(exclude_none=True),
                }
            ],  # type: ignore[list-item]
        )
        card = await tg.choose_inline_result(query_id, "card")
        inline_id = card.inline_message_id
        assert inline_id is not None
        lines = []

        async def group_edit(board: Board) -> None:
            await boards.edit(0, Target(group.id), sent.message_id, board)

        def inline_edit(pictures: InlineBoards) -> Callable[[Board], Awaitable[None]]:
            async def run(board: Board) -> None:
                await pictures.edit(inline_id, board, [alice.id], picture=True)

            return run

        private = InlineBoards(bot, outbox, painter)
        in_media = InlineBoards(bot, outbox, painter, media_chat_id=media.id)
        cases = [
            ("group board (upload in the edit)", group_edit),
            ("inline, upload to the private chat", inline_edit(private)),
            ("inline, upload to MEDIA_CHAT_ID", inline_edit(in_media)),
            ("inline, picture already uploaded", inline_edit(in_media)),
        ]
        for name, run in cases:
            times = []
            mark = tg.mark()
            for i, (position, options) in enumerate(boards_data):
                board = Board(f"{name} {i}", _keyboard(i), position, options)
                times.append(await _timed(lambda b=board, r=run: r(b)))
            lines.append(_line(name, tg, mark, times, len(boards_data)))
        uploads = tg.calls("sendPhoto")
        sizes = [c.result["photo"][-1]["file_size"] for c in uploads if c.ok]
        await painter.close()
        await bot.session.close()
    print(f"{count} boards; pictures {statistics.median(sizes) / 1024:.0f} KB median")
    for line in lines:
        print(line)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=60)
    asyncio.run(main(parser.parse_args().boards))
