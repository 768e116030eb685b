"""Pure rules engine for long and short nardy (RULES.md).

No I/O, no asyncio, no global randomness: the bot, renderer, storage and AI build on it.
"""

from engine.game import Event, Game, Match, Phase
from engine.notation import format_steps, parse_segments
from engine.options import LongScoring, Options
from engine.position import BAR, OFF, Position, PositionError, Side
from engine.rules import IllegalActionError, IllegalMoveError, NotationError, Reason
from engine.scoring import GameResult, ResultKind
from engine.step import Play, Step
from engine.turn import Turn
from engine.variants import Variant, get_variant

__all__ = [
    "BAR",
    "OFF",
    "Event",
    "Game",
    "GameResult",
    "IllegalActionError",
    "IllegalMoveError",
    "LongScoring",
    "Match",
    "NotationError",
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
    "format_steps",
    "get_variant",
    "parse_segments",
]
