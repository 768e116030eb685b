"""Command line of the trainer: ``python -m ai.training --variant long --state DIR``.

Runs generation after generation until ``--hours`` or ``--generations`` is reached (or the
process is killed), checkpointing after every generation; rerunning the same command resumes
from ``DIR/latest.npz``. ``--resume FILE`` starts from another checkpoint, e.g. the committed
``ai/weights/long.npz``. Importing ``ai`` pins numpy to one thread (the trainer is meant to
share a small machine; run one such process per core at most).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ai.training.bench import vs_heuristic
from ai.training.trainer import Settings, Trainer


def main() -> None:
    ap = argparse.ArgumentParser(description="Train the value nets of ai by 1-ply self-play.")
    ap.add_argument("--variant", choices=("long", "short"), required=True)
    ap.add_argument("--state", type=Path, required=True, help="checkpoint directory")
    ap.add_argument("--resume", type=Path, help="start from this checkpoint")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hours", type=float, default=1e9)
    ap.add_argument("--generations", type=int, default=10**9)
    ap.add_argument("--bench-every", type=int, default=25, help="generations between matches")
    ap.add_argument("--bench-games", type=int, default=40)
    ap.add_argument("--save-full-every", type=int, default=10)
    for name in ("lr", "reuse", "lam", "lam_end", "explore", "one_ply", "starts", "starts_lam"):
        ap.add_argument(f"--{name.replace('_', '-')}", type=float)
    ap.add_argument("--teacher", help="distil from this net file's 1-ply values first")
    for name in ("games_per_gen", "batch", "buffer", "lam_generations", "teacher_until"):
        ap.add_argument(f"--{name.replace('_', '-')}", type=int)
    ap.add_argument("--hidden", type=int, nargs="+")
    args = ap.parse_args()

    overrides = {
        k: getattr(args, k) for k in Settings.__slots__ if getattr(args, k, None) is not None
    }
    if "hidden" in overrides:
        overrides["hidden"] = tuple(overrides["hidden"])
    latest = args.state / "latest.npz"
    source = args.resume or (latest if latest.exists() else None)
    if source is not None:
        trainer = Trainer.resume(source, overrides)
        print(f"resumed from {source} at generation {trainer.generation}", flush=True)
    else:
        trainer = Trainer.fresh(args.variant, Settings(**overrides), args.seed)
        print(f"fresh start, settings {trainer.settings}", flush=True)
    t_end = time.time() + args.hours * 3600.0
    target_gen = trainer.generation + args.generations
    while time.time() < t_end and trainer.generation < target_gen:
        record = trainer.run_generation()
        if trainer.generation % args.bench_every == 0:
            win, ppg = vs_heuristic(trainer.vai, trainer.evaluator(), args.bench_games)
            record["vs_heur_0ply_win"] = round(win, 3)
            record["vs_heur_0ply_ppg"] = round(ppg, 3)
        print(json.dumps(record), flush=True)
        full = trainer.generation % args.save_full_every == 0
        trainer.save(args.state, with_buffer=full)


if __name__ == "__main__":
    main()
