"""Build positions from RULES.md notation and state expected outcomes the same way.

RULES.md §0.4 writes a position as ``X: 24×13, 18×2; O: 24×14, 4×1`` — X is the side to move,
each side in its **own** pip numbering, ``bar×n`` and ``off×n`` allowed, and checkers not
mentioned are borne off (15 a side). :func:`position` reads exactly that, so a test can quote the
worked example it checks.

Expected outcomes are written as the plays RULES.md lists (``24/18, 13/10*/8``, ``8/2(2)``) and
turned into final positions by :func:`after`, which moves checkers **without checking any
rule** and without the engine's parser, so an expectation never leans on the code under test.
"""

from __future__ import annotations

import re
from itertools import pairwise

from engine import Options, Play, Position, Side, Turn
from engine.position import BAR, OFF
from engine.variants import get_variant

#: RULES.md §7: opponent positions marked "far" (in O's own pips); they play no part.
O_FAR_LONG = "12×5, 10×5, 8×5"
O_FAR_SHORT = "13×5, 8×5, 7×5"

_ENTRY = re.compile(r"^(?P<point>bar|off|\d+)\s*[×xX]\s*(?P<count>\d+)$", re.IGNORECASE)
_REPEAT = re.compile(r"^(?P<body>.+)\((?P<n>[1-4])\)$")


def board(text: str) -> tuple[int, ...]:
    """A 26-tuple board from ``"24×13, 18×2, bar×1"``; unlisted checkers are borne off.

    A bracketed reader's note (``[X 12, 16]``) is ignored, as in RULES.md.
    """
    counts: dict[int, int] = {}
    body = re.sub(r"\[.*?\]", "", text)
    for part in (p.strip() for p in body.split(",")):
        if not part:
            continue
        match = _ENTRY.match(part)
        if not match:
            raise ValueError(f"cannot read {part!r} in {text!r}")
        point = _point(match.group("point"))
        if point not in (BAR, OFF) and not 1 <= point <= 24:
            raise ValueError(f"point {point} out of range in {text!r}")
        counts[point] = counts.get(point, 0) + int(match.group("count"))
    listed_off = counts.pop(OFF, None)
    result = Position.board_from_mapping(counts)
    if listed_off is not None and result[OFF] != listed_off:
        raise ValueError(f"{text!r}: off×{listed_off} but {result[OFF]} checkers are unlisted")
    return result


def position(variant: str, x: str, o: str, *, turn: Side = Side.WHITE) -> Position:
    """The position ``X: <x>; O: <o>`` with X, playing colour ``turn``, to move."""
    mover, opponent = board(x), board(o)
    white, black = (mover, opponent) if turn is Side.WHITE else (opponent, mover)
    pos = Position(variant, white, black, turn)
    get_variant(variant).check_position(pos)
    return pos


def long_pos(x: str, o: str = O_FAR_LONG, *, turn: Side = Side.WHITE) -> Position:
    return position("long", x, o, turn=turn)


def short_pos(x: str, o: str = O_FAR_SHORT, *, turn: Side = Side.WHITE) -> Position:
    return position("short", x, o, turn=turn)


def describe(board_: tuple[int, ...]) -> str:
    """A board in RULES.md notation: bar first, then points from 24 down, ``off`` left out."""
    parts = [f"bar×{board_[BAR]}"] if board_[BAR] else []
    parts.extend(f"{p}×{board_[p]}" for p in range(24, 0, -1) if board_[p])
    return ", ".join(parts) if parts else "all off"


def show(pos: Position) -> str:
    """``X: …; O: …`` for assertion messages."""
    return f"X: {describe(pos.mover)}; O: {describe(pos.opponent)}"


def _point(word: str) -> int:
    word = word.lower()
    return BAR if word == "bar" else OFF if word == "off" else int(word)


def after(pos: Position, text: str) -> Position:
    """Apply a play written as in RULES.md to ``pos`` without checking any rule.

    A landing on a lone O checker hits it (short nardy). The hit must be marked ``*`` exactly
    where it happens, so the expected texts stay honest.
    """
    me, opp = list(pos.mover), list(pos.opponent)
    short = pos.variant == "short"
    for token in text.replace(",", " ").split():
        repeat = 1
        match = _REPEAT.match(token)
        if match:
            token, repeat = match.group("body"), int(match.group("n"))
        for _ in range(repeat):
            for a, b in pairwise(token.split("/")):
                src, dst = _point(a.rstrip("*")), _point(b.rstrip("*"))
                if me[src] <= 0:
                    raise ValueError(f"{text!r}: no checker on {src}")
                me[src] -= 1
                me[dst] += 1
                hit = short and dst != OFF and opp[25 - dst] == 1
                if hit:
                    opp[25 - dst] = 0
                    opp[BAR] += 1
                if hit != b.endswith("*"):
                    raise ValueError(f"{text!r}: hit marker wrong at {b!r}")
    return pos.with_boards(tuple(me), tuple(opp))


def outcomes_of(pos: Position, *texts: str) -> set[Position]:
    """The final positions of the listed plays, which must all differ (one per outcome)."""
    finals = {after(pos, t) for t in texts}
    if len(finals) != len(texts):
        raise ValueError("two expected plays give the same outcome; list each outcome once")
    return finals


def legal_plays(
    pos: Position,
    dice: tuple[int, int],
    *,
    first_turn: bool = False,
    options: Options | None = None,
) -> list[Play]:
    return Turn(pos, dice, first_turn=first_turn, options=options).legal_plays


def engine_outcomes(
    pos: Position,
    dice: tuple[int, int],
    *,
    first_turn: bool = False,
    options: Options | None = None,
) -> set[Position]:
    """The engine's legal outcomes (distinct final positions, same side to move)."""
    return {p.result for p in legal_plays(pos, dice, first_turn=first_turn, options=options)}


def unexpected(got: set[Position], want: set[Position]) -> str:
    """A readable diff of two outcome sets, for assertion messages."""
    extra = sorted(show(p) for p in got - want)
    missing = sorted(show(p) for p in want - got)
    return f"engine also allows {extra}; engine misses {missing}"
