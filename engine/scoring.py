"""Game results: oin/mars (long), single/mars/koks (short), times the cube (RULES.md §4).

How a board scores is the variant's rule (:meth:`engine.variant.Variant.board_result_kind`);
this module applies the cube and the resignation option, which are the same for every game.
"""

from __future__ import annotations

from engine.options import Options
from engine.position import OFF, Position, Side
from engine.result import MULTIPLIER, GameResult, ResultKind
from engine.variants import get_variant

__all__ = [
    "MULTIPLIER",
    "GameResult",
    "ResultKind",
    "board_result_kind",
    "result_points",
    "score_game",
]


def board_result_kind(position: Position, winner: Side, options: Options) -> ResultKind:
    """The kind of win the board shows for ``winner`` (M-1 … M-6, V-8)."""
    if position.board(winner.other)[OFF] > 0:
        return ResultKind.OIN
    return get_variant(position.variant).board_result_kind(position, winner, options)


def result_points(position: Position, kind: ResultKind, winner: Side, options: Options) -> int:
    """Points before the cube (the variant's rule: V-9 counts the loser's checkers left)."""
    return get_variant(position.variant).result_points(position, kind, winner, options)


def score_game(
    position: Position,
    winner: Side,
    options: Options,
    cube: int = 1,
    *,
    resigned: bool = False,
) -> GameResult:
    """Score a finished (or resigned, M-19) game from the board."""
    if resigned and options.resign_as_oin:
        kind = ResultKind.OIN
        return GameResult(winner, kind, cube, cube, resigned=True)
    kind = board_result_kind(position, winner, options)
    points = result_points(position, kind, winner, options) * cube
    return GameResult(winner, kind, points, cube, resigned=resigned)
