"""Settings from the environment or ``.env`` (documented in ``.env.example``).

Nothing is built at import time; the token is a secret value that never reaches a log line.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

TOKEN_RE = re.compile(r"^\d{3,15}:[A-Za-z0-9_-]{30,64}$")

#: How to get a token, in one line (said whenever the token is missing or wrong).
BOTFATHER_STEPS = (
    "get one in Telegram: open @BotFather, send /newbot, choose a name and a username ending "
    "in 'bot', and copy the token it replies with"
)


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says which and how to fix it."""


class Settings(BaseSettings):
    """Everything the bot reads from its environment."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr = Field(..., alias="BOT_TOKEN")
    database_path: str = Field("nardy.sqlite3", alias="DATABASE_PATH")
    database_url: SecretStr | None = Field(None, alias="DATABASE_URL")
    telegram_api_base: str | None = Field(None, alias="TELEGRAM_API_BASE")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field("INFO", alias="LOG_LEVEL")
    log_format: Literal["text", "json"] = Field("text", alias="LOG_FORMAT")
    redis_url: SecretStr | None = Field(None, alias="REDIS_URL")
    shutdown_timeout: float = Field(30.0, alias="SHUTDOWN_TIMEOUT", ge=0, le=600)
    webhook_url: str | None = Field(None, alias="WEBHOOK_URL")
    webhook_secret: SecretStr | None = Field(None, alias="WEBHOOK_SECRET")
    webhook_host: str = Field("0.0.0.0", alias="WEBHOOK_HOST")
    webhook_port: int = Field(8080, alias="WEBHOOK_PORT")
    webhook_path: str = Field("/telegram/webhook", alias="WEBHOOK_PATH")
    invitation_ttl_hours: int = Field(24, alias="INVITATION_TTL_HOURS", ge=1, le=24 * 30)
    render_processes: int = Field(1, alias="RENDER_PROCESSES", ge=0, le=8)
    # Groups play through private pickers (ephemeral messages, Bot API 10.3); off for a Bot
    # API server without them: the buttons are then on the shared board, as before.
    group_picker: bool = Field(True, alias="GROUP_PICKER")
    # Where board pictures for inline-mode games are uploaded (Telegram takes no upload into
    # an inline message): a private channel or group the bot may post in. Empty: a player's
    # private chat with the bot (the upload is deleted there at once).
    media_chat_id: int | None = Field(None, alias="MEDIA_CHAT_ID")
    #: A game nobody acts in for this many days is closed as abandoned (no rating change).
    abandon_after_days: int = Field(30, alias="ABANDON_AFTER_DAYS", ge=1, le=3650)

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator(
        "telegram_api_base",
        "webhook_url",
        "database_url",
        "redis_url",
        "media_chat_id",
        mode="before",
    )
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        token = value.get_secret_value().strip()
        if not token:
            raise ValueError("is empty")
        if not TOKEN_RE.match(token):
            raise ValueError("does not look like a token from @BotFather (digits:letters)")
        return SecretStr(token)

    @model_validator(mode="after")
    def _webhook_pair(self) -> Settings:
        if self.webhook_url and not self.webhook_secret:
            raise ValueError(
                "WEBHOOK_URL is set: also set WEBHOOK_SECRET (1-256 of A-Z a-z 0-9 _ -)"
            )
        return self

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(
            ("postgresql://", "postgres://")
        ):
            raise ValueError("DATABASE_URL must be a postgresql://user:password@host/db URL")
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(
            ("redis://", "rediss://", "unix://")
        ):
            raise ValueError("REDIS_URL must be a redis://[:password@]host:port/db URL")
        return value

    @property
    def use_webhook(self) -> bool:
        return bool(self.webhook_url)

    @property
    def database(self) -> str:
        """Where the store lives: ``DATABASE_URL`` (PostgreSQL) if set, else ``DATABASE_PATH``."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return self.database_path

    @property
    def sole_writer(self) -> bool:
        """Whether this process is the only one writing the database: SQLite is for one bot
        process; several workers may share a PostgreSQL database, so with one every cache of
        stored state is checked against the database (or not kept) instead of trusted."""
        return self.database_url is None


def env_file() -> Path:
    """The absolute path of the ``.env`` file the settings are read from (the working
    directory's), whether or not it exists."""
    return Path(str(Settings.model_config.get("env_file") or ".env")).resolve()


def where_settings_come_from(name: str) -> str:
    """Where ``name`` was looked for, for an error message: the environment variable wins over
    the ``.env`` file, which may not exist."""
    path = env_file()
    if name in os.environ:
        return f"it comes from the environment, which overrides {path}"
    if path.is_file():
        return f"set it in {path}"
    return f"there is no {path}: copy .env.example there and set it"


def load_settings(**overrides: object) -> Settings:
    """Read the settings; turn pydantic's report into one friendly :class:`SettingsError`.

    The message names each bad setting, where it was looked for and, for the token, how to get
    one; it never repeats a value (a token is a secret)."""
    from pydantic import ValidationError

    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            name = str(err["loc"][0]) if err["loc"] else "settings"
            if err["type"] == "missing":
                problem = f"{name} is required: {where_settings_come_from(name)}"
            else:
                reason = str(err["msg"]).removeprefix("Value error, ")
                problem = f"{name} {reason}: {where_settings_come_from(name)}"
            if name == "BOT_TOKEN":
                problem += f"; {BOTFATHER_STEPS}"
            problems.append(problem)
        raise SettingsError("; ".join(problems)) from None
