"""Perft-style regression table (STYLE: "perft-style count tables as the regression net").

``perft.json`` is written by ``make_perft.py`` from seeded random play of both variants; each
entry is a position ID, variant, side to move, dice, first-turn flag and options, with the
number of legal plays (distinct final outcomes, C-23). Besides the openings checked in
``make_perft.py``, these random entries were checked by hand:

* #15 long, X: 1×1, 2-3 under V-7: the last checker bears off with either die → 1 (V-7
  does not bite because the turn started with all checkers home);
* #17 long, X: 24×14, 19×1; O at X 12, 4, 3; 6-1 → 3: 24/18 19/18, 24/18/17, 19/13 24/23
  (19/13/12 stops on O's head; a second head checker is L-8);
* #14 long, X: 11, 8, 3×2, 2×5, 1×6; O at X 14, 13; 6-5 → 2: 11/5 8/3 or 11/6 8/2 — no
  bearing off while the other checker is outside (C-24);
* #62 short, X: 13×2, 6×4, 3×4, 2×5 with X-7 closed; 3-3 → 3: 6/3(4), 13/10 6/3(3),
  13/10(2) 6/3(2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Options, Side, get_variant
from engine.positionid import decode, encode

TABLE: list[dict[str, Any]] = json.loads(
    Path(__file__).with_name("perft.json").read_text(encoding="utf-8")
)


def test_table_is_big_and_covers_both_variants() -> None:
    assert len(TABLE) >= 60
    assert {e["variant"] for e in TABLE} == {"long", "short"}
    assert any(e["options"] for e in TABLE) and any(e["first_turn"] for e in TABLE)
    assert any(e["dice"][0] == e["dice"][1] for e in TABLE)


@pytest.mark.parametrize(
    "entry",
    TABLE,
    ids=[f"{i}-{e['variant']}-{e['dice'][0]}{e['dice'][1]}" for i, e in enumerate(TABLE)],
)
def test_legal_play_count(entry: dict[str, Any]) -> None:
    turn = Side.WHITE if entry["turn"] == "white" else Side.BLACK
    pos = decode(entry["position_id"], entry["variant"], turn)
    assert encode(pos) == entry["position_id"]
    plays = get_variant(entry["variant"]).legal_plays(
        pos,
        tuple(entry["dice"]),  # type: ignore[arg-type]
        first_turn=entry["first_turn"],
        options=Options.from_dict(entry["options"]),
    )
    assert len(plays) == entry["plays"]
