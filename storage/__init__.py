"""Persistence for the nardy bot: users, chats, games, move logs, invitations, statistics.

The bot programs against :class:`Storage` and gets an instance from :func:`open_storage`, which
picks the backend from the location: a SQLite file (the embedded default) or a
``postgresql://`` URL.  Nothing outside this package writes SQL.  See docs/storage.md.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
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
    RatingChange,
    ResultKind,
    ReviewStatus,
    ReviewTotals,
    StoredReview,
    User,
    UserStats,
    Variant,
)
from storage.settings import (
    DATABASE_PATH_VARIABLE,
    DATABASE_URL_VARIABLE,
    DEFAULT_DATABASE_PATH,
    database_location,
    database_path,
    is_postgres_url,
)
from storage.sqlite import SqliteStorage
from storage.sqlite.connections import DEFAULT_SYNCHRONOUS, Synchronous

SQLITE_URL_PREFIX = "sqlite:///"


async def open_storage(
    location: str | Path | None = None,
    *,
    readers: int = 2,
    synchronous: Synchronous = DEFAULT_SYNCHRONOUS,
    pool_size: int | None = None,
    clock: Callable[[], datetime] | None = None,
) -> Storage:
    """Open the store at ``location``; it defaults to ``DATABASE_URL``, else ``DATABASE_PATH``.

    ``postgresql://user:password@host/db`` (or ``postgres://``) opens the PostgreSQL backend
    with ``pool_size`` connections; ``sqlite:///path`` or a plain path opens the SQLite file
    (``readers`` and ``synchronous`` apply to it). ``clock`` is the store's notion of now
    (timestamps, expiries, move-clock checks; tests inject one).  Use it as
    ``async with await open_storage() as store: ...`` or close it on shutdown.
    """
    target = database_location() if location is None else location
    if isinstance(target, str) and is_postgres_url(target):
        from storage.postgres.store import DEFAULT_POOL_SIZE, PostgresStorage

        return await PostgresStorage.open(
            target, pool_size=pool_size or DEFAULT_POOL_SIZE, clock=clock
        )
    return await SqliteStorage.open(
        sqlite_path(target), readers=readers, synchronous=synchronous, clock=clock
    )


def sqlite_path(location: str | Path) -> Path:
    """``sqlite:///relative/or/absolute`` or a plain path, as a path."""
    text = str(location)
    if text.startswith(SQLITE_URL_PREFIX):
        text = text[len(SQLITE_URL_PREFIX) :]
    return Path(text).expanduser()


__all__ = [
    "DATABASE_PATH_VARIABLE",
    "DATABASE_URL_VARIABLE",
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
    "ErrorRate",
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
    "NextGame",
    "NotFoundError",
    "OfferError",
    "PickerMessage",
    "PickerTurn",
    "Rating",
    "RatingChange",
    "ResultKind",
    "ReviewStatus",
    "ReviewTotals",
    "SqliteStorage",
    "StaleVersionError",
    "Storage",
    "StorageError",
    "StoredReview",
    "User",
    "UserStats",
    "Variant",
    "database_location",
    "database_path",
    "open_storage",
    "sqlite_path",
]
