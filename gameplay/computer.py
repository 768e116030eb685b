"""The computer opponent seen from the game layer: one cached player per level and variant."""

from __future__ import annotations

from typing import Any

from engine import Game
from engine.game import Match


class ComputerPlayers:
    """Chooses plays and cube actions for the computer's seat, and hints for people.

    ``ai`` is imported on first use: it loads numpy and a value network, which the tests of
    games between people never need.
    """

    def __init__(self, *, seed: int | None = None) -> None:
        self._players: dict[tuple[str, str], Any] = {}
        self.seed = seed

    def _player(self, level: str, variant: str) -> Any:
        import ai

        key = (level, variant)
        player = self._players.get(key)
        if player is None:
            player = ai.get_player(level, variant, seed=self.seed)
            self._players[key] = player
        return player

    def choose_play(self, game: Game, level: str) -> Any:
        assert game.dice is not None
        return self._player(level, game.variant_name).choose_play(
            game.pos,
            game.dice,
            first_turn=game.first_turn(game.side_to_move),
            options=game.options,
        )

    def should_double(self, game: Game, level: str, match: Match | None = None) -> bool:
        """The cube by match winning chances in a match of several points (``match``),
        by money-game rules in a single game."""
        score = _score(match, game)
        return bool(self._player(level, game.variant_name).should_double(game, score))

    def should_take(self, game: Game, level: str, match: Match | None = None) -> bool:
        score = _score(match, game)
        return bool(self._player(level, game.variant_name).should_take(game, score))

    def hints(self, game: Game, n: int = 3) -> list[tuple[Any, float]]:
        import ai

        assert game.dice is not None
        return ai.hint(
            game.pos,
            game.dice,
            first_turn=game.first_turn(game.side_to_move),
            options=game.options,
            n=n,
        )


def _score(match: Match | None, game: Game) -> Any:
    """The match score from the acting seat's side (``ai.match.MatchScore``), or None for a
    single game (a 1-point "match"), which is played for money-style points."""
    if match is None or match.length <= 1 or game.seat_to_act is None:
        return None
    from ai.match import MatchScore

    seat = game.seat_to_act
    mine, theirs = match.score[seat], match.score[1 - seat]
    return MatchScore(match.length, mine, theirs, match.crawford_done, match.options.crawford)
