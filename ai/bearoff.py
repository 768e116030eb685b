"""One-sided bear-off table: exact race values once both sides have every checker home.

For each home board (up to 15 checkers on points 1..6, the rest borne off) the table holds
the distribution of the number of rolls needed to bear everything off, playing each roll to
minimise the expected number of rolls, and — for boards with none off — the distribution of
rolls until the first checker is off (what decides a mars, M-2). With both sides home the two
races are independent, so the chance that the side on roll finishes first follows from the two
distributions (the standard one-sided approximation: each side plays for the fastest finish).

Bearing off works the same in both variants (C-28 … C-31; no opposing checker can stand in a
home board once both sides are home), so one table serves long and short nardy. It is built
by :func:`build` with the engine's own move generator (~54,000 boards × 21 rolls) and shipped
as ``ai/weights/bearoff.npz`` (rebuild: ``python -m ai.bearoff``).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from importlib import resources
from math import comb
from pathlib import Path

import numpy as np

from engine import movegen

POINTS = 6
MAX_ROLLS = 40  # P(needing more rolls than this) is below 1e-12 even from the 6-point
_ROLLS = tuple(((a, b), (1 if a == b else 2) / 36.0) for a in range(1, 7) for b in range(a, 7))


def _rank_table(checkers: int) -> np.ndarray:
    """R[i, s, c]: how many boards precede, in lexicographic order of (c1 … c6), those whose
    point i + 1 holds c checkers after s checkers on the lower points; rank = Σ R[i, s_i, c_i].
    """
    table = np.zeros((POINTS, checkers + 1, checkers + 2), dtype=np.int64)
    for i in range(POINTS):
        rest = POINTS - i - 1
        for s in range(checkers + 1):
            acc = 0
            for c in range(checkers - s + 2):
                table[i, s, c] = acc
                if c <= checkers - s:
                    acc += comb(checkers - s - c + rest, rest)
    return table


def boards(checkers: int) -> list[tuple[int, ...]]:
    """Every home board with at most ``checkers`` checkers, in rank order."""
    out: list[tuple[int, ...]] = []

    def rec(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == POINTS:
            out.append(prefix)
            return
        for c in range(left + 1):
            rec((*prefix, c), left - c)

    rec((), checkers)
    return out


def rank(table: np.ndarray, home: np.ndarray) -> np.ndarray:
    """Index of each row of ``home`` ((N, 6) checker counts on points 1..6)."""
    idx = np.zeros(len(home), dtype=np.int64)
    s = np.zeros(len(home), dtype=np.int64)
    for i in range(POINTS):
        c = home[:, i].astype(np.int64)
        idx += table[i, s, c]
        s += c
    return idx


def _successors(home: tuple[int, ...], dice: tuple[int, int], checkers: int) -> list[tuple]:
    me = (checkers - sum(home), *home, *([0] * 19))
    opp = (15, *([0] * 25))  # an opponent with nothing left: no block, no hit
    ctx = movegen.make_context("short", me, opp, dice)
    return [node[2][1:7] for node in movegen.generate(ctx)] or [home]


def build(checkers: int = 15, *, log: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(finish, first_off): per board, P(done in exactly n rolls) for n = 0 … MAX_ROLLS − 1.

    ``first_off`` is the distribution of rolls until the first checker leaves, for boards that
    hold all ``checkers`` (with one off already it is 0 rolls). Boards are processed in order
    of pips, so every successor is already known.
    """
    all_boards = boards(checkers)
    table = _rank_table(checkers)
    index = {b: i for i, b in enumerate(all_boards)}
    n = len(all_boards)
    finish = np.zeros((n, MAX_ROLLS), dtype=np.float64)
    first = np.zeros((n, MAX_ROLLS), dtype=np.float64)
    mean = np.zeros(n)
    mean_first = np.zeros(n)
    order = sorted(range(n), key=lambda i: sum((p + 1) * c for p, c in enumerate(all_boards[i])))
    t0 = time.perf_counter()
    for done, i in enumerate(order):
        home = all_boards[i]
        total = sum(home)
        if total == 0:
            finish[i, 0] = 1.0
            first[i, 0] = 1.0
            continue
        if total < checkers:
            first[i, 0] = 1.0
        for dice, w in _ROLLS:
            succ = [index[s] for s in _successors(home, dice, checkers)]
            best = min(succ, key=lambda j: mean[j])
            finish[i, 1:] += w * finish[best, :-1]
            mean[i] += w * (1.0 + mean[best])
            if total == checkers:
                best_f = min(succ, key=lambda j: mean_first[j])
                first[i, 1:] += w * first[best_f, :-1]
                mean_first[i] += w * (1.0 + mean_first[best_f])
        if log and done % 5000 == 0:
            print(f"bearoff {done}/{n} {time.perf_counter() - t0:.0f}s", flush=True)
    assert np.array_equal(rank(table, np.asarray(all_boards)), np.arange(n))
    return finish, first


@dataclass(slots=True)
class BearoffTable:
    """Lookup of the one-sided distributions (cumulative, for fast race probabilities)."""

    finish_cdf: np.ndarray  # (boards, MAX_ROLLS): P(done within n rolls)
    first_cdf: np.ndarray  # (boards, MAX_ROLLS): P(a first checker off within n rolls)
    checkers: int = 15
    _rank: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rank = _rank_table(self.checkers)

    @classmethod
    def from_distributions(
        cls, finish: np.ndarray, first: np.ndarray, checkers: int = 15
    ) -> BearoffTable:
        """From per-roll probabilities (renormalised: quantisation leaves sums of 1 ± 1e-4)."""
        finish = finish / finish.sum(axis=1, keepdims=True)
        first = first / first.sum(axis=1, keepdims=True)
        # float32 halves the memory (2 × 54,264 × 40 values) and is far finer than needed.
        return cls(
            np.cumsum(finish, axis=1).astype(np.float32),
            np.cumsum(first, axis=1).astype(np.float32),
            checkers,
        )

    def applies(self, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
        """Rows where both sides have every checker home or off, and the game goes on."""
        home = ~(me[:, 7:26].any(axis=1) | opp[:, 7:26].any(axis=1))
        return home & (me[:, 0] < 15) & (opp[:, 0] < 15)

    def race(self, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
        """(N, 3): for the side that has just moved (``me``; ``opp`` rolls next), P(win),
        P(win with the loser having none off) and P(lose having none off)."""
        a = rank(self._rank, opp[:, 1:7])  # on roll
        b = rank(self._rank, me[:, 1:7])
        fa, fb = self.finish_cdf[a], self.finish_cdf[b]
        pa = np.diff(fa, axis=1, prepend=0.0)
        pb = np.diff(fb, axis=1, prepend=0.0)
        # The side on roll wins in its n-th roll if the other needs more than n - 1 rolls.
        fb_prev = np.concatenate([np.zeros((len(b), 1)), fb[:, :-1]], axis=1)
        a_wins = (pa * (1.0 - fb_prev)).sum(axis=1)
        ga, gb = self.first_cdf[a], self.first_cdf[b]
        gb_prev = np.concatenate([np.zeros((len(b), 1)), gb[:, :-1]], axis=1)
        a_mars = np.where(me[:, 0] == 0, (pa * (1.0 - gb_prev)).sum(axis=1), 0.0)
        b_mars = np.where(opp[:, 0] == 0, (pb * (1.0 - ga)).sum(axis=1), 0.0)
        return np.clip(np.stack([1.0 - a_wins, b_mars, a_mars], axis=1), 0.0, 1.0)

    def save(self, path: Path) -> None:
        """Compact: the per-roll probabilities quantised to 1/65535 (errors < 1e-5)."""
        finish = np.diff(self.finish_cdf, axis=1, prepend=0.0)
        first = np.diff(self.first_cdf, axis=1, prepend=0.0)
        np.savez_compressed(
            path,
            finish=np.round(finish * 65535).astype(np.uint16),
            first=np.round(first * 65535).astype(np.uint16),
            checkers=np.array(self.checkers),
        )

    @classmethod
    def load(cls, path: Path) -> BearoffTable:
        with np.load(path) as data:
            finish = data["finish"].astype(np.float32) / 65535.0
            first = data["first"].astype(np.float32) / 65535.0
            return cls.from_distributions(finish, first, int(data["checkers"]))


_CACHE: list[BearoffTable | None] = []


def shipped_table() -> BearoffTable | None:
    """The table packaged as ``ai/weights/bearoff.npz`` (loaded once), or None."""
    if not _CACHE:
        ref = resources.files("ai").joinpath("weights", "bearoff.npz")
        if ref.is_file():
            with resources.as_file(ref) as path:
                _CACHE.append(BearoffTable.load(path))
        else:
            _CACHE.append(None)
    return _CACHE[0]


def main() -> None:
    ap = argparse.ArgumentParser(description="Build the one-sided bear-off table.")
    ap.add_argument("--out", type=Path, default=Path("ai/weights/bearoff.npz"))
    ap.add_argument("--checkers", type=int, default=15)
    args = ap.parse_args()
    t0 = time.perf_counter()
    finish, first = build(args.checkers, log=True)
    np.savez_compressed(args.out.with_suffix(".raw.npz"), finish=finish, first=first)
    BearoffTable.from_distributions(finish, first, args.checkers).save(args.out)
    print(f"built {len(finish)} boards in {time.perf_counter() - t0:.0f}s -> {args.out}")


if __name__ == "__main__":
    main()
