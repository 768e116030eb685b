"""The claim on a new game's first board: with several workers showing one finished game at
once (the one that saved it, another answering a stale tap or a redelivery), exactly one sends
the next game's first board; a claim whose worker died before sending runs out."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from storage import NotFoundError, Storage
from tests.storage.conftest import Backend, FakeClock, new_game

LEASE = timedelta(seconds=60)


async def test_the_first_claim_wins_until_its_lease_runs_out(
    people: Storage, clock: FakeClock
) -> None:
    game = await people.create_game(new_game())
    assert await people.claim_first_board(game.game_id, lease=LEASE) is True
    assert await people.claim_first_board(game.game_id, lease=LEASE) is False
    clock.advance(seconds=59)
    assert await people.claim_first_board(game.game_id, lease=LEASE) is False
    clock.advance(seconds=2)  # its worker died before sending: someone else may now
    assert await people.claim_first_board(game.game_id, lease=LEASE) is True
    assert await people.claim_first_board(game.game_id, lease=LEASE) is False
    other = await people.create_game(new_game(thread_id=5))
    assert await people.claim_first_board(other.game_id, lease=LEASE) is True


async def test_two_stores_racing_for_one_claim_let_one_through(
    people: Storage, backend: Backend, clock: FakeClock
) -> None:
    """Two store objects (two workers) asking at the same moment: one claim."""
    game = await people.create_game(new_game())
    other = await backend.open(clock)
    try:
        stores = (people, other)
        claims = await asyncio.gather(
            *(stores[i % 2].claim_first_board(game.game_id, lease=LEASE) for i in range(20))
        )
    finally:
        await other.close()
    assert sorted(claims) == [False] * 19 + [True]


async def test_a_claim_needs_the_game(people: Storage) -> None:
    with pytest.raises(NotFoundError):
        await people.claim_first_board(999_999, lease=LEASE)
