"""Start positions for self-play games in the short-nardy families the nets misjudge.

Greedy self-play from the opening rarely reaches a side with most checkers home and one or
two of its own still trapped behind the opponent's prime, or a bear-in against a back game,
so the nets learn little about them: measured against gnubg (docs/ai.md, "Money cube"), the
contact net gives ~75 % wins to the side home with a trapped back checker where gnubg says
−0.74 equity, and the cube wars of the cube-on arena came from there. Starting a share of
the training games from such positions puts them, and what follows from them, in the buffer
with their 1-ply targets.

Boards are 26-tuples in the owner's numbering (0 off, 1–24 points, 25 bar); a point ``p`` of
one side is the other's ``25 − p``. Every generated pair is a legal position (15 checkers a
side, no point shared) with the two armies in contact.
"""

from __future__ import annotations

import numpy as np

Board = tuple[int, ...]


def _put(
    board: list[int], other: list[int], rng: np.random.Generator, n: int, lo: int, hi: int
) -> None:
    """Drop ``n`` checkers one by one on random points ``lo..hi`` of ``board`` that ``other``
    does not hold (``other`` in its own numbering); what finds no room stays off."""
    free = [p for p in range(lo, hi + 1) if other[25 - p] == 0]
    for _ in range(n):
        if not free:
            board[0] += 1
            continue
        board[int(rng.choice(free))] += 1


def primed(rng: np.random.Generator) -> tuple[Board, Board]:
    """A side ``t`` with most checkers home and one to three trapped behind (or on the bar
    against) a prime of the other side ``p``; ``p`` may have checkers back itself (on the bar,
    in ``t``'s home) and ``t`` may have borne some off. Returns ``(p, t)``."""
    p = [0] * 26
    t = [0] * 26
    length = int(rng.choice([4, 5, 6], p=[0.2, 0.35, 0.45]))
    front = int(rng.integers(1, 13 - length + 1))  # the prime is p's points front..front+L-1
    for q in range(front, front + length):
        p[q] = 2
    spare = 15 - 2 * length
    # p's own back checkers: on the bar or in t's home (p's 19..24), placed after t's home.
    back_p = int(rng.choice([0, 1, 2], p=[0.3, 0.4, 0.3]))
    back_p = min(back_p, spare)
    # t's trapped checkers: behind the prime (p's points 1..front-1, t's 24..26-front) or on
    # the bar; with the prime on p's points 1.. only the bar is behind it.
    trapped = int(rng.choice([1, 2, 3], p=[0.55, 0.35, 0.1]))
    behind = [25 - q for q in range(1, front)]
    for _ in range(trapped):
        if behind and rng.random() < 0.8:
            t[int(rng.choice(behind))] += 1
        else:
            t[25] += 1
    # t: some off, the rest in its home (points 1..6), a few in its outfield (7..11).
    t_off = int(rng.choice([0, 0, 0, 1, 2, 3, 4]))
    t[0] = t_off
    rest = 15 - trapped - t_off
    outfield = min(rest, int(rng.choice([0, 0, 1, 2])))
    _put(t, p, rng, outfield, 7, 11)
    # The home board mostly made: 4–6 points of two and the remainder stacked at random.
    made = [q for q in range(1, 7) if p[25 - q] == 0]
    rng.shuffle(made)
    left = rest - outfield
    for q in made[: int(rng.integers(4, 7))]:
        if left >= 2:
            t[q] += 2
            left -= 2
    _put(t, p, rng, left, 1, 6)
    # p's back checkers where t leaves room (t's points with no t checker), else the bar.
    for _ in range(back_p):
        room = [q for q in range(19, 25) if t[25 - q] == 0]
        if room and rng.random() < 0.6:
            p[int(rng.choice(room))] += 1
        else:
            p[25] += 1
    # p's remaining spares: in front of the prime (its home side) or just above it.
    left = spare - back_p
    p_off = int(rng.integers(0, min(left, 3) + 1)) if front > 1 and not back_p else 0
    p[0] = p_off
    _put(p, t, rng, left - p_off, 1, min(18, front + length + 2))
    return tuple(p), tuple(t)


def back_game(rng: np.random.Generator) -> tuple[Board, Board]:
    """A side ``a`` bearing in (all checkers on its points 1–12, some maybe off) against a
    side ``b`` holding two anchors in ``a``'s home board. Returns ``(a, b)``."""
    a = [0] * 26
    b = [0] * 26
    anchors = rng.choice(np.arange(19, 25), size=2, replace=False)
    for q in anchors:
        b[int(q)] = 2 + int(rng.random() < 0.3)
    back = sum(b)
    if rng.random() < 0.3:  # a third checker back, on the bar or another home point of a
        b[25] += 1
        back += 1
    # b's others: spread over its points 1..15 with a few made points.
    _put(b, a, rng, 15 - back, 1, 15)
    a[0] = int(rng.choice([0, 0, 0, 1, 2, 3]))
    _put(a, b, rng, 15 - a[0], 1, 12)
    return tuple(a), tuple(b)


def blind_spot_start(rng: np.random.Generator) -> tuple[Board, Board]:
    """``(me, opp)`` for a self-play game that starts with ``opp`` to roll: a primed or a
    back-game position (3 : 1), either side on roll with even chances."""
    first, second = primed(rng) if rng.random() < 0.75 else back_game(rng)
    return (first, second) if rng.random() < 0.5 else (second, first)
