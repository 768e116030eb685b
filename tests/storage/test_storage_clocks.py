"""Move clocks, timeout claims, abandonment and ending without play, on real SQLite files.

Every "fire" is idempotent and every race has exactly one outcome: a claim tapped twice, a
reminder fired again after a restart, a claim racing a last-second move."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from storage import (
    ClaimRefusedError,
    ClockEvent,
    ClockUpdate,
    EndReason,
    GameNotActiveError,
    GameResult,
    GameStatus,
    OfferError,
    SqliteStorage,
    StaleVersionError,
    StorageError,
)
from tests.storage.conftest import ALICE, BORIS, CARMEN, GROUP, FakeClock, new_game

HOUR = timedelta(hours=1)


def clock_for(now: datetime, move: int, user: int | None, per_move: timedelta = 24 * HOUR):
    """The shape gameplay.clocks.clock_update produces (kept literal here: storage's tests do
    not depend on the policy module)."""
    return ClockUpdate(
        move_number=move,
        on_clock_user_id=user,
        remind_at=now + per_move / 2,
        deadline_at=now + per_move,
        abandon_at=now + timedelta(days=30),
    )


async def clocked_game(store: SqliteStorage, clock: FakeClock, on_clock: int = ALICE):
    return await store.create_game(
        replace(new_game(ALICE, BORIS), clock=clock_for(clock.now, 1, on_clock))
    )


async def test_the_clock_is_stored_and_found_by_its_next_event(
    people: SqliteStorage, clock: FakeClock
) -> None:
    game = await clocked_game(people, clock)
    stored = await people.get_clock(game.game_id)
    assert stored is not None
    assert (stored.game_version, stored.move_number, stored.on_clock_user_id) == (1, 1, ALICE)
    assert stored.next_due_at == clock.now + 12 * HOUR == stored.remind_at
    assert await people.next_clock_due() == stored.remind_at
    assert await people.due_clocks() == []
    clock.advance(hours=12)
    assert [c.game_id for c in await people.due_clocks()] == [game.game_id]
    assert stored.due_event(clock.now) is ClockEvent.REMIND


def test_the_next_due_query_uses_its_index(db_path: Path) -> None:
    asyncio.run(_open_close(db_path))
    with sqlite3.connect(db_path) as conn:
        plan = conn.execute(
            "EXPLAIN QUERY PLAN SELECT next_due_at FROM game_clocks "
            "WHERE next_due_at IS NOT NULL ORDER BY next_due_at LIMIT 1"
        ).fetchall()
    conn.close()
    assert any("game_clocks_due" in row[-1] for row in plan), plan


async def _open_close(path: Path) -> None:
    await (await SqliteStorage.open(path)).close()


async def test_a_reminder_fires_once_per_move(people: SqliteStorage, clock: FakeClock) -> None:
    game = await clocked_game(people, clock)
    assert await people.fire_clock_event(game.game_id, 1, "remind") is None  # not yet
    clock.advance(hours=13)
    fired = await people.fire_clock_event(game.game_id, 1, "remind")
    assert fired is not None and fired.reminded and fired.next_due_at == fired.deadline_at
    assert await people.fire_clock_event(game.game_id, 1, "remind") is None  # a repeat
    # A step in the same move pushes the deadline back, but the reminder stays sent.
    game = await people.save_game(game.game_id, 1, "{}", clock=clock_for(clock.now, 1, ALICE))
    again = await people.get_clock(game.game_id)
    assert again is not None and again.reminded and again.game_version == 2
    clock.advance(hours=13)
    assert await people.fire_clock_event(game.game_id, 2, "remind") is None
    # The next move (a new move number) re-arms it.
    game = await people.save_game(game.game_id, 2, "{}", clock=clock_for(clock.now, 2, BORIS))
    clock.advance(hours=13)
    assert await people.fire_clock_event(game.game_id, 3, "remind") is not None


async def test_a_reminder_read_before_a_move_does_not_fire_after_it(
    people: SqliteStorage, clock: FakeClock
) -> None:
    game = await clocked_game(people, clock)
    clock.advance(hours=13)
    (due,) = await people.due_clocks()
    # The player moves between the scheduler's read and its fire: without a clock argument,
    # the save keeps the clock but ties it to the new version.
    await people.save_game(game.game_id, 1, "{}")
    assert await people.fire_clock_event(due.game_id, due.game_version, "remind") is None
    assert (await people.get_clock(game.game_id)).game_version == 2


async def test_a_timeout_fires_once_and_supersedes_the_reminder(
    people: SqliteStorage, clock: FakeClock
) -> None:
    game = await clocked_game(people, clock)
    clock.advance(hours=25)  # the bot was down through the reminder and the deadline
    (due,) = await people.due_clocks()
    assert due.due_event(clock.now) is ClockEvent.TIMEOUT
    fired = await people.fire_clock_event(game.game_id, 1, ClockEvent.TIMEOUT)
    assert fired is not None and fired.timed_out and fired.reminded
    assert fired.next_due_at == fired.abandon_at
    assert await people.fire_clock_event(game.game_id, 1, ClockEvent.TIMEOUT) is None
    assert await people.fire_clock_event(game.game_id, 1, ClockEvent.REMIND) is None
    with pytest.raises(ValueError):
        await people.fire_clock_event(game.game_id, 1, ClockEvent.ABANDON)


async def test_a_timeout_stays_announced_until_the_deadline_moves(
    people: SqliteStorage, clock: FakeClock
) -> None:
    """A save with the clock of the same move keeps the flags it may keep: the timeout while
    the deadline is the same, the reminder while the move is (next_due_at follows)."""
    start = clock.now
    game = await clocked_game(people, clock)
    clock.advance(hours=25)
    assert await people.fire_clock_event(game.game_id, 1, ClockEvent.TIMEOUT) is not None
    same = clock_for(start, 1, ALICE)  # the same move, the same deadline
    game = await people.save_game(game.game_id, 1, "{}", clock=same)
    kept = await people.get_clock(game.game_id)
    assert kept is not None and kept.timed_out and kept.reminded
    assert kept.next_due_at == kept.abandon_at and kept.game_version == 2
    later = clock_for(clock.now, 1, ALICE)  # a step entered: the deadline moves on
    game = await people.save_game(game.game_id, 2, "{}", clock=later)
    moved = await people.get_clock(game.game_id)
    assert moved is not None and not moved.timed_out and moved.reminded
    assert moved.next_due_at == moved.deadline_at == clock.now + 24 * HOUR


RESIGNED = GameResult("black", "oin", 1)  # Alice (white) on the clock, Boris claims


async def test_claims_are_refused_until_the_deadline_and_to_the_player_on_the_clock(
    people: SqliteStorage, clock: FakeClock
) -> None:
    game = await clocked_game(people, clock)
    for who, reason in ((BORIS, "not_expired"), (CARMEN, "not_a_player")):
        with pytest.raises(ClaimRefusedError) as caught:
            await people.claim_timeout(game.game_id, 1, who, "{}", RESIGNED)
        assert caught.value.reason == reason
    clock.advance(hours=24)
    with pytest.raises(ClaimRefusedError) as caught:
        await people.claim_timeout(game.game_id, 1, ALICE, "{}", GameResult("white", "oin", 1))
    assert caught.value.reason == "on_clock"
    plain = await people.create_game(new_game(ALICE, BORIS, thread_id=9))
    with pytest.raises(ClaimRefusedError) as caught:
        await people.claim_timeout(plain.game_id, 1, BORIS, "{}", RESIGNED)
    assert caught.value.reason == "no_clock"
    assert (await people.get_game(game.game_id)).status is GameStatus.ACTIVE


async def test_a_claim_finishes_the_game_with_ratings_and_tapped_twice_counts_once(
    people: SqliteStorage, clock: FakeClock
) -> None:
    game = await clocked_game(people, clock)
    clock.advance(hours=24)
    done = await people.claim_timeout(game.game_id, 1, BORIS, '{"claimed":1}', RESIGNED)
    assert done.game.status is GameStatus.FINISHED
    assert done.game.end_reason is EndReason.TIMEOUT
    assert done.game.winner_user_id == BORIS and len(done.rating_changes) == 2
    assert await people.get_clock(game.game_id) is None  # no more events for it
    with pytest.raises(GameNotActiveError):
        await people.claim_timeout(game.game_id, 1, BORIS, "{}", RESIGNED)
    with pytest.raises(GameNotActiveError):
        await people.claim_timeout(game.game_id, done.game.version, BORIS, "{}", RESIGNED)
    stats = await people.get_user_stats(BORIS, "long")
    assert (stats.games, stats.wins) == (1, 1)


async def test_a_claim_racing_a_last_second_move_has_one_outcome(
    people: SqliteStorage, clock: FakeClock
) -> None:
    """Both read version 1; the claim and the move are sent at once, many times over. Exactly
    one of them is stored each time, and the loser gets a typed error and changes nothing."""
    outcomes = set()
    for thread in range(1, 21):
        game = await people.create_game(
            replace(new_game(ALICE, BORIS, thread_id=thread), clock=clock_for(clock.now, 1, ALICE))
        )
        clock.advance(hours=24, seconds=1)
        claiming = people.claim_timeout(game.game_id, 1, BORIS, "{}", RESIGNED)
        moving = people.save_game(
            game.game_id, 1, '{"moved":1}', clock=clock_for(clock.now, 2, BORIS)
        )
        # Alternate which is sent first, so both orders are exercised.
        first, second = (claiming, moving) if thread % 2 else (moving, claiming)
        results = await asyncio.gather(first, second, return_exceptions=True)
        claim, move = results if thread % 2 else results[::-1]
        winners = [r for r in (claim, move) if not isinstance(r, BaseException)]
        assert len(winners) == 1, (claim, move)
        loser = claim if isinstance(claim, BaseException) else move
        assert isinstance(loser, (StaleVersionError, GameNotActiveError))
        stored = await people.get_game(game.game_id)
        assert stored.version == 2
        if stored.status is GameStatus.FINISHED:
            outcomes.add("claim")
            assert stored.state == "{}"
        else:
            outcomes.add("move")
            assert stored.state == '{"moved":1}'
            await people.abandon_game(game.game_id, 2)
    assert outcomes == {"claim", "move"}


async def test_abandonment_after_inactivity_once_and_without_ratings(
    people: SqliteStorage, clock: FakeClock
) -> None:
    game = await clocked_game(people, clock)
    assert await people.abandon_inactive(game.game_id, 1) is None  # not due
    clock.advance(days=30)
    (due,) = await people.due_clocks()
    assert due.due_event(clock.now) is ClockEvent.ABANDON
    closed = await people.abandon_inactive(game.game_id, 1)
    assert closed is not None and closed.status is GameStatus.ABANDONED
    assert closed.end_reason is EndReason.INACTIVE and closed.result is None
    assert await people.abandon_inactive(game.game_id, 1) is None
    assert await people.abandon_inactive(game.game_id, closed.version) is None
    assert await people.get_clock(game.game_id) is None
    assert await people.next_clock_due() is None
    assert (await people.get_user_stats(ALICE, "long")).games == 0
    assert (await people.get_rating(ALICE, "long")).games == 0
    assert await people.get_active_game(GROUP) is None  # the chat is free


async def test_an_admin_frees_the_chat_without_rating_changes(
    people: SqliteStorage, clock: FakeClock
) -> None:
    game = await clocked_game(people, clock)
    ended = await people.abandon_game(game.game_id, 1, reason="admin")
    assert ended.status is GameStatus.ABANDONED and ended.end_reason is EndReason.ADMIN
    assert ended.white_rating_change is None and (await people.get_rating(BORIS, "long")).games == 0
    assert await people.get_clock(game.game_id) is None
    plain = await people.create_game(new_game(ALICE, BORIS))
    with pytest.raises(ValueError):
        await people.abandon_game(plain.game_id, 1, reason="timeout")
    assert (await people.abandon_game(plain.game_id, 1)).end_reason is None


async def test_abandonment_by_agreement(people: SqliteStorage, clock: FakeClock) -> None:
    game = await clocked_game(people, clock)
    with pytest.raises(OfferError) as caught:
        await people.accept_abandon(game.game_id, BORIS, 1)
    assert caught.value.reason == "no_offer"
    with pytest.raises(OfferError):
        await people.offer_abandon(game.game_id, CARMEN, 1)
    offer = await people.offer_abandon(game.game_id, ALICE, 1)
    assert (offer.offered_by, offer.game_version) == (ALICE, 1)
    assert await people.get_abandon_offer(game.game_id) == offer
    with pytest.raises(OfferError) as caught:
        await people.accept_abandon(game.game_id, ALICE, 1)
    assert caught.value.reason == "own_offer"

    # A move makes the offer lapse.
    game = await people.save_game(game.game_id, 1, "{}")
    assert await people.get_abandon_offer(game.game_id) is None
    with pytest.raises(OfferError):
        await people.accept_abandon(game.game_id, BORIS, 2)

    await people.offer_abandon(game.game_id, BORIS, 2)
    assert await people.withdraw_abandon_offer(game.game_id, ALICE)  # declined
    assert not await people.withdraw_abandon_offer(game.game_id, ALICE)
    with pytest.raises(StaleVersionError):
        await people.offer_abandon(game.game_id, BORIS, 1)

    await people.offer_abandon(game.game_id, BORIS, 2)
    ended, again = await asyncio.gather(
        people.accept_abandon(game.game_id, ALICE, 2),
        people.accept_abandon(game.game_id, ALICE, 2),
        return_exceptions=True,
    )
    assert not isinstance(ended, BaseException)
    assert ended.status is GameStatus.ABANDONED and ended.end_reason is EndReason.AGREEMENT
    assert isinstance(again, StorageError)  # the second tap: the offer and the game are gone
    assert (await people.get_user_stats(ALICE, "long")).games == 0


async def test_finishing_removes_the_clock_and_the_offer(
    people: SqliteStorage, clock: FakeClock
) -> None:
    game = await clocked_game(people, clock)
    await people.offer_abandon(game.game_id, ALICE, 1)
    await people.finish_game(game.game_id, 1, "{}", GameResult("white", "oin", 1))
    assert await people.get_clock(game.game_id) is None
    assert await people.get_abandon_offer(game.game_id) is None
    assert await people.next_clock_due() is None


async def test_a_computer_to_move_has_only_the_abandonment_time(
    people: SqliteStorage, clock: FakeClock
) -> None:
    vs_ai = await people.create_game(
        replace(
            new_game(ALICE, None, chat_id=ALICE),
            clock=ClockUpdate(1, None, None, None, clock.now + timedelta(days=30)),
        )
    )
    stored = await people.get_clock(vs_ai.game_id)
    assert stored is not None and stored.next_due_at == stored.abandon_at
    with pytest.raises(ValueError):
        await people.save_game(
            vs_ai.game_id,
            1,
            "{}",
            clock=ClockUpdate(1, None, None, datetime(2030, 1, 1), None),  # naive time
        )


async def test_a_reminder_fired_before_a_restart_is_not_fired_again(
    db_path: Path, clock: FakeClock
) -> None:
    store = await SqliteStorage.open(db_path, clock=clock)
    await store.upsert_user(ALICE, "Alice")
    await store.upsert_user(BORIS, "Boris")
    await store.upsert_chat(GROUP, "supergroup")
    game = await clocked_game(store, clock)
    clock.advance(hours=12)
    assert await store.fire_clock_event(game.game_id, 1, "remind") is not None
    await store.close()

    store = await SqliteStorage.open(db_path, clock=clock)
    try:
        assert await store.fire_clock_event(game.game_id, 1, "remind") is None
        (still,) = await store.due_clocks(clock.now + timedelta(hours=12))
        assert still.reminded and still.due_event(clock.now + timedelta(hours=12)) is (
            ClockEvent.TIMEOUT
        )
    finally:
        await store.close()


async def test_abandonment_counts_from_the_last_write_even_without_a_clock_update(
    people: SqliteStorage, clock: FakeClock
) -> None:
    start = clock.now
    game = await people.create_game(
        replace(
            new_game(ALICE, BORIS),
            clock=ClockUpdate(1, ALICE, None, None, start + timedelta(days=30)),
        )
    )
    clock.advance(days=10)
    await people.save_game(game.game_id, 1, "{}")  # a write that passes no clock
    moved = await people.get_clock(game.game_id)
    assert moved is not None and moved.abandon_at == start + timedelta(days=40)
    assert moved.next_due_at == moved.abandon_at and moved.game_version == 2
    clock.advance(days=29)
    assert await people.abandon_inactive(game.game_id, 2) is None
    clock.advance(days=1)
    assert (await people.abandon_inactive(game.game_id, 2)).end_reason is EndReason.INACTIVE
