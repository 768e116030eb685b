"""The board picture: a position and options in, a Pillow image or encoded bytes out.

Drawing order (each layer paints over the previous one): cached board with numbers ->
point highlights -> checkers, bar, trays -> last-play markers -> dice and cube -> number
badges -> player strips -> game-over banner. The first layer is cached per (width,
numbering); everything after it is a handful of sprite pastes.

A move picker redraws the same picture with other points highlighted (a point picked, its
destinations; Back): only the highlights differ. :class:`Bases` (the drawing processes use
one) keeps the picture without highlights (the *base*) per (position, options but
highlights) and puts the highlights on a copy of it: a highlighted point is tinted where the
base still shows the bare board (not where a checker, a marker or a die covers it — what
drawing the tint under them gives, but on their anti-aliased rims), then the badges on top.
"""

from __future__ import annotations

import io
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from engine.position import BAR, OFF, Position, Side
from engine.step import Step
from engine.variants import Variant, get_variant
from renderer import sprites, theme
from renderer.assets import cap_height, check_assets, clean_text, fit_text, text_sprite
from renderer.geometry import STACK_VISIBLE, Geometry, Rect, geometry
from renderer.layers import (
    OWN_NUMBERS,
    number_map,
    number_size,
    numbered_board,
    paste_text,
)
from renderer.options import BoardOptions, ImageFormat

JPEG_QUALITY = 80
#: A difference of two pictures -> the mask of where they are the same (255).
SAME = [255] + [0] * 255
BAR_VISIBLE = 4
COUNT_SIZE = 38  # a tall stack's count, at 1280 px
DEFAULT_OPTIONS = BoardOptions()


def render_board(position: Position, options: BoardOptions = DEFAULT_OPTIONS) -> bytes:
    """Draw ``position`` as the players see it and return the encoded image (JPEG or PNG).

    Pure and thread-safe: no I/O beyond loading the packaged font once, no shared mutable
    state, so the bot may call it through ``asyncio.to_thread``. Raises
    :class:`engine.position.PositionError` for a position that breaks the rules' invariants,
    :class:`renderer.options.RenderOptionsError` for inconsistent options, and
    :class:`renderer.assets.AssetError` if the packaged font is missing.
    """
    return encode(
        board_image(position, options), options.image_format, optimize=options.optimize_jpeg
    )


def encode(img: Image.Image, image_format: ImageFormat, *, optimize: bool = True) -> bytes:
    """Encode an RGB image; JPEG unless asked otherwise.

    Measured over 200 random boards (benchmarks/render_bench.py, docs/renderer.md): PNG takes
    ~90 ms and ~470 KB, JPEG quality 80 with 4:2:0 chroma and optimised Huffman tables ~5 ms and
    ~145 KB. Telegram re-encodes every photo as 4:2:0 JPEG anyway, so a higher quality or full
    chroma buys nothing the player can see; the text is light-on-dark or dark-on-light, which
    chroma subsampling does not blur. PNG stays available for documents and pixel tests.
    """
    out = io.BytesIO()
    if image_format == "jpeg":
        img.save(out, "JPEG", quality=JPEG_QUALITY, subsampling=2, optimize=optimize)
    else:
        img.save(out, "PNG", compress_level=3)
    return out.getvalue()


@dataclass(frozen=True, slots=True)
class _View:
    """Maps each side's own point numbers to the viewer's (the layout's) numbers."""

    variant: Variant
    viewer: Side

    def point(self, side: Side, p: int) -> int:
        return p if side is self.viewer else self.variant.to_opponent_point(p)

    def bottom(self, side: Side) -> bool:
        return side is self.viewer


def board_image(position: Position, options: BoardOptions = DEFAULT_OPTIONS) -> Image.Image:
    """The board as an RGB Pillow image (what :func:`render_board` encodes)."""
    _check(position, options)
    return _draw(position, options)


def _check(position: Position, options: BoardOptions) -> None:
    check_assets()
    get_variant(position.variant).check_position(position)
    options.validate()


_Key = tuple[Position, BoardOptions]


class Bases:
    """Pictures of a move picker's taps, drawn from a kept base (see the module's doc):
    :meth:`render` gives what :func:`render_board` gives, but for a second and later picture
    of one position and options differing only in ``highlight_points``, it puts the
    highlights on a copy of the position's picture without them instead of drawing it all.
    Such a picture differs from the whole drawing only on the anti-aliased rims of what
    covers a highlighted point (under 0.5 % of its pixels by more than 24 of 255, tested), so
    :func:`render_board` itself stays exact and this is a separate object: one per drawing
    process, safe to use from several threads, keeping at most ``size`` bases and ``size``
    first pictures (each ~2.8 MB at 1024 px: 6 of each is ~33 MB)."""

    def __init__(self, size: int = 6) -> None:
        self.size = size
        self._bases: OrderedDict[_Key, Image.Image] = OrderedDict()
        self._firsts: OrderedDict[_Key, tuple[Image.Image, BoardOptions]] = OrderedDict()
        self._lock = threading.Lock()

    def render(self, position: Position, options: BoardOptions = DEFAULT_OPTIONS) -> bytes:
        """The encoded picture (as :func:`render_board`)."""
        img, first = self._image(position, options)
        data = encode(img, options.image_format, optimize=options.optimize_jpeg)
        if first is not None and options.highlight_points:  # a picker's first picture:
            self._keep_first(first, img, options)  # encoded, nobody else holds it now
        return data

    def _image(self, position: Position, options: BoardOptions) -> tuple[Image.Image, _Key | None]:
        """The picture, and for one drawn whole its key (the caller keeps it once done).

        The first picture of a position is drawn whole, as without bases (a step changed the
        position, and most positions get only that one picture). When a second one with the
        same base is asked for (a point picked, Back), that first picture becomes the base,
        its highlights taken off in place (the bare board put back where it shows the tinted
        bare board, and under the number badges); this and later pictures are the base with
        their own highlights put on."""
        _check(position, options)
        plain = replace(options, highlight_points=frozenset())
        key = (position, plain)
        base = self._base(key)
        if base is None:
            first = self._take_first(key)
            if first is None:
                return _draw(position, options), key
            base, drawn_with = first
            _take_off_highlights(base, position, drawn_with)
            self._put(key, base)
        img = base.copy()
        if options.highlight_points:
            _overlay_highlights(img, position, options)
        return img, None

    def _base(self, key: _Key) -> Image.Image | None:
        with self._lock:
            image = self._bases.get(key)
            if image is not None:
                self._bases.move_to_end(key)
            return image

    def _take_first(self, key: _Key) -> tuple[Image.Image, BoardOptions] | None:
        with self._lock:
            return self._firsts.pop(key, None)

    def _keep_first(self, key: _Key, image: Image.Image, options: BoardOptions) -> None:
        with self._lock:
            self._firsts[key] = (image, options)
            while len(self._firsts) > self.size:
                self._firsts.popitem(last=False)

    def _put(self, key: _Key, image: Image.Image) -> None:
        with self._lock:
            self._bases[key] = image
            while len(self._bases) > self.size:
                self._bases.popitem(last=False)


def _areas(g: Geometry, selected: _Selection) -> list[tuple[tuple[int, int, int, int], _Selection]]:
    """Each highlighted area's box (the outline of a bar or tray includes its last row and
    column) and the selection of it alone."""
    out = []
    nothing: frozenset[Any] = frozenset()
    for v in sorted(selected.points):
        out.append((g.point_rect(v), _Selection(frozenset({v}), nothing, nothing)))
    for b in sorted(selected.bars):
        out.append((g.bar_half(b), _Selection(nothing, frozenset({b}), nothing)))
    for b in sorted(selected.trays):
        out.append((g.tray(b), _Selection(nothing, nothing, frozenset({b}))))
    limit_x, limit_y = g.width, g.height
    return [
        ((r.x0, r.y0, min(r.x1 + 1, limit_x), min(r.y1 + 1, limit_y)), alone) for r, alone in out
    ]


def _layout(position: Position, options: BoardOptions) -> tuple[Geometry, str, _Selection]:
    variant = get_variant(position.variant)
    g = geometry(options.width)
    numbers = OWN_NUMBERS if options.numbering_side is options.viewer else variant.name
    return g, numbers, _selection(options, _View(variant, options.viewer))


def _tinted(g: Geometry, bare: Image.Image, box: tuple[int, int, int, int], alone: _Selection):
    tinted = bare.copy()
    _draw_point_highlights(tinted, g, alone, origin=box[:2])
    return tinted


def _overlay_highlights(img: Image.Image, position: Position, options: BoardOptions) -> None:
    """Put ``options``' highlights on ``img`` (a copy of the base of the same position and
    options): each highlighted area is tinted where the base shows the bare board there."""
    g, numbers, selected = _layout(position, options)
    board = numbered_board(g.width, numbers)
    for box, alone in _areas(g, selected):
        bare = board.crop(box)
        shows_bare = ImageChops.difference(img.crop(box), bare).convert("L").point(SAME)
        img.paste(_tinted(g, bare, box, alone), box, shows_bare)
    _draw_number_badges(img, g, selected, numbers)


def _take_off_highlights(img: Image.Image, position: Position, options: BoardOptions) -> None:
    """The reverse of :func:`_overlay_highlights` on a picture drawn whole with
    ``options``' highlights: the bare board where it shows the tinted bare board, and under
    the number badges."""
    g, numbers, selected = _layout(position, options)
    board = numbered_board(g.width, numbers)
    for box, alone in _areas(g, selected):
        bare = board.crop(box)
        tinted = _tinted(g, bare, box, alone)
        shows_tint = ImageChops.difference(img.crop(box), tinted).convert("L").point(SAME)
        img.paste(bare, box, shows_tint)
    w, h = g.point_w - g.s(10), g.s(46)
    for v in selected.points:
        x, y = g.number_center(v)
        box = (x - w // 2, y - h // 2, x - w // 2 + w, y - h // 2 + h)
        img.paste(board.crop(box), box)


def _draw(position: Position, options: BoardOptions) -> Image.Image:
    """The whole picture, in the drawing order of the module's doc."""
    variant = get_variant(position.variant)
    g = geometry(options.width)
    view = _View(variant, options.viewer)
    numbering = options.numbering_side
    numbers = OWN_NUMBERS if numbering is options.viewer else variant.name
    img = numbered_board(g.width, numbers).copy()

    selected = _selection(options, view)
    _draw_point_highlights(img, g, selected)
    last_side = options.last_play_side
    if last_side is None:
        last_side = position.turn.other
    marks = _last_play_marks(options.last_play) if options.last_play else None
    for side in Side:
        _draw_checkers(img, g, position, side, view)
    if marks:
        _draw_last_play(img, g, position, view, last_side, marks)
    if options.dice and options.result is None:  # no dice once the game is over
        owner = position.turn if options.dice_owner is None else options.dice_owner
        _draw_dice(img, g, options, view.bottom(owner), owner)
    if options.cube_enabled:
        owner = None if options.cube_owner is None else view.bottom(options.cube_owner)
        cx, cy = g.cube_center(owner)
        _paste_centered(img, sprites.cube(options.cube_value, g.s(58)), cx, cy)
    _draw_number_badges(img, g, selected, numbers)
    for side in Side:
        _draw_strip(img, g, position, options, side, view.bottom(side))
    if options.result is not None:
        _draw_result(img, g, options)
    return img


# ---- helpers -----------------------------------------------------------------------------


def _paste_centered(img: Image.Image, sprite: Image.Image, cx: int, cy: int) -> None:
    img.paste(sprite, (cx - sprite.width // 2, cy - sprite.height // 2), sprite)


@dataclass(frozen=True, slots=True)
class _Selection:
    """``highlight_points`` translated to the layout: view points, and which bar halves and
    trays (True = the bottom player's) are highlighted."""

    points: frozenset[int]
    bars: frozenset[bool]
    trays: frozenset[bool]


def _selection(options: BoardOptions, view: _View) -> _Selection:
    side = options.numbering_side
    wanted = options.highlight_points
    points = frozenset(view.point(side, p) for p in wanted if 1 <= p <= 24)
    bottom = view.bottom(side)
    bars = frozenset({bottom}) if BAR in wanted else frozenset()
    trays = frozenset({bottom}) if OFF in wanted else frozenset()
    return _Selection(points, bars, trays)


def _draw_point_highlights(
    img: Image.Image,
    g: Geometry,
    selected: _Selection,
    origin: tuple[int, int] = (0, 0),
) -> None:
    """The highlights, drawn on ``img`` whose top left corner is ``origin`` of the board
    (a piece of it; the whole board by default)."""
    ox, oy = origin
    for v in sorted(selected.points):
        r = g.point_rect(v)
        top = r.y0 == g.field_top
        overlay = sprites.triangle_overlay(r.w, r.h, top, theme.SELECT, 96)
        img.paste(overlay, (r.x0 - ox, r.y0 - oy), overlay)
    for bottom in selected.bars:
        _outline(img, g.bar_half(bottom), theme.SELECT, g.s(5), origin)
    for bottom in selected.trays:
        _outline(img, g.tray(bottom), theme.SELECT, g.s(5), origin)


def _outline(
    img: Image.Image,
    rect: Rect,
    color: tuple[int, int, int],
    width: int,
    origin: tuple[int, int] = (0, 0),
) -> None:
    ox, oy = origin
    box = (rect.x0 - ox, rect.y0 - oy, rect.x1 - ox, rect.y1 - oy)
    ImageDraw.Draw(img).rectangle(box, outline=color, width=width)


def _draw_stack(
    img: Image.Image,
    g: Geometry,
    side: Side,
    count: int,
    centers: list[tuple[int, int]],
) -> None:
    """Up to len(centers) checkers; a taller stack shows its count on the last one."""
    sprite = sprites.checker(side, g.checker)
    shown = min(count, len(centers))
    for i in range(shown):
        _paste_centered(img, sprite, *centers[i])
    if count > len(centers):
        color = theme.WHITE_TEXT if side is Side.WHITE else theme.BLACK_TEXT
        cx, cy = centers[shown - 1]
        paste_text(img, str(count), g.s(COUNT_SIZE), color, cx, cy)


def _draw_checkers(
    img: Image.Image, g: Geometry, position: Position, side: Side, view: _View
) -> None:
    board = position.board(side)
    for p in range(1, 25):
        if board[p]:
            v = view.point(side, p)
            centers = [g.slot_center(v, i) for i in range(STACK_VISIBLE)]
            _draw_stack(img, g, side, board[p], centers)
    bottom = view.bottom(side)
    if board[BAR]:
        centers = [g.bar_slot_center(bottom, i) for i in range(BAR_VISIBLE)]
        _draw_stack(img, g, side, board[BAR], centers)
    _draw_tray(img, g, side, board[OFF], bottom)


def _draw_tray(img: Image.Image, g: Geometry, side: Side, count: int, bottom: bool) -> None:
    if not count:
        return
    sprite = sprites.slab(side, *g.slab_size())
    for i in range(count):
        _paste_centered(img, sprite, *g.slab_center(bottom, i))
    tray = g.tray(bottom)
    cy = g.slab_center(bottom, count)[1]
    cy += (-1 if bottom else 1) * g.s(12)
    cy = max(tray.y0 + g.s(18), min(tray.y1 - g.s(18), cy))
    paste_text(img, str(count), g.s(30), theme.TEXT_ON_FRAME, tray.cx, cy)


@dataclass(frozen=True, slots=True)
class _Marks:
    sources: Counter[int]  # own point -> checkers that left it (net)
    targets: Counter[int]  # own point -> checkers that arrived (net)
    hits: tuple[int, ...]  # own points where an opponent checker was hit


def _last_play_marks(steps: tuple[Step, ...]) -> _Marks:
    """Net movement of the last play: a checker passing through a point (24/18/13) marks
    only where it started and where it ended, so the picture shows the play, not its parts."""
    src = Counter(s.src for s in steps)
    dst = Counter(s.dst for s in steps)
    return _Marks(src - dst, dst - src, tuple(s.dst for s in steps if s.hit))


def _draw_last_play(
    img: Image.Image,
    g: Geometry,
    position: Position,
    view: _View,
    side: Side,
    marks: _Marks,
) -> None:
    board = position.board(side)
    ring = sprites.ring(g.checker, theme.LAST_PLAY, theme.LAST_PLAY_DARK)
    ghost = sprites.ghost(g.checker, theme.LAST_PLAY, theme.LAST_PLAY_DARK, True)
    ghost_over = sprites.ghost(g.checker, theme.LAST_PLAY, theme.LAST_PLAY_DARK, False)
    bottom = view.bottom(side)
    for p, k in sorted(marks.sources.items()):
        n = board[p]
        if p == BAR:
            slots = [g.bar_slot_center(bottom, i) for i in range(BAR_VISIBLE)]
        else:
            v = view.point(side, p)
            slots = [g.slot_center(v, i) for i in range(STACK_VISIBLE)]
        free = slots[min(n, len(slots)) :]
        sprite = ghost
        if not free:  # a tall stack is left: a dashed ring around its top checker
            free, sprite = slots[-1:], ghost_over
        for center in free[:k]:
            _paste_centered(img, sprite, *center)
    for p, k in sorted(marks.targets.items()):
        if p == OFF:
            outline = sprites.ring_slab(*g.slab_size(), theme.LAST_PLAY)
            for i in range(max(0, board[OFF] - k), board[OFF]):
                _paste_centered(img, outline, *g.slab_center(bottom, i))
            continue
        v = view.point(side, p)
        n = min(board[p], STACK_VISIBLE)
        for i in range(max(0, n - k), n):
            _paste_centered(img, ring, *g.slot_center(v, i))
    if marks.hits:
        opp = side.other
        n = min(position.board(opp)[BAR], BAR_VISIBLE)
        for i in range(max(0, n - len(marks.hits)), n):
            _paste_centered(img, ring, *g.bar_slot_center(view.bottom(opp), i))
        hit_badge = sprites.hit_badge(g.s(40))
        for p in marks.hits:
            v = view.point(side, p)
            n = min(board[p], STACK_VISIBLE)
            cx, cy = g.slot_center(v, max(0, n - 1))
            _paste_centered(img, hit_badge, cx + g.checker * 3 // 8, cy - g.checker * 3 // 8)


def _draw_dice(
    img: Image.Image, g: Geometry, options: BoardOptions, bottom: bool, mover: Side
) -> None:
    dice = options.dice or ()
    for i, (value, (cx, cy)) in enumerate(
        zip(dice, g.dice_centers(len(dice), bottom), strict=True)
    ):
        sprite = sprites.die(value, mover, g.dice, used=i < options.dice_used)
        _paste_centered(img, sprite, cx, cy)


def _draw_number_badges(img: Image.Image, g: Geometry, selected: _Selection, numbers: str) -> None:
    """Selectable points also get their number on a blue pill, so the number to tap or type
    is unmistakable."""
    mapping = number_map(numbers)
    size = number_size(g)
    pill = sprites.badge(g.point_w - g.s(10), g.s(46), theme.SELECT, theme.SELECT_DARK)
    for v in sorted(selected.points):
        x, y = g.number_center(v)
        _paste_centered(img, pill, x, y)
        paste_text(img, str(mapping[v]), size, (255, 255, 255), x, y)


def _player_name(options: BoardOptions, side: Side) -> str:
    name = ""
    if options.names is not None:
        name = clean_text(options.names[side])
    return name or options.labels.side(side)


def _draw_strip(
    img: Image.Image,
    g: Geometry,
    position: Position,
    options: BoardOptions,
    side: Side,
    bottom: bool,
) -> None:
    strip = g.bottom_strip if bottom else g.top_strip
    cy = strip.cy
    x = g.s(18)
    to_move = options.result is None and position.turn is side
    marker = g.s(30)
    if to_move:
        _paste_centered(img, sprites.turn_marker(marker), x + marker // 2, cy)
    x += marker + g.s(8)
    chip = sprites.checker(side, g.s(42))
    _paste_centered(img, chip, x + g.s(21), cy)
    x += g.s(42) + g.s(14)
    right = g.width - g.s(18)
    if options.match is not None:
        score = options.match[side]
        text = f"{score}/{options.match[2]}"
        size = g.s(30)
        w = text_sprite(text, size).width + g.s(28)
        pill = sprites.badge(w, g.s(46), theme.TEXT_ON_FRAME, theme.FRAME_DARK)
        _paste_centered(img, pill, right - w // 2, cy)
        paste_text(img, text, size, theme.FRAME_DARK, right - w // 2, cy)
        right -= w + g.s(18)
    if options.show_pips:
        size = g.s(34)
        w = paste_text(
            img,
            str(position.pip_count(side)),
            size,
            theme.TEXT_ON_FRAME,
            right,
            cy,
            anchor="rm",
        )
        right -= w + g.s(10)
        label = clean_text(options.labels.pips)
        w = paste_text(img, label, g.s(28), theme.TEXT_DIM, right, cy, anchor="rm")
        right -= w + g.s(24)
    name_size = g.s(38)
    limit = right - x
    if options.title and not bottom:
        title_size = g.s(26)
        title = fit_text(clean_text(options.title), title_size, g.width // 3)
        if title:
            tw = text_sprite(title, title_size).width
            tx = min(g.width // 2 - tw // 2, right - tw)
            paste_text(img, title, title_size, theme.TEXT_DIM, tx, cy, anchor="lm")
            limit = tx - g.s(24) - x
    name = fit_text(_player_name(options, side), name_size, max(limit, g.s(60)))
    color = theme.TURN if to_move else theme.TEXT_ON_FRAME
    paste_text(img, name, name_size, color, x, cy, anchor="lm")


def result_band(g: Geometry) -> Rect:
    """Where the game-over banner goes: the band between the tips of opposite points, across
    the field. Checkers never reach into it (a stack's fifth checker, which carries the
    count of a taller stack, ends at the band), so no checker and no count is hidden; the
    cube and the trays, outside the field, stay visible too."""
    band, margin = g.mid_band, g.s(4)
    return Rect(band.x0, band.y0 + margin, band.x1, band.y1 - margin)


def count_label_box(g: Geometry, count: int, cx: int, cy: int) -> Rect:
    """The ink box of a stack's count label centred at (cx, cy), as :func:`paste_text` puts
    it (also used to check that nothing is drawn over a count)."""
    size = g.s(COUNT_SIZE)
    sprite = text_sprite(str(count), size)
    baseline = cy + cap_height(size) // 2
    x0 = cx - sprite.width // 2
    y0 = baseline + sprite.top
    return Rect(x0, y0, x0 + sprite.width, y0 + sprite.mask.height)


def _draw_result(img: Image.Image, g: Geometry, options: BoardOptions) -> None:
    """A dark band in the middle of the field, one line: who won, and how (kind, points)."""
    result = options.result
    assert result is not None
    labels = options.labels
    band_rect = result_band(g)
    band = Image.new("RGB", (band_rect.w, band_rect.h), theme.BANNER)
    region = img.crop(band_rect.box())
    img.paste(Image.blend(region, band, 0.86), (band_rect.x0, band_rect.y0))
    chip = band_rect.h - g.s(12)
    gap = g.s(16)
    size = min(g.s(44), round(band_rect.h * 0.62))
    parts = [labels.kind(result.kind), labels.points.format(points=result.points)]
    if result.resigned and result.kind != "resign":
        parts.insert(1, labels.resign)
    detail = "· " + clean_text(" · ".join(parts))
    detail_w = text_sprite(detail, size).width
    room = band_rect.w - 2 * g.s(30) - chip - 2 * gap - detail_w
    wins = clean_text(labels.wins.format(name=_player_name(options, result.winner)))
    line = fit_text(wins, size, max(room, g.s(60)))
    total = chip + gap + text_sprite(line, size).width + gap + detail_w
    x = band_rect.cx - total // 2
    cy = band_rect.cy
    _paste_centered(img, sprites.checker(result.winner, chip), x + chip // 2, cy)
    x += chip + gap
    x += paste_text(img, line, size, theme.BANNER_TEXT, x, cy, anchor="lm") + gap
    paste_text(img, detail, size, theme.LAST_PLAY, x, cy, anchor="lm")
