"""``python -m storage.copy``: a SQLite database moved into PostgreSQL, whole, verified, and
idempotent; and a PostgreSQL store's backup (the same copy, the other way)."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import asyncpg
import pytest

from storage import (
    ClockUpdate,
    Colour,
    DiceRolls,
    GameResult,
    NewInvitation,
    NewMove,
    ResultKind,
    SqliteStorage,
    Storage,
)
from storage.copy import TABLES, copy_database
from storage.postgres import PostgresStorage
from tests.storage.conftest import ALICE, BORIS, CARMEN, GROUP, PRIVATE, FakeClock, new_game

pytestmark = pytest.mark.usefixtures("postgres_server")


async def fill(store: Storage, clock: FakeClock) -> None:
    """A bit of everything the bot writes: people, chats, games in every state, a move log,
    board messages, invitations, statistics, ratings and processed updates."""
    await store.upsert_user(ALICE, "Alice", username="alice", language="en")
    await store.upsert_user(BORIS, "Борис «Б»", language="ru")
    await store.upsert_user(CARMEN, "Carmen 🎲")
    await store.upsert_chat(GROUP, "supergroup", title="Нарды клуб")
    await store.upsert_chat(PRIVATE, "private")
    await store.update_chat_settings(GROUP, options={"cube": True, "name": "нарды"})
    for round_number in range(3):
        game = await store.create_game(new_game(ALICE, BORIS))
        for n in range(4):
            clock.advance(seconds=1)
            move = NewMove("white" if n % 2 else "black", (n % 6 + 1, 3), f"p{n}", f"pos{n}")
            game = await store.save_game(game.game_id, game.version, f"s{n}", moves=[move])
        await store.set_game_message(game.game_id, GROUP, 100 + round_number)
        winner = Colour.WHITE if round_number % 2 else Colour.BLACK
        await store.finish_game(
            game.game_id, game.version, "end", GameResult(winner, ResultKind.MARS, 2)
        )
    ai_game = await store.create_game(new_game(None, CARMEN, chat_id=PRIVATE))
    await store.save_game(ai_game.game_id, 1, "vs ai", update_id=41)
    abandoned = await store.create_game(new_game(CARMEN, ALICE, thread_id=3))
    await store.abandon_game(abandoned.game_id, 1)
    await store.create_invitation(
        NewInvitation(ALICE, "short", clock.now + timedelta(hours=1), chat_id=GROUP, token="t1")
    )
    await store.create_invitation(
        NewInvitation(BORIS, "long", clock.now + timedelta(hours=1), invitee_id=CARMEN)
    )
    await store.mark_update_processed(42)
    # provably fair dice (a secret that must come across byte for byte), a move clock, an offer
    secret = bytes(range(32))
    seed = await store.create_dice_seed(hashlib.sha256(secret).hexdigest(), secret, ["alice"])
    await store.add_client_seed(seed.seed_id, "carmen")
    soon = clock.now + timedelta(hours=1)
    clocked = await store.create_game(
        replace(
            new_game(CARMEN, BORIS, thread_id=7),
            dice_seed_id=seed.seed_id,
            dice=DiceRolls(0, (6, 5)),
            clock=ClockUpdate(1, CARMEN, soon, soon + timedelta(hours=1), soon + timedelta(days=1)),
        )
    )
    await store.offer_abandon(clocked.game_id, BORIS, clocked.version)


def run_copy(source: str, destination: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "storage.copy", source, destination],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def snapshot(store: Storage) -> dict[str, object]:
    """What the bot can read back, through the repository interface."""
    games = {}
    for user in (ALICE, BORIS, CARMEN):
        for game in await store.list_user_games(user, limit=100):
            games[game.game_id] = (game, await store.get_moves(game.game_id))
    return {
        "users": [await store.get_user(u) for u in (ALICE, BORIS, CARMEN)],
        "chats": [await store.get_chat(c) for c in (GROUP, PRIVATE)],
        "games": games,
        "messages": [await store.get_game_messages(g) for g in games],
        "stats": [await store.list_user_stats(u) for u in (ALICE, BORIS, CARMEN)],
        "ratings": [await store.get_rating(u, "long") for u in (ALICE, BORIS)],
        "board": await store.leaderboard("long", chat_id=GROUP),
        "invitations": [await store.list_invitations(u) for u in (ALICE, BORIS)],
        "clocks": [await store.get_clock(g) for g in games],
        "offers": [await store.get_abandon_offer(g) for g in games],
        "seeds": [await store.get_dice_seed(1), await store.get_dice_secret(1)],
    }


async def test_sqlite_to_postgres_copy_is_whole_verified_and_idempotent(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    source = tmp_path / "old.sqlite3"
    async with await SqliteStorage.open(source, clock=clock) as store:
        await fill(store, clock)
        expected = await snapshot(store)

    first = run_copy(f"sqlite:///{source}", postgres_url)
    assert first.returncode == 0, first.stderr
    lines = {line.split()[0]: line for line in first.stdout.splitlines()[1:-1]}
    assert set(lines) == {table.name for table in TABLES}
    assert all(line.endswith("ok") for line in lines.values())
    assert " 3 ->         3  inserted         3 " in lines["users"]
    assert "rows inserted" in first.stdout.splitlines()[-1]

    again = run_copy(str(source), postgres_url)  # a plain path works as well
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[-1].endswith("0 rows inserted (nothing changed)")
    assert [line.split("inserted")[1].split()[0] for line in again.stdout.splitlines()[1:-1]] == [
        "0"
    ] * len(TABLES)
    # the same checksums both times
    assert [line.split("sha256")[1] for line in first.stdout.splitlines()[1:-1]] == [
        line.split("sha256")[1] for line in again.stdout.splitlines()[1:-1]
    ]

    async with await PostgresStorage.open(postgres_url, clock=clock) as copy:
        assert await snapshot(copy) == expected
        # new games are numbered after the copied ones
        newest = max(expected["games"])  # type: ignore[type-var]
        fresh = await copy.create_game(new_game(ALICE, BORIS))
        assert fresh.game_id > newest
        assert not await copy.mark_update_processed(41)  # processed updates came along
        seed = await copy.create_dice_seed("0" * 64, bytes(32))
        assert seed.seed_id == 2  # the seed ids too
        clocked = await copy.get_clock(max(expected["games"]))  # type: ignore[type-var]
        assert clocked is not None and clocked.on_clock_user_id == CARMEN


async def test_a_destination_holding_other_rows_is_refused_and_left_alone(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    source = tmp_path / "old.sqlite3"
    async with await SqliteStorage.open(source, clock=clock) as store:
        await fill(store, clock)
    assert run_copy(str(source), postgres_url).returncode == 0
    async with await PostgresStorage.open(postgres_url, clock=clock) as copy:
        await copy.upsert_user(ALICE, "Alice on PostgreSQL")  # written after the copy
    async with await SqliteStorage.open(source, clock=clock) as store:
        await store.upsert_user(999, "Late")

    refused = run_copy(str(source), postgres_url)
    assert refused.returncode == 1
    assert "DIFFERENT" in refused.stderr and "nothing was committed" in refused.stderr
    users_line = next(line for line in refused.stderr.splitlines() if line.startswith("users"))
    assert "inserted         1" in users_line and users_line.endswith("DIFFERENT")
    async with await PostgresStorage.open(postgres_url, clock=clock) as copy:
        assert (await copy.get_user(ALICE)).display_name == "Alice on PostgreSQL"
        with pytest.raises(Exception, match="not found"):
            await copy.get_user(999)  # the late user was rolled back with the copy


async def test_postgres_backup_is_a_sqlite_file_with_the_same_rows(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    source = tmp_path / "old.sqlite3"
    async with await SqliteStorage.open(source, clock=clock) as store:
        await fill(store, clock)
        expected = await snapshot(store)
    originals = await copy_database(str(source), postgres_url)

    async with await PostgresStorage.open(postgres_url, clock=clock) as store:
        await store.backup(tmp_path / "backup.sqlite3")
    async with await SqliteStorage.open(tmp_path / "backup.sqlite3", clock=clock) as back:
        assert await snapshot(back) == expected
    # and copying the backup into the same PostgreSQL database again changes nothing
    round_trip = await copy_database(str(tmp_path / "backup.sqlite3"), postgres_url)
    assert [(r.table, r.source_sha256) for r in round_trip] == [
        (r.table, r.source_sha256) for r in originals
    ]
    assert sum(r.inserted for r in round_trip) == 0


async def test_the_copy_knows_every_table_of_both_schemas(
    tmp_path: Path, postgres_url: str
) -> None:
    """A migration that adds a table must add it to storage.copy.TABLES too."""
    await (await SqliteStorage.open(tmp_path / "s.sqlite3")).close()
    await (await PostgresStorage.open(postgres_url)).close()
    with sqlite3.connect(tmp_path / "s.sqlite3") as conn:
        in_sqlite = {
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
    conn.close()
    pg = await asyncpg.connect(postgres_url)
    try:
        in_postgres = {
            row[0]
            for row in await pg.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        }
    finally:
        await pg.close()
    listed = {table.name for table in TABLES} | {"schema_version"}
    assert in_sqlite == in_postgres == listed
