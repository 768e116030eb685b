"""Position questions: question → intent → the engine's answer on the position and dice.

Each row is a position (RULES.md §0.4 notation, X to move, O's points in O's own pips), the
dice, whether it is X's first turn, a player's question, and what the answer must be: the
verdict and the RULES.md ID of the rule the engine names, or a play/step that must be
offered. The engine is the judge: the teacher only asks it.
"""

from __future__ import annotations

import pytest

from engine import BAR, Reason, Turn
from engine.textpos import parse_position
from teacher.position import Ask, Intent, Verdict, explain, parse_intent

LONG_START = "X: 24×15; O: 24×15 [X 12]"
SHORT_START = "X: 24×2, 13×5, 8×3, 6×5; O: 24×2, 13×5, 8×3, 6×5 [X 1, 12, 17, 19]"
# Long: X has left the head with three checkers; O's head is X's 12, O also holds X's 18, 17.
LONG_MID = "X: 24×12, 20×1, 19×1, 13×1; O: 24×13, 6×1, 5×1 [X 12, 18, 17]"
# Long: X blocks 19…23 with five points and could close a sixth on 18 (O has nobody ahead).
LONG_BLOCK = "X: 24×5, 23×2, 22×2, 21×2, 20×2, 19×2; O: 24×15 [X 12]"
# Short: X has a checker on the bar; O holds X's 19, 20 and 22 (O's 6, 5, 3).
SHORT_BAR = "X: bar×1, 24×1, 13×5, 8×3, 6×5; O: 6×2, 5×2, 3×2, 13×5, 8×4 [X 19, 20, 22, 12, 17]"
# Short: everything home but one checker on 7.
SHORT_ALMOST = "X: 7×1, 6×4, 5×4, 4×3, 3×3; O: 24×2, 13×5, 8×3, 6×5 [X 1, 12, 17, 19]"
# Short: all home, bearing off: 5 and 4 and 2 points.
SHORT_HOME = "X: 5×2, 4×2, 2×1, off×10; O: 24×2, 13×5, 8×3, 6×5 [X 1, 12, 17, 19]"
# Short: X's only checkers are on 24 and O holds 18 … 13 (O's 7 … 12): closed out.
SHORT_PRIMED = (
    "X: 24×2, off×13; O: 12×2, 11×2, 10×2, 9×2, 8×2, 7×2, 6×3 [X 13, 14, 15, 16, 17, 18, 19]"
)

# (variant, position, dice, first turn, question, expected verdict, rule ID or None, must offer)
TABLE: list[tuple[str, str, tuple[int, int], bool, str, Verdict, str | None, str | None]] = [
    # --- long nardy, the opening ---
    ("long", LONG_START, (6, 5), True, "почему нельзя 13/7?", Verdict.ILLEGAL, "C-1", None),
    ("long", LONG_START, (6, 5), True, "why can't I play 13/7", Verdict.ILLEGAL, "C-1", None),
    ("long", LONG_START, (6, 5), True, "почему нельзя 24/18 24/19", Verdict.ILLEGAL, "L-8", None),
    ("long", LONG_START, (6, 5), True, "можно 24/13?", Verdict.LEGAL, None, "24/18/13"),
    ("long", LONG_START, (6, 5), True, "куда можно пойти с 24?", Verdict.LEGAL, None, "24/18"),
    ("long", LONG_START, (6, 5), True, "where can I move from 24", Verdict.LEGAL, None, "24/19"),
    ("long", LONG_START, (6, 5), True, "почему нельзя 24/20", Verdict.ILLEGAL, "C-15", None),
    ("long", LONG_START, (6, 5), True, "а с 24 на 14 можно?", Verdict.ILLEGAL, "C-15", None),
    ("long", LONG_START, (6, 5), True, "почему нельзя выбрасывать", Verdict.ILLEGAL, "C-24", None),
    ("long", LONG_START, (6, 5), True, "why can't I bear off?", Verdict.ILLEGAL, "C-24", None),
    ("long", LONG_START, (6, 5), True, "почему нельзя 7/13", Verdict.ILLEGAL, "C-4", None),
    ("long", LONG_START, (6, 5), True, "какие у меня ходы?", Verdict.LEGAL, None, "24/18/13"),
    ("long", LONG_START, (6, 5), True, "what can I play", Verdict.LEGAL, None, "24/18/13"),
    ("long", LONG_START, (6, 6), True, "почему не могу 24/18(3)", Verdict.ILLEGAL, "L-11", None),
    ("long", LONG_START, (6, 6), True, "почему нельзя 24/12", Verdict.ILLEGAL, "L-6", None),
    ("long", LONG_START, (6, 6), True, "можно 24/18(2)?", Verdict.LEGAL, None, "24/18(2)"),
    ("long", LONG_START, (4, 4), True, "можно 24/16(2)?", Verdict.LEGAL, None, "24/20/16(2)"),
    (
        "long",
        LONG_START,
        (5, 5),
        True,
        "почему не могу снять с головы",
        Verdict.LEGAL,
        None,
        "24/19",
    ),
    ("long", LONG_START, (5, 5), True, "почему нельзя 24/19(2)", Verdict.ILLEGAL, "L-11", None),
    # --- long nardy, the middle game ---
    ("long", LONG_MID, (6, 1), False, "почему нельзя 24/18 24/23", Verdict.ILLEGAL, "L-6", None),
    ("long", LONG_MID, (2, 1), False, "почему нельзя 24/22 24/23", Verdict.ILLEGAL, "L-8", None),
    ("long", LONG_MID, (6, 1), False, "почему нельзя 24/18", Verdict.ILLEGAL, "L-6", None),
    (
        "long",
        LONG_MID,
        (6, 1),
        False,
        "почему не могу снять с головы?",
        Verdict.LEGAL,
        None,
        "24/23",
    ),
    ("long", LONG_MID, (6, 1), False, "почему нельзя 19/13 13/12", Verdict.ILLEGAL, "L-6", None),
    ("long", LONG_MID, (6, 1), False, "с 13 на 7 можно?", Verdict.LEGAL, None, "13/7"),
    ("long", LONG_MID, (6, 1), False, "what about 20/14", Verdict.LEGAL, None, "20/14"),
    ("long", LONG_MID, (6, 1), False, "почему нельзя 12/6", Verdict.ILLEGAL, "C-1", None),
    ("long", LONG_BLOCK, (6, 1), False, "почему нельзя 24/18 19/18", Verdict.ILLEGAL, "L-16", None),
    ("long", LONG_BLOCK, (6, 1), False, "можно 24/18?", Verdict.ILLEGAL, "L-16", None),
    ("long", LONG_BLOCK, (6, 1), False, "куда можно с 24?", Verdict.LEGAL, None, "24/23"),
    # --- short nardy ---
    ("short", SHORT_START, (6, 5), True, "можно 24/13?", Verdict.LEGAL, None, "24/18/13"),
    ("short", SHORT_START, (6, 5), True, "почему нельзя 24/18 13/7", Verdict.ILLEGAL, "C-15", None),
    ("short", SHORT_START, (6, 5), True, "почему нельзя 24/19", Verdict.ILLEGAL, "S-5", None),
    ("short", SHORT_START, (3, 1), True, "why not 8/5 6/5", Verdict.LEGAL, None, "8/5 6/5"),
    ("short", SHORT_BAR, (4, 2), False, "почему нельзя 13/9?", Verdict.ILLEGAL, "S-11", None),
    ("short", SHORT_BAR, (4, 2), False, "why can't I move 13/11", Verdict.ILLEGAL, "S-11", None),
    (
        "short",
        SHORT_BAR,
        (6, 5),
        False,
        "почему не могу войти с бара",
        Verdict.ILLEGAL,
        "S-12",
        None,
    ),
    ("short", SHORT_BAR, (6, 4), False, "почему нельзя bar/19", Verdict.ILLEGAL, "S-12", None),
    ("short", SHORT_BAR, (6, 4), False, "куда можно с бара?", Verdict.LEGAL, None, "bar/21"),
    (
        "short",
        SHORT_ALMOST,
        (6, 5),
        False,
        "почему нельзя выкинуть с 6",
        Verdict.ILLEGAL,
        "C-24",
        None,
    ),
    ("short", SHORT_ALMOST, (6, 5), False, "why can't I bear off", Verdict.ILLEGAL, "C-24", None),
    ("short", SHORT_HOME, (6, 1), False, "можно выбросить 5/off?", Verdict.LEGAL, None, "5/off"),
    (
        "short",
        SHORT_HOME,
        (6, 1),
        False,
        "почему нельзя 2/off 4/off",
        Verdict.ILLEGAL,
        "C-26",
        None,
    ),
    (
        "short",
        SHORT_HOME,
        (6, 1),
        False,
        "почему нельзя выбрасывать?",
        Verdict.LEGAL,
        None,
        "5/off",
    ),
    ("short", SHORT_HOME, (3, 3), False, "почему нельзя 4/off", Verdict.ILLEGAL, "C-27", None),
    (
        "short",
        SHORT_PRIMED,
        (6, 6),
        False,
        "почему я не могу сходить?",
        Verdict.NO_MOVES,
        "C-22",
        None,
    ),
    (
        "short",
        SHORT_PRIMED,
        (6, 5),
        False,
        "why can't I move from 24",
        Verdict.ILLEGAL,
        "S-5",
        None,
    ),
]


def turn_of(variant: str, position: str, dice: tuple[int, int], first: bool) -> Turn:
    return Turn(parse_position(variant, position), dice, first_turn=first)


def test_table_is_big_enough() -> None:
    assert len(TABLE) >= 40
    assert len({(row[1], row[2], row[4]) for row in TABLE}) == len(TABLE)


@pytest.mark.parametrize(
    ("variant", "position", "dice", "first", "question", "verdict", "rule_id", "offer"),
    TABLE,
    ids=[f"{row[0]}-{row[4]}" for row in TABLE],
)
def test_position_question(
    variant: str,
    position: str,
    dice: tuple[int, int],
    first: bool,
    question: str,
    verdict: Verdict,
    rule_id: str | None,
    offer: str | None,
) -> None:
    intent = parse_intent(question)
    assert intent is not None, question
    answer = explain(turn_of(variant, position, dice, first), intent)
    assert answer.verdict is verdict, (question, intent, answer)
    assert answer.rule_id == rule_id, (question, intent, answer)
    if offer is not None:
        offered = (*answer.plays, *answer.steps)
        assert any(offer == text or offer in text.split() for text in offered), (question, answer)


INTENTS: list[tuple[str, Intent | None]] = [
    ("почему нельзя 13/7?", Intent(Ask.MOVE, move="13/7")),
    ("почему нельзя 13-7?", Intent(Ask.MOVE, move="13/7")),
    ("с 13 на 7 можно?", Intent(Ask.MOVE, move="13/7")),
    ("from 13 to 7?", Intent(Ask.MOVE, move="13/7")),
    ("почему нельзя бар/20", Intent(Ask.MOVE, move="bar/20")),
    ("почему нельзя 6/выброс", Intent(Ask.MOVE, move="6/off")),
    ("why not 24/18 13/11", Intent(Ask.MOVE, move="24/18 13/11")),
    ("почему нельзя выкинуть с 6", Intent(Ask.MOVE, move="6/off")),
    ("куда можно пойти с 24?", Intent(Ask.FROM_POINT, point=24)),
    ("почему не могу снять с головы?", Intent(Ask.FROM_POINT, point=24)),
    ("why can't I move off the head", Intent(Ask.FROM_POINT, point=24)),
    ("почему не могу войти с бара", Intent(Ask.FROM_POINT, point=BAR)),
    ("why can't I enter", Intent(Ask.FROM_POINT, point=BAR)),
    ("why can't I bear off?", Intent(Ask.BEAR_OFF)),
    ("почему нельзя выбрасывать", Intent(Ask.BEAR_OFF)),
    ("какие у меня ходы", Intent(Ask.ANY)),
    ("почему я не могу сходить?", Intent(Ask.ANY)),
    # not position questions: the topic matcher answers these
    ("что такое марс", None),
    ("выпало 6-5, как ходить", None),
    ("сколько очков за кокс", None),
    ("почему сгорел зар", None),
]


@pytest.mark.parametrize(("question", "intent"), INTENTS)
def test_parse_intent(question: str, intent: Intent | None) -> None:
    assert parse_intent(question) == intent


def test_illegal_move_answers_name_the_engine_reason() -> None:
    answer = explain(turn_of("long", LONG_START, (6, 5), True), Intent(Ask.MOVE, move="13/7"))
    assert answer.reason is Reason.NO_CHECKER
    assert answer.highlight == (13, 7)


def test_point_question_lists_the_rule_per_die() -> None:
    answer = explain(turn_of("long", LONG_MID, (6, 6), False), Intent(Ask.FROM_POINT, point=24))
    assert answer.verdict is Verdict.ILLEGAL
    assert {d.die for d in answer.by_die} == {6}
    assert answer.by_die[0].reason is Reason.BLOCKED_LONG


def test_steps_already_entered_count() -> None:
    turn = turn_of("long", LONG_START, (6, 5), True).step(24, 18)
    answer = explain(turn, Intent(Ask.MOVE, move="18/13"))
    assert answer.verdict is Verdict.LEGAL and answer.complete
    again = explain(turn, Intent(Ask.FROM_POINT, point=24))
    assert again.verdict is Verdict.ILLEGAL and again.rule_id == "L-8"
