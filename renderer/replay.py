"""Animated replay of a whole game: one frame per turn, drawn by the same code as the boards.

GIF, because Telegram plays GIFs everywhere (it turns them into looping "animations"), while
animated WebP is shown as a sticker or a file. GIF allows 256 colours, so all frames share one
palette computed from a few sample frames, without dithering, and every pixel that did not
change since the previous frame is written as the transparent index: the wood grain is then
stored once instead of in every frame (measured: 5.2 MB -> 0.78 MB for a 76-turn game). The
size is bounded by capping the frame count and drawing at a reduced width.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
from collections.abc import Sequence

from PIL import Image, ImageChops

from engine.game import Event, EventKind
from engine.options import Options
from engine.position import Position, Side
from engine.record import game_turns
from renderer.board import board_image
from renderer.options import EN_LABELS, BoardOptions, GameOverInfo, Labels, RenderOptionsError

REPLAY_WIDTH = 640
MAX_FRAMES = 300
PALETTE_COLORS = 160
TRANSPARENT = 255  # palette index outside the shared palette's colours


def render_replay(
    frames: Sequence[tuple[Position, BoardOptions]],
    *,
    width: int = REPLAY_WIDTH,
    frame_ms: int = 900,
    last_frame_ms: int = 5000,
    max_frames: int = MAX_FRAMES,
) -> bytes:
    """An animated GIF of ``frames`` (typically the position after each turn with that turn's
    last play and dice, and a final frame with the result), looping forever.

    Each frame's options are used as given except ``width``. Games longer than ``max_frames``
    keep the first and last frames and an even sample in between, so the file stays bounded
    (about 10 KB per frame at 640 px, so at most ~3 MB; measured in docs/renderer.md).
    """
    if not frames:
        raise RenderOptionsError("a replay needs at least one frame")
    if max_frames < 2:
        raise RenderOptionsError("max_frames must be at least 2")
    chosen = list(frames)
    if len(chosen) > max_frames:
        step = (len(chosen) - 1) / (max_frames - 1)
        chosen = [chosen[round(i * step)] for i in range(max_frames)]
    images = [
        board_image(position, dataclasses.replace(options, width=width))
        for position, options in chosen
    ]
    palette = _shared_palette(images)
    indexed = [img.quantize(palette=palette, dither=Image.Dither.NONE) for img in images]
    deltas = [indexed[0]] + [
        _changes_only(prev, cur, palette) for prev, cur in itertools.pairwise(indexed)
    ]
    durations = [frame_ms] * len(indexed)
    durations[-1] = last_frame_ms
    out = io.BytesIO()
    deltas[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=deltas[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
        transparency=TRANSPARENT,
    )
    return out.getvalue()


def _shared_palette(images: list[Image.Image]) -> Image.Image:
    """One palette for all frames, from the first, middle and last frame side by side (they
    hold both checker colours, dice, markers and, at the end, the result banner)."""
    samples = [images[0], images[len(images) // 2], images[-1]]
    w, h = samples[0].size
    sheet = Image.new("RGB", (w * len(samples), h))
    for i, img in enumerate(samples):
        sheet.paste(img, (i * w, 0))
    return sheet.quantize(PALETTE_COLORS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _changes_only(prev: Image.Image, cur: Image.Image, palette: Image.Image) -> Image.Image:
    """``cur`` with every pixel equal to ``prev`` replaced by the transparent index."""
    before = Image.frombytes("L", prev.size, prev.tobytes())
    after = Image.frombytes("L", cur.size, cur.tobytes())
    changed = ImageChops.difference(before, after).point(lambda v: 255 if v else 0)
    frame = Image.new("P", cur.size, TRANSPARENT)
    frame.putpalette(palette.getpalette() or [])
    frame.paste(cur, (0, 0), changed)
    frame.info["transparency"] = TRANSPARENT
    return frame


def history_frames(
    history: Sequence[Event],
    variant: str,
    *,
    options: Options | None = None,
    names: tuple[str, str] | None = None,
    labels: Labels = EN_LABELS,
    viewer: Side = Side.WHITE,
    match: tuple[int, int, int] | None = None,
) -> list[tuple[Position, BoardOptions]]:
    """The frames of a game's replay from its history: the start, then the board after each
    turn with that turn's dice and its play highlighted (the cube as it stood after any
    double and take before it), and the result on the last frame if the game ended.

    ``names`` are (white's, black's); ``match`` is (white's score, black's, length) before
    the game. The viewer's side is drawn at the bottom and numbers the points.
    """
    opts = options or Options()
    turns, end = game_turns(history, variant, opts)
    cube_on = opts.cube_enabled(variant)
    base = BoardOptions(
        viewer=viewer,
        names=names,
        labels=labels,
        cube_enabled=cube_on,
        match=match,
    )
    start = turns[0].before if turns else None
    frames: list[tuple[Position, BoardOptions]] = []
    if start is not None:
        frames.append((start, base))
    cube, owner = 1, None
    for turn in turns:
        if turn.kind is EventKind.TAKE:
            cube, owner = cube * 2, turn.side
            continue
        if turn.play is None or turn.dice is None:
            continue
        dice = turn.dice * 2 if turn.dice[0] == turn.dice[1] else turn.dice
        frame = dataclasses.replace(
            base,
            dice=dice,
            dice_owner=turn.side,
            last_play=turn.play.steps or None,
            last_play_side=turn.side,
            cube_value=cube,
            cube_owner=owner,
        )
        frames.append((turn.after, frame))
    if end is not None and frames:
        resigned = bool(turns) and turns[-1].kind is EventKind.RESIGN
        kind = "resign" if resigned and end.kind == "oin" else str(end.kind)
        result = GameOverInfo(end.winner, kind, end.points, resigned)  # type: ignore[arg-type]
        position, last = frames[-1]
        frames[-1] = (position, dataclasses.replace(last, result=result))
    return frames


def render_game_replay(
    history: Sequence[Event],
    variant: str,
    *,
    options: Options | None = None,
    names: tuple[str, str] | None = None,
    labels: Labels = EN_LABELS,
    viewer: Side = Side.WHITE,
    match: tuple[int, int, int] | None = None,
    width: int = REPLAY_WIDTH,
    frame_ms: int = 800,
) -> bytes:
    """A game's history as an animated GIF for Telegram's ``sendAnimation``: one frame per
    turn, the last play highlighted, at most :data:`MAX_FRAMES` frames (measured sizes and
    the choice of GIF in docs/records.md). Pure; runs in the drawing process."""
    frames = history_frames(
        history,
        variant,
        options=options,
        names=names,
        labels=labels,
        viewer=viewer,
        match=match,
    )
    return render_replay(frames, width=width, frame_ms=frame_ms)
