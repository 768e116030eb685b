"""Seeded corpora of positions met in random play, shared by the property-style tests.

Positions are collected from games in which each side picks a uniformly random legal play
(``Variant.legal_plays``), so every position is one that can really occur. Everything is
seeded: a failure names its seed and index and replays identically.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from engine import Options, Position, get_variant


@dataclass(frozen=True, slots=True)
class Sample:
    """A position with the side to move about to roll ``dice``."""

    position: Position
    dice: tuple[int, int]
    first_turn: bool
    options: Options


def roll(rng: random.Random) -> tuple[int, int]:
    return (rng.randint(1, 6), rng.randint(1, 6))


def random_game_samples(
    variant_name: str, rng: random.Random, options: Options | None = None
) -> list[Sample]:
    """Every (position, roll) of one random game, played to the end."""
    variant = get_variant(variant_name)
    opts = options or Options()
    pos = variant.start_position()
    turns = [0, 0]
    out: list[Sample] = []
    while True:
        dice = roll(rng)
        first = turns[pos.turn] == 0
        out.append(Sample(pos, dice, first, opts))
        plays = variant.legal_plays(pos, dice, first_turn=first, options=opts)
        turns[pos.turn] += 1
        pos = rng.choice(plays).result
        if pos.is_finished():
            return out
        pos = pos.swapped()


@cache
def corpus(variant_name: str, size: int, seed: int) -> tuple[Sample, ...]:
    """``size`` samples spread over whole random games (every k-th position is kept)."""
    rng = random.Random(seed)
    out: list[Sample] = []
    while len(out) < size:
        game = random_game_samples(variant_name, rng)
        out.extend(game[rng.randrange(7) :: 7])
    return tuple(out[:size])


def spread(variant_name: str, n: int, seed: int = 1) -> tuple[Sample, ...]:
    """``n`` samples spread evenly over the standard 300-sample corpus (many games)."""
    full = corpus(variant_name, 300, seed)
    return full[:: max(1, len(full) // n)][:n]
