"""Computer opponent and hints for long and short nardy: pure, no I/O, deterministic per seed.

    player = get_player("hard", "short", seed=7)
    play = player.choose_play(position, (6, 5), first_turn=False, options=Options())
    hint(position, (6, 5), first_turn=False, options=Options())  # [(Play, equity), ...]

The method and its measured strength are described in docs/ai.md. ``ai`` depends only on
``engine`` and numpy (the value networks); ``ai.training`` trains them.
"""

from __future__ import annotations

import os

# The value networks multiply matrices of a few hundred rows; BLAS thread pools make that
# ~25x slower on a busy 2-core machine. Must be set before numpy is first imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from ai.player import BASELINES, LEVELS, Player
from engine.options import Options
from engine.position import Position
from engine.step import Play


def get_player(level: str, variant: str, *, seed: int | None = None) -> Player:
    """A computer player: ``level`` is 'easy', 'medium' or 'hard' (or a benchmark baseline,
    'random' or 'race'); ``variant`` is 'long' or 'short'. With a seed, every decision is
    a pure function of (seed, position, dice)."""
    return Player(level, variant, seed)


def hint(
    position: Position,
    dice: tuple[int, int],
    *,
    first_turn: bool = False,
    options: Options | None = None,
    n: int = 3,
) -> list[tuple[Play, float]]:
    """The ``n`` best plays by the strongest level, best first, each with its equity for the
    player to move (expected points per game at cube 1; higher is better).

    Every returned play got the same 1-ply look-ahead, so the numbers are comparable; fewer
    than ``n`` come back when the roll has fewer plays (a forced play or a pass gives one).
    """
    player = Player("hard", position.variant, seed=0)
    search = player.search_settings()
    ranked = player.rank(
        position,
        dice,
        first_turn=first_turn,
        options=options,
        candidates=max(n, search.candidates),
        budget=2 * search.budget,
        depth=1,
    )
    return ranked[:n]


__all__ = ["BASELINES", "LEVELS", "Player", "get_player", "hint"]
