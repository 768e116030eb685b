"""Game reviews, for both backends: the statements, the row mapping and the transaction
bodies.

A review is claimed with a lease: the first worker to ask inserts a ``running`` row naming
itself and renews the lease by claiming again while it computes; another asking meanwhile
gets that row back and waits for it; once the lease has run out (its worker died, the bot
restarted) the next to ask takes the row over. The claim is one
upsert whose ``WHERE`` holds the take-over rule, so both databases decide it atomically (on
PostgreSQL a second worker's conflicting insert waits on the row's lock and then re-checks the
take-over condition, so exactly one of two workers holds a lease).
"""

from __future__ import annotations

from typing import Any

from storage.errors import NotFoundError
from storage.models import ErrorRate, ReviewStatus, ReviewTotals, StoredReview, Variant
from storage.sql.steps import Body, Dialect, one
from storage.sqlite.rows import float_or_none, from_us, from_us_or_none

REVIEW_COLUMNS = (
    "game_id, status, owner, lease_until, summary, white_decisions, white_error, "
    "black_decisions, black_error, created_at, updated_at"
)

#: Claim: a new running row, a renewal of the owner's own lease, or the take-over of a
#: running row whose lease has ended; no row back when the review is done or another
#: worker's lease still runs.
CLAIM_REVIEW = (
    "INSERT INTO game_reviews (game_id, status, owner, lease_until, created_at, updated_at) "
    "VALUES (?1, 'running', ?2, ?3, ?4, ?4) "
    "ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, "
    "lease_until = excluded.lease_until, updated_at = excluded.updated_at "
    "WHERE game_reviews.status = 'running' AND (game_reviews.owner = excluded.owner "
    "OR game_reviews.lease_until <= excluded.updated_at) "
    f"RETURNING {REVIEW_COLUMNS}"
)

#: The result: any running row becomes done (a worker whose lease ran out may still finish
#: first; its review is as good as the other's). No row back if it was done already.
FINISH_REVIEW = (
    "UPDATE game_reviews SET status = 'done', owner = NULL, lease_until = NULL, summary = ?2, "
    "white_decisions = ?3, white_error = ?4, black_decisions = ?5, black_error = ?6, "
    "updated_at = ?7 WHERE game_id = ?1 AND status = 'running' "
    f"RETURNING {REVIEW_COLUMNS}"
)

#: A worker gives its claim back (the review failed): the next request starts afresh.
RELEASE_REVIEW = (
    "DELETE FROM game_reviews WHERE game_id = ?1 AND status = 'running' AND owner = ?2 "
    "RETURNING game_id"
)

SELECT_REVIEW = f"SELECT {REVIEW_COLUMNS} FROM game_reviews WHERE game_id = ?"

GAME_EXISTS = "SELECT 1 FROM games WHERE game_id = ?"

#: Every reviewed game of a user, per variant: their colour's decisions and equity lost.
ERROR_RATES = (
    "SELECT g.variant AS variant, COUNT(*) AS games, "
    "SUM(CASE WHEN g.white_user_id = ?1 THEN r.white_decisions ELSE r.black_decisions END) "
    "AS decisions, "
    "SUM(CASE WHEN g.white_user_id = ?1 THEN r.white_error ELSE r.black_error END) "
    "AS total_error "
    "FROM game_reviews AS r JOIN games AS g ON g.game_id = r.game_id "
    "WHERE r.status = 'done' AND (g.white_user_id = ?1 OR g.black_user_id = ?1) "
    "GROUP BY g.variant ORDER BY g.variant"
)


def review_from_row(row: Any) -> StoredReview:
    return StoredReview(
        game_id=row["game_id"],
        status=ReviewStatus(row["status"]),
        owner=row["owner"],
        lease_until=from_us_or_none(row["lease_until"]),
        summary=row["summary"],
        white_decisions=int(row["white_decisions"]),
        white_error=float(row["white_error"]),
        black_decisions=int(row["black_decisions"]),
        black_error=float(row["black_error"]),
        created_at=from_us(row["created_at"]),
        updated_at=from_us(row["updated_at"]),
    )


def error_rate_from_row(user_id: int, row: Any) -> ErrorRate:
    return ErrorRate(
        user_id=user_id,
        variant=Variant(row["variant"]),
        games=int(row["games"]),
        decisions=int(row["decisions"] or 0),
        total_error=float_or_none(row["total_error"]) or 0.0,
    )


def finish_values(
    game_id: int, summary: str, white: ReviewTotals, black: ReviewTotals, now: int
) -> tuple[Any, ...]:
    return (
        game_id,
        summary,
        white.decisions,
        float(white.error),
        black.decisions,
        float(black.error),
        now,
    )


def claim(db: Dialect, game_id: int, owner: str, lease_until: int, now: int) -> Body[StoredReview]:
    if (yield one(GAME_EXISTS, game_id)) is None:
        raise NotFoundError("game", game_id)
    # The upsert compares the lease with its own updated_at, which is ``now``.
    row = yield one(CLAIM_REVIEW, game_id, owner, lease_until, now)
    if row is None:
        row = yield one(SELECT_REVIEW, game_id)
    return review_from_row(row)


def finish(
    db: Dialect,
    game_id: int,
    summary: str,
    white: ReviewTotals,
    black: ReviewTotals,
    now: int,
) -> Body[StoredReview]:
    row = yield one(FINISH_REVIEW, *finish_values(game_id, summary, white, black, now))
    if row is None:
        row = yield one(SELECT_REVIEW, game_id)
        if row is None:
            raise NotFoundError("review", game_id)
    return review_from_row(row)


def release(db: Dialect, game_id: int, owner: str) -> Body[bool]:
    return (yield one(RELEASE_REVIEW, game_id, owner)) is not None
