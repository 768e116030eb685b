"""The refinement stage: positions labelled by a deeper search than the self-taught 1-ply.

Self-play with 1-ply targets converges on a net that agrees with its own 1-ply look-ahead;
once there (short nardy after short9: 11,600 more games gained nothing judged) the targets
carry no new information. A **2-ply** target — the opponent's 21 rolls, its best 0-ply reply
to each, that reply then valued 1-ply from our side — sees one roll further, and the search
that plays ``hard`` already trusts it more (the judged loss per move falls from 1-ply to
2-ply). Training the nets on it is supervised learning of a better function, as gnubg's nets
learn rolled-out positions.

Two steps, each resumable and both deterministic from their seeds:

* ``label``: play seeded self-play games with the nets at 0-ply (8 % exploration among the
  best three, as in training), keep each after-state with probability ``--keep``, and give it
  the 2-ply outcome vector (and the 1-ply one, which costs nothing extra). Written in shards
  of ``--shard-size`` positions (``DIR/shard-00000.npz`` …); shard ``k`` is a pure function
  of ``(seed, k)``, so a rerun skips the shards on disk, and ``--worker i --workers n`` splits
  the shards between processes without overlap.
* ``fit``: fine-tune a checkpoint on the labelled shards (a held-out share of shards measured
  before and after every epoch; the best epoch by held-out cross-entropy is kept) and write a
  net file that ``hard@FILE`` and ``--resume`` read.

Labelling costs about 21 one-ply look-aheads a position (~15 positions/s on one core).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from ai.bearoff import shipped_table
from ai.net import NetSet
from ai.search import ROLL_WEIGHTS, ROLLS, NetEvaluator, replies
from ai.training.optim import Adam, gradients
from ai.training.selfplay import sampled_target
from ai.variant_ai import VariantAI, variant_ai
from engine.options import Options
from engine.variants import get_variant

Board = tuple[int, ...]
_ROLL_CDF = np.cumsum(ROLL_WEIGHTS)


def _best_per_roll(eq: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Index of the best row (highest equity) within each roll's block of replies."""
    ends = np.append(starts[1:], len(eq))
    return np.array([s + int(np.argmax(eq[s:e])) for s, e in zip(starts, ends, strict=True)])


def deep_targets(
    ev: NetEvaluator, vai: VariantAI, me: Board, opp: Board, options: Options
) -> tuple[np.ndarray, np.ndarray]:
    """The 2-ply and 1-ply outcome vectors of an after-state (``me`` just moved, ``opp`` to
    roll), from ``me``'s side.

    The opponent answers each of its 21 rolls with its best 0-ply reply (1-ply: the replies'
    values averaged); each such reply is then valued by our 21 rolls and our best 0-ply answer
    to each (2-ply). The 21 inner look-aheads share one evaluation batch."""
    if me[0] == 15:
        exact = vai.outcome(me, opp)
        return exact, exact
    movers, others, starts = replies(vai, me, opp, options)
    probs = ev.probs(np.asarray(movers, dtype=np.int16), np.asarray(others, dtype=np.int16))
    picks = _best_per_roll(vai.equity(probs), starts)
    one = vai.flip((probs[picks] * ROLL_WEIGHTS[:, None]).sum(axis=0))
    inner = np.empty((len(picks), vai.n_out), dtype=np.float64)
    rows_me: list[Board] = []
    rows_opp: list[Board] = []
    blocks: list[tuple[int, np.ndarray]] = []
    for r, k in enumerate(picks):
        theirs, mine = movers[k], others[k]
        if theirs[0] == 15:  # the reply ends the game: its value is exact
            inner[r] = probs[k]
            continue
        mv, ot, st = replies(vai, theirs, mine, options)
        blocks.append((r, st + len(rows_me)))
        rows_me.extend(mv)
        rows_opp.extend(ot)
    if blocks:
        ours = ev.probs(np.asarray(rows_me, dtype=np.int16), np.asarray(rows_opp, dtype=np.int16))
        eq = vai.equity(ours)
        bounds = [b for _, b in blocks] + [np.array([len(rows_me)])]
        for (r, st), nxt in zip(blocks, bounds[1:], strict=True):
            ends = np.append(st[1:], nxt[0])
            best = np.array([s + int(np.argmax(eq[s:e])) for s, e in zip(st, ends, strict=True)])
            inner[r] = vai.flip((ours[best] * ROLL_WEIGHTS[:, None]).sum(axis=0))
    two = vai.flip((inner * ROLL_WEIGHTS[:, None]).sum(axis=0))
    return two.astype(np.float32), one.astype(np.float32)


def label_shard(
    ev: NetEvaluator,
    vai: VariantAI,
    seed: int,
    shard: int,
    size: int,
    keep: float,
    explore: float = 0.08,
    options: Options | None = None,
) -> dict[str, np.ndarray]:
    """``size`` self-play after-states with their 2-ply and 1-ply targets (a pure function of
    ``seed`` and ``shard``)."""
    opts = options or Options()
    rng = np.random.default_rng([seed, shard])
    start = get_variant(vai.name).start_board()
    rows_me: list[Board] = []
    rows_opp: list[Board] = []
    twos: list[np.ndarray] = []
    ones: list[np.ndarray] = []
    while len(rows_me) < size:
        me, opp = start, start
        for ply in range(600):
            if ply > 0 and rng.random() < keep:
                two, one = deep_targets(ev, vai, me, opp, opts)
                rows_me.append(me)
                rows_opp.append(opp)
                twos.append(two)
                ones.append(one)
                if len(rows_me) >= size:
                    break
            roll = min(int(np.searchsorted(_ROLL_CDF, rng.random(), side="right")), len(ROLLS) - 1)
            _, movers, others, eq = sampled_target(ev, vai, me, opp, ROLLS[roll][0], opts)
            order = np.argsort(-eq, kind="stable")
            pick = int(order[0])
            if len(eq) > 1 and rng.random() < explore:
                pick = int(order[rng.integers(0, min(3, len(eq)))])
            me, opp = movers[pick], others[pick]
            if me[0] == 15:
                break
    return {
        "me": np.asarray(rows_me, dtype=np.int8),
        "opp": np.asarray(rows_opp, dtype=np.int8),
        "two_ply": np.asarray(twos, dtype=np.float32),
        "one_ply": np.asarray(ones, dtype=np.float32),
    }


def label(args: argparse.Namespace) -> None:
    vai = variant_ai(args.variant)
    nets = NetSet.load(args.nets, vai.phases)
    ev = NetEvaluator(vai, nets, shipped_table())
    args.out.mkdir(parents=True, exist_ok=True)
    t_end = time.time() + args.hours * 3600.0
    for shard in range(args.worker, args.shards, args.workers):
        path = args.out / f"shard-{shard:05d}.npz"
        if path.exists():
            continue
        if time.time() > t_end:
            break
        t0 = time.perf_counter()
        data = label_shard(ev, vai, args.seed, shard, args.shard_size, args.keep)
        tmp = path.with_name(path.name + ".tmp.npz")
        meta = {"nets": str(args.nets), "seed": args.seed, "shard": shard, "keep": args.keep}
        np.savez_compressed(tmp, meta=np.array(json.dumps(meta)), **data)
        tmp.replace(path)
        dt = time.perf_counter() - t0
        gap = vai.equity(data["two_ply"]) - vai.equity(data["one_ply"])
        record = {
            "shard": shard,
            "positions": len(data["me"]),
            "seconds": round(dt, 1),
            "pos_per_s": round(len(data["me"]) / dt, 2),
            "rms_2ply_minus_1ply": round(float(np.sqrt(np.mean(gap**2))), 4),
        }
        print(json.dumps(record), flush=True)


def load_shards(paths: list[Path]) -> dict[str, np.ndarray]:
    """The labelled positions of several shards, concatenated."""
    parts: dict[str, list[np.ndarray]] = {"me": [], "opp": [], "two_ply": [], "one_ply": []}
    for path in paths:
        with np.load(path) as data:
            for key, bucket in parts.items():
                bucket.append(data[key])
    return {k: np.concatenate(v) for k, v in parts.items()}


def _measure(
    vai: VariantAI, nets: NetSet, x: np.ndarray, phase: np.ndarray, target: np.ndarray
) -> dict[str, float]:
    probs = nets.probs(x, phase)
    eq = vai.equity(probs) - vai.equity(target)
    ce = -(target * np.log(probs + 1e-6) + (1 - target) * np.log(1 - probs + 1e-6))
    return {"eq_rmse": round(float(np.sqrt(np.mean(eq**2))), 5), "ce": round(float(ce.mean()), 5)}


def fit(args: argparse.Namespace) -> None:
    """Fine-tune on the shards' 2-ply targets; keep the best epoch by held-out error."""
    loaded = NetSet.load(args.resume)
    vai = variant_ai(loaded.variant)
    paths = sorted(args.data.glob("shard-*.npz"))
    held = [p for i, p in enumerate(paths) if i % args.holdout_every == 0]
    train = [p for i, p in enumerate(paths) if i % args.holdout_every != 0]
    tr, te = load_shards(train), load_shards(held)
    key = args.target

    def encode(d: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        m, o = d["me"].astype(np.int16), d["opp"].astype(np.int16)
        return vai.encode(m, o, loaded.n_in).astype(np.float32), vai.phase(m, o)

    x_tr, ph_tr = encode(tr)
    x_te, ph_te = encode(te)
    # Positions whose value the search knows exactly are not the nets' to learn.
    ev = NetEvaluator(vai, loaded, shipped_table())
    exact_tr = ev.bearoff.applies(tr["me"].astype(np.int16), tr["opp"].astype(np.int16))
    rows = np.flatnonzero(~exact_tr)
    print(f"train {len(rows)} of {len(x_tr)} positions, held out {len(x_te)}", flush=True)
    rng = np.random.default_rng(args.seed)
    opts = {p: Adam.from_state(p, loaded.extra, args.lr) for p in vai.phases}
    for opt in opts.values():
        opt.lr = args.lr
    nets = loaded
    before = _measure(vai, nets, x_te, ph_te, te[key])
    print(json.dumps({"epoch": 0, "held_out": before}), flush=True)
    best = (
        before["ce"],
        0,
        {p: {k: v.copy() for k, v in n.params().items()} for p, n in nets.nets.items()},
    )
    steps = max(1, len(rows) // args.batch)
    for epoch in range(1, args.epochs + 1):
        losses = []
        for _ in range(steps):
            idx = rows[rng.integers(0, len(rows), args.batch)]
            for k, name in enumerate(vai.phases):
                sel = idx[ph_tr[idx] == k]
                if len(sel) < 8:
                    continue
                grads, ce = gradients(nets.nets[name], x_tr[sel], tr[key][sel])
                opts[name].step(nets.nets[name], grads)
                losses.append(ce)
        after = _measure(vai, nets, x_te, ph_te, te[key])
        print(
            json.dumps(
                {"epoch": epoch, "train_ce": round(float(np.mean(losses)), 5), "held_out": after}
            ),
            flush=True,
        )
        if after["ce"] < best[0]:
            best = (
                after["ce"],
                epoch,
                {p: {k: v.copy() for k, v in n.params().items()} for p, n in nets.nets.items()},
            )
    for p, params in best[2].items():
        for k, v in params.items():
            getattr(nets.nets[p], k)[...] = v
    meta = json.loads(str(loaded.extra["meta"])) if "meta" in loaded.extra else {}
    meta["refined"] = {
        "from": str(args.resume),
        "data": str(args.data),
        "target": key,
        "epochs": best[1],
        "lr": args.lr,
        "train_positions": len(rows),
        "held_out_positions": len(x_te),
        "held_out_before": before,
    }
    meta.pop("history", None)
    arrays = {"meta": np.array(json.dumps(meta))}
    for name, opt in opts.items():
        arrays.update(opt.state(name))
    nets.save(args.out, **arrays)
    print(f"kept epoch {best[1]} (held-out ce {best[0]:.5f}); wrote {args.out}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description="2-ply targets for a refinement stage.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    lab = sub.add_parser("label", help="label self-play positions with 2-ply targets")
    lab.add_argument("--variant", choices=("long", "short"), required=True)
    lab.add_argument("--nets", type=Path, required=True, help="net file that plays and labels")
    lab.add_argument("--out", type=Path, required=True, help="shard directory")
    lab.add_argument("--seed", type=int, default=1)
    lab.add_argument("--shards", type=int, default=200, help="shards 0 … N−1")
    lab.add_argument("--shard-size", type=int, default=500)
    lab.add_argument("--keep", type=float, default=0.25, help="share of after-states labelled")
    lab.add_argument("--worker", type=int, default=0)
    lab.add_argument("--workers", type=int, default=1)
    lab.add_argument("--hours", type=float, default=1e9, help="start no shard after this")
    ft = sub.add_parser("fit", help="fine-tune a checkpoint on labelled shards")
    ft.add_argument("--resume", type=Path, required=True)
    ft.add_argument("--data", type=Path, required=True)
    ft.add_argument("--out", type=Path, required=True)
    ft.add_argument("--target", choices=("two_ply", "one_ply"), default="two_ply")
    ft.add_argument("--epochs", type=int, default=8)
    ft.add_argument("--lr", type=float, default=1e-4)
    ft.add_argument("--batch", type=int, default=256)
    ft.add_argument("--holdout-every", type=int, default=10, help="every k-th shard held out")
    ft.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    label(args) if args.cmd == "label" else fit(args)


if __name__ == "__main__":
    main()
