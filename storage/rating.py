"""Elo ratings for games between people (pure functions, no I/O).

Why Elo and not Glicko-2: a Telegram nardy bot sees irregular, bursty play; Elo needs one number
per player, is explained to players in a sentence, and its updates are a closed formula that can
be checked by hand in tests.  Glicko-2's rating-period model adds little at this scale.

The choices (documented in docs/storage.md):

* expected score ``E = 1 / (1 + 10 ** ((R_opponent - R_player) / 400))``;
* the outcome is 1 for the winner and 0 for the loser whatever the result kind: a mars, koks or
  a doubled cube already shows in the statistics' points, and weighting the rating by them would
  reward the luck of the last rolls and cube gambles;
* ``K = 32`` while a player has fewer than :data:`PROVISIONAL_GAMES` rated games (new players
  find their level quickly), ``K = 16`` afterwards (dice are noisy; a settled rating should not
  swing with every game);
* a match to N points counts once, with ``K`` multiplied by ``sqrt(N)``: a longer match is a
  stronger signal, and the sqrt weighting is the one backgammon servers (FIBS) use.

Each player's change uses their own K, so a provisional player's swing is not mirrored exactly
by an established opponent's (as in FIDE's Elo).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

K_PROVISIONAL = 32.0
K_ESTABLISHED = 16.0
PROVISIONAL_GAMES = 20


@dataclass(frozen=True, slots=True)
class EloUpdate:
    winner_after: float
    loser_after: float


def expected_score(rating: float, opponent_rating: float) -> float:
    """Probability that a player rated ``rating`` beats one rated ``opponent_rating``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent_rating - rating) / 400.0))


def k_factor(rated_games: int, match_length: int = 1) -> float:
    """The K-factor for a player with ``rated_games`` finished rated games before this one."""
    if match_length < 1:
        raise ValueError(f"match length must be at least 1, got {match_length}")
    base = K_PROVISIONAL if rated_games < PROVISIONAL_GAMES else K_ESTABLISHED
    return base * math.sqrt(match_length)


def elo_update(
    winner_rating: float,
    winner_games: int,
    loser_rating: float,
    loser_games: int,
    match_length: int = 1,
) -> EloUpdate:
    """New ratings of the winner and the loser of one game (or match)."""
    expected_win = expected_score(winner_rating, loser_rating)
    winner_k = k_factor(winner_games, match_length)
    loser_k = k_factor(loser_games, match_length)
    return EloUpdate(
        winner_after=winner_rating + winner_k * (1.0 - expected_win),
        loser_after=loser_rating - loser_k * (1.0 - expected_win),
    )
