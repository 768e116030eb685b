"""Compact position IDs.

Short nardy uses exactly GNU Backgammon's Position ID, so players can paste it into GNU
Backgammon: an 80-bit key built from one side's checkers (ace point to 24, then the bar: a 1 per
checker, a 0 after each point), then the other side's the same way, packed least-significant
bit first into 10 bytes and written as 14 Base64 characters. The side *not* on roll comes
first: that is what GNU Backgammon 1.07 writes (checked against the real program: with only the
player on roll's checkers on the board its ID begins with the 25 zero bits of the empty side),
although its manual's prose lists the player on roll first.

Long nardy uses the same construction on each side's own pip numbering (the bar is always
empty, so each side contributes 15 ones and 25 zeros). The variant is not part of the ID; the
side on roll is not either (as in GNU Backgammon it travels separately), so decoding needs both.
"""

from __future__ import annotations

import base64
import binascii

from engine.position import BOARD_LEN, CHECKERS, OFF, Position, PositionError, Side
from engine.variants import get_variant


class PositionIDError(ValueError):
    """Text that is not a valid position ID."""


def _side_bits(board: tuple[int, ...], bits: list[int]) -> None:
    for point in range(1, BOARD_LEN):  # 1..24, then 25 = bar
        bits.extend([1] * board[point])
        bits.append(0)


def key(position: Position) -> bytes:
    """The 10-byte key of ``position``: the side not on roll first, as GNU Backgammon does."""
    bits: list[int] = []
    _side_bits(position.opponent, bits)
    _side_bits(position.mover, bits)
    bits.extend([0] * (80 - len(bits)))
    out = bytearray(10)
    for i, bit in enumerate(bits):
        if bit:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


def encode(position: Position) -> str:
    """The 14-character position ID of ``position`` (seen from the side to move)."""
    return base64.b64encode(key(position)).decode("ascii")[:14]


def decode(position_id: str, variant: str, turn: Side = Side.WHITE) -> Position:
    """The position of ``position_id`` in ``variant`` with ``turn`` to move.

    Raises :class:`PositionIDError` for text that is not an ID or does not describe 15
    checkers a side that can stand together on the board.
    """
    text = position_id.strip()
    if len(text) != 14:
        raise PositionIDError("a position ID has 14 characters")
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError) as exc:
        raise PositionIDError(f"{position_id!r} is not Base64") from exc
    bits = [(raw[i >> 3] >> (i & 7)) & 1 for i in range(80)]
    boards: list[list[int]] = []
    pos = 0
    for _ in range(2):
        board = [0] * BOARD_LEN
        point = 1
        while point < BOARD_LEN:
            if pos >= 80:
                raise PositionIDError("the ID ends in the middle of a board")
            if bits[pos]:
                board[point] += 1
            else:
                point += 1
            pos += 1
        on_board = sum(board)
        if on_board > CHECKERS:
            raise PositionIDError(f"a side has {on_board} checkers, more than {CHECKERS}")
        board[OFF] = CHECKERS - on_board
        boards.append(board)
    if any(bits[pos:]):
        raise PositionIDError("the ID has bits after both boards")
    opponent, mover = (tuple(b) for b in boards)
    rules = get_variant(variant)  # its check_position refuses a bar where there is none
    if turn is Side.WHITE:
        position = Position(variant, mover, opponent, turn)
    else:
        position = Position(variant, opponent, mover, turn)
    try:
        rules.check_position(position)
    except PositionError as exc:
        raise PositionIDError(str(exc)) from exc
    return position
