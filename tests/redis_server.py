"""A throw-away Redis server for tests and benchmarks: ``redis-server`` (Debian's
``redis-server`` package, or ``REDIS_SERVER`` / the ``PATH``) on a free loopback port, its
working directory a temporary one, no persistence, stopped and removed at the end."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path


class RedisUnavailable(RuntimeError):
    """No ``redis-server`` binary on this machine (``apt-get install redis-server``)."""


def find_binary() -> str:
    path = os.environ.get("REDIS_SERVER") or shutil.which("redis-server")
    if path is None or not Path(path).is_file():
        raise RedisUnavailable(
            "redis-server not found: install Debian's 'redis-server' package "
            "(apt-get install -y redis-server) or set REDIS_SERVER"
        )
    return path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """One running server; use as a context manager or call :meth:`start` / :meth:`stop`."""

    def __init__(self) -> None:
        self.binary = find_binary()
        self.port = 0
        self.root: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self, timeout: float = 30.0) -> RedisServer:
        self.root = Path(tempfile.mkdtemp(prefix="nardy-redis-"))
        self.port = _free_port()
        log = open(self.root / "server.log", "ab")  # noqa: SIM115 - the child keeps it open
        self.process = subprocess.Popen(
            [
                self.binary,
                "--bind", "127.0.0.1",
                "--port", str(self.port),
                "--dir", str(self.root),
                "--save", "",
                "--appendonly", "no",
                "--protected-mode", "yes",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited at start-up:\n{self.log_tail()}")
            if self._answers():
                return self
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer within {timeout} s")

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def log_tail(self, lines: int = 30) -> str:
        if self.root is None or not (self.root / "server.log").exists():
            return ""
        text = (self.root / "server.log").read_text(errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)
        self.process = None
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
