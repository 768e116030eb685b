"""Two players tap at the same moment: optimistic versions let exactly one write through."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from storage import Game, NewMove, SqliteStorage, StaleVersionError, Storage
from tests.storage.conftest import Backend, FakeClock, new_game


def move_of(task: int, n: int = 0) -> NewMove:
    return NewMove(
        "white" if task % 2 else "black",
        (task % 6 + 1, n % 6 + 1),
        f"task-{task}-move-{n}",
        f"pos-{task}-{n}",
    )


async def assert_log_is_whole(store: Storage, game_id: int) -> Game:
    """The move log is 1..n without gaps or duplicates, and agrees with the game row."""
    game = await store.get_game(game_id)
    log = await store.get_moves(game_id)
    assert [m.seq for m in log] == list(range(1, game.move_count + 1))
    assert len({m.play for m in log}) == len(log)
    return game


async def test_hundred_tasks_race_for_one_version(people: Storage) -> None:
    game = await people.create_game(new_game())
    for round_number in range(1, 4):
        version = round_number  # the version every task read
        outcomes = await asyncio.gather(
            *(
                people.save_game(
                    game.game_id,
                    version,
                    f"state-{round_number}-{task}",
                    moves=[move_of(task, round_number)],
                )
                for task in range(100)
            ),
            return_exceptions=True,
        )
        winners = [o for o in outcomes if isinstance(o, Game)]
        stale = [o for o in outcomes if isinstance(o, StaleVersionError)]
        assert len(winners) == 1 and len(stale) == 99
        assert all(e.expected_version == version and e.actual_version == version + 1 for e in stale)
        stored = await assert_log_is_whole(people, game.game_id)
        assert stored == winners[0] and stored.version == version + 1
        last = (await people.get_moves(game.game_id))[-1]
        assert last.seq == round_number and stored.state.endswith(last.play.split("-")[1])


async def test_hundred_tasks_race_across_two_stores_on_one_database(
    people: Storage, backend: Backend, clock: FakeClock
) -> None:
    """Two store objects (two writers, as with two processes) still let exactly one through:
    the guarantee is the UPDATE ... WHERE version = ?, not the in-process lock."""
    game = await people.create_game(new_game())
    other = await backend.open(clock)
    try:
        stores = (people, other)
        outcomes = await asyncio.gather(
            *(
                stores[task % 2].save_game(game.game_id, 1, f"s{task}", moves=[move_of(task)])
                for task in range(100)
            ),
            return_exceptions=True,
        )
    finally:
        await other.close()
    assert sum(isinstance(o, Game) for o in outcomes) == 1
    assert sum(isinstance(o, StaleVersionError) for o in outcomes) == 99
    assert (await assert_log_is_whole(people, game.game_id)).move_count == 1


async def test_load_modify_save_with_retries_loses_no_move(people: Storage) -> None:
    """8 players' tasks each append 10 moves, re-reading after every stale write."""
    game = await people.create_game(new_game())
    rng = random.Random(7)

    async def player(task: int) -> int:
        retries = 0
        for n in range(10):
            while True:
                current = await people.get_game(game.game_id)
                if rng.random() < 0.3:
                    await asyncio.sleep(0)  # let others overtake between load and save
                try:
                    await people.save_game(
                        game.game_id, current.version, f"{task}:{n}", moves=[move_of(task, n)]
                    )
                    break
                except StaleVersionError:
                    retries += 1
        return retries

    retries = await asyncio.gather(*(player(task) for task in range(8)))
    final = await assert_log_is_whole(people, game.game_id)
    assert final.move_count == 80 and final.version == 81
    assert sum(retries) > 0  # there really was contention
    log = await people.get_moves(game.game_id)
    for task in range(8):  # each task's moves are in its own order
        mine = [m.play for m in log if m.play.startswith(f"task-{task}-")]
        assert mine == [f"task-{task}-move-{n}" for n in range(10)]


async def test_cancelled_saves_leave_a_consistent_store(people: Storage, backend: Backend) -> None:
    """Tasks cancelled at random points (waiting for the lock, mid-transaction, committing)
    never leave half a save or a connection stuck in a transaction."""
    game = await people.create_game(new_game())
    rng = random.Random(3)

    async def keep_saving(task: int, round_number: int) -> None:
        for n in range(1000):
            current = await people.get_game(game.game_id)
            play = NewMove("white", None, f"round-{round_number}-task-{task}-move-{n}", "p")
            with contextlib.suppress(StaleVersionError):
                await people.save_game(game.game_id, current.version, "x", moves=[play])

    for round_number in range(15):
        tasks = [asyncio.create_task(keep_saving(task, round_number)) for task in range(8)]
        await asyncio.sleep(rng.uniform(0.001, 0.02))
        for task in tasks:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert all(isinstance(r, asyncio.CancelledError) for r in results)
        # A save whose transaction had already started finishes even though its caller is
        # gone (in SQLite's writer thread, in a shielded task on PostgreSQL); once they are
        # done, a check sees no transaction still in flight.
        await backend.settle(people)
        stored = await assert_log_is_whole(people, game.game_id)
        assert stored.version == stored.move_count + 1  # every committed save added one move
        # the store is usable right away
        after = NewMove("white", None, f"after-{round_number}", "p")
        again = await people.save_game(game.game_id, stored.version, "after", moves=[after])
        assert again.version == stored.version + 1


async def test_a_reader_sees_a_save_as_soon_as_it_returns(people: Storage) -> None:
    game = await people.create_game(new_game())
    version = game.version
    for n in range(30):
        saved = await people.save_game(game.game_id, version, f"s{n}")
        loads = await asyncio.gather(*(people.get_game(game.game_id) for _ in range(4)))
        assert {g.version for g in loads} == {saved.version}
        version = saved.version


async def test_a_single_reader_connection(db_path, clock: FakeClock) -> None:
    with pytest.raises(ValueError):
        await SqliteStorage.open(db_path, readers=0)
    store = await SqliteStorage.open(db_path, readers=1, clock=clock)
    try:
        await store.upsert_user(1, "a")
        await store.upsert_user(2, "b")
        await store.upsert_chat(5, "group")
        game = await store.create_game(new_game(1, 2, chat_id=5))
        results = await asyncio.gather(
            *(store.save_game(game.game_id, 1, "x") for _ in range(10)),
            *(store.get_game(game.game_id) for _ in range(10)),
            return_exceptions=True,
        )
        assert sum(isinstance(r, StaleVersionError) for r in results) == 9
        assert (await store.get_game(game.game_id)).version == 2
    finally:
        await store.close()
