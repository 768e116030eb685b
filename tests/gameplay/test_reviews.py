"""Reviews as the bot gets them (gameplay.reviews): computed in a worker process and equal to
the review computed directly, stored as a summary that reads back the same; requested twice
at once in one process, computed once; requested by two processes, computed by one while the
other waits and sends nothing; refused for a game still being played; a failed computation
gives its claim back."""

from __future__ import annotations

import asyncio
import concurrent.futures
from pathlib import Path

import pytest

import storage
from ai.review import review_game
from engine import Match, Side
from gameplay import Refusal, Refused
from gameplay.reviews import Review, Reviews, ReviewStart, summarize
from tests.matches import play_match

GROUP = -100500


def _threads() -> concurrent.futures.Executor:
    return concurrent.futures.ThreadPoolExecutor(max_workers=1)


@pytest.fixture
async def store(tmp_path: Path):
    s = await storage.SqliteStorage.open(tmp_path / "reviews.sqlite3")
    await s.upsert_user(1, "Alice")
    await s.upsert_user(2, "Bob")
    await s.upsert_chat(GROUP, "supergroup")
    yield s
    await s.close()


async def _finished(store: storage.Storage, seed: int, variant: str = "short") -> tuple[int, Match]:
    states: list[str] = []
    play_match(variant, 1, seed, states=states, double_rate=0.1)
    match = Match.from_json(states[0])
    row = await store.create_game(
        storage.NewGame(variant, GROUP, 1, 2, states[0], options=match.options.to_dict())
    )
    result = match.current.result
    assert result is not None
    winner = storage.Colour(result.winner.label)
    await store.finish_game(row.game_id, 1, states[0], storage.GameResult(winner, "oin", 1))
    return row.game_id, match


async def test_a_review_from_the_worker_process_is_the_direct_review(store) -> None:
    game_id, match = await _finished(store, seed=2)
    reviews = Reviews(store)
    try:
        start, task = reviews.request(game_id)
        again, same = reviews.request(game_id)
        assert (start, again) == (ReviewStart.NEW, ReviewStart.RUNNING) and same is task
        review = await task
    finally:
        await reviews.close()
    game = match.current
    direct = summarize(game_id, review_game(game.history, "short", match.options))
    assert review == direct
    assert Review.from_json(game_id, review.to_json()) == review
    assert reviews.computed == 1 and len(reviews.cpu_seconds) == 1
    row = await store.get_review(game_id)
    assert row is not None and row.done
    white = review.players[Side.WHITE]
    assert (row.white_decisions, row.white_error) == (white.decisions, white.total_error)
    assert any(review.players[s].mistakes for s in Side)


async def test_a_stored_review_is_not_computed_again(store) -> None:
    game_id, _ = await _finished(store, seed=3)
    first = Reviews(store, executor_factory=_threads)
    try:
        computed = await first.request(game_id)[1]
    finally:
        await first.close()
    second = Reviews(store, executor_factory=_threads)
    try:
        assert await second.request(game_id)[1] == computed
        assert second.computed == 0
    finally:
        await second.close()


async def test_two_processes_compute_one_review_and_only_its_own_sends_it(store) -> None:
    game_id, _ = await _finished(store, seed=4)
    here, there = (
        Reviews(store, executor_factory=_threads),
        Reviews(store, executor_factory=_threads),
    )
    try:
        _, mine = here.request(game_id)
        while await store.get_review(game_id) is None:  # this one claims first
            await asyncio.sleep(0.01)
        _, theirs = there.request(game_id)
        results = await asyncio.gather(mine, theirs)
    finally:
        await here.close()
        await there.close()
    assert results[0] is not None and results[1] is None
    assert (here.computed, there.computed) == (1, 0)


async def test_a_game_still_being_played_is_not_reviewed(store) -> None:
    match = Match("short", 1)
    row = await store.create_game(storage.NewGame("short", GROUP, 1, 2, match.to_json()))
    reviews = Reviews(store, executor_factory=_threads)
    try:
        with pytest.raises(Refused) as refused:
            await reviews.request(row.game_id)[1]
        assert refused.value.refusal is Refusal.GAME_NOT_OVER
        with pytest.raises(Refused) as refused:
            await reviews.request(999_999)[1]
        assert refused.value.refusal is Refusal.GAME_NOT_FOUND
    finally:
        await reviews.close()
    assert await store.get_review(row.game_id) is None


async def test_a_failed_review_gives_its_claim_back(store) -> None:
    row = await store.create_game(storage.NewGame("short", GROUP, 1, 2, '{"not": "a match"}'))
    await store.finish_game(
        row.game_id, 1, '{"not": "a match"}', storage.GameResult("white", "oin", 1)
    )
    reviews = Reviews(store, executor_factory=_threads)
    try:
        with pytest.raises(Exception):  # noqa: B017 - whatever the engine raises for it
            await reviews.request(row.game_id)[1]
    finally:
        await reviews.close()
    assert await store.get_review(row.game_id) is None


async def test_closing_in_the_middle_of_a_review_gives_its_claim_back(store) -> None:
    """A bot stopping while it reviews leaves no claim behind: asked again after the
    restart, the review starts at once instead of waiting for the lease."""
    game_id, _ = await _finished(store, seed=5)
    reviews = Reviews(store)
    _, task = reviews.request(game_id)
    while await store.get_review(game_id) is None:
        await asyncio.sleep(0.01)
    await reviews.close()
    assert task.cancelled()
    assert await store.get_review(game_id) is None


def test_a_match_game_is_reviewed_at_its_score_and_the_crawford_game_without_the_cube() -> None:
    """``match_context`` gives the worker the score before the game from white's side and
    whether it is the Crawford game; a single game has no score (money play)."""
    from ai.match import MatchScore
    from engine import Options
    from gameplay.reviews import match_context

    states: list[str] = []
    play_match("short", 5, seed=5, states=states, double_rate=0.0, options=Options(crawford=True))
    assert len(states) >= 3
    seen_crawford = False
    for state in states:
        game_match = Match.from_json(state)
        game = game_match.current
        score, crawford_game = match_context(game_match)
        before = [0, 0]
        for r in game_match.results[: game_match.game_number - 1]:
            before[int(r["winner_seat"])] += int(r["points"])
        white = game.seat_of(Side.WHITE)
        assert score == MatchScore(
            5, min(5, before[white]), min(5, before[1 - white]), game_match.crawford_done, True
        )
        assert crawford_game == game.crawford
        seen_crawford |= crawford_game
    assert seen_crawford, "the seeded match has a Crawford game"
    single = Match.from_json(_single_state())
    assert match_context(single) == (None, False)


def _single_state() -> str:
    states: list[str] = []
    play_match("short", 1, seed=1, states=states)
    return states[0]


async def test_a_whole_match_is_reviewed_game_by_game_with_totals_per_player(store) -> None:
    """Every game of a finished match reviewed once (stored like a single game's review),
    each player's totals the sum over the games of the colour they played in each; refused
    while the match goes on."""
    from gameplay.reviews import MatchReview
    from tests.gameplay.test_archive import ALICE, BOB, _stored_match

    await store.upsert_user(ALICE, "Alice")
    await store.upsert_user(BOB, "Bob")
    ids, states, _ = await _stored_match(store, "short", 3, seed=3)
    assert len(ids) >= 2
    reviews = Reviews(store, executor_factory=_threads)
    try:
        review = await reviews.match_review(ids[1])
        assert isinstance(review, MatchReview) and reviews.computed == len(ids)
        again = await reviews.match_review(ids[0])
        assert again == review and reviews.computed == len(ids)
        single = await reviews.stored(ids[0])
        assert single is not None and review.games[0].review == single
    finally:
        await reviews.close()
    last = Match.from_json(states[-1])
    assert review.length == 3 and max(review.score) == 3 and review.score == tuple(last.score)
    for seat in (0, 1):
        parts = []
        for game_id, state, game in zip(ids, states, review.games, strict=True):
            white_seat = Match.from_json(state).current.white_seat
            side = Side.WHITE if seat == white_seat else Side.BLACK
            stored = await store.get_review(game_id)
            assert stored is not None
            parts.append(
                (stored.white_decisions, stored.white_error)
                if side is Side.WHITE
                else (stored.black_decisions, stored.black_error)
            )
            assert game.white_seat == white_seat
        totals = review.totals(seat)
        assert totals.decisions == sum(d for d, _ in parts)
        assert totals.total_error == pytest.approx(sum(e for _, e in parts))
        assert totals.error_rate == pytest.approx(1000 * totals.total_error / totals.decisions)
    assert [g.winner_seat for g in review.games] == [int(r["winner_seat"]) for r in last.results]

    # a match still being played: its finished first game stored, the second one running
    row = await store.create_game(storage.NewGame("short", GROUP, 1, 2, states[0], match_length=3))
    with pytest.raises(Refused) as refused:
        await Reviews(store, executor_factory=_threads).match_review(row.game_id)
    assert refused.value.refusal is Refusal.MATCH_NOT_OVER
