"""The interface every variant implements, and what is the same for all of them.

A variant is one class that owns the rules in which games differ (STYLE: variants as classes
behind one interface, found by name): the start position and the mapping between the two
players' numberings, single-step legality (the step generator the shared search calls), the
position key of a turn, the variant-specific part of explaining an illegal step, scoring, the
opening lot and how the next game of a match starts, and option defaults. Everything else —
the whole-turn search with the C-23 filter (:mod:`engine.movegen`), turns, games, matches,
notation and position IDs — is shared and asks the variant.

Adding a variant means writing one subclass and registering it (:func:`register`); see
``tests/engine/test_variants.py`` for a third variant built that way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import movegen
from engine.options import Options
from engine.position import (
    BAR,
    BOARD_LEN,
    CHECKERS,
    OFF,
    Position,
    PositionError,
    Side,
    VariantName,
)
from engine.result import MULTIPLIER, ResultKind
from engine.rules import Reason
from engine.step import Play, Step

if TYPE_CHECKING:
    from engine.turn import Turn


class Variant:
    """Rules that differ between variants; the class attributes are each variant's facts."""

    name: VariantName | str = ""
    title_ru: str = ""
    title_en: str = ""
    aliases: tuple[str, ...] = ()  # other names :func:`get_variant` accepts
    has_bar: bool = False  # hit checkers wait on the bar (C-9)
    can_hit: bool = False  # a step may change the opponent's board (S-7)
    point_map: tuple[int, ...] = ()  # a point in the other player's numbering (C-7 / C-8)
    cube_by_default: bool = False  # M-14: whether Options(cube=None) plays with the cube
    keeps_colours: bool = False  # later games of a match keep the first game's colours
    blocked_reason: Reason = Reason.BLOCKED_SHORT  # landing on a closed point (L-6 / S-5)

    # ---- the board ------------------------------------------------------------------------

    def start_board(self) -> tuple[int, ...]:
        """One side's checkers at the start, in its own numbering."""
        raise NotImplementedError

    def start_position(self, turn: Side = Side.WHITE) -> Position:
        board = self.start_board()
        return Position(self.name, board, board, turn)

    def to_opponent_point(self, point: int) -> int:
        """The same physical point in the other player's numbering (C-7 / C-8)."""
        return self.point_map[point]

    def to_white_point(self, side: Side, point: int) -> int:
        """A point of ``side``'s numbering in white's numbering (white's numbering is the
        board-wide "absolute" numbering used by the renderer and position IDs)."""
        if side is Side.WHITE or point in (OFF, BAR):
            return point
        return self.point_map[point]

    def check_position(self, position: Position) -> None:
        """Raise :class:`PositionError` unless ``position`` can occur in this variant."""
        if position.variant != self.name:
            raise PositionError(f"position is for {position.variant!r}, not {self.name!r}")
        for side in Side:
            board = position.board(side)
            if len(board) != BOARD_LEN or any(c < 0 for c in board):
                raise PositionError(f"{side.label}: a board has 26 non-negative counts")
            if sum(board) != CHECKERS:
                raise PositionError(f"{side.label} has {sum(board)} checkers, not {CHECKERS}")
            if board[BAR] and not self.has_bar:
                raise PositionError(f"{self.title_en.lower()} has no bar")
        white, black = position.white, position.black
        for p in range(1, 25):
            if white[p] and black[self.point_map[p]]:
                raise PositionError(f"white's point {p} also holds black checkers")
        if white[OFF] == CHECKERS and black[OFF] == CHECKERS:
            raise PositionError("both sides cannot have borne everything off")

    # ---- plays ----------------------------------------------------------------------------

    def prepare(self, ctx: movegen.TurnContext) -> None:
        """Fill the variant's per-turn facts into ``ctx``: at least ``step_gen`` and
        ``closed`` (see :class:`engine.movegen.TurnContext`)."""
        raise NotImplementedError

    def turn_context(
        self,
        me: tuple[int, ...],
        opp: tuple[int, ...],
        dice: tuple[int, int],
        *,
        first_turn: bool = False,
        options: Options | None = None,
    ) -> movegen.TurnContext:
        """The search's context for the mover's board ``me`` against ``opp``; everything
        variant-specific is resolved here, once, so the search reads fields, not names."""
        ctx = movegen.TurnContext(
            self.name, (dice[0], dice[1]), first_turn, options or Options(), me, opp
        )
        ctx.keys_opponent = self.can_hit
        self.prepare(ctx)
        return ctx

    def context(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        first_turn: bool = False,
        options: Options | None = None,
    ) -> movegen.TurnContext:
        _check_dice(dice)
        return self.turn_context(
            position.mover, position.opponent, dice, first_turn=first_turn, options=options
        )

    def legal_plays(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        first_turn: bool = False,
        options: Options | None = None,
    ) -> list[Play]:
        """All legal plays of the whole turn, one per distinct final position (C-23).

        A turn with no legal step has exactly one play: no steps, position unchanged.
        """
        ctx = self.context(position, dice, first_turn=first_turn, options=options)
        nodes = movegen.generate(ctx)
        return [self.node_to_play(position, node) for node in nodes]

    def node_to_play(self, position: Position, node: movegen.Node) -> Play:
        _, raw, me, opp = node
        steps = tuple(Step(s, t, d, h) for (s, t, d, h) in raw)
        return Play(steps, position.with_boards(me, opp))

    def position_key(self, position: Position) -> tuple:
        """What identifies a position within one turn: the mover's board, and the
        opponent's too where a step can change it (the same keys the search records)."""
        if self.can_hit:
            return (position.mover, position.opponent)
        return position.mover

    # ---- explaining an illegal step (engine.turn.diagnose asks these, in this order) --------

    def precheck(self, turn: Turn, src: int, dst: int) -> Reason | None:
        """A rule that comes before bearing off and distances (S-11's bar), else None."""
        return None

    def closed_reason(self, src: int) -> Reason:
        """Why one die cannot land on a closed point from ``src``."""
        return self.blocked_reason

    def step_rule(self, turn: Turn, src: int, dst: int) -> Reason | None:
        """A variant rule that forbids an open, exact single step (head, block), else None."""
        return None

    # ---- scoring ----------------------------------------------------------------------------

    def board_result_kind(self, position: Position, winner: Side, options: Options) -> ResultKind:
        """The kind of win the board shows for ``winner`` once the loser has none off."""
        raise NotImplementedError

    def result_points(
        self, position: Position, kind: ResultKind, winner: Side, options: Options
    ) -> int:
        """Points of a ``kind`` win before the cube."""
        return MULTIPLIER[kind]

    # ---- game flow ----------------------------------------------------------------------------

    def lot_is_first_roll(self, options: Options) -> bool:
        """Whether the lot's winner plays the lot's two dice as the first roll."""
        return True

    def next_game_starter(self, winner_seat: int, black_seat: int, options: Options) -> int | None:
        """The seat that starts the next game of a match as white, or None for a new lot."""
        return None


def _check_dice(dice: tuple[int, int]) -> None:
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must be two values 1..6, got {dice!r}")


_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Make ``variant`` findable by :func:`get_variant` under its name and aliases."""
    for key in (str(variant.name), *variant.aliases):
        _REGISTRY[key.lower()] = variant
    return variant


def unregister(variant: Variant) -> None:
    """Forget ``variant`` (tests that register a variant of their own clean up with this)."""
    for key in [k for k, v in _REGISTRY.items() if v is variant]:
        del _REGISTRY[key]


def registered() -> tuple[Variant, ...]:
    """Every registered variant, each once, in registration order."""
    return tuple(dict.fromkeys(_REGISTRY.values()))


def get_variant(name: str) -> Variant:
    """The variant called ``name`` ('long' or 'short'; Russian names are accepted too)."""
    found = _REGISTRY.get(name)
    if found is not None:
        return found
    found = _REGISTRY.get(name.strip().lower())
    if found is None:
        known = ", ".join(repr(str(v.name)) for v in registered())
        raise ValueError(f"unknown variant {name!r}; expected one of {known}")
    return found
