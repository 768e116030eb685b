"""``python -m engine``: legal plays as JSON lines, and a text diagram of a position ID.

The ``plays`` JSON format is a contract other tools rely on (see README "Engine CLI"):
request ``{"id", "variant", "position": {"me": {...}, "opp": {...}}, "dice": [d1, d2],
"first_turn": false, "options": {...}}``, each side ``{"<point>": count}`` in its own
numbering ("0" off, "25" bar), 15 checkers a side; answer ``{"id", "plays": [{"me", "opp",
"notation"}, …]}`` or ``{"id", "error"}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from engine.diagram import diagram
from engine.notation import format_steps
from engine.options import Options, OptionsError
from engine.position import BOARD_LEN, CHECKERS, Position, PositionError, Side
from engine.positionid import PositionIDError, decode, encode
from engine.variants import VariantName, get_variant, registered


class RequestError(ValueError):
    """A malformed ``plays`` request; its message goes back to the caller."""


def _side_from_json(data: Any, name: str) -> tuple[int, ...]:
    if not isinstance(data, dict):
        raise RequestError(f"position.{name} must be an object of point -> count")
    board = [0] * BOARD_LEN
    for key, count in data.items():
        try:
            point = int(key)
        except (TypeError, ValueError):
            raise RequestError(f"position.{name}: {key!r} is not a point number") from None
        if not 0 <= point < BOARD_LEN:
            raise RequestError(f"position.{name}: point {point} is outside 0..25")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise RequestError(f"position.{name}: count on {point} must be a whole number >= 0")
        board[point] += count
    if sum(board) != CHECKERS:
        raise RequestError(f"position.{name} has {sum(board)} checkers, expected {CHECKERS}")
    return tuple(board)


def _side_to_json(board: tuple[int, ...]) -> dict[str, int]:
    return {str(p): c for p, c in enumerate(board) if c}


def answer(request: Any) -> dict[str, Any]:
    """Answer one ``plays`` request (never raises for bad input: it returns an error)."""
    rid = request.get("id") if isinstance(request, dict) else None
    try:
        if not isinstance(request, dict):
            raise RequestError("a request is a JSON object")
        try:
            variant = get_variant(str(request.get("variant", "")))
        except ValueError as exc:
            raise RequestError(str(exc)) from None
        position = request.get("position")
        if not isinstance(position, dict):
            raise RequestError("position must be an object with 'me' and 'opp'")
        me = _side_from_json(position.get("me"), "me")
        opp = _side_from_json(position.get("opp"), "opp")
        dice = request.get("dice")
        if (
            not isinstance(dice, list)
            or len(dice) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
        ):
            raise RequestError("dice must be a list of two numbers 1..6")
        first_turn = request.get("first_turn", False)
        if not isinstance(first_turn, bool):
            raise RequestError("first_turn must be true or false")
        try:
            options = Options.from_dict(request.get("options"))
        except OptionsError as exc:
            raise RequestError(str(exc)) from None
        pos = Position(variant.name, me, opp, Side.WHITE)
        try:
            variant.check_position(pos)
        except PositionError as exc:
            raise RequestError(str(exc).replace("white", "me").replace("black", "opp")) from None
        plays = variant.legal_plays(pos, (dice[0], dice[1]), first_turn=first_turn, options=options)
        out = [
            {
                "me": _side_to_json(p.result.mover),
                "opp": _side_to_json(p.result.opponent),
                "notation": format_steps(p.steps),
            }
            for p in plays
        ]
        if not out:
            out = [{"me": _side_to_json(me), "opp": _side_to_json(opp), "notation": ""}]
        out.sort(key=lambda entry: entry["notation"])
        return {"id": rid, "plays": out}
    except RequestError as exc:
        return {"id": rid, "error": str(exc)}


def serve_plays(lines: Iterable[str]) -> Iterator[str]:
    """One JSON answer line per non-blank input line; bad JSON gets an error line."""
    for line in lines:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            yield json.dumps({"id": None, "error": f"invalid JSON: {exc.msg}"})
            continue
        yield json.dumps(answer(request), ensure_ascii=False)


def main(
    argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Nardy rules engine: legal plays as JSON lines, and position diagrams.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    names = [str(v.name) for v in registered()]
    sub.add_parser(
        "plays",
        help="read JSON requests (one per line) on stdin, write one JSON answer per line",
    )
    show = sub.add_parser("show", help="print a text diagram of a position ID")
    show.add_argument("position_id", help="14-character position ID")
    show.add_argument("--variant", choices=names, default=str(VariantName.SHORT))
    show.add_argument(
        "--turn",
        choices=["white", "black"],
        default="white",
        help="the side on roll (the ID is written from its point of view)",
    )
    start = sub.add_parser("start", help="print the start position and its ID")
    start.add_argument("--variant", choices=names, default=str(VariantName.LONG))
    args = parser.parse_args(argv)
    if args.command == "plays":
        for out in serve_plays(stdin):
            stdout.write(out + "\n")
            stdout.flush()
        return 0
    if args.command == "start":
        pos = get_variant(args.variant).start_position()
        stdout.write(diagram(pos) + f"\nposition ID: {encode(pos)}\n")
        return 0
    turn = Side.WHITE if args.turn == "white" else Side.BLACK
    try:
        pos = decode(args.position_id, args.variant, turn)
    except PositionIDError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    stdout.write(diagram(pos) + "\n")
    return 0
