"""Typed storage errors.

Every error the repository raises on purpose is a :class:`StorageError`, so the bot's single
error handler can catch the family, and each case carries the values a handler needs (the
current version of a game, the id of the game already running in a chat) instead of a message
to parse.  None of these texts are meant for users: user-facing wording lives in the bot's
catalogs.
"""

from __future__ import annotations

from pathlib import Path


class StorageError(Exception):
    """Base class of every error raised on purpose by :mod:`storage`."""


class NotFoundError(StorageError):
    """A row the caller named does not exist (a game id, an invitation token, ...)."""

    def __init__(self, what: str, key: object) -> None:
        super().__init__(f"{what} {key!r} not found")
        self.what = what
        self.key = key


class StaleVersionError(StorageError):
    """An optimistic write named a version that is no longer current; nothing was changed.

    The bot answers "this board is outdated" and shows the current state, whose version is
    :attr:`actual_version`.
    """

    def __init__(self, game_id: int, expected_version: int, actual_version: int) -> None:
        super().__init__(
            f"game {game_id}: write based on version {expected_version}, "
            f"but the stored version is {actual_version}"
        )
        self.game_id = game_id
        self.expected_version = expected_version
        self.actual_version = actual_version


class GameNotActiveError(StorageError):
    """A move or a result was written to a game that is already finished or abandoned."""

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(f"game {game_id} is {status}, not active")
        self.game_id = game_id
        self.status = status


class ActiveGameExistsError(StorageError):
    """A chat (forum topic) already has an active game; at most one is allowed there."""

    def __init__(self, chat_id: int, thread_id: int, game_id: int | None) -> None:
        super().__init__(f"chat {chat_id} topic {thread_id} already has active game {game_id}")
        self.chat_id = chat_id
        self.thread_id = thread_id
        self.game_id = game_id


class DuplicateUpdateError(StorageError):
    """The Telegram update tied to this write was already processed; nothing was changed."""

    def __init__(self, update_id: int) -> None:
        super().__init__(f"update {update_id} was already processed")
        self.update_id = update_id


class InvitationError(StorageError):
    """An invitation cannot be used the way the caller tried; see the subclasses."""

    def __init__(self, token: str, message: str) -> None:
        super().__init__(f"invitation {token!r}: {message}")
        self.token = token


class InvitationNotPendingError(InvitationError):
    """The invitation was already accepted, declined, cancelled or expired."""

    def __init__(self, token: str, state: str) -> None:
        super().__init__(token, f"is {state}, not pending")
        self.state = state


class InvitationExpiredError(InvitationError):
    """The invitation is still marked pending but its expiry time has passed."""

    def __init__(self, token: str) -> None:
        super().__init__(token, "has expired")


class InvitationNotForYouError(InvitationError):
    """The user may not accept or decline it: it names another invitee, or it is their own."""

    def __init__(self, token: str, user_id: int) -> None:
        super().__init__(token, f"cannot be answered by user {user_id}")
        self.user_id = user_id


class DatabaseTooNewError(StorageError):
    """The database was written by newer code; opening it with this code could damage it."""

    def __init__(self, path: Path | str, database_version: int, code_version: int) -> None:
        super().__init__(
            f"database {str(path)!r} has schema version {database_version}, but this code "
            f"knows versions up to {code_version}; upgrade the bot, or restore a backup "
            f"made by this version"
        )
        self.path = path
        self.database_version = database_version
        self.code_version = code_version


class ForeignDatabaseError(StorageError):
    """The file holds tables but no nardy schema version: it is some other database."""

    def __init__(self, path: Path | str) -> None:
        super().__init__(
            f"database {str(path)!r} is not empty and has no nardy schema version; "
            f"refusing to write into it"
        )
        self.path = path


class ConstraintError(StorageError):
    """A write broke a rule of the schema (an unknown user or chat, a value out of range).

    This is a bug in the caller (e.g. a game created before ``upsert_user`` for its players);
    the transaction was rolled back.  ``constraint`` names the broken constraint where the
    database says it (PostgreSQL), else None.
    """

    def __init__(self, message: str, constraint: str | None = None) -> None:
        super().__init__(message)
        self.constraint = constraint


class DatabaseError(StorageError):
    """The database itself failed (locked by another process for too long, disk full, ...).

    The original driver exception is chained as ``__cause__``.
    """


class DiceSeedError(StorageError):
    """A provably-fair dice seed cannot be used the way the caller tried; see the subclasses."""

    def __init__(self, seed_id: int, message: str) -> None:
        super().__init__(f"dice seed {seed_id}: {message}")
        self.seed_id = seed_id


class DiceSeedFrozenError(DiceSeedError):
    """A client seed was added after the first die was drawn (or after the reveal): the dice
    already drawn would no longer follow from the seeds."""

    def __init__(self, seed_id: int) -> None:
        super().__init__(seed_id, "dice were drawn or the seed is revealed; seeds are frozen")


class DiceCounterError(DiceSeedError):
    """Dice were stored at a counter other than the number already stored (lost, repeated or
    concurrent draws), or stored to a revealed seed; the whole write was rolled back."""

    def __init__(self, seed_id: int, expected_counter: int, actual_counter: int | None) -> None:
        where = "the seed is revealed" if actual_counter is None else f"{actual_counter} stored"
        super().__init__(seed_id, f"dice appended at counter {expected_counter}, but {where}")
        self.expected_counter = expected_counter
        self.actual_counter = actual_counter


class DiceSeedInUseError(DiceSeedError):
    """The seed cannot be revealed while a game drawing from it is still active."""

    def __init__(self, seed_id: int, game_id: int) -> None:
        super().__init__(seed_id, f"game {game_id} still draws from it")
        self.game_id = game_id


class ClaimRefusedError(StorageError):
    """A timeout claim that the clock does not allow; ``reason`` is one of ``no_clock``,
    ``not_expired`` (the deadline has not passed), ``on_clock`` (the claimant is the player
    whose time ran out) or ``not_a_player``. Nothing was changed."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id}: timeout claim refused ({reason})")
        self.game_id = game_id
        self.reason = reason


class OfferError(StorageError):
    """An abandonment offer cannot be made or accepted; ``reason`` is one of ``no_offer``
    (none stands, or a move since made it lapse), ``own_offer`` or ``not_a_player``."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id}: abandonment offer refused ({reason})")
        self.game_id = game_id
        self.reason = reason
