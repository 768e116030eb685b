"""Fair dice from the offer to the verified report, through the real engine and a real SQLite
file, the way the bot will wire it: every action saved with the dice it drew."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from engine import fairness
from engine.fairness import ProblemKind
from engine.game import Match, Phase
from gameplay import fair_dice
from storage import DiceSeedInUseError, GameResult, NewMove, SqliteStorage
from tests.storage.conftest import ALICE, BORIS, GROUP, new_game


@pytest.fixture
async def people(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    store = await SqliteStorage.open(tmp_path / "fair.sqlite3")
    await store.upsert_user(ALICE, "Alice")
    await store.upsert_user(BORIS, "Борис")
    await store.upsert_chat(GROUP, "supergroup")
    yield store
    await store.close()


async def play_to_the_end(store: SqliteStorage, seed_id: int, *, reload: bool) -> Match:
    """A 1-point long game: the lot at creation, then each roll or play saved with its dice.
    With ``reload`` the dice are rebuilt from storage before every action (as after a restart
    or in another process)."""
    chooser = random.Random(8)
    dice = await fair_dice.dice_for(store, seed_id)
    match = Match("long")
    match.current.roll_lot(dice)
    row = await store.create_game(
        replace(new_game(ALICE, BORIS), dice_seed_id=seed_id, dice=fair_dice.drawn(dice))
    )
    for _ in range(2000):
        game = match.current
        if reload:
            dice = await fair_dice.dice_for(store, seed_id)
        seat = game.seat_to_act
        if game.phase is Phase.ROLL:
            game.roll(dice, seat=seat)
        else:
            game.play(chooser.choice(game.turn.legal_plays), seat=seat)
        moves = [
            NewMove(e.side.label, e.dice, e.notation, e.position_id)
            for e in game.history[-1:]
            if e.kind in ("move", "pass")
        ]
        if game.phase is Phase.OVER:
            result = game.result
            await store.finish_game(
                row.game_id,
                row.version,
                match.to_json(),
                GameResult(result.winner.label, str(result.kind), result.points),
                dice=fair_dice.drawn(dice),
            )
            return match
        row = await store.save_game(
            row.game_id, row.version, match.to_json(), moves=moves, dice=fair_dice.drawn(dice)
        )
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("reload", [False, True])
async def test_offer_to_verified_report(people: SqliteStorage, reload: bool) -> None:
    seed = await fair_dice.commit(
        people, [fairness.telegram_client_seed(user_id=ALICE, update_id=1, date=100)]
    )
    await people.add_client_seed(
        seed.seed_id, fairness.telegram_client_seed(user_id=BORIS, update_id=2, date=101)
    )
    secret = await people.get_dice_secret(seed.seed_id)
    assert fairness.commitment(secret) == seed.commitment
    match = await play_to_the_end(people, seed.seed_id, reload=reload)

    stored = await people.get_dice_seed(seed.seed_id)
    assert secret.hex() not in match.to_json()

    played = fair_dice.played_dice([match.current.history])
    report = await fair_dice.report(people, seed.seed_id, played=played, game={"game_id": 1})
    verdict = fairness.verify_report(report)
    assert verdict.ok and verdict.rolls_checked == stored.counter > 20
    # Every die the game showed is a stored die, in order, and every stored die was played.
    assert verdict.played_checked == len(played)
    assert played[0].kind is fairness.PlayedKind.LOT


async def test_a_die_changed_in_the_database_is_caught(people: SqliteStorage) -> None:
    seed = await fair_dice.commit(people, ["a", "b"])
    await play_to_the_end(people, seed.seed_id, reload=False)
    rolls = (await people.get_dice_seed(seed.seed_id)).rolls
    forged = "".join(map(str, rolls[:9])) + str(rolls[9] % 6 + 1) + "".join(map(str, rolls[10:]))
    with sqlite3.connect(people.path) as conn:
        conn.execute("UPDATE dice_seeds SET rolls = ? WHERE seed_id = ?", (forged, seed.seed_id))
    conn.close()
    verdict = fairness.verify_report(await fair_dice.report(people, seed.seed_id))
    assert [(p.kind, p.counter) for p in verdict.problems] == [(ProblemKind.ROLL, 9)]


async def test_no_report_while_the_game_runs(people: SqliteStorage) -> None:
    seed = await fair_dice.commit(people, ["a"])
    await people.create_game(replace(new_game(ALICE, BORIS), dice_seed_id=seed.seed_id))
    with pytest.raises(DiceSeedInUseError):
        await fair_dice.report(people, seed.seed_id)
    assert (await people.get_dice_seed(seed.seed_id)).server_seed is None
    assert await people.get_active_game(GROUP) is not None
