"""The two games behind one interface, found by name (STYLE: variants as classes)."""

from __future__ import annotations

from engine import movegen
from engine.options import Options
from engine.position import BAR, BOARD_LEN, CHECKERS, OFF, Position, PositionError, Side
from engine.step import Play, Step


class Variant:
    """Rules that differ between long and short nardy; everything else is shared."""

    name: str = ""
    title_ru: str = ""
    title_en: str = ""
    has_bar: bool = False
    point_map: tuple[int, ...] = ()

    def start_board(self) -> tuple[int, ...]:
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

    # ---- validation ---------------------------------------------------------------------

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
                raise PositionError("long nardy has no bar")
        white, black = position.white, position.black
        for p in range(1, 25):
            if white[p] and black[self.point_map[p]]:
                raise PositionError(f"white's point {p} also holds black checkers")
        if white[OFF] == CHECKERS and black[OFF] == CHECKERS:
            raise PositionError("both sides cannot have borne everything off")

    # ---- plays ----------------------------------------------------------------------------

    def context(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        first_turn: bool = False,
        options: Options | None = None,
    ) -> movegen.TurnContext:
        _check_dice(dice)
        return movegen.make_context(
            self.name,
            position.mover,
            position.opponent,
            dice,
            first_turn=first_turn,
            options=options,
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


class LongNardy(Variant):
    """Длинные нарды: no hitting, a head, the six-point block rule (RULES.md §2)."""

    name = "long"
    title_ru = "Длинные нарды"
    title_en = "Long nardy"
    has_bar = False
    point_map = movegen.LONG_MAP

    def start_board(self) -> tuple[int, ...]:
        return Position.board_from_mapping({24: CHECKERS})


class ShortNardy(Variant):
    """Короткие нарды (backgammon): hitting, the bar, entering (RULES.md §3)."""

    name = "short"
    title_ru = "Короткие нарды"
    title_en = "Short nardy"
    has_bar = True
    point_map = movegen.SHORT_MAP

    def start_board(self) -> tuple[int, ...]:
        return Position.board_from_mapping({24: 2, 13: 5, 8: 3, 6: 5})


VARIANTS: dict[str, Variant] = {"long": LongNardy(), "short": ShortNardy()}


def get_variant(name: str) -> Variant:
    """The variant called ``name`` ('long' or 'short'; Russian names are accepted too)."""
    key = name.strip().lower()
    key = {"длинные": "long", "короткие": "short", "backgammon": "short"}.get(key, key)
    try:
        return VARIANTS[key]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; expected 'long' or 'short'") from None


def _check_dice(dice: tuple[int, int]) -> None:
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must be two values 1..6, got {dice!r}")
