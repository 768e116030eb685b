"""Settings and text catalogs: clear errors, no secret in them, both languages complete."""

from __future__ import annotations

import os
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import SettingsError, load_settings
from bot.texts import CATALOGS, normalise_lang, t

GOOD = "123456789:AAHfakeTokenForTheNardyBotTests_x9"
ROOT = Path(__file__).resolve().parents[2]


def test_missing_token_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOT_TOKEN", raising=False)
    monkeypatch.chdir("/")
    with pytest.raises(SettingsError, match="BOT_TOKEN is required"):
        load_settings()


def test_empty_token_says_so_where_env_is_and_how_to_get_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The README's first run: .env copied from .env.example, BOT_TOKEN= still empty."""
    monkeypatch.delenv("BOT_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("BOT_TOKEN=\nDATABASE_PATH=x.sqlite3\n", encoding="utf-8")
    with pytest.raises(SettingsError) as info:
        load_settings()
    message = str(info.value)
    assert message.startswith("BOT_TOKEN is empty")
    assert "does not look like" not in message
    assert f"set it in {tmp_path.resolve() / '.env'}" in message
    assert "@BotFather" in message and "/newbot" in message
    assert "\n" not in message  # one line

    # Empty in the environment: the environment is named, since it overrides the file.
    monkeypatch.setenv("BOT_TOKEN", "  ")
    with pytest.raises(SettingsError, match="BOT_TOKEN is empty: it comes from the environment"):
        load_settings()


def test_python_m_bot_with_an_empty_token_exits_with_the_message(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "BOT_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    (tmp_path / ".env").write_text("BOT_TOKEN=\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("nardy bot: configuration error: BOT_TOKEN is empty: set it in")
    assert str(tmp_path.resolve() / ".env") in done.stderr


def test_malformed_token_is_refused_without_echoing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "not-a-token-but-a-secret-value"
    monkeypatch.setenv("BOT_TOKEN", secret)
    with pytest.raises(SettingsError) as info:
        load_settings()
    assert "BotFather" in str(info.value)
    assert secret not in str(info.value)


def test_settings_defaults_and_secret_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_TOKEN", GOOD)
    for name in ("DATABASE_PATH", "DATABASE_URL", "TELEGRAM_API_BASE", "WEBHOOK_URL", "LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings()
    assert settings.database_path == "nardy.sqlite3" == settings.database
    assert settings.telegram_api_base is None and not settings.use_webhook
    assert GOOD not in repr(settings) and GOOD not in str(settings.model_dump())


def test_database_url_selects_postgresql_and_keeps_its_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BOT_TOKEN", GOOD)
    url = "postgresql://nardy:hunter2-secret@db.internal:5432/nardy"
    monkeypatch.setenv("DATABASE_URL", url)
    settings = load_settings()
    assert settings.database == url
    assert "hunter2-secret" not in repr(settings) and "hunter2-secret" not in str(
        settings.model_dump()
    )
    monkeypatch.setenv("DATABASE_URL", "  ")
    assert load_settings().database == "nardy.sqlite3"  # blank: SQLite
    monkeypatch.setenv("DATABASE_URL", "mysql://root@localhost/nardy")
    with pytest.raises(SettingsError, match="DATABASE_URL") as info:
        load_settings()
    assert "root@localhost" not in str(info.value)


def test_webhook_needs_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_TOKEN", GOOD)
    monkeypatch.setenv("WEBHOOK_URL", "https://example.org")
    monkeypatch.delenv("WEBHOOK_SECRET", raising=False)
    with pytest.raises(SettingsError, match="WEBHOOK_SECRET"):
        load_settings()


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    ru, en = CATALOGS["ru"], CATALOGS["en"]
    assert set(ru) == set(en), set(ru) ^ set(en)
    for key in ru:
        assert _fields(ru[key]) == _fields(en[key]), key


def test_english_texts_have_no_cyrillic_and_russian_ones_do() -> None:
    cyrillic = re.compile("[а-яА-ЯёЁ]")
    for key, text in CATALOGS["en"].items():
        assert not cyrillic.search(text), key
    worded = [k for k, v in CATALOGS["ru"].items() if re.search("[A-Za-zА-Яа-я]{4}", v)]
    assert sum(bool(cyrillic.search(CATALOGS["ru"][k])) for k in worded) > 0.9 * len(worded)


@pytest.mark.parametrize(
    ("code", "lang"),
    [(None, "ru"), ("ru", "ru"), ("uk", "ru"), ("en-GB", "en"), ("de", "en"), ("EN", "en")],
)
def test_language_of_a_telegram_user(code: str | None, lang: str) -> None:
    assert normalise_lang(code) == lang


def test_unknown_language_falls_back_to_russian() -> None:
    assert t("xx", "not_your_turn") == CATALOGS["ru"]["not_your_turn"]
