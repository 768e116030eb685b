"""Picker pictures from a kept base (``renderer.board.Bases``): the same pictures as drawn
whole, up to the anti-aliased rims of what covers a highlighted point, over the taps of real
turns of both variants (the picker as opened, then points picked and Back)."""

from __future__ import annotations

import io
import random
import threading

import pytest
from PIL import Image, ImageChops

from engine import Game, Phase
from renderer import BoardOptions, render_board
from renderer.board import Bases

#: Share of a picture's pixels allowed to differ by more than ``TOLERANCE`` of 255.
SHARE = 0.005
TOLERANCE = 24


def taps(variant: str, seed: int, turns: int):
    """(position, options) of a picker's pictures over ``turns`` random turns, the last play
    marked: the points that can move highlighted, then up to three points picked, Back."""
    rng = random.Random(seed)
    game = Game(variant)
    game.start_without_lot(0, 0)
    last = None
    for _ in range(turns):
        if game.phase is Phase.ROLL:
            game.roll(rng)
        if game.phase is not Phase.MOVE:
            return
        steps = game.legal_steps()
        sources = frozenset(s.src for s in steps)
        picks = [frozenset({p} | {s.dst for s in steps if s.src == p}) for p in sorted(sources)]
        for highlight in [sources, *picks[:3], sources]:
            yield (
                game.pos,
                BoardOptions(
                    viewer=game.side_to_move,
                    dice=game.dice,
                    highlight_points=highlight,
                    last_play=last,
                    last_play_side=None if last is None else game.side_to_move.other,
                    width=640,
                    image_format="png",
                ),
            )
        play = rng.choice(game.turn.legal_plays)
        game.play(play)
        last = tuple(play.steps) or None


def differing_share(a: bytes, b: bytes) -> float:
    one, two = (Image.open(io.BytesIO(x)).convert("L") for x in (a, b))
    histogram = ImageChops.difference(one, two).histogram()
    return sum(histogram[TOLERANCE + 1 :]) / (one.width * one.height)


@pytest.mark.parametrize(("variant", "seed"), [("long", 1), ("short", 2)])
def test_pictures_from_a_base_match_whole_drawings(variant: str, seed: int) -> None:
    bases = Bases()
    compared = 0
    for position, options in taps(variant, seed, 30):
        whole = render_board(position, options)
        kept = bases.render(position, options)
        assert differing_share(whole, kept) <= SHARE
        compared += 1
    assert compared > 100


def test_the_first_picture_of_a_position_is_the_whole_drawing() -> None:
    bases = Bases()
    position, options = next(taps("long", 3, 1))
    assert bases.render(position, options) == render_board(position, options)


def test_a_base_serves_its_position_only_and_stays_bounded() -> None:
    bases = Bases(size=2)
    seen = list(taps("short", 4, 6))
    for position, options in seen:
        bases.render(position, options)
    assert len(bases._bases) <= 2 and len(bases._firsts) <= 2
    for position, options in seen[-3:]:  # still right after evictions
        share = differing_share(bases.render(position, options), render_board(position, options))
        assert share <= SHARE


def test_threads_sharing_one_cache_get_right_pictures() -> None:
    bases = Bases(size=3)
    work = list(taps("long", 5, 4))
    wrong: list[int] = []

    def draw(offset: int) -> None:
        for i, (position, options) in enumerate(work[offset:] + work[:offset]):
            if (
                differing_share(bases.render(position, options), render_board(position, options))
                > SHARE
            ):
                wrong.append(i)

    threads = [threading.Thread(target=draw, args=(k,)) for k in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []
