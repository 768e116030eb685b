"""Position IDs: GNU Backgammon's 14-character ID for short nardy, the same construction on
each side's own pips for long nardy; decode(encode(p)) == p; bad text is refused."""

from __future__ import annotations

import pytest

from engine import Position, Side, get_variant
from engine.positionid import PositionIDError, decode, encode
from tests.engine.corpus import corpus
from tests.engine.helpers import long_pos, short_pos


def test_short_start_is_gnu_backgammons_start_id() -> None:
    """S-1: the backgammon starting position has GNU Backgammon's well-known ID."""
    start = get_variant("short").start_position()
    assert encode(start) == "4HPwATDgc/ABMA"
    assert decode("4HPwATDgc/ABMA", "short") == start
    assert decode("4HPwATDgc/ABMA", "short", Side.BLACK) == start.swapped()


def test_long_start_round_trips() -> None:
    """L-1: 15 on each head; 14 characters; decodes back for either side to move."""
    start = get_variant("long").start_position()
    text = encode(start)
    assert len(text) == 14
    assert decode(text, "long") == start
    assert decode(encode(start.swapped()), "long", Side.BLACK) == start.swapped()


@pytest.mark.parametrize("variant", ["long", "short"])
def test_round_trip_on_random_positions(variant: str) -> None:
    seen = set()
    for sample in corpus(variant, 300, 1):
        pos = sample.position
        text = encode(pos)
        assert len(text) == 14
        assert decode(text, variant, pos.turn) == pos
        seen.add(text)
    assert len(seen) > 250  # different positions get different IDs


def test_ids_of_positions_with_bar_and_borne_off_checkers() -> None:
    pos = short_pos("bar×2, 6×3, off×10", "bar×1, 20×2, 1×2, off×10")
    assert decode(encode(pos), "short") == pos
    pos = long_pos("6×1, off×14", "24×15", turn=Side.BLACK)
    assert decode(encode(pos), "long", Side.BLACK) == pos


@pytest.mark.parametrize(
    ("text", "variant"),
    [
        pytest.param("", "short", id="empty"),
        pytest.param("4HPwATDgc/AB", "short", id="too short"),
        pytest.param("4HPwATDgc/ABMAA", "short", id="too long"),
        pytest.param("4HPwATDgc/AB!A", "short", id="not Base64"),
        pytest.param("//////////////", "short", id="too many checkers"),
        pytest.param("AAAAAAAAAAAAAA", "short", id="nobody has a checker left"),
    ],
)
def test_invalid_ids_raise_position_id_error(text: str, variant: str) -> None:
    with pytest.raises(PositionIDError):
        decode(text, variant)


def test_ids_that_break_a_variants_rules_are_refused() -> None:
    """A checker on the bar is no long-nardy position (C-2); two colours on one point (C-3)
    are no position at all."""
    with_bar = short_pos("bar×1, 6×14", "6×15")
    with pytest.raises(PositionIDError):
        decode(encode(with_bar), "long")
    both_on_six = Position(
        "short",
        Position.board_from_mapping({6: 15}),
        Position.board_from_mapping({19: 15}),  # black's 19 is white's 6
        Side.WHITE,
    )
    with pytest.raises(PositionIDError):
        decode(encode(both_on_six), "short")
