"""A rerunnable long-nardy benchmark: positions from varied play, candidate plays scored by
truncated rollouts of the strongest player, and every level's error rate on them.

    python benchmarks/long_positions.py build --positions 2000   # -> benchmarks/data/...
    python benchmarks/long_positions.py judge                    # error rate of each level

**Positions.** Seeded games in which each side is, per game, one of: uniform random, the
noisy hand-written evaluation (``easy``), the net at 0-ply or the hand-written evaluation at
0-ply — so openings, blocks, stuck heads and races of every quality occur. One turn in
``--every`` with at least two legal plays is kept (position, dice, first-turn flag).

**Scores.** Every legal play gets the strongest net's 0-ply equity; the best ``--candidates``
of them are rolled out: ``--trials`` trials, each ``--depth`` plies of greedy 0-ply play by
both sides, then the net's value of the position reached (a truncated rollout). Variance is
reduced by common random numbers (trial *t* throws the same dice after every candidate) and
by stratifying the first reply roll (trial *t* starts with ordered roll *t* mod 36). Each
candidate carries its mean and the standard error of its difference from the best candidate.

**Judging.** A level's play is looked up among the candidates by its resulting position; a
play outside them counts as losing at least as much as the worst candidate (a lower bound).
Reported per level: mean equity lost per move and the share of moves losing more than 0.05.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# One BLAS thread, as `import ai` sets it, but numpy is imported first here: thread pools
# made every decision (and so the timings reported) many times slower on this 2-core machine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import get_player
from ai.net import NetSet, shipped_nets
from ai.search import HeuristicEvaluator, NetEvaluator
from ai.variant_ai import variant_ai
from engine import movegen
from engine.position import Position, Side
from engine.variants import get_variant

VARIANT = "long"
Board = tuple[int, ...]


def _policies(ev: NetEvaluator) -> list[Any]:
    vai = ev.vai
    heur = HeuristicEvaluator(vai)

    def random_play(nodes: list, rng: random.Random) -> int:
        return rng.randrange(len(nodes))

    def noisy(nodes: list, rng: random.Random) -> int:
        vals = heur([n[2] for n in nodes], [n[3] for n in nodes])
        return int(np.argmax(vals + np.array([rng.gauss(0, 0.3) for _ in nodes])))

    def greedy(evaluate: Any) -> Any:
        def pick(nodes: list, rng: random.Random) -> int:
            return int(np.argmax(evaluate([n[2] for n in nodes], [n[3] for n in nodes])))

        return pick

    return [random_play, noisy, greedy(ev), greedy(heur)]


Policy = Callable[[list, random.Random], int]


def sample_positions(
    ev: NetEvaluator,
    n: int,
    every: int,
    seed: int,
    variant: str = VARIANT,
    pairing: Callable[[int], tuple[Policy, Policy, int]] | None = None,
) -> list[dict[str, Any]]:
    """(mover board, opponent board, dice, first turn) from seeded games of mixed players
    (``variant``: short nardy's benchmark samples the same way). ``pairing(game)`` instead
    gives a game's two players (the first moves first) and the one side whose turns are kept."""
    policies = _policies(ev)
    start = get_variant(variant).start_board()
    out: list[dict[str, Any]] = []
    game = 0
    while len(out) < n:
        rng = random.Random(f"{seed}:{game}")
        if pairing is None:
            sides, kept = (rng.choice(policies), rng.choice(policies)), (0, 1)
        else:
            first_player, second_player, kept_side = pairing(game)
            sides, kept = (first_player, second_player), (kept_side,)
        me, opp = start, start
        first = [True, True]
        side = 0
        turn = 0
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            ctx = movegen.make_context(variant, me, opp, dice, first_turn=first[side])
            nodes = movegen.generate(ctx) or [(0, (), me, opp)]
            keep = side in kept and len(nodes) > 1
            if keep and turn % every == rng.randrange(every) and len(out) < n:
                out.append(
                    {"me": list(me), "opp": list(opp), "dice": list(dice), "first": first[side]}
                )
            node = nodes[sides[side](nodes, rng)]
            first[side] = False
            if node[2][0] == 15:
                break
            me, opp = node[3], node[2]
            side ^= 1
            turn += 1
        game += 1
    return out


def rollout_values(
    ev: NetEvaluator, after: list[tuple[Board, Board]], trials: int, depth: int, seed: int
) -> np.ndarray:
    """(candidates, trials): truncated greedy rollouts of after-states, seen by their mover.

    All trials of all candidates advance in lockstep so that each ply costs one batched
    evaluation instead of one per game."""
    vai = ev.vai
    games = [(c, t) for c in range(len(after)) for t in range(trials)]
    rngs = [random.Random(f"{seed}:{t}") for _, t in games]  # same dice for every candidate
    state = [after[c] for c, _ in games]
    sign = np.ones(len(games))
    value = np.full(len(games), np.nan)
    for ply in range(depth):
        live = [g for g in range(len(games)) if np.isnan(value[g])]
        movers: list[Board] = []
        others: list[Board] = []
        spans = []
        for g in live:
            me, opp = state[g]
            if me[0] == 15:
                value[g] = sign[g] * vai.result_points(me, opp)
                continue
            t = games[g][1]
            if ply == 0:
                dice = (t % 36 // 6 + 1, t % 6 + 1)  # stratified first reply
            else:
                dice = (rngs[g].randint(1, 6), rngs[g].randint(1, 6))
            first = vai.opponent_first_turn(opp)
            ctx = movegen.make_context(VARIANT, opp, me, dice, first_turn=first)
            nodes = movegen.generate(ctx) or [(0, (), opp, me)]
            spans.append((g, len(movers), len(nodes)))
            movers.extend(n[2] for n in nodes)
            others.extend(n[3] for n in nodes)
        if not spans:
            break
        vals = ev(movers, others)
        for g, lo, k in spans:
            best = lo + int(np.argmax(vals[lo : lo + k]))
            state[g] = (movers[best], others[best])
            sign[g] = -sign[g]
    rest = [g for g in range(len(games)) if np.isnan(value[g])]
    if rest:
        final = ev([state[g][0] for g in rest], [state[g][1] for g in rest])
        value[rest] = sign[rest] * final
    return value.reshape(len(after), trials)


def build(args: argparse.Namespace) -> None:
    vai = variant_ai(VARIANT)
    nets = NetSet.load(args.weights) if args.weights else shipped_nets(VARIANT, vai.phases)
    if nets is None:
        raise SystemExit("no long-nardy weights shipped: nothing to roll out with")
    trained = json.loads(str(nets.extra["meta"])) if "meta" in nets.extra else {}
    ev = NetEvaluator(vai, nets)
    t0 = time.perf_counter()
    positions = sample_positions(ev, args.positions, args.every, args.seed)
    records = []
    for i, p in enumerate(positions):
        me, opp = tuple(p["me"]), tuple(p["opp"])
        ctx = movegen.make_context(VARIANT, me, opp, tuple(p["dice"]), first_turn=p["first"])
        nodes = movegen.generate(ctx)
        zero = ev([n[2] for n in nodes], [n[3] for n in nodes])
        top = np.argsort(-zero, kind="stable")[: args.candidates]
        after = [(nodes[k][2], nodes[k][3]) for k in top]
        vals = rollout_values(ev, after, args.trials, args.depth, seed=args.seed * 7919 + i)
        mean = vals.mean(axis=1)
        best = int(np.argmax(mean))
        diff_se = (vals - vals[best]).std(axis=1, ddof=1) / np.sqrt(args.trials)
        p["plays"] = [
            {
                "after": list(after[c][0]),
                "eq": round(float(mean[c]), 4),
                "se": round(float(diff_se[c]), 4),
            }
            for c in range(len(after))
        ]
        records.append(p)
        if (i + 1) % 50 == 0:
            print(
                f"{i + 1}/{len(positions)} positions, {time.perf_counter() - t0:.0f}s", flush=True
            )
    meta = {
        "variant": VARIANT,
        "trials": args.trials,
        "depth": args.depth,
        "candidates": args.candidates,
        "seed": args.seed,
        "every": args.every,
        "nets_generation": trained.get("generation"),
        "nets_games": trained.get("games"),
        "mean_se": round(float(np.mean([q["se"] for r in records for q in r["plays"]])), 4),
        "seconds": round(time.perf_counter() - t0),
    }
    save_set(args.out, meta, records)


def save_set(path: Path, meta: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """Write a position set (compact gzipped JSON) and print its summary."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt") as fh:
        json.dump({"meta": meta, "positions": records}, fh, separators=(",", ":"))
    print(json.dumps(meta))


def load_set(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rt") as fh:
        return json.load(fh)


def judge(args: argparse.Namespace) -> None:
    data = load_set(args.set)
    results = {}
    for level in args.levels:
        name, _, heur = level.partition("-")
        player = get_player(name, VARIANT, seed=1)
        if heur:
            player = type(player)(name, VARIANT, 1, use_net=False)
        results[level] = judge_player(player, VARIANT, data["positions"])
        print(level, json.dumps(results[level]), flush=True)
    print(json.dumps({"meta": data["meta"], "levels": results}))


def judge_player(
    player: Any, variant_name: str, records: list[dict[str, Any]], *, keep: bool = False
) -> dict[str, Any]:
    """A player's mean equity loss per move on scored positions, the share of moves losing
    more than 0.05, and its decision times. A play outside the scored candidates counts as
    the worst candidate (a lower bound on its loss); the plays are matched by the boards
    they leave (the mover's and, where hits change it, the opponent's). With ``keep`` the
    result also holds every position's loss (``losses``), for paired comparisons.

    Times are wall clock (``median_ms``, ``p99_ms``: what a user would wait under the load of
    the run) and CPU time of this process (``cpu_median_ms``, ``cpu_p99_ms``: the search's own
    cost, comparable between runs on a machine shared with other jobs). A player that thinks
    in another process (gnubg) shows almost no CPU time here."""
    variant = get_variant(variant_name)
    losses = []
    times = []
    cpu = []
    for rec in records:
        pos = Position(variant_name, tuple(rec["me"]), tuple(rec["opp"]), Side.WHITE)
        variant.check_position(pos)
        t0, c0 = time.perf_counter(), time.process_time()
        play = player.choose_play(pos, tuple(rec["dice"]), first_turn=rec["first"])
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        eqs = {_key(q["after"], q.get("opp")): q["eq"] for q in rec["plays"]}
        with_opp = "opp" in rec["plays"][0]
        best = max(eqs.values())
        got = eqs.get(_key(play.result.mover, play.result.opponent if with_opp else None))
        losses.append(best - (min(eqs.values()) if got is None else got))
    arr = np.array(losses)
    ms = 1000 * np.array(times)
    cpu_ms = 1000 * np.array(cpu)
    return {
        "positions": len(arr),
        "mean_loss": round(float(arr.mean()), 4),
        # normal 95 % interval of the mean over positions (the positions are independent)
        "mean_loss_ci95": [
            round(float(arr.mean() - half), 4) for half in (1.96 * _sem(arr), -1.96 * _sem(arr))
        ],
        "share_over_0.05": round(float((arr > 0.05).mean()), 3),
        "median_ms": round(float(np.median(ms)), 1),
        "p99_ms": round(float(np.percentile(ms, 99)), 1),
        "cpu_median_ms": round(float(np.median(cpu_ms)), 1),
        "cpu_p99_ms": round(float(np.percentile(cpu_ms, 99)), 1),
        "seconds": round(float(ms.sum()) / 1000, 1),
    } | ({"losses": [round(float(x), 6) for x in arr]} if keep else {})


def paired_difference(a: list[float], b: list[float]) -> dict[str, Any]:
    """How much more player A loses per move than B on the same positions, with a normal
    95 % interval of the mean of the per-position differences. Pairing removes the variance
    the positions share (most are easy for both), so it separates players that the two
    separate intervals cannot."""
    if len(a) != len(b) or not a:
        raise ValueError("paired losses need the same positions, at least one")
    diff = np.array(a) - np.array(b)
    half = 1.96 * _sem(diff)
    return {
        "positions": len(diff),
        "mean_diff": round(float(diff.mean()), 4),
        "mean_diff_ci95": [
            round(float(diff.mean() - half), 4),
            round(float(diff.mean() + half), 4),
        ],
        "a_worse": int((diff > 0).sum()),
        "b_worse": int((diff < 0).sum()),
    }


def _sem(values: np.ndarray) -> float:
    """Standard error of the mean."""
    return float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else 0.0


def _key(after: Any, opp: Any) -> tuple:
    """A scored play's identity: the boards it leaves (long sets store only the mover's:
    no hitting, so the opponent's board never changes)."""
    return (tuple(after), None if opp is None else tuple(opp))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--positions", type=int, default=2000)
    b.add_argument("--every", type=int, default=4)
    b.add_argument("--candidates", type=int, default=5)
    b.add_argument("--trials", type=int, default=36)
    b.add_argument("--depth", type=int, default=6)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--out", type=Path, default=Path("benchmarks/data/long_positions.json.gz"))
    b.add_argument("--weights", type=Path, help="nets to roll out with (default: shipped)")
    j = sub.add_parser("judge")
    j.add_argument("--set", type=Path, default=Path("benchmarks/data/long_positions.json.gz"))
    j.add_argument("--levels", nargs="+", default=["easy", "medium", "hard", "hard-heur"])
    args = ap.parse_args()
    build(args) if args.cmd == "build" else judge(args)


if __name__ == "__main__":
    main()
