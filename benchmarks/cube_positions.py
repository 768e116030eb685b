"""Money-cube decisions judged by GNU Backgammon: short-nardy positions before a roll, each
with gnubg's cubeful equities of no double, double/take and double/pass (cube centred and
cube owned by the roller), and every player's equity lost on its double and take decisions.

    python benchmarks/cube_positions.py build            # needs the gnubg binary, ~4 min
    python benchmarks/cube_positions.py judge --levels medium hard "hard^old=1"
    python benchmarks/cube_positions.py judge --levels hard "hard^d=0" --losses cube.json
    python benchmarks/cube_positions.py compare "hard^d=0" hard cube.json
    # the blind-spot set: generated positions the nets misjudge (ai.training.starts)
    python benchmarks/cube_positions.py build --generated 1000 \
        --out benchmarks/data/short_cube_blind.json.gz
    python benchmarks/cube_positions.py judge --set benchmarks/data/short_cube_blind.json.gz \
        --levels hard gnubg

**Positions** are the pre-roll boards of ``benchmarks/data/short_positions.json.gz`` (varied
play: random, noisy hand-written, nets; see ``short_positions.py``). Each is valued twice by
gnubg at ``--plies`` (2 by default; money play, Jacoby and beavers off, as in our rules): with
the cube centred and with the roller owning it (a redouble). ``--generated N`` takes instead
N positions of the families the nets misjudge (:mod:`ai.training.starts`, a trapped back
checker behind a prime, a bear-in against a back game; seed 9001, not the trainer's stream):
``benchmarks/data/short_cube_blind.json.gz``, 1,000 positions. gnubg only judges: these
values are never training targets.

**Judging**, per position and cube state, from the roller's side (values per unit of the
cube): the double decision loses ``max(nd, min(dt, dp)) − chosen`` (doubling is worth
``min(dt, dp)``: the opponent answers right), and the same player facing that double as the
taker loses ``chosen − min(dt, dp)`` (take ``dt``, drop ``dp``). Take errors are reported over
the positions where gnubg doubles (the takes an opponent like gnubg would offer) and over all.
Players are the ``ai_arena.py`` names, e.g. ``hard^x=0.6,d=0`` (other cube settings) or
``gnubg`` (gnubg's 0-ply cube; judged by its own deeper evaluation, so flattered).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from ai_arena import GnubgAgent, make_agent
from long_positions import paired_difference

from ai.cube import money_cube
from ai.player import Player
from ai.race import race_outcomes
from ai.training.starts import blind_spot_start
from ai.variant_ai import variant_ai
from engine.game import Game, Phase
from engine.options import Options
from engine.position import Position, Side

VARIANT = "short"
SOURCE = Path("benchmarks/data/short_positions.json.gz")
DEFAULT_SET = Path("benchmarks/data/short_cube.json.gz")
STATES = ("centred", "owned")


def gnubg_cube(agent: GnubgAgent, me: list[int], opp: list[int], owner: int) -> list[float]:
    """gnubg's (no double, double/take, double/pass) for ``me`` about to roll; ``owner``: −1
    centred, 1 the roller owns the cube."""
    assert agent.proc.stdin is not None and agent.proc.stdout is not None
    agent.proc.stdin.write(" ".join(map(str, ("C", agent.plies, owner, *me, *opp))) + "\n")
    while True:
        answer = agent.proc.stdout.readline()
        if not answer:
            raise RuntimeError("gnubg exited")
        parts = answer.split()
        if len(parts) == 3:
            try:
                return [round(float(x), 5) for x in parts]
            except ValueError:
                pass  # gnubg's own chatter


def generated(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` pre-roll boards (roller first) from :func:`ai.training.starts.blind_spot_start`
    with its own seed: the positions the nets misjudge, for a cube set of their own (their
    cube decisions are where hard's cube wars against gnubg came from, docs/ai.md)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        me, opp = blind_spot_start(rng)  # ``opp`` is to roll
        out.append({"me": list(opp), "opp": list(me)})
    return out


def build(args: argparse.Namespace) -> None:
    if args.generated:
        source = generated(args.generated, args.seed)
        origin = f"ai.training.starts.blind_spot_start, {args.generated}, seed {args.seed}"
    else:
        with gzip.open(args.source, "rt") as fh:
            source = json.load(fh)["positions"]
        origin = str(args.source)
    judge = GnubgAgent(args.plies)
    t0 = time.perf_counter()
    out = []
    try:
        for i, p in enumerate(source):
            rec = {"me": p["me"], "opp": p["opp"]}
            rec["centred"] = gnubg_cube(judge, p["me"], p["opp"], -1)
            rec["owned"] = gnubg_cube(judge, p["me"], p["opp"], 1)
            out.append(rec)
            if (i + 1) % 500 == 0:
                print(f"{i + 1}/{len(source)}, {time.perf_counter() - t0:.0f}s", flush=True)
    finally:
        judge.close()
    meta = {
        "variant": VARIANT,
        "source": origin,
        "judge": f"gnubg {args.plies}-ply, cubeful, money (Jacoby and beavers off)",
        "values": "[no double, double/take, double/pass] per unit of the cube, roller's side",
        "seconds": round(time.perf_counter() - t0),
    }
    with gzip.open(args.out, "wt") as fh:
        json.dump({"meta": meta, "positions": out}, fh, separators=(",", ":"))
    print(f"{len(out)} positions -> {args.out}")


def game_at(me: list[int], opp: list[int], state: str, *, offered: bool) -> Game:
    """A cube-on money game with ``me`` (white) about to roll at cube 2 (centred: cube 1)."""
    pos = Position(VARIANT, tuple(me), tuple(opp), Side.WHITE)
    game = Game(VARIANT, Options(cube=True), position=pos, phase=Phase.ROLL)
    if state == "owned":
        game.cube_value, game.cube_owner = 2, Side.WHITE
    if offered:
        game.phase = Phase.DOUBLE
        game.double_offered_by = Side.WHITE
    return game


def judge_player(agent: Any, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The player's double and take decisions on every record and cube state."""
    d_loss: list[float] = []
    t_loss: list[float] = []
    counts = {"wrong_double": 0, "missed_double": 0, "wrong_take": 0, "wrong_drop": 0}
    t_gnubg_doubles: list[float] = []
    times: list[float] = []
    for rec in records:
        for state in STATES:
            nd, dt, dp = rec[state]
            best_answer = min(dt, dp)
            t0 = time.perf_counter()
            doubles = agent.should_double(game_at(rec["me"], rec["opp"], state, offered=False))
            takes = agent.should_take(game_at(rec["me"], rec["opp"], state, offered=True))
            times.append((time.perf_counter() - t0) * 1000 / 2)
            loss = max(nd, best_answer) - (best_answer if doubles else nd)
            d_loss.append(loss)
            if loss > 1e-9:
                counts["wrong_double" if doubles else "missed_double"] += 1
            tl = (dt if takes else dp) - best_answer
            t_loss.append(tl)
            if tl > 1e-9:
                counts["wrong_take" if takes else "wrong_drop"] += 1
            if best_answer > nd:
                t_gnubg_doubles.append(tl)
    n = len(d_loss)
    times.sort()
    return {
        "decisions": n,
        "double_loss": round(sum(d_loss) / n, 5),
        "take_loss": round(sum(t_loss) / n, 5),
        "take_loss_gnubg_doubles": round(sum(t_gnubg_doubles) / max(1, len(t_gnubg_doubles)), 5),
        "gnubg_doubles": len(t_gnubg_doubles),
        "total_loss": round((sum(d_loss) + sum(t_loss)) / n, 5),
        **counts,
        "median_ms": round(times[n // 2], 2),
        "p99_ms": round(times[min(n - 1, int(0.99 * n))], 2),
        "losses": [a + b for a, b in zip(d_loss, t_loss, strict=True)],
    }


def judge(args: argparse.Namespace) -> None:
    with gzip.open(args.set, "rt") as fh:
        data = json.load(fh)
    records = data["positions"][: args.limit] if args.limit else data["positions"]
    losses: dict[str, list[float]] = {}
    results = {}
    for level in args.levels:
        agent = make_agent(level, VARIANT, seed=1)
        try:
            res = judge_player(agent, records)
        finally:
            if isinstance(agent, GnubgAgent):
                agent.close()
        losses[level] = res.pop("losses")
        results[level] = res
        print(level, json.dumps(res), flush=True)
        if args.losses:
            args.losses.write_text(json.dumps({"limit": args.limit, "losses": losses}))
    print(json.dumps({"meta": data["meta"], "levels": results}))


def tune(args: argparse.Namespace) -> None:
    """The loss of Janowski's model over a grid of settings (contact and race cube
    efficiency, race source, take margin) for each pre-roll depth: the outcome distributions
    are computed once per position, the grid is then cheap."""
    with gzip.open(args.set, "rt") as fh:
        records = json.load(fh)["positions"]
    records = records[: args.limit] if args.limit else records
    player = make_agent(args.level, VARIANT, seed=1)
    assert isinstance(player, Player) and player.net is not None
    vai = variant_ai(VARIANT)
    rows = []
    for depth in args.depths:
        t0 = time.perf_counter()
        cached = []
        for rec in records:
            me, opp = tuple(rec["me"]), tuple(rec["opp"])
            race = vai.no_contact(me, opp)
            formula = None
            if race:
                win, marses, marsed = race_outcomes(me, opp)
                formula = [(2, marses), (1, win - marses), (-2, marsed), (-1, 1 - win - marsed)]
            nets = player.pre_roll_results(Position(VARIANT, me, opp, Side.WHITE), depth)
            cached.append((rec, race, nets, formula))
        seconds = time.perf_counter() - t0
        grid = [
            (x, rx, f, m)
            for x in args.contact
            for rx in args.race
            for f in (False, True)
            for m in args.margins
        ]
        for x, rx, use_formula, margin in grid:
            for dm in args.double_margins:
                row = {"depth": depth, "x": x, "race_x": rx, "race_formula": use_formula}
                row |= tune_row(cached, x, rx, use_formula, margin, dm)
                row["seconds_per_position"] = round(seconds / len(cached), 4)
                rows.append(row)
                print(json.dumps(row), flush=True)
    best = min(rows, key=lambda r: r["total"])
    print("best", json.dumps(best))


def tune_row(
    cached: list[tuple[dict[str, Any], bool, Any, Any]],
    x: float,
    race_x: float,
    use_formula: bool,
    margin: float,
    double_margin: float,
) -> dict[str, Any]:
    """One grid point of :func:`tune`: losses per decision (contact, race, in all) and the
    take loss over the doubles gnubg would offer."""
    losses = {"contact": 0.0, "race": 0.0}
    faced: list[float] = []
    for rec, race, results, formula in cached:
        res = formula if (race and use_formula) else results
        for state in STATES:
            nd, dt, dp = rec[state]
            mc = money_cube(
                res,
                efficiency=race_x if race else x,
                redouble=state == "owned",
                take_margin=0.0 if race else margin,
                double_margin=0.0 if race else double_margin,
            )
            best = min(dt, dp)
            loss = max(nd, best) - (best if mc.should_double else nd)
            take = (dt if mc.should_take else dp) - best
            losses["race" if race else "contact"] += loss + take
            if best > nd:
                faced.append(take)
    n = 2 * len(cached)
    row: dict[str, Any] = {"take_margin": margin, "double_margin": double_margin}
    row |= {k: round(v / n, 5) for k, v in losses.items()}
    row["take_loss_gnubg_doubles"] = round(sum(faced) / max(1, len(faced)), 5)
    row["total"] = round((losses["contact"] + losses["race"]) / n, 5)
    return row


def compare(args: argparse.Namespace) -> None:
    """Paired comparison of two judged players (double + take loss per position and state)."""
    losses: dict[str, list[float]] = {}
    for path in args.files:
        losses |= json.loads(path.read_text())["losses"]
    print(
        json.dumps({"a": args.a, "b": args.b} | paired_difference(losses[args.a], losses[args.b]))
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--source", type=Path, default=SOURCE)
    b.add_argument("--generated", type=int, help="instead: this many generated positions")
    b.add_argument("--seed", type=int, default=9001, help="of --generated")
    b.add_argument("--plies", type=int, default=2)
    b.add_argument("--out", type=Path, default=DEFAULT_SET)
    j = sub.add_parser("judge")
    j.add_argument("--set", type=Path, default=DEFAULT_SET)
    j.add_argument("--levels", nargs="+", required=True)
    j.add_argument("--limit", type=int)
    j.add_argument("--losses", type=Path, help="write each player's per-decision losses here")
    t = sub.add_parser("tune")
    t.add_argument("--set", type=Path, default=DEFAULT_SET)
    t.add_argument("--level", default="hard")
    t.add_argument("--depths", nargs="+", type=int, default=[0, 1])
    t.add_argument("--contact", nargs="+", type=float, default=[0.5, 0.6, 0.68, 0.75, 0.85])
    t.add_argument("--race", nargs="+", type=float, default=[0.5, 0.6, 0.68, 0.75, 0.85])
    t.add_argument("--margins", nargs="+", type=float, default=[0.0], help="take margins")
    t.add_argument("--double-margins", nargs="+", type=float, default=[0.0])
    t.add_argument("--limit", type=int)
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("files", nargs="+", type=Path)
    args = ap.parse_args()
    {"build": build, "judge": judge, "tune": tune, "compare": compare}[args.cmd](args)


if __name__ == "__main__":
    main()
