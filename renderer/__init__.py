"""Board pictures for the nardy bot: a pure ``position + options -> image bytes`` renderer.

Public API::

    render_board(position, BoardOptions(...)) -> bytes      # JPEG (default) or PNG
    render_replay(frames) -> bytes                          # animated GIF of a whole game
    render_game_replay(history, variant, ...) -> bytes      # the same, from a game's events
    render_diagram(position, highlight_points=..., arrows=...) -> bytes   # rules figures
    render_mistake(position, played, best, options) -> bytes   # review: played vs best play
    check_assets()                                          # call at start-up: loud font check
    warm_up(width)                                          # fill the caches for that width

See docs/renderer.md for the layout, options and measured speed.
"""

from renderer.assets import AssetError, check_assets
from renderer.board import board_image, render_board
from renderer.diagram import render_diagram
from renderer.options import (
    EN_LABELS,
    RU_LABELS,
    BoardOptions,
    GameOverInfo,
    Labels,
    RenderOptionsError,
)
from renderer.replay import history_frames, render_game_replay, render_replay
from renderer.review import render_mistake
from renderer.warm import warm_up

__all__ = [
    "EN_LABELS",
    "RU_LABELS",
    "AssetError",
    "BoardOptions",
    "GameOverInfo",
    "Labels",
    "RenderOptionsError",
    "board_image",
    "check_assets",
    "history_frames",
    "render_board",
    "render_diagram",
    "render_game_replay",
    "render_mistake",
    "render_replay",
    "warm_up",
]
