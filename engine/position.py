"""Positions: both sides' checkers, each side in its own pip numbering (RULES.md C-4).

A side's board is a tuple of 26 counts: index 0 holds checkers borne off, 1..24 the points in
that player's own numbering (24 farthest from home, 1 the last point), and 25 the bar (short
nardy only). Keeping each side in its own numbering makes every rule read the same for both
players; the variant supplies the mapping between the two numberings (C-7, C-8).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

OFF = 0
BAR = 25
CHECKERS = 15
BOARD_LEN = 26


class VariantName(StrEnum):
    """The built-in variants' names. A ``StrEnum``, so ``VariantName.LONG == "long"`` and the
    names serialise as the plain strings stored in games and rows."""

    LONG = "long"
    SHORT = "short"


def variant_name(value: str) -> VariantName | str:
    """``value`` as a :class:`VariantName` when it names a built-in variant; any other string
    is kept as given (a variant registered outside the enum, or a name the variant registry
    will refuse with a clear error)."""
    if value.__class__ is VariantName:
        return value
    try:
        return VariantName(value)
    except ValueError:
        return value


class Side(IntEnum):
    """A player's colour. White and black are the usual names (C-1)."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Side:
        return Side(1 - self)

    @property
    def label(self) -> str:
        return "white" if self is Side.WHITE else "black"


class PositionError(ValueError):
    """A position that breaks an invariant (wrong checker count, shared point, bad index)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A board position of one variant with the side to move.

    ``white`` and ``black`` are 26-tuples in each owner's own numbering. The position is a
    value: applying a play returns a new one, and positions hash and compare by value.
    ``variant`` may be given as a plain string; it is stored as a :class:`VariantName`.
    """

    variant: VariantName
    white: tuple[int, ...]
    black: tuple[int, ...]
    turn: Side = Side.WHITE

    def __post_init__(self) -> None:
        if self.variant.__class__ is not VariantName:
            object.__setattr__(self, "variant", variant_name(self.variant))

    def board(self, side: Side) -> tuple[int, ...]:
        """The board of ``side`` in its own numbering."""
        return self.white if side is Side.WHITE else self.black

    @property
    def mover(self) -> tuple[int, ...]:
        return self.board(self.turn)

    @property
    def opponent(self) -> tuple[int, ...]:
        return self.board(self.turn.other)

    def with_boards(self, mover: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
        """A position with the same side to move and new boards given mover-first."""
        if self.turn is Side.WHITE:
            return Position(self.variant, mover, opponent, self.turn)
        return Position(self.variant, opponent, mover, self.turn)

    def with_turn(self, turn: Side) -> Position:
        return Position(self.variant, self.white, self.black, turn)

    def swapped(self) -> Position:
        """The same board with the other side to move."""
        return self.with_turn(self.turn.other)

    def borne_off(self, side: Side) -> int:
        return self.board(side)[OFF]

    def on_bar(self, side: Side) -> int:
        return self.board(side)[BAR]

    def pip_count(self, side: Side) -> int:
        """Pips ``side`` still needs to bear everything off (C-6): bar counts 25."""
        board = self.board(side)
        return sum(i * board[i] for i in range(1, BOARD_LEN))

    def is_finished(self) -> bool:
        return self.white[OFF] == CHECKERS or self.black[OFF] == CHECKERS

    @staticmethod
    def board_from_mapping(points: dict[int, int]) -> tuple[int, ...]:
        """Build a 26-tuple from ``{point: count}``; missing checkers count as borne off.

        Used by tests and the CLI, where positions are written as in RULES.md §0.4 and the
        borne-off count is implied by the 15-checker total.
        """
        board = [0] * BOARD_LEN
        for point, count in points.items():
            if not 0 <= point < BOARD_LEN:
                raise PositionError(f"point {point} is outside 0..25")
            if count < 0:
                raise PositionError(f"negative checker count on point {point}")
            board[point] += count
        total = sum(board)
        if total > CHECKERS:
            raise PositionError(f"{total} checkers given, at most {CHECKERS} per side")
        board[OFF] += CHECKERS - total
        return tuple(board)
