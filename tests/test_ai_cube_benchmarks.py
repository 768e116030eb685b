"""The money-cube benchmark (``benchmarks/cube_positions.py``), the arena's cube-settings
player names and the pooling of arena runs (``benchmarks/arena_pool.py``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from ai_arena import make_agent
from arena_pool import paired, pool, read
from cube_positions import generated, judge_player

from ai.cube import CubeSettings
from ai.player import CUBE_SETTINGS, Player
from ai.training.starts import blind_spot_start
from engine.position import Position, Side
from engine.variants import get_variant
from tests.test_ai_cube import CRUSHING as BOARDS

# Both home, the roller far ahead: every player with nets doubles and drops (a sure thing).
CRUSHING = tuple(list(board) for board in BOARDS)


def test_judge_charges_a_missed_double_and_a_wrong_take() -> None:
    me, opp = CRUSHING
    # judged values saying: double/pass (no double 0.7 < pass 1.0 < take 1.6)
    right = {"me": me, "opp": opp, "centred": [0.7, 1.6, 1.0], "owned": [0.7, 1.6, 1.0]}
    # the same boards with values saying "no double, take": the player loses by doubling
    # (0.9 − 0.8 = 0.1) and by dropping (1.0 − 0.8 = 0.2), in both cube states
    wrong = {"me": me, "opp": opp, "centred": [0.9, 0.8, 1.0], "owned": [0.9, 0.8, 1.0]}
    hard = make_agent("medium", "short", seed=1)
    got = judge_player(hard, [right, wrong])
    assert got["decisions"] == 4
    assert got["wrong_double"] == 2 and got["missed_double"] == 0
    assert got["wrong_drop"] == 2 and got["wrong_take"] == 0
    assert got["double_loss"] == pytest.approx(2 * 0.1 / 4)
    assert got["take_loss"] == pytest.approx(2 * 0.2 / 4)
    assert got["losses"] == pytest.approx([0.0, 0.0, 0.3, 0.3])


def test_generated_cube_positions_put_the_roller_first_and_repeat_by_seed() -> None:
    """The blind-spot cube set's boards: the roller's board first (the generator's ``opp``,
    who is to roll), legal short positions, the same for the same seed."""
    recs = generated(20, seed=5)
    assert recs == generated(20, seed=5) and recs != generated(20, seed=6)
    rng = np.random.default_rng(5)
    for rec in recs:
        me, opp = blind_spot_start(rng)
        assert (rec["me"], rec["opp"]) == (list(opp), list(me))
        pos = Position("short", tuple(rec["me"]), tuple(rec["opp"]), Side.WHITE)
        get_variant("short").check_position(pos)


def test_arena_names_set_the_cube() -> None:
    agent = make_agent("hard^x=0.6,d=0,rf=1", "short", seed=1)
    assert isinstance(agent, Player)
    assert agent.cube == CubeSettings(contact=0.6, depth=0, race_formula=True)
    no_margins = make_agent("hard^m=0,dm=0", "short", seed=1).cube
    assert no_margins == CubeSettings(depth=1, take_margin=0.0, double_margin=0.0)
    old = make_agent("medium^old=1", "short", seed=1)
    assert isinstance(old, Player) and old.cube is not None and old.cube.thresholds
    assert make_agent("hard", "short", seed=1).cube is None
    assert CUBE_SETTINGS["hard"].depth == 1


def test_pool_counts_points_and_kinds_exactly() -> None:
    old = {
        "variant": "long",
        "pairing": "hard:hard-heur",
        "cube": False,
        "games": 4,
        "kinds": {"A:mars": 2, "A:oin": 1, "B:oin": 1},
    }
    new = {
        "variant": "long",
        "pairing": "hard:hard-heur",
        "cube": False,
        "games": 2,
        "start": 4,
        "points": [-2, 1],
    }
    got = pool([old, new])
    assert got["games"] == 6
    assert got["win_rate"] == pytest.approx(4 / 6)
    assert got["ppg"] == pytest.approx((2 + 2 + 1 - 1 - 2 + 1) / 6)
    assert got["runs"] == [[0, 4], [4, 2]]
    with pytest.raises(SystemExit):
        pool([old, {**new, "pairing": "hard:medium"}])
    with pytest.raises(SystemExit):
        pool([{**old, "cube": True}])


def test_paired_runs_meet_on_the_game_indices_both_played() -> None:
    """A two-worker run names its games; an older one-worker line counts from its start."""
    line = {"pairing": "hard:gnubg", "games": 4, "points": [1, -2, 2, 1], "indices": [0, 1, 4, 5]}
    old = {"pairing": "hard:gnubg", "games": 4, "start": 2, "points": [-1, -1, 1, 3]}
    got = paired([line], [old])  # games 4 and 5: (2 - 1) and (1 - 3)
    assert got["games"] == 2 and got["same_result"] == 0
    assert got["ppg_diff"] == pytest.approx((1 - 2) / 2)
    lo, hi = got["ppg_diff_ci95"]
    assert lo < got["ppg_diff"] < hi
    with pytest.raises(SystemExit):
        paired([line], [{**old, "start": 10}])


def test_read_keeps_only_the_asked_variant_and_cube_setting(tmp_path: Path) -> None:
    """One pairing name in both variants, and a cube-on run of the same seed: each filter
    keeps only its lines, so pooling and pairing never mix them."""
    base = {"pairing": "hard:medium", "games": 2, "start": 0, "points": [1, -1]}
    runs = tmp_path / "runs.jsonl"
    runs.write_text(
        "\n".join(
            json.dumps(base | extra)
            for extra in (
                {"variant": "long", "cube": False},
                {"variant": "short", "cube": False},
                {"variant": "short", "cube": True},
            )
        )
    )
    assert len(read([runs], "hard:medium")) == 3
    assert [x["variant"] for x in read([runs], "hard:medium", "long")] == ["long"]
    short_off = read([runs], None, "short", cube=False)
    assert [(x["variant"], x["cube"]) for x in short_off] == [("short", False)]
    assert len(read([runs], "hard:medium", cube=True)) == 1
