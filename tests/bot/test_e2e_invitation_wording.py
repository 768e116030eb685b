"""An accepted invitation, read as the inviter: the board arrives first, and the message after
it points up to it and names the friend without a grammatical gender (#18 items 14, 15).
Real bot, real SQLite, fake Telegram over HTTP."""

from __future__ import annotations

from pathlib import Path

from bot.texts import t
from tests.bot.harness import TOKEN, current_board, running_bot, tap_and_wait, type_and_wait
from tests.fake_telegram import FakeTelegram


async def test_the_accepted_invitation_points_to_the_board_above_it(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg, running_bot(tg, tmp_path / "b.sqlite3"):
        boris = tg.user(601, "Борис")
        grace = tg.user(602, "Grace", language_code="en")
        b_chat, g_chat = tg.private_chat(boris), tg.private_chat(grace)
        await type_and_wait(tg, b_chat, boris, "/new")
        menu = tg.last_bot_message(b_chat)
        friend = menu.button_by_label(t("ru", "btn_invite_long"))["callback_data"]
        await tap_and_wait(tg, b_chat, menu.message_id, boris, friend)
        link = next(w for w in (tg.last_bot_message(b_chat).text or "").split() if "start=" in w)

        mark = tg.mark()
        await tg.send_text(g_chat, grace, f"/start {link.split('start=', 1)[1]}")
        wanted = t("ru", "invite_accepted_inviter", name="Grace")
        await tg.wait_for(
            lambda c: c.method == "sendMessage" and c.params.get("text") == wanted,
            chat_id=b_chat,
            since=mark,
            timeout=30,
        )
        await tg.wait_idle(quiet=0.1)
        board = current_board(tg, b_chat)
        notice = tg.last_bot_message(b_chat)
        assert notice.text == wanted
        assert "выше" in wanted and "ниже" not in wanted  # the catalog says "above" …
        assert board.message_id < notice.message_id  # "above" is where the board is
