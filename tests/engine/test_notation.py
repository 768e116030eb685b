"""Move notation (RULES.md §0.4): the canonical text of every legal play reads back to the same
play, and the common alternatives players type are understood."""

from __future__ import annotations

import pytest

from engine import Turn, format_steps, parse_segments
from engine.notation import Segment
from engine.position import BAR, OFF
from tests.engine.corpus import spread
from tests.engine.helpers import after, long_pos, short_pos


@pytest.mark.parametrize(("variant", "size", "seed"), [("long", 120, 1), ("short", 40, 1)])
def test_every_legal_play_round_trips_through_its_text(variant: str, size: int, seed: int) -> None:
    """parse(format(play)) == play, tested as: the formatted text entered with
    ``Turn.apply_text`` completes the turn with the same final position."""
    checked = 0
    for sample in spread(variant, size, seed):
        turn = Turn(sample.position, sample.dice, first_turn=sample.first_turn)
        for play in turn.legal_plays:
            text = format_steps(play.steps)
            entered = turn.apply_text(text)
            assert entered.is_complete(), (text, sample)
            assert entered.current == play.result, (text, sample)
            checked += 1
    assert checked > size  # the corpus really has plays


def test_canonical_text_of_some_plays() -> None:
    """Chains of one checker joined by '/', hits '*', repeats '(n)', biggest start first."""
    start = long_pos("24×15", "24×15")
    turn = Turn(start, (6, 6), first_turn=True)
    assert format_steps(turn.legal_plays[0].steps) == "24/18(2)"
    bar = Turn(short_pos("bar×1, 24×1, 13×5, 8×3, 6×5", "24×2, 13×5, 7×3, 6×5"), (6, 2))
    assert sorted(format_steps(p.steps) for p in bar.legal_plays) == [
        "bar/23 13/7",
        "bar/23 8/2",
        "bar/23/17",
    ]
    off = Turn(short_pos("6×4"), (6, 6))
    assert format_steps(off.legal_plays[0].steps) == "6/off(4)"
    assert format_steps(()) == ""


@pytest.mark.parametrize(
    ("x", "o", "dice", "text", "same_as"),
    [
        pytest.param("24×15", "24×15", (6, 5), "24-18-13", "24/18/13", id="dash 24-18"),
        pytest.param("24×15", "24×15", (6, 5), "24/13", "24/18/13", id="24/13 spans two dice"),
        pytest.param(
            "bar×1, 13×5, 8×3, 6×5",
            "24×2, 13×5, 8×3, 6×5",
            (3, 1),
            "бар/22, 6/5",
            "bar/22, 6/5",
            id="бар/22",
        ),
        pytest.param(
            "bar×1, 13×5, 8×3, 6×5",
            "24×2, 13×5, 8×3, 6×5",
            (3, 1),
            "BAR/22 6/5",
            "bar/22, 6/5",
            id="BAR/22",
        ),
        pytest.param(
            "6×2, 5×1", "13×5, 8×5, 7×5", (6, 5), "6/выброс 5/выброс", "6/off, 5/off", id="6/выброс"
        ),
        pytest.param(
            "6×2, 5×1", "13×5, 8×5, 7×5", (6, 5), "6/OFF, 5/Off", "6/off, 5/off", id="6/off"
        ),
        pytest.param(
            "24×2, 13×5, 8×3, 6×5",
            "24×2, 13×5, 8×3, 6×5",
            (6, 6),
            "8/2(2) 24/18(2)",
            "8/2, 8/2, 24/18, 24/18",
            id="8/2(2)",
        ),
        pytest.param(
            "24×4, 13×2, 12×1, 8×3, 6×5",
            "24×2, 15×1, 14×4, 8×3, 6×5",
            (3, 2),
            "13/10* 12/10",
            "13/10*, 12/10",
            id="13/10*",
        ),
        pytest.param(
            "24×2, 13×5, 8×3, 6×5",
            "24×2, 15×1, 14×4, 8×3, 6×5",
            (4, 3),
            "13/6",
            "13/9/6",
            id="13/6 without * takes the quiet route",
        ),
        pytest.param(
            "24×2, 13×5, 8×3, 6×5",
            "24×2, 15×1, 14×4, 8×3, 6×5",
            (4, 3),
            "13/6*",
            "13/10*/6",
            id="13/6* asks for the hitting route",
        ),
        pytest.param(
            "24×2, 13×5, 8×3, 6×5",
            "24×2, 13×5, 8×3, 6×5",
            (3, 1),
            "8/5; 6/5",
            "8/5, 6/5",
            id="semicolon",
        ),
        pytest.param(
            "24×2, 13×5, 8×3, 6×5",
            "24×2, 13×5, 8×3, 6×5",
            (3, 1),
            "6/5 8/5",
            "8/5, 6/5",
            id="any order",
        ),
    ],
)
def test_accepted_alternatives(
    x: str, o: str, dice: tuple[int, int], text: str, same_as: str
) -> None:
    variant = "long" if x.startswith("24×15") else "short"
    pos = long_pos(x, o) if variant == "long" else short_pos(x, o)
    turn = Turn(pos, dice)
    assert turn.play_text(text).result == after(pos, same_as)


def test_pass_is_an_empty_play_only_when_nothing_can_move() -> None:
    """C-18: "" / "pass" / "пас" is accepted exactly when there is no legal step (T-S8)."""
    pos = short_pos("bar×1, 24×1, 13×5, 8×3, 6×5", "24×2, 13×5, 6×4, 4×4")
    turn = Turn(pos, (6, 4))
    for text in ("", "pass", "пас"):
        assert turn.play_text(text).result == pos
    assert parse_segments("пас") == []


def test_parse_segments_reads_points_and_hits() -> None:
    assert parse_segments("bar/20*/14, 6/off") == [
        Segment(BAR, 20, True),
        Segment(20, 14, False),
        Segment(6, OFF, False),
    ]
    assert parse_segments("8/2(2)") == [Segment(8, 2), Segment(8, 2)]


def test_two_checkers_entering_over_two_dice_each_with_a_double() -> None:
    """S-11, S-16: with 2-2 and two on the bar, `bar/21(2)` means bar/23 twice, then 23/21
    twice — both must enter before either moves on, so the written segments interleave."""
    pos = short_pos("bar×2, 24×2, 13×5, 8×3, 6×3", "24×2, 13×5, 8×3, 6×5")
    turn = Turn(pos, (2, 2))
    want = after(pos, "bar/23(2), 23/21(2)")
    for text in ("bar/21(2)", "bar/21 bar/21", "bar/23/21(2)", "bar/23(2) 23/21(2)"):
        assert turn.play_text(text).result == want, text


def test_a_dash_and_a_partial_play() -> None:
    """`24-18` reads as 24/18 and may be entered as a part of the turn."""
    pos = long_pos("24×14, 17×1", "24×15")
    part = Turn(pos, (6, 5)).apply_text("24-18")
    assert part.current == after(pos, "24/18") and not part.is_complete()
    assert part.apply_text("18-13").is_complete()
