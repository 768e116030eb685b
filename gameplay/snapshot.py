"""A game as the layer above sees it after loading or acting: row, match, who sits where."""

from __future__ import annotations

from dataclasses import dataclass, field

import storage
from engine import Event, Game, Match, Side
from gameplay.clocks import ClockView, MoveClock


@dataclass(slots=True)
class Snapshot:
    """A game after an action: what a presenter needs to draw and describe it.

    ``names`` holds the people's names by seat; the computer's seat has none (the bot words
    it in the chat's language). ``events`` … ``next_game`` describe what the last action did.
    """

    row: storage.Game
    match: Match
    names: dict[int, str]  # seat -> display name (people only)
    user_ids: dict[int, int | None]  # seat -> Telegram user id (None: the computer)
    hints: bool = False  # whether the players may ask for hints (one rule: GameService)
    events: list[Event] = field(default_factory=list)  # new history lines of this action
    forced_plays: list[Event] = field(default_factory=list)  # a person's only plays, played
    finished: storage.FinishedGame | None = None
    next_game: Snapshot | None = None  # the next game of the match, if one started
    # SHA-256 of the dice seed, on a game just created (its first board shows it)
    dice_commitment: str | None = None
    move_clock: MoveClock = MoveClock.OFF  # the game's time per move (a house rule)
    clock: ClockView | None = None  # the move clock as of loading (None: the game is over)

    @property
    def forced(self) -> bool:
        """Whether this action played a person's only legal play for them."""
        return bool(self.forced_plays)

    @property
    def game(self) -> Game:
        return self.match.current

    @property
    def game_id(self) -> int:
        return self.row.game_id

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def active(self) -> bool:
        return self.row.status is storage.GameStatus.ACTIVE

    @property
    def abandoned(self) -> bool:
        """Ended without a result (no statistics or rating changed)."""
        return self.row.status is storage.GameStatus.ABANDONED

    @property
    def end_reason(self) -> str | None:
        """Why it ended other than by play: ``timeout`` (claimed, with a result), ``admin``,
        ``agreement``, ``inactive`` (abandoned); None otherwise."""
        reason = self.row.end_reason
        return None if reason is None else str(reason)

    def seat_of_user(self, user_id: int) -> int | None:
        for seat, uid in self.user_ids.items():
            if uid == user_id:
                return seat
        return None

    @property
    def on_clock_user_id(self) -> int | None:
        """The person whose move it is, and so whose clock runs (None: the computer's move,
        or the game is over)."""
        if not self.active:
            return None
        seat = self.game.seat_to_act
        return None if seat is None else self.user_ids.get(seat)

    @property
    def ai_seat(self) -> int | None:
        for seat, uid in self.user_ids.items():
            if uid is None:
                return seat
        return None

    @property
    def ai_level(self) -> str | None:
        return self.row.ai_level if self.ai_seat is not None else None


def seat_users(row: storage.Game, game: Game) -> dict[int, int | None]:
    """Which Telegram user sits in each engine seat (colours come from the stored row)."""
    return {
        game.seat_of(Side.WHITE): row.white_user_id,
        game.seat_of(Side.BLACK): row.black_user_id,
    }
