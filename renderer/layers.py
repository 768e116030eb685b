"""The static layers: the empty wooden board, and the board with point numbers.

They never change during a game, so each is drawn once per (width, numbering) and cached; a
render copies the cached image and paints only what changes (checkers, dice, markers, text).
"""

from __future__ import annotations

import random
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.variants import get_variant
from renderer import theme
from renderer.assets import cap_height, text_sprite
from renderer.geometry import Geometry, Rect, geometry
from renderer.sprites import SS, aa_mask

OWN_NUMBERS = "own"


def number_map(name: str) -> tuple[int, ...]:
    """The number printed at each view point: the viewer's own numbers (``"own"``), or the
    opponent's under the mapping of the variant called ``name`` (C-7, C-8), taken from the
    engine so there is one source for the mapping."""
    if name == OWN_NUMBERS:
        return tuple(range(26))
    return get_variant(name).point_map


def wood(
    size: tuple[int, int],
    base: theme.RGB,
    grain: theme.RGB,
    seed: int,
    *,
    vertical: bool = False,
    strength: int = 150,
    pitch: int = 8,
) -> Image.Image:
    """A wood-grain texture: random streaks about ``pitch`` px apart, stretched along the
    grain and blended between two colours. Seeded, so the board is identical on every run.
    Streaks are kept coarse on purpose: fine grain costs JPEG bytes and Telegram's own
    recompression would smear it anyway."""
    w, h = size
    rng = random.Random(seed)
    across = w if vertical else h
    masks = []
    for cells_along, cell in ((5, pitch), (3, pitch * 4)):
        cells_across = across // cell + 2
        dims = (cells_across, cells_along) if vertical else (cells_along, cells_across)
        noise = Image.new("L", dims)
        noise.putdata([rng.randrange(256) for _ in range(dims[0] * dims[1])])
        masks.append(noise.resize((w, h), Image.Resampling.BICUBIC))
    mask = Image.blend(masks[0], masks[1], 0.4)
    mask = mask.point(lambda v: max(0, min(255, (v - 128) * 3 + 128)) * strength // 255)
    img = Image.new("RGB", size, base)
    img.paste(grain, (0, 0), mask)
    return img


def _bevel(img: Image.Image, rect: Rect, width: int, light: theme.RGB, dark: theme.RGB) -> None:
    """A thin sunken edge around ``rect``: dark above/left, light below/right."""
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = rect.box()
    draw.rectangle((x0 - width, y0 - width, x1 + width - 1, y0 - 1), fill=dark)
    draw.rectangle((x0 - width, y0, x0 - 1, y1 + width - 1), fill=dark)
    draw.rectangle((x0, y1, x1 + width - 1, y1 + width - 1), fill=light)
    draw.rectangle((x1, y0, x1 + width - 1, y1 - 1), fill=light)


@lru_cache(maxsize=4)
def base_board(width: int) -> Image.Image:
    """The empty board without numbers: frame, field, 24 points, bar, trays."""
    g = geometry(width)
    img = wood((g.width, g.height), theme.FRAME, theme.FRAME_LIGHT, seed=7, pitch=9)
    # the side columns and the bar are separate planks with their grain running vertically
    for i, column in enumerate(
        (
            Rect(0, g.board.y0, g.field_left.x0, g.board.y1),
            g.bar,
            Rect(g.field_right.x1, g.board.y0, g.width, g.board.y1),
        )
    ):
        img.paste(
            wood(
                (column.w, column.h),
                theme.FRAME,
                theme.FRAME_LIGHT,
                seed=20 + i,
                vertical=True,
                pitch=9,
            ),
            (column.x0, column.y0),
        )
    # darker strips for the names, so text sits on a calm background
    strip_shade = Image.new("RGB", (g.width, g.top_strip.h), theme.FRAME_DARK)
    for strip in (g.top_strip, g.bottom_strip):
        img.paste(Image.blend(img.crop(strip.box()), strip_shade, 0.55), (strip.x0, strip.y0))
    for half in (g.field_left, g.field_right):
        img.paste(
            wood(
                (half.w, half.h),
                theme.FIELD,
                theme.FIELD_GRAIN,
                seed=half.x0,
                strength=60,
                pitch=16,
            ),
            (half.x0, half.y0),
        )
        _bevel(img, half, g.s(4), theme.FRAME_LIGHT, theme.FRAME_DARK)

    field_box = Rect(g.field_left.x0, g.field_top, g.field_right.x1, g.field_bottom)
    size = (field_box.w, field_box.h)

    def points(parity: int):
        def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
            inset = g.point_w * 0.04
            for v in range(1, 25):
                if v % 2 != parity:
                    continue
                r = g.point_rect(v)
                x0, x1 = r.x0 - field_box.x0, r.x1 - field_box.x0
                cx = (x0 + x1) / 2
                y0, y1 = r.y0 - field_box.y0, r.y1 - field_box.y0
                if r.y0 == g.field_top:
                    pts = [(x0 + inset, y0), (x1 - inset, y0), (cx, y1)]
                else:
                    pts = [(x0 + inset, y1), (x1 - inset, y1), (cx, y0)]
                draw.polygon([(x * k, y * k) for x, y in pts], fill=255)

        return paint

    for parity, color in ((0, theme.POINT_RED), (1, theme.POINT_DARK)):
        mask = aa_mask(size, points(parity), ss=SS)
        img.paste(color, (field_box.x0, field_box.y0), mask)
    for tray in (g.tray_top, g.tray_bottom):
        ImageDraw.Draw(img).rectangle(tray.box(), fill=theme.FRAME_DARK)
        _bevel(img, tray, g.s(3), theme.FRAME_LIGHT, (40, 22, 10))
    return img


def number_size(g: Geometry) -> int:
    return g.s(34)


def paste_text(
    img: Image.Image,
    text: str,
    size: int,
    color: tuple[int, ...],
    x: int,
    y: int,
    anchor: str = "mm",
) -> int:
    """Paste ``text`` with its ink centred (``mm``), left-aligned (``lm``) or right-aligned
    (``rm``) at ``x``, vertically centred on the cap height at ``y``. Returns the ink width."""
    sprite = text_sprite(text, size)
    baseline = y + cap_height(size) // 2
    if anchor == "mm":
        pen = x - sprite.width // 2 - sprite.left
    elif anchor == "rm":
        pen = x - sprite.width - sprite.left
    else:
        pen = x - sprite.left
    img.paste(color, (pen + sprite.left, baseline + sprite.top), sprite.mask)
    return sprite.width


@lru_cache(maxsize=12)
def numbered_board(width: int, numbers: str) -> Image.Image:
    """The board with point numbers printed in one player's numbering (see number_map)."""
    g = geometry(width)
    img = base_board(width).copy()
    mapping = number_map(numbers)
    size = number_size(g)
    for v in range(1, 25):
        x, y = g.number_center(v)
        paste_text(img, str(mapping[v]), size, theme.TEXT_ON_FRAME, x, y)
    return img
