"""Short nardy's hand-made net inputs (``features.encode_short_plus``), the choice of encoder
by a net's width (so v1's 201-input net keeps playing next to the new nets), and the
distillation teacher of the trainer.

The shot count is checked against the engine itself: every opponent play of every roll is
generated and a roll counts when some play sends one of our checkers to the bar.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ai import features
from ai.net import Net, NetSet
from ai.search import ROLLS, NetEvaluator
from ai.training.trainer import Settings, Trainer
from ai.variant_ai import variant_ai
from engine import movegen
from engine.variants import get_variant

PLUS = features.SHORT_INPUTS  # first hand-made unit of "me"
NAMES = [
    "shots",
    "blots",
    "home_points",
    "longest_prime",
    "prime_ahead",
    "prime5",
    "back_checkers",
    "anchors",
    "escape_dice",
]


def unit(x: np.ndarray, name: str, side: int = 0) -> np.ndarray:
    return x[:, PLUS + side * features.SHORT_SIDE_UNITS + NAMES.index(name)]


def cells(points: dict[int, int], off: int | None = None, bar: int = 0) -> tuple[int, ...]:
    b = [0] * 26
    for p, n in points.items():
        b[p] = n
    b[25] = bar
    b[0] = 15 - sum(points.values()) - bar if off is None else off
    return tuple(b)


def hitting_rolls(me: tuple[int, ...], opp: tuple[int, ...]) -> int:
    """Of the 36 rolls, how many let ``opp`` (to move) put a ``me`` checker on the bar."""
    total = 0
    for dice, weight in ROLLS:
        nodes = movegen.generate(movegen.make_context("short", opp, me, dice))
        if any(node[3][25] > me[25] for node in nodes):
            total += weight
    return total


@pytest.mark.parametrize(
    ("me", "opp"),
    [
        # my blots on 10 and 3; opponent checkers on its 20 and 24 (my 5 and 1)
        (cells({10: 1, 3: 1}), cells({20: 1, 24: 1})),
        # one blot on 20 against a checker on the opponent's bar (enters on my 1..6)
        (cells({20: 1, 2: 2}), cells({5: 1}, bar=1)),
        # a blot 11 pips in front of two attackers on one point
        (cells({16: 1, 1: 3}), cells({20: 2})),
        # no blot: no shot
        (cells({16: 2, 1: 3}), cells({20: 2})),
    ],
)
def test_shots_match_the_move_generator_on_open_boards(me: tuple, opp: tuple) -> None:
    x = features.encode_short_plus(np.array([me], np.int16), np.array([opp], np.int16))
    assert round(float(unit(x, "shots")[0]) * 36) == hitting_rolls(me, opp)


def test_start_position_units() -> None:
    start = np.array([get_variant("short").start_board()], np.int16)
    x = features.encode_short_plus(start, start)
    assert x.shape == (1, features.SHORT_PLUS_INPUTS)
    assert unit(x, "shots")[0] == 0.0 and unit(x, "blots")[0] == 0.0
    assert unit(x, "home_points")[0] == pytest.approx(1 / 6)  # the 6-point
    assert unit(x, "back_checkers")[0] == pytest.approx(2 / 15)  # two on 24
    assert unit(x, "anchors")[0] == pytest.approx(1 / 3)
    # From 24 the dice land on 23..18; the opponent's 6-point is my 19 (a 5 is blocked).
    assert unit(x, "escape_dice")[0] == pytest.approx(5 / 6)
    assert np.array_equal(x[:, :PLUS], features.encode_short(start, start))


def test_primes() -> None:
    me = cells({8: 2, 7: 2, 6: 2, 5: 2, 4: 2, 13: 5})
    ahead_of = {23: 5 / 6, 16: 1 / 6}  # its 23 = my 2: the whole prime ahead; its 16 = my 9
    for point, prime in ahead_of.items():
        opp = cells({point: 2, 6: 13})
        x = features.encode_short_plus(np.array([me], np.int16), np.array([opp], np.int16))
        assert unit(x, "longest_prime")[0] == pytest.approx(5 / 6)
        assert unit(x, "prime_ahead")[0] == pytest.approx(prime)
        assert unit(x, "prime5")[0] == (prime > 0.8)


def test_encoder_follows_the_width_of_the_net() -> None:
    vai = variant_ai("short")
    rng = np.random.default_rng(1)
    start = get_variant("short").start_board()
    me = np.array([start] * 4, np.int16)
    for width in (features.SHORT_INPUTS, features.SHORT_PLUS_INPUTS):
        nets = NetSet("short", vai.phases, {p: Net.fresh(width, 4, 5, rng) for p in vai.phases})
        ev = NetEvaluator(vai, nets)
        assert ev.probs(me, me).shape == (4, 5)
    with pytest.raises(ValueError, match="no short encoder"):
        vai.encode(me, me, 7)


def test_teacher_plays_and_sets_the_targets_until_its_generation(tmp_path: Path) -> None:
    vai = variant_ai("short")
    rng = np.random.default_rng(4)
    teacher = NetSet(
        "short",
        ("all",),
        {"all": Net.fresh(features.SHORT_INPUTS, 6, 5, rng)},
    )
    path = tmp_path / "teacher.npz"
    teacher.save(path)
    settings = Settings(
        hidden=(8, 8),
        games_per_gen=1,
        batch=32,
        reuse=1.0,
        buffer=5000,
        teacher=str(path),
        teacher_until=1,
    )
    trainer = Trainer.fresh("short", settings, seed=5)
    assert trainer.run_generation()["taught"] is True
    assert trainer.nets.n_in == vai.n_inputs
    assert trainer.run_generation()["taught"] is False
    trainer.save(tmp_path)
    again = Trainer.resume(tmp_path / "latest.npz")
    assert again.settings.teacher == str(path) and again.settings.teacher_until == 1
