"""Pool ``ai_arena.py --json`` lines of one pairing (runs of the same seed that extend each
other with ``--start``) into one summary: win rate with its Wilson interval, points per game
with its normal interval.

    python benchmarks/arena_pool.py first.jsonl extension.jsonl

A line carries A's points per game (``points``) since ``--start`` exists; an older line has
only the counts of each result kind (``kinds``, e.g. ``A:mars``), which fix the points of each
game when the cube was off (``--points-of`` gives the points of each kind, default oin 1, mars
2, koks 3), so it pools exactly too.
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
    args = ap.parse_args()
    lines = [json.loads(t) for f in args.files for t in f.read_text().splitlines() if t.strip()]
    if args.pairing:
        lines = [x for x in lines if x["pairing"] == args.pairing]
    s = pool(lines)
    lo, hi = s["win_ci95"]
    plo, phi = s["ppg_ci95"]
    print(
        f"{s['variant']} {s['pairing']}: {s['games']} games, A wins {s['win_rate']:.1%} "
        f"[{lo:.1%}, {hi:.1%}], ppg {s['ppg']:+.3f} [{plo:+.3f}, {phi:+.3f}]"
    )
    print(json.dumps(s))


if __name__ == "__main__":
    main()
