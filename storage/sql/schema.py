"""The migrations' shape, and the later migrations themselves, written once for both backends.

Migrations 1 to 6 were written for each database by hand (``storage/sqlite/migrations.py``,
``storage/postgres/migrations.py``) and, being released, stay as they are.  From 7 on, each
statement is written once here with its column types filled in per database (:class:`Types`):
SQLite's ``INTEGER`` / ``REAL`` and ``WITHOUT ROWID`` tables, PostgreSQL's ``BIGINT`` /
``DOUBLE PRECISION`` (ids exceed 32 bits; times are Unix microseconds in both).  Whoever adds
a migration appends it to :func:`later_migrations`: both backends get it with the same number,
as the shared test suite requires.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    description: str
    statements: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Types:
    """What the two databases call the same column and table kinds."""

    integer: str  #: a 64-bit integer (ids, counters, times in microseconds)
    real: str  #: a double
    without_rowid: str  #: appended to a table keyed by its primary key alone


SQLITE_TYPES = Types(integer="INTEGER", real="REAL", without_rowid=" WITHOUT ROWID")
POSTGRES_TYPES = Types(integer="BIGINT", real="DOUBLE PRECISION", without_rowid="")

#: gameplay.clocks.ABANDON_AFTER (thirty days) in microseconds, for migration 7.
_THIRTY_DAYS_US = 30 * 86_400 * 1_000_000


def later_migrations(t: Types) -> tuple[Migration, ...]:
    """Migrations 7 and on, in the dialect whose types ``t`` names."""
    return (
        Migration(
            7,
            "abandonment times for the games already running when move clocks came",
            (
                # Thirty days after their last write, so the chats such games hold today are
                # freed by the same rule.
                f"""
                INSERT INTO game_clocks (game_id, game_version, move_number, on_clock_user_id,
                    remind_at, deadline_at, abandon_at, reminded, timed_out, next_due_at,
                    updated_at)
                SELECT game_id, version, 0, NULL, NULL, NULL, updated_at + {_THIRTY_DAYS_US},
                    0, 0, updated_at + {_THIRTY_DAYS_US}, updated_at
                FROM games
                WHERE status = 'active'
                    AND game_id NOT IN (SELECT game_id FROM game_clocks)
                """,
            ),
        ),
        Migration(
            8,
            "inline mode: games played in inline messages, challenges naming a username",
            (
                "ALTER TABLE games ADD COLUMN inline_message_id TEXT "
                "CHECK (inline_message_id IS NULL OR length(inline_message_id) BETWEEN 1 AND 256)",
                # A game in an inline message does not hold its chat (the inviter's private
                # chat, where it goes on if the message is lost): the one-game rule is for the
                # others.
                "DROP INDEX games_one_active_per_topic",
                """
                CREATE UNIQUE INDEX games_one_active_per_topic
                    ON games (chat_id, thread_id)
                    WHERE status = 'active' AND inline_message_id IS NULL
                """,
                "CREATE INDEX games_by_inline_message ON games (inline_message_id) "
                "WHERE inline_message_id IS NOT NULL",
                "ALTER TABLE invitations ADD COLUMN invitee_username TEXT",
                f"""
                CREATE TABLE inline_messages_lost (
                    inline_message_id TEXT PRIMARY KEY,
                    lost_at           {t.integer} NOT NULL
                ){t.without_rowid}
                """,
            ),
        ),
        Migration(
            9,
            "game reviews: the computer's judgement of a finished game, and its error totals",
            (
                # One row per reviewed game: 'running' while a worker holds the lease, then
                # 'done' with the summary (opaque JSON of the game layer) and per-colour totals
                # that /stats adds up.
                f"""
                CREATE TABLE game_reviews (
                    game_id         {t.integer} PRIMARY KEY
                        REFERENCES games (game_id) ON DELETE CASCADE,
                    status          TEXT NOT NULL CHECK (status IN ('running', 'done')),
                    owner           TEXT,
                    lease_until     {t.integer},
                    summary         TEXT,
                    white_decisions {t.integer} NOT NULL DEFAULT 0 CHECK (white_decisions >= 0),
                    white_error     {t.real} NOT NULL DEFAULT 0 CHECK (white_error >= 0),
                    black_decisions {t.integer} NOT NULL DEFAULT 0 CHECK (black_decisions >= 0),
                    black_error     {t.real} NOT NULL DEFAULT 0 CHECK (black_error >= 0),
                    created_at      {t.integer} NOT NULL,
                    updated_at      {t.integer} NOT NULL,
                    CHECK (status = 'running' OR summary IS NOT NULL)
                ){t.without_rowid}
                """,
            ),
        ),
        Migration(
            10,
            "players' settings: how the move picker opens (whole plays or step by step)",
            (
                f"""
                CREATE TABLE player_settings (
                    user_id    {t.integer} PRIMARY KEY REFERENCES users (user_id),
                    picker_way TEXT NOT NULL CHECK (picker_way IN ('steps', 'plays')),
                    updated_at {t.integer} NOT NULL
                ){t.without_rowid}
                """,
            ),
        ),
        Migration(
            11,
            "group pickers: the private pickers and views shown in a turn, how it is played",
            (
                # Shared by every worker of a deployment (storage/sql/pickers.py): a turn is
                # (game_number, move_number); a row of an older turn is only outdated.
                f"""
                CREATE TABLE picker_turns (
                    game_id     {t.integer} PRIMARY KEY
                        REFERENCES games (game_id) ON DELETE CASCADE,
                    game_number {t.integer} NOT NULL CHECK (game_number >= 0),
                    move_number {t.integer} NOT NULL CHECK (move_number >= 0),
                    sends       {t.integer} NOT NULL CHECK (sends >= 0),
                    on_board    {t.integer} NOT NULL CHECK (on_board IN (0, 1)),
                    updated_at  {t.integer} NOT NULL
                ){t.without_rowid}
                """,
                f"""
                CREATE TABLE picker_messages (
                    game_id      {t.integer} NOT NULL
                        REFERENCES games (game_id) ON DELETE CASCADE,
                    kind         TEXT NOT NULL CHECK (kind IN ('picker', 'view')),
                    user_id      {t.integer} NOT NULL,
                    chat_id      {t.integer} NOT NULL,
                    ephemeral_id {t.integer} NOT NULL CHECK (ephemeral_id > 0),
                    game_number  {t.integer} NOT NULL CHECK (game_number >= 0),
                    move_number  {t.integer} NOT NULL CHECK (move_number >= 0),
                    updated_at   {t.integer} NOT NULL,
                    PRIMARY KEY (game_id, kind, user_id)
                ){t.without_rowid}
                """,
            ),
        ),
        Migration(
            12,
            "the ratings a finish left, on its game row: a board drawn again says them",
            (
                # With the changes of migration 3 they give the finish's RatingChange, so a
                # board drawn from the stored game (another worker's, a redelivery's) says the
                # ratings line as the finishing tap did. NULL for games finished before.
                f"ALTER TABLE games ADD COLUMN white_rating_after {t.real}",
                f"ALTER TABLE games ADD COLUMN black_rating_after {t.real}",
            ),
        ),
        Migration(
            13,
            "claims on a new game's first board: one worker sends it",
            (
                # storage.sql.writes.claim_first_board: a row is a worker's claim until
                # claimed_at + its lease (a worker that died before sending lets another).
                f"""
                CREATE TABLE board_claims (
                    game_id    {t.integer} PRIMARY KEY
                        REFERENCES games (game_id) ON DELETE CASCADE,
                    claimed_at {t.integer} NOT NULL
                ){t.without_rowid}
                """,
            ),
        ),
    )


def version_table(t: Types) -> str:
    """The table of applied migrations (created by the first)."""
    return f"""
CREATE TABLE IF NOT EXISTS schema_version (
    version     {t.integer} PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at  {t.integer} NOT NULL
)
"""


def goal(migrations: Sequence[Migration], target: int | None) -> int:
    """The version to migrate to (``target``, default the newest), checking that the
    migrations are numbered 1, 2, 3 ... and that ``target`` is one of them (or 0)."""
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise ValueError(
                f"migration {migration.version} is at position {expected}; numbers must be "
                f"1, 2, 3 ... without gaps"
            )
    newest = len(migrations)
    wanted = newest if target is None else target
    if not 0 <= wanted <= newest:
        raise ValueError(f"target version {wanted} is not between 0 and {newest}")
    return wanted
