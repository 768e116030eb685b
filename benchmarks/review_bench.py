"""After-game figures: replay size and time, review time, and whether the review ranks the
computer levels in order (docs/records.md).

    PYTHONPATH=. python benchmarks/review_bench.py                 # everything
    PYTHONPATH=. python benchmarks/review_bench.py --ranking 30 --minutes 10

Timing games are random-play games (their positions have more contact and more plays than a
good player's, so they are the harder case), short ones cut at 60 turns; long nardy games of
120 turns do not occur (200 random games: at most 111), so the long figures are for the 10
longest of 60 games and scaled to 120 turns by the per-turn time. CPU seconds are
``time.process_time`` of this process, one review or replay at a time.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from ai import get_player
from ai.review import review_game
from engine import Match
from engine.game import Event, EventKind, Game, Phase
from renderer import render_game_replay

PAIRINGS = (("easy", "medium"), ("medium", "hard"), ("easy", "hard"))
ORDER = {"easy": 0, "medium": 1, "hard": 2}


def play_game(variant: str, seed: int, levels: tuple[str, str]) -> tuple[list[Event], Game]:
    """One game between two computer levels (seat 0, seat 1), no cube."""
    rng = random.Random(seed)
    players = [get_player(level, variant, seed=seed * 2 + i) for i, level in enumerate(levels)]
    game = Match(variant, 1).current
    game.roll_lot(rng)
    while game.phase is not Phase.OVER:
        if game.phase is Phase.ROLL:
            game.roll(rng)
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


def timing(variant: str, games: int, want_turns: int) -> None:
    pool = []
    for seed in range(games * 6):
        history, _ = play_game(variant, 1000 + seed, ("random", "random"))
        pool.append(history)
    pool.sort(key=turns_of, reverse=True)
    chosen = [cut(h, want_turns) for h in pool[:games]]
    lengths = [turns_of(h) for h in chosen]
    review_s, replay_s, sizes, frames = [], [], [], []
    for history in chosen:
        t = time.process_time()
        review_game(history, variant)
        review_s.append(time.process_time() - t)
        t = time.process_time()
        gif = render_game_replay(history, variant, names=("Алиса", "Bob"))
        replay_s.append(time.process_time() - t)
        sizes.append(len(gif))
        with Image.open(io.BytesIO(gif)) as image:
            frames.append(image.n_frames)
            size = image.size
    per_turn = [r / n for r, n in zip(review_s, lengths, strict=True)]
    per_frame = [s / f for s, f in zip(sizes, frames, strict=True)]
    print(f"{variant}: {games} games of {min(lengths)}-{max(lengths)} turns")
    print(
        f"  review  CPU median {statistics.median(review_s):.2f} s "
        f"(min {min(review_s):.2f}, max {max(review_s):.2f}); "
        f"{1000 * statistics.median(per_turn):.1f} ms a turn -> "
        f"{want_turns} turns: {want_turns * statistics.median(per_turn):.2f} s"
    )
    replay_turn = statistics.median(r / n for r, n in zip(replay_s, lengths, strict=True))
    print(
        f"  replay  CPU median {statistics.median(replay_s):.2f} s, "
        f"size median {statistics.median(sizes) / 1024:.0f} KB "
        f"(max {max(sizes) / 1024:.0f} KB), {statistics.median(per_frame) / 1024:.1f} KB a frame, "
        f"{size[0]}x{size[1]} px, frames {min(frames)}-{max(frames)}; "
        f"{want_turns} turns: {want_turns * statistics.median(per_frame) / 1024:.0f} KB, "
        f"{want_turns * replay_turn:.2f} s"
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
        review = review_game(history, variant)
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
            timing(variant, args.timing, 60 if variant == "short" else 120)
    for variant in variants:
        games = args.ranking
        if variant == "long" and args.long_ranking is not None:
            games = args.long_ranking
        if games:
            ranking(variant, games, deadline)


if __name__ == "__main__":
    main()
