"""The refinement stage's labeller and fine-tuner (ai/training/refine.py): its 2-ply and 1-ply
targets are exactly the play-time searches' values, shards are pure functions of their seed,
and ``label`` then ``fit`` produce a net file the players read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ai.bearoff import shipped_table
from ai.net import NetSet
from ai.search import NetEvaluator, one_ply, two_ply
from ai.training.refine import label_shard
from ai.variant_ai import variant_ai
from engine.options import Options

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "ai" / "weights" / "short.npz"


@pytest.fixture(scope="module")
def short_eval() -> tuple[object, NetEvaluator]:
    vai = variant_ai("short")
    nets = NetSet.load(WEIGHTS, vai.phases)
    return vai, NetEvaluator(vai, nets, shipped_table())


def _board(row: np.ndarray) -> tuple[int, ...]:
    return tuple(int(x) for x in row)


def test_targets_equal_the_play_time_searches(short_eval) -> None:
    vai, ev = short_eval
    data = label_shard(ev, vai, seed=3, shard=0, size=6, keep=0.3)
    assert len(data["me"]) == 6
    for me, opp, two, one in zip(
        data["me"], data["opp"], data["two_ply"], data["one_ply"], strict=True
    ):
        m, o = _board(me), _board(opp)
        v2, _ = two_ply(ev, vai, m, o, Options())
        v1, _ = one_ply(ev, vai, m, o, Options())
        assert float(vai.equity(two[None])[0]) == pytest.approx(v2, abs=1e-4)
        assert float(vai.equity(one[None])[0]) == pytest.approx(v1, abs=1e-4)
        assert np.all((two >= -1e-6) & (two <= 1 + 1e-6))


def test_shards_are_pure_functions_of_seed_and_index(short_eval) -> None:
    vai, ev = short_eval
    a = label_shard(ev, vai, seed=5, shard=2, size=4, keep=0.3)
    b = label_shard(ev, vai, seed=5, shard=2, size=4, keep=0.3)
    c = label_shard(ev, vai, seed=5, shard=3, size=4, keep=0.3)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not np.array_equal(a["me"], c["me"])


def test_label_then_fit_writes_a_net_the_players_read(tmp_path: Path) -> None:
    shards = tmp_path / "shards"
    run = [sys.executable, "-m", "ai.training.refine"]
    label = [*run, "label", "--variant", "short", "--nets", str(WEIGHTS), "--out", str(shards)]
    label += ["--shards", "2", "--shard-size", "8", "--keep", "0.3"]
    out = subprocess.run(label, cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.count('"pos_per_s"') == 2
    assert sorted(p.name for p in shards.iterdir()) == ["shard-00000.npz", "shard-00001.npz"]
    again = subprocess.run(label, cwd=ROOT, capture_output=True, text=True, check=True)
    assert again.stdout == ""  # resumed: every shard already on disk
    net = tmp_path / "refined.npz"
    fit = [*run, "fit", "--resume", str(WEIGHTS), "--data", str(shards), "--out", str(net)]
    fit += ["--epochs", "1", "--batch", "8", "--holdout-every", "2"]
    done = subprocess.run(fit, cwd=ROOT, capture_output=True, text=True, check=True)
    assert "kept epoch" in done.stdout
    vai = variant_ai("short")
    loaded = NetSet.load(net, vai.phases)
    assert "refined" in str(loaded.extra["meta"])
