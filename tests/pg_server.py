"""A throw-away PostgreSQL server for tests and benchmarks: initdb in a temporary directory,
``postgres`` listening on a free loopback port, stopped (and the directory removed) at the end.

The binaries come from Debian's ``postgresql`` package (``/usr/lib/postgresql/<ver>/bin``), or
from ``PG_BIN`` / the ``PATH``.  PostgreSQL refuses to run as root, so when we are root the data
directory belongs to the ``postgres`` user the package creates and the server runs as that
user (``subprocess`` drops the user id; the child is the postmaster itself, so signals reach
it).  Authentication is ``trust`` on loopback only; nothing outside this machine can reach it,
and it lives only as long as the test session.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

SUPERUSER = "postgres"

#: Settings for a test server: durability is not under test here (a crash test kills the server
#: process, which loses nothing with fsync off because the OS keeps the written pages).
FAST_SETTINGS = (
    "fsync=off",
    "synchronous_commit=off",
    "full_page_writes=off",
    "max_connections=200",
)
#: A benchmark measures what an operator gets: PostgreSQL's durable defaults, plus room for
#: the connections of a pool.
DURABLE_SETTINGS = ("max_connections=200",)


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server binaries on this machine (``apt-get install postgresql``)."""


def find_binaries() -> Path:
    """The directory holding ``initdb`` and ``postgres``."""
    candidates = []
    if os.environ.get("PG_BIN"):
        candidates.append(os.environ["PG_BIN"])
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_major, reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(str(Path(on_path).parent))
    for directory in candidates:
        path = Path(directory)
        if (path / "initdb").is_file() and (path / "postgres").is_file():
            return path
    raise PostgresUnavailable(
        "PostgreSQL server binaries (initdb, postgres) not found: install Debian's "
        "'postgresql' package (apt-get install -y postgresql) or set PG_BIN"
    )


def _major(directory: str) -> int:
    name = Path(directory).parent.name
    return int(name) if name.isdigit() else 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """One running server; use as a context manager or call :meth:`start` / :meth:`stop`."""

    def __init__(self, settings: Sequence[str] = FAST_SETTINGS) -> None:
        self.bin = find_binaries()
        self.settings = tuple(settings)
        self.port = 0
        self.root: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self._as_postgres = os.geteuid() == 0

    @property
    def data(self) -> Path:
        assert self.root is not None
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _user(self) -> dict[str, object]:
        """Popen arguments that drop root to the ``postgres`` user (no-op for other users)."""
        if not self._as_postgres:
            return {}
        return {"user": SUPERUSER, "group": SUPERUSER, "extra_groups": [], "cwd": self.root}

    def start(self, timeout: float = 60.0) -> PostgresServer:
        self.root = Path(tempfile.mkdtemp(prefix="nardy-pg-"))
        if self._as_postgres:
            shutil.chown(self.root, SUPERUSER, SUPERUSER)
        subprocess.run(
            [
                str(self.bin / "initdb"),
                "-D",
                str(self.data),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            ],
            **self._user(),
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
        )
        self._launch(timeout)
        return self

    def _launch(self, timeout: float) -> None:
        """Start ``postgres`` on the existing data directory and wait until it answers."""
        self.port = self.port or _free_port()
        options = ["-c", "listen_addresses=127.0.0.1", "-c", f"port={self.port}"]
        options += ["-c", f"unix_socket_directories={self.data}"]
        for setting in self.settings:
            options += ["-c", setting]
        log = open(self.root / "server.log", "ab")  # noqa: SIM115 - the child keeps it open
        self.process = subprocess.Popen(
            [str(self.bin / "postgres"), "-D", str(self.data), *options],
            **self._user(),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"postgres exited at start-up:\n{self.log_tail()}")
            if self._answers():
                return
            time.sleep(0.05)
        raise RuntimeError(f"postgres did not answer within {timeout} s:\n{self.log_tail()}")

    def _answers(self) -> bool:
        probe = subprocess.run(
            [str(self.bin / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)],
            stdin=subprocess.DEVNULL,
            check=False,
        )
        return probe.returncode == 0

    def log_tail(self, lines: int = 30) -> str:
        if self.root is None or not (self.root / "server.log").exists():
            return ""
        return "\n".join(
            (self.root / "server.log").read_text(errors="replace").splitlines()[-lines:]
        )

    def kill(self) -> None:
        """SIGKILL the postmaster and its backends, as a crash would (the group dies at once)."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        # Backends notice a dead postmaster within a moment; wait until the port is free.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self._answers():
            time.sleep(0.05)

    def restart_after_crash(self, timeout: float = 60.0) -> None:
        """Start again on the same data directory and port (PostgreSQL replays its WAL)."""
        pid_file = self.data / "postmaster.pid"
        deadline = time.monotonic() + 30
        # Orphaned backends keep the shared memory until they exit; postgres waits for them.
        while time.monotonic() < deadline and pid_file.exists():
            try:
                self._launch(timeout)
                return
            except RuntimeError:
                time.sleep(0.2)
        self._launch(timeout)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # "fast" shutdown: clients are cut off
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
        self.process = None
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
