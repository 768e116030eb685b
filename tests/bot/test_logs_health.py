"""Structured logs, the health endpoint and the settings that come with several workers."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.app import HEALTH_PATH, build, webhook_app
from bot.config import Settings, SettingsError, load_settings
from bot.logs import JsonFormatter
from tests.bot.harness import TOKEN
from tests.fake_telegram import FakeTelegram


def test_a_json_log_line_has_the_fields_a_collector_indexes() -> None:
    formatter = JsonFormatter(worker="w7")
    record = logging.LogRecord(
        "bot.app", logging.WARNING, __file__, 1, "game %s: %s", (5, "ü"), None
    )
    record.game_id = 5
    entry = json.loads(formatter.format(record))
    assert entry["level"] == "WARNING" and entry["logger"] == "bot.app"
    assert entry["message"] == "game 5: ü" and entry["worker"] == "w7"
    assert entry["game_id"] == 5
    assert entry["time"].endswith("+00:00")
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        failing = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    assert "ValueError: boom" in json.loads(formatter.format(failing))["exc"]


def test_redis_url_and_log_format_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    with pytest.raises(SettingsError) as bad:
        load_settings(REDIS_URL="localhost:6379", _env_file=None)
    assert "REDIS_URL" in str(bad.value) and "localhost" not in str(bad.value)
    settings = load_settings(REDIS_URL="redis://:pw@127.0.0.1:6379/0", LOG_FORMAT="JSON")
    assert settings.log_format == "json"
    assert "pw" not in repr(settings)
    assert load_settings(REDIS_URL="", _env_file=None).redis_url is None
    assert load_settings(_env_file=None).sole_writer
    assert not load_settings(DATABASE_URL="postgresql://u@h/db", _env_file=None).sole_writer


async def test_health_says_ok_and_names_what_it_checked(tmp_path: Path, redis_url: str) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        settings = Settings(  # type: ignore[call-arg]
            BOT_TOKEN=TOKEN,
            DATABASE_PATH=str(tmp_path / "h.sqlite3"),
            TELEGRAM_API_BASE=tg.base_url,
            WEBHOOK_URL="https://bot.example.org",
            WEBHOOK_SECRET="s3cret_token",
            REDIS_URL=redis_url,
            RENDER_PROCESSES=0,
        )
        app = await build(settings, rng=random.Random(1))
        try:
            async with TestClient(TestServer(webhook_app(app))) as client:
                ok = await client.get(HEALTH_PATH)
                assert ok.status == 200
                report = await ok.json()
                assert report["status"] == "ok"
                assert report["database"] == "ok" and report["redis"] == "ok"
                app.stopping = True
                stopping = await client.get(HEALTH_PATH)
                assert stopping.status == 503
                assert (await stopping.json())["status"] == "stopping"
                app.stopping = False
                await app.store.close()  # the database gone
                down = await client.get(HEALTH_PATH)
                assert down.status == 503
                assert (await down.json())["database"].startswith("error")
        finally:
            await app.close()
