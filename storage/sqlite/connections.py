"""The one place that owns SQLite connections, and the one way the code talks to them.

Every connection -- the writer and each reader -- is a plain ``sqlite3`` connection confined to
a thread of its own (:class:`ConnectionThread`). A caller hands the thread a *whole function*
(``fn(connection, ...)``) and awaits its result: one trip per transaction or per query, never
one per statement. That is what made writes fast (figures in docs/storage.md, measured with
benchmarks/storage_bench.py): aiosqlite sends one statement per trip to its thread, a move save
is four statements, and the trips, not SQLite, were most of the cost (SQLite's own work is
~0.04 ms per save, a trip ~0.1 ms of CPU and two context switches). Readers used aiosqlite
until the same mechanism served both; a read is one function too.

* **one writer**, where each write transaction runs as one function from ``BEGIN IMMEDIATE``
  to ``COMMIT``. The thread's queue holds writers in FIFO order, which is the lock: SQLite has
  one writer at a time anyway, and they wait in line here instead of spinning on
  ``SQLITE_BUSY``. Transactions that queue up while the thread is busy are committed together
  (group commit: one fsync for many; see :meth:`ConnectionThread.transaction`). ``BEGIN
  IMMEDIATE`` makes another process (a second bot, the ``sqlite3`` shell) be waited for through
  ``busy_timeout`` at the start, never half-way.
* **a small pool of readers** (``query_only``). In WAL mode readers never wait for the writer or
  each other.

WAL checkpoints (copying the WAL into the main file) stay SQLite's default: the writer runs one
inside the commit that crosses 1,000 WAL pages. A background checkpointer on its own connection
was tried and measured: with whole transactions in one trip it gave no gain in throughput and a
longer worst case (its fsync of the main file competes with the commits' fsync of the WAL).

Every connection gets the same PRAGMAs, because SQLite keeps most of them per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar

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


def configure(
    conn: sqlite3.Connection, *, synchronous: Synchronous, busy_timeout_ms: int, read_only: bool
) -> None:
    """Apply :func:`pragma_plan` to a connection."""
    plan = pragma_plan(
        synchronous=synchronous, busy_timeout_ms=busy_timeout_ms, read_only=read_only
    )
    for statement, expected in plan:
        row = conn.execute(f"PRAGMA {statement}").fetchone()
        _check_pragma(statement, expected, None if row is None else row[0])


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


@dataclass(slots=True)
class _Job:
    """One call waiting for the writer thread."""

    call: Callable[[sqlite3.Connection], Any]
    transaction: bool
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop


def _settle(outcomes: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """Hand results to their callers, in the event loop (a caller may have given up)."""
    for future, ok, value in outcomes:
        if future.cancelled():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


class ConnectionThread:
    """One connection and the thread it lives in; every call runs there as one function.

    Calls run in FIFO order. Write transactions (:meth:`transaction`, the writer's) that are
    already waiting when the thread becomes free are committed together (*group commit*): one
    ``BEGIN IMMEDIATE``, each body in its own ``SAVEPOINT`` (a body that raises is rolled back
    alone and only its caller sees the error), one ``COMMIT`` — so one fsync — for all of them,
    and the results are handed back in one wake-up of the event loop. Every caller still
    returns only after its commit is on disk, and sees exactly what a transaction of its own
    would have done: the bodies run one after another, each sees the ones before it. Measured
    with one write per tap (docs/storage.md), it doubles the writes per second under load.
    """

    #: The most transactions committed together.
    MAX_GROUP = 64

    def __init__(
        self,
        path: Path,
        *,
        synchronous: Synchronous,
        busy_timeout_ms: int,
        read_only: bool = False,
        name: str = "sqlite-writer",
    ) -> None:
        self.path = path
        self.name = name
        self.read_only = read_only
        self._synchronous: Synchronous = synchronous
        self._busy_timeout_ms = busy_timeout_ms
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None
        #: Commits made, and transactions they carried (a measure of the grouping).
        self.commits = 0
        self.transactions = 0

    async def open(self, check: Callable[[sqlite3.Connection], None] | None = None) -> None:
        """Start the thread and connect in it.

        ``check`` runs before any PRAGMA that could change the file (the journal mode is stored
        in it), so a database we refuse -- too new, or not ours -- is left untouched.
        """
        self._thread = threading.Thread(target=self._serve, name=self.name, daemon=True)
        self._thread.start()
        await self._submit(functools.partial(self._open, check=check), transaction=False)

    def _open(self, _: None, check: Callable[[sqlite3.Connection], None] | None) -> None:
        conn = sqlite3.connect(
            self.path, isolation_level=None, timeout=self._busy_timeout_ms / 1000
        )
        try:
            conn.row_factory = sqlite3.Row
            if check is not None:
                check(conn)
            configure(
                conn,
                synchronous=self._synchronous,
                busy_timeout_ms=self._busy_timeout_ms,
                read_only=self.read_only,
            )
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    def _submit(self, call: Callable[[Any], T], *, transaction: bool) -> asyncio.Future[T]:
        if self._thread is None or not self._thread.is_alive():
            raise StorageError("storage is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put(_Job(call, transaction, future, loop))
        return future

    async def run(
        self,
        fn: Callable[Concatenate[sqlite3.Connection, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Call ``fn(connection, ...)`` in this connection's thread, after every earlier call,
        outside any transaction (a read; migrations manage their own)."""
        if self._conn is None:
            raise StorageError("storage is closed")
        return await self._submit(lambda conn: fn(conn, *args, **kwargs), transaction=False)

    async def transaction(
        self,
        body: Callable[Concatenate[sqlite3.Connection, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Run ``body(connection, ...)`` as one write transaction: all of it, or none of it.

        The body runs entirely in the writer thread, so no other statement can slip in
        between, and a caller cancelled while waiting cannot leave a transaction half-open:
        the body either never starts (still queued) or runs to its commit or rollback.
        """
        if self._conn is None:
            raise StorageError("storage is closed")
        with translate_errors():
            return await self._submit(lambda conn: body(conn, *args, **kwargs), transaction=True)

    # ---- the thread -----------------------------------------------------------------------

    def _serve(self) -> None:
        jobs = self._jobs
        carry: _Job | bool | None = False
        while True:
            job = jobs.get() if carry is False else carry
            carry = False
            if job is None:
                return
            if not job.transaction:
                self._deliver([(job, *self._plain(job))])
                continue
            group = [job]
            while len(group) < self.MAX_GROUP:
                try:
                    nxt = jobs.get_nowait()
                except queue.Empty:
                    break
                if nxt is None or not nxt.transaction:
                    carry = nxt  # runs (or stops the thread) after this group
                    break
                group.append(nxt)
            outcomes = self._commit(group)
            self._deliver([(j, ok, v) for j, (ok, v) in zip(group, outcomes, strict=True)])

    def _plain(self, job: _Job) -> tuple[bool, Any]:
        try:
            return True, job.call(self._conn)
        except BaseException as exc:
            return False, exc

    def _commit(self, group: list[_Job]) -> list[tuple[bool, Any]]:
        """Run the group's bodies in one transaction; one (ok, result-or-error) per body."""
        conn = self._conn
        if conn is None:
            return [(False, StorageError("storage is closed"))] * len(group)
        try:
            conn.execute("BEGIN IMMEDIATE")
        except BaseException as exc:
            return [(False, exc)] * len(group)
        outcomes: list[tuple[bool, Any]] = []
        single = len(group) == 1
        for job in group:
            if not single:
                conn.execute("SAVEPOINT job")
            try:
                result = job.call(conn)
            except BaseException as exc:
                if not conn.in_transaction:
                    # SQLite rolled the whole transaction back (e.g. disk full): the bodies
                    # before this one are undone too, and the rest must not run outside it.
                    return [(False, exc)] * len(group)
                if single:
                    conn.execute("ROLLBACK")
                    return [(False, exc)]
                conn.execute("ROLLBACK TO job")
                conn.execute("RELEASE job")
                outcomes.append((False, exc))
            else:
                if not single:
                    conn.execute("RELEASE job")
                outcomes.append((True, result))
        try:
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            return [(False, exc)] * len(group)
        self.commits += 1
        self.transactions += len(group)
        return outcomes

    @staticmethod
    def _deliver(results: list[tuple[_Job, bool, Any]]) -> None:
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]]
        by_loop = {}
        for job, ok, value in results:
            by_loop.setdefault(job.loop, []).append((job.future, ok, value))
        for loop, outcomes in by_loop.items():
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting
                loop.call_soon_threadsafe(_settle, outcomes)

    async def close(self) -> None:
        if self._thread is None:
            return
        if self._conn is not None and self._thread.is_alive():
            conn, self._conn = self._conn, None
            await self._submit(lambda _: conn.close(), transaction=False)
        self._jobs.put(None)
        thread, self._thread = self._thread, None
        await asyncio.to_thread(thread.join)


class ConnectionPool:
    """The writer and the readers of one database file: the same kind of connection each,
    the writer for write transactions, the readers for queries."""

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
        self.writer = ConnectionThread(
            path, synchronous=synchronous, busy_timeout_ms=busy_timeout_ms
        )
        self._reader_count = readers
        self._readers: list[ConnectionThread] = []
        self._idle_readers: asyncio.Queue[ConnectionThread] = asyncio.Queue()
        self._closed = False

    async def open_readers(self) -> None:
        """Open the readers -- after the writer has migrated the schema."""
        for number in range(self._reader_count):
            reader = ConnectionThread(
                self.path,
                synchronous=self.synchronous,
                busy_timeout_ms=self.busy_timeout_ms,
                read_only=True,
                name=f"sqlite-reader-{number}",
            )
            try:
                await reader.open()
            except BaseException:
                await reader.close()
                raise
            self._readers.append(reader)
            self._idle_readers.put_nowait(reader)

    async def read(
        self,
        fn: Callable[Concatenate[sqlite3.Connection, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Call ``fn(connection, ...)`` on an idle reader: autocommit reads, each seeing the
        latest commit."""
        if self._closed:
            raise StorageError("storage is closed")
        reader = await self._idle_readers.get()
        try:
            with translate_errors():
                return await reader.run(fn, *args, **kwargs)
        finally:
            self._idle_readers.put_nowait(reader)

    async def close(self, *, optimize: bool = True) -> None:
        """Close the readers, then the writer.

        Closing the last connection checkpoints the WAL into the main file and removes it, so a
        cleanly stopped bot leaves a single self-contained ``.sqlite3`` file.
        """
        if self._closed:
            return
        self._closed = True
        for _ in self._readers:
            reader = await self._idle_readers.get()  # waits for reads in progress
            await reader.close()
        self._readers.clear()
        if optimize:
            with contextlib.suppress(sqlite3.Error, StorageError):
                await self.writer.run(_optimize)
        await self.writer.close()


def _optimize(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA optimize")
