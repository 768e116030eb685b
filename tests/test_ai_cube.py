"""Janowski's money-cube model (``ai.cube``) and the money-cube decisions of the levels."""

from __future__ import annotations

import pytest

import ai
from ai.cube import CubeSettings, money_cube, win_values
from engine.game import MAX_CUBE, Game, Phase
from engine.options import Options
from engine.position import Position, Side


def plain(p: float) -> list[tuple[int, float]]:
    """An outcome distribution without gammons: win 1 with chance p, else lose 1."""
    return [(1, p), (-1, 1.0 - p)]


def test_win_values_average_the_points_of_wins_and_losses() -> None:
    p, w, loss = win_values([(1, 0.3), (2, 0.3), (-1, 0.2), (-3, 0.2)])
    assert p == pytest.approx(0.6)
    assert w == pytest.approx(1.5)
    assert loss == pytest.approx(2.0)


def test_dead_cube_take_point_is_25_percent_without_gammons() -> None:
    # x = 0: the take is worth twice the cubeless equity, so the taker at 25 % is indifferent
    edge = money_cube(plain(0.75), efficiency=0.0)
    assert edge.double_take == pytest.approx(1.0)
    assert money_cube(plain(0.74), efficiency=0.0).should_take
    assert not money_cube(plain(0.76), efficiency=0.0).should_take


def test_live_cube_take_point_is_20_percent_without_gammons() -> None:
    assert money_cube(plain(0.79), efficiency=1.0).should_take
    assert not money_cube(plain(0.81), efficiency=1.0).should_take


def test_gammons_move_the_take_point() -> None:
    # the same 70 % of wins, but half of them gammons: the taker must drop
    assert money_cube(plain(0.7), efficiency=0.68).should_take
    gammons = [(1, 0.35), (2, 0.35), (-1, 0.3)]
    assert not money_cube(gammons, efficiency=0.68).should_take


def test_double_window() -> None:
    x = 0.68
    assert not money_cube(plain(0.55), efficiency=x).should_double  # too early
    assert money_cube(plain(0.72), efficiency=x).should_double  # double, take
    assert money_cube(plain(0.72), efficiency=x).should_take
    strong = money_cube(plain(0.9), efficiency=x)
    assert strong.should_double and not strong.should_take  # double, pass
    # too good: a gammon in most wins makes playing on worth more than the drop's +1
    too_good = [(2, 0.85), (1, 0.1), (-1, 0.05)]
    assert not money_cube(too_good, efficiency=x).should_double


def test_owning_the_cube_delays_the_redouble() -> None:
    x = 0.68
    p = 0.70
    assert money_cube(plain(p), efficiency=x).should_double
    assert not money_cube(plain(p), efficiency=x, redouble=True).should_double


def test_a_take_to_the_top_face_leaves_a_dead_cube() -> None:
    live = money_cube(plain(0.78), efficiency=0.68)
    dead = money_cube(plain(0.78), efficiency=0.68, dead_after_take=True)
    assert live.should_take and not dead.should_take  # 22 % is below the dead 25 %
    assert dead.double_take == pytest.approx(2 * (0.78 - 0.22))


cells = Position.board_from_mapping

# a race, both sides home: the bear-off table values it exactly
AHEAD = (cells({6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}), cells({6: 4, 5: 4, 4: 3, 3: 2, 2: 2}))
CRUSHING = (cells({2: 3, 1: 3}), cells({6: 3, 5: 3, 4: 2, 3: 1, 2: 1}))  # no mars left


def game_at(boards: tuple[tuple[int, ...], tuple[int, ...]], cube: int = 1) -> Game:
    pos = Position("short", boards[0], boards[1], Side.WHITE)
    game = Game("short", Options(cube=True), position=pos, phase=Phase.ROLL)
    if cube > 1:
        game.cube_value, game.cube_owner = cube, Side.WHITE
    return game


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_levels_with_nets_decide_by_the_model(level: str) -> None:
    player = ai.get_player(level, "short", seed=1)
    values = player.money_cube(*AHEAD, redouble=False)
    assert values is not None
    game = game_at(AHEAD)
    assert player.should_double(game) is values.should_double
    game.offer_double(0)
    assert player.should_take(game) is values.should_take
    crushing = game_at(CRUSHING)
    assert player.should_double(crushing)
    crushing.offer_double(0)
    assert player.should_take(crushing) is False


def test_easy_and_the_old_rule_keep_the_thresholds() -> None:
    assert ai.get_player("easy", "short", seed=1).money_cube(*AHEAD, redouble=False) is None
    hard = ai.get_player("hard", "short", seed=1)
    hard.cube = CubeSettings(thresholds=True)
    assert hard.money_cube(*AHEAD, redouble=False) is None
    assert isinstance(hard.should_double(game_at(AHEAD)), bool)


def test_depth_one_sees_the_roll() -> None:
    """At depth 1 the pre-roll distribution averages the roller's 21 rolls: in the crushing
    bear-off the roller wins at once with most rolls, so its chance is near 1 either way,
    and both depths agree on the decision."""
    hard = ai.get_player("hard", "short", seed=1)
    pos = Position("short", *CRUSHING, Side.WHITE)
    deep = hard.pre_roll_results(pos, depth=1)
    flat = hard.pre_roll_results(pos, depth=0)
    assert deep is not None and flat is not None
    assert sum(p for pts, p in deep if pts > 0) == pytest.approx(
        sum(p for pts, p in flat if pts > 0), abs=0.02
    )


def test_a_redouble_to_the_top_face_uses_a_dead_cube() -> None:
    hard = ai.get_player("hard", "short", seed=1)
    low = hard.money_cube(*AHEAD, redouble=True, cube=2)
    top = hard.money_cube(*AHEAD, redouble=True, cube=MAX_CUBE // 2)
    assert low is not None and top is not None
    assert top.no_double == pytest.approx(low.no_double)
    assert top.double_take != pytest.approx(low.double_take)


def test_margins_make_takes_and_doubles_stricter() -> None:
    # 76 % without gammons: a take and a double at x = 0.68 with no margins
    plain_cube = money_cube(plain(0.76), efficiency=0.68)
    assert plain_cube.should_take and plain_cube.should_double
    edge = 1.0 - plain_cube.double_take  # what the take saves against the drop
    assert not money_cube(plain(0.76), efficiency=0.68, take_margin=edge + 0.01).should_take
    gain = plain_cube.double_take - plain_cube.no_double
    assert not money_cube(plain(0.76), efficiency=0.68, double_margin=gain + 0.01).should_double


def test_margins_apply_in_contact_only() -> None:
    """In a pure race (valued by the bear-off table or the race net, nearly exact) the
    player decides by the model alone."""
    hard = ai.get_player("hard", "short", seed=1)
    strict = CubeSettings(depth=1, take_margin=5.0, double_margin=5.0)
    loose = CubeSettings(depth=1, take_margin=0.0, double_margin=0.0)
    hard.cube = strict
    a = hard.money_cube(*AHEAD, redouble=False)
    hard.cube = loose
    b = hard.money_cube(*AHEAD, redouble=False)
    assert a is not None and b is not None
    assert (a.should_take, a.should_double) == (b.should_take, b.should_double)
