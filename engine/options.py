"""House rules (RULES.md §5) as explicit settings; every default is the one of §0.5."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any


class LongScoring(StrEnum):
    """How a long-nardy game is scored (M-1, M-2, V-8, V-9)."""

    CLASSIC = "classic"  # oin 1, mars 2 (M-1, M-2)
    HOME_MARS = "home_mars"  # V-8: none off and all 15 home counts 3
    CHECKERS_LEFT = "checkers_left"  # V-9: an ordinary loss counts the loser's checkers left


class OptionsError(ValueError):
    """An unknown option name or a value of the wrong type."""


@dataclass(frozen=True, slots=True)
class Options:
    """Rule switches for one game or match. All off by default (§5: "default … is off").

    ``cube`` is ``None`` for "the variant's default" (M-14: on in short nardy, off in long).
    """

    block_in_passing: bool = False  # V-1: six-block checked only at the end of the turn
    block_needs_home: bool = False  # V-2: six-block allowed only once an O checker is home
    first_move_lot_dice: bool = False  # V-3: long nardy's first move plays the lot numbers
    first_turn_any_double: bool = False  # V-4: any first-turn double frees a 2nd head checker
    no_obstacle_clause: bool = False  # V-5: 6-6/4-4/3-3 exception without L-12's clause
    bearoff_next_turn: bool = False  # V-7: no bearing off in the turn the last checker enters
    long_scoring: LongScoring = LongScoring.CLASSIC  # V-8 / V-9
    resign_as_oin: bool = False  # V-10
    winner_starts_next: bool = False  # V-12
    crawford: bool = False  # V-16
    cube: bool | None = None  # M-14

    def cube_enabled(self, variant: str) -> bool:
        """Whether the doubling cube is in play for ``variant`` (M-14)."""
        if self.cube is None:
            return variant == "short"
        return self.cube

    def to_dict(self) -> dict[str, Any]:
        """Only the options that differ from the defaults, as plain JSON values."""
        default = Options()
        out: dict[str, Any] = {}
        for key, value in asdict(self).items():
            if value != getattr(default, key):
                out[key] = str(value) if isinstance(value, StrEnum) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Options:
        """Parse options written by :meth:`to_dict` (or by a user of the CLI)."""
        if not data:
            return cls()
        known = {f.name for f in fields(cls)}
        result = cls()
        for key, value in data.items():
            if key not in known:
                raise OptionsError(f"unknown option {key!r}")
            if key == "long_scoring":
                try:
                    value = LongScoring(value)
                except ValueError as exc:
                    raise OptionsError(f"long_scoring must be one of {list(LongScoring)}") from exc
            elif key == "cube":
                if value is not None and not isinstance(value, bool):
                    raise OptionsError("cube must be true, false or null")
            elif not isinstance(value, bool):
                raise OptionsError(f"option {key!r} must be true or false")
            result = replace(result, **{key: value})
        return result
