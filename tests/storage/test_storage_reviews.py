"""Game reviews in storage, on both backends: one worker computes a review at a time (a lease),
a dead worker's claim is taken over once its lease ends, a done review is kept as it was, and
a user's error rate adds up their colour's totals over their reviewed games per variant; the
games of a match are found through their shared dice seed."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import replace
from datetime import timedelta

import pytest

from storage import (
    GameResult,
    NotFoundError,
    ReviewStatus,
    ReviewTotals,
    Storage,
)
from tests.storage.conftest import ALICE, BORIS, CARMEN, GROUP, PRIVATE, FakeClock, new_game

LEASE = timedelta(minutes=2)


async def finished_game(store: Storage, white: int | None = ALICE, black: int | None = BORIS, **kw):
    game = await store.create_game(new_game(white, black, **kw))
    done = await store.finish_game(game.game_id, 1, "final", GameResult("white", "oin", 1))
    return done.game


async def test_the_first_claim_runs_a_second_waits_and_the_result_is_kept(
    people: Storage, clock: FakeClock
) -> None:
    game = await finished_game(people)
    assert await people.get_review(game.game_id) is None
    first = await people.claim_review(game.game_id, "worker-a", LEASE)
    assert (first.status, first.owner) == (ReviewStatus.RUNNING, "worker-a")
    assert first.lease_until == clock.now + LEASE and not first.done
    second = await people.claim_review(game.game_id, "worker-b", LEASE)
    assert (second.status, second.owner) == (ReviewStatus.RUNNING, "worker-a")

    done = await people.finish_review(
        game.game_id, '{"r":1}', ReviewTotals(30, 0.25), ReviewTotals(28, 1.5)
    )
    assert done.done and done.summary == '{"r":1}' and done.owner is None
    assert (done.white_decisions, done.white_error) == (30, 0.25)
    assert (done.black_decisions, done.black_error) == (28, 1.5)
    # Done is final: neither a new claim nor a late second result changes it.
    again = await people.claim_review(game.game_id, "worker-c", LEASE)
    assert again == done
    late = await people.finish_review(
        game.game_id, '{"r":2}', ReviewTotals(1, 0.0), ReviewTotals(1, 0.0)
    )
    assert late == done == await people.get_review(game.game_id)


async def test_the_owner_renews_its_lease_by_claiming_again(
    people: Storage, clock: FakeClock
) -> None:
    game = await finished_game(people)
    await people.claim_review(game.game_id, "a", LEASE)
    clock.advance(seconds=60)
    renewed = await people.claim_review(game.game_id, "a", LEASE)
    assert (renewed.owner, renewed.lease_until) == ("a", clock.now + LEASE)
    clock.advance(seconds=LEASE.total_seconds() - 1)
    assert (await people.claim_review(game.game_id, "b", LEASE)).owner == "a"


async def test_a_claim_whose_lease_ran_out_is_taken_over(people: Storage, clock: FakeClock) -> None:
    """The bot restarted in the middle of a review: after the lease, the next request runs it."""
    game = await finished_game(people)
    await people.claim_review(game.game_id, "died", LEASE)
    clock.advance(seconds=LEASE.total_seconds() - 1)
    assert (await people.claim_review(game.game_id, "new", LEASE)).owner == "died"
    clock.advance(seconds=1)
    taken = await people.claim_review(game.game_id, "new", LEASE)
    assert (taken.status, taken.owner, taken.lease_until) == (
        ReviewStatus.RUNNING,
        "new",
        clock.now + LEASE,
    )


async def test_a_released_claim_lets_the_next_request_start_afresh(people: Storage) -> None:
    game = await finished_game(people)
    await people.claim_review(game.game_id, "a", LEASE)
    assert not await people.release_review(game.game_id, "b")  # not b's claim
    assert await people.release_review(game.game_id, "a")
    assert await people.get_review(game.game_id) is None
    assert (await people.claim_review(game.game_id, "b", LEASE)).owner == "b"


async def test_two_workers_claiming_at_once_one_wins(backend, clock: FakeClock) -> None:
    stores = [await backend.open(clock) for _ in range(2)]
    try:
        await stores[0].upsert_user(ALICE, "Alice")
        await stores[0].upsert_user(BORIS, "Борис")
        await stores[0].upsert_chat(GROUP, "supergroup")
        game = await finished_game(stores[0])
        rows = await asyncio.gather(
            *(s.claim_review(game.game_id, f"w{i}", LEASE) for i, s in enumerate(stores))
        )
        assert {r.owner for r in rows} == {rows[0].owner}  # both see the same single owner
    finally:
        for s in stores:
            await s.close()


async def test_unknown_games_and_bad_arguments_are_refused(people: Storage) -> None:
    with pytest.raises(NotFoundError):
        await people.claim_review(999_999, "a", LEASE)
    game = await finished_game(people)
    with pytest.raises(ValueError):
        await people.claim_review(game.game_id, "", LEASE)
    with pytest.raises(ValueError):
        await people.claim_review(game.game_id, "a", timedelta(0))
    await people.claim_review(game.game_id, "a", LEASE)
    with pytest.raises(ValueError):
        await people.finish_review(game.game_id, "{}", ReviewTotals(-1, 0), ReviewTotals(0, 0))
    with pytest.raises(ValueError):
        await people.finish_review(game.game_id, "", ReviewTotals(0, 0), ReviewTotals(0, 0))


async def test_error_rates_add_up_each_players_own_colour_per_variant(people: Storage) -> None:
    a = await finished_game(people, ALICE, BORIS)  # Alice white
    b = await finished_game(people, BORIS, ALICE)  # Alice black
    c = await finished_game(people, ALICE, None, variant="short", chat_id=PRIVATE)
    d = await finished_game(people, CARMEN, BORIS)  # not Alice's
    unreviewed = await finished_game(people, ALICE, BORIS)
    totals = [
        (a, ReviewTotals(10, 0.1), ReviewTotals(10, 0.9)),
        (b, ReviewTotals(20, 0.7), ReviewTotals(30, 0.2)),
        (c, ReviewTotals(5, 0.05), ReviewTotals(5, 0.0)),
        (d, ReviewTotals(5, 3.0), ReviewTotals(5, 3.0)),
    ]
    for game, white, black in totals:
        await people.claim_review(game.game_id, "w", LEASE)
        await people.finish_review(game.game_id, "{}", white, black)
    await people.claim_review(unreviewed.game_id, "w", LEASE)  # running: not counted
    rates = {str(r.variant): r for r in await people.error_rates(ALICE)}
    assert set(rates) == {"long", "short"}
    long = rates["long"]
    assert (long.games, long.decisions) == (2, 40)
    assert long.total_error == pytest.approx(0.3)
    assert long.error_rate == pytest.approx(7.5)
    assert (rates["short"].games, rates["short"].decisions) == (1, 5)
    assert rates["short"].error_rate == pytest.approx(10.0)
    assert await people.error_rates(999) == []


async def test_a_match_is_its_games_sharing_a_dice_seed(people: Storage) -> None:
    secret = bytes(range(32))
    seed = await people.create_dice_seed(hashlib.sha256(secret).hexdigest(), secret)
    other = bytes(range(1, 33))
    seed2 = await people.create_dice_seed(hashlib.sha256(other).hexdigest(), other)
    first = await finished_game(people)
    # (games of the test's store are made with a seed by hand: the service links them)
    one = await people.create_game(replace(new_game(match_length=3), dice_seed_id=seed.seed_id))
    await people.finish_game(one.game_id, 1, "x", GameResult("white", "oin", 1))
    two = await people.create_game(replace(new_game(match_length=3), dice_seed_id=seed.seed_id))
    elsewhere = await people.create_game(
        replace(new_game(match_length=3, thread_id=5), dice_seed_id=seed2.seed_id)
    )
    assert [g.game_id for g in await people.match_games(two.game_id)] == [
        one.game_id,
        two.game_id,
    ]
    assert [g.game_id for g in await people.match_games(first.game_id)] == [first.game_id]
    assert [g.game_id for g in await people.match_games(elsewhere.game_id)] == [elsewhere.game_id]
    with pytest.raises(NotFoundError):
        await people.match_games(999_999)
    chat = await people.list_chat_games(GROUP, status="finished")
    assert [g.game_id for g in chat] == [one.game_id, first.game_id]
    assert len(await people.list_chat_games(GROUP)) == 4
