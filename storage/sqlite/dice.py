"""Write transactions (and parts of them) for provably-fair dice seeds.

The secret ``server_seed`` is written once, read only by :func:`read_secret` and by the
reveal; every other query names :data:`~storage.sqlite.rows.DICE_SEED_COLUMNS`, which leaves it
out, so no code path can put it in a log or a caption by accident.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from storage.errors import (
    DiceCounterError,
    DiceSeedFrozenError,
    DiceSeedInUseError,
    NotFoundError,
)
from storage.models import DiceRolls, DiceSeed
from storage.sqlite.rows import DICE_SEED_COLUMNS, dice_seed_from_row


def _seed_row(conn: sqlite3.Connection, seed_id: int) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        f"SELECT {DICE_SEED_COLUMNS} FROM dice_seeds WHERE seed_id = ?", (seed_id,)
    ).fetchone()
    if row is None:
        raise NotFoundError("dice seed", seed_id)
    return row


def insert_seed(
    conn: sqlite3.Connection,
    commitment: str,
    server_seed: bytes,
    client_seeds: Sequence[str],
    now: int,
) -> DiceSeed:
    row = conn.execute(
        "INSERT INTO dice_seeds (commitment, server_seed, client_seeds, created_at) "
        f"VALUES (?, ?, ?, ?) RETURNING {DICE_SEED_COLUMNS}",
        (commitment, server_seed, json.dumps(list(client_seeds), ensure_ascii=False), now),
    ).fetchone()
    return dice_seed_from_row(row)


def add_client_seed(conn: sqlite3.Connection, seed_id: int, client_seed: str) -> DiceSeed:
    """Append a client seed while no die has been drawn; afterwards the seeds are frozen."""
    row = conn.execute(
        "UPDATE dice_seeds SET client_seeds = json_insert(client_seeds, '$[#]', ?) "
        "WHERE seed_id = ? AND rolls = '' AND revealed_at IS NULL "
        f"RETURNING {DICE_SEED_COLUMNS}",
        (client_seed, seed_id),
    ).fetchone()
    if row is None:
        _seed_row(conn, seed_id)  # NotFoundError if there is no such seed
        raise DiceSeedFrozenError(seed_id)
    return dice_seed_from_row(row)


def append_dice(conn: sqlite3.Connection, seed_id: int | None, dice: DiceRolls | None) -> None:
    """Store dice drawn for a game write, in the caller's transaction, at exactly the next
    counter; :class:`DiceCounterError` otherwise (and the caller's whole write rolls back)."""
    if dice is None or not dice.values:
        return
    if seed_id is None:
        raise ValueError("dice were given for a game without a dice seed")
    digits = "".join(str(v) for v in dice.values)
    row = conn.execute(
        "UPDATE dice_seeds SET rolls = rolls || ? "
        "WHERE seed_id = ? AND length(rolls) = ? AND revealed_at IS NULL RETURNING seed_id",
        (digits, seed_id, dice.first_counter),
    ).fetchone()
    if row is None:
        current = dice_seed_from_row(_seed_row(conn, seed_id))
        actual = None if current.revealed_at is not None else current.counter
        raise DiceCounterError(seed_id, dice.first_counter, actual)


def read_secret(conn: sqlite3.Connection, seed_id: int) -> bytes:
    row = conn.execute(
        "SELECT server_seed FROM dice_seeds WHERE seed_id = ?", (seed_id,)
    ).fetchone()
    if row is None:
        raise NotFoundError("dice seed", seed_id)
    return bytes(row[0])


def reveal(conn: sqlite3.Connection, seed_id: int, now: int) -> DiceSeed:
    """Mark the seed revealed (once; later calls keep the first time) and return it with its
    server seed. Refused while a game drawing from it is still active."""
    active = conn.execute(
        "SELECT game_id FROM games WHERE dice_seed_id = ? AND status = 'active' LIMIT 1",
        (seed_id,),
    ).fetchone()
    if active is not None:
        raise DiceSeedInUseError(seed_id, active[0])
    row = conn.execute(
        "UPDATE dice_seeds SET revealed_at = COALESCE(revealed_at, ?) WHERE seed_id = ? "
        f"RETURNING {DICE_SEED_COLUMNS}",
        (now, seed_id),
    ).fetchone()
    if row is None:
        raise NotFoundError("dice seed", seed_id)
    return dice_seed_from_row(row, read_secret(conn, seed_id))
