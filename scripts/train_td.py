"""Train the value network of the ``hard`` level by TD(λ) self-play (numpy, CPU only).

Reproducible: the same ``--seed``, ``--games`` and hyper-parameters give the same weights
(dice come from ``random.Random(seed)``, the initial weights from numpy's seeded generator).

The shipped ``ai/weights/short.npz`` was made by (see docs/ai.md):

    scripts/train_td.py --variant short --games 25000 --lr 0.01 --lr-end 0.002 --seed 1 \
        --stop-after 8000 --out /tmp/short_8000.npz
    scripts/train_td.py --variant short --init /tmp/short_8000.npz --games 10000 \
        --lr 0.006 --lr-end 0.002 --seed 2 --out ai/weights/short.npz

Each game, both sides pick the play whose after-state the net values highest (0-ply); at the
end of the game every chosen after-state gets a λ-return target built backwards from the
result, and the whole game is one batch gradient step. Batch updates per game keep numpy
overhead small, which matters more than anything else on a 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # tiny matrices: threads only hurt

import numpy as np

from ai.net import Net, encode, equity, flip
from engine import movegen
from engine.variants import get_variant


def outcome(variant: str, winner: tuple[int, ...], loser: tuple[int, ...]) -> np.ndarray:
    """The result as the net's target, from the winner's side (M-1, M-2, M-4 … M-6)."""
    none_off = loser[0] == 0
    if variant == "long":
        return np.array([1.0, float(none_off), 0.0], np.float32)
    koks = none_off and (loser[25] > 0 or any(loser[19:25]))
    return np.array([1.0, float(none_off), float(koks), 0.0, 0.0], np.float32)


def self_play(
    net: Net, rng: random.Random, explore: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play one game; returns encodings, predictions and the final result of each after-state."""
    variant = net.variant
    start = get_variant(variant).start_board()
    me, opp = start, start
    first = [True, True]
    side = 0
    xs: list[np.ndarray] = []
    ps: list[np.ndarray] = []
    if variant == "short":
        a, b = rng.sample(range(1, 7), 2)
        dice = (a, b)
    else:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    while True:
        ctx = movegen.make_context(variant, me, opp, dice, first_turn=first[side])
        nodes = movegen.generate(ctx)
        mine = np.array([n[2] for n in nodes], dtype=np.int16)
        theirs = np.array([n[3] for n in nodes], dtype=np.int16)
        x = encode(variant, mine, theirs)
        _, p = net.forward(x)
        if len(nodes) > 1 and rng.random() < explore:
            i = rng.randrange(len(nodes))
        else:
            i = int(np.argmax(equity(variant, p)))
        xs.append(x[i])
        ps.append(p[i])
        first[side] = False
        after_me, after_opp = nodes[i][2], nodes[i][3]
        if after_me[0] == 15:
            final = outcome(variant, after_me, after_opp)
            break
        me, opp = after_opp, after_me
        side ^= 1
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    return np.array(xs), np.array(ps), final


def lambda_targets(variant: str, ps: np.ndarray, final: np.ndarray, lam: float) -> np.ndarray:
    """λ-returns for alternating after-states: each is seen from the player who just moved,
    so the next state's value and return are flipped to the other side before mixing."""
    n = len(ps)
    targets = np.empty_like(ps)
    targets[n - 1] = final
    for t in range(n - 2, -1, -1):
        nxt = (1.0 - lam) * ps[t + 1] + lam * targets[t + 1]
        targets[t] = flip(variant, nxt)
    return targets


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", choices=("long", "short"), required=True)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=0.01, help="per-position step size at start")
    ap.add_argument("--lr-end", type=float, default=0.002)
    ap.add_argument("--lam", type=float, default=0.7)
    ap.add_argument("--explore", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--init", type=Path, help="continue from these weights")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument(
        "--stop-after", type=int, help="stop (and save) after this many games of the schedule"
    )
    ap.add_argument("--every", type=int, default=1000, help="report and checkpoint interval")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    net = Net.load(args.init) if args.init else Net.fresh(args.variant, args.hidden, args.seed)
    t0 = time.perf_counter()
    losses: list[float] = []
    lengths: list[int] = []
    for g in range(1, args.games + 1):
        frac = (g - 1) / max(1, args.games - 1)
        lr = args.lr * (args.lr_end / args.lr) ** frac
        xs, ps, final = self_play(net, rng, args.explore)
        targets = lambda_targets(args.variant, ps, final, args.lam)
        losses.append(net.train_step(xs, targets, lr))
        lengths.append(len(xs))
        if g % args.every == 0 or g == args.games:
            el = time.perf_counter() - t0
            print(
                f"game {g} loss {np.mean(losses):.4f} moves/game {np.mean(lengths):.1f} "
                f"lr {lr:.4f} {el:.0f}s",
                flush=True,
            )
            losses.clear()
            lengths.clear()
            args.out.parent.mkdir(parents=True, exist_ok=True)
            net.save(args.out)
        if args.stop_after and g >= args.stop_after:
            net.save(args.out)
            break


if __name__ == "__main__":
    main()
