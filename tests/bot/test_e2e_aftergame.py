"""After a game, end to end on the fake Bot API server: the finished board offers Replay and
Record; Replay sends an animated GIF of the game (one frame per turn), Record a .mat file
that holds the game's moves and result."""

from __future__ import annotations

import io
import random
from pathlib import Path

from PIL import Image

from bot.texts import t
from engine import Match
from engine.game import Event, EventKind
from tests.bot.harness import (
    Running,
    active_match,
    current_board,
    running_bot,
    tap_and_wait,
    type_and_wait,
)
from tests.bot.test_e2e_games import drive_game
from tests.fake_telegram import FakeChat, FakeTelegram, FakeUser


async def finish_a_game_against_the_computer(
    tg: FakeTelegram, run: Running, user: FakeUser, chat: FakeChat, seed: int = 4
) -> int:
    """A short game against the easy computer from `/new` to its end, the user playing
    random legal plays; the game's id."""
    await tg.wait_idle()
    await type_and_wait(tg, chat, user, "/new")
    menu = tg.last_bot_message(chat)
    await tap_and_wait(
        tg,
        chat,
        menu.message_id,
        user,
        menu.button_by_label("🤖 Компьютер · короткие")["callback_data"],
    )
    mark = tg.mark()
    await tg.tap_button(chat, user, "Лёгкий")
    await tg.wait_for("sendPhoto", chat_id=chat, since=mark, timeout=30)
    await tg.wait_idle(quiet=0.1)
    snap = await active_match(run.app, chat.id, user.id)
    rng = random.Random(seed)
    await drive_game(tg, run.app, {user.id: chat}, {user.id: user}, game_chat=chat.id, rng=rng)
    return snap.game_id


async def test_replay_and_record_of_a_finished_game_against_the_computer(tmp_path: Path) -> None:
    async with FakeTelegram(token="123456789:AAHfakeTokenForTheNardyBotTests_x9") as tg:
        vera = tg.user(501, "Вера")
        chat = tg.private_chat(vera)
        async with running_bot(tg, tmp_path / "bot.sqlite3", seed=21) as run:
            game_id = await finish_a_game_against_the_computer(tg, run, vera, chat)
            final = current_board(tg, chat)
            labels = [label for row in final.button_labels() for label in row]
            assert t("ru", "btn_replay") in labels and t("ru", "btn_record") in labels
            finished = await run.app.store.get_game(game_id)
            history: list[Event] = list(Match.from_json(finished.state).current.history)
            turns = sum(e.kind in (EventKind.MOVE, EventKind.PASS) for e in history)

            mark = tg.mark()
            await tg.tap_button(chat, vera, t("ru", "btn_replay"), message_id=final.message_id)
            await tg.wait_for("sendAnimation", chat_id=chat, since=mark, timeout=60)
            await tg.wait_idle(quiet=0.1)
            sent = tg.last_bot_message(chat)
            assert sent.media_kind == "animation" and sent.file is not None
            assert sent.file.data is not None
            with Image.open(io.BytesIO(sent.file.data)) as gif:
                assert gif.format == "GIF" and gif.n_frames == turns + 1
            assert "Вера" in (sent.caption or "") and str(turns) in (sent.caption or "")

            mark = tg.mark()
            await tg.tap_button(chat, vera, t("ru", "btn_record"), message_id=final.message_id)
            await tg.wait_for("sendDocument", chat_id=chat, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            doc = tg.last_bot_message(chat)
            assert doc.media_kind == "document" and doc.file is not None
            assert (doc.file.file_name or "").endswith(".mat")
            text = (doc.file.data or b"").decode("utf-8")
            assert text.startswith(" 1 point match\n")
            assert "Вера : 0" in text and "Wins " in text
            moves = [e for e in history if e.kind is EventKind.MOVE and e.steps]
            first = moves[0]
            assert f"{first.dice[0]}{first.dice[1]}: " in text
            # the board itself is unchanged by either button
            assert current_board(tg, chat).message_id == final.message_id
