"""Fixtures for the storage tests: one suite, two real backends, and a controllable clock.

``store`` (and ``people`` on top of it) is parametrised over the backends: a SQLite file in
``tmp_path`` and a fresh database on the session's PostgreSQL server (tests/conftest.py).  A
test that needs something only one backend has asks for ``db_path`` (SQLite) or
``postgres_url`` itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from storage import NewGame, SqliteStorage, Storage

ALICE, BORIS, CARMEN, DMITRY = 111, 222, 333, 444
GROUP = -1001234567890
PRIVATE = 111


class FakeClock:
    """A clock the test moves by hand, so expiries and timestamps are exact."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> datetime:
        self.now += timedelta(**kwargs)
        return self.now


def sample_state(turn: int = 0, variant: str = "long") -> str:
    """Stand-in for the engine's serialised game: opaque, versioned JSON text."""
    return json.dumps(
        {
            "format": 1,
            "variant": variant,
            "turn": turn,
            "board": [15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            "pending": {"dice": [6, 5], "steps": []},
            "note": "Длинные нарды",
        },
        ensure_ascii=False,
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "nardy.sqlite3"


BACKENDS = ("sqlite", "postgresql")


@dataclass(frozen=True)
class Backend:
    """One backend's database for one test: open more stores on it, reach below the API."""

    name: str
    location: str  # a SQLite file path or a PostgreSQL URL

    async def open(self, clock: FakeClock | None = None) -> Storage:
        """Another store on the same database (as a second bot process would open it)."""
        if self.name == "sqlite":
            return await SqliteStorage.open(self.location, clock=clock)
        from storage.postgres import PostgresStorage

        return await PostgresStorage.open(self.location, clock=clock)

    async def settle(self, store: Storage) -> None:
        """Wait until no write of a cancelled caller is still running: SQLite's writer thread
        runs them in order, so one more write queues behind them; PostgreSQL runs them side by
        side, in tasks the store can wait for."""
        if self.name == "sqlite":
            await store.mark_update_processed(-1)
        else:
            await store.settle()  # type: ignore[attr-defined]

    async def execute(self, store: Storage, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one raw statement (``?`` placeholders) in its own transaction, past every
        check of the repository, to prove what the schema itself enforces."""
        if self.name == "sqlite":
            assert isinstance(store, SqliteStorage)
            await store._pool.writer.transaction(lambda conn: conn.execute(sql, params))
            return
        from storage.postgres.store import translate_errors

        numbered = iter(range(1, len(params) + 1))
        dialect = re.sub(r"\?", lambda _: f"${next(numbered)}", sql)
        with translate_errors():
            await store._pool.execute(dialect, *params)  # type: ignore[attr-defined]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run every test that uses a store once per backend; a module or test marked
    ``@pytest.mark.backends("sqlite")`` tests something only that backend has."""
    if "backend" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("backends")
        names = marker.args if marker is not None else BACKENDS
        metafunc.parametrize("backend", names, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest, db_path: Path) -> Backend:
    if request.param == "sqlite":
        return Backend("sqlite", str(db_path))
    return Backend("postgresql", request.getfixturevalue("postgres_url"))


@pytest.fixture
async def store(backend: Backend, clock: FakeClock) -> AsyncIterator[Storage]:
    storage = await backend.open(clock)
    try:
        yield storage
    finally:
        await storage.close()


@pytest.fixture
async def people(store: Storage) -> Storage:
    """The store with four users, a group chat and Alice's private chat."""
    await store.upsert_user(ALICE, "Alice", username="alice", language="en")
    await store.upsert_user(BORIS, "Борис", language="ru")
    await store.upsert_user(CARMEN, "Carmen")
    await store.upsert_user(DMITRY, "Дмитрий")
    await store.upsert_chat(GROUP, "supergroup", title="Нарды клуб")
    await store.upsert_chat(PRIVATE, "private")
    return store


def new_game(
    white: int | None = ALICE,
    black: int | None = BORIS,
    *,
    chat_id: int = GROUP,
    thread_id: int = 0,
    variant: str = "long",
    match_length: int = 1,
) -> NewGame:
    ai_level = "easy" if white is None or black is None else None
    return NewGame(
        variant=variant,
        chat_id=chat_id,
        thread_id=thread_id,
        white_user_id=white,
        black_user_id=black,
        state=sample_state(0, variant),
        match_length=match_length,
        options={"doubling_cube": variant == "short"},
        ai_level=ai_level,
    )
