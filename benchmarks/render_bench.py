"""Board renderer benchmark: time and size of render+encode over positions from random play.

    python benchmarks/render_bench.py            # the figures quoted in docs/renderer.md
    python benchmarks/render_bench.py --formats  # also compare PNG/JPEG settings (slower)

200 positions (100 long, 100 short) from seeded random games, each drawn with dice, the last
play highlighted, names and pip counts, as the bot draws them after every turn. The "floor" is
the same pipeline on the cached empty board (copy + encode, no checkers): what any picture of
this size costs before a single checker is drawn.

Legibility in ``--formats`` is PSNR (dB) against the lossless picture, measured on the whole
image and on the number rims (the smallest text), after our encoding *and* after a simulated
Telegram photo re-encode (JPEG quality 80, 4:2:0 — an assumption, Telegram does not publish it).
"""

from __future__ import annotations

import argparse
import io
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageChops, ImageStat

from engine.position import Position, Side
from engine.variants import get_variant
from renderer import BoardOptions, board_image, render_board
from renderer.board import encode
from renderer.geometry import geometry
from renderer.layers import numbered_board


def random_positions(count: int, seed: int = 2024) -> list[tuple[Position, BoardOptions]]:
    """``count`` positions (half long, half short) reached by random play, with options."""
    rng = random.Random(seed)
    out: list[tuple[Position, BoardOptions]] = []
    for i in range(count):
        variant = get_variant("long" if i % 2 == 0 else "short")
        position = variant.start_position()
        turns = rng.randint(1, 90)
        first = {Side.WHITE: True, Side.BLACK: True}
        last = None
        for _ in range(turns):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = variant.legal_plays(position, dice, first_turn=first[position.turn])
            first[position.turn] = False
            play = rng.choice(plays)
            last = play
            position = play.result.swapped()
            if position.is_finished():
                break
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if dice[0] == dice[1]:
            dice = dice * 2
        options = BoardOptions(
            viewer=position.turn,
            dice=None if position.is_finished() else dice,
            last_play=last.steps if last else None,
            names=("Алиса", "Bob 🎲"),
            cube_enabled=variant.name == "short",
        )
        out.append((position, options))
    return out


def _stats(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]
    return statistics.median(ordered), p99, ordered[-1]


def _timed(fn: Callable[[], bytes], repeat: int) -> tuple[float, float, bytes]:
    """Best wall time and best CPU time (this thread) of ``repeat`` runs, in seconds. CPU time
    is what the work costs; wall time adds waiting for a core on a busy machine."""
    best, best_cpu, data = math.inf, math.inf, b""
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.thread_time()
        data = fn()
        best_cpu = min(best_cpu, time.thread_time() - start_cpu)
        best = min(best, time.perf_counter() - start)
    return best, best_cpu, data


def bench_renders(boards: list[tuple[Position, BoardOptions]], repeat: int) -> None:
    times, cpu, sizes = [], [], []
    for position, options in boards:
        seconds, cpu_seconds, data = _timed(
            lambda p=position, o=options: render_board(p, o), repeat
        )
        times.append(seconds * 1000)
        cpu.append(cpu_seconds * 1000)
        sizes.append(len(data) / 1024)
    g = geometry()
    print(f"boards: {len(boards)} positions, {g.width}x{g.height}, JPEG (render_board defaults)")
    _report("render+encode", times, cpu, sizes)
    floor_times, floor_cpu, floor_sizes = [], [], []
    for number_map in ("own", "long", "short"):
        base = numbered_board(g.width, number_map)
        for _ in range(20):
            seconds, cpu_seconds, data = _timed(lambda b=base: encode(b.copy(), "jpeg"), repeat)
            floor_times.append(seconds * 1000)
            floor_cpu.append(cpu_seconds * 1000)
            floor_sizes.append(len(data) / 1024)
    _report("floor: empty board, copy+encode", floor_times, floor_cpu, floor_sizes)


def _report(title: str, wall: list[float], cpu: list[float], sizes: list[float]) -> None:
    w_med, w_p99, _ = _stats(wall)
    c_med, c_p99, _ = _stats(cpu)
    s_med, _, s_max = _stats(sizes)
    print(f"  {title}:")
    print(f"    wall ms: median {w_med:.2f}  p99 {w_p99:.2f}")
    print(f"    CPU ms:  median {c_med:.2f}  p99 {c_p99:.2f}")
    print(f"    KB:      median {s_med:.1f}  max {s_max:.1f}")


def _psnr(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a, b)
    mse = sum(v * v for v in ImageStat.Stat(diff).rms) / 3
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


def _telegram(data: bytes) -> Image.Image:
    out = io.BytesIO()
    Image.open(io.BytesIO(data)).convert("RGB").save(out, "JPEG", quality=80, subsampling=2)
    return Image.open(io.BytesIO(out.getvalue())).convert("RGB")


def bench_formats(boards: list[tuple[Position, BoardOptions]]) -> None:
    g = geometry()
    rims = [g.top_rim.box(), g.bottom_rim.box()]
    settings: dict[str, dict[str, object]] = {
        "png level 1": {"format": "PNG", "compress_level": 1},
        "png level 6": {"format": "PNG", "compress_level": 6},
        "jpeg q80 4:2:0": {"format": "JPEG", "quality": 80, "subsampling": 2},
        "jpeg q80 4:2:0 opt": {
            "format": "JPEG",
            "quality": 80,
            "subsampling": 2,
            "optimize": True,
        },
        "jpeg q85 4:2:0": {"format": "JPEG", "quality": 85, "subsampling": 2},
        "jpeg q90 4:2:0": {"format": "JPEG", "quality": 90, "subsampling": 2},
        "jpeg q85 4:4:4": {"format": "JPEG", "quality": 85, "subsampling": 0},
        "jpeg q90 4:4:4": {"format": "JPEG", "quality": 90, "subsampling": 0},
    }
    images = [board_image(p, o) for p, o in boards[:60]]
    print(
        f"\nencodings over {len(images)} boards (encode only, CPU ms; PSNR dB after ours / "
        f"after a simulated Telegram re-encode; rims = point numbers):"
    )
    print(
        f"  {'setting':18} {'ms med':>7} {'KB med':>7} {'KB max':>7} {'psnr':>6} "
        f"{'rims':>6} {'tg':>6} {'tg rims':>7}"
    )
    for name, kwargs in settings.items():
        times, sizes, psnr, psnr_rims, tg, tg_rims = [], [], [], [], [], []
        for img in images:

            def run(img: Image.Image = img, kwargs: dict[str, object] = kwargs) -> bytes:
                out = io.BytesIO()
                img.save(out, **kwargs)
                return out.getvalue()

            _wall, cpu_seconds, data = _timed(run, 2)
            times.append(cpu_seconds * 1000)
            sizes.append(len(data) / 1024)
            decoded = Image.open(io.BytesIO(data)).convert("RGB")
            again = _telegram(data)
            psnr.append(_psnr(img, decoded))
            tg.append(_psnr(img, again))
            psnr_rims.append(statistics.mean(_psnr(img.crop(r), decoded.crop(r)) for r in rims))
            tg_rims.append(statistics.mean(_psnr(img.crop(r), again.crop(r)) for r in rims))
        print(
            f"  {name:18} {statistics.median(times):7.2f} {statistics.median(sizes):7.1f} "
            f"{max(sizes):7.1f} {statistics.median(psnr):6.1f} "
            f"{statistics.median(psnr_rims):6.1f} {statistics.median(tg):6.1f} "
            f"{statistics.median(tg_rims):7.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3, help="runs per board; best is kept")
    parser.add_argument("--formats", action="store_true", help="compare PNG/JPEG settings")
    args = parser.parse_args()
    boards = random_positions(args.count)
    start = time.perf_counter()
    render_board(*boards[0])  # first call builds the cached static layers
    print(f"first render (builds cached layers): {(time.perf_counter() - start) * 1000:.0f} ms")
    bench_renders(boards, args.repeat)
    if args.formats:
        bench_formats(boards)


if __name__ == "__main__":
    main()
