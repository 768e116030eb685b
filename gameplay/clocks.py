"""Move clocks: the house rule, deadlines, the half-time reminder, timeouts and abandonment.

Pure policy (no I/O, no Telegram, no clock of its own: every function takes ``now``). The bot
computes a :class:`storage.ClockUpdate` here with every game write, storage keeps it, and
:mod:`gameplay.scheduler` fires what falls due. The rules:

* the clock of a move runs from the **last action** in the game (any write: a roll, a step,
  the opponent's move), so a player who is acting is never timed out mid-turn;
* **one reminder per move**, at half time (storage keeps the "sent" mark per move number);
* when the time is up, the waiting player may **claim** the game — scored as the resignation
  of the player on the clock (RULES.md M-19; in a match it ends the current game only and the
  match goes on by its rules) — or keep waiting: nothing happens until someone acts;
* a game nobody has touched for :data:`ABANDON_AFTER` (30 days) is closed as **abandoned**,
  without statistics or rating changes, whether it has a move clock or not.

Defaults: **24 h** in groups, **72 h** for invitations (private games), **off** against the
computer (it never keeps anyone waiting; only abandonment applies). Why: a group game holds the
chat's one game slot, so a vanished player must release it within a day, and a day still lets
people in different time zones, at work or asleep, play one move per sitting. A private game
blocks nobody, so it gets a correspondence pace that survives a weekend away. Five minutes and
an hour are there for people who sit down to play live.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Protocol

from storage.models import ClockUpdate, GameClock

#: A game with no action for this long is closed as abandoned.
ABANDON_AFTER = timedelta(days=30)
#: The key of the house rule in a chat's (or an invitation's) options.
OPTION_KEY = "move_clock"


class MoveClock(StrEnum):
    """Time per move, as a house rule (the values are what the options store)."""

    OFF = "off"
    MIN_5 = "5m"
    HOUR_1 = "1h"
    HOURS_24 = "24h"
    HOURS_72 = "72h"

    @property
    def per_move(self) -> timedelta | None:
        return _PER_MOVE[self]


_PER_MOVE: dict[MoveClock, timedelta | None] = {
    MoveClock.OFF: None,
    MoveClock.MIN_5: timedelta(minutes=5),
    MoveClock.HOUR_1: timedelta(hours=1),
    MoveClock.HOURS_24: timedelta(hours=24),
    MoveClock.HOURS_72: timedelta(hours=72),
}

#: The order the settings screen offers them in.
CHOICES: tuple[MoveClock, ...] = tuple(MoveClock)
DEFAULT_GROUP = MoveClock.HOURS_24
DEFAULT_PRIVATE = MoveClock.HOURS_72
DEFAULT_VS_COMPUTER = MoveClock.OFF


def default_clock(*, group: bool, vs_computer: bool = False) -> MoveClock:
    if vs_computer:
        return DEFAULT_VS_COMPUTER
    return DEFAULT_GROUP if group else DEFAULT_PRIVATE


def clock_from_options(
    options: Mapping[str, Any], *, group: bool, vs_computer: bool = False
) -> MoveClock:
    """The clock a chat's or invitation's house rules choose; a missing or unknown value (an
    older or hand-edited setting) falls back to the default rather than failing."""
    if vs_computer:
        return DEFAULT_VS_COMPUTER
    try:
        return MoveClock(options.get(OPTION_KEY))
    except ValueError:
        return default_clock(group=group)


def game_clock(options: Mapping[str, Any]) -> MoveClock:
    """The clock a stored game plays with (its row's options). A game stored before move
    clocks existed has none: it is not put on a clock it never announced."""
    try:
        return MoveClock(options.get(OPTION_KEY, MoveClock.OFF))
    except ValueError:
        return MoveClock.OFF


def split_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], MoveClock | None]:
    """A stored options dictionary as the engine's part and the clock beside it (None: not
    chosen). The engine knows nothing of clocks, so ``move_clock`` never reaches
    ``Options.from_dict``."""
    rest = dict(options)
    raw = rest.pop(OPTION_KEY, None)
    try:
        return rest, None if raw is None else MoveClock(raw)
    except ValueError:
        return rest, None


@dataclass(frozen=True, slots=True)
class ClockPlan:
    """When the events of the move now being played fall due (``None``: never)."""

    remind_at: datetime | None
    deadline_at: datetime | None
    abandon_at: datetime


def plan(
    choice: MoveClock,
    last_action_at: datetime,
    *,
    someone_on_clock: bool = True,
    abandon_after: timedelta = ABANDON_AFTER,
) -> ClockPlan:
    """The deadline, reminder and abandonment time counted from the last action.

    ``someone_on_clock`` is False when no person must act (the computer is to move): then only
    abandonment applies.
    """
    per_move = choice.per_move
    abandon_at = last_action_at + abandon_after
    if per_move is None or not someone_on_clock:
        return ClockPlan(None, None, abandon_at)
    return ClockPlan(last_action_at + per_move / 2, last_action_at + per_move, abandon_at)


class _Game(Protocol):
    """What :func:`move_number` reads from an engine game (``engine.game.Game``)."""

    @property
    def turns_played(self) -> list[int]: ...

    @property
    def history(self) -> list[Any]: ...


def move_number(game: _Game, game_number: int = 1) -> int:
    """A number that grows exactly when a new move begins for the clock: a turn is finished
    (or passed), or the cube changes hands for an answer (a double) and back (a take). Steps
    within a turn keep it, so they re-arm the deadline but never the one reminder."""
    cube_turns = sum(1 for event in game.history if event.kind in ("double", "take"))
    return game_number * 1_000_000 + 2 * sum(game.turns_played) + cube_turns


def clock_update(
    choice: MoveClock,
    now: datetime,
    *,
    move: int,
    on_clock_user_id: int | None,
    abandon_after: timedelta = ABANDON_AFTER,
) -> ClockUpdate:
    """What the bot passes with a game write (``NewGame.clock``, ``save_game(clock=…)``)."""
    times = plan(
        choice, now, someone_on_clock=on_clock_user_id is not None, abandon_after=abandon_after
    )
    return ClockUpdate(
        move_number=move,
        on_clock_user_id=on_clock_user_id,
        remind_at=times.remind_at,
        deadline_at=times.deadline_at,
        abandon_at=times.abandon_at,
    )


class ClockState(StrEnum):
    OFF = "off"  # no move clock (only abandonment applies)
    RUNNING = "running"
    EXPIRED = "expired"  # the time is up: the waiting player may claim the game


@dataclass(frozen=True, slots=True)
class ClockView:
    """A clock as a caption shows it at one moment."""

    state: ClockState
    on_clock_user_id: int | None
    remaining: timedelta | None  # None when off; zero when expired

    def may_claim(self, user_id: int) -> bool:
        """The waiting player (not the one whose time ran out) may claim an expired game."""
        return (
            self.state is ClockState.EXPIRED
            and self.on_clock_user_id is not None
            and user_id != self.on_clock_user_id
        )


def view(clock: GameClock | None, now: datetime) -> ClockView:
    if clock is None or clock.deadline_at is None:
        return ClockView(ClockState.OFF, None if clock is None else clock.on_clock_user_id, None)
    left = clock.deadline_at - now
    if left <= timedelta(0):
        return ClockView(ClockState.EXPIRED, clock.on_clock_user_id, timedelta(0))
    return ClockView(ClockState.RUNNING, clock.on_clock_user_id, left)


def view_since(
    choice: MoveClock, last_action_at: datetime, on_clock_user_id: int | None, now: datetime
) -> ClockView:
    """The clock a board shows, from the game's last write (a stored row's ``updated_at``):
    the same deadline the write stored (:func:`clock_update` counts from the same moment), so
    a caption needs no read of the clock table."""
    per_move = choice.per_move
    if per_move is None or on_clock_user_id is None:
        return ClockView(ClockState.OFF, on_clock_user_id, None)
    left = last_action_at + per_move - now
    if left <= timedelta(0):
        return ClockView(ClockState.EXPIRED, on_clock_user_id, timedelta(0))
    return ClockView(ClockState.RUNNING, on_clock_user_id, left)


class TimeUnit(StrEnum):
    DAYS = "d"
    HOURS = "h"
    MINUTES = "min"
    SECONDS = "s"


def remaining_words(left: timedelta) -> tuple[int, TimeUnit]:
    """(amount, unit) for «осталось 23 ч» / "23 h left": one unit, rounded down so the caption
    never promises more time than there is; days from two days up, then hours, minutes, and
    seconds under a minute (at least 1, as "0 s left" would read as "expired")."""
    seconds = max(0, int(left.total_seconds()))
    if seconds >= 2 * 86_400:
        return seconds // 86_400, TimeUnit.DAYS
    if seconds >= 3_600:
        return seconds // 3_600, TimeUnit.HOURS
    if seconds >= 60:
        return seconds // 60, TimeUnit.MINUTES
    return max(1, seconds), TimeUnit.SECONDS
