"""Match play: the computed match equity table and cube decisions by match winning chances."""

from __future__ import annotations

import numpy as np
import pytest

import ai
from ai.match import MatchEquityTable, MatchScore, cube_mwc, should_double, should_take
from ai.variant_ai import variant_ai
from engine.game import Game, Phase
from engine.options import Options
from engine.position import Position, Side

EVEN = [(1, 0.5), (-1, 0.5)]  # a coin-flip game without doubled results


@pytest.mark.parametrize("rate", [0.0, 0.235, 0.30])  # the rates in use (see ai.match)
def test_table_is_a_zero_sum_and_monotone(rate: float) -> None:
    t = MatchEquityTable(rate)
    for a in range(1, 12):
        for b in range(1, 12):
            for done in (False, True):
                assert t.equity(a, b, crawford_done=done) + t.equity(
                    b, a, crawford_done=done
                ) == pytest.approx(1.0)
            if a > 1:  # never better further away (even/odd scores can tie: 2a, 3a Crawford)
                assert t.equity(a, b, crawford_done=False) <= t.equity(
                    a - 1, b, crawford_done=False
                )
    assert t.equity(7, 7) == pytest.approx(0.5)


def test_table_values_by_hand_without_doubled_results() -> None:
    t = MatchEquityTable(0.0)
    # Crawford game, 2-away against 1-away: I must win it and then the post-Crawford game.
    assert t.equity(2, 1, crawford_done=False) == pytest.approx(0.25)
    # Post-Crawford the trailer doubles at once: one game at 2 points decides 2-away.
    assert t.equity(2, 1, crawford_done=True) == pytest.approx(0.5)
    # 3-away post-Crawford: win one doubled game (to 1-away, DMP at ½), lose → out.
    assert t.equity(3, 1, crawford_done=True) == pytest.approx(0.25)
    # 2-away against 2-away before Crawford is even by symmetry; 3 vs 2 by the recursion:
    # win → 2-2 (½), lose → 3-away against 1-away in the Crawford game (¼ · ... see below).
    crawford_3_1 = 0.5 * t.equity(2, 1, crawford_done=True)
    assert t.equity(3, 1, crawford_done=False) == pytest.approx(crawford_3_1)
    assert t.equity(3, 2) == pytest.approx(0.5 * 0.5 + 0.5 * crawford_3_1)


def test_after_moves_into_crawford_and_post_crawford() -> None:
    t = MatchEquityTable(0.27)
    score = MatchScore(length=5, mine=2, theirs=3)  # 3-away against 2-away
    # They win 1: they are 1-away and the next game is the Crawford game.
    assert t.after(score, -1) == pytest.approx(t.equity(3, 1, crawford_done=False))
    # A game later (crawford_done), the same score is post-Crawford.
    later = MatchScore(length=5, mine=2, theirs=4, crawford_done=True)
    assert t.after(later, 1) == pytest.approx(t.equity(2, 1, crawford_done=True))
    assert t.after(score, 3) == 1.0 and t.after(score, -2) == 0.0


def test_post_crawford_trailer_doubles_and_leader_takes() -> None:
    t = MatchEquityTable(0.27)
    trailer = MatchScore(length=5, mine=2, theirs=4, crawford_done=True)
    assert should_double(t, trailer, EVEN, cube=1)
    # The leader loses the match on any loss, doubled or not: the take costs nothing.
    assert should_take(t, trailer, EVEN, cube=1)


def test_one_point_match_never_doubles_and_a_hopeless_take_is_dropped() -> None:
    t = MatchEquityTable(0.27)
    assert not should_double(t, MatchScore(length=1, mine=0, theirs=0), EVEN, cube=1)
    crushing = [(1, 0.9), (2, 0.05), (-1, 0.05)]
    score = MatchScore(length=7, mine=0, theirs=0)
    no_double, take, drop = cube_mwc(t, score, crushing, cube=1)
    assert take > drop > no_double  # the opponent should drop, and the doubler doubles
    assert should_double(t, score, crushing, cube=1)
    assert not should_take(t, score, crushing, cube=1)
    assert not should_double(t, score, EVEN, cube=1)


def test_results_sum_to_one_and_match_the_equity() -> None:
    for name, probs in (
        ("short", [0.6, 0.2, 0.02, 0.1, 0.01]),
        ("long", [0.55, 0.25, 0.15]),
    ):
        vai = variant_ai(name)
        p = np.array(probs)
        results = vai.results(p)
        assert sum(q for _, q in results) == pytest.approx(1.0)
        assert sum(k * q for k, q in results) == pytest.approx(float(vai.equity(p)))


def race(mover: dict[int, int], opponent: dict[int, int]) -> Game:
    """A short-nardy game in phase ROLL with white (seat 0) to move, cube centred."""
    pos = Position(
        "short",
        Position.board_from_mapping(mover),
        Position.board_from_mapping(opponent),
        Side.WHITE,
    )
    return Game("short", Options(), position=pos, phase=Phase.ROLL, turns_played=[3, 3])


def test_players_use_the_match_score() -> None:
    # X (to roll) 60 pips, O 77, both bearing off: X wins ~86 %, no mars either way.
    game = race({5: 5, 4: 5, 3: 5}, {6: 6, 5: 5, 4: 4})
    hard = ai.get_player("hard", "short", seed=1)
    leader = MatchScore(length=7, mine=6, theirs=0, crawford_done=True)  # 1-away: cube useless
    assert hard.should_double(game, leader) is False
    fresh = MatchScore(length=7, mine=0, theirs=0)
    assert hard.should_double(game, fresh) is True
    # Only ~64 % ahead (X 75 pips, O 77): a dead-cube double, but far from O's take point.
    close = race({6: 5, 5: 5, 4: 5}, {6: 6, 5: 5, 4: 4})
    assert hard.should_double(close, fresh) is False
    game.offer_double(0)
    assert hard.should_take(game, MatchScore(7, 0, 0)) is False
    # The taker one game from losing the match post-Crawford takes anything.
    assert hard.should_take(game, MatchScore(7, 0, 6, crawford_done=True)) is True


def test_without_the_crawford_rule_one_away_is_post_crawford_at_once() -> None:
    t = MatchEquityTable(0.30)
    # 2-away against 1-away: under the rule this game is the Crawford game (no cube, the
    # trailer's edge smaller); without it the trailer may double at once.
    assert t.equity(2, 1, crawford_done=False, crawford_rule=False) == pytest.approx(
        t.equity(2, 1, crawford_done=True)
    )
    assert t.equity(2, 1, crawford_done=False) < t.equity(2, 1, crawford_done=True)
    no_rule = MatchScore(length=5, mine=3, theirs=4, crawford_rule=False)
    assert should_double(t, no_rule, EVEN, cube=1)
    assert t.equity(4, 4, crawford_rule=False) == pytest.approx(0.5)


def test_the_game_layer_passes_the_match_score_from_the_deciders_side() -> None:
    from engine.game import Match
    from gameplay.computer import ComputerPlayers

    computer = ComputerPlayers(seed=1)
    # ~64 % ahead: no money double and not a match double at 0-0 of 7 ...
    game = race({6: 5, 5: 5, 4: 5}, {6: 6, 5: 5, 4: 4})
    match = Match("short", length=7, game=game)
    assert computer.should_double(game, "hard", match) is False
    # ... but the trailer 4 away against 1 away (no Crawford rule: post-Crawford) doubles.
    match.score = [3, 6]
    assert computer.should_double(game, "hard", match) is True
    # A single game (1 point) keeps the money rules.
    assert computer.should_double(game, "hard", Match("short", length=1, game=game)) is False
