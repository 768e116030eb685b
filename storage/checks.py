"""Argument checks shared by every backend: programming errors become ``ValueError`` before a
transaction starts, so each backend refuses exactly the same calls."""

from __future__ import annotations

from collections.abc import Sequence

from storage.models import (
    ClockUpdate,
    Colour,
    DiceRolls,
    GameResult,
    NewGame,
    NewMove,
    ResultKind,
    Variant,
)
from storage.sqlite.rows import dump_options, to_us


def check_new_game(new: NewGame) -> Variant:
    variant = Variant(new.variant)
    white, black = new.white_user_id, new.black_user_id
    if white is None and black is None:
        raise ValueError("a game needs at least one human player")
    if white is not None and white == black:
        raise ValueError("a user cannot play both sides")
    if (white is None or black is None) != (new.ai_level is not None):
        raise ValueError("ai_level must be given exactly when a seat is played by the computer")
    if new.match_length < 1:
        raise ValueError("match_length must be at least 1")
    if not isinstance(new.state, str):
        raise ValueError("state must be the engine's serialised text")
    dump_options(new.options)
    check_dice(new.dice)
    check_clock(new.clock)
    if new.dice is not None and new.dice_seed_id is None:
        raise ValueError("dice were given for a game without a dice seed")
    return variant


def check_dice(dice: DiceRolls | None) -> DiceRolls | None:
    if dice is None:
        return None
    values = tuple(dice.values)
    if dice.first_counter < 0 or not all(isinstance(v, int) and 1 <= v <= 6 for v in values):
        raise ValueError(f"dice are values 1..6 from a counter >= 0, got {dice!r}")
    return DiceRolls(int(dice.first_counter), values)


def check_clock(clock: ClockUpdate | None) -> ClockUpdate | None:
    if clock is not None:
        for moment in (clock.remind_at, clock.deadline_at, clock.abandon_at):
            if moment is not None:
                to_us(moment)  # refuses naive datetimes
    return clock


def check_dice_seed(
    commitment: str, server_seed: bytes, client_seeds: Sequence[str]
) -> tuple[str, ...]:
    if not isinstance(server_seed, bytes) or len(server_seed) != 32:
        raise ValueError("a server seed is 32 bytes")
    if len(commitment) != 64 or commitment != commitment.lower():
        raise ValueError("a commitment is 64 lower-case hex digits")
    int(commitment, 16)
    seeds = tuple(client_seeds)
    if not all(isinstance(c, str) and c for c in seeds):
        raise ValueError("client seeds are non-empty text")
    return seeds


def check_state(state: str) -> None:
    if not isinstance(state, str):
        raise ValueError("state must be the engine's serialised text")


def check_moves(moves: Sequence[NewMove]) -> tuple[NewMove, ...]:
    for move in moves:
        Colour(move.colour)
        if move.dice is not None and (
            len(move.dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in move.dice)
        ):
            raise ValueError(f"dice must be two values 1..6, got {move.dice!r}")
        if not isinstance(move.play, str) or not isinstance(move.position_id, str):
            raise ValueError("play and position_id must be text")
    return tuple(moves)


def check_score(score: tuple[int, int] | None) -> None:
    if score is not None and (len(score) != 2 or min(score) < 0):
        raise ValueError(f"score must be two non-negative ints, got {score!r}")


def check_result(result: GameResult) -> GameResult:
    checked = GameResult(Colour(result.winner), ResultKind(result.kind), int(result.points))
    if checked.points < 1:
        raise ValueError(f"points must be at least 1, got {result.points}")
    return checked
