"""Move clocks, for both backends: parts of the game-write transactions, and the idempotent
"fire" steps the scheduler runs.

A clock row belongs to one game version (``game_version``): every write of the game moves it to
the new version in the same transaction, so an event read before a move and fired after it
finds a different version and does nothing. ``next_due_at`` is the earliest event still
pending (a reminder not yet sent, a timeout not yet announced, the abandonment time), kept up
to date by every write, so the scheduler's query is one index lookup.
"""

from __future__ import annotations

from typing import Any

from storage.models import ClockEvent, ClockUpdate, GameClock
from storage.sql.steps import Body, Dialect, one
from storage.sqlite.rows import CLOCK_COLUMNS, clock_from_row, to_us


def us(moment: object) -> int | None:
    """A stored time (microseconds) from a datetime or None."""
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
        us(clock.remind_at),
        us(clock.deadline_at),
        us(clock.abandon_at),
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


def set_clock(game_id: int, game_version: int, clock: ClockUpdate, now: int) -> Body[GameClock]:
    """Write the clock of the move being played (flags as :func:`clock_values` says), in the
    game write's transaction (which holds the game row)."""
    old = yield one(OLD_CLOCK, game_id)
    row = yield one(UPSERT_CLOCK, *clock_values(game_id, game_version, clock, old, now))
    return clock_from_row(row)


def drop(game_id: int) -> Body[None]:
    """The game is over: no clock events, no standing offers."""
    yield one("DELETE FROM game_clocks WHERE game_id = ?", game_id)
    yield one("DELETE FROM game_offers WHERE game_id = ?", game_id)


_FLAG = {
    ClockEvent.REMIND: ("reminded", "remind_at"),
    ClockEvent.TIMEOUT: ("timed_out", "deadline_at"),
}


def fire(
    db: Dialect, game_id: int, game_version: int, event: ClockEvent, now: int
) -> Body[GameClock | None]:
    """Mark a reminder sent or a timeout announced, exactly once: the clock returned the first
    time, None for a repeat, a clock moved on by a move, a time not reached, or a game over.

    The clock row is read locked (PostgreSQL): a second scheduler firing the same event waits
    for the first to commit, then finds the flag set (the condition is re-checked on the locked
    row) and returns None.
    """
    flag, at = _FLAG[event]
    row = yield one(
        f"SELECT {CLOCK_COLUMNS} FROM game_clocks WHERE game_id = ? AND game_version = ? "
        f"AND {flag} = 0 AND {at} IS NOT NULL AND {at} <= ? AND EXISTS ("
        " SELECT 1 FROM games WHERE games.game_id = game_clocks.game_id"
        " AND games.version = game_clocks.game_version AND games.status = 'active')"
        f"{db.lock('game_clocks')}",
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
        us(current.remind_at),
        reminded,
        us(current.deadline_at),
        timed_out,
        us(current.abandon_at),
    )
    updated = yield one(
        "UPDATE game_clocks SET reminded = ?, timed_out = ?, next_due_at = ?, updated_at = ? "
        f"WHERE game_id = ? RETURNING {CLOCK_COLUMNS}",
        int(reminded),
        int(timed_out),
        due,
        now,
        game_id,
    )
    return clock_from_row(updated)
