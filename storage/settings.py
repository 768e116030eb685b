"""Where the database lives.

The bot's settings class may read ``DATABASE_PATH`` itself and pass a path to
:func:`storage.open_storage`; when it passes nothing, :func:`database_path` reads the same
variable here, so both ways agree on the name and the default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DATABASE_PATH_VARIABLE = "DATABASE_PATH"
DEFAULT_DATABASE_PATH = "nardy.sqlite3"


def database_path(environ: Mapping[str, str] | None = None) -> Path:
    """The database file named by ``DATABASE_PATH``, else ``nardy.sqlite3``.

    A relative path is resolved against the current working directory when the store opens,
    so the default puts the file in the directory the bot is started from.
    """
    env = os.environ if environ is None else environ
    value = env.get(DATABASE_PATH_VARIABLE, "").strip()
    return Path(value or DEFAULT_DATABASE_PATH).expanduser()
