"""Write ``tests/engine/perft.json``: legal-play counts for positions met in seeded random play.

Run ``python -m tests.engine.make_perft`` from the repository root **only** when a rules change
is intended; ``test_perft.py`` then holds the engine to the new table. Like chess perft tables,
a count that changes without a rules change is a regression.

Each entry: the position ID (``engine.positionid``), the variant, the side to move, the dice,
whether it is that side's first turn, the options (``Options.to_dict``) and the number of legal
plays (distinct final positions, C-23). The first entries are hand-checked openings:

* long start, first turn: 6-6 → 1 (24/18, 24/18: T-L1), 4-4 → 1 (T-L2), 3-3 → 2 (T-L3),
  5-5 → 1 (T-L4), 6-5 → 1 (24/13, a single checker: L-10);
* long start, later turn 6-5 → 1 (still one head checker, L-8);
* short start 6-5 → 7: a 6 from 24, 13 or 8; a 5 from 13 or 8 only (24/19 and 6/1 are
  closed), so 3 × 2 = 6 pairs, plus 24/18/13; 13/7/2 equals 13/8 + 8/2;
* short start 2-1 → 15: 2s 24/22, 13/11, 8/6, 6/4 and 1s 24/23, 8/7, 6/5 (13/12 is closed)
  give 12 pairs, plus 24/22/21, 13/11/10 and 6/4/3 (8/6/5 is the pair 8/6 + 6/5).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from engine import Options, Position, Side, get_variant
from engine.positionid import encode

OUT = Path(__file__).with_name("perft.json")

HAND_CHECKED: list[tuple[str, bool, tuple[int, int], int]] = [
    ("long", True, (6, 6), 1),
    ("long", True, (4, 4), 1),
    ("long", True, (3, 3), 2),
    ("long", True, (5, 5), 1),
    ("long", True, (6, 5), 1),
    ("long", False, (6, 5), 1),
    ("short", True, (6, 5), 7),
    ("short", True, (2, 1), 15),
]

#: Option sets drawn for the long-nardy random entries (defaults most often).
LONG_OPTIONS = [
    Options(),
    Options(),
    Options(),
    Options(block_in_passing=True),
    Options(block_needs_home=True),
    Options(bearoff_next_turn=True),
]


def entry(pos: Position, dice: tuple[int, int], first: bool, options: Options) -> dict[str, Any]:
    plays = get_variant(pos.variant).legal_plays(pos, dice, first_turn=first, options=options)
    return {
        "variant": pos.variant,
        "position_id": encode(pos),
        "turn": pos.turn.label,
        "dice": list(dice),
        "first_turn": first,
        "options": options.to_dict(),
        "plays": len(plays),
    }


def random_entries(variant: str, count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` entries from seeded random games: each (position, roll) met is kept with
    probability 6 %, so the entries spread over openings, middle games and bear-offs."""
    rng = random.Random(seed)
    rules = get_variant(variant)
    out: list[dict[str, Any]] = []
    while len(out) < count:
        pos = rules.start_position(Side.WHITE if rng.random() < 0.5 else Side.BLACK)
        turns = [0, 0]
        while not pos.is_finished() and len(out) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            first = turns[pos.turn] == 0
            options = rng.choice(LONG_OPTIONS) if variant == "long" else Options()
            if rng.random() < 0.06:
                out.append(entry(pos, dice, first, options))
            plays = rules.legal_plays(pos, dice, first_turn=first)
            turns[pos.turn] += 1
            result = rng.choice(plays).result
            pos = result if result.is_finished() else result.swapped()
    return out


def build() -> list[dict[str, Any]]:
    table = []
    for variant, first, dice, expected in HAND_CHECKED:
        start = get_variant(variant).start_position()
        row = entry(start, dice, first, Options())
        assert row["plays"] == expected, (variant, dice, row["plays"], expected)
        row["note"] = "hand-checked opening"
        table.append(row)
    table += random_entries("long", 28, 2024)
    table += random_entries("short", 28, 2025)
    return table


def main() -> None:
    table = build()
    lines = ",\n".join(" " + json.dumps(row, ensure_ascii=False) for row in table)
    OUT.write_text("[\n" + lines + "\n]\n", encoding="utf-8")
    print(f"wrote {len(table)} entries to {OUT}")


if __name__ == "__main__":
    main()
