"""Pure races (no contact left): a closed-form estimate of winning and mars chances.

Used for cube decisions once the armies have passed each other, where a small self-play net is
least reliable and a race formula is well understood: the number of rolls a side needs is about
its pips divided by the mean roll (8.17 pips), with a variance that grows with the pips, and
the side on roll wins ties. Boards are 26-tuples in each owner's numbering.
"""

from __future__ import annotations

import math

MEAN_ROLL = 49 / 6  # average pips per roll, doubles counted four times
VAR_ROLL = 18.6  # variance of the pips of one roll
WASTE_PER_CHECKER = 1.0  # bearing off wastes pips; more checkers, more waste


def _effective(board: tuple[int, ...]) -> float:
    on_board = 15 - board[0]
    return sum(i * board[i] for i in range(1, 26)) + WASTE_PER_CHECKER * on_board


def _first_finishes(roller_need: float, other_need: float) -> float:
    """P(the side on roll completes ``roller_need`` pips no later than the other side)."""
    if roller_need <= 0:
        return 1.0
    if other_need <= 0:
        return 0.0
    diff = (other_need - roller_need) / MEAN_ROLL + 0.5
    var = (roller_need + other_need) * VAR_ROLL / MEAN_ROLL**3 + 0.05
    return 0.5 * (1.0 + math.erf(diff / math.sqrt(2.0 * var)))


def _mars_need(board: tuple[int, ...]) -> float:
    """Pips a side must still travel to bear off its first checker (0 if one is off)."""
    if board[0]:
        return 0.0
    outside = sum((p - 6) * board[p] for p in range(7, 26))
    lowest = min((p for p in range(1, 7) if board[p]), default=6)
    return outside + lowest


def race_outcomes(roller: tuple[int, ...], other: tuple[int, ...]) -> tuple[float, float, float]:
    """(P(the side on roll wins), P(it marses the other), P(it is marsed)) in a pure race."""
    p_win = _first_finishes(_effective(roller), _effective(other))
    # The loser is marsed if the winner finishes before the loser gets one checker off.
    p_other_marsed = 0.0
    if other[0] == 0:
        p_other_marsed = min(p_win, _first_finishes(_effective(roller), _mars_need(other)))
    p_roller_marsed = 0.0
    if roller[0] == 0:
        saved = _first_finishes(_mars_need(roller), _effective(other))
        p_roller_marsed = min(1.0 - p_win, 1.0 - saved)
    return p_win, p_other_marsed, p_roller_marsed


def race_equity(roller: tuple[int, ...], other: tuple[int, ...]) -> float:
    """Cubeless equity of the side about to roll in a pure race (mars counted double)."""
    p_win, p_other_marsed, p_roller_marsed = race_outcomes(roller, other)
    return 2.0 * p_win - 1.0 + p_other_marsed - p_roller_marsed
