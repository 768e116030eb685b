"""Game records: the history walker and the Jellyfish / GNU Backgammon ``.mat`` text.

The GNU Backgammon checks need ``gnubg`` (1.07 here); where it is absent they are skipped.
They import our file, then make gnubg export the match again: every move gnubg understood
must come back as the same steps, and gnubg must read every game and no move as invalid.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from engine import Match, Options, positionid
from engine.game import EventKind
from engine.record import GameLog, game_turns, match_file, match_record, step_text
from engine.step import Step
from tests.matches import play_match
from tests.test_gnubg_crosscheck import crosscheck


def test_a_short_game_with_a_dropped_double() -> None:
    """White (Alice) wins the lot 3-1 and plays it; Bob answers 6-4; Alice doubles, Bob drops."""
    match = Match("short", 3)
    game = match.current
    game.set_lot(3, 1)
    game.apply_text("8/5 6/5")
    game.commit()
    game.roll(dice=(6, 4))
    game.apply_text("24/18 13/9")
    game.commit()
    game.offer_double(0)
    game.drop(1)
    assert match_file(match, ("Alice", "Bob")) == (
        " 3 point match\n"
        "\n"
        " Game 1\n"
        " Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                 64: 24/18 13/9\n"
        "  2)  Doubles => 2                Drops\n"
        "      Wins 1 point\n"
    )


def test_long_nardy_uses_the_same_layout_with_its_own_points() -> None:
    """Long nardy: the lot (5-2) is not a move; white plays 6-5 from the head (24/18/13, one
    checker: L-8), black 3-1, then white resigns before its third roll: a mars for Bob."""
    match = Match("long", 1)
    game = match.current
    game.set_lot(5, 2)
    game.roll(dice=(6, 5))
    game.apply_text("24/18/13")
    game.commit()
    game.roll(dice=(3, 1))
    game.apply_text("24/20")
    game.commit()
    game.resign(0)
    assert match_file(match, ("Алиса", "Bob: the second")) == (
        " 1 point match\n"
        "\n"
        " Game 1\n"
        " Алиса : 0                      Bob the second : 0\n"
        "  1) 65: 24/18 18/13             31: 24/21 21/20\n"
        "                                  Wins 2 points and the match\n"
    )


def test_steps_are_written_with_numbers_for_the_bar_and_off() -> None:
    assert step_text(Step(25, 22, 3)) == "25/22"
    assert step_text(Step(6, 0, 6)) == "6/0"
    assert step_text(Step(13, 10, 3, hit=True)) == "13/10*"


def test_a_game_whose_first_move_is_the_right_players_leaves_the_left_slot_empty() -> None:
    match = Match("short", 1)
    game = match.current
    game.set_lot(2, 5)  # seat 1 wins and plays 5-2
    game.apply_text("13/8 13/11")
    game.commit()
    lines = match_file(match, ("A", "B")).splitlines()
    assert lines[-1] == "  1)                             52: 13/8 13/11"


@pytest.mark.parametrize("variant", ["short", "long"])
def test_the_walker_rebuilds_every_stored_position(variant: str) -> None:
    """Over whole seeded matches: the board after each move is the one the game stored."""
    for seed in range(3):
        _, logs = play_match(variant, 3, seed)
        for log in logs:
            turns, end = game_turns(log.history, variant)
            stored = [e for e in log.history if e.kind in (EventKind.MOVE, EventKind.PASS)]
            moves = [t for t in turns if t.kind in (EventKind.MOVE, EventKind.PASS)]
            assert len(moves) == len(stored)
            for turn, event in zip(moves, stored, strict=True):
                assert turn.play is not None
                won = turn.play.result.borne_off(turn.side) == 15  # stored with the winner on roll
                shown = turn.play.result if won else turn.after
                assert positionid.encode(shown) == event.position_id
                assert turn.dice == tuple(event.dice)
            assert end is not None
            assert sum(1 for t in moves if t.first_turn) == 2 or len(moves) < 2


def test_a_match_record_has_one_game_section_per_game_with_the_running_score() -> None:
    _, logs = play_match("short", 5, seed=2)
    text = match_record("short", 5, ("Alice", "Bob"), logs)
    headers = re.findall(r"^ Game (\d+)\n Alice : (\d+) +Bob : (\d+)$", text, re.M)
    assert [int(h[0]) for h in headers] == list(range(1, len(logs) + 1))
    assert [(int(h[1]), int(h[2])) for h in headers] == [log.score for log in logs]
    assert text.count("Wins ") == len(logs)
    assert text.rstrip().endswith("and the match")


# ---- GNU Backgammon -------------------------------------------------------------------------


def _gnubg() -> str:
    exe = crosscheck.find_gnubg()
    if exe is None:
        pytest.skip("GNU Backgammon (gnubg) is not installed; the import check needs it")
    return exe


def _run_gnubg(exe: str, commands: str, tmp_path: Path) -> str:
    script = tmp_path / "commands.txt"
    script.write_text(commands)
    with script.open() as stdin:
        done = subprocess.run(
            [exe, "-t", "-q"], stdin=stdin, capture_output=True, text=True, timeout=120
        )
    return done.stdout + done.stderr


def _moves(text: str) -> list[Counter[str]]:
    """Every slot of every move line, as a multiset of steps and the hits in it."""
    slots: list[Counter[str]] = []
    for line in text.splitlines():
        found = re.match(r"^ *\d+\) (.*)$", line)
        if not found:
            continue
        for dice, steps in re.findall(r"(\d\d):((?: +\d+/\d+\*?)*)", found.group(1)):
            tokens = steps.split()
            slots.append(
                Counter(
                    [dice, *(t.rstrip("*") for t in tokens), "*" * sum("*" in t for t in tokens)]
                )
            )
    return slots


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_gnu_backgammon_imports_the_record(seed: int, tmp_path: Path) -> None:
    """A 5-point match with the Crawford rule (V-16): GNU Backgammon assumes it in every
    match it imports, so a match played without it that used the cube in the game gnubg
    takes for the Crawford game is misread (docs/records.md)."""
    exe = _gnubg()
    match, logs = play_match("short", 5, seed, options=Options(crawford=True))
    ours = match_record("short", 5, ("Alice", "Bob"), logs, match.options)
    mat = tmp_path / "ours.mat"
    mat.write_text(ours)
    back = tmp_path / "back.mat"
    out = _run_gnubg(exe, f"import mat {mat}\nshow score\nexport match mat {back}\n", tmp_path)
    assert not re.search(r"warning|invalid|unrecognised|error", out, re.I), out
    assert f"after {len(logs)} games" in out, out
    theirs = back.read_text()
    assert theirs.count(" Game ") == len(logs)
    assert _moves(theirs) == _moves(ours)
    assert theirs.count("Doubles =>") == ours.count("Doubles =>")
    assert theirs.count("Takes") == ours.count("Takes")
    assert theirs.count("Drops") == ours.count("Drops")


def test_gnu_backgammon_reads_a_running_game_to_the_same_position(tmp_path: Path) -> None:
    """A game stopped half way: gnubg's board after the import is ours (its Position ID)."""
    exe = _gnubg()
    _, logs = play_match("short", 1, seed=4, double_rate=0.0)
    history = list(logs[0].history)
    cut = [i for i, e in enumerate(history) if e.kind is EventKind.MOVE][12]
    log = GameLog(history[: cut + 1], logs[0].white_seat, (0, 0))
    mat = tmp_path / "running.mat"
    mat.write_text(match_record("short", 1, ("Alice", "Bob"), [log]))
    out = _run_gnubg(exe, f"import mat {mat}\nshow board\n", tmp_path)
    turns, _ = game_turns(log.history, "short")
    ids = re.findall(r"Position ID: (\S+)", out)
    assert ids and ids[-1] == positionid.encode(turns[-1].after), out


def test_a_later_game_alone_keeps_its_number_and_the_score_before_it() -> None:
    match, logs = play_match("short", 5, seed=2)
    assert len(logs) > 1
    text = match_file(match, ("Alice", "Bob"))
    number = len(logs)
    score = logs[-1].score
    assert f" Game {number}\n Alice : {score[0]}" in text
    assert text.count(" Game ") == 1
