"""What a move picker offers the mover, decided once here (no Telegram): the whole plays of a
roll with few of them, the points that move on one tap, and which turn a picker belongs to.

The plays are the engine's own (:attr:`engine.Turn.legal_plays`, one per final position), so a
whole-play button is exactly one legal play and nothing else; the picker numbers them by their
index there, which :class:`gameplay.actions.WholePlay` plays.
"""

from __future__ import annotations

from enum import StrEnum

from engine import Game, Phase, Play, Step

#: At most this many whole plays are offered as buttons (issue #12: "at most 6").
MAX_WHOLE_PLAYS = 6


class PickerWay(StrEnum):
    """How a player likes to enter a turn; the picker opens that way (remembered per player)."""

    STEPS = "steps"  # point, then destination (one tap when there is one destination)
    PLAYS = "plays"  # one button per whole play, when there are few


def whole_plays(game: Game, limit: int = MAX_WHOLE_PLAYS) -> list[tuple[int, Play]]:
    """The roll's legal plays with their indices, when there are 2..``limit`` distinct final
    positions (one play is played automatically; more would not fit as buttons); else []."""
    if game.phase is not Phase.MOVE or game.dice is None:
        return []
    turn = game.turn
    variant = game.variant
    seen: set[object] = set()
    out: list[tuple[int, Play]] = []
    for index, play in enumerate(turn.legal_plays):
        key = variant.position_key(play.result)
        if key in seen:
            continue
        seen.add(key)
        out.append((index, play))
        if len(out) > limit:
            return []
    if len(out) < 2 or not out[0][1].steps:
        return []
    return out


def one_tap_steps(game: Game) -> dict[int, Step]:
    """Source points whose every legal next step lands on one destination: tapping the point
    plays that step at once (no destination to choose)."""
    if game.phase is not Phase.MOVE or game.dice is None:
        return {}
    by_source: dict[int, list[Step]] = {}
    for step in game.legal_steps():
        by_source.setdefault(step.src, []).append(step)
    return {src: steps[0] for src, steps in by_source.items() if len({s.dst for s in steps}) == 1}


def turn_key(game_number: int, game: Game) -> tuple[int, int]:
    """Which turn of a match a game is at: a picker (or a fallback to in-place buttons) is
    for one turn; steps within the turn keep the key, the turn's end changes it."""
    return game_number, len(game.history)
