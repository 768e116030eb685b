"""Provably-fair dice seeds, for both backends: write transactions and parts of them.

The secret ``server_seed`` is written once, read only by :func:`read_secret` and by the
reveal; every other query names :data:`~storage.sqlite.rows.DICE_SEED_COLUMNS`, which leaves it
out, so no code path can put it in a log or a caption by accident.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from storage.errors import (
    DiceCounterError,
    DiceSeedFrozenError,
    DiceSeedInUseError,
    NotFoundError,
)
from storage.models import DiceRolls, DiceSeed
from storage.sql.steps import Body, Dialect, one
from storage.sqlite.rows import DICE_SEED_COLUMNS, dice_seed_from_row


def _seed_row(seed_id: int, lock: str = "") -> Body[Any]:
    row = yield one(f"SELECT {DICE_SEED_COLUMNS} FROM dice_seeds WHERE seed_id = ?{lock}", seed_id)
    if row is None:
        raise NotFoundError("dice seed", seed_id)
    return row


def insert_seed(
    db: Dialect, commitment: str, server_seed: bytes, client_seeds: Sequence[str], now: int
) -> Body[DiceSeed]:
    row = yield one(
        "INSERT INTO dice_seeds (commitment, server_seed, client_seeds, created_at) "
        f"VALUES (?, ?, ?, ?) RETURNING {DICE_SEED_COLUMNS}",
        commitment,
        server_seed,
        json.dumps(list(client_seeds), ensure_ascii=False),
        now,
    )
    return dice_seed_from_row(row)


def add_client_seed(db: Dialect, seed_id: int, client_seed: str) -> Body[DiceSeed]:
    """Append a client seed while no die has been drawn; afterwards the seeds are frozen."""
    row = yield one(
        f"UPDATE dice_seeds SET client_seeds = {db.json_append.format(column='client_seeds')} "
        "WHERE seed_id = ? AND rolls = '' AND revealed_at IS NULL "
        f"RETURNING {DICE_SEED_COLUMNS}",
        client_seed,
        seed_id,
    )
    if row is None:
        yield from _seed_row(seed_id)  # NotFoundError if there is no such seed
        raise DiceSeedFrozenError(seed_id)
    return dice_seed_from_row(row)


def append_dice(seed_id: int | None, dice: DiceRolls | None) -> Body[None]:
    """Store dice drawn for a game write, in the caller's transaction, at exactly the next
    counter; :class:`DiceCounterError` otherwise (and the caller's whole write rolls back).  A
    concurrent append (PostgreSQL) waits for the row and then finds the length moved."""
    if dice is None or not dice.values:
        return
    if seed_id is None:
        raise ValueError("dice were given for a game without a dice seed")
    appended = yield one(
        "UPDATE dice_seeds SET rolls = rolls || ? "
        "WHERE seed_id = ? AND length(rolls) = ? AND revealed_at IS NULL RETURNING seed_id",
        "".join(str(v) for v in dice.values),
        seed_id,
        dice.first_counter,
    )
    if appended is None:
        current = dice_seed_from_row((yield from _seed_row(seed_id)))
        actual = None if current.revealed_at is not None else current.counter
        raise DiceCounterError(seed_id, dice.first_counter, actual)


def read_secret(db: Dialect, seed_id: int) -> Body[bytes]:
    row = yield one("SELECT server_seed FROM dice_seeds WHERE seed_id = ?", seed_id)
    if row is None:
        raise NotFoundError("dice seed", seed_id)
    return bytes(row[0])


def reveal(db: Dialect, seed_id: int, now: int) -> Body[DiceSeed]:
    """Mark the seed revealed (once; later calls keep the first time) and return it with its
    server seed; refused while a game drawing from it is still active.  The seed row is locked
    first (PostgreSQL): a game being created with it (whose foreign key needs a share lock on
    the row) waits, or is seen."""
    yield from _seed_row(seed_id, db.for_update)
    active = yield one(
        "SELECT game_id FROM games WHERE dice_seed_id = ? AND status = 'active' LIMIT 1", seed_id
    )
    if active is not None:
        raise DiceSeedInUseError(seed_id, int(active[0]))
    row = yield one(
        "UPDATE dice_seeds SET revealed_at = COALESCE(revealed_at, ?) WHERE seed_id = ? "
        f"RETURNING {DICE_SEED_COLUMNS}",
        now,
        seed_id,
    )
    return dice_seed_from_row(row, (yield from read_secret(db, seed_id)))
