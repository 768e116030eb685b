"""The repository interface the bot programs against.

It names no SQL and no SQLite type, so a PostgreSQL backend can be added later behind the same
methods.  The contract every backend keeps:

* every method is one atomic unit: it commits all of its effects or none of them;
* writes to a game are optimistic: they name the version they read, and a stale one raises
  :class:`~storage.errors.StaleVersionError` and changes nothing;
* moves, results, statistics, ratings and processed-update marks are written in the same
  transaction as the game state they belong to;
* only :mod:`storage.errors` exceptions leave a method on purpose (plus ``ValueError`` for
  arguments that can never be valid, such as an unknown variant name).
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from storage.models import (
    AbandonOffer,
    AcceptedInvitation,
    Chat,
    ChatType,
    ClockEvent,
    ClockUpdate,
    DiceRolls,
    DiceSeed,
    EndReason,
    ErrorRate,
    FinishedGame,
    Game,
    GameClock,
    GameMessage,
    GameResult,
    GameStatus,
    Invitation,
    InvitationState,
    LeaderboardEntry,
    MoveRecord,
    NewGame,
    NewInvitation,
    NewMove,
    NextGame,
    PickerMessage,
    PickerTurn,
    Rating,
    ReviewTotals,
    StoredReview,
    User,
    UserStats,
    Variant,
)


class _Unset:
    """Marker for "leave this setting unchanged" where ``None`` is a meaningful value."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class Storage(abc.ABC):
    """Async repository of users, chats, games, invitations, statistics and ratings."""

    # -- lifecycle ---------------------------------------------------------------------------

    @abc.abstractmethod
    async def close(self) -> None:
        """Finish the running write and release the database; idempotent."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @abc.abstractmethod
    async def backup(self, target: str | Path) -> None:
        """Write a consistent copy of the whole database to ``target`` while the bot runs."""

    @abc.abstractmethod
    async def ping(self) -> None:
        """Ask the database a trivial question; raises a :class:`StorageError` if it does not
        answer (a health check)."""

    # -- users and chats ---------------------------------------------------------------------

    @abc.abstractmethod
    async def upsert_user(
        self,
        user_id: int,
        display_name: str,
        *,
        username: str | None = None,
        language: str | None = None,
    ) -> User:
        """Create the user or refresh their name, username and language from Telegram.

        Call it for both players before creating a game or an invitation: games refer to users.
        A ``language`` of ``None`` keeps the stored one.
        """

    @abc.abstractmethod
    async def get_user(self, user_id: int) -> User:
        """The user; :class:`~storage.errors.NotFoundError` if never seen."""

    @abc.abstractmethod
    async def get_picker_way(self, user_id: int) -> str | None:
        """How the user last entered a turn in a move picker ('steps' or 'plays'; None:
        never chosen)."""

    @abc.abstractmethod
    async def set_picker_way(self, user_id: int, way: str) -> None:
        """Remember the user's way of entering turns ('steps' or 'plays'); the user must
        exist (:meth:`upsert_user`)."""

    @abc.abstractmethod
    async def upsert_chat(
        self, chat_id: int, chat_type: ChatType | str, *, title: str | None = None
    ) -> Chat:
        """Create the chat with default settings, or refresh its type and title.

        Existing settings (language, variant, match length, house rules) are kept.
        """

    @abc.abstractmethod
    async def get_chat(self, chat_id: int) -> Chat:
        """The chat; :class:`~storage.errors.NotFoundError` if never seen."""

    @abc.abstractmethod
    async def update_chat_settings(
        self,
        chat_id: int,
        *,
        language: str | None = UNSET,
        default_variant: Variant | str = UNSET,
        match_length: int = UNSET,
        options: Mapping[str, Any] = UNSET,
    ) -> Chat:
        """Change the given settings only; ``options`` replaces the house-rule dictionary."""

    # -- games -------------------------------------------------------------------------------

    @abc.abstractmethod
    async def create_game(self, new: NewGame) -> Game:
        """Store a new active game at version 1.

        :class:`~storage.errors.ActiveGameExistsError` if the chat/topic already has one.
        """

    @abc.abstractmethod
    async def get_game(self, game_id: int) -> Game:
        """The game; :class:`~storage.errors.NotFoundError` if there is none."""

    @abc.abstractmethod
    async def get_active_game(self, chat_id: int, thread_id: int = 0) -> Game | None:
        """The active game of a chat (forum topic), if any."""

    @abc.abstractmethod
    async def list_user_games(
        self, user_id: int, *, status: GameStatus | str | None = None, limit: int = 20
    ) -> list[Game]:
        """The user's games, most recently updated first (a user may play in several chats)."""

    @abc.abstractmethod
    async def list_chat_games(
        self, chat_id: int, *, status: GameStatus | str | None = None, limit: int = 20
    ) -> list[Game]:
        """The chat's games (every forum topic), most recently updated first."""

    @abc.abstractmethod
    async def match_games(self, game_id: int) -> list[Game]:
        """The games of the match ``game_id`` belongs to, first game first (a match's games
        share one dice seed; a game stored without a seed is a match of its own)."""

    @abc.abstractmethod
    async def save_game(
        self,
        game_id: int,
        expected_version: int,
        state: str,
        *,
        moves: Sequence[NewMove] = (),
        score: tuple[int, int] | None = None,
        update_id: int | None = None,
        dice: DiceRolls | None = None,
        clock: ClockUpdate | None = None,
    ) -> Game:
        """Replace the state of an active game read at ``expected_version``.

        In one transaction: the version becomes ``expected_version + 1``, ``moves`` are
        appended to the log with consecutive sequence numbers, ``score`` (white, black) is set
        when given, ``update_id`` (when given) is marked processed, ``dice`` drawn for this
        write are appended to the game's dice seed (:class:`~storage.errors.DiceCounterError`
        unless they continue it exactly), and ``clock`` replaces the move clock (without it the
        clock stays as it was, tied to the new version).

        Raises :class:`~storage.errors.StaleVersionError` if the stored version differs,
        :class:`~storage.errors.GameNotActiveError` if the game is over,
        :class:`~storage.errors.DuplicateUpdateError` if ``update_id`` was processed before,
        :class:`~storage.errors.NotFoundError` if there is no such game; then nothing changed.
        """

    @abc.abstractmethod
    async def finish_game(
        self,
        game_id: int,
        expected_version: int,
        state: str,
        result: GameResult,
        *,
        moves: Sequence[NewMove] = (),
        score: tuple[int, int] | None = None,
        update_id: int | None = None,
        dice: DiceRolls | None = None,
        next_game: NextGame | None = None,
    ) -> FinishedGame:
        """Save the final state and the result, and update statistics and ratings atomically.

        Both players' statistics (against people or against the computer) change with the
        game; ratings change only for a game between two people. The clock and any standing
        offer are removed. ``next_game``: the match's next game, created in the same
        transaction (``FinishedGame.next_game``), so it exists exactly when the finish does —
        once, by the one write that wins the version. Errors as in :meth:`save_game`.
        """

    @abc.abstractmethod
    async def start_next_game(
        self, game_id: int, expected_version: int, next_game: NextGame
    ) -> Game | None:
        """The next game of finished game ``game_id``'s match, created late (with its opening
        move log, as :meth:`finish_game`'s ``next_game``) in one transaction with a write of
        the finished game at ``expected_version``, whose version moves on: of two callers at
        once one starts it, the other gets :class:`~storage.errors.StaleVersionError`. None
        if its place holds another active game; ``ValueError`` if the game is not finished."""

    @abc.abstractmethod
    async def abandon_game(
        self,
        game_id: int,
        expected_version: int,
        state: str | None = None,
        *,
        update_id: int | None = None,
        reason: EndReason | str | None = None,
    ) -> Game:
        """End an active game without a result; no statistics or ratings change.

        ``reason`` records why (``admin``: a chat admin freed the chat; ``agreement``: see
        :meth:`accept_abandon`; ``inactive``: see :meth:`abandon_inactive`); ``None`` for an
        ordinary cancellation. ``timeout`` is not a reason to abandon: see
        :meth:`claim_timeout`.
        """

    # -- move clocks and ending without play ------------------------------------------------

    @abc.abstractmethod
    async def get_clock(self, game_id: int) -> GameClock | None:
        """The game's move clock, if it has one (an active game whose clock was set)."""

    @abc.abstractmethod
    async def next_clock_due(self) -> datetime | None:
        """When the earliest pending clock event of any game falls due (one index lookup)."""

    @abc.abstractmethod
    async def due_clocks(self, now: datetime | None = None, *, limit: int = 100) -> list[GameClock]:
        """Clocks with an event due at ``now`` (default: the store's clock), earliest first."""

    @abc.abstractmethod
    async def fire_clock_event(
        self, game_id: int, game_version: int, event: ClockEvent | str
    ) -> GameClock | None:
        """Mark the half-time reminder sent (``remind``) or the timeout announced
        (``timeout``, which also counts as the reminder) for the clock read at
        ``game_version``. Returns the clock the first time only: None for a repeat (a second
        scheduler, a restart), a game moved on since, a time not reached, or a game over — so
        the caller sends the message exactly when it gets a clock back.
        """

    @abc.abstractmethod
    async def abandon_inactive(self, game_id: int, game_version: int) -> Game | None:
        """Close the game as abandoned (reason ``inactive``, no rating change) if it is still at
        ``game_version`` and its abandonment time has passed; None otherwise (already closed,
        moved on, not due)."""

    @abc.abstractmethod
    async def claim_timeout(
        self,
        game_id: int,
        expected_version: int,
        claimant_id: int,
        state: str,
        result: GameResult,
        *,
        moves: Sequence[NewMove] = (),
        score: tuple[int, int] | None = None,
        update_id: int | None = None,
        next_game: NextGame | None = None,
    ) -> FinishedGame:
        """The waiting player claims the game after the clock's deadline: finished like
        :meth:`finish_game`, with its ``next_game`` (``result`` is the engine's score of the
        resignation of the player on the clock, RULES.md M-19; statistics and ratings count)
        with reason ``timeout``.

        :class:`~storage.errors.ClaimRefusedError` (``no_clock``, ``not_expired``,
        ``on_clock``, ``not_a_player``), :class:`~storage.errors.StaleVersionError` (a move
        came first — then that move stands), :class:`~storage.errors.GameNotActiveError`.
        """

    @abc.abstractmethod
    async def offer_abandon(
        self, game_id: int, user_id: int, expected_version: int
    ) -> AbandonOffer:
        """A player offers to abandon the game by agreement; it lapses with the next write."""

    @abc.abstractmethod
    async def get_abandon_offer(self, game_id: int) -> AbandonOffer | None:
        """The standing offer (made at the game's current version), if any."""

    @abc.abstractmethod
    async def withdraw_abandon_offer(self, game_id: int, user_id: int) -> bool:
        """Either player withdraws or declines the offer; True if one stood."""

    @abc.abstractmethod
    async def accept_abandon(
        self, game_id: int, user_id: int, expected_version: int, *, update_id: int | None = None
    ) -> Game:
        """The other player accepts the standing offer: abandoned with reason ``agreement``.

        :class:`~storage.errors.OfferError` (``no_offer``, ``own_offer``, ``not_a_player``).
        """

    # -- provably fair dice ------------------------------------------------------------------

    @abc.abstractmethod
    async def create_dice_seed(
        self, commitment: str, server_seed: bytes, client_seeds: Sequence[str] = ()
    ) -> DiceSeed:
        """Store a new secret seed and its published commitment (engine.fairness computes
        both); link it to an invitation (``NewInvitation.dice_seed_id``) or a game
        (``NewGame.dice_seed_id``)."""

    @abc.abstractmethod
    async def add_client_seed(self, seed_id: int, client_seed: str) -> DiceSeed:
        """Append a player's seed; :class:`~storage.errors.DiceSeedFrozenError` once a die has
        been drawn or the seed revealed."""

    @abc.abstractmethod
    async def get_dice_seed(self, seed_id: int) -> DiceSeed:
        """The seed's public view: ``server_seed`` is filled in only once it is revealed."""

    @abc.abstractmethod
    async def get_dice_secret(self, seed_id: int) -> bytes:
        """The secret server seed, for drawing dice only: never show or log it."""

    @abc.abstractmethod
    async def get_dice_draw(self, seed_id: int) -> tuple[DiceSeed, bytes]:
        """The seed's public view and its secret server seed, in one read (a roll needs
        both), for drawing dice only: never show or log the secret."""

    @abc.abstractmethod
    async def reveal_dice_seed(self, seed_id: int) -> DiceSeed:
        """Reveal the seed (idempotent) and return it with ``server_seed``;
        :class:`~storage.errors.DiceSeedInUseError` while a game using it is active. Call it
        when the match is over (its games share the seed), or after an abandonment."""

    @abc.abstractmethod
    async def get_moves(
        self, game_id: int, *, after_seq: int = 0, limit: int | None = None
    ) -> list[MoveRecord]:
        """The game's move log in order, from sequence number ``after_seq + 1``."""

    # -- board messages ----------------------------------------------------------------------

    @abc.abstractmethod
    async def set_game_message(
        self,
        game_id: int,
        chat_id: int,
        message_id: int,
        *,
        thread_id: int = 0,
        kind: str = "board",
    ) -> GameMessage:
        """Remember (or replace, after sending a fresh board) the message showing a game."""

    @abc.abstractmethod
    async def claim_first_board(self, game_id: int, *, lease: timedelta) -> bool:
        """Claim sending the game's first board: True for the one caller that is to send it
        now — the first to ask, or the first after an earlier claim's ``lease`` has run out
        (its worker died before sending). Several workers showing one finished game at once
        (the one that saved it, another answering a stale tap) send the next game's board
        once. :class:`~storage.errors.NotFoundError` if there is no such game."""

    # -- group pickers (ephemeral messages shared by every worker) --------------------------

    @abc.abstractmethod
    async def count_picker_send(self, game_id: int, turn: tuple[int, int]) -> PickerTurn:
        """One more send of the picker of ``turn`` (``(game_number, move_number)``): its
        count after this one (1 on a new turn, which also starts on the picker again)."""

    @abc.abstractmethod
    async def put_turn_on_board(self, game_id: int, turn: tuple[int, int]) -> PickerTurn:
        """``turn`` is played on the shared board's buttons (a fallback)."""

    @abc.abstractmethod
    async def get_picker_turn(self, game_id: int) -> PickerTurn | None:
        """How the game's latest turn with a picker is being played, if it had one."""

    @abc.abstractmethod
    async def keep_picker_message(
        self, message: PickerMessage, *, newest_wins: bool = True
    ) -> PickerMessage | None:
        """Remember a picker or private view just shown (one per game, kind and person);
        returns the message to close, if any: the one it replaces, or — when another of the
        same person with a larger id is stored and ``newest_wins`` — ``message`` itself."""

    @abc.abstractmethod
    async def get_picker_messages(self, game_id: int) -> list[PickerMessage]:
        """The game's pickers and private views remembered as shown."""

    @abc.abstractmethod
    async def take_picker_messages(
        self, game_id: int, kind: str, *, keep_turn: tuple[int, int] | None = None
    ) -> list[PickerMessage]:
        """Forget the game's messages of ``kind`` ('picker' or 'view'), except those of
        ``keep_turn``, and return them: exactly one caller gets each row, and closes it."""

    @abc.abstractmethod
    async def forget_picker_message(self, message: PickerMessage) -> bool:
        """Forget one message if it is still the stored one (False: gone or replaced)."""

    @abc.abstractmethod
    async def get_game_messages(self, game_id: int) -> list[GameMessage]:
        """Every message showing the game, to edit them all after a move."""

    @abc.abstractmethod
    async def delete_game_message(
        self, game_id: int, chat_id: int, *, thread_id: int = 0, kind: str = "board"
    ) -> bool:
        """Forget a board message (deleted in Telegram); True if there was one."""

    @abc.abstractmethod
    async def find_game_by_message(self, chat_id: int, message_id: int) -> Game | None:
        """The game a board message belongs to, if it is one."""

    # -- inline-mode messages ----------------------------------------------------------------

    @abc.abstractmethod
    async def find_game_by_inline_message(self, inline_message_id: str) -> Game | None:
        """The newest game played in an inline message (a match's games share it)."""

    @abc.abstractmethod
    async def mark_inline_message_lost(self, inline_message_id: str) -> bool:
        """Record that the bot can no longer edit the inline message (deleted, too old);
        True the first time, so the players are told once."""

    @abc.abstractmethod
    async def inline_message_lost(self, inline_message_id: str) -> bool:
        """Whether :meth:`mark_inline_message_lost` was called for the message."""

    # -- invitations -------------------------------------------------------------------------

    @abc.abstractmethod
    async def create_invitation(self, new: NewInvitation) -> Invitation:
        """Store a pending invitation (a token is generated unless given)."""

    @abc.abstractmethod
    async def get_invitation(self, token: str) -> Invitation:
        """The invitation; :class:`~storage.errors.NotFoundError` if the token is unknown."""

    @abc.abstractmethod
    async def list_invitations(
        self, inviter_id: int, *, state: InvitationState | str | None = None, limit: int = 50
    ) -> list[Invitation]:
        """The user's own invitations, newest first (for "/cancel my open invitations")."""

    @abc.abstractmethod
    async def accept_invitation(
        self, token: str, user_id: int, *, game: NewGame | None = None
    ) -> AcceptedInvitation:
        """Accept a pending invitation, and create ``game`` in the same transaction.

        Two people tapping "accept" at once: one wins, the other gets
        :class:`~storage.errors.InvitationNotPendingError`.  Also raises
        :class:`~storage.errors.InvitationExpiredError`,
        :class:`~storage.errors.InvitationNotForYouError` and, from creating the game,
        :class:`~storage.errors.ActiveGameExistsError` (then the invitation stays pending).
        ``game`` must seat the inviter and ``user_id``.
        """

    @abc.abstractmethod
    async def decline_invitation(self, token: str, user_id: int) -> Invitation:
        """The invitee (or, for an open invitation, anyone but the inviter) declines it."""

    @abc.abstractmethod
    async def cancel_invitation(self, token: str, user_id: int) -> Invitation:
        """The inviter withdraws a pending invitation."""

    @abc.abstractmethod
    async def expire_invitations(self, now: datetime | None = None) -> list[Invitation]:
        """Mark every pending invitation past its expiry as expired and return them."""

    # -- statistics and ratings --------------------------------------------------------------

    @abc.abstractmethod
    async def get_user_stats(
        self, user_id: int, variant: Variant | str, *, vs_ai: bool = False
    ) -> UserStats:
        """The user's record (all zero if they have not finished such a game)."""

    @abc.abstractmethod
    async def list_user_stats(self, user_id: int) -> list[UserStats]:
        """Every record the user has, by variant and opponent kind."""

    @abc.abstractmethod
    async def get_rating(self, user_id: int, variant: Variant | str) -> Rating:
        """The user's rating in the variant (the initial rating if they have no rated game)."""

    @abc.abstractmethod
    async def leaderboard(
        self,
        variant: Variant | str,
        *,
        chat_id: int | None = None,
        limit: int = 10,
        min_games: int = 1,
    ) -> list[LeaderboardEntry]:
        """Best-rated players: globally, or among those who finished a game in ``chat_id``."""

    # -- game reviews ------------------------------------------------------------------------

    @abc.abstractmethod
    async def get_review(self, game_id: int) -> StoredReview | None:
        """The game's review, running or done, if one was ever asked for."""

    @abc.abstractmethod
    async def claim_review(self, game_id: int, owner: str, lease: timedelta) -> StoredReview:
        """Ask to compute the game's review, as worker ``owner``, for at most ``lease``.

        Returns the review row: running and owned by ``owner`` when the claim succeeded (no
        review yet, ``owner``'s own claim renewed, or a running one whose lease has ended);
        otherwise the row as it stands —
        done (use it), or running under another worker's lease (wait for it).
        :class:`~storage.errors.NotFoundError` if the game does not exist.
        """

    @abc.abstractmethod
    async def finish_review(
        self, game_id: int, summary: str, white: ReviewTotals, black: ReviewTotals
    ) -> StoredReview:
        """Store the computed review (``summary`` is opaque text) with each colour's totals;
        a review already done stays as it was and is returned."""

    @abc.abstractmethod
    async def release_review(self, game_id: int, owner: str) -> bool:
        """Give back ``owner``'s running claim (its review failed); True if it held one."""

    @abc.abstractmethod
    async def error_rates(self, user_id: int) -> list[ErrorRate]:
        """The user's reviewed games per variant, with their decisions and equity lost."""

    # -- Telegram updates --------------------------------------------------------------------

    @abc.abstractmethod
    async def mark_update_processed(self, update_id: int) -> bool:
        """Record the update; True the first time, False if it was already processed."""

    @abc.abstractmethod
    async def prune_processed_updates(self, older_than: timedelta = timedelta(days=2)) -> int:
        """Forget processed updates older than ``older_than``; returns how many.

        Telegram stops redelivering an update after 24 hours, so two days is safe.
        """
