"""How SQLite runs the shared transaction bodies (:mod:`storage.sql.writes`), and its game write.

:func:`run` is called in the writer thread, inside the transaction
:meth:`~storage.sqlite.connections.ConnectionThread.transaction` opened: it executes each step
the body yields on the connection and sends the result back, synchronously, so a whole
transaction is still one trip to the writer thread.  SQLite has one writer at a time, so
nothing is locked (``for_update`` is empty) and the game write is plain statements in order.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from storage.errors import ConstraintError, DuplicateUpdateError
from storage.models import Colour, Game, NewMove
from storage.sql import clocks, writes
from storage.sql.clocks import next_due, us
from storage.sql.steps import Body, Dialect, Fetch, GameWrite, Step, many, one
from storage.sqlite.rows import (
    CLOCK_COLUMNS,
    GAME_COLUMNS,
    MOVE_COLUMNS,
    clock_from_row,
    game_from_row,
)

T = TypeVar("T")


def run(conn: sqlite3.Connection, body: Callable[..., Body[T]], *args: Any, **kwargs: Any) -> T:
    """Run ``body(SQLITE, *args)`` on ``conn``: its statements, in order, and its result."""
    steps = body(SQLITE, *args, **kwargs)
    try:
        step = next(steps)
        while True:
            try:
                result = _execute(conn, step)
            except sqlite3.IntegrityError as exc:
                error = ConstraintError(str(exc))
                error.__cause__ = exc
                step = steps.throw(error)
            else:
                step = steps.send(result)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    finally:
        steps.close()


def _execute(conn: sqlite3.Connection, step: Step) -> Any:
    if step.fetch is Fetch.ONE:
        return conn.execute(step.sql, step.params).fetchone()
    if step.fetch is Fetch.ALL:
        return conn.execute(step.sql, step.params).fetchall()
    if step.fetch is Fetch.MANY:
        conn.executemany(step.sql, step.params)
        return None
    return conn.execute(step.sql, step.params).rowcount


def write_game(write: GameWrite, alone: bool = False) -> Body[Game]:
    """The game write as plain statements in order: the update claimed first, then
    ``UPDATE ... WHERE version = expected``, the clock, the moves (``alone`` changes nothing
    here: every write is a transaction in the writer thread anyway)."""
    if write.update_id is not None and not (
        yield from writes.claim_update(SQLITE, write.update_id, write.now)
    ):
        raise DuplicateUpdateError(write.update_id)
    score_white, score_black = write.score if write.score is not None else (None, None)
    row = yield one(
        "UPDATE games SET state = COALESCE(?, state), version = version + 1, "
        "move_count = move_count + ?, score_white = COALESCE(?, score_white), "
        "score_black = COALESCE(?, score_black), updated_at = ?"
        + "".join(f", {column} = ?" for column in write.ending)
        + " WHERE game_id = ? AND version = ? AND status = 'active' "
        f"RETURNING {GAME_COLUMNS}",
        write.state,
        len(write.moves),
        score_white,
        score_black,
        write.now,
        *write.ending.values(),
        write.game_id,
        write.expected_version,
    )
    if row is None:
        yield from writes.why_not_written(write.game_id, write.expected_version)
    game = game_from_row(row)
    if write.clock is None:
        yield from follow_version(game.game_id, game.version, write.now)
    else:  # replaces every column follow_version would move
        yield from clocks.set_clock(game.game_id, game.version, write.clock, write.now)
    yield from append_moves(game, write.moves, write.now)
    return game


def append_moves(game: Game, moves: Sequence[NewMove], now: int) -> Body[None]:
    """Append to the log, numbered on from the count the UPDATE just returned: no gaps."""
    if not moves:
        return
    first_seq = game.move_count - len(moves) + 1
    yield many(
        f"INSERT INTO moves ({MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game.game_id,
                first_seq + offset,
                Colour(move.colour).value,
                game.user_id_of(move.colour),
                None if move.dice is None else move.dice[0],
                None if move.dice is None else move.dice[1],
                move.play,
                move.position_id,
                game.version,
                now,
            )
            for offset, move in enumerate(moves)
        ],
    )


def follow_version(game_id: int, game_version: int, now: int) -> Body[None]:
    """A game write without a clock update: the clock stays, tied to the new version, and the
    abandonment time moves on by the time since the clock's last write — abandonment counts
    from the last action whether or not the caller passed a clock."""
    row = yield one(
        f"SELECT {CLOCK_COLUMNS}, updated_at FROM game_clocks WHERE game_id = ?", game_id
    )
    if row is None:
        return
    current = clock_from_row(row)
    abandon_at = us(current.abandon_at)
    if abandon_at is not None:
        abandon_at += max(0, now - row["updated_at"])
    due = next_due(
        us(current.remind_at),
        current.reminded,
        us(current.deadline_at),
        current.timed_out,
        abandon_at,
    )
    yield one(
        "UPDATE game_clocks SET game_version = ?, abandon_at = ?, next_due_at = ?, updated_at = ? "
        "WHERE game_id = ?",
        game_version,
        abandon_at,
        due,
        now,
        game_id,
    )


SQLITE = Dialect(
    name="sqlite",
    for_update="",
    json_append="json_insert({column}, '$[#]', ?)",
    write_game=write_game,
)
