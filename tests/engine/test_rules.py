"""Rules of RULES.md §1 – §3 and §5 not already pinned by a worked example: geometry,
steps per roll, home, the long-nardy block and head details, short-nardy primes and entering,
and the variants the engine deliberately does not implement."""

from __future__ import annotations

from dataclasses import fields

import pytest

from engine import Game, IllegalMoveError, Options, Phase, Reason, Turn, get_variant
from engine.position import BAR, OFF, Position, PositionError, Side
from tests.engine.helpers import after, board, engine_outcomes, long_pos, outcomes_of, short_pos

LONG = get_variant("long")
SHORT = get_variant("short")


# ---- geometry --------------------------------------------------------------------------------


def test_C_7_long_mapping_is_its_own_inverse_and_puts_the_heads_12_apart() -> None:
    """C-7: X's p is O's p + 12 (p ≤ 12) or p − 12; heads X-24 = O-12 and O-24 = X-12."""
    for p in range(1, 25):
        q = LONG.to_opponent_point(p)
        assert q == (p + 12 if p <= 12 else p - 12)
        assert LONG.to_opponent_point(q) == p
    assert LONG.to_opponent_point(24) == 12 and LONG.to_opponent_point(12) == 24


def test_C_9_L_3_quarters_and_homes_in_long_nardy() -> None:
    """C-9, L-3: X's home (Q4, 1–6) is O's second quarter (O 13–18), and O's home is X's Q2
    (13–18); O's head stands on X's Q3 (X-12), 18 points from X's home."""
    assert {LONG.to_opponent_point(p) for p in range(1, 7)} == set(range(13, 19))
    assert {LONG.to_opponent_point(q) for q in range(1, 7)} == set(range(13, 19))
    assert LONG.to_opponent_point(24) in range(7, 13)


def test_C_9_S_2_short_quarters_and_opposite_directions() -> None:
    """C-8, C-9, S-2: X's p is O's 25 − p; O's home is X's Q1 (19–24). A step down in X's
    numbers is a step up in O's: the two sides travel in opposite directions."""
    assert {SHORT.to_opponent_point(q) for q in range(1, 7)} == set(range(19, 25))
    assert SHORT.to_opponent_point(24) < SHORT.to_opponent_point(18)


def test_L_2_long_sides_move_the_same_way_round() -> None:
    """L-2: in long nardy a step down in X's numbers is also a step down in O's (except
    across O's start/finish seam), so both sides go round the same way."""
    downs = [LONG.to_opponent_point(p) - LONG.to_opponent_point(p - 1) for p in range(2, 25)]
    assert downs.count(1) == 22  # only X 13 → 12 (O 1 → 24) jumps


def test_C_2_C_3_board_bar_and_stacking() -> None:
    """C-2: 24 points, a bar only in short nardy, and "off"; C-3: any number on one point."""
    assert LONG.start_position().white[24] == 15  # L-1: all fifteen on the head
    bar_checker = board("bar×1, 24×14")
    with pytest.raises(PositionError):
        LONG.check_position(Position("long", bar_checker, board("24×15"), Side.WHITE))
    SHORT.check_position(Position("short", bar_checker, board("24×15"), Side.WHITE))


# ---- steps and dice --------------------------------------------------------------------------


def test_C_14_a_double_gives_four_steps_a_non_double_two() -> None:
    """C-14: 2-2 from the short start plays four steps, 6-5 two."""
    start = SHORT.start_position()
    assert {len(p.steps) for p in Turn(start, (2, 2)).legal_plays} == {4}
    assert {len(p.steps) for p in Turn(start, (6, 5)).legal_plays} == {2}


def test_C_16_dice_in_any_order_by_one_checker_or_two() -> None:
    """C-16: 6-5 may be played 24/18/13 or 24/19/13, or by two checkers, in any order."""
    pos = long_pos("24×14, 17×1", "24×15")
    turn = Turn(pos, (6, 5))
    assert turn.play_text("24/18/13").result == turn.play_text("24/19/13").result
    assert turn.play_text("24/13").result == after(pos, "24/18/13")
    assert turn.play_text("17/11/6").result == after(pos, "17/6")  # 17/12 is O's head
    assert turn.step(24, 19).step(17, 11).current == turn.step(17, 11).step(24, 19).current


def test_C_5_bearing_off_only_with_every_checker_home() -> None:
    """C-5, C-24: a checker on 7 forbids 6/off; once it is home the 6 bears off."""
    turn = Turn(short_pos("7×1, 6×14"), (6, 1))
    with pytest.raises(IllegalMoveError) as info:
        turn.step(6, OFF)
    assert info.value.reason is Reason.BEAROFF_NOT_HOME
    assert turn.play_text("7/6, 6/off").result == after(short_pos("7×1, 6×14"), "7/6, 6/off")


# ---- long nardy ------------------------------------------------------------------------------


def test_L_18_a_block_step_is_illegal_and_its_dice_are_lost() -> None:
    """L-18, L-16, C-22: 13/7 would close X 7–2 (= O 19–14) with all of O behind it. With
    6-6 it is the only step by landing and distance, so the whole roll is lost."""
    pos = long_pos("13×1, 6×3, 5×3, 4×3, 3×3, 2×2", "24×15")
    turn = Turn(pos, (6, 6))
    assert not turn.has_moves
    with pytest.raises(IllegalMoveError) as info:
        turn.step(13, 7)
    assert info.value.reason is Reason.SIX_BLOCK


def test_L_7_L_20_L_23_opponent_in_the_home_blocks_moves_not_bearing_off() -> None:
    """L-7, L-20, L-23: O checkers on X-4 and X-3 (O 16, 15) stop 6/3 and 6/4, not 2/off;
    the 3 cannot bear off from 2 while 6 is occupied (C-26), so it is lost."""
    pos = long_pos("6×1, 2×1", "24×13, 16×1, 15×1 [X 12, 4, 3]")
    assert engine_outcomes(pos, (3, 2)) == outcomes_of(pos, "2/off")


def test_L_9_L_13_first_turn_head_checkers_may_go_on() -> None:
    """L-9, L-13: on a first-turn 4-4 the two head checkers must both go on to 16."""
    pos = LONG.start_position()
    assert engine_outcomes(pos, (4, 4), first_turn=True) == outcomes_of(pos, "24/16(2)")


def test_V_6_not_implemented_necessity_exception_is_off() -> None:
    """V-6 (not implemented; the default is off): black's first 5-3 after white's 5-5 takes
    one head checker. 24/19 is the only play (the 3 from 19 or 24/21/16 would land on white's
    checker on X-16); V-6 would also allow 24/19, 24/21."""
    pos = long_pos("24×15", "24×14, 4×1", turn=Side.BLACK)
    assert engine_outcomes(pos, (5, 3), first_turn=True) == outcomes_of(pos, "24/19")
    assert not [f.name for f in fields(Options) if "necess" in f.name]


# ---- short nardy -----------------------------------------------------------------------------


def test_S_6_S_7_a_blot_is_hit_two_checkers_are_not() -> None:
    """S-6, S-7: a point with one O checker is a blot; landing there sends it to the bar."""
    pos = short_pos("24×2, 13×5, 8×3, 6×5", "24×2, 13×5, 8×3, 6×4, 7×1 [X 18]")
    turn = Turn(pos, (6, 1))
    hit = turn.step(24, 18)
    assert hit.steps[-1].hit and hit.current.opponent[BAR] == 1
    closed = Turn(short_pos("24×2, 13×5, 8×3, 6×5", "24×2, 13×5, 8×1, 7×2, 6×5"), (6, 1))
    with pytest.raises(IllegalMoveError) as info:
        closed.step(24, 18)
    assert info.value.reason is Reason.BLOCKED_SHORT


def test_S_14_S_16_a_double_enters_two_and_plays_on() -> None:
    """S-14: each bar checker needs one die; with 3-3 two enter and two 3s remain (S-16)."""
    pos = short_pos("bar×2, 13×5, 8×3, 6×5", "24×2, 13×5, 8×3, 6×5")
    finals = engine_outcomes(pos, (3, 3))
    assert all(p.mover[BAR] == 0 and p.mover[22] == 2 for p in finals)  # 22/19 is closed
    assert after(pos, "bar/22(2), 13/10(2)") in finals
    assert after(pos, "bar/22(2), 6/3(2)") in finals


def test_S_17_entering_follows_the_larger_die_rule() -> None:
    """S-17, C-20: X-15 is closed, so after entering, neither 19/15 nor 21/15 works and only
    one die can be used; it must be the 6 (bar/19), not the 4 (bar/21)."""
    pos = short_pos("bar×1, off×14", "10×2, 13×5, 8×5, 7×3 [X 15]")
    assert engine_outcomes(pos, (6, 4)) == outcomes_of(pos, "bar/19")
    with pytest.raises(IllegalMoveError) as info:
        Turn(pos, (6, 4)).step(BAR, 21)
    assert info.value.reason is Reason.LARGER_DIE


def test_S_18_a_six_point_prime_is_legal_in_short_nardy() -> None:
    """S-18: 10/9 completes X 9–4 with O's checker on X-3 trapped behind — legal here,
    although long nardy's L-16 would forbid the same shape."""
    pos = short_pos("13×4, 10×1, 8×2, 7×2, 6×2, 5×2, 4×2", "22×1, 13×5, 8×5, 6×4 [X 3]")
    turn = Turn(pos, (1, 2)).step(10, 9)
    assert all(turn.current.mover[p] for p in range(4, 10))


def test_S_21_C_28_moving_inside_home_instead_of_bearing_off() -> None:
    """S-21, C-28: with 6-3 the 3 may move 6/3 instead of bearing off 3/off."""
    pos = short_pos("6×2, 3×1, off×12", "bar×1, 13×5, 8×5, 7×4")
    assert engine_outcomes(pos, (6, 3)) == outcomes_of(pos, "6/off, 6/3", "6/off, 3/off")


# ---- variants that are not implemented -------------------------------------------------------


def test_V_13_V_14_V_15_no_crazy_doubles_chain_and_no_six_one() -> None:
    """V-13 («бешеный гюльбар»), V-14 («бешеные нарды») and V-15 («шесть-один») are not
    implemented: a double is four steps, then the turn passes (no chain, no re-roll, no
    moves by the opponent), and there is no third variant to ask for."""
    game = Game("short")
    game.set_lot(5, 3)
    game.play(game.turn.legal_plays[0])
    turn = game.roll(dice=(4, 4))
    assert turn is not None and turn.max_dice == 4
    game.play(turn.legal_plays[0])
    assert game.phase is Phase.ROLL and game.side_to_move is Side.WHITE
    names = {f.name for f in fields(Options)}
    assert not {n for n in names if "crazy" in n or "chain" in n or "gulbar" in n}
    with pytest.raises(ValueError):
        get_variant("шесть-один")
