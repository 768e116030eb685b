"""Game results: oin/mars (long), single/mars/koks (short), times the cube (RULES.md §4)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.options import LongScoring, Options
from engine.position import BAR, CHECKERS, OFF, Position, Side


class ResultKind(StrEnum):
    """How a game was won. ``OIN`` is the single game of both variants (M-1, M-4)."""

    OIN = "oin"
    MARS = "mars"
    KOKS = "koks"
    HOME_MARS = "home_mars"  # V-8
    DROP = "drop"  # a declined double (M-11)


MULTIPLIER = {
    ResultKind.OIN: 1,
    ResultKind.MARS: 2,
    ResultKind.KOKS: 3,
    ResultKind.HOME_MARS: 3,
    ResultKind.DROP: 1,
}


@dataclass(frozen=True, slots=True)
class GameResult:
    """Who won, how, and for how many points (already multiplied by the cube)."""

    winner: Side
    kind: ResultKind
    points: int
    cube: int = 1
    resigned: bool = False

    @property
    def loser(self) -> Side:
        return self.winner.other

    def to_dict(self) -> dict[str, object]:
        return {
            "winner": self.winner.label,
            "kind": str(self.kind),
            "points": self.points,
            "cube": self.cube,
            "resigned": self.resigned,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> GameResult:
        return cls(
            winner=Side.WHITE if data["winner"] == "white" else Side.BLACK,
            kind=ResultKind(str(data["kind"])),
            points=int(data["points"]),  # type: ignore[call-overload]
            cube=int(data.get("cube", 1)),  # type: ignore[call-overload]
            resigned=bool(data.get("resigned", False)),
        )


def board_result_kind(position: Position, winner: Side, options: Options) -> ResultKind:
    """The kind of win the board shows for ``winner`` (M-1 … M-6, V-8)."""
    loser = position.board(winner.other)
    if loser[OFF] > 0:
        return ResultKind.OIN
    if position.variant == "short":
        if loser[BAR] or any(loser[19:25]):
            return ResultKind.KOKS
        return ResultKind.MARS
    if options.long_scoring is LongScoring.HOME_MARS and sum(loser[1:7]) == CHECKERS:
        return ResultKind.HOME_MARS
    return ResultKind.MARS


def result_points(position: Position, kind: ResultKind, winner: Side, options: Options) -> int:
    """Points before the cube. V-9 counts the loser's checkers left instead of 1 or 2."""
    if (
        position.variant == "long"
        and options.long_scoring is LongScoring.CHECKERS_LEFT
        and kind in (ResultKind.OIN, ResultKind.MARS)
    ):
        return CHECKERS - position.board(winner.other)[OFF]
    return MULTIPLIER[kind]


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
