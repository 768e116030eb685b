"""Why a move is illegal: reasons tied to the rule IDs of RULES.md §8.1, and typed errors.

Syntax errors (text that is not a play) and illegal moves (a well-formed play the rules forbid)
are different exception types, so the bot can answer "I can't read that" and "that breaks rule
L-8" differently. Tests assert the reason, never the wording.
"""

from __future__ import annotations

from enum import Enum


class Reason(Enum):
    """A rejection reason; ``rule_ids`` are the RULES.md IDs the bot cites."""

    NO_CHECKER = ("C-1",)
    WRONG_DISTANCE = ("C-15",)
    BACKWARDS = ("C-4",)
    BLOCKED_LONG = ("L-6",)
    BLOCKED_SHORT = ("S-5",)
    INTERMEDIATE_BLOCKED = ("C-17",)
    HEAD = ("L-8",)
    HEAD_FIRST_TURN = ("L-11",)
    HEAD_OBSTACLE = ("L-12",)
    SIX_BLOCK = ("L-16", "L-17")
    SIX_BLOCK_END = ("L-16", "V-1")
    SIX_BLOCK_HOME = ("V-2",)
    BAR_FIRST = ("S-11",)
    ENTRY_CLOSED = ("S-12", "S-15")
    BEAROFF_NOT_HOME = ("C-24",)
    BEAROFF_FROM_BAR = ("S-19", "S-20")
    BEAROFF_NEXT_TURN = ("V-7",)
    BEAROFF_HIGHER_OCCUPIED = ("C-26",)
    BEAROFF_SMALLER_DIE = ("C-27",)
    MUST_MOVE = ("C-18",)
    NOT_MAXIMAL = ("C-19",)
    NOT_MAXIMAL_DOUBLE = ("C-21",)
    LARGER_DIE = ("C-20",)
    INCOMPLETE = ("C-23",)
    NOT_YOUR_TURN = ("C-13",)
    CUBE_TIMING = ("M-9",)
    CUBE_OWNER = ("M-10",)
    CUBE_DISABLED = ("M-14",)
    CUBE_MAX = ("M-12",)
    CRAWFORD = ("V-16",)
    GAME_OVER = ("C-32",)

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return self.value

    @property
    def rule_id(self) -> str:
        """The first (main) rule ID."""
        return self.value[0]


class EngineError(ValueError):
    """Base class of the engine's user-facing errors."""


class NotationError(EngineError):
    """Text that cannot be read as a play (a syntax error, not a rules question)."""


class IllegalMoveError(EngineError):
    """A readable play or step that the rules forbid; ``reason`` names the broken rule."""

    def __init__(self, reason: Reason, detail: str = "", *, step: object | None = None) -> None:
        self.reason = reason
        self.detail = detail
        self.step = step
        ids = ", ".join(reason.rule_ids)
        super().__init__(f"{reason.name} ({ids}){': ' + detail if detail else ''}")


class IllegalActionError(EngineError):
    """A game action (roll, double, take, commit …) that is not allowed right now."""

    def __init__(self, reason: Reason, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        ids = ", ".join(reason.rule_ids)
        super().__init__(f"{reason.name} ({ids}){': ' + detail if detail else ''}")
