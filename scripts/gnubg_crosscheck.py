"""Cross-check short-nardy legal plays against GNU Backgammon (a trusted second opinion).

    .venv/bin/python scripts/gnubg_crosscheck.py --positions 300 --seed 1

Short nardy is backgammon (RULES.md §3), so for any position and roll the *set of positions*
reachable by a legal play must be the same in our engine and in GNU Backgammon. The script

1. plays seeded random games with our engine and samples positions from them, stratified so
   that checkers on the bar, bear-offs, contact and race positions are all covered, and gives
   each a seeded random roll (doubles over-represented, one roll in three);
2. runs GNU Backgammon *once* (``gnubg -t -q -p`` this same file, which then acts as the
   worker below): for every case it sets the board from our Position ID (``set board``), sets
   the dice (``set dice``) and asks for the hint list at 0-ply with an unlimited length
   (``gnubg.hint(100000)``). At 0-ply GNU Backgammon evaluates and lists *every* legal move of
   the roll (its move generator already keeps only the plays that use the most dice and the
   most pips, and merges plays that end in the same position). Each listed move text is
   turned into (from, to) pairs by ``gnubg.parsemove``;
3. applies those pairs itself (hitting a lone opponent checker on every landing point; GNU
   Backgammon writes an intermediate point of a chain only when a hit happens there) and
   compares the set of resulting positions with ours,
   ``{(p.result.mover, p.result.opponent) for p in plays}``. No listed move means "no legal
   play", which our engine writes as one empty play.

Prints a summary and, for each mismatch, the position ID, the dice and the plays only one side
has. Exits 1 on any mismatch, 2 when GNU Backgammon is missing or fails. Developer tool only:
the bot never runs GNU Backgammon. ``tests/test_gnubg_crosscheck.py`` runs it on 30 positions
when gnubg is installed.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

try:  # present only inside GNU Backgammon, where this file runs as the worker
    import gnubg
except ImportError:
    gnubg = None
    from engine import positionid
    from engine.notation import format_steps
    from engine.position import BAR, OFF, Position, Side
    from engine.variants import get_variant

JOB_ENV = "NARDY_GNUBG_CROSSCHECK_JOB"
OUT_ENV = "NARDY_GNUBG_CROSSCHECK_OUT"
HINT_MAX = 100000  # far above the most distinct plays any backgammon roll can have
SHOW_MAX = 12  # plays printed per side of a mismatch

Board = tuple[int, ...]
Result = tuple[Board, Board]  # (mover, opponent) after the play, each in its own numbering


# ---- worker: runs inside GNU Backgammon ---------------------------------------------------


def _match_id_dice(match_id: str) -> list[int]:
    """The dice in a GNU Backgammon Match ID (bits 15-17 and 18-20, least significant first)."""
    bits = int.from_bytes(base64.b64decode(match_id), "little")
    return [(bits >> 15) & 7, (bits >> 18) & 7]


def gnubg_worker(job_path: str, out_path: str) -> None:
    """Answer every ``[position_id, d1, d2]`` of the job with gnubg's full move list."""
    cmd = gnubg.command
    for line in (
        "set player 0 human",
        "set player 1 human",
        "set automatic roll off",
        "set automatic move off",  # a forced move must be listed, not played
        "set automatic bearoff off",
        "set evaluation chequerplay evaluation plies 0",
        "set evaluation chequerplay evaluation cubeful off",
        "new game",
    ):
        cmd(line)
    with open(job_path, encoding="utf-8") as fh:
        job = json.load(fh)
    answers = []
    for pid, d1, d2 in job:
        answer: dict[str, object] = {"id": pid}
        try:
            cmd(f"set board {pid}")
            cmd(f"set dice {d1} {d2}")
            # gnubg must still show our position (nothing was played automatically)
            answer["seen_id"] = gnubg.positionid()
            answer["seen_dice"] = _match_id_dice(gnubg.matchid())
            hint = gnubg.hint(HINT_MAX)
            entries = hint["hint"] if hint else []
            answer["plies"] = sorted({e["context"]["plies"] for e in entries})
            answer["moves"] = [e["move"] for e in entries]
            answer["pairs"] = [[list(p) for p in gnubg.parsemove(e["move"])] for e in entries]
        except Exception as exc:  # reported per case by the driver
            answer["error"] = f"{type(exc).__name__}: {exc}"
        answers.append(answer)
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(answers, fh)


# ---- driver: runs in the project's Python ---------------------------------------------------


@dataclass(frozen=True)
class Case:
    position: Position
    dice: tuple[int, int]
    kind: str  # "bar", "bearoff", "contact" or "race"


@dataclass
class Mismatch:
    case: Case
    position_id: str
    only_ours: list[str]
    only_gnubg: list[str]
    note: str = ""


@dataclass
class Report:
    checked: int = 0
    plays_compared: int = 0
    max_plays: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    doubles: int = 0
    with_hits: int = 0
    no_play: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    seconds: float = 0.0
    gnubg_seconds: float = 0.0


def find_gnubg(explicit: str | None = None) -> str | None:
    """The GNU Backgammon executable, or None when it is not installed."""
    for candidate in (explicit, shutil.which("gnubg"), "/usr/games/gnubg"):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def classify(position: Position) -> str:
    me, opp = position.mover, position.opponent
    if me[BAR]:
        return "bar"
    if sum(me[OFF:7]) == 15:
        return "bearoff"
    # my point p is the opponent's 25 - p: contact while some checker of mine is behind one of
    # theirs, i.e. my farthest point + their farthest point > 25 (bars count as 25)
    mine = max(p for p in range(1, 26) if me[p])
    theirs = max((p for p in range(1, 26) if opp[p]), default=0)
    return "contact" if mine + theirs > 25 else "race"


def generate_cases(count: int, seed: int) -> list[Case]:
    """``count`` positions sampled from seeded random games, stratified by kind, each with a
    seeded random roll (a double one time in three)."""
    rng = random.Random(seed)
    variant = get_variant("short")
    share = {"bar": 0.25, "bearoff": 0.25, "contact": 0.35, "race": 0.15}
    quota = {k: int(count * s) for k, s in share.items()}
    quota["contact"] += count - sum(quota.values())
    pools: dict[str, list[Position]] = {k: [] for k in share}
    seen: set[tuple[Board, Board]] = set()
    for _game in range(2000):
        if all(len(pools[k]) >= 3 * quota[k] for k in share) and _game >= 3:
            break
        position = variant.start_position(Side(rng.randrange(2)))
        while not position.is_finished():
            state = (position.mover, position.opponent)
            if state not in seen:
                seen.add(state)
                pools[classify(position)].append(position)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            play = rng.choice(variant.legal_plays(position, dice))
            position = play.result.swapped()
    chosen: list[tuple[str, Position]] = []
    leftovers: list[tuple[str, Position]] = []
    for kind in share:
        pool = pools[kind][:]
        rng.shuffle(pool)
        chosen += [(kind, p) for p in pool[: quota[kind]]]
        leftovers += [(kind, p) for p in pool[quota[kind] :]]
    rng.shuffle(leftovers)
    chosen += leftovers[: count - len(chosen)]
    rng.shuffle(chosen)
    cases = []
    for kind, position in chosen:
        if rng.random() < 1 / 3:
            d = rng.randint(1, 6)
            dice = (d, d)
        else:
            a, b = rng.sample(range(1, 7), 2)
            dice = (a, b)
        cases.append(Case(position, dice, kind))
    return cases


def run_gnubg(exe: str, jobs: list[list[object]], timeout: float) -> list[dict[str, object]]:
    """Run one gnubg process over all jobs; returns its answers in order."""
    with tempfile.TemporaryDirectory(prefix="gnubg_crosscheck_") as tmp:
        job_path = Path(tmp, "job.json")
        out_path = Path(tmp, "out.json")
        job_path.write_text(json.dumps(jobs), encoding="utf-8")
        env = dict(os.environ, **{JOB_ENV: str(job_path), OUT_ENV: str(out_path)})
        proc = subprocess.run(
            [exe, "-t", "-q", "-p", str(Path(__file__).resolve())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,  # gnubg draws the board after every command
            stderr=subprocess.PIPE,
            env=env,
            cwd=tmp,
            timeout=timeout,
            check=False,
            text=True,
        )
        if not out_path.exists():
            raise RuntimeError(
                f"gnubg wrote no answers (exit code {proc.returncode}): {proc.stderr[-2000:]}"
            )
        answers = json.loads(out_path.read_text(encoding="utf-8"))
    if len(answers) != len(jobs):
        raise RuntimeError(f"gnubg answered {len(answers)} of {len(jobs)} cases")
    return answers


def apply_pairs(mover: Board, opponent: Board, pairs: list[list[int]]) -> Result:
    """The position after gnubg's (from, to) pairs, in the mover's numbering (25 bar, 0 off).

    A landing on a lone opponent checker hits it (to the opponent's bar; my point p is the
    opponent's 25 - p). A chain's unwritten intermediate points are never hits in gnubg's text.
    """
    me, opp = list(mover), list(opponent)
    for src, dst in pairs:
        if not 1 <= src <= BAR or not OFF <= dst < src:
            raise ValueError(f"bad pair {src}/{dst}")
        me[src] -= 1
        if dst == OFF:
            me[OFF] += 1
            continue
        there = 25 - dst
        if opp[there] > 1:
            raise ValueError(f"{src}/{dst} lands on {opp[there]} opponent checkers")
        if opp[there] == 1:
            opp[there] = 0
            opp[BAR] += 1
        me[dst] += 1
    if min(me) < 0:
        raise ValueError("moves a checker that is not there")
    return tuple(me), tuple(opp)


def check_case(case: Case, answer: dict[str, object], report: Report) -> Mismatch | None:
    """Compare one case; updates the report's figures and returns the mismatch, if any."""
    position, dice = case.position, case.dice
    pid = positionid.encode(position)
    plays = get_variant("short").legal_plays(position, dice)
    ours = {
        (p.result.mover, p.result.opponent): format_steps(p.steps) or "(no play)" for p in plays
    }
    report.checked += 1
    report.kinds[case.kind] = report.kinds.get(case.kind, 0) + 1
    report.doubles += dice[0] == dice[1]
    report.with_hits += any(p.hits for p in plays)
    report.no_play += not plays[0].steps
    report.max_plays = max(report.max_plays, len(ours))

    def problem(note: str) -> Mismatch:
        return Mismatch(case, pid, [], [], note)

    if "error" in answer:
        return problem(f"gnubg failed: {answer['error']}")
    if answer.get("seen_id") != pid:
        return problem(f"gnubg shows position {answer.get('seen_id')}, not {pid}")
    if sorted(answer.get("seen_dice") or []) != sorted(dice):
        return problem(f"gnubg shows dice {answer.get('seen_dice')}, not {list(dice)}")
    if answer["plies"] and answer["plies"] != [0]:
        return problem(f"gnubg evaluated at plies {answer['plies']}, expected 0")
    theirs: dict[Result, str] = {}
    texts = answer["moves"]
    for text, pairs in zip(texts, answer["pairs"], strict=True):
        try:
            result = apply_pairs(position.mover, position.opponent, pairs)
        except ValueError as exc:
            return problem(f"cannot apply gnubg's move {text!r}: {exc}")
        if result in theirs:
            return problem(f"gnubg lists {theirs[result]!r} and {text!r} with one result")
        theirs[result] = text
    if not theirs:  # no legal move: the turn passes, the position stays
        theirs[(position.mover, position.opponent)] = "(no play)"
    report.plays_compared += len(ours)
    if ours.keys() == theirs.keys():
        return None
    only_ours = sorted(ours[r] for r in ours.keys() - theirs.keys())
    only_gnubg = sorted(theirs[r] for r in theirs.keys() - ours.keys())
    return Mismatch(case, pid, only_ours, only_gnubg)


def run(count: int = 300, seed: int = 1, exe: str | None = None) -> Report:
    """Generate ``count`` cases from ``seed``, ask gnubg, compare; raises if gnubg is absent."""
    found = find_gnubg(exe)
    if found is None:
        raise FileNotFoundError("GNU Backgammon (gnubg) is not installed")
    started = time.perf_counter()
    cases = generate_cases(count, seed)
    jobs: list[list[object]] = [[positionid.encode(c.position), *c.dice] for c in cases]
    gnubg_started = time.perf_counter()
    answers = run_gnubg(found, jobs, timeout=60 + 2 * count)
    report = Report(gnubg_seconds=time.perf_counter() - gnubg_started)
    for case, answer in zip(cases, answers, strict=True):
        mismatch = check_case(case, answer, report)
        if mismatch is not None:
            report.mismatches.append(mismatch)
    report.seconds = time.perf_counter() - started
    return report


def _listing(label: str, texts: list[str]) -> list[str]:
    lines = [f"    only {label} ({len(texts)}):"]
    lines += [f"      {t}" for t in texts[:SHOW_MAX]]
    if len(texts) > SHOW_MAX:
        lines.append(f"      … and {len(texts) - SHOW_MAX} more")
    return lines


def format_report(report: Report) -> str:
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(report.kinds.items()))
    lines = [
        f"positions checked: {report.checked} ({kinds}; doubles {report.doubles}, "
        f"some play hits {report.with_hits}, no legal play {report.no_play})",
        f"distinct results compared: {report.plays_compared} "
        f"(most in one case: {report.max_plays})",
        f"mismatches: {len(report.mismatches)}",
        f"time: {report.seconds:.1f} s (gnubg {report.gnubg_seconds:.1f} s)",
    ]
    for m in report.mismatches:
        d1, d2 = m.case.dice
        lines.append(
            f"  MISMATCH position ID {m.position_id} dice {d1}-{d2} "
            f"({m.case.kind}, {m.case.position.turn.label} on roll)"
        )
        if m.note:
            lines.append(f"    {m.note}")
        if m.only_ours:
            lines += _listing("ours", m.only_ours)
        if m.only_gnubg:
            lines += _listing("gnubg", m.only_gnubg)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=300, help="cases to check (300)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("--gnubg", default=None, help="path of the gnubg executable")
    args = parser.parse_args(argv)
    try:
        report = run(args.positions, args.seed, args.gnubg)
    except (FileNotFoundError, RuntimeError, subprocess.TimeoutExpired) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(format_report(report))
    return 1 if report.mismatches else 0


if __name__ == "__main__":
    if gnubg is None:
        sys.exit(main())
    elif JOB_ENV in os.environ:
        gnubg_worker(os.environ[JOB_ENV], os.environ[OUT_ENV])
    else:
        print("run this with the project's Python; it starts gnubg itself", file=sys.stderr)
