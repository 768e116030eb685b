"""The review as the bot runs it (gameplay.reviews): CPU time per game in the worker process,
the event loop's stalls while reviews run, and replay GIF sizes of long games.

    PYTHONPATH=. python benchmarks/review_service_bench.py            # 20 games per variant
    PYTHONPATH=. python benchmarks/review_service_bench.py --games 30 --minutes 15

Games are random-play games played to their end (more contact and more choices than a good
player's, so the harder case; long nardy random games run 80-110 turns). Each is stored in a
real SQLite file as a finished game, then reviewed through ``Reviews.request`` — the worker
process computes it, the summary is stored — one at a time, while a ticker on the event loop
sleeps 5 ms at a time and records how late it wakes (the stall). The same ticker runs for a
few seconds with no review first, as the baseline of this (shared) machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

import storage
from benchmarks.review_bench import play_game, turns_of
from engine import Match, Options
from engine.game import Event
from gameplay.reviews import Reviews
from renderer import render_game_replay

TICK = 0.005


class Ticker:
    """How late the event loop wakes from a short sleep: its stalls."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            self.lags.append(time.perf_counter() - before - TICK)

    def start(self) -> None:
        self.lags = []
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> list[float]:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        return self.lags


def describe(lags: list[float]) -> str:
    ms = sorted(1000 * x for x in lags)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    median = statistics.median(ms)
    return f"{len(ms)} ticks, median {median:.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms"


async def store_games(
    store: storage.Storage, variant: str, games: list[tuple[list[Event], Match]]
) -> list[int]:
    ids = []
    for _, match in games:
        row = await store.create_game(
            storage.NewGame(
                variant=variant, chat_id=-1, white_user_id=1, black_user_id=2, state=match.to_json()
            )
        )
        result = match.current.result
        assert result is not None
        winner = storage.Colour(result.winner.label)
        final = storage.GameResult(winner, "oin", 1)
        await store.finish_game(row.game_id, 1, match.to_json(), final)
        ids.append(row.game_id)
    return ids


def finished_games(variant: str, n: int, seed: int) -> list[tuple[list[Event], Match]]:
    out = []
    for i in range(n):
        history, game = play_game(variant, seed + i, ("random", "random"), options=Options())
        match = Match(variant, 1)
        match.game = game
        out.append((history, match))
    return out


async def bench(games: int, deadline: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await storage.SqliteStorage.open(Path(tmp) / "bench.sqlite3")
        await store.upsert_user(1, "Alice")
        await store.upsert_user(2, "Bob")
        await store.upsert_chat(-1, "supergroup")
        reviews = Reviews(store)
        ticker = Ticker()
        ticker.start()
        await asyncio.sleep(3)
        print("event loop, no review:", describe(await ticker.stop()))
        # start the worker process once (imports, nets) outside the figures
        warm = finished_games("short", 1, 999)
        (warm_id,) = await store_games(store, "short", warm)
        _, task = reviews.request(warm_id)
        await task
        reviews.cpu_seconds.clear()
        for variant in ("short", "long"):
            played = finished_games(variant, games, 1000)
            ids = await store_games(store, variant, played)
            turns = [turns_of(h) for h, _ in played]
            ticker.start()
            walls = []
            for game_id in ids:
                if time.monotonic() > deadline:
                    break
                started = time.perf_counter()
                _, task = reviews.request(game_id)
                await task
                walls.append(time.perf_counter() - started)
            lags = await ticker.stop()
            cpu = list(reviews.cpu_seconds)
            reviews.cpu_seconds.clear()
            done = len(cpu)
            print(f"{variant}: {done} games of {min(turns)}-{max(turns)} turns reviewed")
            print(
                f"  review CPU in the worker: median {statistics.median(cpu):.2f} s, "
                f"max {max(cpu):.2f} s (min {min(cpu):.2f}); wall median "
                f"{statistics.median(walls):.2f} s, max {max(walls):.2f} s"
            )
            print("  event loop during the reviews:", describe(lags))
            started = time.perf_counter()
            _, task = reviews.request(ids[0])
            await task
            fetched = 1000 * (time.perf_counter() - started)
            print(f"  a stored review fetched again: {fetched:.1f} ms")
            if variant == "long":
                sizes, spent = [], []
                for history, _ in played[:done]:
                    t = time.process_time()
                    gif = render_game_replay(history, variant, names=("Алиса", "Bob"))
                    spent.append(time.process_time() - t)
                    sizes.append(len(gif))
                    with Image.open(io.BytesIO(gif)) as image:
                        assert image.n_frames >= 2
                longest = max(range(done), key=lambda i: turns[i])
                print(
                    f"  replay GIFs: median {statistics.median(sizes) / 1024:.0f} KB, max "
                    f"{max(sizes) / 1024:.0f} KB; the longest game ({turns[longest]} turns) "
                    f"{sizes[longest] / 1024:.0f} KB; CPU median {statistics.median(spent):.2f} s"
                )
        await reviews.close()
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per variant")
    parser.add_argument("--minutes", type=float, default=12.0, help="wall-clock bound")
    args = parser.parse_args()
    asyncio.run(bench(args.games, time.monotonic() + 60 * args.minutes))


if __name__ == "__main__":
    main()
