"""Board renderer: determinism, sizes, where checkers and numbers land, layers, bad input.

Pixel tests render PNG-equivalent images (``board_image``, no lossy encoding) and sample the
centres that renderer.geometry computes. The expected *placement* is derived here from
RULES.md, independently of the renderer's own mapping code:

* C-10 layout, viewer X at the bottom: X-1..6 bottom right (X-1 far right), X-7..12 bottom
  left, X-13..18 top left (X-13 far left), X-19..24 top right (X-24 far right);
* C-7 long nardy: X's p is O's ((p + 11) mod 24) + 1;  C-8 short nardy: X's p is O's 25 - p.
"""

from __future__ import annotations

import io
import math
import threading
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from engine.position import Position, PositionError, Side
from engine.step import Step
from engine.variants import get_variant
from renderer import (
    RU_LABELS,
    AssetError,
    BoardOptions,
    GameOverInfo,
    RenderOptionsError,
    board_image,
    check_assets,
    render_board,
    render_diagram,
    render_replay,
    theme,
)
from renderer import assets as assets_module
from renderer.assets import clean_text, text_sprite
from renderer.board import BAR_VISIBLE, count_label_box, result_band
from renderer.geometry import STACK_VISIBLE, Rect, geometry
from renderer.layers import base_board, number_size
from renderer.options import MAX_WIDTH, MIN_WIDTH

G = geometry()


def opponent_point(variant: str, p: int) -> int:
    return ((p + 11) % 24) + 1 if variant == "long" else 25 - p


def view_point(variant: str, viewer: Side, side: Side, p: int) -> int:
    return p if side is viewer else opponent_point(variant, p)


def luminance(rgb: tuple[int, ...]) -> float:
    r, g, b = rgb[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


def board(points: dict[int, int]) -> tuple[int, ...]:
    return Position.board_from_mapping(points)


# Positions with checkers on distinctive points (each side in its own numbering).
#   long:  White: 24x12, 19x1, 13x1, 3x1            Black: 24x13, 16x1, 8x1  [W 4, 20]
#   short: White: 24x2, 13x5, 8x3, 6x4, bar x1      Black: 24x2, 13x5, 8x3, 6x5
POSITIONS = {
    "long": Position(
        "long", board({24: 12, 19: 1, 13: 1, 3: 1}), board({24: 13, 16: 1, 8: 1}), Side.WHITE
    ),
    "short": Position(
        "short",
        board({24: 2, 13: 5, 8: 3, 6: 4, 25: 1}),
        board({24: 2, 13: 5, 8: 3, 6: 5}),
        Side.BLACK,
    ),
}


# ---- layout (C-10) ------------------------------------------------------------------------


def test_layout_follows_c10_for_the_viewer() -> None:
    xs = {v: G.slot_center(v, 0)[0] for v in range(1, 25)}
    ys = {v: G.slot_center(v, 0)[1] for v in range(1, 25)}
    bottom = [v for v in range(1, 25) if ys[v] > G.mid_y]
    assert bottom == list(range(1, 13))
    assert xs[1] == max(xs.values()) and xs[24] == xs[1]  # far right
    assert xs[12] == min(xs.values()) and xs[13] == xs[12]  # far left
    assert [xs[v] for v in range(1, 13)] == sorted((xs[v] for v in range(1, 13)), reverse=True)
    assert [xs[v] for v in range(13, 25)] == sorted(xs[v] for v in range(13, 25))
    # the bar lies between the 6/7 and 18/19 columns; trays to the right of
    assert xs[7] < G.bar.cx < xs[6] and xs[18] < G.bar.cx < xs[19]
    assert G.tray_bottom.x0 > xs[1] and G.tray_bottom.cy > G.mid_y > G.tray_top.cy


@pytest.mark.parametrize("variant", ["long", "short"])
@pytest.mark.parametrize("viewer", [Side.WHITE, Side.BLACK])
def test_checkers_of_the_right_colour_on_the_right_points(variant: str, viewer: Side) -> None:
    position = POSITIONS[variant]
    img = board_image(position, BoardOptions(viewer=viewer))
    empty = base_board(G.width)
    occupied: dict[int, Side] = {}
    for side in Side:
        for p in range(1, 25):
            count = position.board(side)[p]
            if not count:
                continue
            v = view_point(variant, viewer, side, p)
            occupied[v] = side
            for i in range(min(count, 5)):
                lum = luminance(img.getpixel(G.slot_center(v, i)))
                if count > 5 and i == 4:
                    continue  # carries the stack count
                assert (lum > 200) if side is Side.WHITE else (lum < 90), (side, p, v, i, lum)
            if count < 5:  # the slot above the stack shows the bare board
                above = G.slot_center(v, count)
                assert img.getpixel(above) == empty.getpixel(above), (side, p, v)
    for v in set(range(1, 25)) - set(occupied):
        centre = G.slot_center(v, 0)
        assert img.getpixel(centre) == empty.getpixel(centre), v


def test_long_heads_are_diagonally_opposite() -> None:
    start = get_variant("long").start_position()
    for viewer in Side:
        img = board_image(start, BoardOptions(viewer=viewer))
        mine, theirs = img.getpixel(G.slot_center(24, 0)), img.getpixel(G.slot_center(12, 0))
        if viewer is Side.WHITE:
            assert luminance(mine) > 200 and luminance(theirs) < 90
        else:
            assert luminance(mine) < 90 and luminance(theirs) > 200


def test_bar_and_borne_off_checkers() -> None:
    position = POSITIONS["short"]  # white has one checker on the bar
    for viewer in Side:
        img = board_image(position, BoardOptions(viewer=viewer))
        on_bar = img.getpixel(G.bar_slot_center(viewer is Side.WHITE, 0))
        assert luminance(on_bar) > 200
        empty = img.getpixel(G.bar_slot_center(viewer is not Side.WHITE, 0))
        assert luminance(empty) < 200
    long_pos = POSITIONS["long"]  # white has borne off 0, black 0: add some
    ended = Position("long", board({1: 3}), long_pos.black, Side.WHITE)
    img = board_image(ended, BoardOptions(viewer=Side.BLACK))
    slab = img.getpixel(G.slab_center(False, 0))  # white sits on top for a black viewer
    assert luminance(slab) > 200
    assert luminance(img.getpixel(G.slab_center(True, 0))) < 90  # black's tray: empty well


def test_tall_stack_shows_its_count() -> None:
    start = get_variant("long").start_position()
    img = board_image(start, BoardOptions())
    x, y = G.slot_center(24, 4)
    top = img.crop((x - 20, y - 15, x + 20, y + 15))
    assert top.convert("L").getextrema()[0] < 80  # dark digits on an ivory checker
    x, y = G.slot_center(24, 3)
    plain = img.crop((x - 20, y - 15, x + 20, y + 15))
    assert plain.convert("L").getextrema()[0] > 120


# ---- numbers ------------------------------------------------------------------------------


def _read_number(img: Image.Image, v: int) -> int:
    """Template-match the number printed at view point ``v`` against the glyphs of 1..24."""
    x, y = G.number_center(v)
    box = (x - G.point_w // 2, y - G.s(24), x + G.point_w // 2, y + G.s(24))
    diff = ImageChops.difference(img.crop(box), base_board(G.width).crop(box)).convert("L")
    bbox = diff.point(lambda d: 255 if d > 30 else 0).getbbox()
    assert bbox is not None, f"no number drawn at view point {v}"
    ink = diff.crop(bbox)
    peak = ink.getextrema()[1]
    ink = ink.point(lambda d: min(255, d * 255 // peak))
    scores = {}
    for n in range(1, 25):
        glyph = text_sprite(str(n), number_size(G)).mask
        gbox = glyph.point(lambda a: 255 if a > 30 * 255 // peak else 0).getbbox()
        glyph = glyph.crop(gbox).resize(ink.size)
        histogram = ImageChops.difference(ink, glyph).histogram()
        scores[n] = sum(i * count for i, count in enumerate(histogram))
    return min(scores, key=scores.__getitem__)


@pytest.mark.parametrize("variant", ["long", "short"])
@pytest.mark.parametrize("viewer", [Side.WHITE, Side.BLACK])
@pytest.mark.parametrize("numbering", [Side.WHITE, Side.BLACK])
def test_numbers_follow_the_chosen_players_numbering(
    variant: str, viewer: Side, numbering: Side
) -> None:
    position = get_variant(variant).start_position()
    img = board_image(position, BoardOptions(viewer=viewer, numbering=numbering))
    for v in (1, 5, 12, 13, 19, 24):
        expected = v if numbering is viewer else opponent_point(variant, v)
        assert _read_number(img, v) == expected, (v, expected)


# ---- layers -------------------------------------------------------------------------------


def _is_blue(rgb: tuple[int, ...]) -> bool:
    r, g, b = rgb[:3]
    return b > r + 40 and b > g


def _is_orange(rgb: tuple[int, ...]) -> bool:
    r, g, b = rgb[:3]
    return r > 200 and 90 < g < 190 and b < 90


def test_highlighted_points_are_tinted_and_their_numbers_badged() -> None:
    position = POSITIONS["long"]
    plain = board_image(position, BoardOptions(numbering=Side.BLACK))
    img = board_image(
        position, BoardOptions(numbering=Side.BLACK, highlight_points=frozenset({1, 25}))
    )
    v = opponent_point("long", 1)  # black's 1 is white's (the viewer's) 13
    x, _ = G.number_center(v)
    edge = (x - G.point_w // 2 + G.s(10), G.number_center(v)[1])
    assert _is_blue(img.getpixel(edge)) and not _is_blue(plain.getpixel(edge))
    tip = G.point_rect(v)
    inside = (tip.cx, tip.y0 + tip.h // 2)
    assert img.getpixel(inside) != plain.getpixel(inside)
    bar = G.bar_half(False)  # black's bar is on top for a white viewer
    assert _is_blue(img.getpixel((bar.x0 + 1, bar.cy)))


def test_dice_in_the_owners_colour_and_used_dice_dimmed() -> None:
    position = POSITIONS["long"]  # white to move, white at the bottom: dice on the right
    img = board_image(position, BoardOptions(dice=(3, 5)))
    centres = G.dice_centers(2, True)
    assert all(c[0] > G.bar.x1 for c in centres)
    # a pip-free spot on the die face: a quarter in from the left edge, at mid height
    spot = (centres[1][0] - G.dice // 4, centres[1][1])
    assert luminance(img.getpixel(spot)) > 200
    black_dice = board_image(position, BoardOptions(dice=(3, 5), dice_owner=Side.BLACK))
    left = G.dice_centers(2, False)
    assert all(c[0] < G.bar.x0 for c in left)
    assert luminance(black_dice.getpixel((left[1][0] - G.dice // 4, left[1][1]))) < 90
    used = board_image(position, BoardOptions(dice=(4, 4, 4, 4), dice_used=2))
    fresh = board_image(position, BoardOptions(dice=(4, 4, 4, 4)))
    four = G.dice_centers(4, True)
    for i, (cx, cy) in enumerate(four):
        spot = (cx - G.dice // 4, cy)
        if i < 2:
            assert luminance(used.getpixel(spot)) < luminance(fresh.getpixel(spot)) - 15
        else:
            assert used.getpixel(spot) == fresh.getpixel(spot)


def test_last_play_marks_origin_destination_and_hit() -> None:
    # Short nardy, black just played bar/21* 13/7 (black's numbers); white's hit checker is on
    # the bar. Black: entered on its 21 = white's 4, moved 13 -> 7 (= white's 12 -> 18).
    white = board({24: 2, 13: 5, 8: 3, 6: 4, 25: 1})
    black = board({24: 1, 21: 1, 13: 4, 8: 3, 7: 1, 6: 5})
    position = Position("short", white, black, Side.WHITE)
    steps = (Step(25, 21, 4, True), Step(13, 7, 6, False))
    img = board_image(position, BoardOptions(last_play=steps, last_play_side=Side.BLACK))
    r = G.checker // 2 + G.s(3)
    for v, i in ((4, 0), (18, 0)):  # arrivals: the ring around the checker
        cx, cy = G.slot_center(v, i)
        assert _is_orange(img.getpixel((cx - r, cy))), v
    # origin 13 = white's 12 keeps 4 checkers: a ghost in slot 4; black entered from its bar
    for centre in (G.slot_center(12, 4), G.bar_slot_center(False, 0)):
        assert sum(_is_orange(px) for px in _circle(img, centre, G.checker * 0.4)) > 20
    cx, cy = G.bar_slot_center(True, 0)  # white's hit checker on the bar is ringed
    assert _is_orange(img.getpixel((cx - r, cy)))


def _circle(img: Image.Image, centre: tuple[int, int], radius: float) -> list[tuple[int, ...]]:
    cx, cy = centre
    return [
        img.getpixel(
            (
                round(cx + radius * math.cos(a / 180 * math.pi)),
                round(cy + radius * math.sin(a / 180 * math.pi)),
            )
        )
        for a in range(360)
    ]


def test_cube_position_follows_its_owner() -> None:
    position = POSITIONS["short"]
    spots = {}
    for owner in (None, Side.WHITE, Side.BLACK):
        img = board_image(position, BoardOptions(cube_enabled=True, cube_value=4, cube_owner=owner))
        cx, cy = G.cube_center(None if owner is None else owner is Side.WHITE)
        spots[owner] = cy
        assert luminance(img.getpixel((cx - G.s(22), cy))) > 200  # the light cube face
    assert spots[Side.BLACK] < spots[None] < spots[Side.WHITE]


def test_game_over_banner_and_match_score() -> None:
    position = Position("short", board({}), board({1: 3}), Side.BLACK)
    options = BoardOptions(
        result=GameOverInfo(Side.WHITE, "mars", 4),
        match=(3, 1, 7),
        names=("Алиса", "Bob"),
        labels=RU_LABELS,
    )
    img = board_image(position, options)
    plain = board_image(position, replace(options, result=None))
    banner = result_band(G)
    band = (banner.x0 + 10, banner.y1 - 3)
    assert luminance(img.getpixel(band)) < 60 < luminance(plain.getpixel(band))
    pill = (G.width - G.s(30), G.top_strip.cy - G.s(15))  # the score pill's light face
    assert luminance(img.getpixel(pill)) > 200


def _overlap(a: Rect, b: Rect) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


@pytest.mark.parametrize("width", [MIN_WIDTH, 480, 640, 1024, MAX_WIDTH])
def test_the_game_over_banner_covers_no_stack_count(width: int) -> None:
    """Every place a count can be written — the last visible checker of each of the 24
    points, of each bar half, and the trays — lies outside the banner (#18 item 17)."""
    g = geometry(width)
    banner = result_band(g)
    assert banner.h >= g.s(60)  # still a readable line
    for view_point in range(1, 25):
        cx, cy = g.slot_center(view_point, STACK_VISIBLE - 1)
        for count in (6, 15):
            label = count_label_box(g, count, cx, cy)
            assert not _overlap(banner, label), (view_point, label, banner)
    for bottom in (True, False):
        cx, cy = g.bar_slot_center(bottom, BAR_VISIBLE - 1)
        assert not _overlap(banner, count_label_box(g, 15, cx, cy))
        first = g.bar_slot_center(bottom, 0)
        half = g.checker // 2
        checker = Rect(first[0] - half, first[1] - half, first[0] + half, first[1] + half)
        assert not _overlap(banner, checker)  # even the bar's checkers stay in view
        assert g.tray(bottom).x0 >= banner.x1


def test_a_finished_board_keeps_every_count_readable() -> None:
    """Drawn, not only measured: with tall stacks next to the middle (both halves) and on the
    bar, the banner changes no pixel of the board outside its own band."""
    finished = [
        Position("short", board({}), board({25: 6, 12: 6, 13: 3}), Side.BLACK),
        Position("long", board({}), board({13: 6, 1: 6, 24: 3}), Side.BLACK),
    ]
    banner = result_band(G)
    for position in finished:
        options = BoardOptions(result=GameOverInfo(Side.WHITE, "mars", 2), labels=RU_LABELS)
        shown = board_image(position, options).crop(G.board.box())
        plain = board_image(position, replace(options, result=None)).crop(G.board.box())
        diff = ImageChops.difference(shown, plain).getbbox()
        assert diff is not None  # the banner is there …
        x0, y0, x1, y1 = diff
        top = banner.y0 - G.board.y0
        bottom = banner.y1 - G.board.y0
        assert banner.x0 <= x0 and x1 <= banner.x1 and top <= y0 and y1 <= bottom  # … only


def test_names_with_emoji_and_cyrillic_render_without_tofu() -> None:
    codepoints = check_assets().codepoints
    for raw in ("Вася 🦄🇷🇺", "👨‍👩‍👧", "Zoë\u0301 مرحبا", "a\x00b\u200dc", "Ёжик"):
        cleaned = clean_text(raw)
        assert all(ord(c) in codepoints for c in cleaned)
    assert clean_text("Вася 🦄🇷🇺") == "Вася"
    position = POSITIONS["long"]
    a = board_image(position, BoardOptions(names=("Вася 🦄🇷🇺", "👨‍👩‍👧")))
    b = board_image(position, BoardOptions(names=("Вася", "")))
    assert a == b  # the emoji-only name falls back to the colour label, like an empty one
    long_name = "Очень-очень длинное имя игрока, которое не помещается " * 3
    render_board(position, BoardOptions(names=(long_name, long_name), title=long_name))


# ---- output -------------------------------------------------------------------------------


def test_deterministic_bytes_sizes_and_modes() -> None:
    position = POSITIONS["short"]
    options = BoardOptions(dice=(6, 6, 6, 6), dice_used=1, names=("A", "Б"), cube_enabled=True)
    jpeg = render_board(position, options)
    assert jpeg == render_board(position, options)
    png = render_board(position, replace(options, image_format="png"))
    assert png == render_board(position, replace(options, image_format="png"))
    for data, fmt in ((jpeg, "JPEG"), (png, "PNG")):
        img = Image.open(io.BytesIO(data))
        assert img.format == fmt and img.mode == "RGB"
        assert img.size == (G.width, G.height) and max(img.size) <= 1280
    assert len(jpeg) < 250_000
    small = Image.open(io.BytesIO(render_board(position, replace(options, width=640))))
    assert small.width == 640 and small.height == geometry(640).height


def test_thread_safe_rendering_gives_identical_bytes() -> None:
    position = POSITIONS["long"]
    options = BoardOptions(names=("Поток", "Thread"), dice=(2, 1), width=480)
    expected = render_board(position, options)
    results: list[bytes] = []

    def work() -> None:
        results.extend(render_board(position, options) for _ in range(3))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 12


def test_diagram_and_replay() -> None:
    start = get_variant("short").start_position()
    data = render_diagram(start, highlight_points=(13,), arrows=((13, 8), (8, 5)), width=480)
    img = Image.open(io.BytesIO(data))
    g = geometry(480)
    assert img.format == "PNG" and img.size == (480, g.board.h)
    frames = [(start, BoardOptions(dice=(d, 1))) for d in (2, 3, 4)] + [
        (start, BoardOptions(dice=(3, 1), result=GameOverInfo(Side.BLACK, "koks", 3)))
    ]
    gif = render_replay(frames, width=320)
    anim = Image.open(io.BytesIO(gif))
    assert anim.format == "GIF" and anim.n_frames == 4 and anim.size[0] == 320
    many = [(start, BoardOptions(dice=(1 + i % 6, 1 + i // 6 % 6))) for i in range(36)]
    capped = Image.open(io.BytesIO(render_replay(many + frames[-1:], width=320, max_frames=5)))
    assert capped.n_frames == 5
    last = board_image(*frames[-1][:1], replace(frames[-1][1], width=320))
    capped.seek(4)
    decoded = capped.convert("RGB")
    # palette reduction only: the last frame is the result frame, close to the direct render
    diff = ImageChops.difference(decoded, last).convert("L")
    mean = sum(i * n for i, n in enumerate(diff.histogram())) / (320 * last.height)
    assert mean < 12


# ---- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "position",
    [
        Position("long", board({24: 15}), board({24: 14, 12: 1}), Side.WHITE),  # shared point
        Position("long", (0, *[0] * 23, 16, 0), board({24: 15}), Side.WHITE),  # 16 checkers
        Position("long", board({24: 14, 25: 1}), board({24: 15}), Side.WHITE),  # bar in long
        Position("short", board({24: 15}), board({1: 15}), Side.WHITE),  # shared point
    ],
)
def test_positions_that_break_invariants_are_rejected(position: Position) -> None:
    with pytest.raises(PositionError):
        render_board(position)


def test_unknown_variant_is_rejected() -> None:
    start = get_variant("long").start_position()
    with pytest.raises(ValueError, match="unknown variant"):
        render_board(Position("hyper", start.white, start.black))


@pytest.mark.parametrize(
    "options",
    [
        BoardOptions(dice=(7, 1)),
        BoardOptions(dice=(1, 2, 3, 4)),
        BoardOptions(dice=(1, 2), dice_used=3),
        BoardOptions(dice_used=1),
        BoardOptions(highlight_points=frozenset({26})),
        BoardOptions(last_play=(Step(3, 5, 2),)),
        BoardOptions(cube_value=3),
        BoardOptions(match=(1, 1, 0)),
        BoardOptions(width=2000),
        BoardOptions(image_format="gif"),  # type: ignore[arg-type]
        BoardOptions(result=GameOverInfo(Side.WHITE, "draw")),  # type: ignore[arg-type]
    ],
)
def test_bad_options_are_rejected(options: BoardOptions) -> None:
    with pytest.raises(RenderOptionsError):
        render_board(POSITIONS["long"], options)


def test_missing_font_fails_loudly(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setattr(assets_module, "ASSETS_DIR", tmp_path)
    assets_module.check_assets.cache_clear()
    try:
        with pytest.raises(AssetError, match="font missing"):
            check_assets()
    finally:
        monkeypatch.undo()
        assets_module.check_assets.cache_clear()
    assert check_assets().path.name == "DejaVuSans-Bold.ttf"


def test_theme_checker_colours_differ_in_lightness() -> None:
    assert luminance(theme.WHITE_BODY) - luminance(theme.BLACK_BODY) > 150


def test_game_over_info_adapts_the_engines_result() -> None:
    from engine.options import Options
    from engine.scoring import score_game

    final = Position("short", board({}), board({20: 2, 13: 13}), Side.BLACK)
    info = GameOverInfo.from_result(score_game(final, Side.WHITE, Options(), cube=2))
    assert info == GameOverInfo(Side.WHITE, "koks", 6)
    render_board(final, BoardOptions(result=info))


def test_command_line_writes_both_variants_from_a_position_id(tmp_path) -> None:
    from renderer.__main__ import main

    assert main(["4HPwATDgc/ABMA", "--variant", "short", "--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["short-black-view.jpg", "short-white-view.jpg"]
    assert main(["not-an-id", "--out", str(tmp_path)]) == 1
