"""``python -m renderer``: write sample board images.

    python -m renderer                          # start positions of both variants
    python -m renderer 4HPwATDgc/ABMA --turn black --dice 6 5 --out /tmp/boards
    python -m renderer --gallery docs/gallery   # regenerate the committed gallery

A position ID (engine.positionid: GNU Backgammon's for short nardy, the same construction for
long) does not say which variant it is, so each ID is drawn for every variant it is valid in,
from both sides, with the numbers of the player to move.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

from engine import positionid
from engine.position import Position, Side
from engine.variants import VariantName, get_variant, registered
from renderer import BoardOptions, check_assets, render_board, render_diagram, render_replay
from renderer.gallery import random_game, replay_frames, scenes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m renderer", description=__doc__.split("\n")[0])
    parser.add_argument("position_id", nargs="?", help="14-character position ID (default: start)")
    names = [str(v.name) for v in registered()]
    parser.add_argument("--variant", choices=(*names, "both"), default="both")
    parser.add_argument(
        "--turn",
        choices=("white", "black"),
        default="white",
        help="side to move (position IDs do not carry it)",
    )
    parser.add_argument("--dice", type=int, nargs=2, metavar=("D1", "D2"))
    parser.add_argument("--png", action="store_true", help="PNG instead of JPEG")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(tempfile.gettempdir()) / "nardy-renderer",
        help="directory for the images (default: %(default)s)",
    )
    parser.add_argument(
        "--gallery",
        type=Path,
        metavar="DIR",
        help="write the documentation gallery to DIR and exit",
    )
    args = parser.parse_args(argv)
    check_assets()
    if args.gallery is not None:
        write_gallery(args.gallery)
        return 0
    turn = Side.WHITE if args.turn == "white" else Side.BLACK
    variants = names if args.variant == "both" else [args.variant]
    args.out.mkdir(parents=True, exist_ok=True)
    written = 0
    for name in variants:
        try:
            position = _position(args.position_id, name, turn)
        except ValueError as exc:
            print(f"{name}: not a valid {name} position: {exc}", file=sys.stderr)
            continue
        dice = tuple(args.dice) if args.dice else None
        if dice and dice[0] == dice[1]:
            dice = dice * 2
        ext = "png" if args.png else "jpg"
        for viewer in Side:
            options = BoardOptions(
                viewer=viewer, numbering=turn, dice=dice, image_format="png" if args.png else "jpeg"
            )
            start = time.perf_counter()
            data = render_board(position, options)
            ms = (time.perf_counter() - start) * 1000
            path = args.out / f"{name}-{viewer.label}-view.{ext}"
            path.write_bytes(data)
            written += 1
            print(
                f"{path}  {len(data) / 1024:.0f} KB  {ms:.1f} ms  id {positionid.encode(position)}"
            )
    return 0 if written else 1


def _position(position_id: str | None, variant: str, turn: Side) -> Position:
    if position_id is None:
        return get_variant(variant).start_position(turn)
    return positionid.decode(position_id, variant, turn)


def write_gallery(directory: Path) -> None:
    """The boards shown in docs/renderer.md, as palette PNGs (small files for the repo), plus
    a rules diagram and an animated replay."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, (position, options) in scenes().items():
        data = render_board(position, options)
        _write_png(directory / f"{name}.png", data)
    long_start = get_variant(VariantName.LONG).start_position()
    diagram = render_diagram(long_start, highlight_points=(24, 18, 13), arrows=((24, 18), (18, 13)))
    _write_png(directory / "diagram-long-first-move.png", diagram)
    turns = random_game(VariantName.SHORT, seed=8)
    gif = render_replay(replay_frames(turns), width=480, frame_ms=700)
    (directory / "replay-short.gif").write_bytes(gif)
    print(f"{directory / 'replay-short.gif'}  {len(gif) / 1024:.0f} KB  {len(turns) + 1} frames")


def _write_png(path: Path, data: bytes) -> None:
    """Re-save as a 256-colour PNG: a third of the size, indistinguishable at phone size."""
    img = Image.open(io.BytesIO(data)).convert("RGB")
    small = img.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, "PNG", optimize=True)
    print(f"{path}  {path.stat().st_size / 1024:.0f} KB")


if __name__ == "__main__":
    sys.exit(main())
