"""Persistence for the nardy bot: users, chats, games, move logs, invitations, statistics.

The bot programs against :class:`Storage` and gets an instance from :func:`open_storage`;
nothing outside this package writes SQL.  See docs/storage.md.
"""

from __future__ import annotations

from pathlib import Path

from storage.base import UNSET, Storage
from storage.errors import (
    ActiveGameExistsError,
    ClaimRefusedError,
    ConstraintError,
    DatabaseError,
    DatabaseTooNewError,
    DiceCounterError,
    DiceSeedError,
    DiceSeedFrozenError,
    DiceSeedInUseError,
    DuplicateUpdateError,
    ForeignDatabaseError,
    GameNotActiveError,
    InvitationError,
    InvitationExpiredError,
    InvitationNotForYouError,
    InvitationNotPendingError,
    NotFoundError,
    OfferError,
    StaleVersionError,
    StorageError,
)
from storage.models import (
    INITIAL_RATING,
    NO_THREAD,
    AbandonOffer,
    AcceptedInvitation,
    Chat,
    ChatType,
    ClockEvent,
    ClockUpdate,
    Colour,
    DiceRolls,
    DiceSeed,
    EndReason,
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
    Rating,
    RatingChange,
    ResultKind,
    User,
    UserStats,
    Variant,
)
from storage.settings import DATABASE_PATH_VARIABLE, DEFAULT_DATABASE_PATH, database_path
from storage.sqlite import SqliteStorage
from storage.sqlite.connections import DEFAULT_SYNCHRONOUS, Synchronous


async def open_storage(
    path: str | Path | None = None,
    *,
    readers: int = 2,
    synchronous: Synchronous = DEFAULT_SYNCHRONOUS,
) -> Storage:
    """Open the default (SQLite) store; ``path`` defaults to ``DATABASE_PATH``.

    Use it as ``async with await open_storage() as store: ...`` or close it on shutdown.
    """
    return await SqliteStorage.open(path, readers=readers, synchronous=synchronous)


__all__ = [
    "DATABASE_PATH_VARIABLE",
    "DEFAULT_DATABASE_PATH",
    "INITIAL_RATING",
    "NO_THREAD",
    "UNSET",
    "AbandonOffer",
    "AcceptedInvitation",
    "ActiveGameExistsError",
    "Chat",
    "ChatType",
    "ClaimRefusedError",
    "ClockEvent",
    "ClockUpdate",
    "Colour",
    "ConstraintError",
    "DatabaseError",
    "DatabaseTooNewError",
    "DiceCounterError",
    "DiceRolls",
    "DiceSeed",
    "DiceSeedError",
    "DiceSeedFrozenError",
    "DiceSeedInUseError",
    "DuplicateUpdateError",
    "EndReason",
    "FinishedGame",
    "ForeignDatabaseError",
    "Game",
    "GameClock",
    "GameMessage",
    "GameNotActiveError",
    "GameResult",
    "GameStatus",
    "Invitation",
    "InvitationError",
    "InvitationExpiredError",
    "InvitationNotForYouError",
    "InvitationNotPendingError",
    "InvitationState",
    "LeaderboardEntry",
    "MoveRecord",
    "NewGame",
    "NewInvitation",
    "NewMove",
    "NotFoundError",
    "OfferError",
    "Rating",
    "RatingChange",
    "ResultKind",
    "SqliteStorage",
    "StaleVersionError",
    "Storage",
    "StorageError",
    "User",
    "UserStats",
    "Variant",
    "database_path",
    "open_storage",
]
