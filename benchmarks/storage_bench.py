"""Storage benchmark: many games, many move commits from concurrent tasks.

    python benchmarks/storage_bench.py                      # the issue's run: 1,000 games,
                                                            # 50,000 commits, 16 tasks
    python benchmarks/storage_bench.py --sweep              # + tasks/readers/synchronous table
    python benchmarks/storage_bench.py --games 100 --commits 2000   # a quick look
    python benchmarks/storage_bench.py --claim separate --no-group  # one way of a tap, see below
    python benchmarks/storage_bench.py --database postgresql://user:pw@host/db   # PostgreSQL
    python benchmarks/storage_bench.py --database temporary     # a throw-away local PostgreSQL

On PostgreSQL the run happens in a scratch database created beside the one the URL names (the
role needs CREATEDB) and dropped afterwards; ``temporary`` starts a server of its own with
PostgreSQL's durable defaults (tests/pg_server.py, needs Debian's ``postgresql`` package) and
also reports the server's CPU time, which runs in other processes than the bot's.

What one "commit" is: a task loads a game (``get_game``), builds the next state and saves it with
one move-log entry (``save_game(..., moves=[move])``) -- exactly what the bot does per tap.  Each
task plays its own share of the games, as players do (a game is only touched by its two
players), so this measures the store, not conflicts; conflicts are tested in
tests/storage/test_storage_concurrency.py.  Latency is measured per load-and-save, from before
the load to after the save returned (committed).

How a tap claims its Telegram update (``--claim``): ``inside`` (the default, what the bot does)
passes ``update_id`` to ``save_game``, so the claim and the save are one transaction, one fsync;
``separate`` claims it first with ``mark_update_processed`` (its own transaction and fsync, the
bot's older way); ``none`` saves without a claim.  ``--no-group`` commits every transaction on
its own (the writer's group commit off), to see what group commit earns.

After the commit phase every game is finished (statistics and ratings in the same transaction),
the store is closed (which checkpoints the WAL into the file), and the file size gives the
database size per 1,000 finished games.  The database lives in a temporary directory that is
removed afterwards unless ``--keep`` is given.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage import GameResult, NewGame, NewMove, SqliteStorage, Storage
from storage.settings import is_postgres_url, redact

RESULT_KINDS = ("oin", "oin", "oin", "mars", "mars", "koks")


@dataclass(frozen=True)
class Figures:
    games: int
    commits: int
    tasks: int
    readers: int
    synchronous: str
    claim: str
    group: bool
    seconds: float
    cpu_ms_per_commit: float
    load_average: float
    commits_per_second: float
    median_ms: float
    p99_ms: float
    max_ms: float
    finish_per_second: float
    db_bytes: int
    state_bytes: int
    backend: str = "sqlite"
    server_cpu_ms_per_commit: float = 0.0

    @property
    def mb_per_1000_games(self) -> float:
        return self.db_bytes / self.games * 1000 / 1_000_000


@functools.cache
def make_state(game_no: int, turn: int, size: int) -> str:
    """A stand-in for the engine's serialised game of about ``size`` bytes (cached, so the
    benchmark spends its time in the store, not in building text)."""
    rng = random.Random(game_no * 100_003 + turn)
    board = [rng.randint(-15, 15) for _ in range(24)]
    body = {
        "format": 1,
        "variant": "long" if game_no % 2 else "short",
        "turn": turn,
        "to_move": "white" if turn % 2 else "black",
        "board": board,
        "bar": [0, 0],
        "off": [rng.randint(0, 15), rng.randint(0, 15)],
        "dice": [rng.randint(1, 6), rng.randint(1, 6)],
        "pending": {"steps": [[24, 18]], "remaining": [5]},
        "cube": {"value": 1, "owner": None},
        "match": {"length": 1, "score": [0, 0]},
    }
    text = json.dumps(body, separators=(",", ":"))
    pad = max(0, size - len(text) - 10)
    body["history_tail"] = "".join(rng.choice("0123456789/ ") for _ in range(pad))
    return json.dumps(body, separators=(",", ":"))


def percentile(sorted_values: list[float], fraction: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


def server_cpu_seconds(postmaster: int | None) -> float:
    """CPU time of a local PostgreSQL server: the postmaster and its backends (from /proc)."""
    if postmaster is None:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent = int(entry.name), int(fields[1])
        if pid == postmaster or parent == postmaster:
            total += int(fields[11]) + int(fields[12])  # utime + stime
    return total / tick


class Postgres:
    """Scratch databases on a PostgreSQL server for the runs (one per run, dropped after)."""

    def __init__(self, url: str, postmaster: int | None = None) -> None:
        self.url = url
        self.postmaster = postmaster
        self._count = 0

    def _with_database(self, name: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, ""))

    async def scratch(self) -> str:
        import asyncpg

        self._count += 1
        name = f"nardy_bench_{os.getpid()}_{self._count}"
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self._with_database(name)

    async def size_and_drop(self, url: str) -> int:
        import asyncpg

        name = urlsplit(url).path.lstrip("/")
        conn = await asyncpg.connect(self.url)
        try:
            size = int(await conn.fetchval("SELECT pg_database_size($1)", name))
            await conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        finally:
            await conn.close()
        return size


async def run(
    directory: Path,
    *,
    games: int,
    commits: int,
    tasks: int,
    readers: int,
    synchronous: str,
    state_bytes: int,
    postgres: Postgres | None = None,
    claim: str = "inside",
    group: bool = True,
) -> Figures:
    path = directory / f"bench-{tasks}-{readers}-{synchronous}.sqlite3"
    store: Storage
    if postgres is None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        store = await SqliteStorage.open(
            path,
            readers=readers,
            synchronous=synchronous,  # type: ignore[arg-type]
        )
        if not group:
            store._pool.writer.MAX_GROUP = 1  # one transaction per commit (benchmark only)
    else:
        from storage.postgres import PostgresStorage

        url = await postgres.scratch()
        store = await PostgresStorage.open(url, pool_size=readers)

    # -- setup: users, one chat per game, the games -----------------------------------------
    players = max(2, games // 2)
    for user_id in range(1, players + 1):
        await store.upsert_user(user_id, f"Игрок {user_id}", language="ru")
    game_ids: list[int] = []
    for n in range(games):
        chat_id = -1_000_000_000 - n
        await store.upsert_chat(chat_id, "group", title=f"chat {n}")
        white = n % players + 1
        black = (n * 7 + 3) % players + 1
        if black == white:
            black = white % players + 1
        game = await store.create_game(
            NewGame(
                variant="long" if n % 2 else "short",
                chat_id=chat_id,
                white_user_id=white,
                black_user_id=black,
                state=make_state(n % 8, 0, state_bytes),
            )
        )
        game_ids.append(game.game_id)

    # -- the commit phase ---------------------------------------------------------------------
    for variant_no in range(8):  # build the cached states before the clock starts
        for turn in range(64):
            make_state(variant_no, turn, state_bytes)
    latencies: list[float] = []
    per_task = [commits // tasks + (1 if t < commits % tasks else 0) for t in range(tasks)]
    update_ids = iter(range(1, commits + 1))

    async def player(task: int) -> None:
        mine = game_ids[task::tasks] or game_ids
        for i in range(per_task[task]):
            game_id = mine[i % len(mine)]
            started = time.perf_counter()
            game = await store.get_game(game_id)
            turn = game.move_count + 1
            move = NewMove(
                "white" if turn % 2 else "black",
                (turn % 6 + 1, (turn * 5) % 6 + 1),
                "24/18 13/8",
                f"pos{game_id:05d}{turn:04d}xxxx",
            )
            update_id = next(update_ids) if claim != "none" else None
            if claim == "separate":
                assert update_id is not None and await store.mark_update_processed(update_id)
            await store.save_game(
                game_id,
                game.version,
                make_state(game_id % 8, turn % 64, state_bytes),
                moves=[move],
                update_id=update_id if claim == "inside" else None,
            )
            latencies.append(time.perf_counter() - started)

    server_began = server_cpu_seconds(postgres.postmaster if postgres else None)
    cpu_began = time.process_time()  # all threads of this process: loop and SQLite threads
    began = time.perf_counter()
    await asyncio.gather(*(player(t) for t in range(tasks)))
    seconds = time.perf_counter() - began
    cpu_seconds = time.process_time() - cpu_began
    server_seconds = server_cpu_seconds(postgres.postmaster if postgres else None) - server_began

    # -- finish every game ----------------------------------------------------------------------
    rng = random.Random(5)
    finish_began = time.perf_counter()

    async def finisher(task: int) -> None:
        for game_id in game_ids[task::tasks]:
            game = await store.get_game(game_id)
            kind = rng.choice(RESULT_KINDS)
            points = {"oin": 1, "mars": 2, "koks": 3}[kind]
            await store.finish_game(
                game_id,
                game.version,
                make_state(game_id % 8, 0, state_bytes),
                GameResult(rng.choice(("white", "black")), kind, points),  # type: ignore[arg-type]
            )

    await asyncio.gather(*(finisher(t) for t in range(tasks)))
    finish_seconds = time.perf_counter() - finish_began
    await store.close()  # checkpoints the WAL into the main file
    db_bytes = path.stat().st_size if postgres is None else await postgres.size_and_drop(url)

    latencies.sort()
    return Figures(
        games=games,
        commits=len(latencies),
        tasks=tasks,
        readers=readers,
        synchronous=synchronous,
        claim=claim,
        group=group,
        seconds=seconds,
        cpu_ms_per_commit=cpu_seconds / len(latencies) * 1000,
        load_average=os.getloadavg()[0],
        commits_per_second=len(latencies) / seconds,
        median_ms=statistics.median(latencies) * 1000,
        p99_ms=percentile(latencies, 0.99) * 1000,
        max_ms=latencies[-1] * 1000,
        finish_per_second=games / finish_seconds,
        db_bytes=db_bytes,
        state_bytes=state_bytes,
        backend="sqlite" if postgres is None else "postgresql",
        server_cpu_ms_per_commit=server_seconds / len(latencies) * 1000,
    )


def row(f: Figures) -> str:
    return (
        f"| {f.tasks:>5} | {f.readers:>7} | {f.synchronous:<6} "
        f"| {f.commits_per_second:>9.0f} | {f.median_ms:>9.2f} | {f.p99_ms:>6.2f} "
        f"| {f.max_ms:>6.1f} | {f.cpu_ms_per_commit:>6.2f} | {f.load_average:>4.1f} |"
    )


HEADER = (
    "| tasks | readers | sync   | commits/s | median ms | p99 ms | max ms "
    "| CPU ms | load |\n"
    "|------:|--------:|:-------|----------:|----------:|-------:|-------:"
    "|-------:|-----:|"
)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--commits", type=int, default=50_000)
    parser.add_argument("--tasks", type=int, default=16, help="concurrent tasks (players)")
    parser.add_argument("--readers", type=int, default=2, help="reader connections")
    parser.add_argument("--synchronous", choices=("NORMAL", "FULL"), default="FULL")
    parser.add_argument(
        "--claim",
        choices=("inside", "separate", "none"),
        default="inside",
        help="how a tap claims its update (see above)",
    )
    parser.add_argument(
        "--no-group", dest="group", action="store_false", help="commit each transaction alone"
    )
    parser.add_argument("--state-bytes", type=int, default=1200, help="size of a saved state")
    parser.add_argument("--sweep", action="store_true", help="also vary tasks/readers/sync")
    parser.add_argument("--sweep-commits", type=int, default=10_000)
    parser.add_argument("--dir", type=Path, default=None, help="where to put the database")
    parser.add_argument("--keep", action="store_true", help="keep the database files")
    parser.add_argument(
        "--database",
        default=None,
        help="postgresql://... to measure PostgreSQL (scratch databases beside it), or "
        "'temporary' for a throw-away local server; default: SQLite files",
    )
    args = parser.parse_args()
    server = None
    postgres = None
    if args.database == "temporary":
        from tests.pg_server import DURABLE_SETTINGS, PostgresServer

        server = PostgresServer(DURABLE_SETTINGS).start()
        assert server.process is not None
        postgres = Postgres(server.url(), postmaster=server.process.pid)
    elif args.database is not None:
        if not is_postgres_url(args.database):
            parser.error("--database takes a postgresql:// URL or 'temporary'")
        postgres = Postgres(args.database)
    if postgres is not None and args.readers == 2:
        args.readers = 10  # the pool size: PostgreSQL writes in parallel, one connection each

    directory = args.dir or Path(tempfile.mkdtemp(prefix="nardy-bench-"))
    directory.mkdir(parents=True, exist_ok=True)
    where = redact(postgres.url) if postgres else directory
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, database in {where}")
    try:
        main_run = await run(
            directory,
            games=args.games,
            commits=args.commits,
            tasks=args.tasks,
            readers=args.readers,
            synchronous=args.synchronous,
            state_bytes=args.state_bytes,
            postgres=postgres,
            claim=args.claim,
            group=args.group,
        )
        print(
            f"\n{main_run.games} games, {main_run.commits} load-and-save commits from "
            f"{main_run.tasks} concurrent tasks in {main_run.seconds:.1f} s "
            f"(state ~{main_run.state_bytes} B, one move per commit; update claimed "
            f"{main_run.claim}; group commit {'on' if main_run.group else 'off'})"
        )
        print(f"  commits per second      : {main_run.commits_per_second:,.0f}")
        print(f"  load-and-save median    : {main_run.median_ms:.2f} ms")
        print(f"  load-and-save p99       : {main_run.p99_ms:.2f} ms")
        print(f"  load-and-save max       : {main_run.max_ms:.1f} ms")
        print(f"  CPU time per commit     : {main_run.cpu_ms_per_commit:.2f} ms (all threads)")
        if server is not None:
            print(
                f"  server CPU per commit   : {main_run.server_cpu_ms_per_commit:.2f} ms "
                "(postgres processes)"
            )
        print(f"  load average (1 min)    : {main_run.load_average:.1f} on {os.cpu_count()} CPUs")
        print(f"  finish_game per second  : {main_run.finish_per_second:,.0f}")
        moves_per_game = main_run.commits / main_run.games
        print(
            f"  database size           : {main_run.db_bytes / 1e6:.1f} MB for "
            f"{main_run.games} finished games of ~{moves_per_game:.0f} moves "
            f"= {main_run.mb_per_1000_games:.1f} MB per 1,000 finished games"
        )
        if args.sweep:
            print(f"\nsweep ({args.sweep_commits} commits each, {args.games} games)\n")
            print(HEADER)
            variants = [(tasks, 2, "FULL") for tasks in (1, 4, 8, 16, 32, 64)] + [
                (16, 1, "FULL"),
                (16, 4, "FULL"),
                (1, 2, "NORMAL"),
                (16, 2, "NORMAL"),
            ]
            for tasks, readers, synchronous in variants:
                figures = await run(
                    directory,
                    games=args.games,
                    commits=args.sweep_commits,
                    tasks=tasks,
                    readers=readers,
                    synchronous=synchronous,
                    state_bytes=args.state_bytes,
                    postgres=postgres,
                    claim=args.claim,
                    group=args.group,
                )
                print(row(figures), flush=True)
    finally:
        if server is not None:
            server.stop()
        if not args.keep:
            for file in directory.glob("bench-*"):
                file.unlink()
            if args.dir is None:
                directory.rmdir()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
