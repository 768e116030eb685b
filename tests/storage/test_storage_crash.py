"""A bot process killed with SIGKILL -- mid-transaction or mid-commit -- loses nothing committed.

The writer is a real child process (``tests/storage/crash_child.py``) that the test kills with
``kill -9``; the database must then open, pass ``PRAGMA integrity_check`` and hold exactly the
last committed state, with a whole move log.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import SqliteStorage
from tests.storage.conftest import ALICE, BORIS, GROUP, new_game
from tests.storage.crash_child import state_for

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


async def prepare(path: Path) -> int:
    async with await SqliteStorage.open(path) as store:
        await store.upsert_user(ALICE, "Alice")
        await store.upsert_user(BORIS, "Boris")
        await store.upsert_chat(GROUP, "group")
        game = await store.create_game(new_game(ALICE, BORIS, chat_id=GROUP))
        return game.game_id


def start_child(path: Path, game_id: int, mode: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.storage.crash_child", str(path), str(game_id), mode],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def read_until(child: subprocess.Popen[str], done: Callable[[str], bool]) -> list[str]:
    """The child's lines up to the first one ``done`` accepts (the child keeps running)."""
    lines: list[str] = []
    deadline = time.monotonic() + 30
    assert child.stdout is not None
    while time.monotonic() < deadline:
        line = child.stdout.readline().strip()
        if not line:
            child.kill()
            errors = child.stderr.read() if child.stderr else ""
            raise AssertionError(f"child stopped early: {errors}")
        lines.append(line)
        if done(line):
            return lines
    child.kill()
    raise AssertionError("child too slow")


def kill_9(child: subprocess.Popen[str]) -> None:
    os.kill(child.pid, signal.SIGKILL)
    assert child.wait(timeout=10) == -signal.SIGKILL
    for stream in (child.stdout, child.stderr):
        if stream is not None:
            stream.close()


def integrity(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


async def check_survivor(path: Path, game_id: int, committed: int) -> int:
    """Open the killed database and check it holds a whole, committed state; return its version."""
    assert integrity(path) == "ok"
    async with await SqliteStorage.open(path) as store:
        game = await store.get_game(game_id)
        assert game.state == state_for(game.version)  # no half-written or uncommitted state
        log = await store.get_moves(game_id)
        assert [m.seq for m in log] == list(range(1, game.move_count + 1))
        assert [m.play for m in log] == [f"move-for-v{v}" for v in range(2, game.version + 1)]
        assert game.version >= committed
        # and it keeps working
        resumed = await store.save_game(game_id, game.version, state_for(game.version + 1))
        assert resumed.version == game.version + 1
        return game.version


async def test_killed_in_the_middle_of_a_transaction(tmp_path: Path) -> None:
    path = tmp_path / "mid.sqlite3"
    game_id = await prepare(path)
    child = start_child(path, game_id, "mid")
    lines = read_until(child, lambda line: line == "in-transaction")
    committed = int([line for line in lines if line.startswith("committed")][-1].split()[1])
    wal = path.with_name(path.name + "-wal")
    assert wal.stat().st_size > 1_000_000  # the uncommitted pages really reached the disk
    kill_9(child)

    version = await check_survivor(path, game_id, committed)
    assert version == committed  # the open transaction left no trace


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_killed_while_committing_as_fast_as_it_can(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "hot.sqlite3"
    game_id = await prepare(path)
    child = start_child(path, game_id, "hot")
    target = random.Random(seed).randint(20, 200)
    lines = read_until(child, lambda line: int(line.split()[1]) >= target)
    await asyncio.sleep(random.Random(seed).uniform(0, 0.01))  # land the kill anywhere
    kill_9(child)
    committed = int(lines[-1].split()[1])

    version = await check_survivor(path, game_id, committed)
    # commits acknowledged after the last line we read may also be there, nothing older is lost
    assert version >= committed
