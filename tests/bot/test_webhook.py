"""Webhook mode: Telegram POSTs updates to the bot's aiohttp server with a secret header."""

from __future__ import annotations

import random
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from bot.app import build, webhook_app
from bot.config import Settings
from tests.bot.harness import TOKEN
from tests.fake_telegram import FakeTelegram


async def test_webhook_accepts_updates_with_the_secret_only(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        settings = Settings(  # type: ignore[call-arg]
            BOT_TOKEN=TOKEN,
            DATABASE_PATH=str(tmp_path / "w.sqlite3"),
            TELEGRAM_API_BASE=tg.base_url,
            WEBHOOK_URL="https://bot.example.org",
            WEBHOOK_SECRET="s3cret_token",
        )
        app = await build(settings, rng=random.Random(1))
        try:
            async with TestClient(TestServer(webhook_app(app))) as client:
                alice = tg.user(801, "Alice", language_code="en")
                chat = tg.private_chat(alice)
                update = {
                    "update_id": 1,
                    "message": {
                        "message_id": 1,
                        "date": 0,
                        "chat": {"id": chat.id, "type": "private"},
                        "from": {
                            "id": alice.id,
                            "is_bot": False,
                            "first_name": "Alice",
                            "language_code": "en",
                        },
                        "text": "/help",
                        "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
                    },
                }
                path = settings.webhook_path
                refused = await client.post(path, json=update)
                assert refused.status == 401
                mark = tg.mark()
                ok = await client.post(
                    path,
                    json=update,
                    headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret_token"},
                )
                assert ok.status == 200
                call = await tg.wait_for("sendMessage", chat_id=chat, since=mark, timeout=10)
                assert "How to play" in call.params["text"]
        finally:
            await app.close()
