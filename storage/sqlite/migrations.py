"""Numbered schema migrations for the SQLite backend.

Rules for whoever adds one:

* append a :class:`Migration` with the next number to
  :func:`storage.sql.schema.later_migrations` (both backends get it; 1 to 6 are SQLite's own
  here); never edit or renumber a released one;
* a migration is a tuple of single SQL statements, run in **one transaction together with the
  insert of its version row**, so a crash leaves the database at the previous version or at
  this one, never in between (SQLite's DDL is transactional);
* no ``executescript`` (Python's sqlite3 commits before running a script) and no statements
  that cannot run inside a transaction (``VACUUM``, ``PRAGMA foreign_keys``); a table rebuild
  needs its own helper that turns foreign keys off around the transaction;
* explicit column lists everywhere, so adding a column never changes what old code reads.

The schema starts as four migrations rather than one so that the upgrade path (data written by
an older version surviving every later step) is exercised by the tests from day one.

Time columns hold Unix time in microseconds (UTC), so times read back exactly.  ``thread_id``
is 0 for "no forum topic" rather than NULL, because NULLs are all distinct in a UNIQUE index and
the one-active-game rule must hold for chats without topics too.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path

from storage.errors import DatabaseTooNewError, ForeignDatabaseError
from storage.sql.schema import SQLITE_TYPES, Migration, goal, later_migrations, version_table

#: 'NARD' -- marks the file as ours for `file(1)` and for the foreign-database check.
APPLICATION_ID = 0x4E415244


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "users, chats, games, move log, board messages",
        (
            f"PRAGMA application_id = {APPLICATION_ID}",
            """
            CREATE TABLE users (
                user_id      INTEGER PRIMARY KEY,
                display_name TEXT    NOT NULL,
                username     TEXT,
                language     TEXT,
                created_at   INTEGER NOT NULL,
                updated_at   INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE chats (
                chat_id         INTEGER PRIMARY KEY,
                chat_type       TEXT    NOT NULL
                    CHECK (chat_type IN ('private', 'group', 'supergroup', 'channel')),
                title           TEXT,
                language        TEXT,
                default_variant TEXT    NOT NULL DEFAULT 'long'
                    CHECK (default_variant IN ('long', 'short')),
                match_length    INTEGER NOT NULL DEFAULT 1 CHECK (match_length >= 1),
                options_json    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options_json)),
                created_at      INTEGER NOT NULL,
                updated_at      INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE games (
                game_id       INTEGER PRIMARY KEY,
                variant       TEXT    NOT NULL CHECK (variant IN ('long', 'short')),
                status        TEXT    NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'finished', 'abandoned')),
                chat_id       INTEGER NOT NULL REFERENCES chats (chat_id),
                thread_id     INTEGER NOT NULL DEFAULT 0,
                white_user_id INTEGER REFERENCES users (user_id),
                black_user_id INTEGER REFERENCES users (user_id),
                ai_level      TEXT,
                match_length  INTEGER NOT NULL DEFAULT 1 CHECK (match_length >= 1),
                options_json  TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options_json)),
                score_white   INTEGER NOT NULL DEFAULT 0 CHECK (score_white >= 0),
                score_black   INTEGER NOT NULL DEFAULT 0 CHECK (score_black >= 0),
                state         TEXT    NOT NULL,
                version       INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
                move_count    INTEGER NOT NULL DEFAULT 0 CHECK (move_count >= 0),
                winner        TEXT CHECK (winner IN ('white', 'black')),
                result_kind   TEXT CHECK (result_kind IN ('oin', 'mars', 'koks', 'drop')),
                points        INTEGER CHECK (points >= 1),
                created_at    INTEGER NOT NULL,
                updated_at    INTEGER NOT NULL,
                finished_at   INTEGER,
                -- at least one person plays; a computer seat has a NULL user and a level
                CHECK (white_user_id IS NOT NULL OR black_user_id IS NOT NULL),
                CHECK ((white_user_id IS NULL OR black_user_id IS NULL) = (ai_level IS NOT NULL)),
                CHECK (white_user_id IS NOT black_user_id),
                -- a result exactly when finished
                CHECK ((status = 'finished') = (winner IS NOT NULL)),
                CHECK ((winner IS NULL) = (result_kind IS NULL)),
                CHECK ((winner IS NULL) = (points IS NULL)),
                CHECK ((status = 'active') = (finished_at IS NULL))
            )
            """,
            # The rule "at most one active game per chat and forum topic", enforced by SQLite
            # even against a buggy caller or a second process.
            """
            CREATE UNIQUE INDEX games_one_active_per_topic
                ON games (chat_id, thread_id) WHERE status = 'active'
            """,
            # Not (user, updated_at): updated_at changes on every save, and each such index
            # would cost one more page written per move; a user has few games to sort.
            "CREATE INDEX games_by_white ON games (white_user_id)",
            "CREATE INDEX games_by_black ON games (black_user_id)",
            "CREATE INDEX games_by_chat ON games (chat_id, variant, status)",
            """
            CREATE TABLE moves (
                game_id        INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
                seq            INTEGER NOT NULL CHECK (seq >= 1),
                colour         TEXT    NOT NULL CHECK (colour IN ('white', 'black')),
                player_user_id INTEGER REFERENCES users (user_id),
                die1           INTEGER CHECK (die1 BETWEEN 1 AND 6),
                die2           INTEGER CHECK (die2 BETWEEN 1 AND 6),
                play           TEXT    NOT NULL,
                position_id    TEXT    NOT NULL,
                game_version   INTEGER NOT NULL,
                created_at     INTEGER NOT NULL,
                PRIMARY KEY (game_id, seq),
                CHECK ((die1 IS NULL) = (die2 IS NULL))
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE game_messages (
                game_id    INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
                chat_id    INTEGER NOT NULL,
                thread_id  INTEGER NOT NULL DEFAULT 0,
                kind       TEXT    NOT NULL DEFAULT 'board',
                message_id INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (game_id, chat_id, thread_id, kind)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX game_messages_by_message ON game_messages (chat_id, message_id)",
        ),
    ),
    Migration(
        2,
        "invitations",
        (
            """
            CREATE TABLE invitations (
                token        TEXT    PRIMARY KEY,
                inviter_id   INTEGER NOT NULL REFERENCES users (user_id),
                invitee_id   INTEGER REFERENCES users (user_id),
                chat_id      INTEGER REFERENCES chats (chat_id),
                thread_id    INTEGER NOT NULL DEFAULT 0,
                variant      TEXT    NOT NULL CHECK (variant IN ('long', 'short')),
                match_length INTEGER NOT NULL DEFAULT 1 CHECK (match_length >= 1),
                options_json TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options_json)),
                state        TEXT    NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
                created_at   INTEGER NOT NULL,
                expires_at   INTEGER NOT NULL,
                resolved_at  INTEGER,
                accepted_by  INTEGER REFERENCES users (user_id),
                game_id      INTEGER REFERENCES games (game_id),
                CHECK (invitee_id IS NOT inviter_id),
                CHECK ((state = 'pending') = (resolved_at IS NULL)),
                CHECK ((state = 'accepted') = (accepted_by IS NOT NULL))
            ) WITHOUT ROWID
            """,
            "CREATE INDEX invitations_pending ON invitations (expires_at) WHERE state = 'pending'",
            "CREATE INDEX invitations_by_chat ON invitations (chat_id, state)",
        ),
    ),
    Migration(
        3,
        "per-user statistics and Elo ratings",
        (
            """
            CREATE TABLE user_stats (
                user_id      INTEGER NOT NULL REFERENCES users (user_id),
                variant      TEXT    NOT NULL CHECK (variant IN ('long', 'short')),
                vs_ai        INTEGER NOT NULL CHECK (vs_ai IN (0, 1)),
                games        INTEGER NOT NULL DEFAULT 0,
                wins         INTEGER NOT NULL DEFAULT 0,
                losses       INTEGER NOT NULL DEFAULT 0,
                wins_oin     INTEGER NOT NULL DEFAULT 0,
                wins_mars    INTEGER NOT NULL DEFAULT 0,
                wins_koks    INTEGER NOT NULL DEFAULT 0,
                wins_drop    INTEGER NOT NULL DEFAULT 0,
                losses_oin   INTEGER NOT NULL DEFAULT 0,
                losses_mars  INTEGER NOT NULL DEFAULT 0,
                losses_koks  INTEGER NOT NULL DEFAULT 0,
                losses_drop  INTEGER NOT NULL DEFAULT 0,
                points_won   INTEGER NOT NULL DEFAULT 0,
                points_lost  INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, variant, vs_ai),
                CHECK (games = wins + losses)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE ratings (
                user_id    INTEGER NOT NULL REFERENCES users (user_id),
                variant    TEXT    NOT NULL CHECK (variant IN ('long', 'short')),
                rating     REAL    NOT NULL,
                games      INTEGER NOT NULL DEFAULT 0,
                peak       REAL    NOT NULL,
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, variant)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX ratings_board ON ratings (variant, rating DESC)",
            "ALTER TABLE games ADD COLUMN white_rating_change REAL",
            "ALTER TABLE games ADD COLUMN black_rating_change REAL",
        ),
    ),
    Migration(
        4,
        "processed Telegram updates (idempotent handling of redelivered updates)",
        (
            """
            CREATE TABLE processed_updates (
                update_id    INTEGER PRIMARY KEY,
                processed_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX processed_updates_by_time ON processed_updates (processed_at)",
        ),
    ),
    Migration(
        5,
        "provably fair dice: committed seeds, their dice, links from games and invitations",
        (
            # The secret seed lives here and nowhere else (not in the game state, which is
            # cached and shown in logs); `rolls` holds one digit per die, counter 0 first.
            """
            CREATE TABLE dice_seeds (
                seed_id      INTEGER PRIMARY KEY,
                commitment   TEXT    NOT NULL UNIQUE CHECK (length(commitment) = 64),
                server_seed  BLOB    NOT NULL CHECK (length(server_seed) = 32),
                client_seeds TEXT    NOT NULL DEFAULT '[]'
                    CHECK (json_valid(client_seeds) AND json_type(client_seeds) = 'array'),
                rolls        TEXT    NOT NULL DEFAULT '' CHECK (rolls NOT GLOB '*[^1-6]*'),
                created_at   INTEGER NOT NULL,
                revealed_at  INTEGER
            )
            """,
            "ALTER TABLE games ADD COLUMN dice_seed_id INTEGER REFERENCES dice_seeds (seed_id)",
            "CREATE INDEX games_by_dice_seed ON games (dice_seed_id) "
            "WHERE dice_seed_id IS NOT NULL",
            "ALTER TABLE invitations ADD COLUMN dice_seed_id INTEGER "
            "REFERENCES dice_seeds (seed_id)",
        ),
    ),
    Migration(
        6,
        "move clocks, abandonment offers, and why a game ended",
        (
            """
            CREATE TABLE game_clocks (
                game_id          INTEGER PRIMARY KEY
                    REFERENCES games (game_id) ON DELETE CASCADE,
                game_version     INTEGER NOT NULL,
                move_number      INTEGER NOT NULL,
                on_clock_user_id INTEGER REFERENCES users (user_id),
                remind_at        INTEGER,
                deadline_at      INTEGER,
                abandon_at       INTEGER,
                reminded         INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
                timed_out        INTEGER NOT NULL DEFAULT 0 CHECK (timed_out IN (0, 1)),
                next_due_at      INTEGER,
                updated_at       INTEGER NOT NULL
            ) WITHOUT ROWID
            """,
            # The scheduler's one query: the earliest pending event of any game.
            """
            CREATE INDEX game_clocks_due ON game_clocks (next_due_at)
                WHERE next_due_at IS NOT NULL
            """,
            """
            CREATE TABLE game_offers (
                game_id      INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
                kind         TEXT    NOT NULL CHECK (kind IN ('abandon')),
                offered_by   INTEGER NOT NULL REFERENCES users (user_id),
                game_version INTEGER NOT NULL,
                created_at   INTEGER NOT NULL,
                PRIMARY KEY (game_id, kind)
            ) WITHOUT ROWID
            """,
            "ALTER TABLE games ADD COLUMN end_reason TEXT "
            "CHECK (end_reason IN ('timeout', 'inactive', 'admin', 'agreement'))",
        ),
    ),
    *later_migrations(SQLITE_TYPES),  # 7 and on: written once for both backends
)

LATEST_VERSION = MIGRATIONS[-1].version

_VERSION_TABLE = version_table(SQLITE_TYPES)


def schema_version(conn: sqlite3.Connection) -> int:
    """The version recorded in the file, 0 for a database never migrated."""
    row = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if row is None:
        return 0
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def check_openable(
    conn: sqlite3.Connection,
    path: Path | str = "",
    migrations: Sequence[Migration] = MIGRATIONS,
) -> None:
    """Refuse a database newer than the code, or a non-empty one that is not ours.

    Both facts are read in one read transaction: another process may be creating the schema
    at this moment, and reading them apart could see its tables but not yet its version row.
    """
    conn.execute("BEGIN")
    try:
        _check_openable(conn, path, schema_version(conn), len(migrations))
    finally:
        conn.execute("ROLLBACK")


def _check_openable(
    conn: sqlite3.Connection, path: Path | str, version: int, code_version: int
) -> None:
    if version > code_version:
        raise DatabaseTooNewError(path, version, code_version)
    if version == 0:
        row = conn.execute(
            "SELECT COUNT(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ).fetchone()
        if row[0]:
            raise ForeignDatabaseError(path)


def migrate(
    conn: sqlite3.Connection,
    *,
    path: Path | str = "",
    migrations: Sequence[Migration] = MIGRATIONS,
    target: int | None = None,
) -> int:
    """Bring the database to ``target`` (default: the newest version) and return its version.

    ``conn`` is a plain connection in autocommit mode (``isolation_level=None``); the store
    runs this in its writer thread.  Each step re-reads the version inside its own
    ``BEGIN IMMEDIATE`` transaction, so two processes starting at once cannot both apply a
    migration: the second waits for the first's lock, then sees the new version and skips.
    A database whose version is above the code's newest is refused before anything is written.
    """
    wanted = goal(migrations, target)
    code_version = len(migrations)

    # Refuse early, without taking the write lock or writing anything.
    check_openable(conn, path, migrations)

    for migration in migrations[:wanted]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = schema_version(conn)
            _check_openable(conn, path, current, code_version)
            if current >= migration.version:
                conn.execute("ROLLBACK")
                continue
            if current != migration.version - 1:  # pragma: no cover - guarded by numbering
                raise RuntimeError(f"cannot apply migration {migration.version} to {current}")
            conn.execute(_VERSION_TABLE)
            for statement in migration.statements:
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.description, time.time_ns() // 1000),
            )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return schema_version(conn)
