"""The one place that owns SQLite connections.

Layout (measured in benchmarks/storage_bench.py, see docs/storage.md):

* **one writer connection**, used under an ``asyncio.Lock``.  SQLite allows one writer at a time
  anyway; serialising writers in the process means they queue fairly (FIFO) on the lock instead
  of spinning on ``SQLITE_BUSY``, and each write transaction starts with ``BEGIN IMMEDIATE`` so
  that another process (a second bot instance, the ``sqlite3`` shell) is waited for through
  ``busy_timeout`` at the start instead of failing at the first write.
* **a small pool of read-only connections**.  In WAL mode readers never block the writer nor
  each other, and aiosqlite runs each connection in its own thread, so loads proceed while a
  save commits.  With ``readers=0`` reads go through the writer (under the lock).

Every connection gets the same PRAGMAs, because SQLite keeps most of them per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Literal

import aiosqlite

from storage.errors import ConstraintError, DatabaseError, StorageError

Synchronous = Literal["NORMAL", "FULL"]

#: How long a connection waits for another process's lock before giving up, in milliseconds.
DEFAULT_BUSY_TIMEOUT_MS = 5_000

#: Seconds between background WAL checkpoints (None: let the writer checkpoint by itself).
DEFAULT_CHECKPOINT_INTERVAL = 1.0

#: With background checkpoints on, the writer still checkpoints by itself past this many WAL
#: pages (~40 MB) -- a safety net should the background task ever fall behind.
_WRITER_AUTOCHECKPOINT_PAGES = 10_000

LOG = logging.getLogger(__name__)


async def _pragma(conn: aiosqlite.Connection, statement: str) -> object:
    rows = list(await conn.execute_fetchall(f"PRAGMA {statement}"))
    return rows[0][0] if rows else None


async def configure(
    conn: aiosqlite.Connection,
    *,
    synchronous: Synchronous,
    busy_timeout_ms: int,
    read_only: bool,
) -> None:
    """Apply the PRAGMAs every connection needs, and check the ones that can silently fail.

    * ``busy_timeout`` first, so that switching to WAL waits for other processes too;
    * ``journal_mode=WAL``: readers do not block the writer and a commit is one append to the
      WAL (the mode is stored in the file; asking again on every connection is cheap and proves
      it took effect -- it cannot on some network file systems, which we refuse);
    * ``synchronous``: NORMAL by default, see docs/storage.md for the durability trade-off;
    * ``foreign_keys=ON``: SQLite leaves it off per connection unless asked;
    * ``query_only`` on readers, so a bug cannot write outside the writer's lock.
    """
    await _pragma(conn, f"busy_timeout = {int(busy_timeout_ms)}")
    mode = await _pragma(conn, "journal_mode = WAL")
    if str(mode).lower() != "wal":
        raise StorageError(f"SQLite refused WAL journal mode (got {mode!r})")
    await _pragma(conn, f"synchronous = {synchronous}")
    await _pragma(conn, "foreign_keys = ON")
    if await _pragma(conn, "foreign_keys") != 1:
        raise StorageError("SQLite build does not enforce foreign keys")
    if read_only:
        await _pragma(conn, "query_only = ON")


async def connect(
    path: Path,
    *,
    synchronous: Synchronous,
    busy_timeout_ms: int,
    read_only: bool,
    check: Callable[[aiosqlite.Connection], Awaitable[None]] | None = None,
) -> aiosqlite.Connection:
    """Open one configured connection.

    Readers run in autocommit mode.  The writer uses ``isolation_level="IMMEDIATE"``: the
    driver then starts ``BEGIN IMMEDIATE`` by itself before a data-changing statement when no
    transaction is open (see :meth:`ConnectionPool.transaction`); explicit ``BEGIN`` and
    ``COMMIT`` work as usual, and Python 3.6+ no longer commits implicitly before DDL.

    ``check`` runs before any PRAGMA that could change the file (the journal mode is stored
    in it), so a database we refuse -- too new, or not ours -- is left untouched.
    """
    conn = await aiosqlite.connect(
        path,
        isolation_level=None if read_only else "IMMEDIATE",
        timeout=busy_timeout_ms / 1000,
    )
    try:
        conn.row_factory = sqlite3.Row
        if check is not None:
            await _pragma(conn, f"busy_timeout = {int(busy_timeout_ms)}")
            await check(conn)
        await configure(
            conn, synchronous=synchronous, busy_timeout_ms=busy_timeout_ms, read_only=read_only
        )
    except BaseException:
        await conn.close()
        raise
    return conn


@contextlib.contextmanager
def translate_errors() -> Iterator[None]:
    """Turn driver exceptions into :class:`StorageError` subclasses.

    The repository's callers must not depend on SQLite (a PostgreSQL backend is planned), so
    nothing from :mod:`sqlite3` escapes; the original is kept as ``__cause__``.
    """
    try:
        yield
    except sqlite3.IntegrityError as exc:
        raise ConstraintError(str(exc)) from exc
    except sqlite3.Error as exc:
        raise DatabaseError(str(exc)) from exc


class ConnectionPool:
    """The writer, its lock and the readers of one database file."""

    def __init__(
        self,
        path: Path,
        *,
        readers: int = 2,
        synchronous: Synchronous = "NORMAL",
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        checkpoint_interval: float | None = DEFAULT_CHECKPOINT_INTERVAL,
    ) -> None:
        if readers < 0:
            raise ValueError("readers must be >= 0")
        if checkpoint_interval is not None and checkpoint_interval <= 0:
            raise ValueError("checkpoint_interval must be positive or None")
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError("synchronous must be 'NORMAL' or 'FULL'")
        self.path = path
        self.synchronous: Synchronous = synchronous
        self.busy_timeout_ms = busy_timeout_ms
        self._reader_count = readers
        self._writer: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._readers: list[aiosqlite.Connection] = []
        self._idle_readers: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        self._checkpoint_interval = checkpoint_interval
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpoint_task: asyncio.Task[None] | None = None
        self._closed = False

    async def open_writer(
        self, check: Callable[[aiosqlite.Connection], Awaitable[None]] | None = None
    ) -> aiosqlite.Connection:
        """Open the writer first, alone, so migrations run before any reader exists."""
        self._writer = await connect(
            self.path,
            synchronous=self.synchronous,
            busy_timeout_ms=self.busy_timeout_ms,
            read_only=False,
            check=check,
        )
        return self._writer

    async def open_readers(self) -> None:
        for _ in range(self._reader_count):
            conn = await connect(
                self.path,
                synchronous=self.synchronous,
                busy_timeout_ms=self.busy_timeout_ms,
                read_only=True,
            )
            self._readers.append(conn)
            self._idle_readers.put_nowait(conn)

    async def start_checkpointer(self) -> None:
        """Move WAL checkpoints off the commit path.

        In WAL mode a commit appends to the ``-wal`` file; a *checkpoint* copies those pages
        into the main file and, with ``synchronous=NORMAL``, is the only step that waits for
        the disk (fsync).  SQLite runs it by default inside whichever commit crosses 1,000
        pages, so that one unlucky save pays for it -- it showed as the p99 latency.  Here a
        separate connection, in its own thread, runs ``PRAGMA wal_checkpoint(PASSIVE)`` every
        ``checkpoint_interval`` seconds; PASSIVE never blocks the writer or the readers.
        """
        if self._checkpoint_interval is None:
            return
        self._checkpointer = await connect(
            self.path,
            synchronous=self.synchronous,
            busy_timeout_ms=self.busy_timeout_ms,
            read_only=False,
        )
        await _pragma(self.writer, f"wal_autocheckpoint = {_WRITER_AUTOCHECKPOINT_PAGES}")
        self._checkpoint_task = asyncio.create_task(
            self._checkpoint_loop(self._checkpointer, self._checkpoint_interval),
            name=f"sqlite-checkpoint:{self.path.name}",
        )

    @staticmethod
    async def _checkpoint_loop(conn: aiosqlite.Connection, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            try:
                await conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error:  # e.g. disk full: the writer's own checkpoint is the net
                LOG.warning("background WAL checkpoint failed", exc_info=True)

    @property
    def writer(self) -> aiosqlite.Connection:
        if self._writer is None or self._closed:
            raise StorageError("storage is closed")
        return self._writer

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A connection for one or more autocommit reads (each sees the latest commit)."""
        if not self._readers:
            async with self._write_lock:
                with translate_errors():
                    yield self.writer
            return
        if self._closed:
            raise StorageError("storage is closed")
        conn = await self._idle_readers.get()
        try:
            with translate_errors():
                yield conn
        finally:
            self._idle_readers.put_nowait(conn)

    @contextlib.asynccontextmanager
    async def transaction(
        self, *, starts_with_write: bool = False
    ) -> AsyncIterator[aiosqlite.Connection]:
        """Run the body as one write transaction: all of it is committed, or none of it.

        The lock is held from ``BEGIN IMMEDIATE`` to ``COMMIT``/``ROLLBACK``.  If the body
        raises -- including ``CancelledError`` when the calling task is cancelled -- the
        transaction is rolled back before the lock is released.  aiosqlite queues calls to its
        thread in order, so the ROLLBACK runs before any later transaction's BEGIN even if the
        task is cancelled again while waiting for it.  A task cancelled while its COMMIT is
        already on the way may have committed (as with any database server); the version check
        makes retrying such a save safe.

        ``starts_with_write=True`` is for bodies whose first statement is an INSERT, UPDATE or
        DELETE: the writer connection is opened with ``isolation_level="IMMEDIATE"``, so the
        driver issues ``BEGIN IMMEDIATE`` itself right before that statement, in the same call
        to the database thread -- one round trip less on the hot path (a move save).  Bodies that
        read first must not use it: their reads would run outside the transaction.
        """
        async with self._write_lock:
            conn = self.writer
            with translate_errors():
                try:
                    if not starts_with_write:
                        await conn.execute("BEGIN IMMEDIATE")
                    yield conn
                    await conn.commit()  # a no-op if the body wrote nothing
                except BaseException:
                    await self._rollback(conn)
                    raise

    @staticmethod
    async def _rollback(conn: aiosqlite.Connection) -> None:
        """Queue a ROLLBACK behind whatever this connection is still running.

        It is sent unconditionally (not after checking ``in_transaction``) because a cancelled
        ``BEGIN`` may still be queued in aiosqlite's thread; "no transaction is active" then
        just means there was nothing to undo.
        """
        try:
            await conn.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            if "no transaction is active" not in str(exc):
                raise

    async def close(self, *, optimize: bool = True) -> None:
        """Wait for the running write, close the readers, then the writer.

        Closing the last connection checkpoints the WAL into the main file and removes it, so a
        cleanly stopped bot leaves a single self-contained ``.sqlite3`` file.
        """
        if self._closed:
            return
        if self._checkpoint_task is not None:
            self._checkpoint_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpoint_task
            self._checkpoint_task = None
        if self._checkpointer is not None:
            await self._checkpointer.close()
            self._checkpointer = None
        async with self._write_lock:
            self._closed = True
            for _ in self._readers:
                conn = await self._idle_readers.get()
                await conn.close()
            self._readers.clear()
            if self._writer is not None:
                if optimize:
                    with contextlib.suppress(sqlite3.Error):
                        await self._writer.execute("PRAGMA optimize")
                await self._writer.close()
                self._writer = None
