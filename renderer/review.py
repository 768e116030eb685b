"""A mistake's picture for the game review: the board before the move, the play made drawn
as solid orange arrows and the best play as dashed blue ones.

Orange and blue are the theme's pair that stays distinct under every common colour blindness,
and the two plays also differ in shape (solid against dashed, the best one drawn a little
aside so a step both plays share shows twice), so the picture reads in grey scale too.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFilter

from engine.position import Position, Side
from engine.step import Step
from renderer import theme
from renderer.board import board_image, encode
from renderer.diagram import _anchor, _towards
from renderer.geometry import Geometry, geometry
from renderer.options import BoardOptions, RenderOptionsError
from renderer.sprites import arrow_mask

Segment = tuple[tuple[int, int], tuple[int, int]]


def render_mistake(
    position: Position,
    played: tuple[Step, ...],
    best: tuple[Step, ...],
    options: BoardOptions | None = None,
) -> bytes:
    """The board ``position`` (the mover to move, before the play) with ``played`` and
    ``best`` (steps in the mover's numbering) drawn over it. ``options`` are the board's
    (viewer, dice, names, labels, size, format); its ``last_play`` must be empty, since the
    arrows take its place."""
    opts = options or BoardOptions(viewer=position.turn, numbering=position.turn)
    if opts.last_play:
        raise RenderOptionsError("a mistake's picture draws its plays as arrows, not last_play")
    img = board_image(position, opts)
    g = geometry(opts.width)
    side = position.turn
    mine = _segments(g, position, opts.viewer, side, played, offset=0.0)
    theirs = _segments(g, position, opts.viewer, side, best, offset=g.checker * 0.16)
    width = g.checker * 0.13
    if mine:
        _paint(
            img, arrow_mask(img.size, tuple(mine), width), g, theme.LAST_PLAY_DARK, theme.LAST_PLAY
        )
    if theirs:
        mask = dashed_arrow_mask(img.size, tuple(theirs), width, dash=g.checker * 0.32)
        _paint(img, mask, g, theme.SELECT_DARK, theme.SELECT)
    return encode(img, opts.image_format, optimize=opts.optimize_jpeg)


def _paint(
    img: Image.Image,
    core: Image.Image,
    g: Geometry,
    dark: tuple[int, int, int],
    light: tuple[int, int, int],
) -> None:
    outline = core.filter(ImageFilter.MaxFilter(2 * max(1, g.s(3)) + 1))
    img.paste(dark, (0, 0), outline)
    img.paste(light, (0, 0), core)


def _segments(
    g: Geometry,
    position: Position,
    viewer: Side,
    side: Side,
    steps: tuple[Step, ...],
    offset: float,
) -> list[Segment]:
    """One arrow per step, from the moving checker to where it lands, shifted ``offset`` px
    to the arrow's left."""
    out: list[Segment] = []
    for step in steps:
        if not 0 <= step.dst < step.src <= 25:
            raise RenderOptionsError(f"step {step} does not move 25..1 -> 24..0")
        start = _anchor(g, position, viewer, side, step.src, leaving=True)
        end = _anchor(g, position, viewer, side, step.dst, leaving=False)
        start = _towards(start, end, g.checker * 0.42)
        if offset:
            dx, dy = end[0] - start[0], end[1] - start[1]
            length = math.hypot(dx, dy) or 1.0
            nx, ny = -dy / length * offset, dx / length * offset
            start = (round(start[0] + nx), round(start[1] + ny))
            end = (round(end[0] + nx), round(end[1] + ny))
        out.append((start, end))
    return out


def dashed_arrow_mask(
    size: tuple[int, int], segments: tuple[Segment, ...], width: float, dash: float
) -> Image.Image:
    """A mask of dashed arrows (dash and gap of ``dash`` px) with solid heads."""
    k = 2
    big = Image.new("L", (size[0] * k, size[1] * k), 0)
    draw = ImageDraw.Draw(big)
    for (x0, y0), (x1, y1) in segments:
        angle = math.atan2(y1 - y0, x1 - x0)
        head = width * 3.2
        bx, by = x1 - head * math.cos(angle), y1 - head * math.sin(angle)
        length = math.hypot(bx - x0, by - y0)
        t = 0.0
        while t < length:
            t1 = min(t + dash, length)
            a = (x0 + math.cos(angle) * t, y0 + math.sin(angle) * t)
            b = (x0 + math.cos(angle) * t1, y0 + math.sin(angle) * t1)
            draw.line((a[0] * k, a[1] * k, b[0] * k, b[1] * k), fill=255, width=round(width * k))
            t = t1 + dash * 0.7
        left = (bx - head * 0.6 * math.sin(angle), by + head * 0.6 * math.cos(angle))
        right = (bx + head * 0.6 * math.sin(angle), by - head * 0.6 * math.cos(angle))
        draw.polygon(
            [(x1 * k, y1 * k), (left[0] * k, left[1] * k), (right[0] * k, right[1] * k)],
            fill=255,
        )
    return big.resize(size, Image.Resampling.LANCZOS)
