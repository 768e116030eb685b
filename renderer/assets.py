"""The packaged font: located, validated and loaded once, never looked up on the machine.

Board images must look the same on every host, so the renderer ships its own open-licence font
(DejaVu Sans Bold, with Latin, Cyrillic, Greek, Arabic and Hebrew; see
``assets/LICENSE-DejaVu.txt``) and never falls back to system fonts. A missing or damaged asset
is a deployment error: :func:`check_assets` raises :class:`AssetError` with the path, and the
bot should call it at start-up so the failure is loud and early rather than in the first game.

Names come from Telegram users and may contain emoji or scripts the font lacks. FreeType would
draw those as empty "tofu" boxes, so :func:`clean_text` removes every character the font cannot
draw, using the font's own character map (read by the small ``cmap`` reader below, because
Pillow has no "does this font have a glyph" call).
"""

from __future__ import annotations

import struct
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ASSETS_DIR = Path(__file__).resolve().parent / "assets"
FONT_FILE = "DejaVuSans-Bold.ttf"
LICENSE_FILE = "LICENSE-DejaVu.txt"

# FreeType faces are not safe to use from two threads at once, and the bot renders from a
# thread pool (asyncio.to_thread), so every FreeType call goes through this lock. Text sprites
# are cached, so the lock is taken only on a cache miss.
_FREETYPE_LOCK = threading.Lock()

# Characters a player name must be able to show; the font is rejected without them.
_REQUIRED = "0123456789ABCabcАБВабвЁё×…·"


class AssetError(RuntimeError):
    """A packaged asset is missing or unusable (a broken installation, not a user error)."""


@dataclass(frozen=True, slots=True)
class FontInfo:
    """The validated font: where it is and which code points it can draw."""

    path: Path
    codepoints: frozenset[int]


@lru_cache(maxsize=1)
def check_assets() -> FontInfo:
    """Locate and validate the packaged font; raise :class:`AssetError` if it is unusable.

    Cached, so calling it per render costs nothing after the first call. The bot should call
    it once at start-up to fail before serving anyone.
    """
    path = ASSETS_DIR / FONT_FILE
    if not path.is_file():
        raise AssetError(
            f"renderer font missing: {path} (the package was installed without its assets; "
            f'add renderer = ["assets/*"] to [tool.setuptools.package-data])'
        )
    if not (ASSETS_DIR / LICENSE_FILE).is_file():
        raise AssetError(f"renderer font licence missing: {ASSETS_DIR / LICENSE_FILE}")
    try:
        data = path.read_bytes()
        codepoints = read_cmap(data)
        with _FREETYPE_LOCK:
            ImageFont.truetype(str(path), 12)
    except (OSError, ValueError, struct.error) as exc:
        raise AssetError(f"renderer font unreadable: {path}: {exc}") from exc
    missing = [c for c in _REQUIRED if ord(c) not in codepoints]
    if missing:
        raise AssetError(f"renderer font {path} lacks required characters {''.join(missing)!r}")
    return FontInfo(path, codepoints)


def read_cmap(data: bytes) -> frozenset[int]:
    """The Unicode code points a TrueType/OpenType font maps to a real glyph.

    Reads the ``cmap`` table's Windows Unicode subtable (format 12 if present, else format 4),
    which is all a modern TTF needs. Raises ValueError for anything else.
    """
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap_offset = None
    for i in range(num_tables):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap_offset = offset
            break
    if cmap_offset is None:
        raise ValueError("font has no cmap table")
    _version, count = struct.unpack_from(">HH", data, cmap_offset)
    subtables: dict[tuple[int, int], int] = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap_offset + 4 + 8 * i)
        subtables[(platform, encoding)] = cmap_offset + offset
    for key in ((3, 10), (0, 4), (3, 1), (0, 3)):
        if key in subtables:
            start = subtables[key]
            fmt = struct.unpack_from(">H", data, start)[0]
            if fmt == 12:
                return _cmap_format12(data, start)
            if fmt == 4:
                return _cmap_format4(data, start)
    raise ValueError("font has no Unicode cmap subtable of format 4 or 12")


def _cmap_format4(data: bytes, start: int) -> frozenset[int]:
    seg_count = struct.unpack_from(">H", data, start + 6)[0] // 2
    ends_at = start + 14
    starts_at = ends_at + 2 * seg_count + 2
    deltas_at = starts_at + 2 * seg_count
    ranges_at = deltas_at + 2 * seg_count
    ends = struct.unpack_from(f">{seg_count}H", data, ends_at)
    starts = struct.unpack_from(f">{seg_count}H", data, starts_at)
    deltas = struct.unpack_from(f">{seg_count}h", data, deltas_at)
    range_offsets = struct.unpack_from(f">{seg_count}H", data, ranges_at)
    points: set[int] = set()
    for i in range(seg_count):
        lo, hi, delta, range_offset = starts[i], ends[i], deltas[i], range_offsets[i]
        for code in range(lo, min(hi, 0xFFFE) + 1):
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                at = ranges_at + 2 * i + range_offset + 2 * (code - lo)
                glyph = struct.unpack_from(">H", data, at)[0]
                if glyph:
                    glyph = (glyph + delta) & 0xFFFF
            if glyph:
                points.add(code)
    return frozenset(points)


def _cmap_format12(data: bytes, start: int) -> frozenset[int]:
    groups = struct.unpack_from(">I", data, start + 12)[0]
    points: set[int] = set()
    for i in range(groups):
        lo, hi, first_glyph = struct.unpack_from(">III", data, start + 16 + 12 * i)
        points.update(range(lo + (1 if first_glyph == 0 else 0), hi + 1))
    return frozenset(points)


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The packaged font at ``size`` pixels (cached; use it under ``_FREETYPE_LOCK``)."""
    info = check_assets()
    with _FREETYPE_LOCK:  # Pillow shares one FreeType library between all faces
        return ImageFont.truetype(str(info.path), size)


def clean_text(text: str) -> str:
    """``text`` with every character the font cannot draw removed, whitespace collapsed.

    NFC first, so "e + combining acute" becomes the precomposed letter the font has. Emoji,
    their variation selectors and joiners, and control characters disappear instead of being
    drawn as boxes. The result may be empty; callers fall back to a default label.
    """
    supported = check_assets().codepoints
    kept = []
    for char in unicodedata.normalize("NFC", text):
        if char.isspace():
            kept.append(" ")
        elif unicodedata.category(char)[0] == "C":
            continue
        elif ord(char) in supported:
            kept.append(char)
    return " ".join("".join(kept).split())


@dataclass(frozen=True, slots=True)
class TextSprite:
    """Rendered text as an 8-bit coverage mask, positioned relative to its baseline origin.

    ``left``/``top`` are the mask's offset from the pen position on the baseline; ``width`` is
    the ink width. Paste a colour through the mask at ``(x + left, baseline + top)``.
    """

    mask: Image.Image
    left: int
    top: int
    width: int


@lru_cache(maxsize=1024)
def text_sprite(text: str, size: int) -> TextSprite:
    """``text`` rendered once at ``size`` px; cached because labels and counts repeat a lot.

    The returned mask is shared between callers and threads: never modify it.
    """
    face = font(size)
    with _FREETYPE_LOCK:
        left, top, right, bottom = face.getbbox(text, anchor="ls")
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor="ls")
    return TextSprite(mask, left, top, right - left)


@lru_cache(maxsize=64)
def cap_height(size: int) -> int:
    """Height of capital letters at ``size`` px, used to centre text lines vertically."""
    face = font(size)
    with _FREETYPE_LOCK:
        return -face.getbbox("H", anchor="ls")[1]


def text_width(text: str, size: int) -> int:
    """Ink width of ``text`` at ``size`` px, without rendering it."""
    face = font(size)
    with _FREETYPE_LOCK:
        left, _top, right, _bottom = face.getbbox(text, anchor="ls")
    return right - left


@lru_cache(maxsize=1024)
def fit_text(text: str, size: int, max_width: int) -> str:
    """``text`` shortened with an ellipsis so that it is at most ``max_width`` px wide.

    Cached: every picture fits its two player names (and a title) again, and asking the
    font for the width of a name was ~5 % of a picker picture's drawing."""
    if text_width(text, size) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + "…", size) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"
