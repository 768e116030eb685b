"""A quick yardstick logged during training: the nets at 0-ply against the hand-written
evaluation at 0-ply, over a fixed set of dice (the same games every time it is run)."""

from __future__ import annotations

import random

import numpy as np

from ai.search import Evaluator, HeuristicEvaluator
from ai.variant_ai import VariantAI
from engine import movegen
from engine.variants import get_variant


def match(
    vai: VariantAI, a: Evaluator, b: Evaluator, games: int, seed: int = 0
) -> tuple[float, float]:
    """(win rate, points per game) of ``a`` against ``b`` at 0-ply, seats alternating."""
    wins = 0
    points = 0
    start = get_variant(vai.name).start_board()
    for g in range(games):
        rng = random.Random(f"{seed}:{g}")
        players = (a, b) if g % 2 == 0 else (b, a)
        me, opp = start, start
        side = 0
        first = [True, True]
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            ctx = movegen.make_context(vai.name, me, opp, dice, first_turn=first[side])
            nodes = movegen.generate(ctx) or [(0, (), me, opp)]
            first[side] = False
            values = players[side]([n[2] for n in nodes], [n[3] for n in nodes])
            node = nodes[int(np.argmax(values))]
            if node[2][0] == 15:
                pts = vai.result_points(node[2], node[3])
                a_won = (side == 0) == (g % 2 == 0)
                wins += a_won
                points += pts if a_won else -pts
                break
            me, opp = node[3], node[2]
            side ^= 1
    return wins / games, points / games


def vs_heuristic(vai: VariantAI, ev: Evaluator, games: int) -> tuple[float, float]:
    return match(vai, ev, HeuristicEvaluator(vai), games)
