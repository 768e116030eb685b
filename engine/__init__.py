"""Pure rules engine for long and short nardy (RULES.md).

No I/O, no asyncio, no global randomness: the bot, renderer, storage and AI build on it.
Each variant's rules are one class behind :class:`Variant` (found by :func:`get_variant`);
everything else — the legal-play search, turns, games and matches — is shared.
"""

from engine.game import Event, EventKind, Game, Match, Phase
from engine.notation import format_steps, parse_segments
from engine.options import OPTION_INFO, LongScoring, OptionInfo, Options
from engine.position import BAR, OFF, Position, PositionError, Side, VariantName
from engine.rules import (
    IllegalActionError,
    IllegalMoveError,
    NotationCode,
    NotationError,
    Reason,
)
from engine.scoring import GameResult, ResultKind
from engine.step import Play, Step
from engine.turn import Turn
from engine.variants import Variant, get_variant, registered

__all__ = [
    "BAR",
    "OFF",
    "OPTION_INFO",
    "Event",
    "EventKind",
    "Game",
    "GameResult",
    "IllegalActionError",
    "IllegalMoveError",
    "LongScoring",
    "Match",
    "NotationCode",
    "NotationError",
    "OptionInfo",
    "Options",
    "Phase",
    "Play",
    "Position",
    "PositionError",
    "Reason",
    "ResultKind",
    "Side",
    "Step",
    "Turn",
    "Variant",
    "VariantName",
    "format_steps",
    "get_variant",
    "parse_segments",
    "registered",
]
