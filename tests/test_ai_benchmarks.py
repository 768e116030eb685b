"""The judged-position benchmarks' paired comparison: two players judged on the same
positions are compared by the mean of their per-position differences, which separates
players whose separate intervals overlap (most positions are easy for both)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from ai_arena import find_gnubg
from long_positions import paired_difference, sample_positions
from short_positions import compare, judge, versus_gnubg

from ai.net import shipped_nets
from ai.search import NetEvaluator
from ai.variant_ai import variant_ai
from engine import movegen
from engine.position import Position, Side
from engine.variants import get_variant

HAS_GNUBG = find_gnubg() is not None


def test_paired_difference_of_known_losses() -> None:
    a = [0.10, 0.00, 0.05, 0.02]
    b = [0.00, 0.00, 0.03, 0.04]
    got = paired_difference(a, b)
    # differences 0.10, 0, 0.02, -0.02: mean 0.025, sd 0.0526, sem 0.0263
    assert got["positions"] == 4
    assert got["mean_diff"] == pytest.approx(0.025)
    low, high = got["mean_diff_ci95"]
    assert low == pytest.approx(0.025 - 1.96 * 0.02630, abs=1e-4)
    assert high == pytest.approx(0.025 + 1.96 * 0.02630, abs=1e-4)
    assert (got["a_worse"], got["b_worse"]) == (2, 1)


def test_paired_difference_needs_the_same_positions() -> None:
    with pytest.raises(ValueError):
        paired_difference([0.1, 0.2], [0.1])
    with pytest.raises(ValueError):
        paired_difference([], [])


def test_judge_keeps_losses_and_compare_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "losses.json"
    judge(
        argparse.Namespace(
            set=Path("benchmarks/data/short_positions.json.gz"),
            levels=["easy", "medium"],
            limit=6,
            losses=out,
        )
    )
    lines = capsys.readouterr().out.splitlines()
    summary = json.loads(lines[-1])["levels"]
    stored = json.loads(out.read_text())
    assert stored["limit"] == 6
    for level in ("easy", "medium"):
        losses = stored["losses"][level]
        assert len(losses) == 6 and min(losses) >= 0
        assert sum(losses) / 6 == pytest.approx(summary[level]["mean_loss"], abs=1e-4)
        assert "losses" not in summary[level]
        # the search's own CPU time never exceeds the wall clock it took
        assert 0 <= summary[level]["cpu_median_ms"] <= summary[level]["median_ms"] + 1.0
    compare(argparse.Namespace(a="easy", b="medium", files=[out]))
    got = json.loads(capsys.readouterr().out)
    want = sum(stored["losses"]["easy"]) / 6 - sum(stored["losses"]["medium"]) / 6
    assert got["a"] == "easy" and got["mean_diff"] == pytest.approx(want, abs=1e-4)


def run_arena(*flags: str) -> subprocess.CompletedProcess[bytes]:
    """One short-nardy ``ai_arena.py`` run as a real process, with real games."""
    return subprocess.run(
        [sys.executable, "benchmarks/ai_arena.py", "--variant", "short", *flags],
        capture_output=True,
        env=os.environ | {"PYTHONPATH": "."},
    )


def arena(tmp_path: Path, *flags: str) -> dict:
    """A run that must succeed, and its JSON summary."""
    out = tmp_path / f"arena{len(list(tmp_path.iterdir()))}.jsonl"
    run_arena("--json", str(out), *flags).check_returncode()
    return json.loads(out.read_text())


def test_arena_start_extends_a_run_of_the_same_seed(tmp_path: Path) -> None:
    whole = arena(tmp_path, "--pairing", "race:random", "--games", "6", "--seed", "3")
    head = arena(tmp_path, "--pairing", "race:random", "--games", "2", "--seed", "3")
    tail = arena(
        tmp_path, "--pairing", "race:random", "--games", "4", "--seed", "3", "--start", "2"
    )
    assert (whole["games"], head["games"], tail["games"]) == (6, 2, 4)
    assert whole["points"] == head["points"] + tail["points"]
    assert (tail["seed"], tail["start"]) == (3, 2)
    # each side's decisions are timed by wall clock and by the process's CPU time too
    for key in ("time_race_A", "time_random_B"):
        t = whole[key]
        assert t["moves"] > 0 and 0 <= t["cpu_median_ms"] <= t["cpu_p99_ms"] <= t["cpu_max_ms"]
        assert t["cpu_max_ms"] <= t["max_ms"] + 1.0
    odd = run_arena("--pairing", "race:random", "--games", "2", "--start", "1")
    assert odd.returncode != 0 and b"even" in odd.stderr


def test_arena_reports_progress_on_stderr() -> None:
    run = run_arena("--pairing", "race:random", "--games", "4", "--progress", "2")
    run.check_returncode()
    lines = [line for line in run.stderr.decode().splitlines() if line.startswith("worker ")]
    assert [line.split(": ")[1].split(",")[0] for line in lines] == ["2 games", "4 games"]


@pytest.mark.skipif(not HAS_GNUBG, reason="GNU Backgammon (gnubg) is not installed")
def test_positions_sampled_against_gnubg_are_our_nets_turns() -> None:
    from ai_arena import GnubgAgent

    vai = variant_ai("short")
    nets = shipped_nets("short", vai.phases)
    assert nets is not None
    ev = NetEvaluator(vai, nets)
    gnubg = GnubgAgent(0)
    try:
        # every one of our turns (every=1): game 0 our nets move first, game 1 second
        pairing = versus_gnubg(ev, gnubg)
        got = sample_positions(ev, 60, 1, 5, variant="short", pairing=pairing)
        again = sample_positions(ev, 8, 1, 5, variant="short", pairing=pairing)
    finally:
        gnubg.close()
    assert got[:8] == again  # seeded: the same games, the same positions
    start = list(get_variant("short").start_board())
    assert got[0]["first"] and got[0]["me"] == start and got[0]["opp"] == start
    assert not got[1]["first"]
    # game 1's first sample is our first turn after gnubg's opening move
    second = next(k for k, p in enumerate(got[1:], 1) if p["first"])
    assert got[second]["me"] == start and got[second]["opp"] != start
    for p in got:
        me, opp = tuple(p["me"]), tuple(p["opp"])
        get_variant("short").check_position(Position("short", me, opp, Side.WHITE))
        ctx = movegen.make_context("short", me, opp, tuple(p["dice"]), first_turn=p["first"])
        assert len(movegen.generate(ctx)) > 1
