"""Provably fair dice (engine/fairness.py): the documented stream, its uniformity, reports and
the verifier, and the engine drawing its dice (the lot included) from it."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine import fairness
from engine.fairness import (
    ACCEPT_BELOW,
    DiceStream,
    FairDice,
    FairnessError,
    Played,
    PlayedKind,
    ProblemKind,
    check_played,
    commitment,
    make_report,
    select_die,
    verify_report,
)
from engine.game import Match, Phase

SEED = bytes(range(32))
CLIENTS = ["tg:user=111;update=900001;date=1764590000;message=42", "phrase:user=222;ладья"]
ROOT = Path(__file__).resolve().parents[2]


def reference_die(server_seed: bytes, client_seeds: list[str], counter: int) -> int:
    """docs/fairness.md, typed in again from the text with one-shot ``hmac.digest`` calls."""
    combined = hashlib.sha256(b"nardy-dice-v1")
    for seed in client_seeds:
        data = seed.encode("utf-8")
        combined.update(len(data).to_bytes(4, "big") + data)
    attempt = 0
    while True:
        msg = combined.digest() + counter.to_bytes(8, "big") + attempt.to_bytes(4, "big")
        for byte in hmac.digest(server_seed, msg, "sha256"):
            if byte < 252:
                return byte % 6 + 1
        attempt += 1


def chi_square_sf_5(x: float) -> float:
    """P(chi-square with 5 degrees of freedom > x), in closed form (odd degrees of freedom)."""
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


def chi_square(counts: np.ndarray) -> float:
    expected = counts.sum() / len(counts)
    return float(((counts - expected) ** 2 / expected).sum())


# ---- the stream -----------------------------------------------------------------------------


def test_the_stream_is_the_documented_algorithm() -> None:
    stream = DiceStream(SEED, CLIENTS)
    assert stream.dice(0, 300) == [reference_die(SEED, CLIENTS, n) for n in range(300)]


def test_known_answer() -> None:
    """A fixed vector, so a change of the algorithm cannot pass by changing both the code and
    the reference above: these are the first 24 dice of SEED and CLIENTS under nardy-dice-v1."""
    assert "".join(map(str, DiceStream(SEED, CLIENTS).dice(0, 24))) == "654366324255563432163445"
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


def test_determinism_and_dependence_on_every_input() -> None:
    base = DiceStream(SEED, CLIENTS).dice(0, 64)
    assert DiceStream(SEED, list(CLIENTS)).dice(0, 64) == base
    other_seed = bytes([1]) + SEED[1:]
    assert DiceStream(other_seed, CLIENTS).dice(0, 64) != base
    assert DiceStream(SEED, [*CLIENTS[:1], CLIENTS[1] + "!"]).dice(0, 64) != base
    assert DiceStream(SEED, list(reversed(CLIENTS))).dice(0, 64) != base
    # Length prefixes: moving text from one seed to the next changes the stream.
    assert DiceStream(SEED, ["ab", "c"]).dice(0, 64) != DiceStream(SEED, ["a", "bc"]).dice(0, 64)
    assert DiceStream(SEED, CLIENTS).dice(10, 20) == base[10:30]


@pytest.mark.parametrize(
    ("block", "face"),
    [
        (bytes([0]) + bytes(31), 1),
        (bytes([5]), 6),
        (bytes([6]), 1),
        (bytes([251]), 6),  # the last accepted byte: 251 = 41 * 6 + 5
        (bytes([252, 0]), 1),  # 252..255 are rejected, the next byte decides
        (bytes([253, 254, 255, 252, 250]), 5),
        (bytes([255] * 31 + [17]), 6),
        (bytes([252, 253, 254, 255] * 8), None),  # all 32 rejected: the next block decides
    ],
)
def test_rejection_sampling_boundaries(block: bytes, face: int | None) -> None:
    assert select_die(block) == face


def test_rejection_sampling_never_biases() -> None:
    # Every accepted byte value maps to a face, and each face has exactly 42 of them.
    faces = [select_die(bytes([b])) for b in range(256)]
    assert ACCEPT_BELOW == 252
    assert faces[252:] == [None] * 4
    assert [faces.count(f) for f in range(1, 7)] == [42] * 6


def test_a_fully_rejected_block_moves_to_the_next_attempt(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = DiceStream(SEED, CLIENTS)
    rejected = bytes([255] * 32)
    real = DiceStream.block

    def block(self: DiceStream, counter: int, attempt: int = 0) -> bytes:
        return rejected if attempt < 2 else real(self, counter, attempt)

    monkeypatch.setattr(DiceStream, "block", block)
    assert stream.die(7) == select_die(real(stream, 7, 2))


def test_a_million_dice_are_uniform() -> None:
    """Chi-square over 10**6 dice: p > 1e-4. The same bytes read without rejection
    (``b % 6 + 1``, biased by 4/256 towards 1..4) fail the same test: the test has power."""
    n = 1_000_000
    stream = DiceStream(SEED, CLIENTS)
    raw = np.frombuffer(b"".join(stream.block(c) for c in range(n)), dtype=np.uint8)
    blocks = raw.reshape(n, 32)
    accepted = blocks < ACCEPT_BELOW
    assert accepted.any(axis=1).all()  # no die needed a second block here
    first = accepted.argmax(axis=1)
    faces = blocks[np.arange(n), first].astype(np.int64) % 6 + 1
    sample = random.Random(5).sample(range(n), 200)
    assert [int(faces[c]) for c in sample] == [stream.die(c) for c in sample]

    fair = chi_square(np.bincount(faces, minlength=7)[1:])
    assert chi_square_sf_5(fair) > 1e-4, fair
    biased = chi_square(np.bincount(blocks[:, 0] % 6 + 1, minlength=7)[1:])
    assert chi_square_sf_5(biased) < 1e-6, biased
    # Pairs as the players see them (36 outcomes, 35 degrees of freedom), by a z-bound.
    pairs = np.bincount((faces[0::2] - 1) * 6 + (faces[1::2] - 1), minlength=36)
    assert abs(chi_square(pairs) - 35) < 6 * math.sqrt(70)


def test_chi_square_formula() -> None:
    assert chi_square_sf_5(0.0) == pytest.approx(1.0)
    assert chi_square_sf_5(11.0705) == pytest.approx(0.05, abs=1e-4)  # the textbook table
    assert chi_square_sf_5(20.515) == pytest.approx(0.001, abs=1e-5)


# ---- FairDice in the engine -------------------------------------------------------------------


def test_fair_dice_draw_only_dice_and_count() -> None:
    dice = FairDice(SEED, CLIENTS)
    values = [dice.randint(1, 6) for _ in range(10)]
    assert values == DiceStream(SEED, CLIENTS).dice(0, 10)
    assert dice.counter == 10
    assert [r.counter for r in dice.take_pending()] == list(range(10))
    assert dice.pending == ()
    with pytest.raises(FairnessError):
        dice.randint(1, 7)
    with pytest.raises(FairnessError):
        FairDice(SEED[:31], CLIENTS)
    assert SEED.hex() not in repr(dice) and "counter=10" in repr(dice)


def test_a_whole_match_rolls_from_the_stream_and_survives_save_and_load() -> None:
    """Play a 3-point short match to its end with the engine's rng = FairDice, saving and
    reloading the game and a rebuilt FairDice (from its counter only) after every action;
    every die the game shows, the opening lot and its re-rolls included, is the stream's."""
    chooser = random.Random(3)
    dice = FairDice(SEED, CLIENTS)
    match = Match("short", length=3)
    match.current.roll_lot(dice)
    lot_dice = len(dice.pending)
    drawn = [r.value for r in dice.take_pending()]
    histories = []
    for _ in range(5000):
        game = match.current
        if game.phase is Phase.OVER:
            histories.append(game.history)
            match.record_result()
            if match.is_over:
                break
            match.next_game()
            if match.current.phase is Phase.OPENING:
                match.current.roll_lot(dice)
        elif game.phase is Phase.ROLL:
            game.roll(dice, seat=game.seat_to_act)
        elif game.phase is Phase.MOVE:
            game.play(chooser.choice(game.turn.legal_plays), seat=game.seat_to_act)
        elif game.phase is Phase.DOUBLE:
            game.take(game.seat_to_act)  # pragma: no cover - no cube offered here
        drawn += [r.value for r in dice.take_pending()]
        match = Match.from_json(match.to_json())
        dice = FairDice(SEED, CLIENTS, counter=dice.counter)
    assert match.is_over
    assert lot_dice >= 2 and lot_dice % 2 == 0  # the lot (and any re-roll) drew from it
    assert drawn == DiceStream(SEED, CLIENTS).dice(0, len(drawn))
    played = [
        Played(PlayedKind(e.kind), e.dice)
        for h in histories
        for e in h
        if e.kind in ("lot", "roll")
    ]
    assert len(histories) >= 2 and check_played(drawn, played) == []
    report = make_report(SEED, CLIENTS, drawn, played=played)
    verdict = verify_report(json.loads(json.dumps(report)))
    assert verdict.ok and verdict.played_checked == len(played)
    # A roll the game shows that is not the stream's next pair is named.
    sixth = played[5].dice
    forged = [*played[:5], Played(PlayedKind.ROLL, (sixth[0] % 6 + 1, sixth[1])), *played[6:]]
    problems = check_played(drawn, forged)
    assert len(problems) == 1 and problems[0].kind is ProblemKind.PLAYED


# ---- reports -------------------------------------------------------------------------------------


def report(n: int = 40) -> dict:
    return make_report(SEED, CLIENTS, DiceStream(SEED, CLIENTS).dice(0, n), game={"game_id": 7})


def test_a_report_verifies() -> None:
    verdict = verify_report(report())
    assert verdict.ok and verdict.rolls_checked == 40
    assert verdict.commitment == commitment(SEED)
    assert verify_report(json.loads(json.dumps(report()))).ok  # through JSON text


def kinds(data: object) -> list[ProblemKind]:
    return [p.kind for p in verify_report(data).problems]


def test_a_changed_roll_fails_and_is_named() -> None:
    data = report()
    old = data["rolls"][17]["value"]
    data["rolls"][17]["value"] = old % 6 + 1
    problems = verify_report(data).problems
    assert [(p.kind, p.counter, p.expected, p.found) for p in problems] == [
        (ProblemKind.ROLL, 17, old, old % 6 + 1)
    ]


def test_a_changed_seed_or_commitment_or_client_seed_fails() -> None:
    data = report()
    data["server_seed"] = (bytes([SEED[0] ^ 1]) + SEED[1:]).hex()
    assert ProblemKind.COMMITMENT in kinds(data) and ProblemKind.ROLL in kinds(data)
    data = report()
    data["commitment"] = "0" * 64
    assert kinds(data) == [ProblemKind.COMMITMENT]
    data = report()
    data["client_seeds"][0] += "x"
    assert set(kinds(data)) == {ProblemKind.ROLL}


def test_skipped_or_reordered_dice_fail() -> None:
    data = report()
    del data["rolls"][5]  # a die drawn and hidden: the counters show the gap
    assert ProblemKind.COUNTER in kinds(data)
    data = report()
    data["rolls"][3], data["rolls"][4] = data["rolls"][4], data["rolls"][3]
    assert ProblemKind.COUNTER in kinds(data)


@pytest.mark.parametrize(
    ("mutate", "kind"),
    [
        (lambda d: d.update(algorithm="nardy-dice-v0"), ProblemKind.ALGORITHM),
        (lambda d: d.update(server_seed="zz"), ProblemKind.SERVER_SEED),
        (lambda d: d.update(server_seed=SEED.hex()[:-2]), ProblemKind.SERVER_SEED),
        (lambda d: d.update(rolls=[{"counter": 0, "value": "3"}]), ProblemKind.FORMAT),
        (lambda d: d.update(rolls=[{"counter": -1, "value": 3}]), ProblemKind.FORMAT),
        (lambda d: d.update(client_seeds="abc"), ProblemKind.FORMAT),
        (lambda d: d.update(client_seeds=[""]), ProblemKind.FORMAT),
        (lambda d: d.pop("commitment"), ProblemKind.FORMAT),
    ],
)
def test_malformed_reports_are_refused_not_crashed(mutate, kind: ProblemKind) -> None:
    data = copy.deepcopy(report(3))
    mutate(data)
    assert kinds(data) == [kind]


def test_not_an_object() -> None:
    assert kinds([1, 2]) == [ProblemKind.FORMAT]


def test_seed_helpers() -> None:
    seed = fairness.new_server_seed()
    assert len(seed) == 32 and seed != fairness.new_server_seed()
    assert fairness.short_commitment(commitment(SEED)) == "630d cd29 66c4"
    tg = fairness.telegram_client_seed(
        user_id=5, update_id=10, date=1700000000, message_id=3, callback_id="44"
    )
    assert tg == "tg:user=5;update=10;date=1700000000;message=3;callback=44"
    assert fairness.phrase_client_seed(5, "hi") == "phrase:user=5;hi"
    with pytest.raises(FairnessError):
        fairness.check_client_seed("x" * 513)


# ---- the command line ----------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "error"}
    return subprocess.run(
        [sys.executable, "-m", "engine.fairness", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_cli_verify(tmp_path: Path) -> None:
    good = tmp_path / "report.json"
    good.write_text(json.dumps(report()), encoding="utf-8")
    done = run_cli("verify", str(good))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("OK:") and "40 dice" in done.stdout and not done.stderr

    data = report()
    data["rolls"][2]["value"] = data["rolls"][2]["value"] % 6 + 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    done = run_cli("verify", str(bad))
    assert done.returncode == 1 and "roll: die at counter 2" in done.stdout

    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert run_cli("verify", str(broken)).returncode == 2
    assert run_cli("verify", str(tmp_path / "missing.json")).returncode == 2


LOT, ROLL = PlayedKind.LOT, PlayedKind.ROLL


@pytest.mark.parametrize(
    ("rolls", "played", "problem_counters"),
    [
        ([5, 2, 6, 1], [(LOT, (5, 2)), (ROLL, (6, 1))], []),
        ([3, 3, 4, 4, 5, 2, 6, 6], [(LOT, (5, 2)), (ROLL, (6, 6))], []),  # tied lots re-rolled
        ([3, 3, 5, 2], [(ROLL, (5, 2))], [0, 2]),  # only a lot skips a tie
        ([5, 2, 6, 1, 4, 4], [(LOT, (5, 2)), (ROLL, (4, 4))], [2, 4]),  # a roll hidden
        ([5, 2, 6, 1, 4, 4], [(LOT, (5, 2)), (ROLL, (6, 1))], [4]),  # drawn, never played
        ([5, 2], [(LOT, (5, 2)), (ROLL, (6, 1))], [None]),  # played, never drawn
        ([5, 2, 6], [(LOT, (5, 2))], [None]),  # an odd number of dice
        ([5, 2], [(LOT, (2, 5))], [0]),  # the lot is seat 0's die, then seat 1's
    ],
)
def test_played_dice_against_the_stream(rolls, played, problem_counters) -> None:
    problems = check_played(rolls, [Played(k, d) for k, d in played])
    assert all(p.kind is ProblemKind.PLAYED for p in problems)
    assert [p.counter for p in problems] == problem_counters


def test_played_in_a_report() -> None:
    stream = DiceStream(SEED, CLIENTS).dice(0, 6)
    pairs = [tuple(stream[i : i + 2]) for i in range(0, 6, 2)]
    played = [Played(ROLL, p) for p in pairs]  # no lot: a later game of a long match
    data = make_report(SEED, CLIENTS, stream, played=played)
    assert verify_report(data).played_checked == 3 and verify_report(data).ok
    data["played"][1]["dice"] = [data["played"][1]["dice"][0] % 6 + 1, data["played"][1]["dice"][1]]
    assert kinds(data) == [ProblemKind.PLAYED]
    data["played"] = [{"kind": "cube", "dice": [1, 2]}]
    assert kinds(data) == [ProblemKind.FORMAT]
    assert verify_report(make_report(SEED, CLIENTS, stream)).played_checked is None
