"""Short-nardy legal plays against GNU Backgammon (scripts/gnubg_crosscheck.py).

The cross-check needs the ``gnubg`` program, which CI machines do not have: there it is
skipped before any work is done. The small helper tests below need no gnubg.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "gnubg_crosscheck.py"


def _load_script():
    name = "gnubg_crosscheck_script"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


crosscheck = _load_script()


def test_matches_gnubg_on_30_positions() -> None:
    exe = crosscheck.find_gnubg()
    if exe is None:
        pytest.skip("GNU Backgammon (gnubg) is not installed; the cross-check needs it")
    report = crosscheck.run(30, seed=7, exe=exe)
    text = crosscheck.format_report(report)
    assert report.checked == 30, text
    assert not report.mismatches, text
    assert report.kinds.get("bar") and report.kinds.get("bearoff"), text
    assert report.doubles and report.plays_compared > 30, text


def test_apply_pairs_hits_and_bears_off() -> None:
    start = crosscheck.get_variant("short").start_board()
    # 6-4 from the start: 24/18, 18/14 as gnubg's parsemove gives "24/18*/14" (no blot here)
    me, opp = crosscheck.apply_pairs(start, start, [[24, 18], [18, 14]])
    assert me[24] == 1 and me[14] == 1 and opp == start
    # a lone opponent checker on its 19 (my 6) is hit by 8/6 and goes to its bar
    opp_blot = crosscheck.Position.board_from_mapping({19: 1, 1: 14})
    me, opp = crosscheck.apply_pairs(start, opp_blot, [[8, 6]])
    assert me[6] == 6 and opp[19] == 0 and opp[25] == 1
    home = crosscheck.Position.board_from_mapping({2: 1, 1: 1})
    me, _ = crosscheck.apply_pairs(home, start, [[2, 0], [1, 0]])
    assert me[0] == 15
    with pytest.raises(ValueError):
        crosscheck.apply_pairs(start, start, [[13, 1]])  # lands on two opponent checkers


def test_cases_are_seeded_and_cover_the_kinds() -> None:
    cases = crosscheck.generate_cases(20, seed=3)
    again = crosscheck.generate_cases(20, seed=3)
    assert [(c.position, c.dice) for c in cases] == [(c.position, c.dice) for c in again]
    assert len(cases) == 20
    assert {c.kind for c in cases} == {"bar", "bearoff", "contact", "race"}
    assert any(c.dice[0] == c.dice[1] for c in cases)
