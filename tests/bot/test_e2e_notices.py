"""'Your move' in a group whose send budget is used up: the notice waits for the budget, and
if the game has moved on by then (the player already started), it is not sent at all (#18
item 8). Real bot, real SQLite, fake Telegram over HTTP."""

from __future__ import annotations

import random
import time
from pathlib import Path

from bot.callbacks import Act
from bot.outbox import Outbox
from bot.texts import t
from tests.bot.harness import (
    TOKEN,
    current_board,
    game_buttons,
    make_a_step,
    play_turn_by_buttons,
    players_by_chat,
    running_bot,
    surface,
    tap_message_and_wait,
    type_and_wait,
)
from tests.fake_telegram import FakeChat, FakeTelegram, FakeUser, StoredMessage

WINDOW = 4.0  # seconds; the group may get LIMIT new messages in any WINDOW
LIMIT = 3
NOTICE = t("ru", "notify_turn", name="\x00").split("\x00")[0]  # how every notice begins


def notices_since(tg: FakeTelegram, chat: FakeChat, mark: int) -> list[str]:
    return [
        str(c.params.get("text"))
        for c in tg.calls("sendMessage", chat_id=chat)
        if c.seq > mark and str(c.params.get("text", "")).startswith(NOTICE)
    ]


async def until_done_is_offered(
    tg: FakeTelegram, group: FakeChat, players: dict[str, FakeUser], rng: random.Random
) -> tuple[StoredMessage, str, FakeUser]:
    """Play on by buttons until a player has a complete play and only Done is left to tap."""
    for _ in range(300):
        mover = players_by_chat(group, players, current_board(tg, group))
        where = surface(tg, group, mover)  # the mover's private picker, if one is open
        done = [d for _, cb, d in game_buttons(where) if cb.a is Act.DONE]
        if done:
            return where, done[0], mover
        assert await play_turn_by_buttons(tg, group, players, rng)
    raise AssertionError("no Done button came up")


async def use_up_the_minute(run, group: FakeChat) -> float:
    """Send LIMIT other messages through the outbox, as a busy group would; returns when the
    first of them was sent (the budget frees a place WINDOW seconds after that)."""
    first = 0.0
    for n in range(LIMIT):
        await run.app.outbox.run(group.id, lambda n=n: run.app.bot.send_message(group.id, f"…{n}"))
        first = first or time.monotonic()
    return first


async def test_a_notice_waits_for_the_budget_and_is_dropped_once_the_game_moved_on(
    tmp_path: Path,
) -> None:
    outbox = Outbox(private=(1000, 1000), group_send=(LIMIT, WINDOW), group_edit=(1000, 1000))
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", outbox=outbox) as run,
    ):
        alice, bob = tg.user(701, "Алиса"), tg.user(702, "Боб")
        players = {"a": alice, "b": bob}
        group = tg.group(-7001, "Клуб", admins=[alice])
        await tg.wait_idle()
        await type_and_wait(tg, group, alice, "/new long")
        mark = tg.mark()
        await tg.tap_button(group, bob, t("ru", "btn_join"))
        await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
        await tg.wait_idle(quiet=0.1)
        rng = random.Random(3)

        # 1. Nobody moves meanwhile: the notice is late, but still true, so it is sent.
        board, done, mover = await until_done_is_offered(tg, group, players, rng)
        first = await use_up_the_minute(run, group)
        mark = tg.mark()
        await tap_message_and_wait(tg, group, board, mover, done)
        call = await tg.wait_for(
            lambda c: c.method == "sendMessage" and str(c.params.get("text")).startswith(NOTICE),
            chat_id=group,
            since=mark,
            timeout=WINDOW + 10,
        )
        assert call.ok and time.monotonic() - first >= WINDOW - 0.1  # it waited for the budget

        # 2. The player starts before the notice's turn comes: it is dropped.
        board, done, mover = await until_done_is_offered(tg, group, players, rng)
        await use_up_the_minute(run, group)
        mark = tg.mark()
        # Done's handler now waits for the budget to send the notice: wait for what the
        # players see, not for that handler to end, and move before the notice's turn comes.
        busy, tg.bot_busy = tg.bot_busy, None
        await tap_message_and_wait(tg, group, board, mover, done)
        board = current_board(tg, group)
        nxt = players_by_chat(group, players, board)
        assert nxt.id != mover.id
        await make_a_step(tg, group, nxt)  # dice rolled for them (long nardy): a step
        tg.bot_busy = busy
        await tg.wait_idle(quiet=WINDOW + 1.5, timeout=WINDOW + 30)
        assert notices_since(tg, group, mark) == []
