"""Transaction bodies written once for both backends: generators that yield their statements.

SQLite runs a write transaction in its writer thread, synchronously; PostgreSQL awaits each
statement on a pooled connection.  A body that called its connection would have to be written
twice (as it was); instead a body *yields* each statement as a :class:`Step` and receives the
result, and each backend has a small driver that executes the steps its own way
(:func:`storage.sqlite.dialect.run`, :func:`storage.postgres.dialect.run`)::

    def upsert_chat(db: Dialect, chat_id: int, ...) -> Body[Chat]:
        row = yield one("INSERT INTO chats ... RETURNING ...", chat_id, ...)
        return chat_from_row(row)

A part of a body is another body, called with ``yield from``.  Statements are written with
SQLite's ``?`` / ``?N`` placeholders (the PostgreSQL driver numbers them ``$N``) in the SQL
both databases speak; what differs is asked of the :class:`Dialect` the body is given: row
locks, and the one statement where PostgreSQL saves round trips that SQLite has no use for
(the game write).

A statement that breaks a constraint is thrown into the body as
:class:`~storage.errors.ConstraintError` (naming the constraint on PostgreSQL), so a body can
say what the conflict means; it may go on with more statements only after a step marked
``savepoint`` (PostgreSQL aborts the rest of a transaction otherwise).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar

from storage.models import ClockUpdate, Game, NewMove

T = TypeVar("T")


class Fetch(Enum):
    """What a step hands back to its body."""

    ONE = "one"  #: the first row, or None
    ALL = "all"  #: every row, as a list
    MANY = "many"  #: nothing: the statement run once per parameter tuple
    COUNT = "count"  #: the number of rows changed


@dataclass(frozen=True, slots=True)
class Step:
    """One statement of a transaction body, with what the body wants back."""

    sql: str
    params: Sequence[Any]
    fetch: Fetch
    #: PostgreSQL runs the statement in a savepoint, so the body may go on after a constraint
    #: error it caught (SQLite, one writer at a time, has no such race to lose).
    savepoint: bool = False
    #: The statement is the body's whole write, atomic by itself: as the body's first step,
    #: PostgreSQL runs it without ``BEGIN`` / ``COMMIT`` (two round trips); only reads that
    #: explain a failure may follow it.
    alone: bool = False


#: A transaction body (or a part of one) returning ``T``.
Body = Generator[Step, Any, T]


def one(sql: str, *params: Any, savepoint: bool = False, alone: bool = False) -> Step:
    """A statement whose first row (or None) the body gets back."""
    return Step(sql, params, Fetch.ONE, savepoint, alone)


def rows(sql: str, *params: Any) -> Step:
    """A statement whose rows the body gets back, as a list."""
    return Step(sql, params, Fetch.ALL)


def many(sql: str, params: Iterable[Sequence[Any]]) -> Step:
    """One statement run once per parameter tuple (the body gets None)."""
    return Step(sql, list(params), Fetch.MANY)


def count(sql: str, *params: Any) -> Step:
    """A statement whose number of changed rows the body gets back."""
    return Step(sql, params, Fetch.COUNT)


def marks(count: int) -> str:
    """``?, ?, ...``: ``count`` placeholders, for an ``IN (...)`` or a ``VALUES (...)``."""
    return ", ".join("?" * count)


@dataclass(frozen=True, slots=True)
class GameWrite:
    """One optimistic write of a game row, as :attr:`Dialect.write_game` makes it: the update
    claimed, ``UPDATE games ... WHERE version = expected_version`` (setting the state, the
    score, and the ``ending`` columns when the game ends), the game's clock following the new
    version or replaced by ``clock``, the moves appended to the log numbered on from the new
    count (no gaps)."""

    game_id: int
    expected_version: int
    state: str | None
    moves: Sequence[NewMove]
    score: tuple[int, int] | None
    update_id: int | None
    now: int
    ending: Mapping[str, Any] = field(default_factory=dict)
    #: The next move's clock (None: the stored clock, if any, follows the new version).
    clock: ClockUpdate | None = None


@dataclass(frozen=True, slots=True)
class Dialect:
    """What the shared bodies ask of a backend."""

    name: str
    #: Appended to a ``SELECT`` whose rows the body decides on and then writes: PostgreSQL's
    #: writers run side by side, so it locks them (``FOR UPDATE``); SQLite has one writer.
    for_update: str
    #: An SQL expression: the JSON array in the text column ``{column}`` with the ``?``
    #: parameter appended as a string.
    json_append: str
    #: The game write (a typed error if the game was not written); ``alone``: it is the
    #: whole transaction.
    write_game: Callable[[GameWrite, bool], Body[Game]]

    def lock(self, *tables: str) -> str:
        """``for_update`` limited to the rows of ``tables`` (of a join)."""
        if not self.for_update or not tables:
            return self.for_update
        return f"{self.for_update} OF {', '.join(tables)}"
