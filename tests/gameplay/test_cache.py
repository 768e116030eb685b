"""GameService keeps the newest row of each game in memory (a tap reads nothing before its
answer). These tests make a second service on the same database file write behind its back
— as a second process would — and check that the cache never acts on a stale game."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import storage
from gameplay import Actor, ChatKind, GameService, Lobby, Place, Refusal, Refused, Snapshot, Step

GROUP = -100_500
ANNA, BORIS = 11, 22
NAMES = {ANNA: "Анна", BORIS: "Boris"}
HERE = Place(GROUP, 0, ChatKind.GROUP)


@pytest.fixture
async def two_services(tmp_path: Path) -> AsyncIterator[tuple[GameService, GameService]]:
    path = tmp_path / "nardy.sqlite3"
    first = await storage.open_storage(path)
    second = await storage.open_storage(path)
    try:
        for store in (first, second):
            await store.upsert_user(ANNA, "Анна")
            await store.upsert_user(BORIS, "Boris")
        await first.upsert_chat(GROUP, storage.ChatType.SUPERGROUP, title="Нарды")
        yield (
            GameService(first, rng=random.Random(5)),
            GameService(second, rng=random.Random(6)),
        )
    finally:
        await first.close()
        await second.close()


def first_step(snap: Snapshot) -> Step:
    step = snap.game.legal_steps()[0]
    return Step(step.src, step.dst)


async def new_game(service: GameService) -> Snapshot:
    lobby = Lobby(service)
    invitation = await lobby.invite(Actor(ANNA, NAMES[ANNA]), HERE, variant="long")
    return await lobby.accept(invitation.token, Actor(BORIS, NAMES[BORIS]))


def mover(snap: Snapshot) -> Actor:
    seat = snap.game.seat_to_act
    assert seat is not None
    uid = snap.user_ids[seat]
    assert uid is not None
    return Actor(uid, NAMES[uid])


async def step(
    service: GameService, snap: Snapshot, *, version: int | None, by: Snapshot | None = None
) -> Snapshot:
    """The mover of ``by`` (default ``snap``) plays the first legal step of ``snap``."""
    outcome = await service.act(
        mover(by or snap), first_step(snap), game_id=snap.game_id, version=version
    )
    assert outcome.snap is not None
    return outcome.snap


async def test_a_tap_on_a_board_written_elsewhere_reloads_and_acts_on_the_newest_game(
    two_services: tuple[GameService, GameService],
) -> None:
    here, elsewhere = two_services
    snap = await new_game(here)  # cached here at its first version
    game_id, cached_version = snap.row.game_id, snap.row.version
    theirs = await step(elsewhere, snap, version=cached_version)
    assert theirs.row.version == cached_version + 1

    # The player taps the newer board (its version): this service reloads instead of
    # answering "outdated" from its stale copy, and builds on the other service's step.
    ours = await step(here, theirs, version=theirs.row.version)
    assert ours.row.version == theirs.row.version + 1
    stored = await here.load(game_id, fresh=True)
    assert len(stored.game.turn.steps) == len(theirs.game.turn.steps) + 1


async def test_a_stale_button_is_outdated_and_changes_nothing(
    two_services: tuple[GameService, GameService],
) -> None:
    here, elsewhere = two_services
    snap = await new_game(here)
    game_id, old_version = snap.row.game_id, snap.row.version
    await step(elsewhere, snap, version=old_version)
    with pytest.raises(Refused) as caught:
        await step(here, snap, version=old_version)
    assert caught.value.refusal is Refusal.OUTDATED
    assert (await here.load(game_id, fresh=True)).row.version == old_version + 1


async def test_a_typed_move_on_a_stale_copy_is_judged_again_on_the_stored_game(
    two_services: tuple[GameService, GameService],
) -> None:
    """Typed moves carry no version: the save's own version check catches the stale copy, the
    copy is dropped and the move is decided again on the stored game — where this step (the
    one the other process already played) is no longer legal, so it is refused for that
    reason, not as "outdated"; the next move acts on the stored game."""
    here, elsewhere = two_services
    snap = await new_game(here)
    theirs = await step(elsewhere, snap, version=snap.row.version)
    with pytest.raises(Refused) as caught:  # a step legal in the stale copy only
        await step(here, snap, version=None, by=theirs)
    assert caught.value.refusal is Refusal.ILLEGAL
    ours = await step(here, theirs, version=None)
    assert ours.row.version == theirs.row.version + 1
    assert len(ours.game.turn.steps) == len(theirs.game.turn.steps) + 1
