"""Positions written as in RULES.md §0.4: ``X: 24×13, 18×2; O: 24×14, 4×1 [X 12, 16]``.

X is the side to move, O the opponent; each side's points are in its own numbering, with
``bar×n`` and ``off×n``; a bracketed part (the other side's numbers, for readers) is ignored.
Checkers not listed are borne off. Used by the rules explanations and by tests.
"""

from __future__ import annotations

import re

from engine.position import BAR, OFF, Position, PositionError, Side
from engine.variants import get_variant

_ITEM = re.compile(r"^(?P<point>bar|off|\d{1,2})\s*[×x*]\s*(?P<count>\d{1,2})$", re.IGNORECASE)


def _side(text: str) -> tuple[int, ...]:
    points: dict[int, int] = {}
    body = re.sub(r"\[.*?\]", "", text).strip()
    for raw in filter(None, (part.strip() for part in body.split(","))):
        match = _ITEM.match(raw)
        if not match:
            raise PositionError(f"cannot read {raw!r}; write point×count, e.g. 24×15")
        word = match.group("point").lower()
        point = BAR if word == "bar" else OFF if word == "off" else int(word)
        points[point] = points.get(point, 0) + int(match.group("count"))
    off = points.pop(OFF, 0)
    board = list(Position.board_from_mapping(points))
    if off and board[OFF] != off:
        raise PositionError(f"off×{off} does not match the {15 - board[OFF]} checkers listed")
    return tuple(board)


def parse_position(variant: str, text: str, turn: Side = Side.WHITE) -> Position:
    """Read ``"X: …; O: …"`` into a checked position with X (colour ``turn``) to move."""
    parts = dict(
        (key.strip().upper(), value)
        for key, _, value in (chunk.partition(":") for chunk in text.split(";"))
    )
    if "X" not in parts:
        raise PositionError("a position needs an 'X: …' part")
    me = _side(parts["X"])
    opp = _side(parts.get("O", "")) if parts.get("O", "").strip() else _side("")
    white, black = (me, opp) if turn is Side.WHITE else (opp, me)
    position = Position(get_variant(variant).name, white, black, turn)
    get_variant(variant).check_position(position)
    return position
