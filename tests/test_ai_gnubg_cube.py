"""The gnubg opponent of ``benchmarks/ai_arena.py`` with the cube on: its double and take
decisions come from gnubg's cubeful money evaluation (``ai_gnubg_server.py`` ``C`` lines).

Needs the ``gnubg`` program (benchmark only); skipped where it is not installed.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.game import Game, Phase
from engine.options import Options
from engine.position import Position, Side
from engine.variants import get_variant

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from ai_arena import GnubgAgent, find_gnubg

if find_gnubg() is None:
    pytest.skip("GNU Backgammon (gnubg) is not installed", allow_module_level=True)


def cells(points: dict[int, int]) -> tuple[int, ...]:
    b = [0] * 26
    for p, n in points.items():
        b[p] = n
    b[0] = 15 - sum(points.values())
    return tuple(b)


def game_at(mover: tuple[int, ...], opp: tuple[int, ...], *, offered: bool = False) -> Game:
    """A cube-on money game with ``mover`` (white) about to roll, or having doubled."""
    pos = Position("short", mover, opp, Side.WHITE)
    game = Game("short", Options(cube=True), position=pos, phase=Phase.ROLL)
    if offered:
        game.phase = Phase.DOUBLE
        game.double_offered_by = Side.WHITE
    return game


@pytest.fixture(scope="module")
def gnubg() -> Iterator[GnubgAgent]:
    agent = GnubgAgent(0)
    yield agent
    agent.close()


START = get_variant("short").start_board()
# A race 8 pips ahead on roll: a double and a take; all home against 15 far out: too good.
DOUBLE_TAKE = (cells({6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}), cells({6: 4, 5: 4, 4: 3, 3: 2, 2: 2}))
DOUBLE_PASS = (cells({4: 3, 3: 3, 2: 3, 1: 3}), cells({6: 5, 5: 4, 4: 3, 3: 2, 2: 1}))
TOO_GOOD = (cells({1: 8, 2: 7}), cells({20: 15}))


def test_no_double_at_the_start_and_a_take(gnubg: GnubgAgent) -> None:
    assert not gnubg.should_double(game_at(START, START))
    assert gnubg.should_take(game_at(START, START, offered=True))


def test_double_take(gnubg: GnubgAgent) -> None:
    assert gnubg.should_double(game_at(*DOUBLE_TAKE))
    assert gnubg.should_take(game_at(*DOUBLE_TAKE, offered=True))


def test_double_pass(gnubg: GnubgAgent) -> None:
    assert gnubg.should_double(game_at(*DOUBLE_PASS))
    assert not gnubg.should_take(game_at(*DOUBLE_PASS, offered=True))


def test_too_good_plays_on_for_the_mars(gnubg: GnubgAgent) -> None:
    nd, _, dp = gnubg.cube_values(game_at(*TOO_GOOD))
    assert nd > dp and not gnubg.should_double(game_at(*TOO_GOOD))


def test_never_doubles_a_cube_the_opponent_owns(gnubg: GnubgAgent) -> None:
    game = game_at(*DOUBLE_PASS)
    game.cube_value, game.cube_owner = 2, Side.BLACK
    assert not gnubg.should_double(game)
