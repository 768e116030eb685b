"""The look-ahead of ``hard``: 1-ply and 2-ply values against a brute force written with the
public engine API (``legal_plays`` on ``Position`` objects), and the 2-ply selection rules.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

import ai
from ai.search import ROLLS, HeuristicEvaluator, one_ply, one_ply_many, two_ply
from ai.variant_ai import variant_ai
from engine.options import Options
from engine.position import Position, Side
from engine.variants import get_variant
from tests.test_ai import sample_positions

SHORT = get_variant("short")
VAI = variant_ai("short")
EVALUATE = HeuristicEvaluator(VAI)


def brute_value(me: tuple[int, ...], opp: tuple[int, ...], depth: int) -> float:
    """Equity of the after-state (``me`` just moved) ``depth`` rolls deep, each side answering
    every roll with its best play by the 0-ply evaluation, and the deeper value backed up."""
    if me[0] == 15:
        return float(VAI.result_points(me, opp))
    if depth == 0:
        return float(EVALUATE([me], [opp])[0])
    pos = Position("short", opp, me, Side.WHITE)  # the opponent to move
    total = 0.0
    for dice, weight in ROLLS:
        plays = SHORT.legal_plays(pos, dice)
        after = [(p.result.mover, p.result.opponent) for p in plays]
        zero = EVALUATE([a for a, _ in after], [b for _, b in after])
        best = after[int(np.argmax(zero))]
        total += weight * brute_value(best[0], best[1], depth - 1)
    return -total / 36.0


# A short-nardy race close to the end: X (just moved) 3 checkers home, O 3 checkers home.
#   X: 1×1, 2×1, 5×1 (12 off)      O: 3×2, 6×1 (12 off)
RACE_ME = Position.board_from_mapping({0: 12, 1: 1, 2: 1, 5: 1})
RACE_OPP = Position.board_from_mapping({0: 12, 3: 2, 6: 1})


def test_one_ply_matches_brute_force() -> None:
    value, work = one_ply(EVALUATE, VAI, RACE_ME, RACE_OPP, Options())
    assert abs(value - brute_value(RACE_ME, RACE_OPP, 1)) < 1e-9
    assert work >= len(ROLLS)


def test_two_ply_matches_brute_force() -> None:
    value, work = two_ply(EVALUATE, VAI, RACE_ME, RACE_OPP, Options())
    assert abs(value - brute_value(RACE_ME, RACE_OPP, 2)) < 1e-9
    assert work > one_ply(EVALUATE, VAI, RACE_ME, RACE_OPP, Options())[1]


def test_one_ply_many_is_one_ply_of_each() -> None:
    cases = sample_positions("short", 1, seed=21)[10:40:6]
    me = [p.mover for p, _, _ in cases]
    opp = [p.opponent for p, _, _ in cases]
    done = Position.board_from_mapping({0: 15})
    me.append(done)  # a finished game is scored, not searched
    opp.append(RACE_OPP)
    values, _ = one_ply_many(EVALUATE, VAI, me, opp, Options())
    for i, (m, o) in enumerate(zip(me, opp, strict=True)):
        assert abs(values[i] - one_ply(EVALUATE, VAI, m, o, Options())[0]) < 1e-9


def test_hard_with_two_ply_is_legal_deterministic_and_deeper_only_when_close() -> None:
    cases = sample_positions("short", 1, seed=5)[8:30:8]
    base = ai.get_player("hard", "short", seed=3)
    flat = replace(base.search_settings(), deep=0)
    always = replace(flat, deep=3, deep_margin=10.0, deep_budget=10**9)
    for pos, dice, first in cases:
        legal = SHORT.legal_plays(pos, dice, first_turn=first)
        one = ai.Player("hard", "short", seed=3, search=flat)
        two = ai.Player("hard", "short", seed=3, search=always)
        ranked = two.rank(pos, dice, first_turn=first)
        assert all(p in legal for p, _ in ranked)
        assert two.choose_play(pos, dice, first_turn=first) == ranked[0][0]
        assert (
            ai.Player("hard", "short", seed=3, search=always).rank(pos, dice, first_turn=first)
            == ranked
        )
        if len(legal) > 1:
            flat_ranked = one.rank(pos, dice, first_turn=first)
            assert len(ranked) == min(3, len(flat_ranked))
            assert {p for p, _ in ranked} <= {p for p, _ in flat_ranked}
            assert two.rank(pos, dice, first_turn=first, depth=1) == flat_ranked


def test_two_ply_budget_keeps_the_one_ply_best() -> None:
    pos, dice, first = next(
        c
        for c in sample_positions("short", 1, seed=5)[8:]
        if len(SHORT.legal_plays(c[0], c[1])) > 6
    )
    base = ai.get_player("hard", "short", seed=3).search_settings()
    flat = ai.Player("hard", "short", seed=3, search=replace(base, deep=0))
    tight = replace(base, deep=3, deep_margin=10.0, deep_budget=1)
    ranked = ai.Player("hard", "short", seed=3, search=tight).rank(pos, dice, first_turn=first)
    # The budget runs out inside the first play's 2-ply: the 1-ply answer stands, whole.
    assert ranked == flat.rank(pos, dice, first_turn=first)


def test_two_ply_limit_is_a_hard_cap_on_the_work() -> None:
    pos, dice, first = next(
        c
        for c in sample_positions("short", 1, seed=5)[8:]
        if len(SHORT.legal_plays(c[0], c[1])) > 6
    )
    play = SHORT.legal_plays(pos, dice, first_turn=first)[0]
    me, opp = play.result.mover, play.result.opponent
    value, work = two_ply(EVALUATE, VAI, me, opp, Options())
    assert value is not None
    assert two_ply(EVALUATE, VAI, me, opp, Options(), limit=work) == (value, work)
    for limit in (1, work // 3, work - 1):
        capped, spent = two_ply(EVALUATE, VAI, me, opp, Options(), limit=limit)
        assert capped is None and limit < spent < limit + 3000
