"""How PostgreSQL runs the shared transaction bodies (:mod:`storage.sql.writes`), and its game
write.

:func:`run` awaits each step the body yields on one pooled connection, inside ``BEGIN`` ...
``COMMIT`` (unless the body's first step is marked ``alone``: one statement, atomic by itself,
needs neither), with ``?`` placeholders numbered ``$N``.  Writers run side by side here, so
rows a body decides on are read ``FOR UPDATE``, and the game write is one statement (a chain of
data-modifying ``WITH`` clauses) where SQLite runs four: each statement is a round trip to the
server, and a tap's write is the commonest transaction the bot has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import asyncpg

from storage.errors import ConstraintError, DuplicateUpdateError
from storage.models import ClockUpdate, Colour, Game
from storage.postgres.placeholders import numbered
from storage.sql import writes
from storage.sql.clocks import us
from storage.sql.steps import Body, Dialect, Fetch, GameWrite, Step, one
from storage.sqlite.rows import CLOCK_COLUMNS, GAME_COLUMNS, MOVE_COLUMNS, game_from_row

T = TypeVar("T")


async def run(
    conn: asyncpg.Connection, body: Callable[..., Body[T]], *args: Any, **kwargs: Any
) -> T:
    """Run ``body(POSTGRES, *args)`` on ``conn`` as one transaction and return its result."""
    steps = body(POSTGRES, *args, **kwargs)
    try:
        first = next(steps)  # the body's Python up to its first statement: no I/O yet
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    if first.alone:
        return await _drive(conn, steps, first)
    async with conn.transaction():
        return await _drive(conn, steps, first)


async def _drive(conn: asyncpg.Connection, steps: Body[T], step: Step) -> T:
    try:
        while True:
            try:
                if step.savepoint:
                    async with conn.transaction():  # nested: a savepoint
                        result = await _execute(conn, step)
                else:
                    result = await _execute(conn, step)
            except asyncpg.IntegrityConstraintViolationError as exc:
                error = ConstraintError(str(exc), exc.constraint_name)
                error.__cause__ = exc
                step = steps.throw(error)
            else:
                step = steps.send(result)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    finally:
        steps.close()


async def _execute(conn: asyncpg.Connection, step: Step) -> Any:
    sql = numbered(step.sql)
    if step.fetch is Fetch.ONE:
        return await conn.fetchrow(sql, *step.params)
    if step.fetch is Fetch.ALL:
        return await conn.fetch(sql, *step.params)
    if step.fetch is Fetch.MANY:
        await conn.executemany(sql, step.params)
        return None
    status = await conn.execute(sql, *step.params)
    return int(status.split()[-1])  # "DELETE <count>", "UPDATE <count>", "INSERT 0 <count>"


#: Without a clock update: the clock follows the new version, its abandonment time moved on
#: by the time since its last write (as SQLite's :func:`~storage.sqlite.dialect.follow_version`
#: does; ``LEAST`` skips NULLs as ``next_due`` does).
_FOLLOWED = (
    "), followed AS ("
    " UPDATE game_clocks AS c SET game_version = g.version,"
    " abandon_at = c.abandon_at + GREATEST(0, $7 - c.updated_at),"
    " next_due_at = LEAST(CASE WHEN c.reminded = 0 THEN c.remind_at END,"
    "  CASE WHEN c.timed_out = 0 THEN c.deadline_at END,"
    "  c.abandon_at + GREATEST(0, $7 - c.updated_at)),"
    " updated_at = $7"
    " FROM g WHERE c.game_id = g.game_id"
)

# With one: the move's clock written, its flags kept as
# :func:`storage.sql.clocks.clock_values` says (the reminder while the move number stays, the
# timeout while the deadline stays too), ``next_due_at`` the earliest event still pending.
_SAME_MOVE = "game_clocks.move_number = excluded.move_number"
_REMINDED = f"CASE WHEN {_SAME_MOVE} THEN game_clocks.reminded ELSE 0 END"
_TIMED_OUT = (
    f"CASE WHEN {_SAME_MOVE} AND game_clocks.deadline_at IS NOT DISTINCT FROM "
    "excluded.deadline_at THEN game_clocks.timed_out ELSE 0 END"
)


def _clocked(first: int) -> str:
    """The clock written from the parameters ``$first`` ... ``$first+4`` (move number, player
    on the clock, reminder, deadline and abandonment times: :func:`_clock_values`)."""
    move, user, remind, deadline, abandon = (f"${n}::bigint" for n in range(first, first + 5))
    return (
        "), clocked AS ("
        f" INSERT INTO game_clocks ({CLOCK_COLUMNS}, updated_at)"
        f" SELECT g.game_id, g.version, {move}, {user}, {remind}, {deadline}, {abandon}, 0, 0,"
        f" LEAST({remind}, {deadline}, {abandon}), $7 FROM g"
        " ON CONFLICT (game_id) DO UPDATE SET game_version = excluded.game_version,"
        " move_number = excluded.move_number, on_clock_user_id = excluded.on_clock_user_id,"
        " remind_at = excluded.remind_at, deadline_at = excluded.deadline_at,"
        " abandon_at = excluded.abandon_at,"
        f" reminded = {_REMINDED}, timed_out = {_TIMED_OUT},"
        f" next_due_at = LEAST(CASE WHEN {_REMINDED} = 0 THEN excluded.remind_at END,"
        f"  CASE WHEN {_TIMED_OUT} = 0 THEN excluded.deadline_at END, excluded.abandon_at),"
        " updated_at = excluded.updated_at"
    )


def _clock_values(clock: ClockUpdate | None) -> tuple[int | None, ...]:
    if clock is None:
        return ()
    return (
        clock.move_number,
        clock.on_clock_user_id,
        us(clock.remind_at),
        us(clock.deadline_at),
        us(clock.abandon_at),
    )


def write_game(write: GameWrite, alone: bool = False) -> Body[Game]:
    """The game write in one statement: ``UPDATE games ... WHERE version = expected``, and
    only if it matched, the update claim, the clock (following the new version, or the new
    move's), and the moves appended.  ``alone``: the statement is the whole transaction.
    """
    ending, moves, update_id = write.ending, write.moves, write.update_id
    score_white, score_black = write.score if write.score is not None else (None, None)
    extra = "".join(f", {column} = ${n}" for n, column in enumerate(ending, start=8))
    n = 8 + len(ending)  # the first placeholder after the ending's
    sql = (
        "WITH g AS ("
        " UPDATE games SET state = COALESCE($3, state), version = version + 1,"
        " move_count = move_count + $4, score_white = COALESCE($5, score_white),"
        f" score_black = COALESCE($6, score_black), updated_at = $7{extra}"
        " WHERE game_id = $1 AND version = $2 AND status = 'active'"
        f" RETURNING {GAME_COLUMNS}"
        "), claimed AS ("
        " INSERT INTO processed_updates (update_id, processed_at)"
        f" SELECT ${n}::bigint, $7 FROM g WHERE ${n}::bigint IS NOT NULL"
        + (_FOLLOWED if write.clock is None else _clocked(n + 6))
        + "), logged AS ("
        f" INSERT INTO moves ({MOVE_COLUMNS})"
        " SELECT g.game_id, g.move_count - $4 + m.ord, m.colour,"
        " CASE m.colour WHEN 'white' THEN g.white_user_id ELSE g.black_user_id END,"
        " m.die1, m.die2, m.play, m.position_id, g.version, $7"
        f" FROM g, unnest(${n + 1}::text[], ${n + 2}::smallint[], ${n + 3}::smallint[],"
        f" ${n + 4}::text[], ${n + 5}::text[])"
        " WITH ORDINALITY AS m (colour, die1, die2, play, position_id, ord)"
        ") SELECT * FROM g"
    )
    try:
        row = yield one(
            sql,
            write.game_id,
            write.expected_version,
            write.state,
            len(moves),
            score_white,
            score_black,
            write.now,
            *ending.values(),
            update_id,
            [Colour(move.colour).value for move in moves],
            [None if move.dice is None else move.dice[0] for move in moves],
            [None if move.dice is None else move.dice[1] for move in moves],
            [move.play for move in moves],
            [move.position_id for move in moves],
            *_clock_values(write.clock),
            alone=alone,
        )
    except ConstraintError as exc:
        if exc.constraint != "processed_updates_pkey" or update_id is None:
            raise
        raise DuplicateUpdateError(update_id) from exc
    if row is not None:
        return game_from_row(row)
    # Nothing was written; say why, in the order the SQLite write finds it (claim first).
    if update_id is not None and (
        yield one("SELECT 1 FROM processed_updates WHERE update_id = ?", update_id)
    ):
        raise DuplicateUpdateError(update_id)
    yield from writes.why_not_written(write.game_id, write.expected_version)


POSTGRES = Dialect(
    name="postgresql",
    for_update=" FOR UPDATE",
    json_append="({column}::jsonb || jsonb_build_array(?::text))::text",
    write_game=write_game,
)
