"""Pool ``ai_arena.py --json`` lines of one pairing (runs of the same seed that extend each
other with ``--start``) into one summary: win rate with its Wilson interval, points per game
with its normal interval.

    python benchmarks/arena_pool.py first.jsonl extension.jsonl
    python benchmarks/arena_pool.py new.jsonl --against old.jsonl   # paired by game index


A line carries A's points per game (``points``) since ``--start`` exists; an older line has
only the counts of each result kind (``kinds``, e.g. ``A:mars``), which fix the points of each
game when the cube was off (``--points-of`` gives the points of each kind, default oin 1, mars
2, koks 3), so it pools exactly too.

``--against`` pairs the runs with other runs of the same seed game by game (game ``i``'s
dice are the same in both): the mean of A's per-game point differences over the games both
played, with its normal interval — tighter than comparing two separate intervals. A line
names its games' indices (``indices``) since 2026-12-02; an older line is read as one worker's
games ``start, start + 1, …`` (true of every run without ``--jobs``).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_arena import wilson

KIND_POINTS = {"oin": 1, "mars": 2, "koks": 3}


def points_of(line: dict) -> list[int]:
    """A's signed points per game of one summary line."""
    if "points" in line:
        return list(line["points"])
    if line.get("cube"):
        raise SystemExit("a cube-on line without 'points' cannot be pooled exactly")
    out: list[int] = []
    for key, count in line["kinds"].items():
        side, kind = key.split(":")
        out += [KIND_POINTS[kind] * (1 if side == "A" else -1)] * count
    return out


def game_points(lines: list[dict]) -> dict[int, int]:
    """A's points by game index over ``lines`` (see the module docstring)."""
    out: dict[int, int] = {}
    for line in lines:
        points = points_of(line)
        start = line.get("start", 0)
        indices = line.get("indices") or range(start, start + len(points))
        out |= dict(zip(indices, points, strict=True))
    return out


def paired(lines: list[dict], against: list[dict]) -> dict:
    """A's points per game in ``lines`` minus in ``against``, over the games both played."""
    a, b = game_points(lines), game_points(against)
    common = sorted(a.keys() & b.keys())
    if not common:
        raise SystemExit("no game index in both sets of runs")
    diff = [a[i] - b[i] for i in common]
    mean = statistics.fmean(diff)
    half = 1.96 * statistics.pstdev(diff) / math.sqrt(len(diff))
    return {
        "games": len(common),
        "ppg_diff": mean,
        "ppg_diff_ci95": [mean - half, mean + half],
        "same_result": sum(1 for d in diff if d == 0),
    }


def pool(lines: list[dict]) -> dict:
    """One summary of several lines of the same pairing, variant and cube setting."""
    keys = {(x["variant"], x["pairing"], bool(x.get("cube"))) for x in lines}
    if len(keys) != 1:
        raise SystemExit(f"lines of different pairings: {sorted(keys)}")
    points = [p for line in lines for p in points_of(line)]
    n = len(points)
    wins = sum(1 for p in points if p > 0)
    ppg = statistics.fmean(points)
    half = 1.96 * statistics.pstdev(points) / math.sqrt(n)
    variant, pairing, cube = keys.pop()
    return {
        "variant": variant,
        "pairing": pairing,
        "cube": cube,
        "runs": [[x.get("start", 0), x["games"]] for x in lines],
        "games": n,
        "win_rate": wins / n,
        "win_ci95": list(wilson(wins, n)),
        "ppg": ppg,
        "ppg_ci95": [ppg - half, ppg + half],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--pairing", help="only lines of this pairing (A:B as in the lines)")
    ap.add_argument("--against", nargs="+", type=Path, help="pair with these runs by game")
    ap.add_argument("--against-pairing", help="only their lines of this pairing")
    # the same pairing name exists in both variants, and cube-on runs of a seed share its game
    # indices with cube-off ones: pooling or pairing across them would be silently wrong
    ap.add_argument("--variant", choices=("long", "short"), help="only lines of this variant")
    ap.add_argument("--cube", choices=("on", "off"), help="only cube-on or cube-off lines")
    args = ap.parse_args()
    cube = None if args.cube is None else args.cube == "on"
    lines = read(args.files, args.pairing, args.variant, cube)
    s = pool(lines)
    lo, hi = s["win_ci95"]
    plo, phi = s["ppg_ci95"]
    print(
        f"{s['variant']} {s['pairing']}: {s['games']} games, A wins {s['win_rate']:.1%} "
        f"[{lo:.1%}, {hi:.1%}], ppg {s['ppg']:+.3f} [{plo:+.3f}, {phi:+.3f}]"
    )
    print(json.dumps(s))
    if args.against:
        d = paired(lines, read(args.against, args.against_pairing, args.variant, cube))
        lo, hi = d["ppg_diff_ci95"]
        print(
            f"paired over {d['games']} games: A's ppg minus the other runs' "
            f"{d['ppg_diff']:+.3f} [{lo:+.3f}, {hi:+.3f}], {d['same_result']} same results"
        )
        print(json.dumps(d))


def read(
    files: list[Path],
    pairing: str | None,
    variant: str | None = None,
    cube: bool | None = None,
) -> list[dict]:
    """The summary lines of ``files``, only those of ``pairing``, ``variant`` and cube
    setting where given."""
    lines = [json.loads(t) for f in files for t in f.read_text().splitlines() if t.strip()]
    return [
        x
        for x in lines
        if (pairing is None or x["pairing"] == pairing)
        and (variant is None or x["variant"] == variant)
        and (cube is None or bool(x.get("cube")) == cube)
    ]


if __name__ == "__main__":
    main()
