"""The computer opponent: legal, deterministic per seed, sensible on the cube, levels differ.

Positions come from seeded random games, so first turns, bar entries, bear-offs and passes
all occur; a few hand-made positions pin the cube and forced-play cases.
"""

from __future__ import annotations

import random

import pytest

import ai
from engine.game import Game, Phase
from engine.options import Options
from engine.position import Position, Side
from engine.variants import get_variant


def sample_positions(
    variant: str, games: int, seed: int
) -> list[tuple[Position, tuple[int, int], bool]]:
    """(position, dice, first_turn) for every turn of some seeded random games."""
    v = get_variant(variant)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = v.start_position()
        first = {Side.WHITE: True, Side.BLACK: True}
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            out.append((pos, dice, first[pos.turn]))
            play = rng.choice(v.legal_plays(pos, dice, first_turn=first[pos.turn]))
            first[pos.turn] = False
            if play.result.mover[0] == 15:
                break
            pos = play.result.swapped()
    return out


@pytest.mark.parametrize("variant", ["long", "short"])
def test_every_level_returns_a_legal_play(variant: str) -> None:
    v = get_variant(variant)
    cases = sample_positions(variant, 2, seed=11)
    players = {lvl: ai.get_player(lvl, variant, seed=5) for lvl in (*ai.LEVELS, *ai.BASELINES)}
    for i, (pos, dice, first) in enumerate(cases):
        legal = v.legal_plays(pos, dice, first_turn=first)
        for level, player in players.items():
            if level == "hard" and i % 8:
                continue  # 1-ply is the slow one; a sample keeps the suite fast
            play = player.choose_play(pos, dice, first_turn=first, options=Options())
            assert play in legal, (level, pos, dice)
            assert play.result.mover == legal[legal.index(play)].result.mover


def test_first_turn_and_bar_and_bearoff_cases_are_covered() -> None:
    cases = sample_positions("short", 2, seed=11)
    assert any(p.mover[25] for p, _, _ in cases)
    assert any(p.mover[0] for p, _, _ in cases)
    long_cases = sample_positions("long", 2, seed=11)
    assert any(first for _, _, first in long_cases)


@pytest.mark.parametrize("variant", ["long", "short"])
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_same_seed_same_play(variant: str, level: str) -> None:
    cases = sample_positions(variant, 1, seed=3)[5:60:9]
    a = ai.get_player(level, variant, seed=42)
    b = ai.get_player(level, variant, seed=42)
    for pos, dice, first in cases:
        # b is asked twice: the answer must not depend on the player's history.
        b.choose_play(pos, dice, first_turn=first)
        assert a.choose_play(pos, dice, first_turn=first) == b.choose_play(
            pos, dice, first_turn=first
        )


def test_forced_pass_is_the_empty_play() -> None:
    # ASCII: X has one checker on the bar; O holds X's entry points 19..24 (O's 1..6).
    #   O: 6×2, 5×2, 4×2, 3×2, 2×2, 1×2 (+3 elsewhere)   X: bar×1, 6×14
    me = Position.board_from_mapping({25: 1, 6: 14})
    opp = Position.board_from_mapping({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    pos = Position("short", me, opp, Side.WHITE)
    for level in ai.LEVELS:
        play = ai.get_player(level, "short", seed=1).choose_play(pos, (6, 5))
        assert play.steps == () and play.result == pos


def test_levels_differ() -> None:
    cases = sample_positions("short", 1, seed=8)[4:40]
    easy = ai.get_player("easy", "short", seed=1)
    medium = ai.get_player("medium", "short", seed=1)
    diff = sum(
        easy.choose_play(p, d, first_turn=f) != medium.choose_play(p, d, first_turn=f)
        for p, d, f in cases
    )
    assert diff >= 3


def test_medium_samples_near_the_best_play_in_short_nardy_only() -> None:
    """Short medium slips now and then (MEDIUM_TEMPERATURE), never wildly; long medium and a
    zero temperature play the nets' best 0-ply play every time."""
    cases = [c for c in sample_positions("short", 2, seed=8) if c[0].mover[0] < 15]
    noisy = ai.get_player("medium", "short", seed=1)
    exact = ai.get_player("medium", "short", seed=1)
    exact.temperature = 0.0
    slips, worst = 0, 0.0
    for pos, dice, first in cases:
        ranked = exact.rank(pos, dice, first_turn=first)
        best = ranked[0][0]
        assert exact.choose_play(pos, dice, first_turn=first) == best
        chosen = noisy.choose_play(pos, dice, first_turn=first)
        if chosen != best:
            slips += 1
            lost = ranked[0][1] - next(v for p, v in ranked if p == chosen)
            worst = max(worst, lost)
    assert 0 < slips < len(cases) // 2
    assert worst < 0.5  # a slip, not a blunder of half a game
    long_cases = sample_positions("long", 1, seed=8)[4:30]
    long_medium = ai.get_player("medium", "long", seed=1)
    for pos, dice, first in long_cases:
        assert (
            long_medium.choose_play(pos, dice, first_turn=first)
            == long_medium.rank(pos, dice, first_turn=first)[0][0]
        )


@pytest.mark.parametrize("variant", ["long", "short"])
def test_hint_is_sorted_and_legal(variant: str) -> None:
    v = get_variant(variant)
    pos, dice, first = next(
        c for c in sample_positions(variant, 1, seed=4)[6:] if len(v.legal_plays(c[0], c[1])) > 4
    )
    hints = ai.hint(pos, dice, first_turn=first, options=Options(), n=3)
    assert len(hints) == 3
    scores = [s for _, s in hints]
    assert scores == sorted(scores, reverse=True)
    legal = v.legal_plays(pos, dice, first_turn=first)
    assert all(p in legal for p, _ in hints)
    assert all(isinstance(s, float) for s in scores)


def race_game(mover: dict[int, int], opponent: dict[int, int], cube: int = 1) -> Game:
    """A short-nardy game in phase ROLL with white (seat 0) to move and a given cube."""
    pos = Position(
        "short",
        Position.board_from_mapping(mover),
        Position.board_from_mapping(opponent),
        Side.WHITE,
    )
    game = Game("short", Options(), position=pos, phase=Phase.ROLL, turns_played=[3, 3])
    game.cube_value = cube
    game.cube_owner = None if cube == 1 else Side.WHITE
    return game


def test_never_double_far_behind_in_a_race() -> None:
    # X needs ~120 pips, O ~30: no contact, X is hopeless.
    game = race_game({12: 5, 11: 5, 10: 5}, {2: 5, 1: 10}, cube=8)
    for level in ai.LEVELS:
        decision = ai.get_player(level, "short", seed=1).should_double(game)
        assert decision is False


def test_double_and_take_decisions_are_booleans_and_sane() -> None:
    # X far ahead: X doubles (or is too good), and O facing a double must drop...
    ahead = race_game({2: 5, 1: 10}, {12: 5, 11: 5, 10: 5})
    hard = ai.get_player("hard", "short", seed=1)
    assert isinstance(hard.should_double(ahead), bool)
    ahead.offer_double(0)
    assert hard.should_take(ahead) is False
    # ...while a player far ahead always takes.
    behind = race_game({12: 5, 11: 5, 10: 5}, {2: 5, 1: 10})
    behind.offer_double(0)
    for level in ai.LEVELS:
        assert ai.get_player(level, "short", seed=1).should_take(behind) is True


def test_no_double_when_cube_is_off_or_owned_by_opponent() -> None:
    game = race_game({2: 5, 1: 10}, {12: 5, 11: 5, 10: 5})
    game.options = Options(cube=False)
    assert ai.get_player("hard", "short").should_double(game) is False
    game = race_game({2: 5, 1: 10}, {12: 5, 11: 5, 10: 5}, cube=2)
    game.cube_owner = Side.BLACK
    assert ai.get_player("hard", "short").should_double(game) is False


def test_unknown_level_is_rejected() -> None:
    with pytest.raises(ValueError):
        ai.get_player("grandmaster", "short")
