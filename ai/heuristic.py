"""Hand-written evaluations on raw board tuples: the ``easy`` level's judgement and the fallback
when no trained weights are packaged.

Both functions score a position *after a play* (``me`` has just moved, ``opp`` rolls next),
each board in its owner's numbering, in pips: positive means ``me`` stands better. Plain
Python over 26-tuples, because they are called for every legal play of a turn and must cost a
few microseconds, not the price of building objects.
"""

from __future__ import annotations

from engine.long_nardy import LONG_MAP

# Chance (out of 36) that a blot at a given distance is hit by some roll, ignoring blocks.
_HIT_CHANCE = (0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1)


def pips(board: tuple[int, ...]) -> int:
    """Pips still to travel (bar counts 25, C-6)."""
    return sum(i * board[i] for i in range(1, 26))


def short_score(me: tuple[int, ...], opp: tuple[int, ...]) -> float:
    """Short nardy: race lead plus the structure a backgammon player looks at.

    Blots are charged by the chance of being hit before ``me`` moves again and by the pips a
    hit would cost; made home points, anchors and primes are credited, more so when the
    opponent still has checkers behind them.
    """
    score = float(pips(opp) - pips(me))
    score += _short_structure(me, opp) - _short_structure(opp, me)
    score -= _short_exposure(me, opp)
    score += 0.3 * _short_exposure(opp, me)
    return score


def _short_structure(me: tuple[int, ...], opp: tuple[int, ...]) -> float:
    # opp's checkers in my numbering sit at 25 - q; their rearmost is the highest q.
    opp_back = max((q for q in range(25, 0, -1) if opp[q]), default=0)
    opp_back_mine = 25 - opp_back if opp_back else 25  # my point of their rearmost checker
    contact = opp_back and any(me[p] for p in range(opp_back_mine + 1, 26))
    if not contact:
        # Pure race: only wastage matters (stacks deep in home bear off slowly).
        return -0.4 * sum(max(0, me[p] - 3) for p in range(1, 7))
    s = 0.0
    run = best_run = 0
    home_points = 0
    for p in range(1, 25):
        n = me[p]
        if n >= 2:
            run += 1
            best_run = max(best_run, run)
            if p <= 6:
                home_points += 1
                s += 4.0 + (1.0 if p >= 4 else 0.0)
            elif p <= 8:
                s += 3.0
            elif p >= 19:
                s += 2.5  # an anchor in the opponent's home
        else:
            run = 0
        if n > 3:
            s -= 0.6 * (n - 3)
    if best_run >= 3:
        s += 1.2 * best_run * best_run
    s += opp[25] * home_points * 2.5
    s -= me[25] * 4.0
    return s


def _short_exposure(me: tuple[int, ...], opp: tuple[int, ...]) -> float:
    """Expected pips lost by ``me``'s blots to ``opp``'s next roll (rough, blocks ignored)."""
    attackers = [25 - q for q in range(1, 25) if opp[q]]  # in my numbering
    if opp[25]:
        attackers.append(0)
    if not attackers:
        return 0.0
    home = sum(1 for q in range(1, 7) if opp[q] >= 2)
    total = 0.0
    for b in range(1, 25):
        if me[b] != 1:
            continue
        miss = 1.0
        for a in attackers:
            d = b - a
            if 0 < d <= 24:
                miss *= 1.0 - _HIT_CHANCE[d] / 36.0
        if miss < 1.0:
            total += (1.0 - miss) * ((25 - b) + 6.0 + 3.0 * home)
    return total


def long_score(me: tuple[int, ...], opp: tuple[int, ...]) -> float:
    """Long nardy: race lead, leaving the head in time, and blocks in front of the opponent.

    There is no hitting, so the game is a race that blocking can swing: a run of points held
    in front of opponent checkers costs them rolls. The score counts those runs on the
    opponent's route (their own numbering, L-15), rewards spreading over many points (which
    makes blocks possible later), and charges checkers still waiting on the head.
    """
    score = float(pips(opp) - pips(me))
    score += _long_structure(me, opp) - _long_structure(opp, me)
    return score


def _long_structure(me: tuple[int, ...], opp: tuple[int, ...]) -> float:
    s = 0.0
    s -= 2.0 * max(0, me[24] - 1)
    opp_back = max((q for q in range(24, 0, -1) if opp[q]), default=0)  # opp's rearmost
    run = 0
    for q in range(24, 0, -1):  # along the opponent's route
        if me[LONG_MAP[q]]:
            run += 1
            continue
        if run >= 2:
            s += _block_value(run, opp_back, q + 1)
        run = 0
    if run >= 2:
        s += _block_value(run, opp_back, 1)
    spread = 0
    for p in range(1, 24):
        n = me[p]
        if n:
            spread += 1
            if n > 3:
                s -= 0.8 * (n - 3)
    s += 0.8 * min(spread, 10)
    return s


def _block_value(length: int, opp_back: int, low: int) -> float:
    """A block of ``length`` points whose lowest point is ``low`` in the opponent's numbering
    is worth most when the opponent's rearmost checkers still have to pass it."""
    if opp_back <= low:
        return 0.0
    return 1.0 * length * length
