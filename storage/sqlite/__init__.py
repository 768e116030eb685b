"""SQLite backend: the embedded default store."""

from storage.sqlite.migrations import LATEST_VERSION, MIGRATIONS, Migration, migrate
from storage.sqlite.store import SqliteStorage

__all__ = ["LATEST_VERSION", "MIGRATIONS", "Migration", "SqliteStorage", "migrate"]
