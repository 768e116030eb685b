"""Child process for the kill -9 tests: it writes to a store until the parent kills it.

    python -m tests.storage.crash_child PATH GAME_ID hot   # commit saves as fast as it can
    python -m tests.storage.crash_child PATH GAME_ID mid   # commit a few, then hang mid-write

After each commit it prints ``committed <version>``; in ``mid`` mode it then opens a write
transaction, writes several megabytes into it (with a tiny page cache, so SQLite spills the
uncommitted pages into the WAL file on disk), prints ``in-transaction`` and waits to be killed.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import time

from storage import NewMove, SqliteStorage


def state_for(version: int) -> str:
    """The state saved as ``version``: the parent recomputes it to check what survived."""
    return json.dumps({"format": 1, "version": version, "board": list(range(24)), "pad": "x" * 300})


def move_for(version: int) -> NewMove:
    return NewMove(
        "white" if version % 2 else "black",
        (version % 6 + 1, 3),
        f"move-for-v{version}",
        f"pos-{version}",
    )


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main(path: str, game_id: int, mode: str) -> None:
    store = await SqliteStorage.open(path)
    game = await store.get_game(game_id)
    version = game.version
    commits = 0
    while mode == "hot" or commits < 20:
        saved = await store.save_game(
            game_id, version, state_for(version + 1), moves=[move_for(version + 1)]
        )
        version = saved.version
        commits += 1
        say(f"committed {version}")
    # mode == "mid": leave a large transaction open in the writer thread, and wait for SIGKILL
    await store._pool.writer.transaction(hang_mid_transaction, game_id, version)


def hang_mid_transaction(conn: sqlite3.Connection, game_id: int, version: int) -> None:
    conn.execute("PRAGMA cache_size = 16")
    for n in range(4):
        conn.execute(
            "UPDATE games SET state = ?, version = version + 1 WHERE game_id = ?",
            ("uncommitted" + "y" * 2_000_000 + str(n), game_id),
        )
    conn.execute(
        "INSERT INTO moves (game_id, seq, colour, play, position_id, game_version, created_at) "
        "VALUES (?, ?, 'white', 'ghost', 'ghost', 0, 0)",
        (game_id, version + 1),
    )
    say("in-transaction")
    time.sleep(3600)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
