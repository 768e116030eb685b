"""Provably-fair dice seeds in storage: committed before the game, dice stored with the game's
writes at exact counters, the secret kept until the reveal, a report that verifies."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from engine import fairness
from gameplay.fair_dice import drawn
from storage import (
    DiceCounterError,
    DiceRolls,
    DiceSeedFrozenError,
    DiceSeedInUseError,
    GameResult,
    NewInvitation,
    NewMove,
    NotFoundError,
    SqliteStorage,
)
from tests.storage.conftest import ALICE, BORIS, GROUP, FakeClock, new_game

SECRET = bytes(range(100, 132))
COMMIT = fairness.commitment(SECRET)


async def seeded(store: SqliteStorage, *clients: str):
    return await store.create_dice_seed(COMMIT, SECRET, clients)


async def test_a_seed_is_public_except_its_secret(people: SqliteStorage) -> None:
    seed = await seeded(people, "tg:user=111;update=1;date=5")
    assert seed.commitment == COMMIT and seed.client_seeds == ("tg:user=111;update=1;date=5",)
    assert seed.server_seed is None and seed.revealed_at is None and seed.counter == 0
    loaded = await people.get_dice_seed(seed.seed_id)
    assert loaded == seed and loaded.server_seed is None
    assert SECRET.hex() not in repr(loaded)
    assert await people.get_dice_secret(seed.seed_id) == SECRET
    assert await people.get_dice_draw(seed.seed_id) == (seed, SECRET)  # for the roller only
    with pytest.raises(NotFoundError):
        await people.get_dice_seed(999)
    with pytest.raises(NotFoundError):
        await people.get_dice_draw(999)
    with pytest.raises(ValueError):
        await people.create_dice_seed(COMMIT.upper(), SECRET)
    with pytest.raises(ValueError):
        await people.create_dice_seed(COMMIT, SECRET[:31])


async def test_invitation_to_finished_game_to_verified_report(
    people: SqliteStorage, clock: FakeClock
) -> None:
    """The whole life of a seed: committed in the invitation (before the invitee's seed
    exists), both players' seeds added, the lot stored with the game's creation, dice stored
    with every save, the secret revealed after the game, and the report verifies."""
    seed = await seeded(people)
    invitation = await people.create_invitation(
        NewInvitation(
            ALICE, "long", clock.now + timedelta(hours=1), chat_id=GROUP, dice_seed_id=seed.seed_id
        )
    )
    assert (await people.get_invitation(invitation.token)).dice_seed_id == seed.seed_id
    inviter = fairness.telegram_client_seed(user_id=ALICE, update_id=10, date=1, message_id=4)
    joiner = fairness.telegram_client_seed(user_id=BORIS, update_id=11, date=2, callback_id="77")
    await people.add_client_seed(seed.seed_id, inviter)
    seed = await people.add_client_seed(seed.seed_id, joiner)
    assert seed.client_seeds == (inviter, joiner)

    dice = fairness.FairDice(await people.get_dice_secret(seed.seed_id), seed.client_seeds)
    lot = [dice.randint(1, 6), dice.randint(1, 6)]
    base = new_game(ALICE, BORIS)
    accepted = await people.accept_invitation(
        invitation.token,
        BORIS,
        game=replace(base, dice_seed_id=seed.seed_id, dice=drawn(dice)),
    )
    game = accepted.game
    assert game is not None and game.dice_seed_id == seed.seed_id
    assert (await people.get_dice_seed(seed.seed_id)).rolls == tuple(lot)
    with pytest.raises(DiceSeedFrozenError):
        await people.add_client_seed(seed.seed_id, "phrase:user=222;too late")

    for _ in range(5):
        dice.randint(1, 6), dice.randint(1, 6)
        game = await people.save_game(game.game_id, game.version, "{}", dice=drawn(dice))
    with pytest.raises(DiceSeedInUseError):
        await people.reveal_dice_seed(seed.seed_id)
    assert (await people.get_dice_seed(seed.seed_id)).server_seed is None

    done = await people.finish_game(game.game_id, game.version, "{}", GameResult("white", "oin", 1))
    assert SECRET.hex() not in done.game.state
    revealed = await people.reveal_dice_seed(seed.seed_id)
    assert revealed.server_seed == SECRET and revealed.counter == 12
    clock.advance(minutes=5)
    again = await people.reveal_dice_seed(seed.seed_id)
    assert again.revealed_at == revealed.revealed_at  # idempotent: the first time stays
    assert (await people.get_dice_seed(seed.seed_id)).server_seed == SECRET

    report = fairness.make_report(
        revealed.server_seed, revealed.client_seeds, revealed.rolls, game={"game_id": game.game_id}
    )
    assert report["commitment"] == COMMIT
    assert fairness.verify_report(report).ok
    # A revealed seed takes no more dice: a game created on it with dice is refused whole.
    with pytest.raises(DiceCounterError) as caught:
        await people.create_game(
            replace(base, dice_seed_id=seed.seed_id, dice=DiceRolls(12, (1, 2)))
        )
    assert caught.value.actual_counter is None
    assert await people.get_active_game(GROUP) is None


async def test_dice_at_a_wrong_counter_roll_the_whole_write_back(people: SqliteStorage) -> None:
    seed = await seeded(people, "a")
    base = new_game(ALICE, BORIS)
    game = await people.create_game(
        replace(base, dice_seed_id=seed.seed_id, dice=DiceRolls(0, (3, 5)))
    )

    for first in (0, 1, 3):  # a repeat, an overlap, a gap
        with pytest.raises(DiceCounterError) as caught:
            await people.save_game(
                game.game_id,
                game.version,
                '{"lost": true}',
                moves=[NewMove("white", (6, 6), "x", "p")],
                dice=DiceRolls(first, (6, 6)),
            )
        assert (caught.value.expected_counter, caught.value.actual_counter) == (first, 2)
    unchanged = await people.get_game(game.game_id)
    assert (unchanged.version, unchanged.state, unchanged.move_count) == (1, game.state, 0)
    assert (await people.get_dice_seed(seed.seed_id)).rolls == (3, 5)
    saved = await people.save_game(game.game_id, 1, "{}", dice=DiceRolls(2, (6, 6)))
    assert saved.version == 2
    assert (await people.get_dice_seed(seed.seed_id)).rolls == (3, 5, 6, 6)
    with pytest.raises(ValueError):
        await people.save_game(game.game_id, 2, "{}", dice=DiceRolls(4, (7,)))


async def test_dice_for_a_game_without_a_seed_are_refused(people: SqliteStorage) -> None:
    game = await people.create_game(new_game(ALICE, BORIS))
    with pytest.raises(ValueError):
        await people.save_game(game.game_id, 1, "{}", dice=DiceRolls(0, (1, 2)))
    assert (await people.get_game(game.game_id)).version == 1


async def test_a_match_shares_one_seed_and_the_stream_survives_a_restart(
    db_path: Path, clock: FakeClock
) -> None:
    """Game 1 and game 2 of a match draw from one seed; the store is closed and reopened in
    between and the dice continue from the stored counter, identical to an unbroken stream."""
    store = await SqliteStorage.open(db_path, clock=clock)
    await store.upsert_user(ALICE, "Alice")
    await store.upsert_user(BORIS, "Boris")
    await store.upsert_chat(GROUP, "supergroup")
    seed = await store.create_dice_seed(COMMIT, SECRET, ("x", "y"))
    dice = fairness.FairDice(SECRET, ("x", "y"))
    base = new_game(ALICE, BORIS, match_length=3)
    first = await store.create_game(replace(base, dice_seed_id=seed.seed_id))
    for _ in range(3):
        dice.randint(1, 6)
        first = await store.save_game(first.game_id, first.version, "{}", dice=drawn(dice))
    await store.finish_game(first.game_id, first.version, "{}", GameResult("black", "mars", 2))
    await store.close()

    store = await SqliteStorage.open(db_path, clock=clock)
    try:
        stored = await store.get_dice_seed(seed.seed_id)
        resumed = fairness.FairDice(
            await store.get_dice_secret(seed.seed_id), stored.client_seeds, stored.counter
        )
        second = await store.create_game(replace(base, dice_seed_id=seed.seed_id))
        resumed.randint(1, 6), resumed.randint(1, 6)
        await store.save_game(second.game_id, second.version, "{}", dice=drawn(resumed))
        final = await store.get_dice_seed(seed.seed_id)
        assert final.rolls == tuple(fairness.DiceStream(SECRET, ("x", "y")).dice(0, 5))
    finally:
        await store.close()
