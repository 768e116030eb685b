"""The review's mistake picture: the played play in solid orange, the best one dashed blue,
over the board before the move."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from engine import Side, Turn, get_variant
from renderer import BoardOptions, RenderOptionsError, render_board, render_mistake, theme


def _pixels(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=np.int16)


def _near(img: np.ndarray, color: tuple[int, int, int], tol: int = 12) -> np.ndarray:
    return np.abs(img - np.asarray(color)).max(axis=2) <= tol


START = get_variant("short").start_position()
OPTIONS = BoardOptions(viewer=Side.WHITE, dice=(6, 4), image_format="png", width=640)


def _play(text: str):
    return Turn(START, (6, 4)).apply_text(text).finish()


def test_played_is_orange_best_is_blue_and_the_board_is_the_one_before() -> None:
    """Start position, 6-4: played 24/18 13/9, best 24/14 (one checker, two steps)."""
    played, best = _play("24/18 13/9"), _play("24/14")
    plain = _pixels(render_board(START, OPTIONS))
    both = _pixels(render_mistake(START, played.steps, best.steps, OPTIONS))
    only_played = _pixels(render_mistake(START, played.steps, (), OPTIONS))
    changed = np.abs(both - plain).max(axis=2) > 30
    assert 0.005 < changed.mean() < 0.2  # arrows, not a different board
    assert _near(only_played, theme.LAST_PLAY).sum() > 500
    assert _near(only_played, theme.SELECT).sum() == _near(plain, theme.SELECT).sum()
    assert _near(both, theme.SELECT).sum() > _near(plain, theme.SELECT).sum() + 300
    # the 13/9 arrow is the played play's only one in the left half, and it is orange
    left = both[:, : both.shape[1] // 2]
    assert _near(left, theme.LAST_PLAY).sum() > 200


def test_a_mistake_picture_refuses_a_last_play_option() -> None:
    played = _play("24/18 13/9")
    with pytest.raises(RenderOptionsError):
        render_mistake(START, played.steps, (), BoardOptions(last_play=played.steps))
