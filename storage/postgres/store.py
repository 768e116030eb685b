"""The PostgreSQL implementation of :class:`storage.base.Storage` (asyncpg).

Reads are single statements on a pooled connection.  Each write is one transaction body from
:mod:`storage.sql.writes` (``clocks``, ``dice``, ``reviews``: the bodies SQLite runs too),
run by :func:`storage.postgres.dialect.run` on one pooled connection from ``BEGIN`` to
``COMMIT`` (a save without dice or clock is one statement and needs no ``BEGIN``).  Reads and
writes run in a task of their own, shielded from the caller's cancellation, so a caller that
gives up (a handler timed out, the bot is stopping) never leaves a transaction half-sent: it
commits or rolls back whole, and :meth:`PostgresStorage.close` waits for it, as the SQLite
writer thread does.  A transaction the server aborted to break a deadlock or a serialisation
conflict is run again (the server guarantees it left nothing); any other failure is raised,
never retried, because a lost connection does not tell whether its COMMIT arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ParamSpec, Self, TypeVar

import asyncpg

from storage.errors import ConstraintError, DatabaseError, StorageError
from storage.postgres.dialect import run
from storage.postgres.migrations import migrate
from storage.postgres.placeholders import numbered
from storage.repository import Clock, SqlRepository
from storage.settings import is_postgres_url, redact
from storage.sql.steps import Body

T = TypeVar("T")
P = ParamSpec("P")

#: Connections per store (per bot process).  A tap needs one for a few milliseconds; ten serve
#: hundreds of taps a second and leave room for several workers under PostgreSQL's default
#: ``max_connections`` of 100.
DEFAULT_POOL_SIZE = 10

#: How often a transaction the server aborted as a deadlock victim or serialisation failure is
#: run again before the error is raised.
TRANSIENT_RETRIES = 3


@contextlib.contextmanager
def translate_errors() -> Iterator[None]:
    """Turn asyncpg's exceptions into :class:`StorageError` subclasses (cause kept)."""
    try:
        yield
    except StorageError:
        raise
    except (asyncpg.IntegrityConstraintViolationError, asyncpg.DataError) as exc:
        raise ConstraintError(str(exc)) from exc
    except (
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
        asyncpg.InternalClientError,  # e.g. the connection died in the middle of a statement
        OSError,
    ) as exc:
        raise DatabaseError(str(exc) or type(exc).__name__) from exc


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """A connection going back to the pool keeps its session as it is.

    asyncpg's default sends ``SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET
    ALL`` on every release: one more round trip per statement for a read (``pool.fetch``), and
    the bot's commonest cost (measured: a third of a tap's round trips).  This store changes no
    session state: no ``SET``, ``LISTEN`` or cursors, and the migrations' advisory lock is
    unlocked by them.  An open transaction is still rolled back (asyncpg does that before
    calling this)."""


class PostgresStorage(SqlRepository):
    """:class:`Storage` in a PostgreSQL database.  Create it with :meth:`open`."""

    def __init__(self, pool: asyncpg.Pool, url: str, clock: Clock | None = None) -> None:
        self._pool = pool
        self._url = url
        self._clock = clock or (lambda: datetime.now(UTC))
        self._running: set[asyncio.Task[Any]] = set()
        self._closed = False

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        pool_size: int = DEFAULT_POOL_SIZE,
        clock: Clock | None = None,
    ) -> Self:
        """Connect to ``url`` (``postgresql://user:password@host:port/database``) and migrate.

        The database must exist (``createdb``); its tables are created on first open.  Raises
        :class:`~storage.errors.DatabaseTooNewError` for a schema written by newer code,
        :class:`~storage.errors.ForeignDatabaseError` for a database holding other tables,
        :class:`~storage.errors.DatabaseError` if the server cannot be reached.
        """
        if not is_postgres_url(url):
            raise ValueError(f"not a PostgreSQL URL: {redact(url)!r}")
        if pool_size < 1:
            raise ValueError("pool_size must be at least 1")
        where = redact(url)
        with translate_errors():
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=pool_size, reset=_nothing_to_reset
            )
        try:
            with translate_errors():
                async with pool.acquire() as conn:  # checked under the migration lock
                    await migrate(conn, where=where)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, clock)

    @property
    def url(self) -> str:
        """The database's URL, without its password."""
        return redact(self._url)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self.settle()
        await self._pool.close()

    async def backup(self, target: str | Path) -> None:
        """A consistent snapshot of the whole database as a SQLite file (``python -m
        storage.copy`` brings it back); read in one REPEATABLE READ transaction."""
        from storage.copy import copy_postgres_to_sqlite

        await copy_postgres_to_sqlite(self._pool, Path(target))

    # -- running statements --------------------------------------------------------------------

    async def _write(self, body: Callable[..., Body[T]], *args: Any) -> T:
        """Run ``body`` as one transaction, to the end even if the caller is cancelled."""
        return await self._shielded(self._transaction(body, *args))

    async def _shielded(self, work: Coroutine[Any, Any, T]) -> T:
        """Await ``work`` in a task of its own that the caller's cancellation does not reach.

        Cancelling asyncpg in the middle of a statement makes it send a cancel request over a
        new connection and reset the pooled one; letting the statement finish is cheaper, and
        for a write it is what keeps "all or nothing" plain: the transaction commits or rolls
        back on its own, and :meth:`close` waits for it.
        """
        if self._closed:
            work.close()
            raise DatabaseError("the store is closed")
        task = asyncio.ensure_future(work)
        self._running.add(task)
        task.add_done_callback(self._settled)
        return await asyncio.shield(task)

    def _settled(self, task: asyncio.Task[Any]) -> None:
        self._running.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: a caller that gave up is not told, nor is the log

    async def settle(self) -> None:
        """Wait until every statement started so far has finished, those of callers that were
        cancelled included."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    async def _transaction(self, body: Callable[..., Body[T]], *args: Any) -> T:
        for attempt in range(TRANSIENT_RETRIES + 1):
            try:
                with translate_errors():
                    async with self._pool.acquire() as conn:
                        return await run(conn, body, *args)
            except DatabaseError as exc:
                transient = isinstance(
                    exc.__cause__, (asyncpg.DeadlockDetectedError, asyncpg.SerializationError)
                )
                if not transient or attempt == TRANSIENT_RETRIES:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def _fetch_all(self, sql: str, params: Sequence[Any]) -> list[asyncpg.Record]:
        return await self._shielded(self._read(numbered(sql), params))

    async def _read(self, sql: str, params: Sequence[Any]) -> list[asyncpg.Record]:
        with translate_errors():
            return list(await self._pool.fetch(sql, *params))
