"""After-game figures: replay size and time, review time, and whether the review ranks the
computer levels in order (docs/records.md).

    PYTHONPATH=. python benchmarks/review_bench.py                 # everything
    PYTHONPATH=. python benchmarks/review_bench.py --ranking 30 --minutes 10

Timing games have exactly the issue's lengths: 60 turns of short nardy, 120 of long nardy.
They are random-play games (more contact and more plays than a good player's: the harder
case) cut after that many turns. Short games reach 60 turns with fair dice; long games of 120
turns do not occur with fair dice (300 random games: at most 111 turns; computer levels: at
most 104), so the long ones are played with dice of 1-4 (:data:`LONG_TIMING_FACES`: smaller
steps, the same rules) and cut at 120. The replay and the review of each game are built in a
worker process started like the bot's (``spawn``) and timed there (``time.process_time`` of
that process), one at a time; the worker's first job (imports, nets) is not counted.

Ranking games are played to their end without the cube (so no cube decision is judged).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import io
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from ai import get_player
from ai.review import review_game
from engine import Match, Options
from engine.game import Event, EventKind, Game, Phase
from renderer import render_game_replay
from renderer.options import RU_LABELS

PAIRINGS = (("easy", "medium"), ("medium", "hard"), ("easy", "hard"))
ORDER = {"easy": 0, "medium": 1, "hard": 2}
NO_CUBE = Options(cube=False)
TIMING_TURNS = {"short": 60, "long": 120}
#: Die faces of the timing games (see the module docstring): long games need smaller rolls
#: to last 120 turns.
LONG_TIMING_FACES = 4
TIMING_FACES = {"short": 6, "long": LONG_TIMING_FACES}


def play_game(
    variant: str,
    seed: int,
    levels: tuple[str, str],
    *,
    options: Options = NO_CUBE,
    faces: int = 6,
) -> tuple[list[Event], Game]:
    """One game between two computer levels (seat 0, seat 1), without the cube by default;
    the dice (after a fair opening lot) have ``faces`` faces."""
    rng = random.Random(seed)
    players = [get_player(level, variant, seed=seed * 2 + i) for i, level in enumerate(levels)]
    game = Match(variant, 1, options).current
    game.roll_lot(rng)
    while game.phase is not Phase.OVER:
        if game.phase is Phase.ROLL:
            game.roll(dice=(rng.randint(1, faces), rng.randint(1, faces)))
            continue
        seat = game.seat_to_act
        assert seat is not None and game.dice is not None
        play = players[seat].choose_play(
            game.pos,
            game.dice,
            first_turn=game.first_turn(game.side_to_move),
            options=game.options,
        )
        game.play(play)
    return list(game.history), game


def turns_of(history: list[Event]) -> int:
    return sum(e.kind in (EventKind.MOVE, EventKind.PASS) for e in history)


def cut(history: list[Event], turns: int) -> list[Event]:
    """The history up to and including its ``turns``-th move."""
    seen = 0
    for i, event in enumerate(history):
        if event.kind in (EventKind.MOVE, EventKind.PASS):
            seen += 1
            if seen == turns:
                return history[: i + 1]
    return history


def timing_games(variant: str, games: int, turns: int) -> list[list[Event]]:
    """``games`` random-play games of exactly ``turns`` turns (seeded: the same every run),
    played with the variant's default options (short nardy: the cube on, never used)."""
    chosen: list[list[Event]] = []
    for seed in range(1000, 1000 + 50 * games):
        history, _ = play_game(
            variant, seed, ("random", "random"), options=Options(), faces=TIMING_FACES[variant]
        )
        if turns_of(history) >= turns:
            chosen.append(cut(history, turns))
            if len(chosen) == games:
                break
    return chosen


def timed_review(history: list[Event], variant: str) -> float:
    """The worker's job: one review, its CPU seconds in this process."""
    started = time.process_time()
    review_game(history, variant, Options())
    return time.process_time() - started


def timed_replay(history: list[Event], variant: str) -> tuple[float, int, int, tuple[int, int]]:
    """The worker's job: one replay as the bot draws it; its CPU seconds, bytes, frames and
    size in pixels."""
    started = time.process_time()
    gif = render_game_replay(history, variant, names=("Алиса", "Bob"), labels=RU_LABELS)
    spent = time.process_time() - started
    with Image.open(io.BytesIO(gif)) as image:
        return spent, len(gif), image.n_frames, image.size


def timing(variant: str, games: int) -> None:
    want = TIMING_TURNS[variant]
    chosen = timing_games(variant, games, want)
    lengths = sorted({turns_of(h) for h in chosen})
    review_s, replay_s, sizes, frames = [], [], [], []
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn")
    ) as worker:
        worker.submit(timed_review, chosen[0][:8], variant).result()  # imports, nets
        worker.submit(timed_replay, chosen[0][:8], variant).result()
        for history in chosen:
            review_s.append(worker.submit(timed_review, history, variant).result())
            spent, size, n_frames, pixels = worker.submit(timed_replay, history, variant).result()
            replay_s.append(spent)
            sizes.append(size)
            frames.append(n_frames)
    per_frame = [s / f for s, f in zip(sizes, frames, strict=True)]
    print(f"{variant}: {len(chosen)} games of {'/'.join(map(str, lengths))} turns")
    print(
        f"  review  CPU in the worker: median {statistics.median(review_s):.2f} s "
        f"(min {min(review_s):.2f}, max {max(review_s):.2f})"
    )
    print(
        f"  replay  CPU in the worker: median {statistics.median(replay_s):.2f} s "
        f"(min {min(replay_s):.2f}, max {max(replay_s):.2f}); size median "
        f"{statistics.median(sizes) / 1024:.0f} KB (min {min(sizes) / 1024:.0f}, max "
        f"{max(sizes) / 1024:.0f}), {statistics.median(per_frame) / 1024:.1f} KB a frame, "
        f"{pixels[0]}x{pixels[1]} px, {min(frames)}-{max(frames)} frames"
    )


def ranking(variant: str, games: int, deadline: float) -> None:
    right = {p: 0 for p in PAIRINGS}
    played = {p: 0 for p in PAIRINGS}
    rates: dict[str, list[float]] = {level: [] for level in ORDER}
    started = time.process_time()
    for i in range(games):
        if time.monotonic() > deadline:
            break
        pairing = PAIRINGS[i % len(PAIRINGS)]
        levels = pairing if (i // len(PAIRINGS)) % 2 == 0 else pairing[::-1]
        history, game = play_game(variant, i, levels)
        review = review_game(history, variant, NO_CUBE)
        rate = {levels[s]: review.players[game.side_of(s)].error_rate for s in (0, 1)}
        weak, strong = sorted(levels, key=ORDER.__getitem__)
        for level, value in rate.items():
            rates[level].append(value)
        played[pairing] += 1
        right[pairing] += rate[strong] < rate[weak]
    total = sum(played.values())
    ok = sum(right.values())
    spent = time.process_time() - started
    print(f"{variant}: ranking over {total} games ({spent:.0f} s CPU)")
    for pairing in PAIRINGS:
        if played[pairing]:
            print(
                f"  {pairing[1]} below {pairing[0]}: {right[pairing]}/{played[pairing]} "
                f"({100 * right[pairing] / played[pairing]:.0f} %)"
            )
    if total:
        print(f"  all pairings: {ok}/{total} ({100 * ok / total:.0f} %)")
    for level, values in rates.items():
        if values:
            q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
            print(
                f"  {level:6} error rate median {statistics.median(values):.1f} "
                f"(quartiles {q[0]:.1f}-{q[2]:.1f}, max {max(values):.1f})"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timing", type=int, default=10, help="games per variant (0: skip)")
    parser.add_argument("--ranking", type=int, default=100, help="games per variant (0: skip)")
    parser.add_argument("--long-ranking", type=int, default=None, help="games for long nardy")
    parser.add_argument("--minutes", type=float, default=30.0, help="wall-clock bound")
    parser.add_argument("--variant", choices=("short", "long", "both"), default="both")
    args = parser.parse_args()
    deadline = time.monotonic() + 60 * args.minutes
    variants = ("short", "long") if args.variant == "both" else (args.variant,)
    for variant in variants:
        if args.timing:
            timing(variant, args.timing)
    for variant in variants:
        games = args.ranking
        if variant == "long" and args.long_ranking is not None:
            games = args.long_ranking
        if games:
            ranking(variant, games, deadline)


if __name__ == "__main__":
    main()
