"""Small images drawn once and pasted many times: checkers, dice, cube, rings, overlays.

Pillow's shape drawing is not anti-aliased, so every sprite is drawn at ``SS`` times its size
and scaled down with a Lanczos filter once; rendering a board then only pastes finished RGBA
sprites. All functions are cached per size, and their results are shared between threads:
treat them as read-only.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from engine.position import Side
from renderer import theme
from renderer.assets import text_sprite

SS = 4  # supersampling factor for anti-aliased shapes


def rgba(color: tuple[int, int, int], alpha: int = 255) -> tuple[int, int, int, int]:
    return (color[0], color[1], color[2], alpha)


def downsample(big: Image.Image, size: tuple[int, int]) -> Image.Image:
    return big.resize(size, Image.Resampling.LANCZOS)


def aa_mask(size: tuple[int, int], draw, ss: int = SS) -> Image.Image:
    """An anti-aliased 8-bit mask: ``draw(ImageDraw, ss)`` paints white at ``ss`` x scale."""
    big = Image.new("L", (size[0] * ss, size[1] * ss), 0)
    draw(ImageDraw.Draw(big), ss)
    return downsample(big, size)


def _disc(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def sprite_margin(d: int) -> int:
    return max(2, d // 10)


@lru_cache(maxsize=16)
def checker(side: Side, d: int) -> Image.Image:
    """A checker of diameter ``d`` with a soft shadow; the sprite is ``d + 2*margin`` square
    and centred on the checker. Ivory with a dark edge or charcoal with a silver rim, so each
    colour stands out on light field and dark points alike."""
    m = sprite_margin(d)
    size = d + 2 * m
    big = size * SS
    c = big / 2
    r = d * SS / 2
    shadow = Image.new("L", (big, big), 0)
    sd = ImageDraw.Draw(shadow)
    off = d * SS * 0.035
    _disc(sd, c + off, c + off * 1.4, r, 120)
    shadow = shadow.filter(ImageFilter.GaussianBlur(d * SS * 0.03))
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    img.paste((20, 10, 0, 255), (0, 0), shadow)
    img.putalpha(shadow)
    draw = ImageDraw.Draw(img)
    edge = max(1.2, d * 0.03) * SS
    if side is Side.WHITE:
        _disc(draw, c, c, r, rgba(theme.WHITE_EDGE))
        _disc(draw, c, c, r - edge, (234, 226, 210, 255))
        _disc(draw, c, c, r * 0.74, rgba(theme.WHITE_GROOVE))
        _disc(draw, c, c, r * 0.74 - edge * 0.9, rgba(theme.WHITE_BODY))
        _disc(draw, c - r * 0.12, c - r * 0.14, r * 0.38, (252, 250, 244, 255))
    else:
        _disc(draw, c, c, r, rgba(theme.BLACK_EDGE))
        _disc(draw, c, c, r - edge * 0.7, rgba(theme.BLACK_RIM))
        _disc(draw, c, c, r - edge * 1.9, (30, 30, 34, 255))
        _disc(draw, c, c, r * 0.74, rgba(theme.BLACK_GROOVE))
        _disc(draw, c, c, r * 0.74 - edge * 0.9, rgba(theme.BLACK_BODY))
        _disc(draw, c - r * 0.12, c - r * 0.14, r * 0.38, (54, 54, 60, 255))
    return downsample(img, (size, size))


@lru_cache(maxsize=16)
def ring(d: int, color: tuple[int, int, int], dark: tuple[int, int, int]) -> Image.Image:
    """A thick ring that fits around a checker of diameter ``d`` (same sprite size)."""
    m = sprite_margin(d)
    size = d + 2 * m
    big = size * SS
    c = big / 2
    r_out = (d / 2 + m * 0.8) * SS
    w = max(3.0, d * 0.12) * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    _disc(draw, c, c, r_out, rgba(dark))
    _disc(draw, c, c, r_out - w * 0.18, rgba(color))
    _disc(draw, c, c, r_out - w * 0.82, rgba(dark))
    _disc(draw, c, c, r_out - w, (0, 0, 0, 0))
    return downsample(img, (size, size))


@lru_cache(maxsize=16)
def ghost(
    d: int, color: tuple[int, int, int], dark: tuple[int, int, int], filled: bool
) -> Image.Image:
    """A dashed circle, with a faint fill if ``filled``: the place a checker has just left."""
    m = sprite_margin(d)
    size = d + 2 * m
    big = size * SS
    c = big / 2
    r = d * SS / 2 * 0.9
    w = max(3.0, d * 0.11) * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    if filled:
        _disc(draw, c, c, r, rgba(color, 45))
    dashes = 10
    for i in range(dashes):
        a0 = 360 * i / dashes
        box = (c - r, c - r, c + r, c + r)
        draw.arc(box, a0, a0 + 360 / dashes * 0.6, fill=rgba(dark), width=round(w))
        inner = w * 0.2
        draw.arc(
            (box[0] + inner, box[1] + inner, box[2] - inner, box[3] - inner),
            a0 + 2,
            a0 + 360 / dashes * 0.6 - 2,
            fill=rgba(color),
            width=round(w * 0.6),
        )
    return downsample(img, (size, size))


@lru_cache(maxsize=16)
def triangle_overlay(
    w: int, h: int, top: bool, color: tuple[int, int, int], alpha: int
) -> Image.Image:
    """A point-shaped tint with a solid outline, for highlighting a whole point."""
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    inset = w * SS * 0.04
    if top:
        pts = [(inset, 0), (w * SS - inset, 0), (w * SS / 2, h * SS - inset)]
    else:
        pts = [(inset, h * SS), (w * SS - inset, h * SS), (w * SS / 2, inset)]
    draw.polygon(pts, fill=rgba(color, alpha), outline=rgba(color), width=round(w * 0.07 * SS))
    return downsample(big, (w, h))


_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


@lru_cache(maxsize=64)
def die(value: int, side: Side, size: int, used: bool) -> Image.Image:
    """A die in its owner's colour. A used die is greyed (darker ivory, lighter charcoal), its
    pips faded and crossed out, so it reads as spent on any background and in grey scale."""
    m = max(2, size // 10)
    full = size + 2 * m
    big = full * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    o = m * SS
    s = size * SS
    radius = s * 0.18
    if side is Side.WHITE:
        body, edge, pip = theme.WHITE_BODY, theme.WHITE_EDGE, (30, 24, 20)
        if used:
            body, edge, pip = (196, 186, 168), (120, 108, 92), (150, 140, 124)
    else:
        body, edge, pip = theme.BLACK_BODY, theme.BLACK_RIM, (250, 250, 250)
        if used:
            body, edge, pip = (104, 104, 108), (150, 150, 154), (150, 150, 154)
    if not used:
        shadow_off = s * 0.05
        draw.rounded_rectangle(
            (o + shadow_off, o + shadow_off * 1.4, o + s + shadow_off, o + s + shadow_off * 1.4),
            radius,
            fill=(0, 0, 0, 90),
        )
    draw.rounded_rectangle(
        (o, o, o + s, o + s),
        radius,
        fill=rgba(body),
        outline=rgba(edge),
        width=round(s * 0.045),
    )
    pr = s * 0.095
    for fx, fy in _PIPS[value]:
        _disc(draw, o + fx * s, o + fy * s, pr, rgba(pip))
    if used:
        draw.line(
            (o + s * 0.18, o + s * 0.82, o + s * 0.82, o + s * 0.18),
            fill=rgba(theme.FRAME_DARK),
            width=round(s * 0.09),
        )
    return downsample(img, (full, full))


@lru_cache(maxsize=32)
def cube(value: int, size: int) -> Image.Image:
    """The doubling cube: a light block with its face value (64 while centred at 1)."""
    m = max(2, size // 10)
    full = size + 2 * m
    big = full * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    o, s = m * SS, size * SS
    draw.rounded_rectangle(
        (o + s * 0.05, o + s * 0.08, o + s * 1.05, o + s * 1.08), s * 0.14, fill=(0, 0, 0, 100)
    )
    draw.rounded_rectangle(
        (o, o, o + s, o + s),
        s * 0.14,
        fill=(250, 246, 236, 255),
        outline=(40, 30, 20, 255),
        width=round(s * 0.05),
    )
    img = downsample(img, (full, full))
    label = str(64 if value == 1 else value)
    text = text_sprite(label, round(size * (0.52 if len(label) < 2 else 0.44)))
    x = full // 2 - text.width // 2 - text.left
    y = full // 2 + (-text.top) // 2
    img.paste((30, 24, 20, 255), (x + text.left, y + text.top), text.mask)
    return img


@lru_cache(maxsize=8)
def slab(side: Side, w: int, h: int) -> Image.Image:
    """A borne-off checker seen edge-on in the tray."""
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    radius = h * SS * 0.35
    if side is Side.WHITE:
        fill, edge = theme.WHITE_BODY, theme.WHITE_EDGE
    else:
        fill, edge = theme.BLACK_BODY, theme.BLACK_RIM
    draw.rounded_rectangle(
        (0, 0, w * SS - 1, h * SS - 1),
        radius,
        fill=rgba(fill),
        outline=rgba(edge),
        width=max(SS, round(h * SS * 0.12)),
    )
    return downsample(big, (w, h))


@lru_cache(maxsize=8)
def turn_marker(size: int) -> Image.Image:
    """A play-arrow shown before the name of the player to move."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        draw.polygon([(s * 0.15, s * 0.1), (s * 0.95, s * 0.5), (s * 0.15, s * 0.9)], fill=255)

    mask = aa_mask((size, size), paint)
    img = Image.new("RGBA", (size, size), rgba(theme.TURN, 0))
    img.putalpha(mask)
    return img


@lru_cache(maxsize=8)
def badge(
    w: int, h: int, color: tuple[int, int, int], outline: tuple[int, int, int]
) -> Image.Image:
    """A rounded pill behind a point number or a score."""
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle(
        (0, 0, w * SS - 1, h * SS - 1),
        h * SS / 2,
        fill=rgba(color),
        outline=rgba(outline),
        width=round(h * SS * 0.08),
    )
    return downsample(big, (w, h))


def arrow_mask(
    size: tuple[int, int],
    segments: tuple[tuple[tuple[int, int], tuple[int, int]], ...],
    width: float,
) -> Image.Image:
    """Anti-aliased mask of straight arrows (used by diagrams; not cached, not on a hot path)."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        for (x0, y0), (x1, y1) in segments:
            angle = math.atan2(y1 - y0, x1 - x0)
            head = width * 3.2
            bx = x1 - head * math.cos(angle)
            by = y1 - head * math.sin(angle)
            draw.line((x0 * k, y0 * k, bx * k, by * k), fill=255, width=round(width * k))
            left = (bx - head * 0.6 * math.sin(angle), by + head * 0.6 * math.cos(angle))
            right = (bx + head * 0.6 * math.sin(angle), by - head * 0.6 * math.cos(angle))
            draw.polygon(
                [(x1 * k, y1 * k), (left[0] * k, left[1] * k), (right[0] * k, right[1] * k)],
                fill=255,
            )
            r = width * 0.5 * k
            draw.ellipse((x0 * k - r, y0 * k - r, x0 * k + r, y0 * k + r), fill=255)

    return aa_mask(size, paint, ss=2)


@lru_cache(maxsize=8)
def ring_slab(w: int, h: int, color: tuple[int, int, int]) -> Image.Image:
    """An outline around a slab in the tray: a checker borne off by the last play."""
    pad = max(2, h // 4)
    big = Image.new("RGBA", ((w + 2 * pad) * SS, (h + 2 * pad) * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle(
        (0, 0, big.width - 1, big.height - 1),
        (h / 2 + pad) * SS,
        outline=rgba(color),
        width=round(pad * 0.9 * SS),
    )
    return downsample(big, (w + 2 * pad, h + 2 * pad))


@lru_cache(maxsize=8)
def hit_badge(size: int) -> Image.Image:
    """An orange disc with a cross, pinned to the checker that hit."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        draw.ellipse((0, 0, s - 1, s - 1), fill=255)

    def cross(draw: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        w = round(size * 0.14 * k)
        draw.line((s * 0.3, s * 0.3, s * 0.7, s * 0.7), fill=255, width=w)
        draw.line((s * 0.3, s * 0.7, s * 0.7, s * 0.3), fill=255, width=w)

    img = Image.new("RGBA", (size, size), rgba(theme.LAST_PLAY_DARK, 0))
    img.putalpha(aa_mask((size, size), paint))
    inner = aa_mask(
        (size, size),
        lambda d, k: d.ellipse(
            (size * 0.09 * k, size * 0.09 * k, size * 0.91 * k, size * 0.91 * k), fill=255
        ),
    )
    img.paste(rgba(theme.LAST_PLAY), (0, 0), inner)
    img.paste((255, 255, 255, 255), (0, 0), aa_mask((size, size), cross))
    return img
