"""The PostgreSQL implementation of :class:`storage.base.Storage` (asyncpg).

Reads are single statements on a pooled connection.  Each write is one transaction body from
:mod:`storage.postgres.writes`, run on one pooled connection from ``BEGIN`` to ``COMMIT``.
Both run in a task of their own, shielded from the caller's cancellation, so a caller that
gives up (a handler timed out, the bot is stopping) never leaves a transaction half-sent: it
commits or rolls back whole, and :meth:`PostgresStorage.close` waits for it, as the SQLite
writer thread does.  A transaction the server aborted to break a deadlock or a serialisation
conflict is run again (the server guarantees it left nothing); any other failure is raised,
never retried, because a lost connection does not tell whether its COMMIT arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Self, TypeVar

import asyncpg

from storage.errors import ConstraintError, DatabaseError, NotFoundError, StorageError
from storage.models import (
    INITIAL_RATING,
    Chat,
    Game,
    GameMessage,
    GameStatus,
    Invitation,
    InvitationState,
    LeaderboardEntry,
    MoveRecord,
    Rating,
    User,
    UserStats,
    Variant,
)
from storage.postgres import writes
from storage.postgres.migrations import check_openable, migrate
from storage.settings import is_postgres_url, redact
from storage.sqlite.rows import (
    CHAT_COLUMNS,
    GAME_COLUMNS,
    INVITATION_COLUMNS,
    MESSAGE_COLUMNS,
    MOVE_COLUMNS,
    RATING_COLUMNS,
    STATS_COLUMNS,
    USER_COLUMNS,
    chat_from_row,
    game_from_row,
    invitation_from_row,
    message_from_row,
    move_from_row,
    rating_from_row,
    stats_from_row,
    user_from_row,
)
from storage.writing import Clock, WritingStorage

T = TypeVar("T")
P = ParamSpec("P")

#: Connections per store (per bot process).  A tap needs one for a few milliseconds; ten serve
#: hundreds of taps a second and leave room for several workers under PostgreSQL's default
#: ``max_connections`` of 100.
DEFAULT_POOL_SIZE = 10

#: How often a transaction the server aborted as a deadlock victim or serialisation failure is
#: run again before the error is raised.
TRANSIENT_RETRIES = 3


@contextlib.contextmanager
def translate_errors() -> Iterator[None]:
    """Turn asyncpg's exceptions into :class:`StorageError` subclasses (cause kept)."""
    try:
        yield
    except StorageError:
        raise
    except (asyncpg.IntegrityConstraintViolationError, asyncpg.DataError) as exc:
        raise ConstraintError(str(exc)) from exc
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
        raise DatabaseError(str(exc) or type(exc).__name__) from exc


class PostgresStorage(WritingStorage):
    """:class:`Storage` in a PostgreSQL database.  Create it with :meth:`open`."""

    _tx = writes

    def __init__(self, pool: asyncpg.Pool, url: str, clock: Clock | None = None) -> None:
        self._pool = pool
        self._url = url
        self._clock = clock or (lambda: datetime.now(UTC))
        self._running: set[asyncio.Task[Any]] = set()
        self._closed = False

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        pool_size: int = DEFAULT_POOL_SIZE,
        clock: Clock | None = None,
    ) -> Self:
        """Connect to ``url`` (``postgresql://user:password@host:port/database``) and migrate.

        The database must exist (``createdb``); its tables are created on first open.  Raises
        :class:`~storage.errors.DatabaseTooNewError` for a schema written by newer code,
        :class:`~storage.errors.ForeignDatabaseError` for a database holding other tables,
        :class:`~storage.errors.DatabaseError` if the server cannot be reached.
        """
        if not is_postgres_url(url):
            raise ValueError(f"not a PostgreSQL URL: {redact(url)!r}")
        if pool_size < 1:
            raise ValueError("pool_size must be at least 1")
        where = redact(url)
        with translate_errors():
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        try:
            with translate_errors():
                async with pool.acquire() as conn:
                    await check_openable(conn, where)
                    await migrate(conn, where=where)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, clock)

    @property
    def url(self) -> str:
        """The database's URL, without its password."""
        return redact(self._url)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self.settle()
        await self._pool.close()

    async def backup(self, target: str | Path) -> None:
        """A consistent snapshot of the whole database as a SQLite file (``python -m
        storage.copy`` brings it back); read in one REPEATABLE READ transaction."""
        from storage.copy import copy_postgres_to_sqlite

        await copy_postgres_to_sqlite(self._pool, Path(target))

    # -- running statements --------------------------------------------------------------------

    async def _write(
        self,
        body: Callable[Concatenate[asyncpg.Connection, P], Awaitable[T]],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Run ``body`` as one transaction, to the end even if the caller is cancelled."""
        return await self._shielded(self._transaction(body, *args, **kwargs))

    async def _shielded(self, work: Coroutine[Any, Any, T]) -> T:
        """Await ``work`` in a task of its own that the caller's cancellation does not reach.

        Cancelling asyncpg in the middle of a statement makes it send a cancel request over a
        new connection and reset the pooled one; letting the statement finish is cheaper, and
        for a write it is what keeps "all or nothing" plain: the transaction commits or rolls
        back on its own, and :meth:`close` waits for it.
        """
        if self._closed:
            work.close()
            raise DatabaseError("the store is closed")
        task = asyncio.ensure_future(work)
        self._running.add(task)
        task.add_done_callback(self._settled)
        return await asyncio.shield(task)

    def _settled(self, task: asyncio.Task[Any]) -> None:
        self._running.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: a caller that gave up is not told, nor is the log

    async def settle(self) -> None:
        """Wait for the statements of callers that were cancelled to finish."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    async def _transaction(
        self,
        body: Callable[Concatenate[asyncpg.Connection, P], Awaitable[T]],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        for attempt in range(TRANSIENT_RETRIES + 1):
            try:
                with translate_errors():
                    async with self._pool.acquire() as conn, conn.transaction():
                        return await body(conn, *args, **kwargs)
            except DatabaseError as exc:
                transient = isinstance(
                    exc.__cause__, (asyncpg.DeadlockDetectedError, asyncpg.SerializationError)
                )
                if not transient or attempt == TRANSIENT_RETRIES:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def _fetch_one(self, sql: str, *params: Any) -> asyncpg.Record | None:
        rows = await self._fetch_all(sql, *params)
        return rows[0] if rows else None

    async def _fetch_all(self, sql: str, *params: Any) -> list[asyncpg.Record]:
        return await self._shielded(self._read(sql, params))

    async def _read(self, sql: str, params: Sequence[Any]) -> list[asyncpg.Record]:
        with translate_errors():
            return list(await self._pool.fetch(sql, *params))

    # -- users and chats ---------------------------------------------------------------------

    async def get_user(self, user_id: int) -> User:
        row = await self._fetch_one(f"SELECT {USER_COLUMNS} FROM users WHERE user_id = $1", user_id)
        if row is None:
            raise NotFoundError("user", user_id)
        return user_from_row(row)

    async def get_chat(self, chat_id: int) -> Chat:
        row = await self._fetch_one(f"SELECT {CHAT_COLUMNS} FROM chats WHERE chat_id = $1", chat_id)
        if row is None:
            raise NotFoundError("chat", chat_id)
        return chat_from_row(row)

    # -- games -------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> Game:
        row = await self._fetch_one(f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = $1", game_id)
        if row is None:
            raise NotFoundError("game", game_id)
        return game_from_row(row)

    async def get_active_game(self, chat_id: int, thread_id: int = 0) -> Game | None:
        row = await self._fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games "
            "WHERE chat_id = $1 AND thread_id = $2 AND status = 'active'",
            chat_id,
            thread_id,
        )
        return None if row is None else game_from_row(row)

    async def list_user_games(
        self, user_id: int, *, status: GameStatus | str | None = None, limit: int = 20
    ) -> list[Game]:
        status_value = None if status is None else GameStatus(status).value
        rows = await self._fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games "
            "WHERE (white_user_id = $1 OR black_user_id = $1) "
            "AND ($2::text IS NULL OR status = $2::text) "
            "ORDER BY updated_at DESC, game_id DESC LIMIT $3",
            user_id,
            status_value,
            limit,
        )
        return [game_from_row(row) for row in rows]

    async def get_moves(
        self, game_id: int, *, after_seq: int = 0, limit: int | None = None
    ) -> list[MoveRecord]:
        rows = await self._fetch_all(
            f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = $1 AND seq > $2 "
            "ORDER BY seq LIMIT $3",
            game_id,
            after_seq,
            limit,  # LIMIT NULL: no limit
        )
        return [move_from_row(row) for row in rows]

    # -- board messages ----------------------------------------------------------------------

    async def get_game_messages(self, game_id: int) -> list[GameMessage]:
        rows = await self._fetch_all(
            f"SELECT {MESSAGE_COLUMNS} FROM game_messages WHERE game_id = $1 "
            "ORDER BY chat_id, thread_id, kind",
            game_id,
        )
        return [message_from_row(row) for row in rows]

    async def find_game_by_message(self, chat_id: int, message_id: int) -> Game | None:
        row = await self._fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ("
            " SELECT game_id FROM game_messages WHERE chat_id = $1 AND message_id = $2"
            " ORDER BY updated_at DESC LIMIT 1)",
            chat_id,
            message_id,
        )
        return None if row is None else game_from_row(row)

    # -- invitations -------------------------------------------------------------------------

    async def get_invitation(self, token: str) -> Invitation:
        row = await self._fetch_one(
            f"SELECT {INVITATION_COLUMNS} FROM invitations WHERE token = $1", token
        )
        if row is None:
            raise NotFoundError("invitation", token)
        return invitation_from_row(row)

    async def list_invitations(
        self, inviter_id: int, *, state: InvitationState | str | None = None, limit: int = 50
    ) -> list[Invitation]:
        state_value = None if state is None else InvitationState(state).value
        rows = await self._fetch_all(
            f"SELECT {INVITATION_COLUMNS} FROM invitations WHERE inviter_id = $1 "
            "AND ($2::text IS NULL OR state = $2::text) "
            "ORDER BY created_at DESC, token LIMIT $3",
            inviter_id,
            state_value,
            limit,
        )
        return [invitation_from_row(row) for row in rows]

    # -- statistics and ratings --------------------------------------------------------------

    async def get_user_stats(
        self, user_id: int, variant: Variant | str, *, vs_ai: bool = False
    ) -> UserStats:
        kind = Variant(variant)
        row = await self._fetch_one(
            f"SELECT {STATS_COLUMNS} FROM user_stats "
            "WHERE user_id = $1 AND variant = $2 AND vs_ai = $3",
            user_id,
            kind.value,
            int(vs_ai),
        )
        if row is None:
            return UserStats(user_id=user_id, variant=kind, vs_ai=vs_ai)
        return stats_from_row(row)

    async def list_user_stats(self, user_id: int) -> list[UserStats]:
        rows = await self._fetch_all(
            f"SELECT {STATS_COLUMNS} FROM user_stats WHERE user_id = $1 ORDER BY variant, vs_ai",
            user_id,
        )
        return [stats_from_row(row) for row in rows]

    async def get_rating(self, user_id: int, variant: Variant | str) -> Rating:
        kind = Variant(variant)
        row = await self._fetch_one(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = $1 AND variant = $2",
            user_id,
            kind.value,
        )
        if row is None:
            return Rating(user_id, kind, INITIAL_RATING, 0, INITIAL_RATING, None)
        return rating_from_row(row)

    async def leaderboard(
        self,
        variant: Variant | str,
        *,
        chat_id: int | None = None,
        limit: int = 10,
        min_games: int = 1,
    ) -> list[LeaderboardEntry]:
        kind = Variant(variant).value
        if chat_id is None:
            rows = await self._fetch_all(
                "SELECT r.user_id, u.display_name, r.rating, r.games, "
                "COALESCE(s.wins, 0) AS wins "
                "FROM ratings AS r JOIN users AS u ON u.user_id = r.user_id "
                "LEFT JOIN user_stats AS s "
                "ON s.user_id = r.user_id AND s.variant = r.variant AND s.vs_ai = 0 "
                "WHERE r.variant = $1 AND r.games >= $2 "
                "ORDER BY r.rating DESC, r.games DESC, r.user_id LIMIT $3",
                kind,
                min_games,
                limit,
            )
        else:
            rows = await self._fetch_all(
                "WITH seats (user_id, won) AS ("
                " SELECT white_user_id, (winner = 'white')::int FROM games"
                "  WHERE chat_id = $1 AND variant = $2 AND status = 'finished'"
                "  AND ai_level IS NULL"
                " UNION ALL"
                " SELECT black_user_id, (winner = 'black')::int FROM games"
                "  WHERE chat_id = $1 AND variant = $2 AND status = 'finished'"
                "  AND ai_level IS NULL"
                "), played (user_id, games, wins) AS ("
                " SELECT user_id, COUNT(*), SUM(won) FROM seats GROUP BY user_id"
                ") "
                "SELECT p.user_id, u.display_name, COALESCE(r.rating, $3) AS rating, "
                "p.games, p.wins "
                "FROM played AS p JOIN users AS u ON u.user_id = p.user_id "
                "LEFT JOIN ratings AS r ON r.user_id = p.user_id AND r.variant = $2 "
                "WHERE p.games >= $4 "
                "ORDER BY rating DESC, p.games DESC, p.user_id LIMIT $5",
                chat_id,
                kind,
                INITIAL_RATING,
                min_games,
                limit,
            )
        return [
            LeaderboardEntry(
                rank=rank,
                user_id=row["user_id"],
                display_name=row["display_name"],
                rating=float(row["rating"]),
                games=int(row["games"]),
                wins=int(row["wins"]),
            )
            for rank, row in enumerate(rows, start=1)
        ]

    # -- Telegram updates --------------------------------------------------------------------
