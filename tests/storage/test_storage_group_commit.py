"""Group commit in the writer thread: transactions that queue up share one COMMIT, and each
still behaves exactly like a transaction of its own."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest

from storage import ConstraintError, NotFoundError, SqliteStorage
from storage.sqlite.connections import ConnectionThread

from .conftest import ALICE, BORIS

pytestmark = pytest.mark.backends("sqlite")  # the SQLite writer thread's group commit


def writer_of(store: SqliteStorage) -> ConnectionThread:
    return store._pool.writer


async def hold_the_writer(store: SqliteStorage) -> tuple[asyncio.Future[None], threading.Event]:
    """Occupy the writer thread until the returned event is set, so that what the test sends
    next queues up and is committed as one group."""
    release = threading.Event()
    started = threading.Event()

    def block(_: sqlite3.Connection) -> None:
        started.set()
        release.wait(10)

    busy = asyncio.ensure_future(writer_of(store).transaction(block))
    await asyncio.to_thread(started.wait, 10)
    return busy, release


def insert_user(conn: sqlite3.Connection, user_id: int, fail_after: bool) -> int:
    conn.execute(
        "INSERT INTO users (user_id, display_name, created_at, updated_at) VALUES (?, ?, 0, 0)",
        (user_id, f"user {user_id}"),
    )
    if fail_after:
        raise ValueError(f"body {user_id} fails after its insert")
    return user_id * 10


async def test_queued_transactions_share_a_commit_and_keep_their_own_outcomes(
    store: SqliteStorage,
) -> None:
    writer = writer_of(store)
    commits_before, transactions_before = writer.commits, writer.transactions
    busy, release = await hold_the_writer(store)
    calls = [
        asyncio.ensure_future(writer.transaction(insert_user, 1000 + i, i % 5 == 3))
        for i in range(40)
    ]
    await asyncio.sleep(0.05)
    release.set()
    await busy
    outcomes = await asyncio.gather(*calls, return_exceptions=True)

    for i, outcome in enumerate(outcomes):
        if i % 5 == 3:
            assert isinstance(outcome, ValueError) and str(1000 + i) in str(outcome)
        else:
            assert outcome == (1000 + i) * 10  # each caller gets its own body's result
    # The failing bodies were rolled back alone; every other insert is committed.
    for i in range(40):
        expected_present = i % 5 != 3
        try:
            await store.get_user(1000 + i)
            present = True
        except NotFoundError:
            present = False
        assert present is expected_present, i
    assert writer.transactions - transactions_before == 41  # the 40 and the one holding
    assert writer.commits - commits_before <= 3  # measured: the holder's, then one for all 40


async def test_a_constraint_error_in_a_group_is_reported_to_its_caller_only(
    store: SqliteStorage,
) -> None:
    await store.upsert_user(ALICE, "Alice")
    writer = writer_of(store)
    busy, release = await hold_the_writer(store)
    ok_before = asyncio.ensure_future(writer.transaction(insert_user, BORIS, False))
    duplicate = asyncio.ensure_future(writer.transaction(insert_user, ALICE, False))
    ok_after = asyncio.ensure_future(store.upsert_user(777, "Семён"))
    await asyncio.sleep(0.05)
    release.set()
    await busy
    assert await ok_before == BORIS * 10
    with pytest.raises(ConstraintError):
        await duplicate
    assert (await ok_after).display_name == "Семён"
    assert (await store.get_user(ALICE)).display_name == "Alice"


async def test_a_caller_that_gives_up_does_not_stop_its_commit(store: SqliteStorage) -> None:
    writer = writer_of(store)
    busy, release = await hold_the_writer(store)
    abandoned = asyncio.ensure_future(writer.transaction(insert_user, 4242, False))
    await asyncio.sleep(0.02)
    abandoned.cancel()
    kept = asyncio.ensure_future(writer.transaction(insert_user, 4343, False))
    release.set()
    await busy
    assert await kept == 43430
    # Queued before it was cancelled, the body still ran to its commit (never half-way).
    assert (await store.get_user(4242)).display_name == "user 4242"
