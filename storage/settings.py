"""Where the database lives.

``DATABASE_URL=postgresql://...`` selects the PostgreSQL backend; without it the store is the
SQLite file named by ``DATABASE_PATH`` (default ``nardy.sqlite3``).  The bot's settings class may
read both variables itself and pass the result to :func:`storage.open_storage`; when it passes
nothing, :func:`database_location` reads the same variables here, so both ways agree on the
names and the defaults.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

DATABASE_PATH_VARIABLE = "DATABASE_PATH"
DATABASE_URL_VARIABLE = "DATABASE_URL"
DEFAULT_DATABASE_PATH = "nardy.sqlite3"
POSTGRES_SCHEMES = ("postgresql", "postgres")


def is_postgres_url(location: object) -> bool:
    """True for ``postgresql://...`` / ``postgres://...`` (what ``DATABASE_URL`` names)."""
    return isinstance(location, str) and urlsplit(location).scheme in POSTGRES_SCHEMES


def redact(url: str) -> str:
    """The URL without its password, for error messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    netloc = f"{parts.username or ''}:***@{host}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def database_path(environ: Mapping[str, str] | None = None) -> Path:
    """The database file named by ``DATABASE_PATH``, else ``nardy.sqlite3``.

    A relative path is resolved against the current working directory when the store opens,
    so the default puts the file in the directory the bot is started from.
    """
    env = os.environ if environ is None else environ
    value = env.get(DATABASE_PATH_VARIABLE, "").strip()
    return Path(value or DEFAULT_DATABASE_PATH).expanduser()


def database_location(environ: Mapping[str, str] | None = None) -> str | Path:
    """``DATABASE_URL`` when it is set (a server database), else :func:`database_path`."""
    env = os.environ if environ is None else environ
    url = env.get(DATABASE_URL_VARIABLE, "").strip()
    return url or database_path(env)
