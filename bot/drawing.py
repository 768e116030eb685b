"""Drawing boards off the event loop — in a worker process by default.

Pillow holds Python's global lock for much of a board's drawing, so drawing in a thread still
competes with the event loop that answers every tap; measured under load, drawing was about a
third of the bot process's CPU. A worker process draws on the machine's other core instead.
The worker runs only renderer functions (``renderer.warm_up``, ``render_board``,
``renderer.check_assets``), so it never imports the bot package — nor aiogram — and stays small.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from engine import Position
from renderer import BoardOptions, check_assets, render_board, warm_up

# 1024 px: crisp on a phone (Telegram shows photos at most ~1280 wide) and, measured, 5 ms and
# ~105 KB per board instead of 8 ms and ~145 KB at 1280 — boards are drawn on most taps. Plain
# (not optimised) JPEG tables halve the encoding again for ~6 % more bytes (~111 KB).
BOARD_WIDTH = 1024


class Painter:
    """Renders board pictures in ``processes`` worker processes (0: in a thread)."""

    def __init__(self, processes: int = 1) -> None:
        self._pool: ProcessPoolExecutor | None = None
        if processes > 0:
            self._pool = ProcessPoolExecutor(
                max_workers=processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=partial(warm_up, BOARD_WIDTH, optimize_jpeg=False),
            )

    async def start(self) -> None:
        """Warm up where the drawing happens (the worker, or this process)."""
        if self._pool is None:
            await asyncio.to_thread(warm_up, BOARD_WIDTH, False)
        else:
            check_assets()
            await asyncio.get_running_loop().run_in_executor(self._pool, check_assets)

    async def draw(self, position: Position, options: BoardOptions) -> bytes:
        if self._pool is None:
            return await asyncio.to_thread(render_board, position, options)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, render_board, position, options)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
