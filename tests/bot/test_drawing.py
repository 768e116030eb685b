"""The drawing processes (bot.drawing.Painter over renderer.service): boards come back as
real JPEGs, errors cross the pipe, and a worker that dies is replaced."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import signal

import pytest
from PIL import Image

from bot.drawing import BOARD_WIDTH, DrawingError, Painter
from engine import get_variant
from renderer import BoardOptions, RenderOptionsError, render_board


def board_options(**kwargs: object) -> BoardOptions:
    return BoardOptions(width=BOARD_WIDTH, optimize_jpeg=False, **kwargs)  # type: ignore[arg-type]


async def test_many_boards_in_flight_come_back_to_their_callers() -> None:
    painter = Painter(2)
    await painter.start()
    try:
        long_start = get_variant("long").start_position()
        short_start = get_variant("short").start_position()
        jobs = [
            (short_start if i % 2 else long_start, board_options(dice=(1 + i % 6, 1 + i % 5)))
            for i in range(24)
        ]
        images = await asyncio.gather(*(painter.draw(p, o) for p, o in jobs))
        for (position, options), image in zip(jobs, images, strict=True):
            assert image == render_board(position, options)  # the renderer is deterministic
        with Image.open(io.BytesIO(images[0])) as picture:
            assert picture.format == "JPEG" and picture.width == BOARD_WIDTH
    finally:
        await painter.close()


async def test_a_rendering_error_reaches_the_caller_and_the_worker_goes_on() -> None:
    painter = Painter(1)
    await painter.start()
    try:
        position = get_variant("long").start_position()
        with pytest.raises(RenderOptionsError):
            await painter.draw(position, board_options(dice=(7, 1)))
        assert (await painter.draw(position, board_options()))[:2] == b"\xff\xd8"
        assert painter.restarts == 0
    finally:
        await painter.close()


async def test_a_worker_that_dies_fails_its_boards_and_is_replaced() -> None:
    painter = Painter(1)
    await painter.start()
    try:
        position = get_variant("short").start_position()
        worker = painter._workers[0]
        os.kill(worker.process.pid, signal.SIGSTOP)  # the board below stays in its hands
        in_flight = asyncio.ensure_future(painter.draw(position, board_options()))
        await asyncio.sleep(0.05)
        os.kill(worker.process.pid, signal.SIGKILL)
        assert (await in_flight)[:2] == b"\xff\xd8"  # drawn again by the new worker
        assert painter.restarts == 1
        assert painter._workers[0].process.pid != worker.process.pid
    finally:
        await painter.close()


def test_the_bot_s_event_loop_uvloop_draws_through_its_socket_pairs() -> None:
    """``python -m bot`` runs on uvloop, whose child processes talk over socket pairs, not
    pipes (the worker widens whichever it gets)."""
    uvloop = pytest.importorskip("uvloop")

    async def scenario() -> list[bytes]:
        painter = Painter(1)
        await painter.start()
        try:
            position = get_variant("long").start_position()
            return list(
                await asyncio.gather(
                    *(painter.draw(position, board_options(dice=(d, 1))) for d in range(1, 7))
                )
            )
        finally:
            await painter.close()

    images = uvloop.run(scenario())
    position = get_variant("long").start_position()
    assert images == [render_board(position, board_options(dice=(d, 1))) for d in range(1, 7)]


async def test_a_picture_drawn_ahead_waits_for_a_free_worker_and_goes_when_hurried() -> None:
    """``draw_ahead`` (the next mover's picker, drawn while they think) never puts itself
    before the pictures a tap waits for: held back while the worker has something in hand,
    it goes when the worker is free — or at once when the tap that wants it comes."""
    painter = Painter(1)
    await painter.start()
    try:
        position = get_variant("long").start_position()
        finished: list[str] = []

        async def draw(name: str, dice: tuple[int, int], ahead: bool = False) -> bytes:
            options = board_options(dice=dice)
            drawing = painter.draw_ahead if ahead else painter.draw
            image = await drawing(position, options)
            finished.append(name)
            return image

        worker = painter._workers[0]
        os.kill(worker.process.pid, signal.SIGSTOP)  # busy: the first board stays in hand
        try:
            first = asyncio.ensure_future(draw("tap 1", (1, 2)))
            await asyncio.sleep(0.05)
            ahead = asyncio.ensure_future(draw("ahead", (3, 4), ahead=True))
            await asyncio.sleep(0.05)
            assert len(painter._ahead) == 1 and len(worker.pending) == 1  # held back
            second = asyncio.ensure_future(draw("tap 2", (5, 6)))
            await asyncio.sleep(0.05)
        finally:
            os.kill(worker.process.pid, signal.SIGCONT)
        images = await asyncio.gather(first, second, ahead)
        assert finished == ["tap 1", "tap 2", "ahead"]  # tap 2 did not wait behind it
        assert images[2] == render_board(position, board_options(dice=(3, 4)))

        os.kill(worker.process.pid, signal.SIGSTOP)
        try:
            busy = asyncio.ensure_future(draw("tap 3", (1, 1)))
            await asyncio.sleep(0.05)
            wanted = asyncio.ensure_future(draw("wanted", (2, 2), ahead=True))
            await asyncio.sleep(0.05)
            assert len(painter._ahead) == 1
            painter.hurry(position, board_options(dice=(2, 2)))  # its tap came: it goes now
            await asyncio.sleep(0.05)
            assert not painter._ahead and len(worker.pending) == 2
        finally:
            os.kill(worker.process.pid, signal.SIGCONT)
        assert (await wanted)[:2] == b"\xff\xd8" and (await busy)[:2] == b"\xff\xd8"
        assert painter.restarts == 0
    finally:
        await painter.close()


async def test_a_picture_held_back_fails_when_the_painter_stops() -> None:
    painter = Painter(1)
    await painter.start()
    worker = painter._workers[0]
    position = get_variant("short").start_position()
    os.kill(worker.process.pid, signal.SIGSTOP)
    busy = asyncio.ensure_future(painter.draw(position, board_options()))
    await asyncio.sleep(0.05)
    ahead = asyncio.ensure_future(painter.draw_ahead(position, board_options(dice=(6, 5))))
    await asyncio.sleep(0.05)
    os.kill(worker.process.pid, signal.SIGCONT)
    await painter.close()
    with pytest.raises(DrawingError):
        await ahead
    with contextlib.suppress(DrawingError):  # drawn or failed with its worker: either is fine
        await busy
