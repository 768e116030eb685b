"""A redelivered Telegram update (a webhook retry, a restart before the offset was confirmed)
acts once."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from storage import DuplicateUpdateError, GameResult, NewMove, Storage
from tests.storage.conftest import ALICE, FakeClock, new_game


async def test_marking_an_update_is_true_only_the_first_time(store: Storage) -> None:
    assert await store.mark_update_processed(1_000_001) is True
    assert await store.mark_update_processed(1_000_001) is False
    assert await store.mark_update_processed(1_000_002) is True


async def test_concurrent_marks_of_one_update_let_one_through(store: Storage) -> None:
    results = await asyncio.gather(*(store.mark_update_processed(77) for _ in range(20)))
    assert sorted(results) == [False] * 19 + [True]


async def test_a_save_tied_to_an_update_applies_once(people: Storage) -> None:
    game = await people.create_game(new_game())
    play = NewMove("white", (3, 1), "24/21 24/23", "p1")
    saved = await people.save_game(game.game_id, 1, "after", moves=[play], update_id=500)
    with pytest.raises(DuplicateUpdateError) as caught:
        await people.save_game(saved.game_id, saved.version, "again", moves=[play], update_id=500)
    assert caught.value.update_id == 500
    assert await people.get_game(game.game_id) == saved
    assert len(await people.get_moves(game.game_id)) == 1
    assert not await people.mark_update_processed(500)


async def test_a_failed_save_does_not_consume_the_update(people: Storage) -> None:
    """The mark is in the save's transaction: a stale write rolls it back with everything."""
    game = await people.create_game(new_game())
    await people.save_game(game.game_id, 1, "v2")
    with pytest.raises(Exception, match="version"):
        await people.save_game(game.game_id, 1, "stale", update_id=600)
    assert await people.mark_update_processed(600)


async def test_finish_and_abandon_tied_to_updates(people: Storage) -> None:
    game = await people.create_game(new_game())
    await people.finish_game(game.game_id, 1, "end", GameResult("white", "oin", 1), update_id=700)
    with pytest.raises(DuplicateUpdateError):
        await people.finish_game(
            game.game_id, 2, "end", GameResult("white", "oin", 1), update_id=700
        )
    assert (await people.get_user_stats(ALICE, "long")).games == 1
    other = await people.create_game(new_game())
    await people.abandon_game(other.game_id, 1, update_id=701)
    with pytest.raises(DuplicateUpdateError):
        await people.abandon_game(other.game_id, 2, update_id=701)


async def test_old_marks_are_pruned(store: Storage, clock: FakeClock) -> None:
    await store.mark_update_processed(1)
    clock.advance(days=1)
    await store.mark_update_processed(2)
    clock.advance(days=1, seconds=1)
    assert await store.prune_processed_updates() == 1  # only the one older than two days
    assert await store.mark_update_processed(1) is True
    assert await store.mark_update_processed(2) is False
    clock.advance(seconds=1)
    assert await store.prune_processed_updates(timedelta(0)) == 2
