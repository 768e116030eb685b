"""Option values for the renderer: small frozen dataclasses, validated before drawing.

Every option is a plain value (hashable, comparable), so a picture is fully described by
``(position, options)`` and the same pair always gives the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from engine.position import Side
from engine.scoring import GameResult
from engine.step import Step

ImageFormat = Literal["png", "jpeg"]
GameOverKind = Literal["oin", "mars", "koks", "home_mars", "drop", "resign"]

MIN_WIDTH = 320
MAX_WIDTH = 1280  # Telegram downscales photos whose long side exceeds 1280 px
DEFAULT_WIDTH = 1280


class RenderOptionsError(ValueError):
    """Options that cannot describe a picture (bad dice, point out of range, ...)."""


@dataclass(frozen=True, slots=True)
class Labels:
    """The few words drawn on the board. The bot passes its own catalog's strings (STYLE §9);
    :data:`EN_LABELS` and :data:`RU_LABELS` are ready-made sets.

    ``wins`` is formatted with ``name``; ``points`` with ``points``; ``match`` with ``length``.
    """

    white: str = "White"
    black: str = "Black"
    pips: str = "pips"
    wins: str = "{name} wins"
    points: str = "+{points}"
    match: str = "match to {length}"
    oin: str = "oin"
    mars: str = "mars"
    koks: str = "koks"
    home_mars: str = "home mars"
    drop: str = "double declined"
    resign: str = "resigned"

    def side(self, side: Side) -> str:
        return self.white if side is Side.WHITE else self.black

    def kind(self, kind: GameOverKind) -> str:
        return str(getattr(self, kind))


EN_LABELS = Labels()
RU_LABELS = Labels(
    white="Белые",
    black="Чёрные",
    pips="пипсы",
    wins="Победа: {name}",
    points="+{points}",
    match="матч до {length}",
    oin="оин",
    mars="марс",
    koks="кокс",
    home_mars="домашний марс",
    drop="отказ от удвоения",
    resign="сдача",
)


@dataclass(frozen=True, slots=True)
class GameOverInfo:
    """How a finished game ended (RULES.md §4): winner, kind of win, points won (cube
    included), and whether the loser resigned. ``kind="resign"`` alone also means a
    resignation whose kind is not shown."""

    winner: Side
    kind: GameOverKind = "oin"
    points: int = 1
    resigned: bool = False

    @classmethod
    def from_result(cls, result: GameResult) -> GameOverInfo:
        """Adapt the engine's :class:`engine.scoring.GameResult`."""
        return cls(result.winner, str(result.kind), result.points, result.resigned)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class BoardOptions:
    """Everything about a board picture except the position itself.

    Points are given in one player's own numbering (RULES.md C-4): ``highlight_points`` in
    ``numbering``'s numbers (25 = that player's bar, 0 = that player's bear-off tray), and
    ``last_play`` in ``last_play_side``'s numbers, exactly as the engine produces steps.
    """

    viewer: Side = Side.WHITE
    """The colour drawn at the bottom (the player looking at the board)."""
    numbering: Side | None = None
    """Whose pip numbers are printed next to the points; None means the viewer's. Set it to
    the player to move, so the numbers on the picture are the ones that player types."""
    dice: tuple[int, ...] | None = None
    """Two values, or four equal values for a double; drawn in the mover's colour (not
    drawn once ``result`` says the game is over)."""
    dice_used: int = 0
    """How many of ``dice`` are already played this turn: the first ``dice_used`` dice are
    drawn spent (faded and crossed), so list the used ones first."""
    dice_owner: Side | None = None
    """Whose dice they are (colour and half of the board); None means the side to move. A
    replay frame after a turn shows the previous mover's dice."""
    last_play: tuple[Step, ...] | None = None
    last_play_side: Side | None = None
    """Who made ``last_play``; None means the side not to move (the previous mover)."""
    highlight_points: frozenset[int] = field(default_factory=frozenset)
    names: tuple[str, str] | None = None
    """(white's name, black's name); emoji and unknown characters are dropped."""
    show_pips: bool = True
    cube_enabled: bool = False
    cube_value: int = 1
    cube_owner: Side | None = None
    match: tuple[int, int, int] | None = None
    """(white's score, black's score, match length)."""
    result: GameOverInfo | None = None
    title: str | None = None
    labels: Labels = EN_LABELS
    image_format: ImageFormat = "jpeg"
    optimize_jpeg: bool = True
    """Optimised Huffman tables: ~6 % smaller files for about twice the encoding time
    (measured at 1024 px: 105 KB / 4.4 ms vs 111 KB / 2.2 ms). The bot, which draws a board
    on most taps, turns it off; files for sharing keep it."""
    width: int = DEFAULT_WIDTH
    """Image width in px (MIN_WIDTH..MAX_WIDTH); the height follows the board's proportions."""

    @property
    def numbering_side(self) -> Side:
        return self.viewer if self.numbering is None else self.numbering

    def validate(self) -> None:
        """Raise :class:`RenderOptionsError` naming the first option that makes no sense."""
        if self.dice is not None:
            if len(self.dice) not in (2, 4) or not all(
                isinstance(d, int) and 1 <= d <= 6 for d in self.dice
            ):
                raise RenderOptionsError(f"dice must be 2 or 4 values 1..6, got {self.dice!r}")
            if len(self.dice) == 4 and len(set(self.dice)) != 1:
                raise RenderOptionsError(f"four dice must be a double, got {self.dice!r}")
            if not 0 <= self.dice_used <= len(self.dice):
                raise RenderOptionsError(
                    f"dice_used must be 0..{len(self.dice)}, got {self.dice_used}"
                )
        elif self.dice_used:
            raise RenderOptionsError("dice_used given without dice")
        bad = sorted(p for p in self.highlight_points if not 0 <= p <= 25)
        if bad:
            raise RenderOptionsError(f"highlight points must be 0..25, got {bad}")
        for step in self.last_play or ():
            if not (0 <= step.dst < step.src <= 25):
                raise RenderOptionsError(f"last_play step {step} does not move 25..1 -> 24..0")
        if self.names is not None and len(self.names) != 2:
            raise RenderOptionsError("names must be (white's name, black's name)")
        if self.cube_value not in (1, 2, 4, 8, 16, 32, 64):
            raise RenderOptionsError(
                f"cube value must be a power of two 1..64, not {self.cube_value}"
            )
        if self.match is not None:
            white, black, length = self.match
            if length < 1 or not (white >= 0 and black >= 0):
                raise RenderOptionsError(
                    f"match must be (white, black, length>=1), not {self.match}"
                )
        if self.result is not None:
            if self.result.points < 0:
                raise RenderOptionsError("result points must be >= 0")
            if self.result.kind not in get_args(GameOverKind):
                raise RenderOptionsError(f"unknown result kind {self.result.kind!r}")
        if self.image_format not in ("png", "jpeg"):
            raise RenderOptionsError(
                f"image_format must be 'png' or 'jpeg', not {self.image_format!r}"
            )
        if not MIN_WIDTH <= self.width <= MAX_WIDTH:
            raise RenderOptionsError(f"width must be {MIN_WIDTH}..{MAX_WIDTH}, not {self.width}")
