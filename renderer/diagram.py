"""Small board figures for rule explanations: the same drawing without the player strips,
plus arrows for the steps being explained."""

from __future__ import annotations

import math
from collections.abc import Iterable

from PIL import ImageFilter

from engine.position import BAR, OFF, Position, Side
from engine.variants import get_variant
from renderer import theme
from renderer.board import BAR_VISIBLE, board_image, encode
from renderer.geometry import STACK_VISIBLE, Geometry, geometry
from renderer.options import BoardOptions, ImageFormat, RenderOptionsError
from renderer.sprites import arrow_mask

DIAGRAM_WIDTH = 640


def render_diagram(
    position: Position,
    *,
    highlight_points: Iterable[int] = (),
    arrows: Iterable[tuple[int, int]] = (),
    viewer: Side = Side.WHITE,
    numbering: Side | None = None,
    width: int = DIAGRAM_WIDTH,
    image_format: ImageFormat = "png",
) -> bytes:
    """A compact board for the rules help: no names or pips, optional blue point highlights
    and orange arrows.

    ``highlight_points`` and ``arrows`` (pairs ``(src, dst)``) are in ``numbering``'s numbers
    (default: the viewer's), with 25 = that player's bar and 0 = that player's tray, exactly as
    moves are typed. An arrow starts at the top checker of ``src`` and ends where a checker
    would land on ``dst``. PNG by default: figures are small and sent once, so lossless pixels
    are affordable.
    """
    options = BoardOptions(
        viewer=viewer,
        numbering=numbering,
        highlight_points=frozenset(highlight_points),
        show_pips=False,
        width=width,
        image_format=image_format,
    )
    img = board_image(position, options)
    g = geometry(width)
    side = options.numbering_side
    segments = []
    for src, dst in arrows:
        if not (0 <= dst < src <= 25):
            raise RenderOptionsError(f"arrow {src}->{dst} must go from 25..1 down to 24..0")
        start = _anchor(g, position, viewer, side, src, leaving=True)
        end = _anchor(g, position, viewer, side, dst, leaving=False)
        # start at the edge of the moving checker, so a stack count stays readable
        segments.append((_towards(start, end, g.checker * 0.42), end))
    if segments:
        core = arrow_mask(img.size, tuple(segments), g.checker * 0.13)
        outline = core.filter(ImageFilter.MaxFilter(2 * max(1, g.s(3)) + 1))
        img.paste(theme.LAST_PLAY_DARK, (0, 0), outline)
        img.paste(theme.LAST_PLAY, (0, 0), core)
    return encode(img.crop((0, g.board.y0, g.width, g.board.y1)), image_format)


def _towards(a: tuple[int, int], b: tuple[int, int], distance: float) -> tuple[int, int]:
    """The point ``distance`` px from ``a`` in the direction of ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return round(a[0] + dx * distance / length), round(a[1] + dy * distance / length)


def _anchor(
    g: Geometry, position: Position, viewer: Side, side: Side, point: int, leaving: bool
) -> tuple[int, int]:
    """Where an arrow starts (the top checker) or ends (the next free slot), in pixels."""
    variant = get_variant(position.variant)
    bottom = side is viewer
    count = position.board(side)[point]
    if point == OFF:
        return g.slab_center(bottom, count)
    if point == BAR:
        return g.bar_slot_center(bottom, min(max(count - 1, 0), BAR_VISIBLE - 1))
    other = variant.to_opponent_point(point)
    view_point = point if bottom else other
    on_point = count + position.board(side.other)[other]
    index = max(on_point - 1, 0) if leaving else on_point
    return g.slot_center(view_point, min(index, STACK_VISIBLE - 1))
