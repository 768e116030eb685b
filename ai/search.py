"""Scoring plays: 0-ply (evaluate each after-state), 1-ply (average over the opponent's 21
rolls, the opponent answering each with its best 0-ply play) and 2-ply (the same, each reply
then valued 1-ply: our 21 rolls and our best 0-ply answer to each).

Everything here works on the engine's raw move-generation records (26-tuples), never on
``Play`` objects, because a 1-ply decision generates thousands of positions and object
construction would dominate. Equities are in points per game at cube 1, from the side that has
just moved. The same 1-ply routine makes the training targets (``ai.training``), so what the
nets learn is exactly what the search computes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from ai.bearoff import BearoffTable, shipped_table
from ai.net import NetSet
from ai.variant_ai import VariantAI
from engine import movegen
from engine.options import Options

Board = tuple[int, ...]

# The 21 distinct rolls and their weights out of 36.
ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)
)
ROLL_WEIGHTS = np.array([w for _, w in ROLLS], dtype=np.float64) / 36.0


class Evaluator(Protocol):
    """Equities of after-states (me just moved) for parallel lists of boards."""

    def __call__(self, me: Sequence[Board], opp: Sequence[Board]) -> np.ndarray: ...


class NetEvaluator:
    """The phase nets, with exact values where they are known: a finished game, and a race
    with both sides bearing off (the one-sided bear-off table)."""

    def __init__(self, vai: VariantAI, nets: NetSet, bearoff: BearoffTable | None = None) -> None:
        self.vai = vai
        self.nets = nets
        self.bearoff = bearoff if bearoff is not None else shipped_table()

    def probs(self, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
        """Outcome probabilities (see :mod:`ai.variant_ai`) of (N, 26) after-state boards."""
        vai = self.vai
        out = self.nets.probs(vai.encode(me, opp, self.nets.n_in), vai.phase(me, opp))
        if self.bearoff is not None:
            rows = self.bearoff.applies(me, opp)
            if rows.any():
                out[rows] = vai.from_race(self.bearoff.race(me[rows], opp[rows]))
        done = me[:, 0] == 15
        if done.any():
            out[done] = vai.outcomes(me[done], opp[done])
        return out

    def __call__(self, me: Sequence[Board], opp: Sequence[Board]) -> np.ndarray:
        m = np.asarray(me, dtype=np.int16)
        o = np.asarray(opp, dtype=np.int16)
        return self.vai.equity(self.probs(m, o)).astype(np.float64)


class HeuristicEvaluator:
    """The hand-written score squashed into an equity-like range (about ±1.5)."""

    def __init__(self, vai: VariantAI) -> None:
        self.vai = vai

    def __call__(self, me: Sequence[Board], opp: Sequence[Board]) -> np.ndarray:
        vai = self.vai
        raw = np.array(
            [vai.heuristic_score(m, o) for m, o in zip(me, opp, strict=True)], dtype=np.float64
        )
        eq = 1.5 * np.tanh(raw / vai.heuristic_scale)
        for i, m in enumerate(me):
            if m[0] == 15:
                eq[i] = vai.result_points(m, opp[i])
        return eq


def replies(
    vai: VariantAI, me: Board, opp: Board, options: Options
) -> tuple[list[Board], list[Board], np.ndarray]:
    """Every reply of the opponent to every roll: its boards after the reply (mover first)
    and where each roll's replies start (a roll with no legal step keeps the position)."""
    first = vai.opponent_first_turn(opp)
    movers: list[Board] = []
    others: list[Board] = []
    starts: list[int] = []
    for dice, _ in ROLLS:
        ctx = movegen.make_context(vai.name, opp, me, dice, first_turn=first, options=options)
        nodes = movegen.generate(ctx) or [(0, (), opp, me)]
        starts.append(len(movers))
        for node in nodes:
            movers.append(node[2])
            others.append(node[3])
    return movers, others, np.asarray(starts)


def one_ply(
    evaluate: Evaluator,
    vai: VariantAI,
    me: Board,
    opp: Board,
    options: Options,
) -> tuple[float, int]:
    """Expected equity of an after-state when the opponent rolls and replies at 0-ply,
    and how many opponent replies were evaluated (the caller's work budget)."""
    values, work = one_ply_many(evaluate, vai, [me], [opp], options)
    return float(values[0]), work


def one_ply_many(
    evaluate: Evaluator,
    vai: VariantAI,
    me: Sequence[Board],
    opp: Sequence[Board],
    options: Options,
    limit: int | None = None,
) -> tuple[np.ndarray, int]:
    """:func:`one_ply` of several after-states with one evaluator call (the per-call cost
    of the nets dominates for a few hundred rows), and the replies evaluated in all.

    With a ``limit``, generation stops as soon as more than ``limit`` replies exist and
    nothing is evaluated: a work count above ``limit`` means the values are not computed."""
    out = np.zeros(len(me), dtype=np.float64)
    movers: list[Board] = []
    others: list[Board] = []
    starts: list[np.ndarray] = []
    live: list[int] = []
    for i, (m, o) in enumerate(zip(me, opp, strict=True)):
        if m[0] == 15:
            out[i] = vai.result_points(m, o)
            continue
        mv, ot, st = replies(vai, m, o, options)
        starts.append(st + len(movers))
        movers.extend(mv)
        others.extend(ot)
        live.append(i)
        if limit is not None and len(movers) > limit:
            return out, len(movers)
    if live:
        values = evaluate(movers, others)
        best = np.maximum.reduceat(values, np.concatenate(starts)).reshape(len(live), len(ROLLS))
        out[live] = -(best @ ROLL_WEIGHTS)
    return out, len(movers)


def two_ply(
    evaluate: Evaluator,
    vai: VariantAI,
    me: Board,
    opp: Board,
    options: Options,
    limit: int | None = None,
) -> tuple[float | None, int]:
    """Expected equity of an after-state two rolls deep: for each of the opponent's 21 rolls
    its best reply at 0-ply, that reply then valued 1-ply from our side; and the replies
    evaluated (the work budget). Typically 5–100 times the work of :func:`one_ply` (when the
    opponent has few replies and we have many, far more), which is why a caller with a
    budget passes ``limit``: once more than ``limit`` replies have been generated the search
    stops and returns None for the value (a hard, deterministic cap on the work)."""
    if me[0] == 15:
        return float(vai.result_points(me, opp)), 0
    movers, others, starts = replies(vai, me, opp, options)
    if limit is not None and len(movers) > limit:
        return None, len(movers)
    values = evaluate(movers, others)
    ends = np.append(starts[1:], len(movers))
    picks = [s + int(np.argmax(values[s:e])) for s, e in zip(starts, ends, strict=True)]
    rest = None if limit is None else limit - len(movers)
    theirs, work = one_ply_many(
        evaluate, vai, [movers[k] for k in picks], [others[k] for k in picks], options, rest
    )
    if rest is not None and work > rest:
        return None, work + len(movers)
    return float(-np.dot(theirs, ROLL_WEIGHTS)), work + len(movers)
