"""Move clocks end to end: the real bot polling the fake Bot API server, its clock scheduler
running on a fake clock the tests advance (nobody sleeps). A group whose player vanished gets
its chat back by the rules (reminder, timeout, claim); a restart neither repeats a reminder nor
loses a timeout; an admin ends a game; two players abandon one by agreement; a private game's
notices reach each player in their own language. Transcripts: NARDY_TRANSCRIPTS=<dir>."""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

from bot.texts import t
from gameplay import Snapshot
from storage import EndReason, GameStatus
from tests.bot.harness import (
    TOKEN,
    Running,
    active_match,
    current_board,
    running_bot,
    settle,
    tap_and_wait,
    type_and_wait,
    until,
)
from tests.fake_telegram import FakeChat, FakeTelegram, FakeUser, StoredMessage
from tests.fake_time import FakeTime

TRANSCRIPTS = Path(os.environ.get("NARDY_TRANSCRIPTS", tempfile.gettempdir()))
GROUP_ID = -1007


def answer_text(tg: FakeTelegram, query_id: str) -> str | None:
    answer = tg.callback_answers.get(query_id)
    return None if answer is None else answer.text


def bot_texts(tg: FakeTelegram, chat: FakeChat, since_id: int = 0) -> list[StoredMessage]:
    """The bot's text messages in the chat after message ``since_id`` (deleted ones too)."""
    return [
        m
        for m in tg.messages[chat.id].values()
        if m.from_bot and m.text is not None and m.message_id > since_id
    ]


async def tap_label(
    tg: FakeTelegram, chat: FakeChat, user: FakeUser, label: str, message: StoredMessage
) -> str:
    button = message.button_by_label(label)
    assert button is not None, (label, message.buttons())
    mark = tg.mark()
    qid = await tg.tap(chat, message.message_id, user, button["callback_data"])
    await tg.wait_for(
        lambda c: c.method == "answerCallbackQuery" and c.params.get("callback_query_id") == qid,
        since=mark,
        timeout=30,
    )
    await settle(tg)
    return qid


async def group_game(
    tg: FakeTelegram,
    run: Running,
    group: FakeChat,
    alice: FakeUser,
    bob: FakeUser,
    lobby_says: str = "",
) -> Snapshot:
    """Alice opens a lobby (it says ``lobby_says``), Bob joins."""
    await type_and_wait(tg, group, alice, "/new")
    lobby = tg.last_bot_message(group)
    assert lobby_says in (lobby.text or ""), lobby.text
    mark = tg.mark()
    await tg.tap_button(group, bob, t("ru", "btn_join"), message_id=lobby.message_id)
    await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
    await settle(tg)
    snap = await active_match(run.app, GROUP_ID, alice.id)
    assert snap is not None
    return snap


def people(snap: Snapshot, users: dict[int, FakeUser]) -> tuple[FakeUser, FakeUser]:
    """(the player on the clock, the one waiting for them)."""
    seat = snap.game.seat_to_act
    assert seat is not None
    late = snap.user_ids[seat]
    waiting = snap.user_ids[1 - seat]
    assert late is not None and waiting is not None
    return users[late], users[waiting]


async def set_group_clock(tg: FakeTelegram, group: FakeChat, admin: FakeUser, label: str) -> None:
    """Tap the /settings clock button until it reads ``label``."""
    await type_and_wait(tg, group, admin, "/settings")
    screen = tg.last_bot_message(group)
    for _ in range(len(label) + 5):
        button = next(b for row in screen.buttons() for b in row if b["text"].startswith("⏱"))
        if button["text"] == t("ru", "set_btn_clock", clock=label):
            return
        await tap_label(tg, group, admin, button["text"], screen)
        screen = tg.messages[group.id][screen.message_id]
    raise AssertionError("the clock button never showed " + label)


async def test_a_vanished_player_loses_the_chat_by_the_clock(tmp_path: Path) -> None:
    """Group, Russian: 5 minutes a move. Half time: one reminder mentioning the mover. Time
    up: the board says so and offers Claim; the waiting player gets Claim / Keep waiting. The
    mover and a spectator cannot claim; the waiting player can, once: a resignation (M-19),
    rated; the chat is free again."""
    time = FakeTime()
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(701, "Алиса", language_code="ru")
        bob = tg.user(702, "Bob", language_code="en")
        vika = tg.user(703, "Вика", language_code="ru")
        group = tg.group(GROUP_ID, "Нарды по часам", admins=[vika])
        users = {u.id: u for u in (alice, bob)}
        async with running_bot(tg, tmp_path / "clocks.sqlite3", time=time) as run:
            await tg.wait_idle()
            await set_group_clock(tg, group, vika, t("ru", "clock_5m"))
            snap = await group_game(tg, run, group, alice, bob, "⏱ На ход: 5 мин")
            late, waiting = people(snap, users)
            assert "⏳ На ход осталось 5 мин" in (current_board(tg, group).caption or "")

            before = max(tg.messages[group.id])
            await time.advance(minutes=2, seconds=31)
            await settle(tg)

            def reminders_sent() -> list[StoredMessage]:
                return [m for m in bot_texts(tg, group, before) if "⏰" in (m.text or "")]

            # under load the clock's reminder can come later than the quiet period
            await until(tg, group.id, lambda: bool(reminders_sent()))
            await settle(tg)
            reminders = reminders_sent()
            assert len(reminders) == 1
            assert reminders[0].text == f"⏰ {late.first_name}, на ход осталось 2 мин."
            await time.advance(minutes=1)
            await settle(tg)
            assert len([m for m in bot_texts(tg, group, before) if "⏰" in (m.text or "")]) == 1

            await time.advance(minutes=1, seconds=30)
            await settle(tg)
            board = current_board(tg, group)
            assert "⌛ Время хода вышло" in (board.caption or "")
            assert board.button_by_label(t("ru", "btn_claim")) is not None
            offer = tg.last_bot_message(group)
            assert offer.text is not None and offer.text.startswith(
                f"⌛ {late.first_name}: время на ход вышло. {waiting.first_name}, можно забрать"
            )
            assert "сдача соперника (M-19)" in offer.text

            qid = await tap_label(tg, group, late, t("ru", "btn_claim"), offer)
            assert answer_text(tg, qid) == t("ru", "claim_own_clock")
            qid = await tap_label(tg, group, vika, t("ru", "btn_claim"), offer)
            assert answer_text(tg, qid) == t("ru", "not_a_player")
            qid = await tap_label(tg, group, waiting, t("ru", "btn_wait"), offer)
            assert answer_text(tg, qid) == t("ru", "wait_ok")
            assert tg.messages[group.id][offer.message_id].deleted

            board = current_board(tg, group)
            claim = board.button_by_label(t("ru", "btn_claim"))
            assert claim is not None
            mark = tg.mark()
            qid = await tg.tap(group, board.message_id, waiting, claim["callback_data"])
            await tg.wait_for("editMessageMedia", chat_id=group, since=mark, timeout=30)
            await settle(tg)
            assert answer_text(tg, qid) == t("ru", "claim_done")
            caption = current_board(tg, group).caption or ""
            assert f"⌛ {late.first_name}: время хода вышло, партию забрал соперник" in caption
            assert f"🏆 {waiting.first_name} побеждает" in caption
            # The same button again (a double tap): the game is over, nothing changes.
            qid = await tg.tap(
                group, board.message_id, waiting, claim["callback_data"], check_button=False
            )
            await settle(tg)
            assert answer_text(tg, qid) in (t("ru", "game_over_already"), t("ru", "outdated"))

            store = run.app.store
            row = await store.get_game(snap.game_id)
            assert row.status is GameStatus.FINISHED and row.end_reason is EndReason.TIMEOUT
            assert (await store.get_rating(waiting.id, "long")).games == 1
            assert await store.get_active_game(GROUP_ID) is None
        tg.save_transcript(TRANSCRIPTS / "clock_timeout_group_ru.txt", group)


async def test_a_restart_neither_repeats_a_reminder_nor_loses_a_timeout(tmp_path: Path) -> None:
    time = FakeTime()
    db = tmp_path / "restart.sqlite3"
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(711, "Алиса", language_code="ru")
        bob = tg.user(712, "Bob", language_code="en")
        group = tg.group(GROUP_ID, "Нарды", admins=[alice])
        async with running_bot(tg, db, time=time) as run:
            await tg.wait_idle()
            await set_group_clock(tg, group, alice, t("ru", "clock_1h"))
            await group_game(tg, run, group, alice, bob)
            await time.advance(minutes=31)
            await settle(tg)
        reminders = [m for m in bot_texts(tg, group) if (m.text or "").startswith("⏰")]
        assert len(reminders) == 1 and "на ход осталось 29 мин" in (reminders[0].text or "")
        async with running_bot(tg, db, time=time):  # restarted before the deadline
            await time.settled()
            await settle(tg)
        assert len([m for m in bot_texts(tg, group) if (m.text or "").startswith("⏰")]) == 1
        time.moment += timedelta(hours=2)  # the bot is down meanwhile
        async with running_bot(tg, db, time=time):
            await time.settled()
            await settle(tg)
            offers = [m for m in bot_texts(tg, group) if (m.text or "").startswith("⌛")]
            assert len(offers) == 1
            await time.advance(minutes=30)
            await settle(tg)
        async with running_bot(tg, db, time=time):
            await time.settled()
            await settle(tg)
        assert len([m for m in bot_texts(tg, group) if (m.text or "").startswith("⌛")]) == 1
        assert len([m for m in bot_texts(tg, group) if (m.text or "").startswith("⏰")]) == 1


async def test_an_admin_ends_a_game_and_players_abandon_one_by_agreement(tmp_path: Path) -> None:
    """Group, English: a member who is neither a player nor an admin is refused; the admin
    confirms and the game ends "ended by an admin" without a rating change; in the next game
    one player offers to abandon and the other agrees."""
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(721, "Alice", language_code="en")
        bob = tg.user(722, "Bob", language_code="en")
        admin = tg.user(723, "Dana", language_code="en")
        someone = tg.user(724, "Eve", language_code="en")
        group = tg.group(GROUP_ID, "Backgammon club", admins=[admin])
        async with running_bot(tg, tmp_path / "end.sqlite3", time=FakeTime()) as run:
            await tg.wait_idle()
            await type_and_wait(tg, group, admin, "/lang en")
            await type_and_wait(tg, group, alice, "/new")
            mark = tg.mark()
            await tg.tap_button(group, bob, t("en", "btn_join"))
            await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
            await settle(tg)
            assert "⏳ 24 h left for this move" in (current_board(tg, group).caption or "")

            await type_and_wait(tg, group, someone, "/abandon")
            assert tg.last_bot_message(group).text == t("en", "not_admin")
            await type_and_wait(tg, group, admin, "/abandon")
            confirm = tg.last_bot_message(group)
            assert (confirm.text or "").startswith("End the game ")
            qid = await tap_label(tg, group, someone, t("en", "btn_admin_end"), confirm)
            assert answer_text(tg, qid) == t("en", "not_admin")
            qid = await tap_label(tg, group, admin, t("en", "btn_admin_end"), confirm)
            assert answer_text(tg, qid) == t("en", "admin_ended")
            # The tap is answered before the board is edited: wait for the edit itself.
            ended_caption = t("en", "cap_end_admin")
            await until(
                tg, group.id, lambda: ended_caption in (current_board(tg, group).caption or "")
            )
            board = current_board(tg, group)
            assert [b["text"] for row in board.buttons() for b in row] == [
                t("en", "btn_position_id")
            ]
            assert (await run.app.store.get_rating(alice.id, "long")).games == 0
            (ended,) = await run.app.store.list_user_games(alice.id)
            assert ended.end_reason is EndReason.ADMIN

            await type_and_wait(tg, group, alice, "/new")
            mark = tg.mark()
            await tg.tap_button(group, bob, t("en", "btn_join"))
            await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
            await settle(tg)
            await type_and_wait(tg, group, alice, "/abandon")
            offer = tg.last_bot_message(group)
            assert offer.text == (
                "🤝 Alice offers to abandon the game without a result (ratings unchanged). "
                "Bob, do you agree?"
            )
            qid = await tap_label(tg, group, alice, t("en", "btn_abandon_accept"), offer)
            assert answer_text(tg, qid) == t("en", "own_offer")
            qid = await tap_label(tg, group, bob, t("en", "btn_abandon_accept"), offer)
            assert answer_text(tg, qid) == t("en", "abandon_accepted")
            agreed = t("en", "cap_end_agreement")
            await until(tg, group.id, lambda: agreed in (current_board(tg, group).caption or ""))
            assert await run.app.store.get_active_game(GROUP_ID) is None
        tg.save_transcript(TRANSCRIPTS / "clock_admin_agreement_group_en.txt", group)


async def test_a_private_games_notices_reach_each_player_in_their_language(
    tmp_path: Path,
) -> None:
    """By link, 72 hours a move (the default for invitations): each board counts down in its
    reader's language; the reminder goes to the mover's chat, the timeout offer to the waiting
    player's, and the claim shows on both boards."""
    time = FakeTime()
    async with FakeTelegram(token=TOKEN) as tg:
        boris = tg.user(731, "Борис", language_code="ru")
        jane = tg.user(732, "Jane", language_code="en")
        chats = {boris.id: tg.private_chat(boris), jane.id: tg.private_chat(jane)}
        users = {boris.id: boris, jane.id: jane}
        async with running_bot(tg, tmp_path / "private.sqlite3", time=time) as run:
            await tg.wait_idle()
            await type_and_wait(tg, chats[boris.id], boris, "/new")
            menu = tg.last_bot_message(chats[boris.id])
            friend = menu.button_by_label(t("ru", "btn_invite_long"))
            assert friend is not None
            await tap_and_wait(tg, chats[boris.id], menu.message_id, boris, friend["callback_data"])
            invite = tg.last_bot_message(chats[boris.id]).text or ""
            assert "⏱ На ход: 72 ч" in invite
            link = next(w for w in invite.split() if "start=" in w)
            mark = tg.mark()
            await tg.send_text(chats[jane.id], jane, f"/start {link.split('start=', 1)[1]}")
            await tg.wait_for("sendPhoto", chat_id=chats[jane.id], since=mark, timeout=30)
            await settle(tg)
            assert "⏳ На ход осталось 3 дн." in (current_board(tg, chats[boris.id]).caption or "")
            assert "⏳ 3 d left for this move" in (current_board(tg, chats[jane.id]).caption or "")
            snap = await active_match(run.app, boris.id, boris.id)
            assert snap is not None
            late, waiting = people(snap, users)
            late_lang, wait_lang = late.language_code or "ru", waiting.language_code or "ru"

            await time.advance(hours=36, seconds=1)
            await settle(tg)
            reminder = tg.last_bot_message(chats[late.id])
            opponent = waiting.first_name
            assert reminder.text == t(
                late_lang, "remind_private", opponent=opponent, left=t(late_lang, "unit_h", n=35)
            )
            assert not any("⏰" in (m.text or "") for m in bot_texts(tg, chats[waiting.id]))

            await time.advance(hours=36)
            await settle(tg)
            offer = tg.last_bot_message(chats[waiting.id])
            assert offer.button_by_label(t(wait_lang, "btn_claim")) is not None
            assert (offer.text or "").startswith("⌛")
            assert (
                current_board(tg, chats[late.id]).button_by_label(t(late_lang, "btn_claim")) is None
            )  # the late player's own board offers no claim
            mark = tg.mark()
            await tap_label(tg, chats[waiting.id], waiting, t(wait_lang, "btn_claim"), offer)
            await tg.wait_for("editMessageMedia", chat_id=chats[late.id], since=mark, timeout=30)
            await settle(tg)
            for uid, chat in chats.items():
                caption = current_board(tg, chat).caption or ""
                assert "🏆" in caption and "M-19" in caption, (uid, caption)
        for uid, chat in chats.items():
            lang = users[uid].language_code
            tg.save_transcript(TRANSCRIPTS / f"clock_private_{lang}.txt", chat)


async def test_a_game_nobody_plays_is_closed_as_abandoned(tmp_path: Path) -> None:
    """Nobody claims after the timeout and nobody moves: at the abandonment time the game is
    closed without a result or rating change, the Claim notice goes, the chat is free."""
    time = FakeTime()
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(741, "Алиса", language_code="ru")
        bob = tg.user(742, "Bob", language_code="en")
        group = tg.group(GROUP_ID, "Нарды", admins=[alice])
        async with running_bot(tg, tmp_path / "idle.sqlite3", time=time) as run:
            await tg.wait_idle()
            run.app.games.abandon_after = timedelta(days=2)  # ABANDON_AFTER_DAYS=2
            snap = await group_game(tg, run, group, alice, bob, "⏱ На ход: 24 ч")
            await time.advance(hours=24, seconds=1)
            await settle(tg)
            offer = tg.last_bot_message(group)
            assert offer.button_by_label(t("ru", "btn_claim")) is not None
            await time.advance(hours=24)
            await settle(tg)
            board = current_board(tg, group)
            assert t("ru", "cap_end_inactive") in (board.caption or "")
            assert [b["text"] for row in board.buttons() for b in row] == [
                t("ru", "btn_position_id")
            ]
            assert tg.messages[group.id][offer.message_id].deleted
            row = await run.app.store.get_game(snap.game_id)
            assert row.status is GameStatus.ABANDONED and row.end_reason is EndReason.INACTIVE
            assert (await run.app.store.get_rating(alice.id, "long")).games == 0
            assert await run.app.store.get_active_game(GROUP_ID) is None
        tg.save_transcript(TRANSCRIPTS / "clock_abandoned_group_ru.txt", group)
