"""What a picker offers (gameplay.picker), checked against the engine over random games: the
whole plays are exactly the roll's legal plays (one per final position) when there are 2..6 of
them, and a one-tap point is one whose every next step lands on one point."""

from __future__ import annotations

import random

import pytest

from engine import Game, Phase
from gameplay import one_tap_steps, whole_plays
from gameplay.picker import MAX_WHOLE_PLAYS, turn_key


def random_turns(variant: str, seed: int, games: int = 6):
    """Every turn (with the steps entered so far) of a few random games."""
    rng = random.Random(seed)
    for _ in range(games):
        game = Game(variant)
        game.roll_lot(rng)
        for _ in range(400):
            if game.phase is Phase.OVER:
                break
            if game.phase is Phase.ROLL:
                game.roll(rng)
                continue
            yield game
            steps = game.legal_steps()
            if steps and rng.random() < 0.5:
                game.step(steps[0].src, steps[0].dst)
                yield game
            game.play(rng.choice(game.turn.legal_plays))


@pytest.mark.parametrize("variant", ["long", "short"])
def test_whole_plays_are_the_engines_plays_when_few(variant: str) -> None:
    offered_some = 0
    for game in random_turns(variant, seed=7):
        plays = whole_plays(game)
        legal = game.turn.legal_plays
        keys = {game.variant.position_key(p.result) for p in legal}
        if 2 <= len(keys) <= MAX_WHOLE_PLAYS and legal[0].steps:
            offered_some += 1
            assert {game.variant.position_key(p.result) for _, p in plays} == keys
            assert len(plays) == len(keys)
            assert all(legal[i] == p for i, p in plays)  # the index names that very play
        else:
            assert plays == []
    assert offered_some > 20


@pytest.mark.parametrize("variant", ["long", "short"])
def test_a_one_tap_point_has_one_destination(variant: str) -> None:
    for game in random_turns(variant, seed=8):
        steps = game.legal_steps()
        single = one_tap_steps(game)
        for src in {s.src for s in steps}:
            dests = {s.dst for s in steps if s.src == src}
            if len(dests) == 1:
                assert single[src].dst in dests
            else:
                assert src not in single
        assert set(single) <= {s.src for s in steps}


def test_steps_keep_the_turn_and_its_end_changes_it() -> None:
    rng = random.Random(3)
    game = Game("long")
    game.roll_lot(rng)
    while game.phase is not Phase.MOVE or not game.legal_steps():
        if game.phase is Phase.ROLL:
            game.roll(rng)
        else:
            game.play(game.turn.legal_plays[0])
    before = turn_key(1, game)
    step = game.legal_steps()[0]
    game.step(step.src, step.dst)
    assert turn_key(1, game) == before
    game.undo()
    game.play(game.turn.legal_plays[0])
    assert turn_key(1, game) != before
    assert turn_key(2, game) != turn_key(1, game)
