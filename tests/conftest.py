"""Shared pytest fixtures.  Each block below belongs to one part of the test suite; keep blocks
self-contained (own imports inside the block) so they can be edited independently."""

from __future__ import annotations

# ============================================================================================
# BEGIN fake Telegram fixtures (owner: tests/fake_telegram.py, docs/testing.md)
# ============================================================================================
from collections.abc import AsyncIterator

import pytest_asyncio
from aiogram import Bot

from tests.fake_telegram import FakeTelegram


@pytest_asyncio.fixture
async def fake_telegram() -> AsyncIterator[FakeTelegram]:
    """A running fake Bot API server on 127.0.0.1, fresh for each test."""
    async with FakeTelegram() as server:
        yield server


@pytest_asyncio.fixture
async def fake_bot(fake_telegram: FakeTelegram) -> AsyncIterator[Bot]:
    """A real aiogram ``Bot`` talking HTTP to ``fake_telegram``; its session is closed after."""
    bot = fake_telegram.make_bot()
    try:
        yield bot
    finally:
        await bot.session.close()


# ============================================================================================
# END fake Telegram fixtures
# ============================================================================================


# ============================================================================================
# BEGIN PostgreSQL fixtures (owner: tests/pg_server.py, docs/storage.md "Tests")
# ============================================================================================
import itertools  # noqa: E402
import os  # noqa: E402
from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402

from tests.pg_server import PostgresServer, PostgresUnavailable  # noqa: E402

_database_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the whole session, on loopback, in a temporary directory.

    Without the server binaries the tests that need it fail in CI (``CI`` is set there: the
    PostgreSQL backend must really be tested) and are skipped, with the reason, elsewhere.
    """
    try:
        server = PostgresServer().start()
    except PostgresUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must test the PostgreSQL backend: {exc}", pytrace=False)
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest_asyncio.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """A fresh, empty database on the session's server (CREATE DATABASE takes ~20 ms)."""
    import asyncpg

    name = f"test_{os.getpid()}_{next(_database_numbers)}"
    admin = await asyncpg.connect(postgres_server.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    finally:
        await admin.close()
    try:
        yield postgres_server.url(name)
    finally:
        admin = await asyncpg.connect(postgres_server.url())
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


# ============================================================================================
# END PostgreSQL fixtures
# ============================================================================================


# ============================================================================================
# BEGIN Redis fixtures (owner: tests/redis_server.py, bot/shared.py)
# ============================================================================================
from tests.redis_server import RedisServer, RedisUnavailable  # noqa: E402

_redis_namespaces = itertools.count(1)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One real Redis server for the whole session, on loopback. Without ``redis-server`` the
    tests that need it fail in CI (shared send budgets must really be tested), else skip."""
    try:
        server = RedisServer().start()
    except RedisUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must test the shared send budgets: {exc}", pytrace=False)
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The session's Redis server; tests keep apart by a namespace of their own
    (``redis_namespace``)."""
    return redis_server.url()


@pytest.fixture
def redis_namespace() -> str:
    return f"test{os.getpid()}x{next(_redis_namespaces)}"


# ============================================================================================
# END Redis fixtures
# ============================================================================================
