"""The SQLite implementation of :class:`storage.base.Storage`.

The methods themselves are :class:`storage.repository.SqlRepository`'s (shared with the
PostgreSQL backend); this class opens the file and hands one function to a connection's
thread: a query to a reader, or a whole transaction body from :mod:`storage.sql.writes`
(``clocks``, ``dice``, ``reviews``), run by :func:`storage.sqlite.dialect.run`, to the writer
(see :mod:`storage.sqlite.connections` for why).
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self, TypeVar

from storage.repository import Clock, SqlRepository
from storage.settings import database_path
from storage.sql.steps import Body
from storage.sqlite.connections import (
    DEFAULT_BUSY_TIMEOUT_MS,
    DEFAULT_SYNCHRONOUS,
    ConnectionPool,
    Synchronous,
    translate_errors,
)
from storage.sqlite.dialect import run
from storage.sqlite.migrations import check_openable, migrate

Row = sqlite3.Row
T = TypeVar("T")


class SqliteStorage(SqlRepository):
    """:class:`Storage` in one SQLite file.  Create it with :meth:`open`."""

    def __init__(self, pool: ConnectionPool, clock: Clock | None = None) -> None:
        self._pool = pool
        self._clock = clock or (lambda: datetime.now(UTC))

    async def _write(self, body: Callable[..., Body[T]], *args: Any) -> T:
        return await self._pool.writer.transaction(run, body, *args)

    @classmethod
    async def open(
        cls,
        path: str | Path | None = None,
        *,
        readers: int = 2,
        synchronous: Synchronous = DEFAULT_SYNCHRONOUS,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        clock: Clock | None = None,
    ) -> Self:
        """Open (creating and migrating as needed) the database at ``path``.

        ``path`` defaults to :func:`storage.settings.database_path` (``DATABASE_PATH``, else
        ``nardy.sqlite3`` in the working directory).  Raises
        :class:`~storage.errors.DatabaseTooNewError` for a file written by newer code and
        :class:`~storage.errors.ForeignDatabaseError` for a file that is not ours.
        """
        target = database_path() if path is None else Path(path).expanduser()
        if str(path) == ":memory:" or str(target).startswith("file:"):
            raise ValueError("a database file path is needed (several connections share it)")
        target = target.resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        pool = ConnectionPool(
            target,
            readers=readers,
            synchronous=synchronous,
            busy_timeout_ms=busy_timeout_ms,
        )
        try:
            with translate_errors():
                await pool.writer.open(check=functools.partial(check_openable, path=target))
                await pool.writer.run(functools.partial(migrate, path=target))
                await pool.open_readers()
        except BaseException:
            await pool.close(optimize=False)  # a refused file is left exactly as it was
            raise
        return cls(pool, clock)

    @property
    def path(self) -> Path:
        return self._pool.path

    async def close(self) -> None:
        await self._pool.close()

    async def backup(self, target: str | Path) -> None:
        await self._pool.read(_backup_to, Path(target))

    async def _fetch_one(self, sql: str, params: Sequence[Any]) -> Row | None:
        return await self._pool.read(_fetch_one, sql, params)

    async def _fetch_all(self, sql: str, params: Sequence[Any]) -> list[Row]:
        return await self._pool.read(_fetch_all, sql, params)

    # -- Telegram updates --------------------------------------------------------------------


def _fetch_one(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> Row | None:
    row: Row | None = conn.execute(sql, params).fetchone()
    return row


def _fetch_all(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    return list(conn.execute(sql, params).fetchall())


def _backup_to(conn: sqlite3.Connection, target: Path) -> None:
    """A consistent copy of the database into ``target`` (SQLite's online backup), made by a
    reader, so writes go on meanwhile."""
    dest = sqlite3.connect(target)
    try:
        conn.backup(dest)
    finally:
        dest.close()
