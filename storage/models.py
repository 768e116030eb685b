"""Rows as values: what the repository takes and returns.

These dataclasses are backend-neutral (no SQLite types leak out), frozen so a loaded game cannot
be changed behind the store's back, and the enums are ``StrEnum`` so the bot may pass plain
strings such as ``"long"`` and still compare equal. The variant is the engine's own
:class:`engine.VariantName` (storage only serialises it).  Timestamps are timezone-aware UTC
``datetime`` values.

The engine's serialised game (``Game.state``) is opaque text here: storage never parses it, it
keeps a few denormalised columns beside it (variant, status, chat, players, version, score) that
the bot queries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from engine.position import VariantName

#: The game played: the engine's enum of variant names (long nardy, short nardy).
Variant = VariantName


class Colour(StrEnum):
    """A side of the board."""

    WHITE = "white"
    BLACK = "black"

    @property
    def opponent(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class GameStatus(StrEnum):
    """``ACTIVE`` until the game is finished with a result or abandoned without one."""

    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class ResultKind(StrEnum):
    """How the engine scored a finished game (resignation is scored as one of these)."""

    OIN = "oin"  # single game (оин)
    MARS = "mars"  # gammon (марс)
    KOKS = "koks"  # backgammon (кокс)
    DROP = "drop"  # a declined double in short nardy


class EndReason(StrEnum):
    """Why a game ended other than by play (``None`` for a game played or resigned to its end).

    ``TIMEOUT`` is a finished game (the waiting player claimed it, scored as a resignation);
    the others are abandoned games, which change no statistics or ratings.
    """

    TIMEOUT = "timeout"  # the player on the move let the clock run out; the other claimed it
    INACTIVE = "inactive"  # nobody acted for the abandonment period (30 days by default)
    ADMIN = "admin"  # a chat admin ended it to free the chat
    AGREEMENT = "agreement"  # both players agreed to abandon it


class InvitationState(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class ChatType(StrEnum):
    """Telegram's chat types."""

    PRIVATE = "private"
    GROUP = "group"
    SUPERGROUP = "supergroup"
    CHANNEL = "channel"


#: Forum topic id used when a chat has no topics (the General topic or an ordinary chat).
NO_THREAD = 0

#: Rating a player starts with before their first rated game.
INITIAL_RATING = 1500.0


@dataclass(frozen=True, slots=True)
class User:
    """A Telegram user the bot has met."""

    user_id: int
    display_name: str
    username: str | None
    language: str | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Chat:
    """A Telegram chat and its house rules.

    ``options`` is the chat's house-rule dictionary, stored as JSON and not interpreted here.
    """

    chat_id: int
    chat_type: ChatType
    title: str | None
    language: str | None
    default_variant: Variant
    match_length: int
    options: Mapping[str, Any]
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class NewGame:
    """What the bot supplies to start a game.

    A seat whose user id is ``None`` is played by the computer; then ``ai_level`` names it.
    ``state`` is the engine's serialised game (``game.to_json()``), stored verbatim.
    """

    variant: Variant | str
    chat_id: int
    white_user_id: int | None
    black_user_id: int | None
    state: str
    thread_id: int = NO_THREAD
    match_length: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)
    ai_level: str | None = None
    #: The provably-fair dice seed this game draws from (a match's games share one).
    dice_seed_id: int | None = None
    #: Dice drawn before the game was first stored (the opening lot), stored with it.
    dice: DiceRolls | None = None
    #: The move clock of the first move, if the game has one.
    clock: ClockUpdate | None = None
    #: The inline-mode message the game is played in (None: it lives in ``chat_id``'s
    #: messages). Such a game does not occupy its chat: ``chat_id`` is then the inviter's
    #: private chat, where the game goes on if the inline message is lost.
    inline_message_id: str | None = None


@dataclass(frozen=True, slots=True)
class NextGame:
    """The next game of a match, stored in the transaction that finishes the game before it,
    so a finished game of an unfinished match never stands without its next one (a crash
    between two writes cannot leave the match stuck, and only the write that wins the finish
    creates it). ``moves`` are what was played before its first save (forced opening plays,
    the computer's first turn): its move log from move one."""

    game: NewGame
    moves: Sequence[NewMove] = ()


@dataclass(frozen=True, slots=True)
class GameResult:
    """The scored end of a game, as the engine reports it.

    ``points`` are already multiplied by the doubling cube.
    """

    winner: Colour
    kind: ResultKind
    points: int


@dataclass(frozen=True, slots=True)
class Game:
    """A game row.

    ``version`` starts at 1 and grows by one with every write; it is also the freshness counter
    that board buttons carry, so a tap on an outdated board is detected by comparing it.
    """

    game_id: int
    variant: Variant
    status: GameStatus
    chat_id: int
    thread_id: int
    white_user_id: int | None
    black_user_id: int | None
    ai_level: str | None
    match_length: int
    options: Mapping[str, Any]
    score_white: int
    score_black: int
    state: str
    version: int
    move_count: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    result: GameResult | None
    white_rating_change: float | None
    black_rating_change: float | None
    dice_seed_id: int | None = None
    end_reason: EndReason | None = None
    #: The inline-mode message the game is played in (see :class:`NewGame`).
    inline_message_id: str | None = None
    #: Each colour's rating after the finish (None: not rated, or finished before these
    #: were stored); with the changes, :attr:`rating_changes`.
    white_rating_after: float | None = None
    black_rating_after: float | None = None

    @property
    def rating_changes(self) -> tuple[RatingChange, ...]:
        """The rating changes the finish caused, the winner's first (as ``finish_game``
        returned them): empty when the game was not rated, or they were not stored."""
        if self.result is None:
            return ()
        changes = []
        for colour in (self.result.winner, self.result.winner.opponent):
            white = colour is Colour.WHITE
            user_id = self.user_id_of(colour)
            after = self.white_rating_after if white else self.black_rating_after
            delta = self.white_rating_change if white else self.black_rating_change
            if user_id is None or after is None or delta is None:
                return ()
            changes.append(RatingChange(user_id, colour, after - delta, after))
        return tuple(changes)

    @property
    def vs_ai(self) -> bool:
        """True when one seat is played by the computer."""
        return self.white_user_id is None or self.black_user_id is None

    def user_id_of(self, colour: Colour | str) -> int | None:
        """The user playing ``colour`` (``None`` for the computer)."""
        return self.white_user_id if Colour(colour) is Colour.WHITE else self.black_user_id

    def colour_of(self, user_id: int) -> Colour | None:
        """The colour ``user_id`` plays in this game, or ``None`` if they do not play in it."""
        if user_id == self.white_user_id:
            return Colour.WHITE
        if user_id == self.black_user_id:
            return Colour.BLACK
        return None

    @property
    def winner_user_id(self) -> int | None:
        """The winning user (``None`` if unfinished, or if the computer won)."""
        return None if self.result is None else self.user_id_of(self.result.winner)


@dataclass(frozen=True, slots=True)
class NewMove:
    """One entry to append to a game's move log with a state save.

    ``dice`` is ``None`` for entries without a roll (cube actions); ``play`` is the engine's
    notation of what was done (possibly empty when no move was possible); ``position_id`` is the
    engine's position ID after it.  The player's user id is taken from the game's seat.
    """

    colour: Colour | str
    dice: tuple[int, int] | None
    play: str
    position_id: str


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """A stored move-log entry; ``seq`` runs 1, 2, 3 ... without gaps within a game."""

    game_id: int
    seq: int
    colour: Colour
    player_user_id: int | None
    dice: tuple[int, int] | None
    play: str
    position_id: str
    game_version: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class GameMessage:
    """A message that shows a game's board (a game may be shown in several chats)."""

    game_id: int
    chat_id: int
    thread_id: int
    kind: str
    message_id: int
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class PickerTurn:
    """How a group game's turn is being played: how often its private picker was sent, and
    whether it fell back to the shared board's buttons. A turn is ``(game_number,
    move_number)``: the game's number in its match and the count of its events."""

    game_id: int
    game_number: int
    move_number: int
    sends: int
    on_board: bool
    updated_at: datetime

    @property
    def turn(self) -> tuple[int, int]:
        return self.game_number, self.move_number


@dataclass(frozen=True, slots=True)
class PickerMessage:
    """A private (ephemeral) message of a group game: the mover's picker (``kind``
    'picker') or someone's private view of the board ('view'), shown to ``user_id`` in
    ``chat_id`` during one turn."""

    game_id: int
    kind: str
    user_id: int
    chat_id: int
    ephemeral_id: int
    game_number: int
    move_number: int
    updated_at: datetime

    @property
    def turn(self) -> tuple[int, int]:
        return self.game_number, self.move_number


@dataclass(frozen=True, slots=True)
class NewInvitation:
    """A challenge to play.

    ``invitee_id`` ``None`` means anyone but the inviter may accept.  ``chat_id`` ``None`` is for
    invitations not tied to a chat (a deep link or an inline-mode message).  ``token`` is
    generated (URL-safe, 16 characters) when not given.
    """

    inviter_id: int
    variant: Variant | str
    expires_at: datetime
    chat_id: int | None = None
    thread_id: int = NO_THREAD
    invitee_id: int | None = None
    match_length: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)
    token: str | None = None
    #: The dice seed committed to in the invitation (its hash is shown before anyone joins).
    dice_seed_id: int | None = None
    #: Only the person with this Telegram username may accept (an inline challenge naming
    #: ``@friend``, who may never have met the bot); compared case-insensitively by the caller.
    invitee_username: str | None = None


@dataclass(frozen=True, slots=True)
class Invitation:
    token: str
    inviter_id: int
    invitee_id: int | None
    chat_id: int | None
    thread_id: int
    variant: Variant
    match_length: int
    options: Mapping[str, Any]
    state: InvitationState
    created_at: datetime
    expires_at: datetime
    resolved_at: datetime | None
    accepted_by: int | None
    game_id: int | None
    dice_seed_id: int | None = None
    invitee_username: str | None = None


@dataclass(frozen=True, slots=True)
class AcceptedInvitation:
    """The accepted invitation and the game created in the same transaction, if any."""

    invitation: Invitation
    game: Game | None


@dataclass(frozen=True, slots=True)
class UserStats:
    """A user's record in one variant, against people (``vs_ai=False``) or the computer."""

    user_id: int
    variant: Variant
    vs_ai: bool
    games: int = 0
    wins: int = 0
    losses: int = 0
    wins_oin: int = 0
    wins_mars: int = 0
    wins_koks: int = 0
    wins_drop: int = 0
    losses_oin: int = 0
    losses_mars: int = 0
    losses_koks: int = 0
    losses_drop: int = 0
    points_won: int = 0
    points_lost: int = 0

    def wins_by(self, kind: ResultKind | str) -> int:
        return int(getattr(self, f"wins_{ResultKind(kind).value}"))

    def losses_by(self, kind: ResultKind | str) -> int:
        return int(getattr(self, f"losses_{ResultKind(kind).value}"))


@dataclass(frozen=True, slots=True)
class Rating:
    """A user's Elo rating in one variant (games between people only)."""

    user_id: int
    variant: Variant
    rating: float
    games: int
    peak: float
    updated_at: datetime | None


@dataclass(frozen=True, slots=True)
class RatingChange:
    user_id: int
    colour: Colour
    before: float
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """The finished game and the rating changes it caused (empty against the computer)."""

    game: Game
    rating_changes: tuple[RatingChange, ...]
    #: The match's next game, created in the same transaction as the finish (None: the match
    #: is over, or no next game was asked for).
    next_game: Game | None = None


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One line of a leaderboard.

    In the global board ``games``/``wins`` are the user's rated games in the variant; in a
    chat's board they count the games finished in that chat.
    """

    rank: int
    user_id: int
    display_name: str
    rating: float
    games: int
    wins: int


# -- provably fair dice ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiceRolls:
    """Dice to append to a seed's log with a game write: ``values[i]`` was drawn at counter
    ``first_counter + i``. The write fails unless ``first_counter`` is the number of dice
    already stored, so no die is lost, repeated or drawn twice from one counter."""

    first_counter: int
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DiceSeed:
    """A committed dice seed (see engine/fairness.py) as anyone may see it.

    ``server_seed`` is ``None`` until the seed is revealed: the secret never leaves storage
    before that except through :meth:`Storage.get_dice_secret`, which only the dice roller
    calls. ``rolls`` are every die drawn so far, counter 0 first (``counter`` = how many).
    """

    seed_id: int
    commitment: str
    client_seeds: tuple[str, ...]
    rolls: tuple[int, ...]
    created_at: datetime
    revealed_at: datetime | None
    server_seed: bytes | None = field(default=None, repr=False)

    @property
    def counter(self) -> int:
        return len(self.rolls)

    @property
    def frozen(self) -> bool:
        """Client seeds can no longer be added: a die was drawn, or the seed is revealed."""
        return bool(self.rolls) or self.revealed_at is not None


# -- move clocks ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClockUpdate:
    """The clock of the move now being played, written with a game write (times from
    ``gameplay.clocks``). ``move_number`` names the move: the one reminder per move is kept
    across writes with the same number and re-armed by a new number."""

    move_number: int
    on_clock_user_id: int | None
    remind_at: datetime | None
    deadline_at: datetime | None
    abandon_at: datetime | None


@dataclass(frozen=True, slots=True)
class GameClock:
    """A game's stored clock. ``game_version`` is the game version it belongs to: every game
    write moves it along, so an event fired for an older version is refused."""

    game_id: int
    game_version: int
    move_number: int
    on_clock_user_id: int | None
    remind_at: datetime | None
    deadline_at: datetime | None
    abandon_at: datetime | None
    reminded: bool
    timed_out: bool
    next_due_at: datetime | None

    def due_event(self, now: datetime) -> ClockEvent | None:
        """The event to fire at ``now``: the furthest one that is due, because a later event
        supersedes an earlier one missed while the bot was down (no reminder is sent for a
        move whose time is already up, and an abandoned game needs neither)."""
        if self.abandon_at is not None and self.abandon_at <= now:
            return ClockEvent.ABANDON
        if not self.timed_out and self.deadline_at is not None and self.deadline_at <= now:
            return ClockEvent.TIMEOUT
        if not self.reminded and self.remind_at is not None and self.remind_at <= now:
            return ClockEvent.REMIND
        return None


class ClockEvent(StrEnum):
    """What a due clock asks for, in the order they fall due."""

    REMIND = "remind"
    TIMEOUT = "timeout"
    ABANDON = "abandon"


@dataclass(frozen=True, slots=True)
class AbandonOffer:
    """A player's standing offer to abandon the game by agreement (until the next move)."""

    game_id: int
    offered_by: int
    game_version: int
    created_at: datetime


class ReviewStatus(StrEnum):
    """A game review's state: being computed by a worker (until its lease ends), or done."""

    RUNNING = "running"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class StoredReview:
    """The computer's review of a finished game, as stored.

    ``summary`` is the game layer's serialised review (opaque text here, like a game's
    state); the per-colour decision counts and total equity lost are stored beside it so the
    statistics can add them up. While ``RUNNING``, ``owner`` names the worker computing it and
    ``lease_until`` when another may take it over (a worker that died mid-review).
    """

    game_id: int
    status: ReviewStatus
    owner: str | None
    lease_until: datetime | None
    summary: str | None
    white_decisions: int
    white_error: float
    black_decisions: int
    black_error: float
    created_at: datetime
    updated_at: datetime

    @property
    def done(self) -> bool:
        return self.status is ReviewStatus.DONE


@dataclass(frozen=True, slots=True)
class ReviewTotals:
    """One colour's share of a review, to store with it: decisions judged, equity lost."""

    decisions: int
    error: float


@dataclass(frozen=True, slots=True)
class ErrorRate:
    """A user's reviewed games in one variant: how many, their decisions, equity lost."""

    user_id: int
    variant: Variant
    games: int
    decisions: int
    total_error: float

    @property
    def error_rate(self) -> float:
        """Mean equity lost per decision × 1000 (0 without a decision)."""
        return 1000.0 * self.total_error / self.decisions if self.decisions else 0.0
