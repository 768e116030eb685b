"""Two game services on one PostgreSQL database, as two bot workers behind a load balancer:
no in-process state decides anything (``sole_writer=False``); the stored version does.

Each worker remembers games it served (its cache), and the other worker moves them on behind
its back. A tap from a board the other worker already replaced is refused as outdated and
changes nothing; a typed move (no version: "on the game as it is now") is decided again on the
newer state; two workers racing on one version apply one action, never two.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

import storage
from gameplay import GameService, Lobby, PlayText, Refusal, Refused, Step
from tests.gameplay.conftest import ANNA, BORIS, GROUP, mover


@pytest.fixture
async def two_workers(postgres_url: str) -> AsyncIterator[tuple[GameService, GameService]]:
    stores = [await storage.open_storage(postgres_url) for _ in range(2)]
    try:
        await stores[0].upsert_chat(GROUP.chat_id, storage.ChatType.SUPERGROUP, title="Нарды")
        yield (
            GameService(stores[0], rng=random.Random(5), sole_writer=False),
            GameService(stores[1], rng=random.Random(6), sole_writer=False),
        )
    finally:
        for store in stores:
            await store.close()


async def _group_game(games: GameService):
    lobby = Lobby(games)
    invitation = await lobby.invite(ANNA, GROUP, variant="long")
    return await lobby.accept(invitation.token, BORIS)


async def test_a_board_replaced_by_another_worker_is_outdated_here(
    two_workers: tuple[GameService, GameService],
) -> None:
    a, b = two_workers
    snap = await _group_game(a)
    await b.load(snap.game_id)  # b remembers the game at this version
    step = snap.game.legal_steps()[0]
    moved = await a.act(mover(snap), Step(step.src, step.dst), game_id=snap.game_id)
    assert moved.snap is not None and moved.snap.version == snap.version + 1
    # The same (old) button tapped again, now reaching worker b: its cache says the old
    # version, the database a newer one.
    with pytest.raises(Refused) as refused:
        await b.load_for_tap(snap.game_id, mover(snap).user_id, snap.version)
    assert refused.value.refusal is Refusal.OUTDATED
    stored = await b.store.get_game(snap.game_id)
    assert stored.version == snap.version + 1


async def test_a_typed_move_is_decided_on_the_newest_state(
    two_workers: tuple[GameService, GameService],
) -> None:
    a, b = two_workers
    snap = await _group_game(a)
    who = mover(snap)
    await b.load(snap.game_id)
    play = snap.game.turn.legal_plays[0]
    first = play.steps[0]
    await a.act(who, Step(first.src, first.dst), game_id=snap.game_id)  # one step on a
    # The rest typed on b: b must see a's step (from the database), or the text would not fit.
    rest = " ".join(f"{s.src}/{s.dst}" for s in play.steps[1:])
    outcome = await b.act(who, PlayText(rest), game_id=snap.game_id)
    assert outcome.snap is not None
    moves = await b.store.get_moves(snap.game_id)
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))


async def test_two_workers_racing_on_one_version_apply_it_once(
    two_workers: tuple[GameService, GameService],
) -> None:
    """The same button (one step, one version) reaches both workers at once, as a double tap
    split by the load balancer: one save wins, the other is told the board is outdated."""
    a, b = two_workers
    snap = await _group_game(a)
    await b.load(snap.game_id)
    who = mover(snap)
    step = snap.game.legal_steps()[0]
    before = await a.store.get_game(snap.game_id)
    results = await asyncio.gather(
        *(
            worker.act(
                who,
                Step(step.src, step.dst),
                game_id=snap.game_id,
                version=snap.version,
                update_id=update_id,
            )
            for worker, update_id in ((a, 9001), (b, 9002))
        ),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refused)]
    assert len(applied) == 1 and len(refused) == 1, results
    assert refused[0].refusal is Refusal.OUTDATED
    after = await a.store.get_game(snap.game_id)
    assert after.version == before.version + 1
    assert after.move_count == before.move_count  # a step is not a move until Done


async def test_the_clock_scheduler_is_safe_in_every_worker(postgres_url: str) -> None:
    """Each worker runs its own scheduler (no leader to elect, none to lose): three schedulers
    on three connections to one PostgreSQL database fire every due reminder exactly once."""
    from datetime import timedelta

    from gameplay.clocks import MoveClock
    from gameplay.scheduler import ClockScheduler
    from storage.postgres.store import PostgresStorage
    from tests.gameplay.test_scheduler import FakeTime, Recorder, start_game
    from tests.storage.conftest import ALICE as CLOCK_ALICE
    from tests.storage.conftest import BORIS as CLOCK_BORIS
    from tests.storage.conftest import GROUP as CLOCK_GROUP

    time = FakeTime()
    stores = [await PostgresStorage.open(postgres_url, clock=time) for _ in range(3)]
    try:
        await stores[0].upsert_user(CLOCK_ALICE, "Alice")
        await stores[0].upsert_user(CLOCK_BORIS, "Boris")
        await stores[0].upsert_chat(CLOCK_GROUP, "supergroup")
        games = [await start_game(stores[0], time, MoveClock.MIN_5, thread=t) for t in range(30)]
        time.moment += timedelta(minutes=3)
        handlers = [Recorder() for _ in stores]
        counts = await asyncio.gather(
            *(
                ClockScheduler(store, handler, time=time, batch=7).run_once()
                for store, handler in zip(stores, handlers, strict=True)
            )
        )
        reminded = sorted(g for h in handlers for kind, g, _ in h.events if kind == "remind")
        assert reminded == sorted(g.game_id for g in games)
        assert sum(counts) == 30
    finally:
        for store in stores:
            await store.close()
