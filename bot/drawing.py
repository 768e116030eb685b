"""Drawing boards off the event loop — in worker processes by default.

Pillow holds Python's global lock for much of a board's drawing, so drawing in a thread still
competes with the event loop that answers every tap; measured under load, drawing was about a
third of the bot process's CPU. Worker processes (``python -m renderer.service``) draw on the
machine's other core instead.

The workers are plain child processes spoken to over their stdin/stdout by the event loop
itself. (A ``ProcessPoolExecutor`` was used first: its results pass through a helper thread
that must win the global lock from the busy event loop at every hand-over, and under load that
left the worker idle half the time while boards waited.) Requests are pipelined — many can be
in flight, the worker answers them in order. A worker that dies is started again and the
boards it had in hand are drawn again by its replacement. The workers import only the
renderer, never the bot or aiogram, so they stay small.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import pickle
import sys
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import renderer
from engine import Event, Position
from engine.step import Step
from renderer import BoardOptions, check_assets, render_game_replay, warm_up
from renderer.board import Bases
from renderer.review import render_mistake
from renderer.service import HEADER, frame
from storage.recent import Recent

log = logging.getLogger(__name__)

# 1024 px: crisp on a phone (Telegram shows photos at most ~1280 wide) and, measured, 5 ms and
# ~105 KB per board instead of 8 ms and ~145 KB at 1280 — boards are drawn on most taps. Plain
# (not optimised) JPEG tables halve the encoding again for ~6 % more bytes (~111 KB).
BOARD_WIDTH = 1024
# A mover's private picker in a group is drawn smaller: one person sees it, in place of the
# board, for the few taps of a turn, and most of a group turn's pictures are picker pictures.
# Measured (docs/bot.md, issue #12): ~72 KB instead of ~100 KB and about a third less
# drawing and encoding; the point numbers stay large on a phone.
PICKER_WIDTH = 800
OPTIMIZE_JPEG = False
#: How many pictures hurried before their drawing began are remembered (each is asked for
#: by one tap, right after it was prepared; more than a few at once means they went).
WANTED_KEPT = 64


class DrawingError(RuntimeError):
    """A board could not be drawn because the drawing process failed."""


class _Worker:
    """One ``renderer.service`` process and the boards it has been asked for."""

    def __init__(
        self, process: asyncio.subprocess.Process, idle: Callable[[], None] = lambda: None
    ) -> None:
        self.process = process
        self.pending: dict[int, asyncio.Future[bytes]] = {}
        self.reader: asyncio.Task[None] | None = None
        self.alive = True
        #: Called when this worker has nothing left in hand (a picture drawn ahead may go).
        self.idle = idle

    async def read_replies(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                kind, request_id, payload = await _read_frame(stdout)
                future = self.pending.pop(request_id, None)
                if future is None or future.done():
                    continue
                if kind == "ok":
                    future.set_result(payload)
                else:
                    future.set_exception(payload)
                if not self.pending:
                    self.idle()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.alive = False
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(DrawingError("the drawing process stopped"))
            self.pending.clear()
            self.idle()  # (its replacement is started by whoever draws next)


async def _read_frame(stream: asyncio.StreamReader) -> Any:
    """The next reply of a drawing process (the asyncio side of ``renderer.service``)."""
    (size,) = HEADER.unpack(await stream.readexactly(HEADER.size))
    return pickle.loads(await stream.readexactly(size))


class Painter:
    """Renders board pictures in ``processes`` worker processes (0: in a thread)."""

    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._workers: list[_Worker] = []
        self._ids = itertools.count(1)
        self.restarts = 0
        #: Drawing in threads (``processes`` 0): the bases a picker's pictures reuse.
        self._bases = Bases()
        #: Pictures drawn ahead waiting for a worker with nothing in hand: (position and
        #: options, the future that lets it go — True: someone wants it now).
        self._ahead: deque[tuple[tuple[Position, BoardOptions], asyncio.Future[bool]]] = deque()
        #: Pictures hurried before they were held back (their drawing had not begun).
        self._wanted: Recent[tuple[Position, BoardOptions], bool] = Recent(WANTED_KEPT)

    async def start(self) -> None:
        """Start the workers and wait until each has drawn its warm-up boards (a missing
        font fails here, at start-up, loudly)."""
        check_assets()
        if self.processes == 0:
            for width in (BOARD_WIDTH, PICKER_WIDTH):
                await asyncio.to_thread(warm_up, width, OPTIMIZE_JPEG)
            return
        self._workers = list(await asyncio.gather(*(self._spawn() for _ in range(self.processes))))

    async def _spawn(self) -> _Worker:
        env = dict(os.environ)
        # The child finds the renderer where this process found it, installed or not.
        root = str(Path(renderer.__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "renderer.service",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
        )
        worker = _Worker(process, self._let_one_go)
        stdin, stdout = process.stdin, process.stdout
        assert stdin is not None and stdout is not None
        for width in (BOARD_WIDTH, PICKER_WIDTH):
            stdin.write(frame(("warm", width, OPTIMIZE_JPEG)))
        await stdin.drain()
        try:
            for _ in (BOARD_WIDTH, PICKER_WIDTH):  # ("ready", None) once each width is drawn
                await _read_frame(stdout)
        except asyncio.IncompleteReadError:
            await process.wait()
            raise DrawingError(
                f"the drawing process failed to start (exit code {process.returncode})"
            ) from None
        worker.reader = asyncio.create_task(worker.read_replies())
        return worker

    async def _worker(self) -> _Worker:
        """The live worker with the fewest boards in hand (restarting dead ones)."""
        for i, worker in enumerate(self._workers):
            if not worker.alive:
                log.warning("drawing process %s stopped; starting a new one", worker.process.pid)
                self.restarts += 1
                self._workers[i] = await self._spawn()
        return min(self._workers, key=lambda w: len(w.pending))

    async def draw(self, position: Position, options: BoardOptions) -> bytes:
        """The board as JPEG bytes. A board lost with a dying worker is drawn once more by
        its replacement; rendering errors (bad options) reach the caller as raised."""
        if self.processes == 0:
            return await asyncio.to_thread(self._bases.render, position, options)
        try:
            return await self._draw_once(position, options)
        except DrawingError:
            return await self._draw_once(position, options)

    async def draw_ahead(self, position: Position, options: BoardOptions) -> bytes:
        """:meth:`draw` for a picture wanted soon but not now (the next mover's picker, drawn
        while they think): it goes to the drawing process only when a worker has nothing in
        hand, or once :meth:`hurry` says it is wanted, so the pictures a tap waits for never
        queue behind it. Measured under 200 groups (docs/bot.md, issue #12): a picture
        waited ~250 ms in the drawing process's queue at the median, a third of the queue
        being pictures drawn ahead."""
        if self.processes:
            await self._until_free((position, options))
        return await self.draw(position, options)

    def hurry(self, position: Position, options: BoardOptions) -> None:
        """The picture :meth:`draw_ahead` is drawing (or about to) is wanted now: if held
        back, it goes at once."""
        for i, (key, go) in enumerate(self._ahead):
            if key == (position, options):
                del self._ahead[i]
                if not go.done():
                    go.set_result(True)
                return
        self._wanted[(position, options)] = True

    async def _until_free(self, key: tuple[Position, BoardOptions]) -> None:
        """Wait until a live worker (or a dead one, to be replaced) has nothing in hand."""
        while self._workers and all(w.pending for w in self._workers):
            if self._wanted.pop(key, None):
                return
            go: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            self._ahead.append((key, go))
            try:
                if await go:
                    return
            finally:
                with contextlib.suppress(ValueError):
                    self._ahead.remove((key, go))

    def _let_one_go(self) -> None:
        """A worker has nothing in hand: the oldest picture held back goes to it."""
        while self._ahead:
            _, go = self._ahead.popleft()
            if not go.done():
                go.set_result(False)  # it checks again: an urgent one may have come first
                return

    async def replay(self, history: Sequence[Event], variant: str, **kwargs: Any) -> bytes:
        """A game's animated replay (``renderer.render_game_replay``'s GIF bytes), drawn by a
        worker like a board; ``kwargs`` are that function's keyword options."""
        if self.processes == 0:
            return await asyncio.to_thread(render_game_replay, history, variant, **kwargs)
        job = ("replay", tuple(history), variant, kwargs)
        try:
            return await self._send(job)
        except DrawingError:
            return await self._send(job)

    async def mistake(
        self,
        position: Position,
        played: tuple[Step, ...],
        best: tuple[Step, ...],
        options: BoardOptions,
    ) -> bytes:
        """A review's mistake picture (``renderer.render_mistake``), drawn like a board."""
        if self.processes == 0:
            return await asyncio.to_thread(render_mistake, position, played, best, options)
        job = ("mistake", position, played, best, options)
        try:
            return await self._send(job)
        except DrawingError:
            return await self._send(job)

    async def _draw_once(self, position: Position, options: BoardOptions) -> bytes:
        # One position's pictures go to one process while it is not much busier than the
        # others: a picker's next picture then reuses the base that process keeps.
        return await self._send(("draw", position, options), prefer=hash(position))

    async def _send(self, job: tuple[Any, ...], prefer: int | None = None) -> bytes:
        """Send one job (its kind, then its arguments) to the least busy worker, or to the
        ``prefer``-th (modulo their number) if it has at most one board more in hand."""
        worker = await self._worker()
        if prefer is not None:
            preferred = self._workers[prefer % len(self._workers)]
            if preferred.alive and len(preferred.pending) <= len(worker.pending) + 1:
                worker = preferred
        request_id = next(self._ids)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        worker.pending[request_id] = future
        stdin = worker.process.stdin
        assert stdin is not None
        try:
            stdin.write(frame((job[0], request_id, *job[1:])))
            await stdin.drain()
        except (ConnectionError, RuntimeError) as exc:
            worker.pending.pop(request_id, None)
            worker.alive = False
            raise DrawingError("the drawing process is gone") from exc
        return await future

    async def close(self) -> None:
        """Stop the workers: end of input, then a kill if one does not leave within 5 s."""
        workers, self._workers = self._workers, []
        while self._ahead:  # pictures held back fail as the workers' own would
            _, go = self._ahead.popleft()
            if not go.done():
                go.set_exception(DrawingError("the drawing processes are stopped"))
        for worker in workers:
            stdin = worker.process.stdin
            if stdin is not None and not stdin.is_closing():
                stdin.close()
        for worker in workers:
            try:
                await asyncio.wait_for(worker.process.wait(), 5)
            except TimeoutError:
                worker.process.kill()
                await worker.process.wait()
            if worker.reader is not None:
                await worker.reader
