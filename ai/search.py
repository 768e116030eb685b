"""Scoring plays: 0-ply (evaluate each after-state) and 1-ply (average over the opponent's 21
rolls, the opponent answering each with its best 0-ply play).

Everything here works on the engine's raw move-generation records (26-tuples), never on
``Play`` objects, because a 1-ply decision generates thousands of positions and object
construction would dominate. Equities are in points per game at cube 1, from the side that has
just moved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ai import heuristic
from ai.net import Net, equity
from engine import movegen
from engine.options import Options

Board = tuple[int, ...]
# A batch evaluator: equities of after-states (me just moved) for parallel lists of boards.
Evaluator = Callable[[Sequence[Board], Sequence[Board]], np.ndarray]

# The 21 distinct rolls and their weights out of 36.
ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)
)


def net_evaluator(net: Net) -> Evaluator:
    variant = net.variant

    def evaluate(me: Sequence[Board], opp: Sequence[Board]) -> np.ndarray:
        probs = net.probs(np.asarray(me, dtype=np.int16), np.asarray(opp, dtype=np.int16))
        return _exact_endings(variant, me, opp, equity(variant, probs))

    return evaluate


def heuristic_evaluator(variant: str) -> Evaluator:
    """The hand-written score squashed into an equity-like range (about ±1.5)."""
    score = heuristic.long_score if variant == "long" else heuristic.short_score
    scale = 25.0 if variant == "long" else 20.0

    def evaluate(me: Sequence[Board], opp: Sequence[Board]) -> np.ndarray:
        raw = np.array([score(m, o) for m, o in zip(me, opp, strict=True)], dtype=np.float64)
        return _exact_endings(variant, me, opp, 1.5 * np.tanh(raw / scale))

    return evaluate


def result_points(variant: str, winner: Board, loser: Board) -> int:
    """Points of a finished game at cube 1 under the default scoring (M-1, M-2, M-4 … M-6)."""
    if loser[0]:
        return 1
    if variant == "short" and (loser[25] or any(loser[19:25])):
        return 3
    return 2


def _exact_endings(
    variant: str, me: Sequence[Board], opp: Sequence[Board], eq: np.ndarray
) -> np.ndarray:
    """Replace estimates by the exact result where the play has just borne off the 15th."""
    for i, m in enumerate(me):
        if m[0] == 15:
            eq[i] = result_points(variant, m, opp[i])
    return eq


def opponent_first_turn(variant: str, opp: Board) -> bool:
    """Whether the opponent has yet to make its first move (long nardy's L-11 needs it).

    Every long-nardy first turn moves a checker off the head, so a full head means the
    opponent has not moved yet; short nardy has no first-turn rule in move generation.
    """
    return variant == "long" and opp[24] == 15


def one_ply(
    evaluate: Evaluator,
    variant: str,
    me: Board,
    opp: Board,
    options: Options,
) -> tuple[float, int]:
    """Expected equity of an after-state when the opponent rolls and replies at 0-ply,
    and how many opponent replies were evaluated (the caller's work budget)."""
    if me[0] == 15:
        return float(result_points(variant, me, opp)), 0
    first = opponent_first_turn(variant, opp)
    movers: list[Board] = []
    others: list[Board] = []
    starts: list[int] = []
    weights: list[int] = []
    for dice, weight in ROLLS:
        ctx = movegen.make_context(variant, opp, me, dice, first_turn=first, options=options)
        nodes = movegen.generate(ctx) or [(0, (), opp, me)]
        starts.append(len(movers))
        weights.append(weight)
        for node in nodes:
            movers.append(node[2])
            others.append(node[3])
    values = evaluate(movers, others)
    best = np.maximum.reduceat(values, np.asarray(starts))
    value = float(-np.dot(best, np.asarray(weights, dtype=np.float64)) / 36.0)
    return value, len(movers)
