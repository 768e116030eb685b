"""Self-play games whose every position gets a 1-ply target, and the replay buffer.

One routine does both jobs: to value an after-state at 1-ply we generate the opponent's
replies to all 21 rolls and evaluate them; the roll actually thrown is one of those 21, so the
game continues with a reply already evaluated. Self-play therefore costs nothing beyond the
targets.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ai.search import ROLL_WEIGHTS, ROLLS, NetEvaluator, replies
from ai.variant_ai import VariantAI
from engine import movegen
from engine.options import Options
from engine.variants import get_variant

Board = tuple[int, ...]
_ROLL_CDF = np.cumsum(ROLL_WEIGHTS)


@dataclass(slots=True)
class Game:
    """The after-states of one self-play game and their targets (mover's view)."""

    me: np.ndarray  # (T, 26) int8
    opp: np.ndarray  # (T, 26) int8
    one_ply: np.ndarray  # (T, n_out) the 1-ply averages
    target: np.ndarray  # (T, n_out) the λ-mixed targets actually trained on


def one_ply_target(
    ev: NetEvaluator, vai: VariantAI, me: Board, opp: Board, options: Options
) -> tuple[np.ndarray, list[Board], list[Board], np.ndarray, np.ndarray]:
    """The 1-ply outcome vector of an after-state (``me`` just moved) and, for continuing the
    game, the opponent's replies with their equities and where each roll's replies start."""
    movers, others, starts = replies(vai, me, opp, options)
    probs = ev.probs(np.asarray(movers, dtype=np.int16), np.asarray(others, dtype=np.int16))
    eq = vai.equity(probs)
    ends = np.append(starts[1:], len(movers))
    best = np.array([s + int(np.argmax(eq[s:e])) for s, e in zip(starts, ends, strict=True)])
    target = vai.flip((probs[best] * ROLL_WEIGHTS[:, None]).sum(axis=0))
    return target, movers, others, eq, starts


def sampled_target(
    ev: NetEvaluator, vai: VariantAI, me: Board, opp: Board, dice: tuple[int, int], options: Options
) -> tuple[np.ndarray, list[Board], list[Board], np.ndarray]:
    """Like :func:`one_ply_target` for one thrown roll: the value of the best reply to it."""
    first = vai.opponent_first_turn(opp)
    ctx = movegen.make_context(vai.name, opp, me, dice, first_turn=first, options=options)
    nodes = movegen.generate(ctx) or [(0, (), opp, me)]
    movers = [n[2] for n in nodes]
    others = [n[3] for n in nodes]
    probs = ev.probs(np.asarray(movers, dtype=np.int16), np.asarray(others, dtype=np.int16))
    eq = vai.equity(probs)
    return vai.flip(probs[int(np.argmax(eq))]), movers, others, eq


def play_game(
    ev: NetEvaluator,
    vai: VariantAI,
    rng: np.random.Generator,
    *,
    lam: float,
    explore: float,
    full: bool = True,
    options: Options | None = None,
    max_plies: int = 600,
    start: tuple[Board, Board] | None = None,
) -> Game:
    """One game of greedy self-play (the opponent of every after-state replies with its best
    0-ply play; with probability ``explore`` a random one of its best three instead).

    Targets are λ-returns built on the 1-ply averages: ``G_t = (1 − λ)·V1(s_t) + λ·G_{t+1}``
    (flipped to the mover of ``s_t``), ending in the exact result. λ > 0 carries the result of
    the game back faster while the nets are young; λ = 0 is the pure 1-ply target. The trace is
    cut after an exploratory move, whose continuation says nothing about the greedy value.

    ``full=False`` replaces V1 by the value of the reply to the roll actually thrown (plain
    TD(λ)): 21 times cheaper per position, noisier; measured to learn faster per CPU second
    while the nets are young and λ is high (docs/ai.md).

    ``start`` (``(me, opp)``, ``opp`` to roll) begins the game from a given after-state
    instead of the opening, and that position is trained on too (:mod:`ai.training.starts`).
    """
    opts = options or Options()
    if start is None:
        opening = get_variant(vai.name).start_board()
        me, opp = opening, opening  # the first roller is "opp": it is about to roll
    else:
        me, opp = start
    first = 0 if start is not None else 1  # the opening is not a position after a play
    rows_me: list[Board] = []
    rows_opp: list[Board] = []
    ones: list[np.ndarray] = []
    explored: list[bool] = []
    final: np.ndarray | None = None
    for ply in range(max_plies):
        roll = int(np.searchsorted(_ROLL_CDF, rng.random() * _ROLL_CDF[-1], side="right"))
        roll = min(roll, len(ROLLS) - 1)
        if full:
            target, movers, others, eq, starts = one_ply_target(ev, vai, me, opp, opts)
            lo = int(starts[roll])
            hi = int(starts[roll + 1]) if roll + 1 < len(starts) else len(movers)
        else:
            target, movers, others, eq = sampled_target(ev, vai, me, opp, ROLLS[roll][0], opts)
            lo, hi = 0, len(movers)
        if ply >= first:
            rows_me.append(me)
            rows_opp.append(opp)
            ones.append(target)
        order = lo + np.argsort(-eq[lo:hi], kind="stable")
        pick = int(order[0])
        took_random = hi - lo > 1 and rng.random() < explore
        if took_random:
            pick = int(order[rng.integers(0, min(3, hi - lo))])
        if ply >= first:
            explored.append(took_random)
        me, opp = movers[pick], others[pick]
        if me[0] == 15:
            final = vai.outcome(me, opp)
            break
    n = len(ones)
    targets = np.zeros((n, vai.n_out), np.float32)
    if n:
        nxt = final if final is not None else vai.flip(ones[-1])
        for t in range(n - 1, -1, -1):
            g = ones[t] if explored[t] else (1.0 - lam) * ones[t] + lam * vai.flip(nxt)
            targets[t] = g
            nxt = g
    return Game(
        np.asarray(rows_me, dtype=np.int8).reshape(n, 26),
        np.asarray(rows_opp, dtype=np.int8).reshape(n, 26),
        np.asarray(ones, dtype=np.float32).reshape(n, vai.n_out),
        targets,
    )


class ReplayBuffer:
    """The most recent positions (a ring), stored as boards: 52 bytes and a target each,
    encoded only when sampled."""

    def __init__(self, capacity: int, n_out: int) -> None:
        self.capacity = capacity
        self.me = np.zeros((capacity, 26), np.int8)
        self.opp = np.zeros((capacity, 26), np.int8)
        self.target = np.zeros((capacity, n_out), np.float32)
        self.size = 0
        self.head = 0

    def add(self, me: np.ndarray, opp: np.ndarray, target: np.ndarray) -> None:
        k = min(len(me), self.capacity)
        idx = (self.head + np.arange(k)) % self.capacity
        self.me[idx] = me[-k:]
        self.opp[idx] = opp[-k:]
        self.target[idx] = target[-k:]
        self.head = int((self.head + k) % self.capacity)
        self.size = min(self.size + k, self.capacity)

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
        idx = rng.integers(0, self.size, n)
        return self.me[idx], self.opp[idx], self.target[idx]

    def state(self) -> dict[str, np.ndarray]:
        n = self.size
        order = (np.arange(n) + (self.head - n)) % self.capacity  # oldest first
        return {
            "buffer_me": self.me[order],
            "buffer_opp": self.opp[order],
            "buffer_target": self.target[order],
        }

    def load(self, arrays: dict[str, np.ndarray]) -> None:
        if "buffer_me" in arrays:
            self.add(arrays["buffer_me"], arrays["buffer_opp"], arrays["buffer_target"])
