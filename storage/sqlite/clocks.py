"""Move clocks in SQLite: parts of the game-write transactions, and the idempotent "fire"
steps the scheduler runs.

A clock row belongs to one game version (``game_version``): every write of the game moves it to
the new version in the same transaction, so an event read before a move and fired after it
finds a different version and does nothing. ``next_due_at`` is the earliest event still
pending (a reminder not yet sent, a timeout not yet announced, the abandonment time), kept up
to date by every write, so the scheduler's query is one index lookup.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from storage.models import ClockEvent, ClockUpdate, GameClock
from storage.sqlite.rows import CLOCK_COLUMNS, clock_from_row, to_us


def _us(moment: object) -> int | None:
    return None if moment is None else to_us(moment)  # type: ignore[arg-type]


def next_due(
    remind_at: int | None,
    reminded: bool,
    deadline_at: int | None,
    timed_out: bool,
    abandon_at: int | None,
) -> int | None:
    pending = [
        t
        for t, done in ((remind_at, reminded), (deadline_at, timed_out), (abandon_at, False))
        if t is not None and not done
    ]
    return min(pending) if pending else None


#: The clock upsert, in ``?`` placeholders (the PostgreSQL backend numbers them).
UPSERT_CLOCK = (
    f"INSERT INTO game_clocks ({CLOCK_COLUMNS}, updated_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (game_id) DO UPDATE SET game_version = excluded.game_version, "
    "move_number = excluded.move_number, on_clock_user_id = excluded.on_clock_user_id, "
    "remind_at = excluded.remind_at, deadline_at = excluded.deadline_at, "
    "abandon_at = excluded.abandon_at, reminded = excluded.reminded, "
    "timed_out = excluded.timed_out, next_due_at = excluded.next_due_at, "
    f"updated_at = excluded.updated_at RETURNING {CLOCK_COLUMNS}"
)

#: The stored clock's fields that decide which flags survive an update.
OLD_CLOCK = (
    "SELECT move_number, deadline_at, reminded, timed_out FROM game_clocks WHERE game_id = ?"
)


def clock_values(
    game_id: int, game_version: int, clock: ClockUpdate, old: Any, now: int
) -> tuple[object, ...]:
    """The arguments of :data:`UPSERT_CLOCK`, given the stored row ``old`` (or None).

    The reminder flag is kept while ``move_number`` stays the same (one reminder per move, even
    if the move's deadline is pushed back by a step entered); the timeout flag is kept only if
    the deadline did not change either.
    """
    remind_at, deadline_at, abandon_at = (
        _us(clock.remind_at),
        _us(clock.deadline_at),
        _us(clock.abandon_at),
    )
    same_move = old is not None and old["move_number"] == clock.move_number
    reminded = bool(same_move and old["reminded"])
    timed_out = bool(same_move and old["timed_out"] and old["deadline_at"] == deadline_at)
    return (
        game_id,
        game_version,
        clock.move_number,
        clock.on_clock_user_id,
        remind_at,
        deadline_at,
        abandon_at,
        int(reminded),
        int(timed_out),
        next_due(remind_at, reminded, deadline_at, timed_out, abandon_at),
        now,
    )


def set_clock(
    conn: sqlite3.Connection, game_id: int, game_version: int, clock: ClockUpdate, now: int
) -> GameClock:
    """Write the clock of the move being played (flags as :func:`clock_values` says)."""
    old = conn.execute(OLD_CLOCK, (game_id,)).fetchone()
    row = conn.execute(
        UPSERT_CLOCK, clock_values(game_id, game_version, clock, old, now)
    ).fetchone()
    return clock_from_row(row)


def follow_version(conn: sqlite3.Connection, game_id: int, game_version: int, now: int) -> None:
    """A game write without a clock update: the clock stays, tied to the new version, and the
    abandonment time moves on by the time since the clock's last write — abandonment counts
    from the last action whether or not the caller passed a clock."""
    row = conn.execute(
        f"SELECT {CLOCK_COLUMNS}, updated_at FROM game_clocks WHERE game_id = ?", (game_id,)
    ).fetchone()
    if row is None:
        return
    current = clock_from_row(row)
    abandon_at = _us(current.abandon_at)
    if abandon_at is not None:
        abandon_at += max(0, now - row["updated_at"])
    due = next_due(
        _us(current.remind_at),
        current.reminded,
        _us(current.deadline_at),
        current.timed_out,
        abandon_at,
    )
    conn.execute(
        "UPDATE game_clocks SET game_version = ?, abandon_at = ?, next_due_at = ?, updated_at = ? "
        "WHERE game_id = ?",
        (game_version, abandon_at, due, now, game_id),
    )


def drop(conn: sqlite3.Connection, game_id: int) -> None:
    """The game is over: no clock events, no standing offers."""
    conn.execute("DELETE FROM game_clocks WHERE game_id = ?", (game_id,))
    conn.execute("DELETE FROM game_offers WHERE game_id = ?", (game_id,))


_FLAG = {
    ClockEvent.REMIND: ("reminded", "remind_at"),
    ClockEvent.TIMEOUT: ("timed_out", "deadline_at"),
}


def fire(
    conn: sqlite3.Connection, game_id: int, game_version: int, event: ClockEvent, now: int
) -> GameClock | None:
    """Mark a reminder sent or a timeout announced, exactly once: the clock returned the first
    time, None for a repeat, a clock moved on by a move, a time not reached, or a game over."""
    flag, at = _FLAG[event]
    row = conn.execute(
        f"SELECT {CLOCK_COLUMNS} FROM game_clocks WHERE game_id = ? AND game_version = ? "
        f"AND {flag} = 0 AND {at} IS NOT NULL AND {at} <= ? AND EXISTS ("
        " SELECT 1 FROM games WHERE games.game_id = game_clocks.game_id"
        " AND games.version = game_clocks.game_version AND games.status = 'active')",
        (game_id, game_version, now),
    ).fetchone()
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
    updated = conn.execute(
        "UPDATE game_clocks SET reminded = ?, timed_out = ?, next_due_at = ?, updated_at = ? "
        f"WHERE game_id = ? RETURNING {CLOCK_COLUMNS}",
        (int(reminded), int(timed_out), due, now, game_id),
    ).fetchone()
    return clock_from_row(updated)
