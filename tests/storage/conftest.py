"""Fixtures for the storage tests: a real SQLite file in ``tmp_path`` and a controllable clock."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from storage import NewGame, SqliteStorage

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


@pytest.fixture
async def store(db_path: Path, clock: FakeClock) -> AsyncIterator[SqliteStorage]:
    storage = await SqliteStorage.open(db_path, clock=clock)
    try:
        yield storage
    finally:
        await storage.close()


@pytest.fixture
async def people(store: SqliteStorage) -> SqliteStorage:
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
