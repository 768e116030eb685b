"""Drawing boards off the event loop — in a worker process by default.

Pillow holds Python's global lock for much of a board's drawing, so drawing in a thread still
competes with the event loop that answers every tap; measured under load, drawing was about a
third of the bot process's CPU. A worker process draws on the machine's other core instead.
This module imports no aiogram, so a worker starts quickly and small.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from engine import Position, Side, get_variant
from renderer import render_board
from renderer.assets import check_assets
from renderer.options import BoardOptions

# 1024 px: crisp on a phone (Telegram shows photos at most ~1280 wide) and, measured, 5 ms and
# ~105 KB per board instead of 8 ms and ~145 KB at 1280 — boards are drawn on most taps. Plain
# (not optimised) JPEG tables halve the encoding again for ~6 % more bytes (~111 KB).
BOARD_WIDTH = 1024


def warm_up() -> None:
    """Draw one board of each kind so fonts and static layers are cached before the first
    player waits for a picture (and a missing font fails at start-up, loudly)."""
    check_assets()
    for name in ("long", "short"):
        position = get_variant(name).start_position()
        for viewer in Side:
            for numbering in Side:
                options = BoardOptions(
                    viewer=viewer,
                    numbering=numbering,
                    dice=(6, 5),
                    highlight_points=frozenset({24}),
                    width=BOARD_WIDTH,
                    optimize_jpeg=False,
                )
                render_board(position, options)


class Painter:
    """Renders board pictures in ``processes`` worker processes (0: in a thread)."""

    def __init__(self, processes: int = 1) -> None:
        self._pool: ProcessPoolExecutor | None = None
        if processes > 0:
            self._pool = ProcessPoolExecutor(
                max_workers=processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=warm_up,
            )

    async def start(self) -> None:
        """Warm up where the drawing happens (the worker, or this process)."""
        if self._pool is None:
            await asyncio.to_thread(warm_up)
        else:
            check_assets()
            await asyncio.get_running_loop().run_in_executor(self._pool, _ping)

    async def draw(self, position: Position, options: BoardOptions) -> bytes:
        if self._pool is None:
            return await asyncio.to_thread(render_board, position, options)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, render_board, position, options)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _ping() -> bool:
    return True
