"""The next game of a match is stored with the finish of the game before it, on both
backends: a process that dies right after the finish write leaves the match with its next
game (a redelivered update finds it), and two processes finishing the same game at once make
exactly one next game."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import pytest

import storage
from gameplay import GameService, Refusal, Refused, Resign, Snapshot
from gameplay.clocks import MoveClock
from gameplay.inline import InlineChallenges, Offer
from gameplay.service import stored_result
from tests.gameplay.conftest import ANNA, BORIS, mover
from tests.gameplay.test_clock_endings import Clocked, location, world

__all__ = ["location", "world"]  # the two-backend fixtures, shared with the clock tests


class Died(Exception):
    """The process died: nothing after the finish write reaches the database."""


class DiesAfterFinish:
    """A store whose process dies as soon as a game's finish is written: every later call
    fails, as if the bot had been killed between that write and whatever followed it."""

    def __init__(self, store: storage.Storage) -> None:
        self._store = store
        self.dead = False

    def __getattr__(self, name: str) -> Any:
        if self.dead:
            raise Died(name)
        attr = getattr(self._store, name)
        if name not in ("finish_game", "claim_timeout"):
            return attr

        async def finish(*args: Any, **kwargs: Any) -> Any:
            out = await attr(*args, **kwargs)
            self.dead = True
            return out

        return finish


async def test_a_death_right_after_the_finish_leaves_the_next_game_stored(
    world: Clocked,
) -> None:
    snap = await world.game(MoveClock.OFF, length=3)
    dying = DiesAfterFinish(world.store)
    games = GameService(dying, rng=random.Random(3), clock=world.time)  # type: ignore[arg-type]
    with contextlib.suppress(Died):  # the worker dies somewhere after the finish is written
        await games.act(mover(snap), Resign(), game_id=snap.game_id, update_id=4242)
    assert dying.dead
    # The finish and the next game were one write: the match goes on in its next game.
    match = await world.store.match_games(snap.game_id)
    assert [g.status for g in match] == [storage.GameStatus.FINISHED, storage.GameStatus.ACTIVE]
    nxt = match[1]
    assert await world.store.get_active_game(snap.row.chat_id) == nxt
    # Its opening was played and its dice follow the finished game's in the seed's log.
    store2, games2 = await world.open_process()
    try:
        later = await games2.load(nxt.game_id)
        assert later.match.game_number == 2 and later.game.seat_to_act is not None
        # The redelivered update is refused as saved before or as the game over; what it
        # shows then is game 2, as its first board shows it.
        try:
            again = await games2.act(mover(snap), Resign(), game_id=snap.game_id, update_id=4242)
            assert again.duplicate
        except Refused as refused:
            assert refused.refusal is Refusal.GAME_OVER
        finished = await games2.load(snap.game_id, fresh=True)
        shown = await games2.next_in_match(finished)
        assert shown is not None and shown.game_id == nxt.game_id
        assert shown.events == list(shown.game.history) and shown.dice_commitment
        assert [g.game_id for g in await store2.match_games(snap.game_id)] == [
            snap.game_id,
            nxt.game_id,
        ]
    finally:
        await store2.close()


async def test_two_processes_finishing_one_game_make_one_next_game(world: Clocked) -> None:
    snap = await world.game(MoveClock.OFF, length=3)
    store2, games2 = await world.open_process()
    try:
        results = await asyncio.gather(
            world.games.act(mover(snap), Resign(), game_id=snap.game_id, update_id=1),
            games2.act(mover(snap), Resign(), game_id=snap.game_id, update_id=2),
            return_exceptions=True,
        )
        won = [r for r in results if not isinstance(r, BaseException)]
        lost = [r for r in results if isinstance(r, Refused)]
        assert len(won) == 1 and len(lost) == 1, results
        assert lost[0].refusal in (Refusal.OUTDATED, Refusal.GAME_OVER)
        assert won[0].snap is not None and won[0].snap.next_game is not None
        games = await world.store.match_games(snap.game_id)
        assert [g.game_id for g in games] == [snap.game_id, won[0].snap.next_game.game_id]
        assert games[1].status is storage.GameStatus.ACTIVE
    finally:
        await store2.close()


async def test_the_last_game_of_a_match_starts_none(world: Clocked) -> None:
    snap = await world.game(MoveClock.OFF, length=1)
    outcome = await world.games.act(mover(snap), Resign(), game_id=snap.game_id)
    assert outcome.snap is not None and outcome.snap.match.is_over
    assert outcome.snap.next_game is None and outcome.snap.finished is not None
    assert outcome.snap.finished.next_game is None
    assert await world.games.next_in_match(outcome.snap) is None
    assert len(await world.store.match_games(snap.game_id)) == 1


async def test_the_game_shown_after_a_finished_one_is_the_match_game_in_play(
    world: Clocked,
) -> None:
    """A match to 5: each player resigns a game at its start (a mars, 2 points each), so the
    third game is in play. Showing the first game as stored (a stale tap, a late redelivery)
    follows it with the third, which the match's one message (an inline match's) must show,
    not the second game's end."""
    snap = await world.game(MoveClock.OFF, length=5)
    games = [snap]
    for _ in range(2):
        out = await world.games.act(mover(games[-1]), Resign(), game_id=games[-1].game_id)
        assert out.snap is not None and out.snap.next_game is not None
        games.append(out.snap.next_game)
    third = games[-1]
    assert third.match.game_number == 3 and third.active
    for finished in games[:2]:
        shown = await world.games.next_in_match(await world.games.load(finished.game_id))
        assert shown is not None and shown.game_id == third.game_id


async def left_stuck(world: Clocked, snap: Snapshot) -> Snapshot:
    """``snap``'s game resigned as the code before session 8 wrote it: the finish, and (the
    worker dead before its second write) no next game."""
    match = snap.match
    match.current.resign(snap.game.seat_to_act)
    match.record_result()
    assert match.current.result is not None and not match.is_over
    await world.store.finish_game(  # the old code's first write, and nothing after it
        snap.game_id, snap.version, match.to_json(), stored_result(match.current)
    )
    return await world.games.load(snap.game_id, fresh=True)


async def test_a_match_the_old_code_left_without_its_next_game_goes_on(world: Clocked) -> None:
    """Before session 8 the finish and the next game were two writes; a worker that died
    between them left the match stuck: game 1 finished, no game 2. Showing game 1 as stored
    (the players' next tap on its board) starts game 2 then, once."""
    snap = await world.game(MoveClock.OFF, length=3)
    stuck = await left_stuck(world, snap)
    assert not stuck.active and [
        g.game_id for g in await world.store.match_games(snap.game_id)
    ] == [snap.game_id]
    shown = await asyncio.gather(*(world.games.next_in_match(stuck) for _ in range(2)))
    assert shown[0] is not None and shown[1] is not None
    assert shown[0].game_id == shown[1].game_id and shown[0].match.game_number == 2
    games = await world.store.match_games(snap.game_id)
    assert [g.game_id for g in games] == [snap.game_id, shown[0].game_id]
    assert games[1].status is storage.GameStatus.ACTIVE
    assert await world.store.get_active_game(snap.row.chat_id) == games[1]
    assert shown[0].events == list(shown[0].game.history) and shown[0].dice_commitment


@pytest.mark.parametrize("variant", ["long", "short"])
async def test_two_processes_repairing_one_stuck_inline_match_start_one_next_game(
    world: Clocked, variant: str
) -> None:
    """An inline match the old code left stuck, shown as stored by two workers at once (taps
    on its one message reached both): one game 2, shown by both. An inline game holds no
    chat, so the one-game-a-chat rule kept no second one out: until session 10 the second
    worker failed on the dice's counter (both drew game 2's first dice) — or, had its first
    mover no dice to draw (a cube to offer first), started a second game 2. The start is a
    write of the finished game's version (``Storage.start_next_game``): one of them wins."""
    invitation = await InlineChallenges(world.lobby).offer(ANNA, Offer(variant, 5))
    snap = await world.lobby.accept(invitation.token, BORIS, inline_message_id="AgAAAstuck")
    stuck = await left_stuck(world, snap)
    store2, games2 = await world.open_process()
    try:
        shown = await asyncio.gather(
            world.games.next_in_match(stuck),
            games2.next_in_match(await games2.load(snap.game_id, fresh=True)),
            return_exceptions=True,
        )
        assert not any(isinstance(s, BaseException) for s in shown), shown
        first, second = shown
        assert first is not None and second is not None and first.game_id == second.game_id
        games = await world.store.match_games(snap.game_id)
        assert [g.game_id for g in games] == [snap.game_id, first.game_id]
        assert games[1].status is storage.GameStatus.ACTIVE and games[1].inline_message_id
        assert first.match.game_number == 2
        # shown again later: the same game, none started
        again = await world.games.next_in_match(await world.games.load(snap.game_id, fresh=True))
        assert again is not None and again.game_id == first.game_id
    finally:
        await store2.close()
