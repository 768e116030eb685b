"""Seeded matches between computer players, with win rate, points per game and 95 % CIs.

    .venv/bin/python benchmarks/ai_arena.py --variant short --pairing hard:random --games 1000
    .venv/bin/python benchmarks/ai_arena.py --variant short --pairing hard:gnubg --games 200

Players: the levels ``easy``, ``medium``, ``hard`` (``medium-heur``/``hard-heur``: the same
search on the hand-written evaluation; ``hard@FILE``: the same search on the nets of FILE, e.g.
a training checkpoint or an older ``ai/weights`` file from git; ``hard~3,0.1,40000``: ``hard``
with other 2-ply settings — plays, margin, replies budget; ``hard~0,0,0`` is 1-ply only;
``hard^x=0.6,rx=0.8,d=0,rf=1,m=0.1,dm=0``: other money-cube settings — contact and race cube
efficiency, pre-roll depth, race formula, take and double margins; ``hard^old=1`` the former fixed
thresholds, see ``ai.cube``); ``medium%0.05``: a level choosing by a softmax over its
equities at another temperature (``medium%0``: always the best play; see
``ai.player.MEDIUM_TEMPERATURE``); the baselines ``random`` and ``race`` (greedy: most pips,
then fewest blots); and, short nardy only, ``gnubg`` / ``gnubg2`` (GNU Backgammon 0-ply / 2-ply
through ``benchmarks/ai_gnubg_server.py``, benchmark only).

Games run through the real :class:`engine.game.Game` (lot, first turns, passes, scoring), so
what is measured is what the bot will do. Game ``i`` uses dice from ``Random(f"{seed}:{i}")``
and puts player A in seat ``i % 2``; the same command prints the same figures. The cube is off
unless ``--cube`` is given (then mars/koks and cube decisions both count in the points).
``--start N`` plays games N, N + 1, ... of the seed: a later run adds new games to an earlier
one, and the ``--json`` line holds A's points per game, so the two can be pooled exactly.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from multiprocessing import Pool
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import Player, get_player
from ai.cube import CubeSettings
from ai.net import NetSet
from ai.player import CUBE_SETTINGS
from ai.variant_ai import variant_ai
from engine.game import Game, Phase
from engine.options import Options
from engine.position import Position
from engine.step import Play
from engine.variants import get_variant

SERVER = Path(__file__).resolve().parent / "ai_gnubg_server.py"


class Agent(Protocol):
    def choose_play(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        first_turn: bool = False,
        options: Options | None = None,
    ) -> Play: ...

    def should_double(self, game: Game) -> bool: ...

    def should_take(self, game: Game) -> bool: ...


def find_gnubg() -> str | None:
    """The GNU Backgammon executable (Debian puts it in /usr/games), or None when it is not
    installed: the benchmarks and their tests skip gnubg's parts then."""
    for candidate in (shutil.which("gnubg"), "/usr/games/gnubg"):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


class GnubgAgent:
    """GNU Backgammon as an opponent: a gnubg process answering best moves over a pipe."""

    def __init__(self, plies: int) -> None:
        exe = find_gnubg() or "/usr/games/gnubg"
        self.plies = plies
        self.proc = subprocess.Popen(
            [exe, "-t", "-q", "-p", str(SERVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.mismatches = 0

    def choose_play(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        first_turn: bool = False,
        options: Options | None = None,
    ) -> Play:
        plays = get_variant("short").legal_plays(position, dice, options=options)
        if len(plays) == 1:
            return plays[0]
        me, opp = position.mover, position.opponent
        assert self.proc.stdin is not None and self.proc.stdout is not None
        line = " ".join(map(str, (*me, *opp, dice[0], dice[1], self.plies)))
        self.proc.stdin.write(line + "\n")
        while True:
            answer = self.proc.stdout.readline()
            if not answer:
                raise RuntimeError("gnubg exited")
            answer = answer.strip()
            if answer == "-" or (answer and all("/" in t for t in answer.split())):
                break
        mine, theirs = list(me), list(opp)
        for token in answer.split() if answer != "-" else ():
            src, dst = (int(x) for x in token.split("/"))
            mine[src] -= 1
            if dst <= 0:
                mine[0] += 1
                continue
            if theirs[25 - dst] == 1:
                theirs[25 - dst] = 0
                theirs[25] += 1
            mine[dst] += 1
        for play in plays:
            if play.result.mover == tuple(mine) and play.result.opponent == tuple(theirs):
                return play
        self.mismatches += 1
        return plays[0]

    def equity(self, me: tuple[int, ...], opp: tuple[int, ...], plies: int) -> float:
        """gnubg's cubeless equity of an after-state for ``me``, who has just moved."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(" ".join(map(str, ("E", plies, *me, *opp))) + "\n")
        while True:
            answer = self.proc.stdout.readline()
            if not answer:
                raise RuntimeError("gnubg exited")
            try:
                return float(answer)
            except ValueError:
                continue  # gnubg's own chatter

    def cube_values(self, game: Game) -> tuple[float, float, float]:
        """gnubg's cubeful money equities (no double, double/take, double/pass) of the side
        about to roll in ``game`` (in both phases ROLL and DOUBLE that is the doubler)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        roller = game.double_offered_by if game.phase is Phase.DOUBLE else game.side_to_move
        owner = -1 if game.cube_owner is None else int(game.cube_owner == roller)
        pos = game.pos
        line = " ".join(map(str, ("C", self.plies, owner, *pos.mover, *pos.opponent)))
        self.proc.stdin.write(line + "\n")
        while True:
            answer = self.proc.stdout.readline()
            if not answer:
                raise RuntimeError("gnubg exited")
            try:
                nd, dt, dp = (float(x) for x in answer.split())
            except ValueError:
                continue  # gnubg's own chatter
            return nd, dt, dp

    def should_double(self, game: Game) -> bool:
        """Double when the opponent's better answer still beats not doubling (gnubg's
        rule; "too good" positions play on because no double then beats the pass)."""
        if game.phase is not Phase.ROLL or not game.cube_enabled or game.crawford:
            return False
        if game.cube_owner not in (None, game.side_to_move):
            return False
        nd, dt, dp = self.cube_values(game)
        return min(dt, dp) > nd

    def should_take(self, game: Game) -> bool:
        """Take when the take costs less than the pass (from the doubler's side: the
        taker picks the smaller of its two equities)."""
        _, dt, dp = self.cube_values(game)
        return dt <= dp

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.stdin.close()
        self.proc.wait(timeout=10)
        if self.proc.stdout:
            self.proc.stdout.close()


def make_agent(name: str, variant: str, seed: int) -> Agent:
    if "^" in name:  # other money-cube settings: hard^x=0.6,rx=0.8,d=0,rf=1,old=1
        base, _, spec = name.partition("^")
        agent = make_agent(base, variant, seed)
        assert isinstance(agent, Player)
        keys = {"x": "contact", "rx": "race", "d": "depth", "rf": "race_formula"}
        keys |= {"old": "thresholds", "m": "take_margin", "dm": "double_margin"}
        kinds = {"contact": float, "race": float, "depth": int}
        kinds |= {"take_margin": float, "double_margin": float}
        settings = agent.cube or CUBE_SETTINGS.get(agent.level, CubeSettings())
        for item in spec.split(","):
            key, _, value = item.partition("=")
            field_name = keys[key]
            kind = kinds.get(field_name)
            settings = replace(
                settings, **{field_name: kind(value) if kind else value not in ("0", "")}
            )
        agent.cube = settings
        return agent
    if "%" in name:  # another play temperature: medium%0.05 (0: always the best play)
        base, _, spec = name.partition("%")
        agent = make_agent(base, variant, seed)
        assert isinstance(agent, Player)
        agent.temperature = float(spec)
        return agent
    if "~" in name:  # hard with other 2-ply settings: hard~DEEP,MARGIN,BUDGET (0 = 1-ply only)
        base, _, spec = name.partition("~")
        agent = make_agent(base, variant, seed)
        assert isinstance(agent, Player)
        deep, margin, budget = spec.split(",")
        agent.search = replace(
            agent.search_settings(),
            deep=int(deep),
            deep_margin=float(margin),
            deep_budget=int(budget),
        )
        return agent
    if name.startswith("gnubg"):
        if variant != "short":
            raise SystemExit("gnubg plays only short nardy (backgammon)")
        return GnubgAgent(int(name[5:] or 0))
    if name.endswith("-heur"):  # a level with the hand-written evaluation instead of the net
        return Player(name[:-5], variant, seed, use_net=False)
    if "@" in name:  # a level with the nets of another file, e.g. hard@/tmp/weights.npz
        level, path = name.split("@", 1)
        nets = NetSet.load(Path(path), variant_ai(variant).phases)
        return Player(level, variant, seed, net=nets)
    return get_player(name, variant, seed=seed)


@dataclass
class Tally:
    points: list[int] = field(default_factory=list)  # A's signed points per game
    times: dict[str, list[float]] = field(default_factory=lambda: {"A": [], "B": []})
    # CPU time of this process per decision: what the search costs, whatever the machine's
    # load (a nice-19 arena's wall clock mostly measures the other jobs); gnubg runs in its
    # own process, so its side counts only the pipe
    cpu: dict[str, list[float]] = field(default_factory=lambda: {"A": [], "B": []})
    kinds: dict[str, int] = field(default_factory=dict)
    max_rss_mb: float = 0.0


def play_game(
    variant: str,
    agents: tuple[Agent, Agent],
    a_seat: int,
    seed: str,
    options: Options,
    tally: Tally,
) -> None:
    """One game; agents[0] is A. Appends A's signed points and decision times to ``tally``."""
    rng = random.Random(seed)
    game = Game(variant, options)
    game.roll_lot(rng)
    seat_agent = {a_seat: agents[0], 1 - a_seat: agents[1]}
    seat_label = {a_seat: "A", 1 - a_seat: "B"}
    while game.phase is not Phase.OVER:
        seat = game.seat_to_act
        assert seat is not None
        agent = seat_agent[seat]
        if game.phase is Phase.ROLL:
            if game.can_double(seat) and agent.should_double(game):
                game.offer_double(seat)
                continue
            game.roll(rng, seat=seat)
        elif game.phase is Phase.DOUBLE:
            if agent.should_take(game):
                game.take(seat)
            else:
                game.drop(seat)
        else:
            side = game.side_to_move
            assert game.dice is not None
            t0, c0 = time.perf_counter(), time.process_time()
            play = agent.choose_play(
                game.pos, game.dice, first_turn=game.first_turn(side), options=game.options
            )
            tally.times[seat_label[seat]].append(time.perf_counter() - t0)
            tally.cpu[seat_label[seat]].append(time.process_time() - c0)
            game.play(play, seat=seat)
    result = game.result
    assert result is not None
    sign = 1 if game.seat_of(result.winner) == a_seat else -1
    tally.points.append(sign * result.points)
    key = f"{'A' if sign > 0 else 'B'}:{result.kind}"
    tally.kinds[key] = tally.kinds.get(key, 0) + 1


def run_chunk(args: tuple[str, str, str, int, list[int], bool, float, int]) -> Tally:
    variant, name_a, name_b, seed, indices, cube, deadline, progress = args
    options = Options(cube=cube)
    tally = Tally()
    agents = (make_agent(name_a, variant, seed * 2 + 1), make_agent(name_b, variant, seed * 2 + 2))
    try:
        for k, i in enumerate(indices):
            if k % 2 == 0 and time.time() > deadline:
                break  # out of time: stop at a whole number of seat-swapped pairs
            play_game(variant, agents, i % 2, f"{seed}:{i}", options, tally)
            if progress and (k + 1) % progress == 0:
                # a bounded run prints nothing else until it ends: show that it advances
                wins = sum(1 for p in tally.points if p > 0)
                print(
                    f"worker {os.getpid()}: {k + 1} games, A wins {wins}, "
                    f"A points {sum(tally.points):+d}, {time.strftime('%H:%M:%S')}",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        for agent in agents:
            if isinstance(agent, GnubgAgent):
                agent.close()
    tally.max_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return tally


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson interval for a win rate (better than ±1.96·sd near 0 or 1)."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarise(variant: str, name_a: str, name_b: str, tally: Tally, cube: bool) -> dict[str, Any]:
    n = len(tally.points)
    wins = sum(1 for p in tally.points if p > 0)
    lo, hi = wilson(wins, n)
    ppg = statistics.fmean(tally.points)
    sd = statistics.pstdev(tally.points) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    out: dict[str, Any] = {
        "variant": variant,
        "pairing": f"{name_a}:{name_b}",
        "cube": cube,
        "games": n,
        "win_rate": wins / n,
        "win_ci95": [lo, hi],
        "ppg": ppg,
        "ppg_ci95": [ppg - half, ppg + half],
        "kinds": dict(sorted(tally.kinds.items())),
        "max_rss_mb": tally.max_rss_mb,
    }
    for label, name in (("A", name_a), ("B", name_b)):
        ts, cs = tally.times[label], tally.cpu[label]
        out[f"time_{name}_{label}"] = {
            "moves": len(ts),
            "median_ms": 1000 * percentile(ts, 0.5),
            "p99_ms": 1000 * percentile(ts, 0.99),
            "max_ms": 1000 * max(ts, default=0.0),
            "cpu_median_ms": 1000 * percentile(cs, 0.5),
            "cpu_p99_ms": 1000 * percentile(cs, 0.99),
            "cpu_max_ms": 1000 * max(cs, default=0.0),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description="Seeded matches between computer players.")
    ap.add_argument("--variant", choices=("long", "short"), required=True)
    ap.add_argument("--pairing", required=True, help="A:B, e.g. hard:random")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--start",
        type=int,
        default=0,
        help="first game index (even): extends an earlier run of the same seed with new games",
    )
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (the machine has 2)")
    ap.add_argument("--cube", action="store_true", help="play with the doubling cube")
    ap.add_argument("--json", type=Path, help="append the summary as one JSON line here")
    ap.add_argument(
        "--progress", type=int, default=50, help="a line on stderr every N games (0: none)"
    )
    ap.add_argument(
        "--minutes", type=float, help="stop starting games after this long (fewer games)"
    )
    args = ap.parse_args()
    deadline = time.time() + args.minutes * 60.0 if args.minutes else float("inf")
    name_a, name_b = args.pairing.split(":")
    jobs = max(1, min(args.jobs, os.cpu_count() or 1))
    # Each chunk holds whole seat-swapped pairs (2k, 2k + 1), so a deadline keeps seats even.
    # Game i's dice come from "seed:i" and every decision is a pure function of the position
    # and dice, so games start.. are exactly the ones a longer run of the seed would add.
    if args.start % 2:
        raise SystemExit("--start must be even (games come in seat-swapped pairs)")
    end = args.start + args.games
    pairs = [list(range(p, min(p + 2, end))) for p in range(args.start, end, 2)]
    chunks = [[i for pair in pairs[j::jobs] for i in pair] for j in range(jobs)]
    work = [
        (args.variant, name_a, name_b, args.seed, c, args.cube, deadline, args.progress)
        for c in chunks
    ]
    t0 = time.perf_counter()
    if jobs == 1:
        parts = [run_chunk(work[0])]
    else:
        with Pool(jobs) as pool:
            parts = pool.map(run_chunk, work)
    total = Tally()
    for part in parts:
        total.points += part.points
        for k in ("A", "B"):
            total.times[k] += part.times[k]
            total.cpu[k] += part.cpu[k]
        for k, v in part.kinds.items():
            total.kinds[k] = total.kinds.get(k, 0) + v
        total.max_rss_mb = max(total.max_rss_mb, part.max_rss_mb)
    summary = summarise(args.variant, name_a, name_b, total, args.cube)
    summary["seconds"] = round(time.perf_counter() - t0, 1)
    summary["seed"], summary["start"] = args.seed, args.start
    # A's points per game (worker by worker with --jobs), so runs can be pooled exactly, and
    # each one's game index (a worker plays a prefix of its chunk), so runs of the same seed
    # can be paired game by game (same dice: arena_pool.py --against)
    summary["points"] = total.points
    played = zip(parts, chunks, strict=True)
    summary["indices"] = [i for part, chunk in played for i in chunk[: len(part.points)]]
    lo, hi = summary["win_ci95"]
    plo, phi = summary["ppg_ci95"]
    print(
        f"{args.variant} {name_a} vs {name_b}: {summary['games']} games, "
        f"{name_a} wins {summary['win_rate']:.1%} [{lo:.1%}, {hi:.1%}], "
        f"ppg {summary['ppg']:+.3f} [{plo:+.3f}, {phi:+.3f}], {summary['seconds']} s"
    )
    print(json.dumps({k: v for k, v in summary.items() if k not in ("points", "indices")}))
    if args.json:
        with args.json.open("a") as fh:
            fh.write(json.dumps(summary) + "\n")


if __name__ == "__main__":
    main()
