"""Why a move is illegal: reasons tied to the rule IDs of RULES.md §8.1, and typed errors.

Syntax errors (text that is not a play) and illegal moves (a well-formed play the rules forbid)
are different exception types, so the bot can answer "I can't read that" and "that breaks rule
L-8" differently. Tests assert the reason, never the wording.
"""

from __future__ import annotations

from enum import Enum, StrEnum
from typing import Any


class Reason(Enum):
    """A rejection reason; ``rule_ids`` are the RULES.md IDs the bot cites.

    Each member is its own reason even where two cite the same rule (``NO_DICE`` and
    ``NOT_YOUR_TURN`` both rest on C-13's order of play), so callers can tell them apart.
    """

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
    NOT_YOUR_TURN = ("C-13",)  # the other seat must act
    NO_DICE = ("C-13",)  # a step, undo or commit before the dice are rolled
    WRONG_PHASE = ("C-13",)  # e.g. rolling twice, taking a double nobody offered
    CUBE_TIMING = ("M-9",)
    CUBE_OWNER = ("M-10",)
    CUBE_DISABLED = ("M-14",)
    CUBE_MAX = ("M-12",)
    CRAWFORD = ("V-16",)
    GAME_OVER = ("C-32",)  # an action after the game's result
    GAME_NOT_OVER = ("C-32",)  # the next game (or the result) asked for before the end
    MATCH_OVER = ("C-32",)  # a next game asked for after the match was decided

    def __new__(cls, *rule_ids: str) -> Reason:
        # Numbered values (the enum documentation's AutoNumber recipe), so that reasons
        # citing the same rules are still distinct members rather than aliases.
        member = object.__new__(cls)
        member._value_ = len(cls.__members__) + 1
        member._rule_ids = rule_ids
        return member

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return self._rule_ids

    @property
    def rule_id(self) -> str:
        """The first (main) rule ID."""
        return self._rule_ids[0]


class EngineError(ValueError):
    """Base class of the engine's user-facing errors."""


class NotationCode(StrEnum):
    """Why a text is not a play; the parameters each code's :class:`NotationError` carries.

    ``text`` (the whole input) and ``token`` (the one written move, e.g. ``"1/7"``) are the
    user's own words: whoever shows them in HTML must escape them.

    - ``BAD_POINT``: a point that is neither 1..24 nor bar/off — ``point`` (the unreadable
      part), ``text``.
    - ``POINT_RANGE``: a number outside 1..24 — ``point`` (the int), ``text``.
    - ``NOT_FROM_TO``: a move that is not ``from/to`` — ``token``.
    - ``FROM_OFF``: a move that starts from off — ``token``.
    - ``TO_BAR``: a move that ends on the bar — ``token``.
    - ``BACKWARDS``: a move to a higher point — ``token``, ``src``, ``dst`` (ints, 25 = bar).
    - ``TOO_MANY_STEPS``: more than four steps — ``count`` (int), ``limit`` (4).
    """

    BAD_POINT = "bad_point"
    POINT_RANGE = "point_range"
    NOT_FROM_TO = "not_from_to"
    FROM_OFF = "from_off"
    TO_BAR = "to_bar"
    BACKWARDS = "backwards"
    TOO_MANY_STEPS = "too_many_steps"


_NOTATION_ENGLISH = {
    NotationCode.BAD_POINT: "cannot read point {point!r} in {text!r}",
    NotationCode.POINT_RANGE: "point {point} is outside 1..24 in {text!r}",
    NotationCode.NOT_FROM_TO: "a move is written from/to, e.g. 24/18; got {token!r}",
    NotationCode.FROM_OFF: "a move cannot start from off in {token!r}",
    NotationCode.TO_BAR: "a move cannot end on the bar in {token!r}",
    NotationCode.BACKWARDS: ("checkers move from higher to lower points; {token!r} goes backwards"),
    NotationCode.TOO_MANY_STEPS: "a turn has at most {limit} steps",
}


class NotationError(EngineError):
    """Text that cannot be read as a play (a syntax error, not a rules question).

    ``code`` (a :class:`NotationCode`) says what is wrong and ``params`` hold the details its
    documentation lists, so a user interface can word it in the reader's language; ``str()``
    is an English sentence for the CLI and logs.
    """

    def __init__(self, code: NotationCode, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(_NOTATION_ENGLISH[code].format(**params))


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
