"""Online backup: a consistent copy while games are being saved."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from storage import SqliteStorage, Storage
from tests.storage.conftest import ALICE, FakeClock, new_game


async def test_backup_while_saving(people: Storage, tmp_path: Path, clock: FakeClock) -> None:
    game = await people.create_game(new_game())
    stop = asyncio.Event()

    async def keep_saving() -> int:
        version = game.version
        while not stop.is_set():
            version = (await people.save_game(game.game_id, version, f"state-{version}")).version
            await asyncio.sleep(0)
        return version

    saver = asyncio.create_task(keep_saving())
    await asyncio.sleep(0.05)
    target = tmp_path / "backup.sqlite3"
    await people.backup(target)
    stop.set()
    last = await saver

    conn = sqlite3.connect(target)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    async with await SqliteStorage.open(target, clock=clock) as copy:
        copied = await copy.get_game(game.game_id)
        assert 1 <= copied.version <= last
        assert copied.version == 1 or copied.state == f"state-{copied.version - 1}"
        assert (await copy.get_user(ALICE)).display_name == "Alice"


@pytest.mark.backends("sqlite")
@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="sqlite3 shell not installed")
async def test_documented_shell_backup_command(people: SqliteStorage, tmp_path: Path) -> None:
    """The command docs/storage.md gives works on a database the bot holds open."""
    game = await people.create_game(new_game())
    await people.save_game(game.game_id, 1, "saved")
    target = tmp_path / "backup.sqlite3"
    subprocess.run(["sqlite3", str(people.path), f".backup '{target}'"], check=True, timeout=30)
    async with await SqliteStorage.open(target) as copy:
        assert (await copy.get_game(game.game_id)).state == "saved"
