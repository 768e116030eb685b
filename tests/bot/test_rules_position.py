"""Questions about the position on the table, end to end: the real bot polling the fake Bot
API server, two players in a group asking during a game.

The player to move gets the engine's answer on the game's own position and dice (the rule's
ID, a picture of the board, the rule's topic one tap away); the other player, whose dice
these are not, is told when that works and gets the rule's topic instead. The expected rule
comes from the engine itself (``teacher.position``), as a player who knows the rules would
check it; the test asserts the wiring, not the wording.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from bot.callbacks import RulesCB
from bot.texts import t
from engine import Phase
from teacher.position import explain, parse_intent
from tests.bot.harness import TOKEN, active_match, running_bot, type_and_wait
from tests.fake_telegram import FakeTelegram, StoredMessage

TRANSCRIPTS = Path(os.environ.get("NARDY_TRANSCRIPTS", tempfile.gettempdir()))

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


def topic_buttons(message: StoredMessage) -> list[str]:
    return [
        RulesCB.unpack(button["callback_data"]).key
        for row in message.buttons()
        for button in row
        if button.get("callback_data", "").startswith("k:")
    ]


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_group_asks_about_the_position_during_a_game(tmp_path: Path, lang: str) -> None:
    ru = lang == "ru"
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(731, "Алиса" if ru else "Alice", language_code=lang)
        bob = tg.user(732, "Боб" if ru else "Bob", language_code=lang)
        group = tg.group(-7301 if ru else -7302, "Клуб" if ru else "Club", admins=[alice])
        async with running_bot(tg, tmp_path / "bot.sqlite3", seed=11) as run:
            await tg.wait_idle()
            if not ru:
                await type_and_wait(tg, group, alice, "/lang en")
            await type_and_wait(tg, group, alice, "/new long")
            mark = tg.mark()
            await tg.tap_button(group, bob, "✋ Присоединиться" if ru else "✋ Join")
            await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            snap = await active_match(run.app, group.id, alice.id)
            assert snap is not None and snap.game.phase is Phase.MOVE
            mover_id = snap.user_ids[snap.game.seat_to_act]
            mover, other = (alice, bob) if mover_id == alice.id else (bob, alice)
            turn = snap.game.turn

            # The player to move asks about a move: the engine's rule, over the board.
            question = "почему нельзя 13/7?" if ru else "why can't I play 13/7?"
            expected = explain(turn, parse_intent(question))  # type: ignore[arg-type]
            await type_and_wait(tg, group, mover, f"/rules {question}")
            answer = tg.last_bot_message_seen_by(group, mover)  # the asker's only (#12)
            assert answer.is_ephemeral
            assert answer.photo is not None
            caption = answer.caption or ""
            assert expected.rule_id is not None and f"({expected.rule_id})" in caption
            assert "13/7" in caption
            assert topic_buttons(answer)[0] != "new"  # the rule's topic comes first
            (tmp_path / "position_answer.jpg").write_bytes(answer.photo)

            # Bearing off at the start of a long game: nobody is home (C-24).
            await type_and_wait(
                tg, group, mover, "/why выбросить" if ru else "/why can I bear off?"
            )
            answer = tg.last_bot_message_seen_by(group, mover)
            assert "(C-24)" in (answer.caption or ""), answer.caption
            assert "bearoff_when" in topic_buttons(answer)

            # A legal step: "where can I go from 24" lists the engine's steps from the head.
            await type_and_wait(
                tg, group, mover, "/why куда можно с 24?" if ru else "/why where can I go from 24"
            )
            answer = tg.last_bot_message_seen_by(group, mover)
            steps = {f"24/{s.dst}" for s in turn.legal_steps() if s.src == 24}
            assert steps and any(step in (answer.caption or "") for step in steps)

            # The other player's question is not about their dice: say when, offer the menu.
            before = len(tg.ephemeral_messages(group, other))
            await type_and_wait(tg, group, other, "/why 13/7")
            await tg.wait_idle(quiet=0.2)
            texts = [m.text or m.caption or "" for m in tg.ephemeral_messages(group, other)]
            assert texts[before:] == [t(lang, "why_no_turn")]
            reply = tg.last_bot_message_seen_by(group, other)
            assert reply.button_labels()[0][0] == t(lang, "rules_btn_long")

            # /why with nothing after it explains itself; nothing was played meanwhile.
            await type_and_wait(tg, group, other, "/why")
            assert tg.last_bot_message_seen_by(group, other).text == t(lang, "why_usage").replace(
                "<code>", ""
            ).replace("</code>", "")
            after = await active_match(run.app, group.id, alice.id)
            assert after is not None and after.version == snap.version
        TRANSCRIPTS.mkdir(exist_ok=True)
        tg.save_transcript(TRANSCRIPTS / f"rules_position_group_{lang}.txt", group)
