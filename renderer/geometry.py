"""Where things are: board points, stacks, bar, trays and text rows, in pixels.

Kept apart from drawing so that layout is one small, testable table (tests sample pixels at
the centres computed here). Everything scales from a 1280 px-wide design.

Points are addressed in *view* numbering: the viewer's own pip numbers (RULES.md C-4). C-10
places them, for both variants alike:

    13 14 15 16 17 18 | bar | 19 20 21 22 23 24 | tray (top player's borne-off)
    12 11 10  9  8  7 | bar |  6  5  4  3  2  1 | tray (viewer's borne-off)

so the viewer moves counter-clockwise from the top right to the bottom right, and in long
nardy the viewer's head (24) is top-right and the opponent's (the viewer's 12) bottom-left.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

BASE_WIDTH = 1280
STACK_VISIBLE = 5  # checkers drawn per point; a taller stack shows its count on the last one

# The design at 1280 px (all other widths scale these and round).
_STRIP = 66  # info strip above and below the board (names, pips, score)
_RIM = 54  # wooden rim above/below the field carrying the point numbers
_CUBE_COL = 80  # left frame column, holds the doubling cube
_POINT_W = 84
_CHECKER = 80
_PAD = 4  # field edge to the first checker
_MID = 84  # band between the tips of opposite points (dice live here)
_BAR_W = 84  # wide enough for a checker: hit checkers wait on the bar
_TRAY_MARGIN = 14


@dataclass(frozen=True, slots=True)
class Rect:
    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def cx(self) -> int:
        return (self.x0 + self.x1) // 2

    @property
    def cy(self) -> int:
        return (self.y0 + self.y1) // 2

    @property
    def w(self) -> int:
        return self.x1 - self.x0

    @property
    def h(self) -> int:
        return self.y1 - self.y0

    def box(self) -> tuple[int, int, int, int]:
        return (self.x0, self.y0, self.x1, self.y1)


@dataclass(frozen=True, slots=True)
class Geometry:
    """Pixel layout for one image width. Obtain it with :func:`geometry` (cached)."""

    width: int
    height: int
    scale: float
    checker: int  # checker diameter
    point_w: int
    pad: int
    top_strip: Rect
    bottom_strip: Rect
    board: Rect  # the wooden board, frame included
    field_left: Rect  # playing field, left half
    field_right: Rect
    bar: Rect
    top_rim: Rect
    bottom_rim: Rect
    cube_col: Rect
    tray_top: Rect  # top player's borne-off checkers
    tray_bottom: Rect  # viewer's borne-off checkers
    mid_y: int
    tri_len: int  # triangle height
    dice: int  # die size

    def s(self, value: float) -> int:
        """A design length (at 1280 px) scaled to this width."""
        return round(value * self.scale)

    @property
    def field_top(self) -> int:
        return self.field_left.y0

    @property
    def field_bottom(self) -> int:
        return self.field_left.y1

    @property
    def mid_band(self) -> Rect:
        """The band across the field between the two halves' stacks (dice live here): no
        checker on a point reaches into it."""
        reach = self.pad + STACK_VISIBLE * self.checker
        return Rect(
            self.field_left.x0,
            self.field_top + reach,
            self.field_right.x1,
            self.field_bottom - reach,
        )

    def column(self, view_point: int) -> tuple[int, bool]:
        """(left x of the point's column, True if the point hangs from the top rim)."""
        if not 1 <= view_point <= 24:
            raise ValueError(f"view point must be 1..24, got {view_point}")
        col = 12 - view_point if view_point <= 12 else view_point - 13
        top = view_point >= 13
        half = self.field_left if col < 6 else self.field_right
        return half.x0 + (col % 6) * self.point_w, top

    def point_rect(self, view_point: int) -> Rect:
        """The point's triangle area (its column, from the rim to the triangle's tip)."""
        x, top = self.column(view_point)
        if top:
            return Rect(x, self.field_top, x + self.point_w, self.field_top + self.tri_len)
        return Rect(x, self.field_bottom - self.tri_len, x + self.point_w, self.field_bottom)

    def slot_center(self, view_point: int, index: int) -> tuple[int, int]:
        """Centre of the ``index``-th checker (0 = at the rim) on ``view_point``."""
        x, top = self.column(view_point)
        cx = x + self.point_w // 2
        offset = self.pad + self.checker // 2 + index * self.checker
        return cx, (self.field_top + offset) if top else (self.field_bottom - offset)

    def number_center(self, view_point: int) -> tuple[int, int]:
        """Centre of the point's number on the rim next to its base."""
        x, top = self.column(view_point)
        rim = self.top_rim if top else self.bottom_rim
        return x + self.point_w // 2, rim.cy

    def bar_slot_center(self, bottom_player: bool, index: int) -> tuple[int, int]:
        """Centre of the ``index``-th checker on the bar (0 = nearest the middle).

        Each player's hit checkers wait on the bar in that player's own half (bottom player
        below the middle, top player above), so "mine" and "theirs" never mix.
        """
        step = self.checker
        first = self.s(_MID / 2) + self.checker // 2
        dy = first + index * step
        return self.bar.cx, (self.mid_y + dy) if bottom_player else (self.mid_y - dy)

    def bar_half(self, bottom_player: bool) -> Rect:
        if bottom_player:
            return Rect(self.bar.x0, self.mid_y, self.bar.x1, self.field_bottom)
        return Rect(self.bar.x0, self.field_top, self.bar.x1, self.mid_y)

    def tray(self, bottom_player: bool) -> Rect:
        return self.tray_bottom if bottom_player else self.tray_top

    def slab_pitch(self) -> int:
        """Vertical distance between borne-off checkers: 15 of them fill ~80% of a tray."""
        return (self.tray_top.h - self.s(8)) * 4 // (5 * 15)

    def slab_size(self) -> tuple[int, int]:
        """(width, height) of a borne-off checker lying edge-on in a tray."""
        return self.tray_top.w - self.s(12), self.slab_pitch() - max(1, self.s(3))

    def slab_center(self, bottom_player: bool, index: int) -> tuple[int, int]:
        """Centre of the ``index``-th borne-off checker, stacked from the tray's outer end."""
        tray = self.tray(bottom_player)
        half = self.slab_size()[1] // 2
        offset = self.s(4) + half + index * self.slab_pitch()
        return tray.cx, (tray.y1 - offset) if bottom_player else (tray.y0 + offset)

    def dice_centers(self, count: int, bottom_player_moves: bool) -> list[tuple[int, int]]:
        """Dice sit in the middle band of the mover's right-hand half, as on a real board:
        the bottom player's right is the board's right, the top player's is its left."""
        half = self.field_right if bottom_player_moves else self.field_left
        gap = self.s(14)
        total = count * self.dice + (count - 1) * gap
        x = half.cx - total // 2 + self.dice // 2
        return [(x + i * (self.dice + gap), self.mid_y) for i in range(count)]

    def cube_center(self, owner_bottom: bool | None) -> tuple[int, int]:
        """The cube sits in the left frame: in the middle while centred, else at its owner's end."""
        cx = self.cube_col.cx
        if owner_bottom is None:
            return cx, self.mid_y
        margin = self.s(60)
        return cx, (self.field_bottom - margin) if owner_bottom else (self.field_top + margin)


@lru_cache(maxsize=8)
def geometry(width: int = BASE_WIDTH) -> Geometry:
    """The layout for an image ``width`` px wide (cached: geometry is pure arithmetic)."""
    k = width / BASE_WIDTH

    def s(v: float) -> int:
        return round(v * k)

    point_w, checker, pad, mid = s(_POINT_W), s(_CHECKER), s(_PAD), s(_MID)
    half_h = pad + STACK_VISIBLE * checker
    strip, rim = s(_STRIP), s(_RIM)
    board_y0 = strip
    field_y0 = board_y0 + rim
    field_y1 = field_y0 + 2 * half_h + mid
    board_y1 = field_y1 + rim
    height = board_y1 + strip
    left_x0 = s(_CUBE_COL)
    left_x1 = left_x0 + 6 * point_w
    bar_x1 = left_x1 + s(_BAR_W)
    right_x1 = bar_x1 + 6 * point_w
    mid_y = field_y0 + half_h + mid // 2
    tray_margin = s(_TRAY_MARGIN)
    tray_x0, tray_x1 = right_x1 + tray_margin, width - tray_margin
    return Geometry(
        width=width,
        height=height,
        scale=k,
        checker=checker,
        point_w=point_w,
        pad=pad,
        top_strip=Rect(0, 0, width, strip),
        bottom_strip=Rect(0, board_y1, width, height),
        board=Rect(0, board_y0, width, board_y1),
        field_left=Rect(left_x0, field_y0, left_x1, field_y1),
        field_right=Rect(bar_x1, field_y0, right_x1, field_y1),
        bar=Rect(left_x1, field_y0, bar_x1, field_y1),
        top_rim=Rect(left_x0, board_y0, right_x1, field_y0),
        bottom_rim=Rect(left_x0, field_y1, right_x1, board_y1),
        cube_col=Rect(0, field_y0, left_x0, field_y1),
        tray_top=Rect(tray_x0, field_y0, tray_x1, mid_y - s(6)),
        tray_bottom=Rect(tray_x0, mid_y + s(6), tray_x1, field_y1),
        mid_y=mid_y,
        tri_len=round(checker * (STACK_VISIBLE - 0.35)),
        dice=s(70),
    )
