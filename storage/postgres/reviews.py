"""Game reviews in PostgreSQL: the statements of :mod:`storage.sqlite.reviews`, numbered.

The claim is one upsert: a second worker's conflicting insert waits on the row's lock and
then re-checks the take-over condition, so exactly one of two workers holds a lease.
"""

from __future__ import annotations

import asyncpg

from storage.errors import NotFoundError
from storage.models import ReviewTotals, StoredReview
from storage.postgres.placeholders import numbered
from storage.sqlite.reviews import (
    CLAIM_REVIEW,
    FINISH_REVIEW,
    GAME_EXISTS,
    RELEASE_REVIEW,
    SELECT_REVIEW,
    finish_values,
    review_from_row,
)

Conn = asyncpg.Connection

_CLAIM = numbered(CLAIM_REVIEW)
_FINISH = numbered(FINISH_REVIEW)
_RELEASE = numbered(RELEASE_REVIEW)
_SELECT = numbered(SELECT_REVIEW)
_EXISTS = numbered(GAME_EXISTS)


async def claim(conn: Conn, game_id: int, owner: str, lease_until: int, now: int) -> StoredReview:
    if await conn.fetchval(_EXISTS, game_id) is None:
        raise NotFoundError("game", game_id)
    row = await conn.fetchrow(_CLAIM, game_id, owner, lease_until, now)
    if row is None:
        row = await conn.fetchrow(_SELECT, game_id)
    return review_from_row(row)


async def finish(
    conn: Conn,
    game_id: int,
    summary: str,
    white: ReviewTotals,
    black: ReviewTotals,
    now: int,
) -> StoredReview:
    row = await conn.fetchrow(_FINISH, *finish_values(game_id, summary, white, black, now))
    if row is None:
        row = await conn.fetchrow(_SELECT, game_id)
        if row is None:
            raise NotFoundError("review", game_id)
    return review_from_row(row)


async def release(conn: Conn, game_id: int, owner: str) -> bool:
    return await conn.fetchval(_RELEASE, game_id, owner) is not None
