"""A plain-text board for tests, logs and the CLI.

Drawn from a chosen side's point of view with that side's numbering, the same orientation as
the pictures (RULES.md C-10): the viewer's points 13…24 run along the top from left to right,
12…1 along the bottom, so the viewer moves counter-clockwise and bears off at the bottom right.
``X`` is the viewer, ``O`` the other side.
"""

from __future__ import annotations

from engine.position import BAR, OFF, Position, Side
from engine.variants import get_variant


def _cell(count: int, mark: str) -> str:
    if count == 0:
        return " . "
    return f"{count:>2}{mark}"


def diagram(position: Position, viewer: Side | None = None) -> str:
    """A fixed-width picture of ``position`` seen by ``viewer`` (default: the side to move)."""
    viewer = position.turn if viewer is None else viewer
    variant = get_variant(position.variant)
    mine = position.board(viewer)
    theirs = position.board(viewer.other)
    cells: dict[int, str] = {}
    for p in range(1, 25):
        if mine[p]:
            cells[p] = _cell(mine[p], "X")
        else:
            cells[p] = _cell(theirs[variant.to_opponent_point(p)], "O")
    top_numbers = (
        " ".join(f"{p:>3}" for p in range(13, 19))
        + " |"
        + " ".join(f"{p:>3}" for p in range(19, 25))
    )
    bottom_numbers = (
        " ".join(f"{p:>3}" for p in range(12, 6, -1))
        + " |"
        + " ".join(f"{p:>3}" for p in range(6, 0, -1))
    )
    top = (
        " ".join(cells[p] for p in range(13, 19)) + " |" + " ".join(cells[p] for p in range(19, 25))
    )
    bottom = (
        " ".join(cells[p] for p in range(12, 6, -1))
        + " |"
        + " ".join(cells[p] for p in range(6, 0, -1))
    )
    name = variant.title_en.lower()
    to_move = "X" if position.turn is viewer else "O"
    lines = [
        f"{name}, {to_move} to move (X = {viewer.label})",
        " " + top_numbers,
        " " + top,
        " " + bottom,
        " " + bottom_numbers,
        f"X: pips {position.pip_count(viewer)}, off {mine[OFF]}"
        + (f", bar {mine[BAR]}" if mine[BAR] else ""),
        f"O: pips {position.pip_count(viewer.other)}, off {theirs[OFF]}"
        + (f", bar {theirs[BAR]}" if theirs[BAR] else ""),
    ]
    return "\n".join(lines)
