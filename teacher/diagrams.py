"""Example positions that illustrate topics (drawn later by the renderer).

Positions are in RULES.md §0.4 notation with X to move; most come from, or are built like,
the worked examples of RULES.md §7 so that the engine's tests and the pictures agree.
A key may have a per-game alternative named ``f"{key}_{variant}"`` (e.g. ``setup_short``);
``get_diagram`` picks it when the player's game is known.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from teacher.model import Diagram, Variant

_ALL: tuple[Diagram, ...] = (
    Diagram(
        key="setup",
        variant="long",
        position="X: 24×15; O: 24×15 [X 12]",
        highlight=(24, 12),
        note="Long nardy start: every checker on its head; the heads are diagonally opposite.",
    ),
    Diagram(
        key="setup_short",
        variant="short",
        position="X: 24×2, 13×5, 8×3, 6×5; O: 24×2, 13×5, 8×3, 6×5 [X 1, 12, 17, 19]",
        highlight=(24, 13, 8, 6),
        note="Short nardy start: 2-5-3-5 on X's 24, 13, 8 and 6; O mirrors it.",
    ),
    Diagram(
        key="head_rule",
        variant="long",
        position="X: 24×13, 18×1, 16×1; O: 24×13, 18×2 [X 12, 6]",
        highlight=(24, 18, 16, 10, 4),
        dice=(6, 6),
        note=(
            "Not the first turn, 6-6: only one checker may leave the head. The play is "
            "24/18, 16/10/4 and the fourth six is lost (T-L29)."
        ),
    ),
    Diagram(
        key="first_move_exception",
        variant="long",
        position="X: 24×15; O: 24×15 [X 12]",
        highlight=(24, 18, 12),
        dice=(6, 6),
        note=(
            "X's first turn, 6-6: a lone checker would have to stop on O's head (X 12), so two "
            "checkers leave the head: 24/18, 24/18; the other two sixes are lost (T-L1)."
        ),
    ),
    Diagram(
        key="six_point_block",
        variant="long",
        position="X: 24×4, 23×1, 17×2, 16×2, 15×2, 14×2, 13×2; O: 24×14, 8×1 [X 12, 20]",
        highlight=(23, 18, 17, 16, 15, 14, 13),
        dice=(5, 3),
        note=(
            "The step 23/18 would close X 18-13 with no O checker past it, so 23/18/15 is "
            "illegal by default, even though the block would open again; legal under V-1 "
            "(T-L15)."
        ),
    ),
    Diagram(
        key="locked_checker",
        variant="long",
        position=(
            "X: 20×1, 6×5, 5×5, 4×4; O: 7×3, 6×3, 5×3, 4×2, 3×2, 2×2 [X 19, 18, 17, 16, 15, 14]"
        ),
        highlight=(20, 19, 18, 17, 16, 15, 14),
        note=(
            "X's checker on 20 faces O on all of X 19-14: every number lands on O, so it is "
            "locked. O's block is legal because X checkers are already past it (L-16, L-19)."
        ),
    ),
    Diagram(
        key="hitting",
        variant="short",
        position=(
            "X: 24×4, 13×2, 12×1, 8×3, 6×5; O: 24×2, 15×1, 14×4, 8×3, 6×5 [X 1, 10, 11, 17, 19]"
        ),
        highlight=(13, 12, 10),
        dice=(3, 2),
        note=(
            "13/10* hits O's blot on X 10, which goes to the bar; 12/10 covers the hitter (T-S9)."
        ),
    ),
    Diagram(
        key="bar_entry",
        variant="short",
        position="X: bar×1, 24×1, 13×5, 8×3, 6×5; O: 24×2, 13×5, 7×3, 6×5 [X 1, 12, 18, 19]",
        highlight=(25, 23, 19),
        dice=(6, 2),
        note=(
            "X must enter first: X 19 is closed for the 6, so bar/23 with the 2, then the 6 "
            "with any checker (T-S5)."
        ),
    ),
    Diagram(
        key="bearing_off",
        variant="long",
        position="X: 4×2, off×13; O: 12×5, 10×5, 8×5 [X 24, 22, 20]",
        highlight=(4, 1, 0),
        dice=(4, 3),
        note=(
            "The 4 bears off from 4 exactly; no checker stands on 3 but one stands higher, so "
            "the 3 must move 4/1 (T-L20)."
        ),
    ),
    Diagram(
        key="last_checker",
        variant="long",
        position="X: 7×1, 6×2, 5×3, 4×3, 3×3, 2×3; O: 24×14, 13×1 [X 12, 1]",
        highlight=(7, 6, 1, 0),
        dice=(6, 1),
        note=(
            "7/1 is blocked by O, so 7/6 comes home; by default the 6 then bears off from 6 "
            "(C-31); under V-7 the 6 burns (T-L22a/b)."
        ),
    ),
    Diagram(
        key="mars_koks",
        variant="short",
        position="X: 1×1, off×14; O: 20×1, 6×5, 5×5, 4×4 [X 5, 19, 20, 21]",
        highlight=(1, 5),
        note=(
            "X bears off the last checker. O has borne off nothing and still has a checker "
            "in X's home (X 5): koks, 3 × cube. Without that checker it would be mars (M-6)."
        ),
    ),
)

DIAGRAMS: Mapping[str, Diagram] = MappingProxyType({d.key: d for d in _ALL})
"""Every example position by key."""


def get_diagram(key: str | None, variant: Variant | None = None) -> Diagram | None:
    """Return the diagram ``key``, preferring its ``<key>_<variant>`` alternative.

    Why: a topic such as the setup applies to both games, but a player in a short-nardy
    game should see a short-nardy board.
    """
    if key is None:
        return None
    if variant is not None:
        alt = DIAGRAMS.get(f"{key}_{variant}")
        if alt is not None:
            return alt
    return DIAGRAMS.get(key)
