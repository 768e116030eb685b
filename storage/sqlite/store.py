"""The SQLite implementation of :class:`storage.base.Storage`.

The async methods here check their arguments, read the clock, and then either read through the
aiosqlite reader pool or hand a whole transaction from :mod:`storage.sqlite.writes` to the
writer thread (see :mod:`storage.sqlite.connections` for why writes work that way).
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

import aiosqlite

from storage.errors import NotFoundError
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
from storage.settings import database_path
from storage.sqlite import writes
from storage.sqlite.connections import (
    DEFAULT_BUSY_TIMEOUT_MS,
    DEFAULT_SYNCHRONOUS,
    ConnectionPool,
    Synchronous,
    translate_errors,
)
from storage.sqlite.migrations import check_openable, migrate
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

Row = sqlite3.Row

# ---------------------------------------------------------------------------------------------
# The repository
# ---------------------------------------------------------------------------------------------


class SqliteStorage(WritingStorage):
    """:class:`Storage` in one SQLite file.  Create it with :meth:`open`."""

    _tx = writes

    def __init__(self, pool: ConnectionPool, clock: Clock | None = None) -> None:
        self._pool = pool
        self._clock = clock or (lambda: datetime.now(UTC))

    async def _write(self, body: Callable[..., Any], *args: Any) -> Any:
        return await self._pool.writer.transaction(body, *args)

    @classmethod
    async def open(
        cls,
        path: str | Path | None = None,
        *,
        readers: int = 2,
        synchronous: Synchronous = DEFAULT_SYNCHRONOUS,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        clock: Clock | None = None,
    ) -> Self:
        """Open (creating and migrating as needed) the database at ``path``.

        ``path`` defaults to :func:`storage.settings.database_path` (``DATABASE_PATH``, else
        ``nardy.sqlite3`` in the working directory).  Raises
        :class:`~storage.errors.DatabaseTooNewError` for a file written by newer code and
        :class:`~storage.errors.ForeignDatabaseError` for a file that is not ours.
        """
        target = database_path() if path is None else Path(path).expanduser()
        if str(path) == ":memory:" or str(target).startswith("file:"):
            raise ValueError("a database file path is needed (several connections share it)")
        target = target.resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        pool = ConnectionPool(
            target,
            readers=readers,
            synchronous=synchronous,
            busy_timeout_ms=busy_timeout_ms,
        )
        try:
            with translate_errors():
                await pool.writer.open(check=functools.partial(check_openable, path=target))
                await pool.writer.run(functools.partial(migrate, path=target))
                await pool.open_readers()
        except BaseException:
            await pool.close(optimize=False)  # a refused file is left exactly as it was
            raise
        return cls(pool, clock)

    @property
    def path(self) -> Path:
        return self._pool.path

    async def close(self) -> None:
        await self._pool.close()

    async def backup(self, target: str | Path) -> None:
        async with self._pool.read() as source, aiosqlite.connect(Path(target)) as dest:
            await source.backup(dest)

    async def _fetch_one(self, sql: str, params: Sequence[Any]) -> Row | None:
        async with self._pool.read() as conn:
            rows = list(await conn.execute_fetchall(sql, params))
        return rows[0] if rows else None

    async def _fetch_all(self, sql: str, params: Sequence[Any]) -> list[Row]:
        async with self._pool.read() as conn:
            return list(await conn.execute_fetchall(sql, params))

    # -- users and chats ---------------------------------------------------------------------

    async def get_user(self, user_id: int) -> User:
        row = await self._fetch_one(
            f"SELECT {USER_COLUMNS} FROM users WHERE user_id = ?", (user_id,)
        )
        if row is None:
            raise NotFoundError("user", user_id)
        return user_from_row(row)

    async def get_chat(self, chat_id: int) -> Chat:
        row = await self._fetch_one(
            f"SELECT {CHAT_COLUMNS} FROM chats WHERE chat_id = ?", (chat_id,)
        )
        if row is None:
            raise NotFoundError("chat", chat_id)
        return chat_from_row(row)

    # -- games -------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> Game:
        row = await self._fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,)
        )
        if row is None:
            raise NotFoundError("game", game_id)
        return game_from_row(row)

    async def get_active_game(self, chat_id: int, thread_id: int = 0) -> Game | None:
        row = await self._fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games "
            "WHERE chat_id = ? AND thread_id = ? AND status = 'active'",
            (chat_id, thread_id),
        )
        return None if row is None else game_from_row(row)

    async def list_user_games(
        self, user_id: int, *, status: GameStatus | str | None = None, limit: int = 20
    ) -> list[Game]:
        status_value = None if status is None else GameStatus(status).value
        # Two index lookups (one per seat) merged, instead of an OR that scans the table.
        rows = await self._fetch_all(
            f"SELECT {GAME_COLUMNS} FROM ("
            f" SELECT {GAME_COLUMNS} FROM games WHERE white_user_id = ?1"
            " UNION ALL"
            f" SELECT {GAME_COLUMNS} FROM games WHERE black_user_id = ?1"
            ") WHERE ?2 IS NULL OR status = ?2 "
            "ORDER BY updated_at DESC, game_id DESC LIMIT ?3",
            (user_id, status_value, limit),
        )
        return [game_from_row(row) for row in rows]

    async def get_moves(
        self, game_id: int, *, after_seq: int = 0, limit: int | None = None
    ) -> list[MoveRecord]:
        rows = await self._fetch_all(
            f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (game_id, after_seq, -1 if limit is None else limit),
        )
        return [move_from_row(row) for row in rows]

    # -- board messages ----------------------------------------------------------------------

    async def get_game_messages(self, game_id: int) -> list[GameMessage]:
        rows = await self._fetch_all(
            f"SELECT {MESSAGE_COLUMNS} FROM game_messages WHERE game_id = ? "
            "ORDER BY chat_id, thread_id, kind",
            (game_id,),
        )
        return [message_from_row(row) for row in rows]

    async def find_game_by_message(self, chat_id: int, message_id: int) -> Game | None:
        row = await self._fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ("
            " SELECT game_id FROM game_messages WHERE chat_id = ? AND message_id = ?"
            " ORDER BY updated_at DESC LIMIT 1)",
            (chat_id, message_id),
        )
        return None if row is None else game_from_row(row)

    # -- invitations -------------------------------------------------------------------------

    async def get_invitation(self, token: str) -> Invitation:
        row = await self._fetch_one(
            f"SELECT {INVITATION_COLUMNS} FROM invitations WHERE token = ?", (token,)
        )
        if row is None:
            raise NotFoundError("invitation", token)
        return invitation_from_row(row)

    async def list_invitations(
        self, inviter_id: int, *, state: InvitationState | str | None = None, limit: int = 50
    ) -> list[Invitation]:
        sql = f"SELECT {INVITATION_COLUMNS} FROM invitations WHERE inviter_id = ?"
        params: list[Any] = [inviter_id]
        if state is not None:
            sql += " AND state = ?"
            params.append(InvitationState(state).value)
        sql += " ORDER BY created_at DESC, token LIMIT ?"
        params.append(limit)
        return [invitation_from_row(r) for r in await self._fetch_all(sql, params)]

    # -- statistics and ratings --------------------------------------------------------------

    async def get_user_stats(
        self, user_id: int, variant: Variant | str, *, vs_ai: bool = False
    ) -> UserStats:
        kind = Variant(variant)
        row = await self._fetch_one(
            f"SELECT {STATS_COLUMNS} FROM user_stats "
            "WHERE user_id = ? AND variant = ? AND vs_ai = ?",
            (user_id, kind.value, int(vs_ai)),
        )
        if row is None:
            return UserStats(user_id=user_id, variant=kind, vs_ai=vs_ai)
        return stats_from_row(row)

    async def list_user_stats(self, user_id: int) -> list[UserStats]:
        rows = await self._fetch_all(
            f"SELECT {STATS_COLUMNS} FROM user_stats WHERE user_id = ? ORDER BY variant, vs_ai",
            (user_id,),
        )
        return [stats_from_row(row) for row in rows]

    async def get_rating(self, user_id: int, variant: Variant | str) -> Rating:
        kind = Variant(variant)
        row = await self._fetch_one(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ? AND variant = ?",
            (user_id, kind.value),
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
                "WHERE r.variant = ? AND r.games >= ? "
                "ORDER BY r.rating DESC, r.games DESC, r.user_id LIMIT ?",
                (kind, min_games, limit),
            )
        else:
            rows = await self._fetch_all(
                "WITH seats (user_id, won) AS ("
                " SELECT white_user_id, winner = 'white' FROM games"
                "  WHERE chat_id = ?1 AND variant = ?2 AND status = 'finished'"
                "  AND ai_level IS NULL"
                " UNION ALL"
                " SELECT black_user_id, winner = 'black' FROM games"
                "  WHERE chat_id = ?1 AND variant = ?2 AND status = 'finished'"
                "  AND ai_level IS NULL"
                "), played (user_id, games, wins) AS ("
                " SELECT user_id, COUNT(*), SUM(won) FROM seats GROUP BY user_id"
                ") "
                "SELECT p.user_id, u.display_name, COALESCE(r.rating, ?3) AS rating, "
                "p.games, p.wins "
                "FROM played AS p JOIN users AS u ON u.user_id = p.user_id "
                "LEFT JOIN ratings AS r ON r.user_id = p.user_id AND r.variant = ?2 "
                "WHERE p.games >= ?4 "
                "ORDER BY rating DESC, p.games DESC, p.user_id LIMIT ?5",
                (chat_id, kind, INITIAL_RATING, min_games, limit),
            )
        return [
            LeaderboardEntry(
                rank=rank,
                user_id=row["user_id"],
                display_name=row["display_name"],
                rating=float(row["rating"]),
                games=row["games"],
                wins=row["wins"],
            )
            for rank, row in enumerate(rows, start=1)
        ]

    # -- Telegram updates --------------------------------------------------------------------
