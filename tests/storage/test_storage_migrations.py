"""Schema migrations: from an empty file, from every earlier version, and refusals.

Each older database is built by running the real migrations up to that version and filling it
with rows through plain SQL (the shape the code of that time wrote), then opened by the current
code, which must upgrade it without losing a row.
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from storage import (
    DatabaseTooNewError,
    ForeignDatabaseError,
    GameStatus,
    InvitationState,
    SqliteStorage,
)
from storage.sqlite.connections import configure
from storage.sqlite.migrations import (
    APPLICATION_ID,
    LATEST_VERSION,
    MIGRATIONS,
    Migration,
    migrate,
    schema_version,
)
from storage.sqlite.rows import from_us

US = 1_700_000_000_000_000  # a fixed time, in the stored unit (microseconds)


def schema_of(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
            "ORDER BY type, name"
        ).fetchall()
    conn.close()
    return rows


def open_raw(path: Path) -> sqlite3.Connection:
    """A connection set up like the store's writer (autocommit, the same PRAGMAs)."""
    conn = sqlite3.connect(path, isolation_level=None)
    configure(conn, synchronous="NORMAL", busy_timeout_ms=5000, read_only=False)
    return conn


def build_database(path: Path, version: int) -> None:
    """A database at ``version`` holding the rows the code of that version would have written."""
    conn = open_raw(path)
    try:
        assert migrate(conn, target=version) == version
        if version >= 1:
            conn.executemany(
                "INSERT INTO users (user_id, display_name, username, language, created_at, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                [(7, "Алия", "aliya", "ru", US, US), (8, "Ben", None, None, US, US)],
            )
            conn.execute(
                "INSERT INTO chats (chat_id, chat_type, title, language, default_variant, "
                "match_length, options_json, created_at, updated_at) "
                "VALUES (-5, 'group', 'old chat', 'ru', 'short', 3, '{\"cube\":true}', ?, ?)",
                (US, US),
            )
            conn.execute(
                "INSERT INTO games (game_id, variant, status, chat_id, thread_id, white_user_id, "
                "black_user_id, ai_level, match_length, options_json, score_white, score_black, "
                "state, version, move_count, created_at, updated_at) "
                "VALUES (1, 'short', 'active', -5, 0, 7, 8, NULL, 3, '{}', 1, 0, "
                "'{\"old\":true}', 4, 2, ?, ?)",
                (US, US),
            )
            conn.executemany(
                "INSERT INTO moves (game_id, seq, colour, player_user_id, die1, die2, play, "
                "position_id, game_version, created_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (1, "white", 7, 3, 1, "8/5 6/5", "pos-a", 2, US),
                    (2, "black", 8, 6, 6, "24/18(2) 13/7(2)", "pos-b", 3, US),
                ],
            )
            conn.execute(
                "INSERT INTO game_messages (game_id, chat_id, thread_id, kind, message_id, "
                "updated_at) VALUES (1, -5, 0, 'board', 99, ?)",
                (US,),
            )
        if version >= 2:
            conn.execute(
                "INSERT INTO invitations (token, inviter_id, invitee_id, chat_id, thread_id, "
                "variant, match_length, options_json, state, created_at, expires_at) "
                "VALUES ('tok-old', 7, NULL, -5, 0, 'long', 1, '{}', 'pending', ?, ?)",
                (US, US + 3_600_000_000),
            )
        if version >= 3:
            conn.execute(
                "INSERT INTO ratings (user_id, variant, rating, games, peak, updated_at) "
                "VALUES (7, 'short', 1530.5, 3, 1540.0, ?)",
                (US,),
            )
            conn.execute(
                "INSERT INTO user_stats (user_id, variant, vs_ai, games, wins, losses, "
                "wins_oin, points_won) VALUES (7, 'short', 0, 3, 2, 1, 2, 2)"
            )
        if version >= 4:
            conn.execute(
                "INSERT INTO processed_updates (update_id, processed_at) VALUES (5, ?)", (US,)
            )
        if version >= 5:
            conn.execute(
                "INSERT INTO dice_seeds (seed_id, commitment, server_seed, client_seeds, rolls, "
                "created_at) VALUES (3, ?, ?, '[\"tg:user=7\"]', '6152', ?)",
                ("ab" * 32, bytes(32), US),
            )
            conn.execute("UPDATE games SET dice_seed_id = 3 WHERE game_id = 1")
        # Version 6 (clocks, offers, end reasons) holds no rows here; version 7 adds clocks to the
        # games already running, which the upgrade test checks.
    finally:
        conn.close()


def test_migrations_are_numbered_from_one_without_gaps() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST_VERSION + 1))
    assert all(m.description for m in MIGRATIONS)


@pytest.mark.parametrize("how", ["missing", "zero-byte"])
async def test_empty_file_is_migrated_to_latest(tmp_path: Path, how: str) -> None:
    path = tmp_path / "fresh.sqlite3"
    if how == "zero-byte":
        path.touch()
    store = await SqliteStorage.open(path)
    await store.close()

    with sqlite3.connect(path) as conn:
        versions = conn.execute("SELECT version, description FROM schema_version").fetchall()
        assert [v for v, _ in versions] == list(range(1, LATEST_VERSION + 1))
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    assert {
        "users",
        "chats",
        "games",
        "moves",
        "game_messages",
        "invitations",
        "user_stats",
        "ratings",
        "processed_updates",
        "dice_seeds",
        "game_clocks",
        "game_offers",
        "inline_messages_lost",
        "game_reviews",
        "schema_version",
    } <= tables


@pytest.mark.parametrize("start", range(LATEST_VERSION))
async def test_upgrade_from_every_earlier_version_keeps_data(tmp_path: Path, start: int) -> None:
    old = tmp_path / f"v{start}.sqlite3"
    build_database(old, start)

    store = await SqliteStorage.open(old)
    try:
        if start >= 1:
            user = await store.get_user(7)
            assert (user.display_name, user.username, user.language) == ("Алия", "aliya", "ru")
            chat = await store.get_chat(-5)
            assert chat.options == {"cube": True}
            assert chat.match_length == 3
            game = await store.get_game(1)
            assert game.status is GameStatus.ACTIVE
            assert (game.version, game.move_count, game.state) == (4, 2, '{"old":true}')
            assert game.white_rating_change is None  # column added by migration 3
            moves = await store.get_moves(1)
            assert [(m.seq, m.dice, m.play) for m in moves] == [
                (1, (3, 1), "8/5 6/5"),
                (2, (6, 6), "24/18(2) 13/7(2)"),
            ]
            assert [m.message_id for m in await store.get_game_messages(1)] == [99]
            assert game.end_reason is None  # column added by migration 6
            # migration 7: a game running before move clocks is abandoned 30 days after its
            # last write, like any other
            # (a database built at version 7 or later got its rows after that migration)
            backfilled = await store.get_clock(1)
            if start < 7:
                assert backfilled is not None and backfilled.deadline_at is None
                assert (
                    backfilled.abandon_at == backfilled.next_due_at == from_us(US) + timedelta(30)
                )
            assert game.inline_message_id is None  # column added by migration 8
            # migration 9: reviews start empty
            assert await store.get_review(1) is None
            assert game.dice_seed_id == (3 if start >= 5 else None)
            # the upgraded database keeps working: the next move continues the log
            saved = await store.save_game(1, 4, '{"new":true}')
            assert saved.version == 5
        if start >= 2:
            invitation = await store.get_invitation("tok-old")
            assert invitation.state is InvitationState.PENDING
            assert invitation.invitee_username is None  # column added by migration 8
        if start >= 3:
            rating = await store.get_rating(7, "short")
            assert (rating.rating, rating.games, rating.peak) == (1530.5, 3, 1540.0)
            stats = await store.get_user_stats(7, "short")
            assert (stats.games, stats.wins, stats.losses, stats.wins_oin) == (3, 2, 1, 2)
        if start >= 4:
            assert not await store.mark_update_processed(5)
        if start >= 5:
            seed = await store.get_dice_seed(3)
            assert (seed.rolls, seed.client_seeds, seed.server_seed) == (
                (6, 1, 5, 2),
                ("tg:user=7",),
                None,
            )
    finally:
        await store.close()

    fresh = tmp_path / "fresh.sqlite3"
    await (await SqliteStorage.open(fresh)).close()
    assert schema_of(old) == schema_of(fresh)


async def test_newer_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    await (await SqliteStorage.open(path)).close()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, 0)",
            (LATEST_VERSION + 1, "from the future"),
        )
    conn.close()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()

    with pytest.raises(DatabaseTooNewError) as caught:
        await SqliteStorage.open(path)
    assert caught.value.database_version == LATEST_VERSION + 1
    assert caught.value.code_version == LATEST_VERSION
    assert "upgrade the bot" in str(caught.value)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest


async def test_foreign_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    conn.close()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(ForeignDatabaseError):
        await SqliteStorage.open(path)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert schema_of(path) == [
        ("table", "invoices", "CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    ]


def test_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    migrations = (
        Migration(1, "good", ("CREATE TABLE a (x INTEGER)",)),
        Migration(2, "bad", ("CREATE TABLE b (x INTEGER)", "INSERT INTO nowhere VALUES (1)")),
    )
    conn = open_raw(tmp_path / "m.sqlite3")
    try:
        with pytest.raises(sqlite3.OperationalError, match="nowhere"):
            migrate(conn, migrations=migrations)
        assert schema_version(conn) == 1
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        assert "a" in names and "b" not in names  # step 2's first statement was rolled back
        assert not conn.in_transaction
    finally:
        conn.close()


def test_badly_numbered_migrations_are_rejected(tmp_path: Path) -> None:
    conn = open_raw(tmp_path / "m.sqlite3")
    try:
        with pytest.raises(ValueError, match="without gaps"):
            migrate(conn, migrations=(Migration(2, "two", ("SELECT 1",)),))
    finally:
        conn.close()


async def test_two_stores_opening_an_empty_file_at_once_migrate_it_once(tmp_path: Path) -> None:
    path = tmp_path / "race.sqlite3"
    stores = await asyncio.gather(*(SqliteStorage.open(path) for _ in range(4)))
    for store in stores:
        await store.close()
    with sqlite3.connect(path) as conn:
        versions = [row[0] for row in conn.execute("SELECT version FROM schema_version")]
    conn.close()
    assert versions == list(range(1, LATEST_VERSION + 1))
