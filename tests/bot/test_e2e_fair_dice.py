"""Dice anyone can verify, end to end on the fake Bot API server: the commitment shown before
the first die, a whole game, the Verify button, and the stand-alone verifier run on the
document the bot sent (docs/fairness.md)."""

from __future__ import annotations

import hashlib
import json
import logging
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.callbacks import Act
from bot.texts import t
from engine.fairness import short_commitment
from tests.bot.harness import (
    current_board,
    game_buttons,
    running_bot,
    tap_and_wait,
    type_and_wait,
)
from tests.bot.test_e2e_games import drive_game
from tests.fake_telegram import FakeTelegram, StoredMessage

REPO = Path(__file__).resolve().parents[2]


def copied_text(message: StoredMessage, lang: str) -> str:
    """The text the message's commitment copy button copies."""
    button = message.button_by_label(t(lang, "btn_copy_commitment"))
    assert button is not None and "copy_text" in button, message.button_labels()
    return button["copy_text"]["text"]


def verify_cli(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.fairness", "verify", str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


async def test_group_game_commits_then_verifies(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with FakeTelegram(token="123456789:AAHfakeTokenForTheNardyBotTests_x9") as tg:
        alice = tg.user(101, "Алиса", language_code="ru")
        bob = tg.user(102, "Bob", language_code="en")
        group = tg.group(-1001, "Нарды клуб", admins=[alice])
        async with running_bot(
            tg, tmp_path / "bot.sqlite3", seed=11, real_client_seeds=True
        ) as run:
            await tg.wait_idle()
            await type_and_wait(tg, group, alice, "/new long")
            lobby = tg.last_bot_message(group)
            full = copied_text(lobby, "ru")
            assert len(full) == 64 and short_commitment(full) in (lobby.text or "")
            mark = tg.mark()
            await tg.tap_button(group, bob, t("ru", "btn_join"))
            await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            first = current_board(tg, group)
            assert short_commitment(full) in (first.caption or "")
            assert copied_text(first, "ru") == full
            # both players' updates were mixed in before the first die
            seed_id = (await run.app.store.get_active_game(group.id)).dice_seed_id
            seed = await run.app.store.get_dice_seed(seed_id)
            assert [s.split(";")[0] for s in seed.client_seeds] == ["tg:user=101", "tg:user=102"]
            secret = (await run.app.store.get_dice_secret(seed_id)).hex()

            await drive_game(
                tg, run.app, {-1001: group}, {101: alice, 102: bob}, game_chat=-1001,
                rng=random.Random(4),
            )  # fmt: skip
            final = current_board(tg, group)
            # the secret never left storage while the game was on
            for call in tg.calls():
                assert secret not in json.dumps(call.params, ensure_ascii=False)
            assert secret not in caplog.text
            mark = tg.mark()
            await tg.tap_button(group, bob, t("ru", "btn_verify"), message_id=final.message_id)
            await tg.wait_for("sendDocument", chat_id=group, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            docs = [
                m
                for m in tg.messages[group.id].values()
                if m.from_bot and m.media_kind == "document"
            ]
            assert len(docs) == 1 and docs[0].file is not None
            verdict = [c for c in tg.calls("sendMessage", group) if c.seq > mark][-1]
            assert "Кубики честные" in verdict.params["text"]

        data = docs[0].file.data
        report = json.loads(data)
        assert hashlib.sha256(bytes.fromhex(report["server_seed"])).hexdigest() == full
        assert report["server_seed"] == secret
        assert len(report["played"]) >= 2 and report["played"][0]["kind"] == "lot"
        path = tmp_path / "report.json"
        path.write_bytes(data)
        done = verify_cli(path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.startswith("OK")
        # one die changed: the verifier refuses it
        report["rolls"][3]["value"] = report["rolls"][3]["value"] % 6 + 1
        path.write_text(json.dumps(report))
        assert verify_cli(path).returncode == 1


async def test_game_against_the_computer_verifies_after_resigning(tmp_path: Path) -> None:
    async with FakeTelegram(token="123456789:AAHfakeTokenForTheNardyBotTests_x9") as tg:
        eve = tg.user(201, "Eve", language_code="en")
        chat = tg.private_chat(eve)
        async with running_bot(tg, tmp_path / "bot.sqlite3", seed=2, real_client_seeds=True):
            await tg.wait_idle()
            await type_and_wait(tg, chat, eve, "/new")
            await tg.tap_button(chat, eve, t("en", "btn_ai_long"))
            await tg.wait_settled()  # the levels are offered by a handler that may outlast a lull
            mark = tg.mark()
            await tg.tap_button(chat, eve, t("en", "level_easy"))
            await tg.wait_for("sendPhoto", chat_id=chat, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            first = current_board(tg, chat)
            full = copied_text(first, "en")
            assert short_commitment(full) in (first.caption or "")
            await type_and_wait(tg, chat, eve, "/resign")
            confirm = tg.last_bot_message(chat)
            yes = next(data for _, cb, data in game_buttons(confirm) if cb.a is Act.RESIGN_YES)
            await tap_and_wait(tg, chat, confirm.message_id, eve, yes)
            final = current_board(tg, chat)
            mark = tg.mark()
            await tg.tap_button(chat, eve, t("en", "btn_verify"), message_id=final.message_id)
            await tg.wait_for("sendDocument", chat_id=chat, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            verdict = [c for c in tg.calls("sendMessage", chat) if c.seq > mark][-1]
            assert "The dice were fair" in verdict.params["text"]
            doc = [m for m in tg.messages[chat.id].values() if m.media_kind == "document"][-1]
        assert doc.file is not None
        report = json.loads(doc.file.data)
        assert report["client_seeds"][0].startswith("tg:user=201;")
        assert hashlib.sha256(bytes.fromhex(report["server_seed"])).hexdigest() == full
        path = tmp_path / "report.json"
        path.write_bytes(doc.file.data)
        done = verify_cli(path)
        assert done.returncode == 0, done.stdout + done.stderr
