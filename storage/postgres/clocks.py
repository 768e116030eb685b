"""Move clocks in PostgreSQL: the steps of :mod:`storage.sqlite.clocks` (same rules, same
``next_due_at`` bookkeeping, shared :func:`~storage.sqlite.clocks.next_due`), with the row lock
that makes a fire exactly-once when two schedulers (two bot workers) fire the same event.
"""

from __future__ import annotations

import asyncpg

from storage.models import ClockEvent, ClockUpdate, GameClock
from storage.postgres.placeholders import numbered
from storage.sqlite.clocks import OLD_CLOCK, UPSERT_CLOCK, clock_values, next_due
from storage.sqlite.rows import CLOCK_COLUMNS, clock_from_row, to_us

Conn = asyncpg.Connection


def _us(moment: object) -> int | None:
    return None if moment is None else to_us(moment)  # type: ignore[arg-type]


_UPSERT_CLOCK = numbered(UPSERT_CLOCK)
_OLD_CLOCK = numbered(OLD_CLOCK)


async def set_clock(
    conn: Conn, game_id: int, game_version: int, clock: ClockUpdate, now: int
) -> GameClock:
    """Write the clock of the move being played (the caller holds the game row's lock); the
    statement and the flags' rules are SQLite's (:func:`storage.sqlite.clocks.clock_values`)."""
    old = await conn.fetchrow(_OLD_CLOCK, game_id)
    row = await conn.fetchrow(_UPSERT_CLOCK, *clock_values(game_id, game_version, clock, old, now))
    return clock_from_row(row)


async def drop(conn: Conn, game_id: int) -> None:
    """The game is over: no clock events, no standing offers."""
    await conn.execute("DELETE FROM game_clocks WHERE game_id = $1", game_id)
    await conn.execute("DELETE FROM game_offers WHERE game_id = $1", game_id)


_FLAG = {
    ClockEvent.REMIND: ("reminded", "remind_at"),
    ClockEvent.TIMEOUT: ("timed_out", "deadline_at"),
}


async def fire(
    conn: Conn, game_id: int, game_version: int, event: ClockEvent, now: int
) -> GameClock | None:
    """Mark a reminder sent or a timeout announced, exactly once.

    The clock row is read ``FOR UPDATE``: a second scheduler firing the same event waits for
    the first to commit, then finds the flag set (PostgreSQL re-checks the condition on the
    locked row) and returns None.
    """
    flag, at = _FLAG[event]
    row = await conn.fetchrow(
        f"SELECT {CLOCK_COLUMNS} FROM game_clocks WHERE game_id = $1 AND game_version = $2 "
        f"AND {flag} = 0 AND {at} IS NOT NULL AND {at} <= $3 AND EXISTS ("
        " SELECT 1 FROM games WHERE games.game_id = game_clocks.game_id"
        " AND games.version = game_clocks.game_version AND games.status = 'active') "
        "FOR UPDATE OF game_clocks",
        game_id,
        game_version,
        now,
    )
    if row is None:
        return None
    current = clock_from_row(row)
    # An announced timeout supersedes the half-time reminder (never sent after the deadline).
    reminded = current.reminded or event in (ClockEvent.REMIND, ClockEvent.TIMEOUT)
    timed_out = current.timed_out or event is ClockEvent.TIMEOUT
    due = next_due(
        _us(current.remind_at),
        reminded,
        _us(current.deadline_at),
        timed_out,
        _us(current.abandon_at),
    )
    updated = await conn.fetchrow(
        "UPDATE game_clocks SET reminded = $1, timed_out = $2, next_due_at = $3, updated_at = $4 "
        f"WHERE game_id = $5 RETURNING {CLOCK_COLUMNS}",
        int(reminded),
        int(timed_out),
        due,
        now,
        game_id,
    )
    return clock_from_row(updated)
