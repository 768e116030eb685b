"""A short-nardy benchmark judged by GNU Backgammon: positions from varied play, candidate
plays valued by gnubg's 2-ply evaluation, and every player's error rate on them.

    python benchmarks/short_positions.py build --positions 2000   # needs the gnubg binary
    python benchmarks/short_positions.py judge --levels easy medium hard gnubg
    python benchmarks/short_positions.py judge --levels hard@NEW.npz --losses new.json
    python benchmarks/short_positions.py compare hard@NEW.npz hard old.json new.json
    python benchmarks/short_positions.py build --sampling gnubg \
        --out benchmarks/data/short_positions_vs_gnubg.json.gz   # positions met against gnubg

Short nardy is backgammon (RULES.md S-*), so gnubg is a fair outside judge. It is used here
and in ``benchmarks/ai_arena.py`` only: never at run time, never for training targets.

**Positions** are sampled exactly as in ``benchmarks/long_positions.py`` (seeded games of
uniform random, noisy hand-written, net 0-ply and hand-written 0-ply players; one turn in
``--every`` with at least two legal plays). With ``--sampling gnubg`` they come instead from
games of our nets at 0-ply (``medium``) against gnubg 0-ply, only where our side is to move:
the kind of positions ``hard`` meets in the arena against gnubg, which the mixed, mostly weak
players of the first set rarely reach (a setting judged better on that set did not show in
the arena: docs/ai.md, "The yardstick question").

**Scores.** Every legal play gets gnubg's 0-ply cubeless equity; the best ``--candidates`` by
it, together with the best ``--ours`` by our nets at 0-ply, are valued by gnubg at
``--plies`` (2 by default). **Judging** is ``long_positions.judge_player``: a play outside the
valued candidates counts as the worst of them (a lower bound on its loss).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

# One BLAS thread, as `import ai` sets it, but numpy is imported first here: thread pools
# made every decision (and so the timings reported) many times slower on this 2-core machine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_arena import GnubgAgent, make_agent
from long_positions import (
    Policy,
    judge_player,
    load_set,
    paired_difference,
    sample_positions,
    save_set,
)

from ai.net import shipped_nets
from ai.search import NetEvaluator
from ai.variant_ai import variant_ai
from engine import movegen

VARIANT = "short"
DEFAULT_SET = Path("benchmarks/data/short_positions.json.gz")


def versus_gnubg(
    ev: NetEvaluator, gnubg: GnubgAgent
) -> Callable[[int], tuple[Policy, Policy, int]]:
    """``sample_positions``' pairing for positions met against gnubg: our nets at 0-ply
    against gnubg 0-ply (its best play by its 0-ply equity of each play's result, as its own
    0-ply move choice does), seats alternating by game, only our turns kept."""

    def ours(nodes: list, rng: random.Random) -> int:
        return int(np.argmax(ev([x[2] for x in nodes], [x[3] for x in nodes])))

    def theirs(nodes: list, rng: random.Random) -> int:
        return int(np.argmax([gnubg.equity(x[2], x[3], 0) for x in nodes]))

    return lambda game: (ours, theirs, 0) if game % 2 == 0 else (theirs, ours, 1)


def build(args: argparse.Namespace) -> None:
    vai = variant_ai(VARIANT)
    nets = shipped_nets(VARIANT, vai.phases)
    if nets is None:
        raise SystemExit("no short-nardy weights shipped: the sampling players need them")
    ev = NetEvaluator(vai, nets)
    judge = GnubgAgent(0)
    t0 = time.perf_counter()
    pairing = versus_gnubg(ev, judge) if args.sampling == "gnubg" else None
    positions = sample_positions(
        ev, args.positions, args.every, args.seed, variant=VARIANT, pairing=pairing
    )
    valued = 0
    try:
        for i, p in enumerate(positions):
            me, opp = tuple(p["me"]), tuple(p["opp"])
            ctx = movegen.make_context(VARIANT, me, opp, tuple(p["dice"]), first_turn=p["first"])
            nodes = movegen.generate(ctx)
            zero = np.array([judge.equity(n[2], n[3], 0) for n in nodes])
            ours = ev([n[2] for n in nodes], [n[3] for n in nodes])
            top = list(np.argsort(-zero, kind="stable")[: args.candidates])
            top += [k for k in np.argsort(-ours, kind="stable")[: args.ours] if k not in top]
            p["plays"] = [
                {
                    "after": list(nodes[k][2]),
                    "opp": list(nodes[k][3]),
                    "eq": round(judge.equity(nodes[k][2], nodes[k][3], args.plies), 4),
                    "eq0": round(float(zero[k]), 4),
                }
                for k in top
            ]
            p["legal"] = len(nodes)
            valued += len(top)
            if (i + 1) % 100 == 0:
                print(f"{i + 1}/{len(positions)}, {time.perf_counter() - t0:.0f}s", flush=True)
    finally:
        judge.close()
    meta = {
        "variant": VARIANT,
        "judge": f"gnubg {args.plies}-ply, cubeless, money",
        "candidates": args.candidates,
        "ours": args.ours,
        "seed": args.seed,
        "every": args.every,
        "sampling": args.sampling,
        "plays_valued": valued,
        "seconds": round(time.perf_counter() - t0),
    }
    save_set(args.out, meta, positions)


def judge(args: argparse.Namespace) -> None:
    data = load_set(args.set)
    records = data["positions"][: args.limit] if args.limit else data["positions"]
    results = {}
    losses = {}
    for level in args.levels:
        agent = make_agent(level, VARIANT, seed=1)
        try:
            results[level] = judge_player(agent, VARIANT, records, keep=True)
        finally:
            if isinstance(agent, GnubgAgent):
                agent.close()
        losses[level] = results[level].pop("losses")
        print(level, json.dumps(results[level]), flush=True)
        if args.losses:
            # rewritten after each level, so a stopped run keeps the levels it finished
            args.losses.write_text(json.dumps({"limit": args.limit, "losses": losses}))
    print(json.dumps({"meta": data["meta"], "levels": results}))


def compare(args: argparse.Namespace) -> None:
    """Paired comparison of two judged levels, read from ``judge --losses`` files."""
    losses: dict[str, list[float]] = {}
    for path in args.files:
        losses |= json.loads(path.read_text())["losses"]
    print(
        json.dumps({"a": args.a, "b": args.b} | paired_difference(losses[args.a], losses[args.b]))
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--positions", type=int, default=2000)
    b.add_argument("--every", type=int, default=4)
    b.add_argument("--candidates", type=int, default=8, help="best by gnubg 0-ply")
    b.add_argument("--ours", type=int, default=4, help="best by our nets at 0-ply")
    b.add_argument("--plies", type=int, default=2)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--out", type=Path, default=DEFAULT_SET)
    b.add_argument(
        "--sampling",
        choices=("mixed", "gnubg"),
        default="mixed",
        help="positions from mixed players' games, or where our nets move against gnubg",
    )
    j = sub.add_parser("judge")
    j.add_argument("--set", type=Path, default=DEFAULT_SET)
    j.add_argument("--levels", nargs="+", default=["easy", "medium", "hard", "gnubg"])
    j.add_argument("--limit", type=int, help="only the first N positions")
    j.add_argument("--losses", type=Path, help="write every position's loss per level here")
    c = sub.add_parser("compare", help="A's mean loss minus B's, paired by position")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("files", nargs="+", type=Path, help="files written by judge --losses")
    args = ap.parse_args()
    {"build": build, "judge": judge, "compare": compare}[args.cmd](args)


if __name__ == "__main__":
    main()
