"""Seeded matches played through the real engine, for the record, replay and review tests.

Plays are chosen by a ``choose(game, rng)`` function (random legal plays by default) and the
cube is offered and answered at random, so the histories hold every kind of event the record
must write: moves with hits and bar entries, passes, doubles, takes, drops and bear-offs.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import Match, Options
from engine.game import Game, Phase
from engine.record import GameLog, current_game_log
from engine.step import Play

Chooser = Callable[[Game, random.Random], Play]


def random_play(game: Game, rng: random.Random) -> Play:
    return rng.choice(game.turn.legal_plays)


def play_match(
    variant: str,
    length: int,
    seed: int,
    *,
    choose: Chooser = random_play,
    double_rate: float = 0.05,
    take_rate: float = 0.7,
    options: Options | None = None,
    states: list[str] | None = None,
) -> tuple[Match, list[GameLog]]:
    """A finished match and the log of each of its games, in order; ``states`` (if given)
    receives the match's JSON as each game ended, as the bot stores each game's row."""
    rng = random.Random(seed)
    match = Match(variant, length, options or Options())
    logs: list[GameLog] = []
    while True:
        game = match.current
        if game.phase is Phase.OPENING:
            game.roll_lot(rng)
        while game.phase is not Phase.OVER:
            seat = game.seat_to_act
            assert seat is not None
            if game.phase is Phase.ROLL:
                if game.can_double(seat) and rng.random() < double_rate:
                    game.offer_double(seat)
                else:
                    game.roll(rng)
            elif game.phase is Phase.DOUBLE:
                if rng.random() < take_rate:
                    game.take(seat)
                else:
                    game.drop(seat)
            else:
                game.play(choose(game, rng))
        logs.append(current_game_log(match))
        match.record_result()
        if states is not None:
            states.append(match.to_json())
        if match.is_over:
            return match, logs
        match.next_game()
