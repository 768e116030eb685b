"""Provably-fair dice seeds in PostgreSQL: the steps of :mod:`storage.sqlite.dice`, with the
row locks that writers running side by side need.

The secret ``server_seed`` is written once, read only by :func:`read_secret` and by the
reveal; every other query names :data:`~storage.sqlite.rows.DICE_SEED_COLUMNS`, which leaves it
out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import asyncpg

from storage.errors import (
    DiceCounterError,
    DiceSeedFrozenError,
    DiceSeedInUseError,
    NotFoundError,
)
from storage.models import DiceRolls, DiceSeed
from storage.sqlite.rows import DICE_SEED_COLUMNS, dice_seed_from_row

Conn = asyncpg.Connection


async def _seed_row(conn: Conn, seed_id: int, *, lock: bool = False) -> asyncpg.Record:
    row = await conn.fetchrow(
        f"SELECT {DICE_SEED_COLUMNS} FROM dice_seeds WHERE seed_id = $1"
        + (" FOR UPDATE" if lock else ""),
        seed_id,
    )
    if row is None:
        raise NotFoundError("dice seed", seed_id)
    return row


async def insert_seed(
    conn: Conn, commitment: str, server_seed: bytes, client_seeds: Sequence[str], now: int
) -> DiceSeed:
    row = await conn.fetchrow(
        "INSERT INTO dice_seeds (commitment, server_seed, client_seeds, created_at) "
        f"VALUES ($1, $2, $3, $4) RETURNING {DICE_SEED_COLUMNS}",
        commitment,
        server_seed,
        json.dumps(list(client_seeds), ensure_ascii=False),
        now,
    )
    return dice_seed_from_row(row)


async def add_client_seed(conn: Conn, seed_id: int, client_seed: str) -> DiceSeed:
    """Append a client seed while no die has been drawn; afterwards the seeds are frozen."""
    row = await conn.fetchrow(
        "UPDATE dice_seeds "
        "SET client_seeds = (client_seeds::jsonb || jsonb_build_array($1::text))::text "
        "WHERE seed_id = $2 AND rolls = '' AND revealed_at IS NULL "
        f"RETURNING {DICE_SEED_COLUMNS}",
        client_seed,
        seed_id,
    )
    if row is None:
        await _seed_row(conn, seed_id)  # NotFoundError if there is no such seed
        raise DiceSeedFrozenError(seed_id)
    return dice_seed_from_row(row)


async def append_dice(conn: Conn, seed_id: int | None, dice: DiceRolls | None) -> None:
    """Store dice drawn for a game write, in the caller's transaction, at exactly the next
    counter (a concurrent append waits for the row and then finds the length moved)."""
    if dice is None or not dice.values:
        return
    if seed_id is None:
        raise ValueError("dice were given for a game without a dice seed")
    appended = await conn.fetchval(
        "UPDATE dice_seeds SET rolls = rolls || $1 "
        "WHERE seed_id = $2 AND length(rolls) = $3 AND revealed_at IS NULL RETURNING seed_id",
        "".join(str(v) for v in dice.values),
        seed_id,
        dice.first_counter,
    )
    if appended is None:
        current = dice_seed_from_row(await _seed_row(conn, seed_id))
        actual = None if current.revealed_at is not None else current.counter
        raise DiceCounterError(seed_id, dice.first_counter, actual)


async def read_secret(conn: Conn, seed_id: int) -> bytes:
    secret = await conn.fetchval("SELECT server_seed FROM dice_seeds WHERE seed_id = $1", seed_id)
    if secret is None:
        raise NotFoundError("dice seed", seed_id)
    return bytes(secret)


async def reveal(conn: Conn, seed_id: int, now: int) -> DiceSeed:
    """Mark the seed revealed (once) and return it with its server seed; refused while a game
    drawing from it is active.  The seed row is locked first: a game being created with it
    (whose foreign key needs a share lock on the row) waits, or is seen."""
    await _seed_row(conn, seed_id, lock=True)
    active = await conn.fetchval(
        "SELECT game_id FROM games WHERE dice_seed_id = $1 AND status = 'active' LIMIT 1",
        seed_id,
    )
    if active is not None:
        raise DiceSeedInUseError(seed_id, int(active))
    row = await conn.fetchrow(
        "UPDATE dice_seeds SET revealed_at = COALESCE(revealed_at, $1) WHERE seed_id = $2 "
        f"RETURNING {DICE_SEED_COLUMNS}",
        now,
        seed_id,
    )
    return dice_seed_from_row(row, await read_secret(conn, seed_id))
