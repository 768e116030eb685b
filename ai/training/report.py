"""Summarise a training log (one JSON record per generation) as a Markdown table.

    python -m ai.training.report /work/ai_train/long/train.log [more logs, in order]

One row per logged match against the hand-written evaluation, with the benchmark error
averaged over the generations since the previous row (single generations are noisy).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def rows(paths: list[Path]) -> list[dict[str, float]]:
    out: list[dict[str, float]] = []
    window: list[float] = []
    for path in paths:
        for line in path.read_text().splitlines():
            if not line.startswith("{"):
                continue
            rec = json.loads(line)
            window.append(rec["fresh_eq_rmse"])
            if "vs_heur_0ply_win" in rec:
                rec["fresh_eq_rmse_mean"] = sum(window) / len(window)
                window.clear()
                out.append(rec)
    return out


def main() -> None:
    records = rows([Path(p) for p in sys.argv[1:]])
    head = ["gen", "games", "positions", "hours", "pos/s", "λ", "1-ply error (RMS eq)"]
    print("| " + " | ".join([*head, "vs hand-written 0-ply: win / ppg"]) + " |")
    print("|---|---|---|---|---|---|---|---|")
    for r in records:
        print(
            f"| {r['gen']} | {r['games']:,} | {r['positions']:,} | {r['hours']:.2f} | "
            f"{r['pos_per_s']:.0f} | {r['lam']:.2f} | {r['fresh_eq_rmse_mean']:.3f} | "
            f"{r['vs_heur_0ply_win']:.0%} / {r['vs_heur_0ply_ppg']:+.2f} |"
        )


if __name__ == "__main__":
    main()
