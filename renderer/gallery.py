"""Sample boards for docs/gallery and the command line: seeded games through the real engine.

Positions are reached by random legal play with a fixed seed, so the gallery shows boards the
engine can actually produce, and regenerating it gives the same pictures (while the engine's
move generation is unchanged).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.options import Options
from engine.position import Position, Side, VariantName
from engine.scoring import score_game
from engine.step import Play
from engine.turn import Turn as EngineTurn
from engine.variants import get_variant, registered
from renderer.options import RU_LABELS, BoardOptions, GameOverInfo

NAMES = ("Алиса 🌸", "Bob 🎲")


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a seeded game: the position before it, the dice and the play made."""

    before: Position
    dice: tuple[int, int]
    play: Play

    @property
    def mover(self) -> Side:
        return self.before.turn

    @property
    def after(self) -> Position:
        """The position after the play, with the turn passed to the opponent."""
        return self.play.result.swapped()


def random_game(
    variant_name: str, seed: int, max_turns: int = 1000, stop: Callable[[Turn], bool] | None = None
) -> list[Turn]:
    """Turns of a game played with random legal plays until it ends (or ``stop`` says so)."""
    variant = get_variant(variant_name)
    rng = random.Random(seed)
    position = variant.start_position()
    first = {Side.WHITE: True, Side.BLACK: True}
    turns: list[Turn] = []
    for _ in range(max_turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = variant.legal_plays(position, dice, first_turn=first[position.turn])
        first[position.turn] = False
        turn = Turn(position, dice, rng.choice(plays))
        turns.append(turn)
        position = turn.after
        if position.is_finished() or (stop is not None and stop(turn)):
            break
    return turns


def dice_shown(dice: tuple[int, int]) -> tuple[int, ...]:
    """Dice as drawn: a double shows four dice."""
    return dice * 2 if dice[0] == dice[1] else dice


def game_over(position: Position) -> GameOverInfo:
    """The result the engine's scoring gives a finished position."""
    winner = Side.WHITE if position.borne_off(Side.WHITE) == 15 else Side.BLACK
    return GameOverInfo.from_result(score_game(position, winner, Options()))


def replay_frames(
    turns: list[Turn], names: tuple[str, str] = NAMES, **extra: object
) -> list[tuple[Position, BoardOptions]]:
    """One frame per turn (the board after it, that turn's dice and play), the start first
    and a result banner on the last frame if the game is over."""
    first = turns[0].before
    frames = [(first, BoardOptions(names=names, **extra))]  # type: ignore[arg-type]
    for turn in turns:
        after = turn.after
        result = game_over(after) if after.is_finished() else None
        options = BoardOptions(
            names=names,
            dice=dice_shown(turn.dice),
            dice_owner=turn.mover,
            last_play=turn.play.steps,
            last_play_side=turn.mover,
            result=result,
            **extra,  # type: ignore[arg-type]
        )
        frames.append((after, options))
    return frames


def scenes() -> dict[str, tuple[Position, BoardOptions]]:
    """The committed gallery: name -> (position, options)."""
    out: dict[str, tuple[Position, BoardOptions]] = {}
    for variant in registered():
        name = str(variant.name)
        start = variant.start_position()
        out[f"{name}-start"] = (
            start,
            BoardOptions(
                names=NAMES,
                dice=(6, 3),
                labels=RU_LABELS,
                cube_enabled=Options().cube_enabled(name),
                image_format="png",
            ),
        )

    # Long nardy mid-game: the last play highlighted, a double half played, points selectable.
    turns = random_game(VariantName.LONG, seed=11, max_turns=24)
    last = turns[-1]
    pos = last.after
    turn = EngineTurn(pos, (4, 4))
    turn = turn.with_step(turn.legal_steps()[0])
    mid = turn.current
    sources = frozenset(s.src for s in turn.legal_steps())
    out["long-midgame"] = (
        mid,
        BoardOptions(
            viewer=pos.turn,
            names=NAMES,
            dice=(4, 4, 4, 4),
            dice_used=1,
            last_play=last.play.steps,
            last_play_side=last.mover,
            highlight_points=sources,
            labels=RU_LABELS,
            title="Длинные нарды",
            image_format="png",
        ),
    )

    # Short nardy: a hit just happened, a checker waits on the bar, the cube is owned.
    turns = random_game(
        VariantName.SHORT,
        seed=3,
        stop=lambda t: (
            t.play.hits > 0
            and t.play.result.board(t.mover.other)[25] > 0
            and len(t.play.steps) == 2
        ),
    )
    last = turns[-1]
    out["short-bar-cube"] = (
        last.after,
        BoardOptions(
            viewer=last.after.turn,
            names=NAMES,
            dice=(5, 2),
            last_play=last.play.steps,
            last_play_side=last.mover,
            cube_enabled=True,
            cube_value=2,
            cube_owner=last.mover,
            match=(2, 1, 5),
            highlight_points=frozenset({25}),
            image_format="png",
        ),
    )

    # The same moment seen by the other player, numbers in that player's numbering.
    out["short-bar-cube-other-side"] = (
        last.after,
        BoardOptions(
            viewer=last.mover,
            numbering=last.after.turn,
            names=NAMES,
            dice=(5, 2),
            last_play=last.play.steps,
            last_play_side=last.mover,
            cube_enabled=True,
            cube_value=2,
            cube_owner=last.mover,
            match=(2, 1, 5),
            image_format="png",
        ),
    )

    # (variant, seed, labels, match score): the long game in Russian, the short in a match.
    endings = (
        (VariantName.LONG, 5, RU_LABELS, None),
        (VariantName.SHORT, 8, BoardOptions().labels, (3, 1, 5)),
    )
    for name, seed, labels, match in endings:
        turns = random_game(name, seed=seed)
        last = turns[-1]
        final = last.after
        out[f"{name}-gameover"] = (
            final,
            BoardOptions(
                viewer=Side.WHITE,
                names=NAMES,
                last_play=last.play.steps,
                last_play_side=last.mover,
                result=game_over(final),
                cube_enabled=Options().cube_enabled(name),
                labels=labels,
                match=match,
                image_format="png",
            ),
        )
    return out
