"""Results of a game as values: who won, how, for how many points (RULES.md §4).

Kept apart from :mod:`engine.scoring` (which asks the variant how a board scores) so that the
variant classes can name result kinds without importing the scoring rules that call them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.position import Side


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
