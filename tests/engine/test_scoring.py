"""RULES.md §4.1, §4.2 and §7.3 T-M1 … T-M5: what a finished game is worth.

Every case is played to its end through :class:`Game`: X has one checker left on point 1 and
rolls 6-5, so ``1/off`` bears off the 15th checker and the game is scored at that moment
(M-7, C-32). The loser's board, in the loser's own pips, decides oin / mars / koks.
"""

from __future__ import annotations

import pytest

from engine import Game, GameResult, IllegalActionError, LongScoring, Options, Phase, Reason
from engine import ResultKind as K
from engine.position import Side
from engine.scoring import score_game
from tests.engine.helpers import long_pos, short_pos


def finish(
    variant: str, loser: str, *, cube: int = 1, options: Options | None = None
) -> GameResult:
    """White (X: 1×1) bears off its last checker against black's ``loser`` board."""
    pos = long_pos("1×1", loser) if variant == "long" else short_pos("1×1", loser)
    game = Game(
        variant,
        options or Options(),
        position=pos,
        phase=Phase.ROLL,
        turns_played=[9, 9],
        cube_value=cube,
        cube_owner=None if cube == 1 else Side.BLACK,
    )
    assert game.roll(dice=(6, 5)) is not None
    game.apply_text("1/off")
    game.commit()
    assert game.phase is Phase.OVER
    assert game.result is not None
    with pytest.raises(IllegalActionError) as info:  # M-7: the loser gets no further roll
        game.roll(dice=(1, 1))
    assert info.value.reason is Reason.GAME_OVER
    return game.result


def test_T_M1_long_oin_when_the_loser_has_borne_off_one() -> None:
    """T-M1 (M-1, L-25, C-32): the loser has 3 off → oin, 1 point."""
    result = finish("long", "6×12, off×3")
    assert (result.winner, result.kind, result.points) == (Side.WHITE, K.OIN, 1)


@pytest.mark.parametrize(
    "loser",
    [
        pytest.param("6×15", id="all home"),
        pytest.param("24×10, 15×5", id="head and quarter 2"),
        pytest.param("14×15", id="in the winner's home (X 2)"),
    ],
)
def test_T_M2_long_mars_wherever_the_losers_checkers_stand(loser: str) -> None:
    """T-M2 (M-2, M-3): none off → mars, 2 points; never koks in long nardy by default."""
    result = finish("long", loser)
    assert (result.kind, result.points) == (K.MARS, 2)


def test_T_M2_under_V_8_home_mars_counts_three_only_with_all_fifteen_home() -> None:
    """T-M2 (V-8): none off and all 15 in the loser's home → 3; not all home → 2."""
    v8 = Options(long_scoring=LongScoring.HOME_MARS)
    all_home = finish("long", "6×10, 1×5", options=v8)
    assert (all_home.kind, all_home.points) == (K.HOME_MARS, 3)
    one_out = finish("long", "7×1, 6×9, 1×5", options=v8)
    assert (one_out.kind, one_out.points) == (K.MARS, 2)
    some_off = finish("long", "6×10, off×5", options=v8)
    assert (some_off.kind, some_off.points) == (K.OIN, 1)


def test_V_9_long_loss_counts_the_losers_checkers_left() -> None:
    """V-9: an ordinary loss is worth the loser's checkers still on the board.

    RULES.md leaves open how V-9 combines with mars; the engine counts all 15 for a mars
    (the loser has all 15 left). This test pins that choice.
    """
    v9 = Options(long_scoring=LongScoring.CHECKERS_LEFT)
    assert finish("long", "6×12, off×3", options=v9).points == 12
    assert finish("long", "6×15", options=v9).points == 15


def test_T_M3_short_koks_with_a_checker_in_the_winners_home() -> None:
    """T-M3 (M-6, M-13): cube 2, loser 0 off, one checker on the loser's 20 (winner's 5): 3×2."""
    result = finish("short", "20×1, 6×14", cube=2)
    assert (result.kind, result.points, result.cube) == (K.KOKS, 6, 2)


def test_M_6_short_koks_with_a_checker_on_the_bar() -> None:
    """M-6: a checker on the bar is also koks (cube 1: 3 points)."""
    result = finish("short", "bar×1, 6×14")
    assert (result.kind, result.points) == (K.KOKS, 3)


def test_T_M4_short_mars_gammon() -> None:
    """T-M4 (M-5): cube 2, loser 0 off, all on points ≤ 18, none on the bar: 2×2 = 4."""
    result = finish("short", "18×1, 13×4, 6×10", cube=2)
    assert (result.kind, result.points) == (K.MARS, 4)


def test_T_M5_short_single_needs_no_koks_check_once_one_is_off() -> None:
    """T-M5 (M-4, M-6): cube 2, loser has 1 off and a checker on the bar: single, 1×2 = 2."""
    result = finish("short", "bar×1, 6×13, off×1", cube=2)
    assert (result.kind, result.points) == (K.OIN, 2)


@pytest.mark.parametrize("cube", [1, 2, 4, 8, 64])
def test_M_13_points_are_cube_times_multiplier(cube: int) -> None:
    """M-13, M-7: a long mars with the cube enabled and at ``cube`` is worth 2 × cube."""
    result = finish("long", "6×15", cube=cube, options=Options(cube=True))
    assert result.points == 2 * cube


def test_S_23_and_M_20_a_finished_game_always_has_one_winner() -> None:
    """S-23, M-20 (no draws): the result names the winner and the loser, never a tie."""
    result = finish("short", "6×14, off×1")
    assert result.winner is Side.WHITE and result.loser is Side.BLACK
    assert result.points > 0


def test_score_game_is_symmetric_in_colour() -> None:
    """The same board scored for black as the winner (board given from black's side)."""
    pos = short_pos("off×15", "20×1, 6×14", turn=Side.BLACK)
    result = score_game(pos, Side.BLACK, Options(), 2)
    assert (result.winner, result.kind, result.points) == (Side.BLACK, K.KOKS, 6)


def test_V_17_jacoby_is_not_implemented_mars_counts_with_a_centred_cube() -> None:
    """V-17 (not implemented; the default is off): mars counts even if the cube was never
    turned. If Jacoby is added as an option, this default must stay."""
    result = finish("short", "13×5, 8×5, 6×5", options=Options(cube=True))
    assert (result.kind, result.points, result.cube) == (K.MARS, 2, 1)
    assert "jacoby" not in Options().__slots__
