"""A drawing process: ``python -m renderer.service`` renders boards sent to it over a pipe.

The bot runs its drawing here, off its own event loop and on the machine's other core. The
protocol is deliberately small and synchronous on this side: frames on stdin, frames on
stdout, each a 4-byte big-endian length and a pickle.

Requests and replies::

    ("warm", width, optimize_jpeg)        -> ("ready", None)
    ("draw", request_id, position, opts)  -> ("ok", request_id, image bytes)
                                          -> ("error", request_id, exception)
    ("replay", request_id, history, variant, kwargs)
                                          -> ("ok", request_id, GIF bytes) (or "error")
    ("mistake", request_id, position, played, best, opts)
                                          -> ("ok", request_id, image bytes) (or "error")

Requests are answered in order, one at a time. The process ends at end of input. Pickle is
safe here because both ends are this program (the bot starts this process itself).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import socket
import struct
import sys
from typing import Any, BinaryIO

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

from renderer.board import Bases
from renderer.replay import render_game_replay
from renderer.review import render_mistake
from renderer.warm import warm_up

HEADER = struct.Struct(">I")


def read_frame(stream: BinaryIO) -> Any | None:
    """The next object on ``stream``; None at a clean end of input."""
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (size,) = HEADER.unpack(header)
    body = stream.read(size)
    if len(body) < size:
        return None
    return pickle.loads(body)


def frame(obj: Any) -> bytes:
    """``obj`` as one frame (length + pickle)."""
    body = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


def _reply_error(request_id: int, exc: BaseException) -> bytes:
    try:
        return frame(("error", request_id, exc))
    except Exception:  # an exception that does not pickle still reaches the bot as text
        return frame(("error", request_id, RuntimeError(f"{type(exc).__name__}: {exc}")))


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    """Answer requests until the input ends. Boards are drawn through one :class:`Bases`:
    a picker's second and later pictures of a position reuse its base."""
    bases = Bases()
    while True:
        request = read_frame(requests)
        if request is None:
            return
        kind = request[0]
        if kind == "warm":
            _, width, optimize_jpeg = request
            warm_up(width, optimize_jpeg)
            replies.write(frame(("ready", None)))
        elif kind == "draw":
            _, request_id, position, options = request
            try:
                reply = frame(("ok", request_id, bases.render(position, options)))
            except Exception as exc:
                reply = _reply_error(request_id, exc)
            replies.write(reply)
        elif kind == "replay":
            _, request_id, history, variant, kwargs = request
            try:
                reply = frame(("ok", request_id, render_game_replay(history, variant, **kwargs)))
            except Exception as exc:
                reply = _reply_error(request_id, exc)
            replies.write(reply)
        elif kind == "mistake":
            _, request_id, position, played, best, options = request
            try:
                reply = frame(("ok", request_id, render_mistake(position, played, best, options)))
            except Exception as exc:
                reply = _reply_error(request_id, exc)
            replies.write(reply)
        else:
            replies.write(frame(("error", -1, ValueError(f"unknown request {kind!r}"))))
        replies.flush()


# A board is ~110 KB and a pipe holds 64 KB by default: this process would wait, mid-reply,
# until the bot's busy event loop came round to read the first part — measured under load, that
# left the drawing process idle half the time. A 1 MB pipe takes several boards at once.
PIPE_BYTES = 1 << 20


def _widen_pipe(fd: int) -> None:
    """Let the reply channel hold several boards: a pipe (asyncio) or a socket (uvloop)."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if set_size is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, set_size, PIPE_BYTES)
            return
    with contextlib.suppress(OSError):  # not a socket either, or a system limit: keep as is
        channel = socket.socket(fileno=os.dup(fd))
        try:
            channel.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, PIPE_BYTES)
        finally:
            channel.close()


def main() -> None:
    # The replies own the real stdout; anything else printed goes to stderr instead of
    # corrupting a frame.
    _widen_pipe(sys.stdout.fileno())
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    with contextlib.suppress(KeyboardInterrupt):
        serve(sys.stdin.buffer, replies)


if __name__ == "__main__":
    main()
