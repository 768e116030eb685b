"""What a real chat throws at the bot: strangers, stale and double taps, both players tapping
at once, illegal moves, a restart mid-game, redelivered updates, 429s, deleted boards, /lang,
a blocked bot. Real bot, real SQLite, fake Telegram over HTTP.

Groups here play on the board's own buttons (``group_picker=False``, the fallback of
issue #12): these tests are about taps in place; the private picker has its own tests in
``test_e2e_picker.py``.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

from bot.callbacks import Act
from engine import Phase
from tests.bot.harness import (
    TOKEN,
    a_pick,
    active_match,
    current_board,
    game_buttons,
    running_bot,
    tap_and_wait,
    type_and_wait,
)
from tests.fake_telegram import FakeChat, FakeTelegram, FakeUser

ROOT = Path(__file__).resolve().parents[2]


async def start_group_game(
    tg: FakeTelegram, variant: str = "long"
) -> tuple[FakeChat, FakeUser, FakeUser]:
    alice = tg.user(301, "Алиса")
    bob = tg.user(302, "Боб")
    group = tg.group(-3001, "Клуб", admins=[alice])
    await tg.wait_idle()
    await type_and_wait(tg, group, alice, f"/new {variant}")
    mark = tg.mark()
    await tg.tap_button(group, bob, "✋ Присоединиться")
    await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
    await tg.wait_idle(quiet=0.1)
    return group, alice, bob


async def mover_and_other(run, group: FakeChat, alice: FakeUser, bob: FakeUser):
    snap = await active_match(run.app, group.id, alice.id)
    assert snap is not None
    uid = snap.user_ids[snap.game.seat_to_act]
    return (alice, bob) if uid == alice.id else (bob, alice)


async def test_stranger_stale_and_double_taps_change_nothing(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        group, alice, bob = await start_group_game(tg)
        mover, other = await mover_and_other(run, group, alice, bob)
        stranger = tg.user(399, "Зевака")
        board = current_board(tg, group)
        pick = a_pick(board)
        before = (await active_match(run.app, group.id, alice.id)).row.version

        qid = await tap_and_wait(
            tg, group, board.message_id, stranger, pick, visible=False, check_button=False
        )
        assert "не участвуете" in tg.callback_answers[qid].text
        qid = await tap_and_wait(
            tg, group, board.message_id, other, pick, visible=False, check_button=False
        )
        assert "не ваш ход" in tg.callback_answers[qid].text

        # The mover picks a point and a destination; a double tap on the destination acts once.
        await tap_and_wait(tg, group, board.message_id, mover, pick, check_button=False)
        board = current_board(tg, group)
        move = next(data for _, cb, data in game_buttons(board) if cb.a is Act.MOVE)
        q1 = await tg.tap(group, board.message_id, mover, move)
        q2 = await tg.tap(group, board.message_id, mover, move, check_button=False)
        await tg.wait_idle(quiet=0.3, timeout=30)
        answers = {tg.callback_answers[q1].text, tg.callback_answers[q2].text}
        assert any(a and "устарела" in a for a in answers), answers
        snap = await active_match(run.app, group.id, alice.id)
        assert len(snap.game.steps) == 1 or snap.game.seat_to_act is not None
        assert snap.row.version == before + 1

        # A button of an older board state answers "outdated" and does nothing.
        qid = await tg.tap(group, board.message_id, mover, move, check_button=False)
        await tg.wait_idle(quiet=0.2)
        assert "устарела" in tg.callback_answers[qid].text
        assert (await active_match(run.app, group.id, alice.id)).row.version == before + 1


async def test_both_players_tapping_at_once_cannot_corrupt(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        group, alice, bob = await start_group_game(tg)
        board = current_board(tg, group)
        snap = await active_match(run.app, group.id, alice.id)
        steps = snap.game.legal_steps()
        from bot.callbacks import GameCB

        data = [
            GameCB(game=snap.row.game_id, v=snap.version, a=Act.MOVE, s=s.src, t=s.dst).pack()
            for s in steps[:2]
        ]
        queries = []
        for user in (alice, bob, alice, bob):
            for d in data:
                queries.append(await tg.tap(group, board.message_id, user, d, check_button=False))
        await tg.wait_idle(quiet=0.3, timeout=30)
        after = await active_match(run.app, group.id, alice.id)
        assert after.row.version == snap.version + 1
        assert len(after.game.steps) == 1
        moves = await run.app.store.get_moves(after.row.game_id)
        assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
        assert all(q in tg.callback_answers for q in queries)


async def test_illegal_typed_move_is_explained_and_changes_nothing(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        group, alice, bob = await start_group_game(tg)
        mover, _ = await mover_and_other(run, group, alice, bob)
        before = await active_match(run.app, group.id, alice.id)
        await type_and_wait(tg, group, mover, "/move 13/7 13/9")
        reply = tg.last_bot_message(group)
        assert "Ход отклонён" in (reply.text or "")
        assert "(C-1)" in (reply.text or "")
        await type_and_wait(tg, group, mover, "/move 24/x")
        assert "Не понял ход" in (tg.last_bot_message(group).text or "")
        after = await active_match(run.app, group.id, alice.id)
        assert after.row.version == before.row.version


async def test_unreadable_typed_move_is_explained_in_the_chat_language_and_escaped(
    tmp_path: Path,
) -> None:
    """#18 items 1 and 2: the notation error is worded by the catalog (no English inside a
    Russian reply), and the user's own text, tags and ampersands included, is escaped."""
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        group, alice, bob = await start_group_game(tg)
        mover, _ = await mover_and_other(run, group, alice, bob)
        before = await active_match(run.app, group.id, alice.id)

        await type_and_wait(tg, group, mover, "/move 1/7")
        reply = tg.last_bot_message(group).text or ""
        explanation = reply.split("\n")[0]  # the next line is the example, in notation
        assert explanation.startswith("Не понял ход:") and "«1/7»" in explanation, reply
        assert not re.search(r"[A-Za-z]", explanation), explanation

        await type_and_wait(tg, group, mover, "/m <b>24/18</b> & <i>")
        reply = tg.last_bot_message(group)
        assert (reply.text or "").startswith("Не понял ход:"), reply.text
        assert "<b>24" in (reply.text or "")  # shown as typed, not parsed as HTML
        assert not [e for e in reply.entities or () if e["type"] in ("bold", "italic")]
        after = await active_match(run.app, group.id, alice.id)
        assert after.row.version == before.row.version


async def test_redelivered_update_acts_once(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        group, alice, bob = await start_group_game(tg)
        mover, _ = await mover_and_other(run, group, alice, bob)
        snap = await active_match(run.app, group.id, alice.id)
        step = snap.game.legal_steps()[0]
        await type_and_wait(tg, group, mover, f"/move {step.src}/{step.dst or 'off'}")
        version = (await active_match(run.app, group.id, alice.id)).row.version
        assert version == snap.version + 1
        last_update = max(tg._update_archive)  # the /move update
        await tg.redeliver(last_update)
        await tg.wait_idle(quiet=0.3)
        assert (await active_match(run.app, group.id, alice.id)).row.version == version


async def test_429_during_a_turn_is_retried(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        group, alice, bob = await start_group_game(tg)
        mover, _ = await mover_and_other(run, group, alice, bob)
        board = current_board(tg, group)
        pick = a_pick(board)
        tg.fail_next("editMessageMedia", retry_after=1)  # a pick draws the chosen point
        await tap_and_wait(tg, group, board.message_id, mover, pick, check_button=False)
        edits = tg.calls("editMessageMedia", chat_id=group)
        assert [c.error_code for c in edits[-2:]] == [429, None]
        assert run.app.outbox.retries >= 1
        assert "Выберите" in (current_board(tg, group).caption or "")


async def test_deleted_board_is_sent_again(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        group, alice, bob = await start_group_game(tg)
        mover, _ = await mover_and_other(run, group, alice, bob)
        board = current_board(tg, group)
        pick = a_pick(board)
        tg.delete_message_as_user(group, board.message_id)
        snap = await active_match(run.app, group.id, alice.id)
        step = snap.game.legal_steps()[0]
        await type_and_wait(tg, group, mover, f"/move {step.src}/{step.dst or 'off'}")
        await tg.wait_idle(quiet=0.2)
        fresh = current_board(tg, group)
        assert fresh.message_id != board.message_id
        assert pick  # the old board's buttons are gone with it
        messages = await run.app.store.get_game_messages(snap.row.game_id)
        assert any(m.message_id == fresh.message_id for m in messages)
        # /board re-sends on request as well.
        await type_and_wait(tg, group, mover, "/board")
        assert current_board(tg, group).message_id != fresh.message_id


async def test_lang_switches_the_group_texts(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False),
    ):
        group, alice, bob = await start_group_game(tg)
        await type_and_wait(tg, group, bob, "/lang en")
        assert "администратор" in (tg.last_bot_message(group).text or "")
        await type_and_wait(tg, group, alice, "/lang en")
        assert "English" in (tg.last_bot_message(group).text or "")
        await type_and_wait(tg, group, alice, "/board")
        assert "Long nardy" in (current_board(tg, group).caption or "")
        await type_and_wait(tg, group, alice, "/help")  # answered to Alice only (#12)
        assert "How to play" in (tg.last_bot_message_seen_by(group, alice).text or "")


async def test_blocked_bot_stops_private_game_and_tells_the_other(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        alice = tg.user(401, "Alice", language_code="en")
        boris = tg.user(402, "Борис")
        a_chat, b_chat = tg.private_chat(alice), tg.private_chat(boris)
        await tg.wait_idle()
        await type_and_wait(tg, a_chat, alice, "/new")
        menu = tg.last_bot_message(a_chat)
        await tap_and_wait(
            tg,
            a_chat,
            menu.message_id,
            alice,
            menu.button_by_label("👥 Friend · long")["callback_data"],
        )
        link = tg.last_bot_message(a_chat).text or ""
        token = link.split("start=", 1)[1].split()[0]
        mark = tg.mark()
        await tg.send_text(b_chat, boris, f"/start {token}")
        await tg.wait_for("sendPhoto", chat_id=b_chat, since=mark, timeout=30)
        await tg.wait_idle(quiet=0.2)
        snap = await active_match(run.app, a_chat.id, alice.id)
        mover_id = snap.user_ids[snap.game.seat_to_act]
        mover = alice if mover_id == alice.id else boris
        mover_chat = a_chat if mover is alice else b_chat
        other_chat = b_chat if mover is alice else a_chat
        tg.block_bot(other_chat)
        step = snap.game.legal_steps()[0]
        await type_and_wait(tg, mover_chat, mover, f"{step.src}/{step.dst or 'off'}")
        await tg.wait_idle(quiet=0.3)
        row = await run.app.store.get_game(snap.row.game_id)
        assert row.status == "abandoned"
        text = tg.last_bot_message(mover_chat).text or ""
        assert "⚠️" in text


async def test_restart_mid_game_in_a_new_process(tmp_path: Path) -> None:
    """Play a step, stop the bot, start `python -m bot` as a new process on the same database:
    the game goes on from the stored state and the next tap works."""
    db = tmp_path / "b.sqlite3"
    async with FakeTelegram(token=TOKEN) as tg:
        async with running_bot(tg, db, group_picker=False) as run:
            group, alice, bob = await start_group_game(tg)
            mover, _ = await mover_and_other(run, group, alice, bob)
            board = current_board(tg, group)
            pick = a_pick(board)
            await tap_and_wait(tg, group, board.message_id, mover, pick, check_button=False)
            board = current_board(tg, group)
            move = next(data for _, cb, data in game_buttons(board) if cb.a is Act.MOVE)
            await tap_and_wait(tg, group, board.message_id, mover, move)
            before = await active_match(run.app, group.id, alice.id)
            assert len(before.game.steps) == 1
        env = dict(
            os.environ,
            BOT_TOKEN=TOKEN,
            DATABASE_PATH=str(db),
            TELEGRAM_API_BASE=tg.base_url,
            LOG_LEVEL="WARNING",
        )
        proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, env=env)
        try:
            await tg.wait_for("getUpdates", since=0, timeout=60)
            board = current_board(tg, group)
            buttons = game_buttons(board)
            acts = {cb.a: data for _, cb, data in buttons}
            action = acts.get(Act.UNDO)
            assert action is not None, board.button_labels()
            mark = tg.mark()
            qid = await tg.tap(group, board.message_id, mover, action)
            await tg.wait_for(
                lambda c: c.method == "editMessageMedia" and c.ok,
                chat_id=group,
                since=mark,
                timeout=60,
            )
            assert tg.callback_answers[qid].text in (None, "")
        finally:
            proc.terminate()
            await asyncio.to_thread(proc.wait, 30)
        async with running_bot(tg, db, group_picker=False) as run:
            after = await active_match(run.app, group.id, alice.id)
            assert after.game.phase is Phase.MOVE and after.game.steps == ()
            assert after.row.version == before.row.version + 1


async def test_challenge_by_reply_invites_only_that_member(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        alice = tg.user(601, "Алиса")
        bob = tg.user(602, "Боб")
        carl = tg.user(603, "Карл")
        group = tg.group(-6001, "Клуб", admins=[alice])
        await tg.wait_idle()
        await type_and_wait(tg, group, alice, "/challenge")
        assert "ответом" in (tg.last_bot_message(group).text or "")
        hello = await tg.send_text(group, bob, "кто сыграет?")
        await tg.wait_idle(quiet=0.1)
        mark = tg.mark()
        await tg.send_text(group, alice, "/challenge short", reply_to_message_id=hello.message_id)
        await tg.wait_for("sendMessage", chat_id=group, since=mark, timeout=30)
        await tg.wait_idle(quiet=0.1)
        invite = tg.last_bot_message(group)
        assert "вызывает" in (invite.text or "")
        qid = await tap_and_wait(
            tg,
            group,
            invite.message_id,
            carl,
            invite.button_by_label("✅ Принять")["callback_data"],
            visible=False,
        )
        assert "другому игроку" in (tg.callback_answers[qid].text or "")
        mark = tg.mark()
        await tg.tap_button(group, bob, "✅ Принять", message_id=invite.message_id)
        await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
        await tg.wait_idle(quiet=0.1)
        snap = await active_match(run.app, group.id, bob.id)
        assert snap is not None and snap.match.variant_name == "short"
        assert set(snap.user_ids.values()) == {alice.id, bob.id}
        # The move log is complete from move one, forced opening plays included.
        played = [e for e in snap.game.history if e.kind in ("move", "pass")]
        logged = await run.app.store.get_moves(snap.row.game_id)
        assert [m.play for m in logged] == [e.notation for e in played]
        # A second game in the same chat is refused and points at the running one.
        await type_and_wait(tg, group, carl, "/new")
        refusal = tg.last_bot_message(group)
        assert "уже идёт игра" in (refusal.text or "")
        assert refusal.reply_to_message_id == current_board(tg, group).message_id


async def test_commands_registered_in_both_languages_and_forum_topics(tmp_path: Path) -> None:
    """setMyCommands in ru and en at start; a forum's topics each hold their own game."""
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        langs = {lang for (_, lang) in tg.commands}
        assert {"ru", "en"} <= langs
        ru = next(v for (_, lang), v in tg.commands.items() if lang == "ru")
        assert {"new", "move", "rules", "settings"} <= {c["command"] for c in ru}
        alice, bob = tg.user(701, "Алиса"), tg.user(702, "Боб")
        forum = tg.group(-1007001, "Форум", forum=True, admins=[alice])
        await tg.wait_idle()
        for topic in (11, 12):
            mark = tg.mark()
            await tg.send_text(forum, alice, "/new", message_thread_id=topic)
            await tg.wait_for("sendMessage", chat_id=forum, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            lobby = tg.last_bot_message(forum)
            assert lobby.message_thread_id == topic
            mark = tg.mark()
            await tg.tap_button(forum, bob, "✋ Присоединиться", message_id=lobby.message_id)
            await tg.wait_for("sendPhoto", chat_id=forum, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            assert current_board(tg, forum).message_thread_id == topic
        first = await run.app.store.get_active_game(forum.id, 11)
        second = await run.app.store.get_active_game(forum.id, 12)
        assert first is not None and second is not None and first.game_id != second.game_id
