"""RULES.md §7.2: every short-nardy worked example, with its exact set of legal outcomes.

Short nardy hits, so an outcome is the whole board: the expected plays mark every hit with
``*`` and :func:`tests.engine.helpers.after` sends the hit checker to O's bar.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine import Game, IllegalMoveError, Phase, Reason, Side, Turn, get_variant
from engine.position import BAR
from tests.engine.helpers import (
    after,
    board,
    engine_outcomes,
    outcomes_of,
    short_pos,
    unexpected,
)

START = "24×2, 13×5, 8×3, 6×5"
T9_O = "24×2, 15×1, 14×4, 8×3, 6×5 [X 1, 10, 11, 17, 19]"


@dataclass(frozen=True)
class Example:
    x: str
    o: str
    dice: tuple[int, int]
    plays: tuple[str, ...]


EXAMPLES = [
    pytest.param(
        Example(
            "bar×1, 24×1, 13×5, 8×3, 6×5", "24×3, 13×5, 6×5, 2×2 [X 1, 12, 19, 23]", (6, 2), ("",)
        ),
        id="T-S4 6-2 both entry points closed, no summing to 8: pass (S-13 S-15)",
    ),
    pytest.param(
        Example(
            "bar×1, 24×1, 13×5, 8×3, 6×5",
            "24×2, 13×5, 7×3, 6×5 [X 1, 12, 18, 19]",
            (6, 2),
            ("bar/23/17", "bar/23, 13/7", "bar/23, 8/2"),
        ),
        id="T-S5 enter with the 2, then the 6 with any checker (S-12 S-16)",
    ),
    pytest.param(
        Example(
            "bar×2, 13×5, 8×3, 6×5", "24×2, 13×5, 8×3, 6×5 [X 1, 12, 17, 19]", (6, 2), ("bar/23",)
        ),
        id="T-S6 two on the bar, one enters, the 6 is lost (S-11 S-14 S-15)",
    ),
    pytest.param(
        Example(
            "bar×1, 24×1, 13×5, 8×3, 6×5",
            "24×5, 13×5, 8×4, 6×1 [X 1, 12, 17, 19]",
            (6, 4),
            (
                "bar/19*, 24/20",
                "bar/19*/15",
                "bar/19*, 13/9",
                "bar/19*, 8/4",
                "bar/19*, 6/2",
                "bar/21, 24/18",
                "bar/21/15",
                "bar/21, 13/7",
                "bar/21, 8/2",
            ),
        ),
        id="T-S7 enter on the blot (hit) or on 21: 9 outcomes (S-12 S-7)",
    ),
    pytest.param(
        Example(
            "bar×1, 24×1, 13×5, 8×3, 6×5", "24×2, 13×5, 6×4, 4×4 [X 1, 12, 19, 21]", (6, 4), ("",)
        ),
        id="T-S8 both entry points closed: pass (S-15)",
    ),
    pytest.param(
        Example(
            "24×4, 13×2, 12×1, 8×3, 6×5",
            T9_O,
            (3, 2),
            (
                "24/22, 24/21",
                "24/21, 12/10*",
                "24/21, 8/6",
                "24/21, 6/4",
                "24/22, 13/10*",
                "13/10*, 12/10",
                "13/10*/8",
                "13/10*, 8/6",
                "13/10*, 6/4",
                "24/22, 12/9",
                "12/9/7",
                "12/9, 8/6",
                "12/9, 6/4",
                "24/22, 8/5",
                "12/10*, 8/5",
                "8/6, 8/5",
                "8/5, 6/4",
                "8/5/3",
                "24/22, 6/3",
                "12/10*, 6/3",
                "6/4, 6/3",
                "12/10*/7",
            ),
        ),
        id="T-S9 3-2: hit and cover, hit and continue onto own point, 22 outcomes (S-7 S-9 S-10)",
    ),
    pytest.param(
        Example(
            "24×4, 13×2, 12×1, 8×3, 6×5",
            T9_O,
            (3, 1),
            (
                # a 3 and a 1 by different checkers: 5 threes × 4 ones (12/11 is closed)
                *(
                    f"{three}, {one}"
                    for three in ("24/21", "13/10*", "12/9", "8/5", "6/3")
                    for one in ("24/23", "13/12", "8/7", "6/5")
                ),
                # one checker plays both dice
                "24/21/20",
                "13/10*/9",
                "12/9/8",
                "8/5/4",
                "6/3/2",
            ),
        ),
        id="T-S9b 3-1: 13/10*/9 hit and continue to an empty point, 25 outcomes (S-9)",
    ),
    pytest.param(
        Example(
            START,
            T9_O,
            (4, 3),
            (
                *(
                    f"{four}, {three}"
                    for four in ("24/20", "13/9", "8/4", "6/2")
                    for three in ("24/21", "13/10*", "8/5", "6/3")
                ),
                "13/10*/6",
                "13/9/6",
            ),
        ),
        id="T-S10 13/10*/6 hits at the stop, 13/9/6 does not: both legal, 18 outcomes (S-8 C-17)",
    ),
    pytest.param(
        Example(
            "6×1, 4×1, 2×1, off×12",
            "22×1, 13×4, 8×5, 6×5 [X 3, 12, 17, 19]",
            (2, 1),
            (
                "6/4, 4/3*",
                "6/4, 2/1",
                "6/5, 4/2",
                "4/2/1",
                "6/5, 2/off",
                "4/3*, 2/off",
                "4/3*/1",
            ),
        ),
        id="T-S11 hit and bear off: 4/3*, 2/off, 7 outcomes (S-9 C-24)",
    ),
    pytest.param(
        Example(
            START,
            "24×2, 18×1, 13×5, 8×3, 6×4 [X 1, 7, 12, 17, 19]",
            (6, 1),
            (
                "24/18, 24/23",
                "24/18, 8/7*",
                "24/18, 6/5",
                "13/7*, 24/23",
                "13/7*, 8/7",
                "13/7*/6",
                "13/7*, 6/5",
                "8/2, 24/23",
                "8/2, 8/7*",
                "8/2, 6/5",
            ),
        ),
        id="T-S12 hitting is optional: 10 outcomes (S-10)",
    ),
    pytest.param(
        Example(
            "bar×1, 6×4, 5×4, 4×3, 3×3",
            "4×2, 3×3, 2×5, 1×5 [X 21, 22, 23, 24]",
            (6, 5),
            ("bar/19/14", "bar/19, 6/1"),
        ),
        id="T-S13 a checker on the bar: no bearing off, 2 outcomes (S-20 C-24)",
    ),
    pytest.param(
        Example(
            "5×1, 4×1, 2×1, off×12",
            "13×5, 8×5, 7×5",
            (6, 2),
            ("5/off, 2/off", "5/off, 4/2", "5/3, 4/off"),
        ),
        id="T-S14 6-2: 3 outcomes (C-26 C-28)",
    ),
    pytest.param(
        Example("4×1, 1×1, off×13", "13×5, 8×5, 7×5", (4, 1), ("4/off, 1/off", "4/3, 3/off")),
        id="T-S15 4-1: all off, or 4/3 3/off (C-25 C-26 C-23)",
    ),
    pytest.param(
        Example("6×4, off×11", "13×5, 8×5, 7×5", (6, 6), ("6/off(4)",)),
        id="T-S16 6-6 bears off four (C-30)",
    ),
    pytest.param(
        Example("6×1, 5×1, off×13", "13×5, 8×5, 7×5", (2, 1), ("6/4, 5/4", "6/4/3", "5/3/2")),
        id="T-S17 2-1 with 6 and 5: no bearing off, 3 outcomes (C-27)",
    ),
    pytest.param(
        Example("3×2, 2×2, off×11", "13×5, 8×5, 7×5", (5, 4), ("3/off, 3/off",)),
        id="T-S18 5-4 from the highest point (C-26)",
    ),
    pytest.param(
        Example("5×1, off×14", "13×5, 8×5, 7×5", (5, 1), ("5/off",)),
        id="T-S19 5-1 with one checker on 5: the game ends (S-22 C-23)",
    ),
    pytest.param(
        Example("5×1, 1×1, off×13", "13×5, 8×5, 7×5", (5, 1), ("5/off, 1/off", "5/4/off")),
        id="T-S20 lower die first is not enforced: 2 outcomes (S-22)",
    ),
    pytest.param(
        Example("6×1, 3×1, 2×1, off×12", "13×5, 8×5, 7×5", (6, 3), ("6/off, 3/off", "6/3, 3/off")),
        id="T-S21 6-3: 2 outcomes (C-25)",
    ),
]


@pytest.mark.parametrize("ex", EXAMPLES)
def test_worked_example_has_exactly_the_listed_outcomes(ex: Example) -> None:
    pos = short_pos(ex.x, ex.o)
    want = outcomes_of(pos, *ex.plays)
    got = engine_outcomes(pos, ex.dice)
    assert got == want, unexpected(got, want)


@pytest.mark.parametrize("ex", EXAMPLES)
def test_worked_example_plays_are_accepted_as_written(ex: Example) -> None:
    pos = short_pos(ex.x, ex.o)
    turn = Turn(pos, ex.dice)
    for text in ex.plays:
        assert turn.play_text(text).result == after(pos, text), text


class OpeningRng:
    """Dice in a fixed order, as ``randint`` would give them."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        return self.values.pop(0)


def test_T_S1_the_opening_lot_is_the_first_roll() -> None:
    """T-S1 (S-4, C-12): X rolls 5, O rolls 3; X moves first and plays 5-3, no re-roll.

    A tie (4 and 4) is rolled again first, so the opening move is never a double.
    """
    game = Game("short")
    assert game.roll_lot(OpeningRng(4, 4, 5, 3)) == (5, 3)
    assert game.phase is Phase.MOVE
    assert game.dice == (5, 3)
    assert game.seat_to_act == 0
    assert game.turn.first_turn


def test_T_S2_start_position_and_pip_counts() -> None:
    """T-S2 (S-1, C-8, C-6): X: 24×2, 13×5, 8×3, 6×5 for both; 167 pips each; no shared point."""
    short = get_variant("short")
    start = short.start_position()
    assert start.white == start.black == board(START)
    assert start.pip_count(Side.WHITE) == start.pip_count(Side.BLACK) == 167
    # O's checkers stand on X-1 (2), X-12 (5), X-17 (3), X-19 (5): C-8, q = 25 - p.
    o_in_x_pips = {
        short.to_opponent_point(q): start.black[q] for q in range(1, 25) if start.black[q]
    }
    assert o_in_x_pips == {1: 2, 12: 5, 17: 3, 19: 5}
    assert not any(start.white[p] and start.black[25 - p] for p in range(1, 25))


@pytest.mark.parametrize("o_on_2", [0, 1])
@pytest.mark.parametrize("other", [1, 2, 3, 4, 5, 6])
def test_T_S3_a_2_enters_on_23(o_on_2: int, other: int) -> None:
    """T-S3 (S-12): X on the bar, fewer than 2 O checkers on O-2 (= X-23): `bar/23` is legal."""
    o = "24×2, 13×5, 8×3, 6×5" if not o_on_2 else "24×2, 13×5, 8×3, 6×4, 2×1"
    pos = short_pos("bar×1, 13×5, 8×3, 6×5", o)
    turn = Turn(pos, (2, other))
    entry = [s for s in turn.legal_steps() if (s.src, s.dst) == (BAR, 23)]
    assert entry and entry[0].hit is bool(o_on_2)


def test_T_S4_bar_17_cannot_be_reached_by_summing() -> None:
    """T-S4 (S-13, C-17): X-17 is open, but both single-die entry points are closed."""
    pos = short_pos("bar×1, 24×1, 13×5, 8×3, 6×5", "24×3, 13×5, 6×5, 2×2")
    turn = Turn(pos, (6, 2))
    assert not turn.has_moves
    with pytest.raises(IllegalMoveError) as info:
        turn.play_text("bar/17")
    assert info.value.reason is Reason.INTERMEDIATE_BLOCKED


def test_T_S6_no_other_checker_moves_while_one_is_on_the_bar() -> None:
    """T-S6 (S-11, S-12): after bar/23 the 6 cannot be played by 13/7, nor enter on 19."""
    turn = Turn(short_pos("bar×2, 13×5, 8×3, 6×5", "24×2, 13×5, 8×3, 6×5"), (6, 2))
    for src, dst, reason in [(13, 7, Reason.BAR_FIRST), (BAR, 19, Reason.ENTRY_CLOSED)]:
        with pytest.raises(IllegalMoveError) as info:
            turn.step(src, dst)
        assert info.value.reason is reason


def test_T_S19_both_routes_of_the_last_checker_are_accepted() -> None:
    """T-S19 (S-22, C-23 item 5): `5/off` and `5/4/off` both end the game."""
    pos = short_pos("5×1")
    turn = Turn(pos, (5, 1))
    assert turn.play_text("5/off").result == turn.play_text("5/4/off").result
    assert turn.play_text("5/4/off").result.is_finished()
