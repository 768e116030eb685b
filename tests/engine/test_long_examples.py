"""RULES.md §7.1: every long-nardy worked example, with its exact set of legal outcomes.

Each row is the example as RULES.md states it: the position (X to move, each side in its own
pips), the dice, and one play per legal outcome. The engine must produce exactly those final
positions — no more, no fewer — and must accept each listed play written in notation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from engine import IllegalMoveError, Options, Reason, Side, Turn
from engine.position import OFF
from tests.engine.helpers import after, engine_outcomes, long_pos, outcomes_of, unexpected

START = "24×15"
V1 = Options(block_in_passing=True)
V2 = Options(block_needs_home=True)
V5 = Options(no_obstacle_clause=True)
V7 = Options(bearoff_next_turn=True)


@dataclass(frozen=True)
class Example:
    """One row of §7.1: position, dice, and one play for each legal outcome."""

    x: str
    o: str
    dice: tuple[int, int]
    plays: tuple[str, ...]
    first_turn: bool = False
    turn: Side = Side.WHITE
    options: Options = field(default_factory=Options)


T16_X = "7×1, 5×3, 4×3, 3×3, 2×3, 1×2"
T16_PLAYS_WITHOUT_7_6 = (
    # 7/5 and then any 1 (the last one, 1/off, bears off at once: C-31).
    "7/5/4",
    "7/5, 4/3",
    "7/5, 3/2",
    "7/5, 2/1",
    "7/5, 1/off",
    # The checker on 7 stays: a 2 and a 1 inside home, no bearing off (C-24).
    "5/4, 5/3",
    "5/3, 4/3",
    "5/3/2",
    "5/3, 2/1",
    "4/3, 4/2",
    "4/2, 3/2",
    "4/2/1",
    "5/4, 3/1",
    "3/2, 3/1",
    "3/1, 2/1",
)
T15_X = "24×4, 23×1, 17×2, 16×2, 15×2, 14×2, 13×2"
T15_O = "24×14, 8×1 [X 12, 20]"
T15_PLAYS = (
    # Never 23/18 (L-17) nor 23/20 (O on X-20); one head checker (L-8).
    "24/19/16",
    "24/19, 17/14",
    "24/19, 16/13",
    "24/19, 14/11",
    "24/19, 13/10",
    "24/21, 16/11",
    "24/21, 15/10",
    "24/21, 14/9",
    "24/21, 13/8",
    "17/14, 16/11",
    "17/14, 15/10",
    "17/14/9",
    "17/14, 13/8",
    "16/13, 16/11",
    "16/11, 14/11",
    "16/11, 13/10",
    "16/11/8",
    "16/13, 15/10",
    "16/13, 14/9",
    "15/10, 14/11",
    "15/10, 13/10",
    "15/10/7",
    "14/11, 14/9",
    "14/9, 13/10",
    "14/9/6",
    "14/11, 13/8",
    "13/10, 13/8",
    "13/8/5",
)

EXAMPLES = [
    pytest.param(
        Example(START, START, (6, 6), ("24/18, 24/18",), first_turn=True),
        id="T-L1 first turn 6-6: two from the head, two sixes lost (L-11 L-13 C-21)",
    ),
    pytest.param(
        Example(START, START, (4, 4), ("24/20/16, 24/20/16",), first_turn=True),
        id="T-L2 first turn 4-4: two checkers to 16 (L-11 L-13)",
    ),
    pytest.param(
        Example(START, START, (3, 3), ("24/21/18, 24/21/18", "24/21/18/15, 24/21"), True),
        id="T-L3 first turn 3-3: two outcomes (L-11 L-13 C-21)",
    ),
    pytest.param(
        Example(START, START, (5, 5), ("24/19/14/9/4",), first_turn=True),
        id="T-L4 first turn 5-5: one checker only (L-11 L-13)",
    ),
    pytest.param(
        Example(START, "24×14, 4×1 [X 12, 16]", (4, 4), ("24/20",), True, Side.BLACK),
        id="T-L5 black 4-4 after white 5-5: obstacle clause, three 4s lost (L-12)",
    ),
    pytest.param(
        Example(START, "24×14, 4×1", (4, 4), ("24/20, 24/20",), True, Side.BLACK, V5),
        id="T-L5 under V-5 (no obstacle clause): two checkers to 20",
    ),
    pytest.param(
        Example(START, START, (2, 2), ("24/22/20/18/16",), first_turn=True),
        id="T-L6 first turn 2-2: one checker (L-10 L-13)",
    ),
    pytest.param(
        Example(START, "24×14, 16×1 [X 12, 4]", (5, 5), ("24/19/14/9",), True, Side.BLACK),
        id="T-L7 black 5-5 after white 2-2: fourth five lost (L-11 L-12 C-21)",
    ),
    pytest.param(
        Example(START, START, (5, 4), ("24/19/15",), first_turn=True),
        id="T-L8 first turn 5-4: one checker moves the sum (L-10 L-8)",
    ),
    pytest.param(
        Example(
            "24×14, 17×1",
            "24×14, 15×1 [X 12, 3]",
            (6, 2),
            ("24/18/16", "24/18, 17/15", "24/22, 17/11", "17/11/9"),
        ),
        id="T-L9 6-2 later turn: head checker goes on or another moves (L-8 L-9)",
    ),
    pytest.param(
        Example("24×14, 20×1", "24×9, 21×2, 7×2, 6×2 [X 12, 9, 19, 18]", (6, 5), ("20/14",)),
        id="T-L10 6-5 only one die playable: the larger, the 5 is lost (C-20)",
    ),
    pytest.param(
        Example("24×14, 21×1", "24×9, 23×2, 8×2, 6×2 [X 12, 11, 20, 18]", (6, 4), ("21/15",)),
        id="T-L11 6-4 only one die playable: the 6 (C-20)",
    ),
    pytest.param(
        Example(
            "24×13, 21×1, 16×1",
            "24×9, 10×2, 7×2, 2×2 [X 12, 22, 19, 14]",
            (5, 2),
            ("16/11/9",),
        ),
        id="T-L12 5-2: a play using both dice is forced (C-19)",
    ),
    pytest.param(
        Example("24×14, 21×1", "24×9, 8×2, 6×2, 5×2 [X 12, 20, 18, 17]", (6, 4), ("21/15/11",)),
        id="T-L13 6-4: both dice with one checker (C-19)",
    ),
    pytest.param(
        Example(T15_X, T15_O, (5, 3), T15_PLAYS),
        id="T-L15 default: no six-block even in passing (L-16 L-17)",
    ),
    pytest.param(
        Example(T15_X, T15_O, (5, 3), (*T15_PLAYS, "23/18/15"), options=V1),
        id="T-L15 under V-1: 23/18/15 becomes legal",
    ),
    pytest.param(
        Example(T16_X, "24×10, 20×5 [X 12, 8]", (2, 1), T16_PLAYS_WITHOUT_7_6),
        id="T-L16 7/6 would close 6-1 with all O behind: 15 outcomes (L-16 L-17)",
    ),
    pytest.param(
        Example(T16_X, "24×10, 20×5", (2, 1), T16_PLAYS_WITHOUT_7_6, options=V1),
        id="T-L16 under V-1: same 15 outcomes (7/6/4 only adds a route)",
    ),
    pytest.param(
        Example(
            T16_X,
            "24×10, 20×4, 10×1 [X 12, 8, 22]",
            (2, 1),
            (*T16_PLAYS_WITHOUT_7_6, "7/6, 5/3", "7/6, 4/2", "7/6, 3/1", "7/6, 2/off"),
        ),
        id="T-L17 an O checker ahead of the block: 7/6 legal, 19 outcomes (L-16 C-31)",
    ),
    pytest.param(
        Example(T16_X, "24×10, 20×4, 10×1", (2, 1), T16_PLAYS_WITHOUT_7_6, options=V2),
        id="T-L17 under V-2 no O checker home: 7/6 illegal, the 15 of T-L16",
    ),
    pytest.param(
        Example(
            T16_X,
            "24×10, 20×4, 5×1 [X 12, 8, 17]",
            (2, 1),
            (*T16_PLAYS_WITHOUT_7_6, "7/6, 5/3", "7/6, 4/2", "7/6, 3/1", "7/6, 2/off"),
            options=V2,
        ),
        id="T-L17 under V-2 with an O checker home: 7/6 legal again",
    ),
    pytest.param(
        Example("4×2", "12×5, 10×5, 8×5", (4, 3), ("4/off, 4/1",)),
        id="T-L20 '3 и 4': 4/off and 4/1 (L-21 C-25 C-27)",
    ),
    pytest.param(
        Example("2×1, 1×2", "12×5, 10×5, 8×5", (5, 3), ("2/off, 1/off",)),
        id="T-L21 '5 и 3': from 2 then from 1 (L-22 C-26)",
    ),
    pytest.param(
        Example("7×1, 6×2, 5×3, 4×3, 3×3, 2×3", "24×14, 13×1 [X 12, 1]", (6, 1), ("7/6, 6/off",)),
        id="T-L22a last checker enters with the 1, the 6 bears off, nothing burns (L-24 C-31)",
    ),
    pytest.param(
        Example(
            "7×1, 6×2, 5×3, 4×3, 3×3, 2×3",
            "24×14, 13×1",
            (6, 1),
            ("7/6", "6/5", "5/4", "4/3", "3/2"),
            options=V7,
        ),
        id="T-L22b under V-7: one die only, the 6 burns (V-7)",
    ),
    pytest.param(
        Example(
            "4×1, 3×1, 1×1", "12×5, 10×5, 8×5", (3, 1), ("3/off, 1/off", "4/1/off", "4/1, 3/2")
        ),
        id="T-L23 3-1: three outcomes, 4/1/off is one checker (C-25 C-29)",
    ),
    pytest.param(
        Example("3×4, 1×2", "12×5, 10×5, 8×5", (3, 3), ("3/off(4)",)),
        id="T-L24 3-3: four off from 3 (C-30)",
    ),
    pytest.param(
        Example(
            "6×2, 4×2",
            "12×5, 10×5, 8×5",
            (3, 3),
            ("6/3(2), 4/1(2)", "6/3, 6/3/off, 4/1", "6/3/off(2)", "6/3/off, 4/1(2)"),
        ),
        id="T-L25 3-3 with 6 and 4 occupied: the first 3 must move (C-27 C-30)",
    ),
    pytest.param(
        Example("2×3, 1×3", "12×5, 10×5, 8×5", (3, 3), ("2/off(3), 1/off",)),
        id="T-L26 3-3 from the highest points (C-26)",
    ),
    pytest.param(
        Example(
            "6×2, 5×1, 4×1, 3×1",
            "12×5, 10×5, 8×5",
            (6, 3),
            ("6/off, 3/off", "6/off, 6/3", "6/off, 5/2", "6/off, 4/1"),
        ),
        id="T-L27 6-3: 6/off plus any 3 (C-25 C-28)",
    ),
    pytest.param(
        Example("4×1, 3×1, 2×2", "12×5, 10×5, 8×5", (6, 5), ("4/off, 3/off",)),
        id="T-L28 6-5 with 6 and 5 empty (C-26)",
    ),
    pytest.param(
        Example("24×13, 18×1, 16×1", "24×13, 18×2 [X 12, 6]", (6, 6), ("24/18, 16/10/4",)),
        id="T-L29 6-6 later turn: one head checker, fourth six lost (L-8 L-14 C-21)",
    ),
    pytest.param(
        Example(
            "24×14, 17×1",
            START,
            (5, 2),
            ("24/19/17", "24/19, 17/15", "17/15/10"),
        ),
        id="T-L30 5-2: no stop on O's head, 17/10 only via 15 (C-17 L-6)",
    ),
    pytest.param(
        Example(
            "24×14, 17×1",
            START,
            (6, 1),
            ("24/18/17", "24/18, 17/16", "24/23, 17/11", "17/11/10"),
        ),
        id="T-L30 6-1: 17/11 jumps over O's head (C-17 L-6)",
    ),
    pytest.param(
        Example("5×1, 3×1", "12×5, 10×5, 8×5", (5, 3), ("5/off, 3/off", "5/2, 3/off")),
        id="T-L31 5-3: bear off both or move inside (C-25 C-28)",
    ),
    pytest.param(
        Example("3×2, 2×1", "12×5, 10×5, 8×5", (5, 4), ("3/off, 3/off",)),
        id="T-L32 5-4 with 6, 5, 4 empty: both from 3 (C-26)",
    ),
]


@pytest.mark.parametrize("ex", EXAMPLES)
def test_worked_example_has_exactly_the_listed_outcomes(ex: Example) -> None:
    pos = long_pos(ex.x, ex.o, turn=ex.turn)
    want = outcomes_of(pos, *ex.plays)
    got = engine_outcomes(pos, ex.dice, first_turn=ex.first_turn, options=ex.options)
    assert got == want, unexpected(got, want)


@pytest.mark.parametrize("ex", EXAMPLES)
def test_worked_example_plays_are_accepted_as_written(ex: Example) -> None:
    pos = long_pos(ex.x, ex.o, turn=ex.turn)
    turn = Turn(pos, ex.dice, first_turn=ex.first_turn, options=ex.options)
    for text in ex.plays:
        assert turn.play_text(text).result == after(pos, text), text


# ---- the "Illegal:" parts of §7.1, each naming the rule it breaks ----------------------------


def rejected(turn: Turn, text: str) -> Reason:
    with pytest.raises(IllegalMoveError) as info:
        turn.play_text(text)
    return info.value.reason


def test_T_L1_third_six_would_land_on_the_opponents_head() -> None:
    """T-L1 (L-6): after 24/18, 24/18 a six from 18 would stop on O's head at X-12."""
    turn = Turn(long_pos(START, START), (6, 6), first_turn=True)
    assert rejected(turn, "24/18, 24/18, 18/12") is Reason.BLOCKED_LONG


def test_T_L3_three_threes_with_one_checker_is_not_a_whole_play() -> None:
    """T-L3 (C-21, C-23): X: 24×14, 15×1 is illegal because a fourth three is playable."""
    turn = Turn(long_pos(START, START), (3, 3), first_turn=True)
    assert rejected(turn, "24/15") is Reason.INCOMPLETE
    assert turn.apply_text("24/15").legal_steps()  # the fourth three: 24/21


def test_T_L4_second_head_checker_on_5_5_is_not_the_exception() -> None:
    """T-L4 (L-11): 5-5 is not one of 6-6, 4-4, 3-3."""
    turn = Turn(long_pos(START, START), (5, 5), first_turn=True)
    assert rejected(turn, "24/19, 24/19") is Reason.HEAD_FIRST_TURN


def test_T_L5_second_head_checker_refused_by_the_obstacle_clause() -> None:
    """T-L5 (L-12): white's moved checker on X-16 stops the lone checker before O's head."""
    pos = long_pos(START, "24×14, 4×1", turn=Side.BLACK)
    turn = Turn(pos, (4, 4), first_turn=True)
    assert rejected(turn, "24/20, 24/20") is Reason.HEAD_OBSTACLE


def test_T_L7_second_head_checker_on_5_5_for_black() -> None:
    """T-L7 (L-11, L-12): no second head checker, and 9/4 lands on white."""
    turn = Turn(long_pos(START, "24×14, 16×1", turn=Side.BLACK), (5, 5), first_turn=True)
    assert rejected(turn, "24/19, 24/19") is Reason.HEAD_FIRST_TURN
    assert rejected(turn, "24/19/14/9/4") is Reason.BLOCKED_LONG


def test_T_L8_first_turn_non_double_allows_one_head_checker() -> None:
    """T-L8 (L-10, L-8): `24/19, 24/20` takes two checkers from the head."""
    turn = Turn(long_pos(START, START), (5, 4), first_turn=True)
    assert rejected(turn, "24/19, 24/20") is Reason.HEAD
    assert turn.play_text("24/20/15").result == turn.play_text("24/19/15").result


def test_T_L9_two_head_checkers_on_a_later_turn() -> None:
    """T-L9 (L-8): `24/22, 24/18` is illegal."""
    turn = Turn(long_pos("24×14, 17×1", "24×14, 15×1"), (6, 2))
    assert rejected(turn, "24/22, 24/18") is Reason.HEAD
    assert turn.play_text("24/22/16").result == turn.play_text("24/18/16").result


def test_T_L10_playing_the_smaller_die_when_only_one_can_be_played() -> None:
    """T-L10 (C-20): `20/15` plays the 5 although the 6 is playable."""
    turn = Turn(long_pos("24×14, 20×1", "24×9, 21×2, 7×2, 6×2"), (6, 5))
    assert rejected(turn, "20/15") is Reason.LARGER_DIE


def test_T_L11_playing_the_4_instead_of_the_6() -> None:
    """T-L11 (C-20): `21/17` is illegal, `21/15` is the play."""
    turn = Turn(long_pos("24×14, 21×1", "24×9, 23×2, 8×2, 6×2"), (6, 4))
    assert rejected(turn, "21/17") is Reason.LARGER_DIE


def test_T_L12_one_die_when_both_can_be_played() -> None:
    """T-L12 (C-19): `21/16` alone is illegal because `16/11/9` uses both dice."""
    turn = Turn(long_pos("24×13, 21×1, 16×1", "24×9, 10×2, 7×2, 2×2"), (5, 2))
    assert rejected(turn, "21/16") is Reason.NOT_MAXIMAL


def test_T_L13_stopping_after_one_die() -> None:
    """T-L13 (C-19): `21/15` alone is not a whole play; it must go on to 11."""
    turn = Turn(long_pos("24×14, 21×1", "24×9, 8×2, 6×2, 5×2"), (6, 4))
    assert rejected(turn, "21/15") is Reason.INCOMPLETE
    assert [(s.src, s.dst) for s in turn.apply_text("21/15").legal_steps()] == [(15, 11)]


@pytest.mark.parametrize("distance", [1, 2, 4, 6, 7])
def test_T_L14_a_step_must_be_exactly_one_die(distance: int) -> None:
    """T-L14 (C-15): with 5-3 no step of another length (2 = 5 - 3, 7, …) is accepted."""
    turn = Turn(long_pos("24×14, 20×1", START), (5, 3))
    with pytest.raises(IllegalMoveError) as info:
        turn.step(20, 20 - distance)
    assert info.value.reason is Reason.WRONG_DISTANCE


def test_T_L15_block_in_passing_is_refused_by_default_and_allowed_by_V_1() -> None:
    """T-L15 (L-17, V-1): `23/18` completes X 18-13 = O 6-1 with no O checker ahead."""
    pos = long_pos(T15_X, T15_O)
    with pytest.raises(IllegalMoveError) as info:
        Turn(pos, (5, 3)).step(23, 18)
    assert info.value.reason is Reason.SIX_BLOCK
    assert rejected(Turn(pos, (5, 3)), "23/18/15") is Reason.SIX_BLOCK
    assert Turn(pos, (5, 3), options=V1).play_text("23/18/15").result == after(pos, "23/18/15")


def test_T_L16_seven_six_is_a_block_step_and_V_1_only_adds_a_route() -> None:
    """T-L16 (L-16, L-17, V-1): 7/6 closes X 6-1 with every O checker behind it."""
    pos = long_pos(T16_X, "24×10, 20×5")
    assert rejected(Turn(pos, (2, 1)), "7/6, 5/3") is Reason.SIX_BLOCK
    v1 = Turn(pos, (2, 1), options=V1)
    assert v1.play_text("7/6/4").result == after(pos, "7/5/4")
    # Under V-1 a play that still ends with 6-1 closed stays illegal.
    assert rejected(v1, "7/6, 5/3") is Reason.SIX_BLOCK_END


def test_T_L17_V_2_refuses_the_block_until_an_O_checker_is_home() -> None:
    """T-L17 (V-2): O's checker on O-10 is ahead of the block but not in O's home."""
    pos = long_pos(T16_X, "24×10, 20×4, 10×1")
    assert rejected(Turn(pos, (2, 1), options=V2), "7/6, 5/3") is Reason.SIX_BLOCK_HOME
    assert Turn(pos, (2, 1)).play_text("7/6, 2/off").result == after(pos, "7/6, 2/off")


@pytest.mark.parametrize("other", [1, 2, 3, 5, 6])
def test_T_L18_block_across_Xs_own_seam(other: int) -> None:
    """T-L18 (L-15, L-16): X 3-2-1-24-23-22 is O 15…10, a block with all O behind it."""
    x = "24×9, 23×1, 22×1, 8×1, 4×1, 2×1, 1×1"
    with pytest.raises(IllegalMoveError) as info:
        Turn(long_pos(x, START), (1, other)).step(4, 3)
    assert info.value.reason is Reason.SIX_BLOCK
    # With an O checker on O-9, ahead of the block, the same step is legal.
    assert Turn(long_pos(x, "24×14, 9×1"), (1, other)).step(4, 3).steps


@pytest.mark.parametrize("other", [1, 2, 3, 4, 6])
def test_T_L19_six_points_across_Os_seam_are_no_block(other: int) -> None:
    """T-L19 (L-15): X 15…10 = O 3-2-1 and O 24-23-22 is not six in a row on O's route."""
    pos = long_pos("24×9, 16×1, 14×1, 13×1, 12×1, 11×1, 10×1", "21×8, 20×7")
    assert Turn(pos, (1, other)).step(16, 15).current.mover[15] == 1


def test_T_L22a_the_6_cannot_be_played_first() -> None:
    """T-L22a (L-24, L-6): `7/1` lands on O's checker on X-1."""
    turn = Turn(long_pos("7×1, 6×2, 5×3, 4×3, 3×3, 2×3", "24×14, 13×1"), (6, 1))
    assert rejected(turn, "7/1") is Reason.BLOCKED_LONG


def test_T_L22b_under_V_7_no_bearing_off_in_the_entering_turn() -> None:
    """T-L22b (V-7): after 7/6 the 6 cannot bear off, the turn started with a checker out."""
    turn = Turn(long_pos("7×1, 6×2, 5×3, 4×3, 3×3, 2×3", "24×14, 13×1"), (6, 1), options=V7)
    entered = turn.step(7, 6)
    assert entered.is_complete()
    with pytest.raises(IllegalMoveError) as info:
        entered.step(6, OFF)
    assert info.value.reason is Reason.BEAROFF_NEXT_TURN


def test_T_L29_two_head_checkers_on_6_6_after_the_first_turn() -> None:
    """T-L29 (L-8, L-14): 24/18 twice is illegal when it is not the first turn."""
    turn = Turn(long_pos("24×13, 18×1, 16×1", "24×13, 18×2"), (6, 6))
    assert rejected(turn, "24/18, 24/18") is Reason.HEAD


def test_T_L30_no_stop_on_the_opponents_head() -> None:
    """T-L30 (C-17, L-6): `17/12` is illegal; `17/10` is read as 17/15/10."""
    pos = long_pos("24×14, 17×1", START)
    turn = Turn(pos, (5, 2))
    with pytest.raises(IllegalMoveError) as info:
        turn.step(17, 12)
    assert info.value.reason is Reason.BLOCKED_LONG
    assert turn.play_text("17/10").result == after(pos, "17/15/10")
    assert rejected(turn, "17/12/10") is Reason.BLOCKED_LONG
