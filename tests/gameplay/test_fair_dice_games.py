"""The game layer's dice come from the committed seed: a match played through the service
reports dice the verifier accepts, its games share the seed, and the secret stays closed
until the match is over (docs/fairness.md)."""

from __future__ import annotations

import random

import pytest

from engine import Phase, format_steps
from engine.fairness import commitment, verify_report
from gameplay import PlayText, Resign, Roll
from gameplay.service import NoDiceReport
from tests.gameplay.conftest import ANNA, BORIS, GROUP, World, mover


async def test_a_match_draws_every_die_from_its_seed_and_verifies(world: World) -> None:
    inv = await world.lobby.invite(ANNA, GROUP, variant="long", match_length=3, client_seed="a")
    shown = (await world.store.get_dice_seed(inv.dice_seed_id)).commitment
    snap = await world.lobby.accept(inv.token, BORIS, client_seed="b")
    assert snap.dice_commitment == shown and snap.row.dice_seed_id == inv.dice_seed_id
    seed = await world.store.get_dice_seed(inv.dice_seed_id)
    assert seed.client_seeds == ("a", "b") and seed.counter >= 2  # the lot, from the stream
    with pytest.raises(NoDiceReport) as early:
        await world.games.dice_report(snap.game_id)
    assert early.value.reason == "not_over"
    assert (await world.store.get_dice_seed(inv.dice_seed_id)).server_seed is None
    rng = random.Random(3)
    game_ids = {snap.game_id}
    for _ in range(40):  # a few turns, then the one to move resigns, game after game
        for _turn in range(4):
            if snap.game.phase is Phase.ROLL:
                snap = (await world.games.act(mover(snap), Roll(), game_id=snap.game_id)).snap
            elif snap.game.phase is Phase.MOVE:
                text = format_steps(rng.choice(snap.game.turn.legal_plays).steps)
                snap = (
                    await world.games.act(mover(snap), PlayText(text), game_id=snap.game_id)
                ).snap
            assert snap is not None
        out = (await world.games.act(mover(snap), Resign(), game_id=snap.game_id)).snap
        assert out is not None
        if out.next_game is None:
            break
        snap = out.next_game
        assert snap.row.dice_seed_id == inv.dice_seed_id  # the match's games share the seed
        game_ids.add(snap.game_id)
    assert len(game_ids) >= 2
    report = await world.games.dice_report(out.game_id)
    assert report["game"]["game_ids"] == sorted(game_ids)
    verdict = verify_report(report)
    assert verdict.ok, verdict.problems
    assert verdict.played_checked is not None and verdict.played_checked >= 2 * len(game_ids)
    assert commitment(bytes.fromhex(report["server_seed"])) == shown
