"""The engine's legal outcomes agree with a naive generator written straight from RULES.md
(``tests/engine/reference.py``) on random, synthetic and opening positions, with the
long-nardy variant switches on and off."""

from __future__ import annotations

import random

import pytest

from engine import Options, Position, Side, get_variant
from tests.engine import reference
from tests.engine.corpus import Sample, spread
from tests.engine.helpers import show

LONG_OPTIONS = [
    pytest.param(Options(), id="defaults"),
    pytest.param(Options(block_in_passing=True), id="V-1"),
    pytest.param(Options(block_needs_home=True), id="V-2"),
    pytest.param(Options(block_in_passing=True, block_needs_home=True), id="V-1 V-2"),
    pytest.param(Options(first_turn_any_double=True), id="V-4"),
    pytest.param(Options(no_obstacle_clause=True), id="V-5"),
    pytest.param(Options(bearoff_next_turn=True), id="V-7"),
]


def engine_set(pos: Position, dice: tuple[int, int], first: bool, options: Options) -> set:
    plays = get_variant(pos.variant).legal_plays(pos, dice, first_turn=first, options=options)
    return {(p.result.mover, p.result.opponent) for p in plays}


def agree(pos: Position, dice: tuple[int, int], first: bool, options: Options) -> None:
    want = reference.outcomes(pos, dice, first_turn=first, options=options)
    got = engine_set(pos, dice, first, options)
    assert got == want, f"{show(pos)} dice {dice} first={first} {options.to_dict()}"


def samples_with_doubles(variant: str, n: int, seed: int) -> list[Sample]:
    rng = random.Random(seed)
    out = []
    for s in spread(variant, n):
        out.append(s)
        d = rng.randint(1, 6)
        out.append(Sample(s.position, (d, d), s.first_turn, s.options))
    return out


@pytest.mark.parametrize("options", LONG_OPTIONS)
def test_long_random_positions(options: Options) -> None:
    for s in samples_with_doubles("long", 100, 1):
        agree(s.position, s.dice, s.first_turn, options)


def test_short_random_positions() -> None:
    for s in samples_with_doubles("short", 120, 2):
        agree(s.position, s.dice, s.first_turn, Options())


@pytest.mark.parametrize("options", LONG_OPTIONS)
def test_long_every_opening_and_every_reply(options: Options) -> None:
    """L-10 … L-13, V-4, V-5: white's first turn for all 21 rolls, then black's first turn
    for all 21 rolls after every legal white play (the obstacle clause lives here)."""
    start = get_variant("long").start_position()
    rolls = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    for dice in rolls:
        agree(start, dice, True, options)
        for white in get_variant("long").legal_plays(start, dice, first_turn=True, options=options):
            black_to_move = white.result.swapped()
            for reply in rolls:
                agree(black_to_move, reply, True, options)


def random_long_position(rng: random.Random) -> Position | None:
    """X's checkers crowded into a window of 6–10 points (so six-blocks come up), O's on
    free points elsewhere; None if it happens to hold an illegal block already."""
    low = rng.randint(1, 19)
    window = range(low, min(24, low + rng.randint(5, 9)) + 1)
    me = [0] * 26
    for _ in range(rng.randint(8, 15)):
        me[rng.choice(window)] += 1
    free = [q for q in range(1, 25) if not me[reference.long_opp_point(q)]]
    opp = [0] * 26
    for _ in range(rng.randint(5, 15)):
        opp[rng.choice(free)] += 1
    me[0], opp[0] = 15 - sum(me), 15 - sum(opp)
    pos = Position("long", tuple(me), tuple(opp), Side.WHITE)
    if reference.illegal_block(pos.mover, pos.opponent, Options()):
        return None
    return pos


def random_short_position(rng: random.Random) -> Position:
    """Checkers on the bar, in home and on blots, so entering, hitting and bearing off mix."""
    while True:
        me, opp = [0] * 26, [0] * 26
        home_heavy = rng.random() < 0.5
        for _ in range(rng.randint(3, 15)):
            choices = (
                [25, *range(1, 7), *range(1, 7), *range(7, 25)] if home_heavy else range(1, 26)
            )
            me[rng.choice(list(choices))] += 1
        for _ in range(rng.randint(3, 15)):
            q = rng.randint(1, 25)
            if q == 25 or not me[25 - q]:
                opp[q] += 1
        me[0], opp[0] = 15 - sum(me), 15 - sum(opp)
        if me[0] < 0 or opp[0] < 0 or me[0] == 15 or opp[0] == 15:
            continue
        pos = Position("short", tuple(me), tuple(opp), Side.WHITE)
        get_variant("short").check_position(pos)
        return pos


@pytest.mark.parametrize("options", LONG_OPTIONS[:4])
def test_long_synthetic_block_positions(options: Options) -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 250:
        pos = random_long_position(rng)
        if pos is None or reference.illegal_block(pos.mover, pos.opponent, options):
            continue
        agree(pos, (rng.randint(1, 6), rng.randint(1, 6)), False, options)
        checked += 1


def test_short_synthetic_positions() -> None:
    rng = random.Random(6)
    for _ in range(500):
        agree(random_short_position(rng), (rng.randint(1, 6), rng.randint(1, 6)), False, Options())
