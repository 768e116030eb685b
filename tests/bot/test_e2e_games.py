"""Whole games end to end: real aiogram Bot and Dispatcher, real SQLite, real PNG/JPEG boards,
over HTTP against the fake Bot API server."""

from __future__ import annotations

import io
import os
import random
import tempfile
from pathlib import Path

from PIL import Image

from bot.callbacks import Act, GameCB
from bot.texts import t
from engine import Phase, format_steps
from tests.bot.harness import (
    active_match,
    caught_up,
    current_board,
    game_buttons,
    running_bot,
    surface,
    tap_and_wait,
    tap_message_and_wait,
    type_and_wait,
)
from tests.fake_telegram import FakeChat, FakeTelegram, FakeUser

# Set NARDY_TRANSCRIPTS=<folder> to keep the fake-server transcripts of these games for reading.
TRANSCRIPTS = Path(os.environ.get("NARDY_TRANSCRIPTS", tempfile.gettempdir()))


async def drive_game(
    tg: FakeTelegram,
    app,
    chats: dict[int, FakeChat],
    players: dict[int, FakeUser],
    *,
    game_chat: int,
    rng: random.Random,
    typed_every: int = 2,
    max_actions: int = 2000,
) -> None:
    """Play until the current game is over: the player to act either taps through the board's
    buttons (source, destination, Done) or types the whole play in notation."""
    turn_no = 0
    for _ in range(max_actions):
        mark = tg.mark()
        any_uid = next(iter(players))
        snap = await active_match(app, game_chat, any_uid)
        if snap is None:
            return
        game = snap.game
        if game.phase is Phase.OVER:
            await boards_caught_up(tg, chats.values(), snap.version)
            return
        seat = game.seat_to_act
        assert seat is not None
        uid = snap.user_ids[seat]
        assert uid is not None, "a computer seat must never be waiting"
        user = players[uid]
        chat = chats.get(uid) or chats[game_chat]
        if game.phase is Phase.MOVE and not game.steps and (turn_no + 1) % typed_every == 0:
            turn_no += 1  # typed from the stored game: no picker to open, no board to wait for
            play = rng.choice(game.turn.legal_plays)
            await type_and_wait(tg, chat, user, "/move " + format_steps(play.steps))
            continue
        board = surface(tg, chat, user)  # a group's mover plays in their private picker
        opens = any(cb.a is Act.OPEN for _, cb, _ in game_buttons(board))
        if not opens and not await caught_up(tg, chat.id, board, snap.version, mark):
            continue  # the board was still being drawn: read the game again
        buttons = game_buttons(board)
        acts = {cb.a: data for _, cb, data in buttons}
        if Act.OPEN in acts:  # a group: the mover opens their private picker first
            await tap_and_wait(tg, chat, board.message_id, user, acts[Act.OPEN])
            continue
        if game.phase is Phase.DOUBLE:
            await tap_and_wait(tg, chat, board.message_id, user, acts[Act.TAKE])
            continue
        if game.phase is Phase.ROLL:
            await tap_and_wait(tg, chat, board.message_id, user, acts[Act.ROLL])
            continue
        if not game.steps:
            turn_no += 1
        steps = [data for _, cb, data in buttons if cb.a in (Act.PICK, Act.MOVE)]
        if Act.DONE in acts and (not steps or rng.random() < 0.5):
            await tap_message_and_wait(tg, chat, board, user, acts[Act.DONE])
            continue
        assert steps, f"no way to move: {board.button_labels()} / {board.caption}"
        choice = rng.choice(steps)
        await tap_message_and_wait(tg, chat, board, user, choice)
        if GameCB.unpack(choice).a is Act.MOVE:  # a point with one destination: moved
            continue
        board = surface(tg, chat, user)
        moves = [data for _, cb, data in game_buttons(board) if cb.a is Act.MOVE]
        assert moves, f"a picked point offers no destination: {board.button_labels()}"
        await tap_message_and_wait(tg, chat, board, user, rng.choice(moves))
    raise AssertionError("game did not finish")


async def boards_caught_up(tg: FakeTelegram, chats, version: int) -> None:
    """Wait until every chat's board shows the game at ``version`` (the last edit is drawn
    after the game is stored: under load it comes a while after the tap was answered)."""
    for chat in chats:
        for _ in range(100):
            if any(cb.v == version for _, cb, _ in game_buttons(current_board(tg, chat))):
                break
            await tg.wait_idle(quiet=0.3, timeout=30)


def assert_board_picture(data: bytes) -> None:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert max(image.size) <= 1280


async def test_group_long_game_to_the_end_and_rematch(tmp_path: Path) -> None:
    async with FakeTelegram(token="123456789:AAHfakeTokenForTheNardyBotTests_x9") as tg:
        alice = tg.user(101, "Алиса", language_code="ru")
        bob = tg.user(102, "Bob", language_code="en")
        group = tg.group(-1001, "Нарды клуб", admins=[alice])
        async with running_bot(tg, tmp_path / "bot.sqlite3", seed=3) as run:
            await tg.wait_idle()
            await type_and_wait(tg, group, alice, "/new long")
            lobby = tg.last_bot_message(group)
            assert "Алиса" in (lobby.text or "")
            mark = tg.mark()
            await tg.tap_button(group, bob, "✋ Присоединиться")
            await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            board = current_board(tg, group)
            assert_board_picture(board.photo or b"")
            assert "Длинные нарды" in (board.caption or "")
            await drive_game(
                tg,
                run.app,
                {-1001: group},
                {101: alice, 102: bob},
                game_chat=-1001,
                rng=random.Random(5),
            )
            final = current_board(tg, group)
            assert "🏆" in (final.caption or "")
            labels = [label for row in final.button_labels() for label in row]
            assert "🔁 Реванш" in labels
            # a rematch between people starts only when the other player accepts (#18)
            mark = tg.mark()
            await tg.tap_button(group, bob, "🔁 Реванш")
            await tg.wait_for("sendMessage", chat_id=group, since=mark, timeout=30)
            offer = tg.last_bot_message(group)
            assert "Bob" in (offer.text or "") and "Алиса" in (offer.text or "")
            assert current_board(tg, group).message_id == final.message_id
            mark = tg.mark()
            await tg.tap_button(group, alice, t("ru", "btn_accept"), message_id=offer.message_id)
            await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            again = current_board(tg, group)
            assert again.message_id != final.message_id
            assert "👉" in (again.caption or "")
            stats = await run.app.store.get_user_stats(101, "long")
            assert stats.games == 1
        TRANSCRIPTS.mkdir(parents=True, exist_ok=True)
        tg.save_transcript(TRANSCRIPTS / "group_long_ru.txt", group)


async def test_private_short_match_by_invitation_link(tmp_path: Path) -> None:
    """A challenge by deep link: each player sees the game in their own private chat, drawn
    from their side; a 3-point short-nardy match with the cube is played to its end."""
    async with FakeTelegram(token="123456789:AAHfakeTokenForTheNardyBotTests_x9") as tg:
        alice = tg.user(201, "Alice", language_code="en")
        boris = tg.user(202, "Борис", language_code="ru")
        a_chat, b_chat = tg.private_chat(alice), tg.private_chat(boris)
        async with running_bot(tg, tmp_path / "bot.sqlite3", seed=11) as run:
            await tg.wait_idle()
            await type_and_wait(tg, a_chat, alice, "/new")
            menu = tg.last_bot_message(a_chat)
            await tap_and_wait(
                tg,
                a_chat,
                menu.message_id,
                alice,
                menu.button_by_label("👥 Friend · short")["callback_data"],
            )
            link_msg = tg.last_bot_message(a_chat)
            link = next(w for w in (link_msg.text or "").split() if "start=" in w)
            token = link.split("start=", 1)[1]
            assert link.startswith("https://t.me/nardy_test_bot?start=")
            mark = tg.mark()
            await tg.send_text(b_chat, boris, f"/start {token}")
            await tg.wait_for("sendPhoto", chat_id=a_chat, since=mark, timeout=30)
            await tg.wait_for("sendPhoto", chat_id=b_chat, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            a_board, b_board = current_board(tg, a_chat), current_board(tg, b_chat)
            assert "Short nardy" in (a_board.caption or "")
            assert "Короткие нарды" in (b_board.caption or "")
            snap = await active_match(run.app, a_chat.id, alice.id)
            assert snap is not None
            snap.match.length  # noqa: B018
            await drive_game(
                tg,
                run.app,
                {201: a_chat, 202: b_chat},
                {201: alice, 202: boris},
                game_chat=a_chat.id,
                rng=random.Random(2),
            )
            final_a = current_board(tg, a_chat)
            assert "🏆" in (final_a.caption or "")
            assert "🏆" in (current_board(tg, b_chat).caption or "")
        TRANSCRIPTS.mkdir(parents=True, exist_ok=True)
        tg.save_transcript(TRANSCRIPTS / "private_short_en.txt", a_chat)
        tg.save_transcript(TRANSCRIPTS / "private_short_ru.txt", b_chat)


async def test_private_game_against_the_computer_with_hints(tmp_path: Path) -> None:
    """Play the computer (easy) in short nardy from a private chat to the end; the computer
    moves at once and its play is named in the caption; /hint lists the best plays."""
    async with FakeTelegram(token="123456789:AAHfakeTokenForTheNardyBotTests_x9") as tg:
        vera = tg.user(501, "Вера")
        chat = tg.private_chat(vera)
        async with running_bot(tg, tmp_path / "bot.sqlite3", seed=21) as run:
            await tg.wait_idle()
            await type_and_wait(tg, chat, vera, "/new")
            menu = tg.last_bot_message(chat)
            await tap_and_wait(
                tg,
                chat,
                menu.message_id,
                vera,
                menu.button_by_label("🤖 Компьютер · короткие")["callback_data"],
            )
            levels = tg.last_bot_message(chat)
            assert levels.button_labels() == [["Лёгкий", "Средний", "Сильный"]]
            mark = tg.mark()
            await tg.tap_button(chat, vera, "Лёгкий")
            await tg.wait_for("sendPhoto", chat_id=chat, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            board = current_board(tg, chat)
            assert "🤖" in (board.caption or "")
            snap = await active_match(run.app, chat.id, vera.id)
            if snap.game.phase is Phase.MOVE:
                await type_and_wait(tg, chat, vera, "/hint")
                assert "💡" in (tg.last_bot_message(chat).text or "")
            await drive_game(
                tg,
                run.app,
                {501: chat},
                {501: vera},
                game_chat=chat.id,
                rng=random.Random(4),
                typed_every=1,
            )
            final = current_board(tg, chat)
            assert "🏆" in (final.caption or "")
            vs_ai = await run.app.store.get_user_stats(501, "short", vs_ai=True)
            vs_people = await run.app.store.get_user_stats(501, "short", vs_ai=False)
            assert vs_ai.games == 1 and vs_people.games == 0
            assert (await run.app.store.get_rating(501, "short")).games == 0
        TRANSCRIPTS.mkdir(parents=True, exist_ok=True)
        tg.save_transcript(TRANSCRIPTS / "private_vs_ai_ru.txt", chat)
