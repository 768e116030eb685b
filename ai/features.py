"""Board encodings the value networks read, vectorised over a batch of positions.

Every encoder takes ``me`` and ``opp`` as (N, 26) int arrays, each board in its owner's own
numbering (RULES.md C-4: 0 borne off, 1..24 points, 25 bar), ``me`` having just moved. Both
sides get the same units, so the position seen by the other player is the two boards swapped.

Why two encoders: a short-nardy net learns from the raw per-point units alone well enough
(hitting makes the board local), while long nardy is decided by slow structures — six-point
blocks, checkers stuck on the head, checkers trapped behind a block, whether the block is even
legal (L-15, L-16) — that a small net learns far too slowly from raw units (a 5,000-game TD net
lost to the hand-written evaluation). So the long encoder hands those structures in directly.
"""

from __future__ import annotations

import numpy as np

from engine.long_nardy import LONG_MAP

_PIP_WEIGHTS = np.arange(1, 26, dtype=np.float32)
_LONG_MAP = np.asarray(LONG_MAP)
# Column k of ``board[:, _ROUTE]`` is the owner's checkers on the *opponent's* point k + 1.
_ROUTE = _LONG_MAP[1:25]
_POINTS = np.arange(1, 25)


def point_units(side: np.ndarray) -> list[np.ndarray]:
    """The classic four units per point (≥1, ≥2, ≥3 checkers, excess over three scaled)."""
    pts = side[:, 1:25]
    return [
        (pts >= 1).astype(np.float32),
        (pts >= 2).astype(np.float32),
        (pts >= 3).astype(np.float32),
        np.maximum(pts - 3.0, 0.0) * 0.25,
    ]


def pips(side: np.ndarray) -> np.ndarray:
    """Pips still to travel per row (bar counts 25, C-6)."""
    return side[:, 1:26].astype(np.float32) @ _PIP_WEIGHTS


def short_contact(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Short nardy: some ``me`` checker is still behind ``opp``'s rearmost one."""
    idx = np.arange(1, 26)
    me_back = np.where(me[:, 1:26] > 0, idx, 0).max(axis=1)
    opp_back = np.where(opp[:, 1:26] > 0, idx, 0).max(axis=1)
    return (me_back + opp_back) > 25


def long_contact(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Long nardy (no hitting, one shared direction): some checker of either side still has
    an opposing checker between it and home, i.e. the armies have not passed each other."""
    me_back = np.where(me[:, 1:25] > 0, _POINTS, 0).max(axis=1)
    opp_back = np.where(opp[:, 1:25] > 0, _POINTS, 0).max(axis=1)
    opp_front = np.where(opp[:, _ROUTE] > 0, _POINTS, 99).min(axis=1)  # in my numbering
    me_front = np.where(me[:, _ROUTE] > 0, _POINTS, 99).min(axis=1)
    return (opp_front < me_back) | (me_front < opp_back)


def encode_short(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Short nardy: 4 units per point per side, bar, off, pips, on-bar flag, contact (201)."""
    parts: list[np.ndarray] = []
    me_f = me.astype(np.float32)
    opp_f = opp.astype(np.float32)
    for side in (me_f, opp_f):
        parts.extend(point_units(side))
        parts.append(side[:, 25:26] * 0.5)
        parts.append(side[:, 0:1] / 15.0)
        parts.append(pips(side)[:, None] / 160.0)
        parts.append((side[:, 0:1] > 0).astype(np.float32))
    parts.append(short_contact(me, opp)[:, None].astype(np.float32))
    return np.concatenate(parts, axis=1)


# The 21 distinct rolls: their weights out of 36 and, padded with distance 0 (never a hit),
# the distances one checker can hit at with each (a double moves up to four times its number).
_ROLL_WEIGHTS36 = np.array([1 if a == b else 2 for a in range(1, 7) for b in range(a, 7)])
_HIT_DISTANCES = np.array(
    [
        ([a * k if a * k <= 24 else 0 for k in range(1, 5)] if a == b else [a, b, a + b, 0])
        for a in range(1, 7)
        for b in range(a, 7)
    ]
)
_BITS = np.left_shift(np.uint64(1), np.arange(25, dtype=np.uint64))  # bit p: point p
_SHIFTS = np.arange(25, dtype=np.uint64)


def _mask(flags: np.ndarray, first: int = 0) -> np.ndarray:
    """(N, k) booleans as one uint64 per row, column j on bit ``first + j``."""
    return (flags.astype(np.uint64) * _BITS[first : first + flags.shape[1]]).sum(
        axis=1, dtype=np.uint64
    )


def _longest_run(mask: np.ndarray) -> np.ndarray:
    """Per row, the longest run of consecutive set bits."""
    out = np.zeros(mask.shape, np.int16)
    m = mask.copy()
    while m.any():
        out += m != 0
        m &= m >> np.uint64(1)
    return out


def _short_side(a: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    """Hand-made units for side ``a`` of a short-nardy board, against attacker ``b``.

    The raw point units leave a small net to discover how exposed a blot is, how long a
    prime is and whether a back checker can get out; gnubg's contact net is handed such
    units directly, and so is ours. All are in ``a``'s numbering: ``b``'s checker on its
    point q stands on ``a``'s 25 − q and moves *up* in ``a``'s numbering (its bar is 0).
    Boards become bit masks (bit p: ``a``'s point p) so that each unit is a few whole-batch
    operations: the encoder runs on every reply the search generates.
    """
    pts = a[:, 1:25]
    made = pts >= 2
    # b's checkers in a's numbering, index r = 0 (b's bar) .. 24.
    b_at = np.concatenate([b[:, 25:26], b[:, 24:0:-1]], axis=1)  # column r: b's point 25 - r
    attackers = _mask(b_at > 0)
    blots = _mask(pts == 1, 1)
    # hit_at[:, d]: some b checker stands exactly d pips behind some a blot (d = 0: never).
    hit_at = (attackers[:, None] << _SHIFTS[None, :]) & blots[:, None] != 0
    hit_at[:, 0] = False
    shots = hit_at[:, _HIT_DISTANCES].any(axis=2) @ _ROLL_WEIGHTS36
    # Primes: longest run of made points anywhere, and in front of b's rearmost checker.
    made_mask = _mask(made, 1)
    has_b = attackers != 0
    b_back = np.where(has_b, np.argmax(b_at > 0, axis=1), 24).astype(np.uint64)
    ahead = ~((np.uint64(2) << b_back) - np.uint64(1))  # bits above b's rearmost
    prime_ahead = np.where(has_b, _longest_run(made_mask & ahead), 0)
    # a's rearmost checker (bar 25) and how many single dice land it on a point b lets it use.
    idx = np.arange(1, 26)
    back = np.where(a[:, 1:26] > 0, idx, 0).max(axis=1)
    b_made = _mask(b_at[:, 1:25] >= 2, 1)
    dest = back[:, None] - np.arange(1, 7)[None, :]
    blocked = (b_made[:, None] >> np.maximum(dest, 0).astype(np.uint64)) & np.uint64(1)
    open_dice = ((dest >= 1) & (blocked == 0)).sum(axis=1)
    back_checkers = a[:, 19:26].sum(axis=1).astype(np.float32)
    units = [
        shots / 36.0,
        (pts == 1).sum(axis=1) / 5.0,
        made[:, 0:6].sum(axis=1) / 6.0,
        _longest_run(made_mask) / 6.0,
        prime_ahead / 6.0,
        (prime_ahead >= 5).astype(np.float32),
        back_checkers / 15.0,
        made[:, 18:24].sum(axis=1) / 3.0,
        np.where(back >= 19, open_dice, 6.0) / 6.0,
    ]
    return [u[:, None].astype(np.float32) for u in units]


SHORT_SIDE_UNITS = 9


def encode_short_plus(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Short nardy: :func:`encode_short`'s units plus, per side, the hand-made units of
    :func:`_short_side` (shots at its blots, primes, back checkers, anchors, escapes) and the
    pip lead (221)."""
    me_pips = pips(me.astype(np.float32))
    opp_pips = pips(opp.astype(np.float32))
    lead = (opp_pips - me_pips) / 40.0
    parts = [encode_short(me, opp), *_short_side(me, opp), *_short_side(opp, me)]
    parts += [lead[:, None], np.tanh(lead)[:, None]]
    return np.concatenate(parts, axis=1).astype(np.float32)


def _runs(held: np.ndarray) -> np.ndarray:
    """Length of the run of held points ending at each column (0 where not held)."""
    out = np.zeros(held.shape, dtype=np.int16)
    run = np.zeros(held.shape[0], dtype=np.int16)
    for k in range(held.shape[1]):
        run = np.where(held[:, k], run + 1, 0).astype(np.int16)
        out[:, k] = run
    return out


def _mars_need(side: np.ndarray) -> np.ndarray:
    """Pips a side must still travel to bear off its first checker (0 once one is off)."""
    outside = (side[:, 7:25].astype(np.float32) * (np.arange(7, 25) - 6)).sum(axis=1)
    home = side[:, 1:7] > 0
    lowest = np.where(home, np.arange(1, 7), 6).min(axis=1)
    return np.where(side[:, 0] > 0, 0.0, outside + lowest).astype(np.float32)


LONG_SIDE_UNITS = 96 + 22


def _long_side(a: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    """Units for side ``a`` (its checkers, and its blocks against ``b``)."""
    af = a.astype(np.float32)
    parts = point_units(af)
    n = a.shape[0]
    # a's holdings along b's route (b's numbering): that is where a's blocks stop b.
    held = a[:, _ROUTE] > 0  # column q-1: b's point q
    b_pts = b[:, 1:25] > 0
    b_back = np.where(b_pts, _POINTS, 0).max(axis=1)  # b's rearmost checker
    # L-16: a run [lo..hi] of six is legal iff some b checker stands below lo (or one is off).
    b_first = np.where(b[:, 0] > 0, 0, np.where(b_pts, _POINTS, 25).min(axis=1))
    runs = _runs(held)
    ahead = _POINTS[None, :] < b_back[:, None]  # points b still has to pass
    run_ahead = np.where(ahead, runs, 0)
    best_run = run_ahead.max(axis=1)
    hi = run_ahead.argmax(axis=1) + 1  # top of the longest block b must pass
    # Checkers of b behind that block (further from home than its top): trapped by it.
    b_counts = b[:, 1:25].astype(np.float32)
    behind = np.cumsum(b_counts[:, ::-1], axis=1)[:, ::-1]  # column k: b's points ≥ k + 1
    trapped = np.where(hi < 24, behind[np.arange(n), np.minimum(hi, 23)], 0.0)
    trapped = np.where(best_run >= 2, trapped, 0.0)
    # Six-point windows in front of b's rearmost: how close a is to a full prime there.
    cum = np.concatenate([np.zeros((n, 1)), np.cumsum(held, axis=1)], axis=1)
    window = cum[:, 6:] - cum[:, :-6]  # column j: b's points j+1 .. j+6
    lo = np.arange(1, 20)
    window_ahead = np.where(lo[None, :] + 5 < b_back[:, None], window, 0)
    best_window = window_ahead.max(axis=1)
    best_lo = window_ahead.argmax(axis=1) + 1
    legal = (best_lo > b_first).astype(np.float32)
    head = af[:, 24]
    home = af[:, 1:7].sum(axis=1)
    quarters = [af[:, 1 + 6 * k : 7 + 6 * k].sum(axis=1) / 15.0 for k in range(4)]
    pip = pips(af)
    held_points = (a[:, 1:25] > 0).sum(axis=1)
    extra = [
        af[:, 0] / 15.0,
        head / 15.0,
        (head >= 2).astype(np.float32),
        np.maximum(head - 1.0, 0.0) * (af[:, 0] == 0) / 14.0,
        pip / 360.0,
        home / 15.0,
        *quarters,
        best_run / 6.0,
        (best_run >= 4).astype(np.float32),
        best_window / 6.0,
        (best_window >= 5).astype(np.float32),
        (best_window >= 5) * legal,
        legal,
        b_first / 24.0,
        trapped / 15.0,
        (trapped > 0) * best_run / 6.0,
        _mars_need(af) / 100.0,
        held_points / 12.0,
        a[:, 1:25].max(axis=1) / 15.0,
    ]
    parts.extend(e[:, None].astype(np.float32) for e in extra)
    return parts


def encode_long(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Long nardy: per-point units and the structures of the game for each side, the race
    (pip lead, each side's distance to bearing off a first checker — mars danger) and whether
    the armies still meet."""
    parts = _long_side(me, opp) + _long_side(opp, me)
    me_pips = pips(me.astype(np.float32))
    opp_pips = pips(opp.astype(np.float32))
    lead = (opp_pips - me_pips) / 60.0
    # Mars danger: a side that needs more pips to get a first checker off than the other
    # needs to finish is in danger (positive margin), in both directions.
    me_margin = (_mars_need(me) - opp_pips) / 60.0
    opp_margin = (_mars_need(opp) - me_pips) / 60.0
    contact = long_contact(me, opp).astype(np.float32)
    glob = [lead, np.tanh(lead * 2.0), me_margin, opp_margin, contact]
    parts.extend(g[:, None].astype(np.float32) for g in glob)
    return np.concatenate(parts, axis=1)


LONG_INPUTS = 2 * LONG_SIDE_UNITS + 5
SHORT_INPUTS = 201
SHORT_PLUS_INPUTS = SHORT_INPUTS + 2 * SHORT_SIDE_UNITS + 2
