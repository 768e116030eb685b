"""The one place that owns SQLite connections.

Layout (measured with benchmarks/storage_bench.py, figures in docs/storage.md):

* **one writer**: a plain ``sqlite3`` connection confined to its own thread, where each write
  transaction runs as *one* function, from ``BEGIN IMMEDIATE`` to ``COMMIT``.  aiosqlite sends
  one statement per trip to its thread, and a move save is four statements; the trips, not
  SQLite, were most of the cost (SQLite's own work is ~0.04 ms per save, a trip ~0.1 ms of CPU
  and two context switches), so running the transaction in one trip more than doubled the
  commits per second.  The thread's single-worker executor queues writers in FIFO order, which
  is the lock: SQLite has one writer at a time anyway, and they wait in line here instead of
  spinning on ``SQLITE_BUSY``.  ``BEGIN IMMEDIATE`` makes another process (a second bot, the
  ``sqlite3`` shell) be waited for through ``busy_timeout`` at the start, never half-way.
* **a small pool of aiosqlite reader connections** (``query_only``).  In WAL mode readers never
  wait for the writer or each other; a load is one statement, so aiosqlite's trip model costs
  nothing extra there.

WAL checkpoints (copying the WAL into the main file) stay SQLite's default: the writer runs one
inside the commit that crosses 1,000 WAL pages.  A background checkpointer on its own connection
was tried and measured: with whole transactions in one trip it gave no gain in throughput and a
longer worst case (its fsync of the main file competes with the commits' fsync of the WAL).

Every connection gets the same PRAGMAs, because SQLite keeps most of them per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Concatenate, Literal, ParamSpec, TypeVar

import aiosqlite

from storage.errors import ConstraintError, DatabaseError, StorageError

Synchronous = Literal["NORMAL", "FULL"]
T = TypeVar("T")
P = ParamSpec("P")

#: FULL: a save returns only once its WAL frames are on disk, so even a power cut cannot undo
#: it.  Measured here it costs ~0.2 ms per commit and still leaves ~2,500 commits/s; NORMAL
#: (durable against a killed process, not against a power cut) is ~2x faster.  See
#: docs/storage.md.
DEFAULT_SYNCHRONOUS: Synchronous = "FULL"

#: How long a connection waits for another process's lock before giving up, in milliseconds.
DEFAULT_BUSY_TIMEOUT_MS = 5_000


def pragma_plan(
    *, synchronous: Synchronous, busy_timeout_ms: int, read_only: bool
) -> list[tuple[str, object]]:
    """The PRAGMAs every connection gets, each with the answer it must give (or None).

    * ``busy_timeout`` first, so that switching to WAL waits for other processes too;
    * ``journal_mode=WAL``: readers do not block the writer and a commit is one append to the
      WAL (the mode is stored in the file; asking on every connection is cheap and proves it
      took effect -- it cannot on some network file systems, which we refuse);
    * ``synchronous``: FULL by default, see docs/storage.md for the durability trade-off;
    * ``foreign_keys=ON``, then read back: SQLite leaves it off unless asked, per connection;
    * ``query_only`` on readers, so a bug cannot write beside the writer.
    """
    plan: list[tuple[str, object]] = [
        (f"busy_timeout = {int(busy_timeout_ms)}", None),
        ("journal_mode = WAL", "wal"),
        (f"synchronous = {synchronous}", None),
        ("foreign_keys = ON", None),
        ("foreign_keys", 1),
    ]
    if read_only:
        plan.append(("query_only = ON", None))
    return plan


def _check_pragma(statement: str, expected: object, answer: object) -> None:
    if expected is not None and str(answer).lower() != str(expected):
        raise StorageError(f"PRAGMA {statement} answered {answer!r}, expected {expected!r}")


def configure_sync(
    conn: sqlite3.Connection, *, synchronous: Synchronous, busy_timeout_ms: int
) -> None:
    """Apply :func:`pragma_plan` to a plain (writer) connection."""
    plan = pragma_plan(synchronous=synchronous, busy_timeout_ms=busy_timeout_ms, read_only=False)
    for statement, expected in plan:
        row = conn.execute(f"PRAGMA {statement}").fetchone()
        _check_pragma(statement, expected, None if row is None else row[0])


async def configure_async(
    conn: aiosqlite.Connection,
    *,
    synchronous: Synchronous,
    busy_timeout_ms: int,
    read_only: bool,
) -> None:
    """Apply :func:`pragma_plan` to an aiosqlite (reader) connection."""
    plan = pragma_plan(
        synchronous=synchronous, busy_timeout_ms=busy_timeout_ms, read_only=read_only
    )
    for statement, expected in plan:
        rows = list(await conn.execute_fetchall(f"PRAGMA {statement}"))
        _check_pragma(statement, expected, rows[0][0] if rows else None)


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


def _in_transaction(
    conn: sqlite3.Connection,
    body: Callable[Concatenate[sqlite3.Connection, P], T],
    *args: P.args,
    **kwargs: P.kwargs,
) -> T:
    """``BEGIN IMMEDIATE``, the body, ``COMMIT`` -- or ``ROLLBACK`` if anything raised.

    Runs entirely in the writer thread, so no other statement can slip in between, and a
    caller cancelled while waiting cannot leave a transaction half-open: the function either
    never starts (still queued) or runs to its COMMIT or ROLLBACK.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body(conn, *args, **kwargs)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
            conn.execute("ROLLBACK")
        raise
    return result


class WriterThread:
    """The writer connection and the thread it lives in."""

    def __init__(self, path: Path, *, synchronous: Synchronous, busy_timeout_ms: int) -> None:
        self.path = path
        self._synchronous: Synchronous = synchronous
        self._busy_timeout_ms = busy_timeout_ms
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._conn: sqlite3.Connection | None = None

    async def open(self, check: Callable[[sqlite3.Connection], None] | None = None) -> None:
        """Connect in the writer thread.

        ``check`` runs before any PRAGMA that could change the file (the journal mode is stored
        in it), so a database we refuse -- too new, or not ours -- is left untouched.
        """
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self._open, check)

    def _open(self, check: Callable[[sqlite3.Connection], None] | None) -> None:
        conn = sqlite3.connect(
            self.path, isolation_level=None, timeout=self._busy_timeout_ms / 1000
        )
        try:
            conn.row_factory = sqlite3.Row
            if check is not None:
                check(conn)
            configure_sync(
                conn, synchronous=self._synchronous, busy_timeout_ms=self._busy_timeout_ms
            )
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    async def run(
        self,
        fn: Callable[Concatenate[sqlite3.Connection, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Call ``fn(connection, ...)`` in the writer thread, after every earlier call."""
        if self._conn is None:
            raise StorageError("storage is closed")
        call = functools.partial(fn, self._conn, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    async def transaction(
        self,
        body: Callable[Concatenate[sqlite3.Connection, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Run ``body(connection, ...)`` as one write transaction: all of it, or none of it."""
        with translate_errors():
            return await self.run(_in_transaction, body, *args, **kwargs)

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self._executor, conn.close)
        self._executor.shutdown(wait=False)


class ConnectionPool:
    """The writer and the readers of one database file."""

    def __init__(
        self,
        path: Path,
        *,
        readers: int = 2,
        synchronous: Synchronous = DEFAULT_SYNCHRONOUS,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    ) -> None:
        if readers < 1:
            raise ValueError("at least one reader connection is needed")
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError("synchronous must be 'NORMAL' or 'FULL'")
        self.path = path
        self.synchronous: Synchronous = synchronous
        self.busy_timeout_ms = busy_timeout_ms
        self.writer = WriterThread(path, synchronous=synchronous, busy_timeout_ms=busy_timeout_ms)
        self._reader_count = readers
        self._readers: list[aiosqlite.Connection] = []
        self._idle_readers: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        self._closed = False

    async def _connect_async(self, *, read_only: bool) -> aiosqlite.Connection:
        conn = await aiosqlite.connect(
            self.path, isolation_level=None, timeout=self.busy_timeout_ms / 1000
        )
        try:
            conn.row_factory = sqlite3.Row
            await configure_async(
                conn,
                synchronous=self.synchronous,
                busy_timeout_ms=self.busy_timeout_ms,
                read_only=read_only,
            )
        except BaseException:
            await conn.close()
            raise
        return conn

    async def open_readers(self) -> None:
        """Open the readers -- after the writer has migrated the schema."""
        for _ in range(self._reader_count):
            conn = await self._connect_async(read_only=True)
            self._readers.append(conn)
            self._idle_readers.put_nowait(conn)

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A reader for one or more autocommit reads (each sees the latest commit)."""
        if self._closed:
            raise StorageError("storage is closed")
        conn = await self._idle_readers.get()
        try:
            with translate_errors():
                yield conn
        finally:
            self._idle_readers.put_nowait(conn)

    async def close(self, *, optimize: bool = True) -> None:
        """Close the readers, then the writer.

        Closing the last connection checkpoints the WAL into the main file and removes it, so a
        cleanly stopped bot leaves a single self-contained ``.sqlite3`` file.
        """
        if self._closed:
            return
        self._closed = True
        for _ in self._readers:
            conn = await self._idle_readers.get()  # waits for reads in progress
            await conn.close()
        self._readers.clear()
        if optimize:
            with contextlib.suppress(sqlite3.Error, StorageError):
                await self.writer.run(_optimize)
        await self.writer.close()


def _optimize(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA optimize")
