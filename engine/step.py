"""Steps and plays as small values (RULES.md §0.4: a step moves one checker by one die)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.position import Position


@dataclass(frozen=True, slots=True, order=True)
class Step:
    """One checker moved by one die, in the mover's own numbering (25 = bar, 0 = off)."""

    src: int
    dst: int
    die: int
    hit: bool = False


@dataclass(frozen=True, slots=True)
class Play:
    """A whole turn's steps (in a canonical order) and the position they lead to.

    ``result`` keeps the same side to move; the game hands the turn over. Plays compare by
    their result (two step orders that end in the same position are the same play).
    """

    steps: tuple[Step, ...]
    result: Position

    @property
    def dice_used(self) -> tuple[int, ...]:
        return tuple(s.die for s in self.steps)

    @property
    def hits(self) -> int:
        return sum(1 for s in self.steps if s.hit)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and other.result == self.result

    def __hash__(self) -> int:
        return hash(self.result)
