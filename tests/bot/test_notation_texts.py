"""Every NotationError code has a catalog entry in both languages, filled from the error's
own parameters, with the user's text escaped (#18 items 1 and 2)."""

from __future__ import annotations

import re

import pytest

from bot.refusals import notation_text
from bot.texts import CATALOGS
from engine import NotationCode, NotationError, parse_segments
from tests.engine.test_variants import NOTATION_CASES


@pytest.mark.parametrize("code", list(NotationCode))
def test_every_code_has_an_entry_in_every_language(code: NotationCode) -> None:
    for catalog in CATALOGS.values():
        assert f"notation.{code}" in catalog


@pytest.mark.parametrize(("text", "code", "params"), NOTATION_CASES)
def test_russian_wording_has_no_english(text: str, code: NotationCode, params: dict) -> None:
    with pytest.raises(NotationError) as info:
        parse_segments(text)
    worded = notation_text("ru", info.value)
    for value in params.values():  # the user's own text is quoted as typed
        worded = worded.replace(str(value), "")
    assert not re.search(r"[A-Za-z]", worded), worded
    assert notation_text("en", info.value) != notation_text("ru", info.value)


def test_user_text_is_escaped() -> None:
    with pytest.raises(NotationError) as info:
        parse_segments("<b>24/18</b> & <i>")
    worded = notation_text("ru", info.value)
    assert "<b>" not in worded and "&lt;b&gt;24" in worded


def test_a_play_on_a_picture_from_the_other_side_keeps_its_own_numbers_first() -> None:
    """Black's 6-6 from its 19 through 13 to 7 in long nardy: on a board numbered from White's
    side those points are 7, 1 and 19 (the play crosses White's 1–24 seam). The caption writes
    the play as the move log does, decreasing, and the picture's numbers in brackets."""
    from bot.presenter.common import play_notation
    from engine import Game, Side, format_steps
    from engine.step import Step

    game = Game("long")
    steps = [Step(19, 13, 6), Step(13, 7, 6)]
    own = format_steps(steps)
    assert play_notation(game, Side.BLACK, steps, own, Side.BLACK) == own
    assert play_notation(game, Side.BLACK, steps, own, None) == own
    assert play_notation(game, Side.BLACK, steps, own, Side.WHITE) == f"{own} [7/1/19]"
