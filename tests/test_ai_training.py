"""The pieces behind the trained players: bear-off table, encoders, nets on disk, the trainer.

The bear-off table is checked against brute force written independently (the engine's public
``legal_plays`` on ``Position`` objects, plain recursion); the trainer is checked for exact
resumption: a run stopped and resumed from its checkpoint continues as if never stopped.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from ai import features
from ai.bearoff import BearoffTable, boards, build, shipped_table
from ai.net import Net, NetSet
from ai.search import ROLLS
from ai.training.trainer import Settings, Trainer
from ai.variant_ai import variant_ai
from engine.position import Position, Side
from engine.variants import get_variant

W = {dice: w / 36.0 for dice, w in ROLLS}


def board(home: tuple[int, ...], *, off: int | None = None) -> tuple[int, ...]:
    """A 26-tuple with ``home[i]`` checkers on point i + 1 and the rest borne off."""
    cells = [0] * 26
    cells[1 : 1 + len(home)] = home
    cells[0] = 15 - sum(home) if off is None else off
    return tuple(cells)


EMPTY = board(())


def next_homes(variant: str, home: tuple[int, ...], dice: tuple[int, int]) -> set[tuple]:
    pos = Position(variant, board(home), EMPTY, Side.WHITE)
    plays = get_variant(variant).legal_plays(pos, dice)
    return {p.result.mover[1:7] for p in plays}


@cache
def brute_mean(variant: str, home: tuple[int, ...]) -> float:
    """Expected rolls to bear off everything, each roll played to minimise it."""
    if not any(home):
        return 0.0
    return 1.0 + sum(
        w * min(brute_mean(variant, h) for h in next_homes(variant, home, d)) for d, w in W.items()
    )


@pytest.mark.parametrize("variant", ["long", "short"])
def test_bearoff_means_match_brute_force(variant: str) -> None:
    finish, _ = build(3)
    rolls = np.arange(finish.shape[1])
    for i, home in enumerate(boards(3)):
        assert finish[i].sum() == pytest.approx(1.0)
        assert finish[i] @ rolls == pytest.approx(brute_mean(variant, home), abs=1e-9), home


def test_single_checker_on_the_six_point() -> None:
    # 1-1, 1-2, 1-3, 1-4 and 2-3 (9 of 36) fail to bear it off at once; nothing needs 3 rolls.
    finish, _ = build(1)
    i = boards(1).index((0, 0, 0, 0, 0, 1))
    assert finish[i][:3] == pytest.approx([0.0, 27 / 36, 9 / 36])


def test_shipped_table_agrees_with_a_small_build() -> None:
    table = shipped_table()
    assert table is not None
    small = BearoffTable.from_distributions(*build(3), checkers=3)
    for home in boards(3):
        me = np.array([board((*home, 0, 0, 0, 0, 0, 0)[:6])])
        big_rank = table.race(me, me)  # exercises the lookup path
        assert np.isfinite(big_rank).all()
        ours = table.finish_cdf[_rank(table, home)]
        theirs = small.finish_cdf[_rank(small, home)]
        assert np.abs(ours - theirs).max() < 1e-3, home


def _rank(table: BearoffTable, home: tuple[int, ...]) -> int:
    from ai.bearoff import rank

    return int(rank(table._rank, np.array([home]))[0])


@cache
def brute_win(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """P(the side on roll, with home ``a``, finishes before ``b``), both playing the
    one-sided fastest way (the policy the table assumes)."""
    total = 0.0
    for d, w in W.items():
        best = min(next_homes("short", a, d), key=lambda h: brute_mean("short", h))
        total += w * (1.0 if not any(best) else 1.0 - brute_win(b, best))
    return total


def test_race_probabilities_match_two_sided_brute_force() -> None:
    table = shipped_table()
    assert table is not None
    cases = [((0, 1), (1,)), ((0, 0, 1, 1), (0, 0, 0, 2)), ((2, 1), (0, 0, 0, 0, 1, 1))]
    for me_home, opp_home in cases:
        me = np.array([board(me_home)])
        opp = np.array([board(opp_home)])
        win, _, _ = table.race(me, opp)[0]
        padded_me = tuple((*me_home, 0, 0, 0, 0, 0, 0)[:6])
        padded_opp = tuple((*opp_home, 0, 0, 0, 0, 0, 0)[:6])
        assert 1.0 - win == pytest.approx(brute_win(padded_opp, padded_me), abs=2e-4)


def test_mars_needs_the_loser_to_have_nothing_off() -> None:
    table = shipped_table()
    assert table is not None
    me = np.array([board((15,), off=0), board((14,), off=1)])
    opp = np.array([board((0, 0, 0, 0, 0, 1)), board((0, 0, 0, 0, 0, 1))])
    race = table.race(me, opp)
    assert race[0] == pytest.approx([0.0, 0.0, 0.75], abs=1e-4)  # marsed unless opp misses
    assert race[1][2] == 0.0


# ---- encoders ---------------------------------------------------------------------------


def _random_boards(variant: str, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    v = get_variant(variant)
    me, opp = v.start_board(), v.start_board()
    rows_me, rows_opp = [], []
    from engine import movegen

    while len(rows_me) < n:
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        nodes = movegen.generate(movegen.make_context(variant, me, opp, dice))
        node = nodes[int(rng.integers(len(nodes)))] if nodes else (0, (), me, opp)
        rows_me.append(node[2])
        rows_opp.append(node[3])
        me, opp = (v.start_board(),) * 2 if node[2][0] == 15 else (node[3], node[2])
    return np.array(rows_me, np.int16), np.array(rows_opp, np.int16)


@pytest.mark.parametrize("variant", ["long", "short"])
def test_encoder_shape_and_range(variant: str) -> None:
    vai = variant_ai(variant)
    me, opp = _random_boards(variant, 300, seed=3)
    x = vai.encode(me, opp)
    assert x.shape == (300, vai.n_inputs)
    assert x.dtype == np.float32
    assert np.isfinite(x).all() and np.abs(x).max() < 10


def test_long_encoder_is_symmetric_in_the_two_sides() -> None:
    me, opp = _random_boards("long", 200, seed=4)
    x = features.encode_long(me, opp)
    y = features.encode_long(opp, me)
    half = features.LONG_SIDE_UNITS
    assert np.array_equal(x[:, :half], y[:, half : 2 * half])
    assert np.allclose(x[:, -5], -y[:, -5])  # the pip lead changes sign


def test_long_encoder_sees_a_legal_and_an_illegal_six_block() -> None:
    # X holds six points in a row on O's route (O's 14..19 = X's 2..7, C-7), two each, the rest
    # on X's head. O still has everything on its head, or has one checker past the block.
    from engine.long_nardy import LONG_MAP

    me = [0] * 26
    for q in range(14, 20):
        me[LONG_MAP[q]] = 2
    me[24] = 3
    opp_behind = [0] * 26
    opp_behind[24] = 15  # every O checker on its head (24): behind the block
    opp_passed = list(opp_behind)
    opp_passed[24] = 14
    opp_passed[5] = 1  # one O checker already past it: the block is legal (L-16)
    x = features.encode_long(np.array([me, me], np.int16), np.array([opp_behind, opp_passed]))
    names = _long_extra_names()
    legal = 96 + names.index("legal")
    window = 96 + names.index("best_window")
    trapped = 96 + names.index("trapped")
    assert x[0, window] == pytest.approx(1.0) and x[1, window] == pytest.approx(1.0)
    assert x[0, legal] == 0.0 and x[1, legal] == 1.0
    assert x[0, trapped] == pytest.approx(1.0)


def _long_extra_names() -> list[str]:
    return [
        "off",
        "head",
        "head2",
        "head_excess",
        "pips",
        "home",
        "q1",
        "q2",
        "q3",
        "q4",
        "best_run",
        "run4",
        "best_window",
        "window5",
        "window5_legal",
        "legal",
        "b_first",
        "trapped",
        "trapped_run",
        "mars_need",
        "held",
        "stack",
    ]


# ---- nets on disk and the trainer --------------------------------------------------------


def test_netset_round_trip_and_phase_dispatch(tmp_path: Path) -> None:
    vai = variant_ai("long")
    rng = np.random.default_rng(0)
    nets = NetSet(
        "long", vai.phases, {p: Net.fresh(vai.n_inputs, 8, vai.n_out, rng) for p in vai.phases}
    )
    nets.save(tmp_path / "n.npz", note=np.array(1))
    back = NetSet.load(tmp_path / "n.npz")
    me, opp = _random_boards("long", 400, seed=5)
    x, ph = vai.encode(me, opp), vai.phase(me, opp)
    assert set(ph) == {0, 1}  # random games reach races
    assert np.array_equal(nets.probs(x, ph), back.probs(x, ph))
    assert int(back.extra["note"]) == 1
    contact_only = nets.nets["contact"].forward(x)[1]
    # The same rows through a smaller matrix product: BLAS may round the last bit otherwise.
    assert np.allclose(nets.probs(x, ph)[ph == 0], contact_only[ph == 0], rtol=0, atol=1e-6)


def test_trainer_resumes_exactly(tmp_path: Path) -> None:
    # One game with 1-ply targets and one plain TD(λ) game per generation.
    settings = Settings(
        hidden=(8, 8), games_per_gen=2, one_ply=0.5, batch=32, reuse=1.0, buffer=5000
    )
    straight = Trainer.fresh("short", settings, seed=9)
    straight.run_generation()
    straight.save(tmp_path)
    resumed = Trainer.resume(tmp_path / "latest.npz")
    assert resumed.generation == 1 and resumed.buffer.size == straight.buffer.size
    a = straight.run_generation()
    b = resumed.run_generation()
    for key in ("positions", "fresh_eq_rmse", "train_ce"):
        assert a[key] == b[key]
    for phase in straight.nets.phases:
        for name, arr in straight.nets.nets[phase].params().items():
            assert np.array_equal(arr, resumed.nets.nets[phase].params()[name]), (phase, name)


def test_weights_file_resumes_without_the_buffer(tmp_path: Path) -> None:
    settings = Settings(hidden=(8, 8), games_per_gen=1, batch=32, reuse=1.0, buffer=5000)
    trainer = Trainer.fresh("short", settings, seed=2)
    trainer.run_generation()
    trainer.save(tmp_path, with_buffer=False)
    assert not (tmp_path / "latest.npz").exists()
    again = Trainer.resume(tmp_path / "weights.npz")
    assert again.generation == 1 and again.buffer.size == 0
    assert again.opts["contact"].steps == trainer.opts["contact"].steps


@pytest.mark.parametrize("variant", ["long", "short"])
def test_evaluator_is_exact_where_it_can_be(variant: str) -> None:
    """A finished game scores its points; a race with both sides home uses the table."""
    from ai.search import NetEvaluator

    vai = variant_ai(variant)
    rng = np.random.default_rng(1)
    nets = NetSet(
        variant, vai.phases, {p: Net.fresh(vai.n_inputs, 4, vai.n_out, rng) for p in vai.phases}
    )
    ev = NetEvaluator(vai, nets, shipped_table())
    done = board(())
    loser = board((0, 0, 0, 0, 0, 15), off=0)
    home_me = board((0, 0, 3))
    home_opp = board((0, 0, 0, 0, 0, 1))
    values = ev([done, home_me], [loser, home_opp])
    assert values[0] == 2.0  # mars (M-2): the loser has nothing off
    table = shipped_table()
    assert table is not None
    race = table.race(np.array([home_me]), np.array([home_opp]))[0]
    assert values[1] == pytest.approx(2 * race[0] - 1 + race[1] - race[2], abs=1e-6)


def test_generated_starts_are_legal_positions_of_their_family() -> None:
    """Every generated start is a legal short position in contact; the primed family has a
    checker of the trapped side behind (or on the bar against) a prime of four or more."""
    from ai.training.starts import back_game, blind_spot_start, primed

    short = get_variant("short")
    vai = variant_ai("short")
    rng = np.random.default_rng(4)
    for _ in range(2000):
        me, opp = blind_spot_start(rng)
        short.check_position(Position("short", me, opp, Side.BLACK))
        assert vai.no_contact(me, opp) is False
    for _ in range(500):
        p, t = primed(rng)
        short.check_position(Position("short", p, t, Side.WHITE))
        held = [q for q in range(1, 25) if p[q] >= 2]
        runs = [q for q in held if all(p[q + k] >= 2 for k in range(4) if q + k <= 24)]
        front = min(q for q in runs if q + 3 <= 24)
        # t's trapped checkers: on the bar or on p's points below the prime's front.
        assert t[25] + sum(t[25 - q] for q in range(1, front)) >= 1
        assert sum(t[1:7]) + t[0] >= 9  # most of t's checkers home or off
    for _ in range(500):
        a, b = back_game(rng)
        short.check_position(Position("short", a, b, Side.WHITE))
        assert sum(1 for q in range(19, 25) if b[q] >= 2) == 2
        assert sum(a[13:26]) == 0


def test_play_game_from_a_start_trains_on_the_start_itself() -> None:
    vai = variant_ai("short")
    settings = Settings(hidden=(8, 8), games_per_gen=1, batch=32, reuse=1.0, buffer=5000)
    trainer = Trainer.fresh("short", settings, seed=3)
    from ai.training.selfplay import play_game

    start = vai.training_start(np.random.default_rng(5))
    game = play_game(
        trainer.evaluator(), vai, np.random.default_rng(6), lam=0.0, explore=0.0, start=start
    )
    assert tuple(game.me[0]) == start[0] and tuple(game.opp[0]) == start[1]
    assert len(game.me) == len(game.target) == len(game.one_ply) >= 1
    with pytest.raises(ValueError):
        variant_ai("long").training_start(np.random.default_rng(0))


def test_trainer_with_starts_resumes_exactly_and_reports_them(tmp_path: Path) -> None:
    settings = Settings(
        hidden=(8, 8),
        games_per_gen=2,
        starts=0.5,
        starts_lam=0.3,
        batch=32,
        reuse=1.0,
        buffer=5000,
    )
    straight = Trainer.fresh("short", settings, seed=11)
    first = straight.run_generation()
    assert first["games"] == 2 and "starts_eq_rmse" in first
    straight.save(tmp_path)
    resumed = Trainer.resume(tmp_path / "latest.npz")
    assert resumed.settings.starts == 0.5 and resumed.settings.starts_lam == 0.3
    a = straight.run_generation()
    b = resumed.run_generation()
    for key in ("positions", "fresh_eq_rmse", "starts_eq_rmse", "train_ce"):
        assert a[key] == b[key]
