"""Legal-play enumeration speed on a fixed, seeded corpus, and random full games per second.

Usage: python benchmarks/engine_bench.py [--positions 5000] [--games 200] [--seed 1]

The corpus is every (position, roll) met while playing seeded random games, until at least
``--positions`` positions per variant are collected. Each is timed once with
``Variant.legal_plays`` (the public API, including building the Play values).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import Options, Position, get_variant

Sample = tuple[Position, tuple[int, int], bool]


def corpus(variant_name: str, size: int, seed: int) -> list[Sample]:
    variant = get_variant(variant_name)
    rng = random.Random(seed)
    out: list[Sample] = []
    while len(out) < size:
        pos = variant.start_position()
        turns = [0, 0]
        while not pos.is_finished() and len(out) < size:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            first = turns[pos.turn] == 0
            out.append((pos, dice, first))
            plays = variant.legal_plays(pos, dice, first_turn=first)
            turns[pos.turn] += 1
            pos = rng.choice(plays).result
            if not pos.is_finished():
                pos = pos.swapped()
    return out


def percentile(sorted_values: list[float], q: float) -> float:
    index = min(len(sorted_values) - 1, round(q * (len(sorted_values) - 1)))
    return sorted_values[index]


def time_corpus(variant_name: str, samples: list[Sample]) -> None:
    variant = get_variant(variant_name)
    options = Options()
    groups: dict[str, list[float]] = {"non-doubles": [], "doubles": []}
    for pos, dice, first in samples:
        t0 = time.perf_counter()
        variant.legal_plays(pos, dice, first_turn=first, options=options)
        elapsed = time.perf_counter() - t0
        groups["doubles" if dice[0] == dice[1] else "non-doubles"].append(elapsed)
    for name, values in groups.items():
        values.sort()
        print(
            f"{variant_name:5} {name:11} n={len(values):5}  "
            f"median {statistics.median(values) * 1e6:7.1f} us  "
            f"p99 {percentile(values, 0.99) * 1e6:8.1f} us  "
            f"worst {values[-1] * 1e3:6.2f} ms"
        )


def games_per_second(variant_name: str, games: int, seed: int) -> float:
    variant = get_variant(variant_name)
    rng = random.Random(seed)
    t0 = time.perf_counter()
    for _ in range(games):
        pos = variant.start_position()
        turns = [0, 0]
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = variant.legal_plays(pos, dice, first_turn=turns[pos.turn] == 0)
            turns[pos.turn] += 1
            pos = rng.choice(plays).result
            if pos.is_finished():
                break
            pos = pos.swapped()
    return games / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in ("long", "short"):
        samples = corpus(name, args.positions, args.seed)
        time_corpus(name, samples)
        gps = games_per_second(name, args.games, args.seed + 1)
        print(f"{name:5} random full games: {gps:.1f} games/s ({args.games} games)")


if __name__ == "__main__":
    main()
