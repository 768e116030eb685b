"""Filling the renderer's caches before the first picture anyone waits for."""

from __future__ import annotations

from engine.position import Side
from engine.variants import registered
from renderer.assets import check_assets
from renderer.board import render_board
from renderer.options import BoardOptions


def warm_up(width: int, optimize_jpeg: bool = True) -> None:
    """Draw one board of each kind at ``width`` so the font, sprites and static layers are
    cached (and a missing font fails now, loudly, not at the first player's tap).

    A module-level function of the renderer, so a drawing worker process can run it (and the
    renders after it) without importing anything of the bot.
    """
    check_assets()
    for variant in registered():
        position = variant.start_position()
        for viewer in Side:
            for numbering in Side:
                options = BoardOptions(
                    viewer=viewer,
                    numbering=numbering,
                    dice=(6, 5),
                    highlight_points=frozenset({24}),
                    width=width,
                    optimize_jpeg=optimize_jpeg,
                )
                render_board(position, options)
