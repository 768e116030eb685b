"""One way of talking to SQLite: the writer and every reader are plain connections, each in a
thread of its own, given whole functions; readers cannot write and never wait for the
writer."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest

from storage import DatabaseError, SqliteStorage, StorageError

from .conftest import ALICE

pytestmark = pytest.mark.backends("sqlite")  # the SQLite connection threads


def settings(conn: sqlite3.Connection) -> tuple[object, ...]:
    names = ("journal_mode", "foreign_keys", "busy_timeout", "synchronous", "query_only")
    return tuple(conn.execute(f"PRAGMA {name}").fetchone()[0] for name in names)


def own_thread(conn: sqlite3.Connection) -> str:
    return threading.current_thread().name


async def test_every_connection_has_the_same_pragmas_and_a_thread_of_its_own(
    store: SqliteStorage,
) -> None:
    pool = store._pool
    assert await pool.writer.run(settings) == ("wal", 1, 5000, 2, 0)  # FULL = 2
    readers = {await pool.read(own_thread) for _ in range(8)}
    assert readers <= {"sqlite-reader-0", "sqlite-reader-1"} and readers
    assert await pool.read(settings) == ("wal", 1, 5000, 2, 1)  # query_only
    assert await pool.writer.run(own_thread) == "sqlite-writer"


async def test_a_reader_refuses_to_write(store: SqliteStorage) -> None:
    def insert(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO users (user_id, display_name, created_at, updated_at) "
            "VALUES (1, 'x', 0, 0)"
        )

    with pytest.raises(DatabaseError, match="readonly"):
        await store._pool.read(insert)


async def test_reads_go_on_while_the_writer_is_busy(people: SqliteStorage) -> None:
    release, started = threading.Event(), threading.Event()

    def hold(_: sqlite3.Connection) -> None:
        started.set()
        release.wait(10)

    busy = asyncio.ensure_future(people._pool.writer.transaction(hold))
    await asyncio.to_thread(started.wait, 10)
    try:
        user = await asyncio.wait_for(people.get_user(ALICE), 2)  # not behind the writer
        assert user.user_id == ALICE
    finally:
        release.set()
        await busy


async def test_a_closed_store_refuses_reads(store: SqliteStorage) -> None:
    await store.close()
    with pytest.raises(StorageError, match="closed"):
        await store.get_user(ALICE)
