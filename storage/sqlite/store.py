"""The SQLite implementation of :class:`storage.base.Storage`, over aiosqlite.

Every statement names its columns; every row becomes a dataclass from :mod:`storage.models`
through one ``_*_from_row`` function per table, so the mapping lives in one place.  Writes go
through :meth:`ConnectionPool.transaction` (one writer, ``BEGIN IMMEDIATE`` ... ``COMMIT``);
reads through the reader pool.
"""

from __future__ import annotations

import functools
import json
import secrets
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Self

import aiosqlite

from storage import rating as elo
from storage.base import UNSET, Storage
from storage.errors import (
    ActiveGameExistsError,
    ConstraintError,
    DuplicateUpdateError,
    GameNotActiveError,
    InvitationExpiredError,
    InvitationNotForYouError,
    InvitationNotPendingError,
    NotFoundError,
    StaleVersionError,
)
from storage.models import (
    INITIAL_RATING,
    AcceptedInvitation,
    Chat,
    ChatType,
    Colour,
    FinishedGame,
    Game,
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
from storage.settings import database_path
from storage.sqlite.connections import (
    DEFAULT_BUSY_TIMEOUT_MS,
    DEFAULT_CHECKPOINT_INTERVAL,
    ConnectionPool,
    Synchronous,
    translate_errors,
)
from storage.sqlite.migrations import check_openable, migrate

Clock = Callable[[], datetime]
Row = sqlite3.Row

# ---------------------------------------------------------------------------------------------
# Column lists and row mapping
# ---------------------------------------------------------------------------------------------

_USER_COLUMNS = "user_id, display_name, username, language, created_at, updated_at"
_CHAT_COLUMNS = (
    "chat_id, chat_type, title, language, default_variant, match_length, options_json, "
    "created_at, updated_at"
)
_GAME_COLUMNS = (
    "game_id, variant, status, chat_id, thread_id, white_user_id, black_user_id, ai_level, "
    "match_length, options_json, score_white, score_black, state, version, move_count, "
    "winner, result_kind, points, created_at, updated_at, finished_at, "
    "white_rating_change, black_rating_change"
)
_MOVE_COLUMNS = (
    "game_id, seq, colour, player_user_id, die1, die2, play, position_id, game_version, created_at"
)
_MESSAGE_COLUMNS = "game_id, chat_id, thread_id, kind, message_id, updated_at"
_INVITATION_COLUMNS = (
    "token, inviter_id, invitee_id, chat_id, thread_id, variant, match_length, options_json, "
    "state, created_at, expires_at, resolved_at, accepted_by, game_id"
)
_STAT_COUNTERS = (
    "games",
    "wins",
    "losses",
    "wins_oin",
    "wins_mars",
    "wins_koks",
    "wins_drop",
    "losses_oin",
    "losses_mars",
    "losses_koks",
    "losses_drop",
    "points_won",
    "points_lost",
)
_STATS_COLUMNS = "user_id, variant, vs_ai, " + ", ".join(_STAT_COUNTERS)
_RATING_COLUMNS = "user_id, variant, rating, games, peak, updated_at"


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def _us(moment: datetime) -> int:
    """A timezone-aware datetime as Unix microseconds (exact integer arithmetic, so a stored
    time reads back equal); naive datetimes are refused because their zone is a guess."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: pass a timezone-aware one (UTC)")
    return (moment - _EPOCH) // _MICROSECOND


def _dt(us: int) -> datetime:
    return _EPOCH + timedelta(microseconds=us)


def _dt_or_none(us: int | None) -> datetime | None:
    return None if us is None else _dt(us)


def _float_or_none(value: float | None) -> float | None:
    # SQLite may hand back a REAL that holds a whole number as an int; keep the declared type.
    return None if value is None else float(value)


def _dump_options(options: Mapping[str, Any]) -> str:
    if not isinstance(options, Mapping):
        raise ValueError(f"options must be a mapping, got {type(options).__name__}")
    return json.dumps(dict(options), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _load_options(text: str) -> dict[str, Any]:
    if text == "{}":  # the common case, on every game load
        return {}
    value = json.loads(text)
    return value if isinstance(value, dict) else {}


def _user_from_row(row: Row) -> User:
    return User(
        user_id=row["user_id"],
        display_name=row["display_name"],
        username=row["username"],
        language=row["language"],
        created_at=_dt(row["created_at"]),
        updated_at=_dt(row["updated_at"]),
    )


def _chat_from_row(row: Row) -> Chat:
    return Chat(
        chat_id=row["chat_id"],
        chat_type=ChatType(row["chat_type"]),
        title=row["title"],
        language=row["language"],
        default_variant=Variant(row["default_variant"]),
        match_length=row["match_length"],
        options=_load_options(row["options_json"]),
        created_at=_dt(row["created_at"]),
        updated_at=_dt(row["updated_at"]),
    )


def _game_from_row(row: Row) -> Game:
    result = None
    if row["winner"] is not None:
        result = GameResult(
            winner=Colour(row["winner"]),
            kind=ResultKind(row["result_kind"]),
            points=row["points"],
        )
    return Game(
        game_id=row["game_id"],
        variant=Variant(row["variant"]),
        status=GameStatus(row["status"]),
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        white_user_id=row["white_user_id"],
        black_user_id=row["black_user_id"],
        ai_level=row["ai_level"],
        match_length=row["match_length"],
        options=_load_options(row["options_json"]),
        score_white=row["score_white"],
        score_black=row["score_black"],
        state=row["state"],
        version=row["version"],
        move_count=row["move_count"],
        created_at=_dt(row["created_at"]),
        updated_at=_dt(row["updated_at"]),
        finished_at=_dt_or_none(row["finished_at"]),
        result=result,
        white_rating_change=_float_or_none(row["white_rating_change"]),
        black_rating_change=_float_or_none(row["black_rating_change"]),
    )


def _move_from_row(row: Row) -> MoveRecord:
    die1, die2 = row["die1"], row["die2"]
    return MoveRecord(
        game_id=row["game_id"],
        seq=row["seq"],
        colour=Colour(row["colour"]),
        player_user_id=row["player_user_id"],
        dice=None if die1 is None else (die1, die2),
        play=row["play"],
        position_id=row["position_id"],
        game_version=row["game_version"],
        created_at=_dt(row["created_at"]),
    )


def _message_from_row(row: Row) -> GameMessage:
    return GameMessage(
        game_id=row["game_id"],
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        kind=row["kind"],
        message_id=row["message_id"],
        updated_at=_dt(row["updated_at"]),
    )


def _invitation_from_row(row: Row) -> Invitation:
    return Invitation(
        token=row["token"],
        inviter_id=row["inviter_id"],
        invitee_id=row["invitee_id"],
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        variant=Variant(row["variant"]),
        match_length=row["match_length"],
        options=_load_options(row["options_json"]),
        state=InvitationState(row["state"]),
        created_at=_dt(row["created_at"]),
        expires_at=_dt(row["expires_at"]),
        resolved_at=_dt_or_none(row["resolved_at"]),
        accepted_by=row["accepted_by"],
        game_id=row["game_id"],
    )


def _stats_from_row(row: Row) -> UserStats:
    return UserStats(
        user_id=row["user_id"],
        variant=Variant(row["variant"]),
        vs_ai=bool(row["vs_ai"]),
        **{name: row[name] for name in _STAT_COUNTERS},
    )


def _rating_from_row(row: Row) -> Rating:
    return Rating(
        user_id=row["user_id"],
        variant=Variant(row["variant"]),
        rating=float(row["rating"]),
        games=row["games"],
        peak=float(row["peak"]),
        updated_at=_dt(row["updated_at"]),
    )


# ---------------------------------------------------------------------------------------------
# Argument checks (programming errors -> ValueError, before any transaction starts)
# ---------------------------------------------------------------------------------------------


def _check_new_game(new: NewGame) -> Variant:
    variant = Variant(new.variant)
    white, black = new.white_user_id, new.black_user_id
    if white is None and black is None:
        raise ValueError("a game needs at least one human player")
    if white is not None and white == black:
        raise ValueError("a user cannot play both sides")
    if (white is None or black is None) != (new.ai_level is not None):
        raise ValueError("ai_level must be given exactly when a seat is played by the computer")
    if new.match_length < 1:
        raise ValueError("match_length must be at least 1")
    if not isinstance(new.state, str):
        raise ValueError("state must be the engine's serialised text")
    return variant


def _check_moves(moves: Sequence[NewMove]) -> None:
    for move in moves:
        Colour(move.colour)
        if move.dice is not None and (
            len(move.dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in move.dice)
        ):
            raise ValueError(f"dice must be two values 1..6, got {move.dice!r}")
        if not isinstance(move.play, str) or not isinstance(move.position_id, str):
            raise ValueError("play and position_id must be text")


def _check_score(score: tuple[int, int] | None) -> None:
    if score is not None and (len(score) != 2 or min(score) < 0):
        raise ValueError(f"score must be two non-negative ints, got {score!r}")


def _check_result(result: GameResult) -> GameResult:
    checked = GameResult(Colour(result.winner), ResultKind(result.kind), int(result.points))
    if checked.points < 1:
        raise ValueError(f"points must be at least 1, got {result.points}")
    return checked


# ---------------------------------------------------------------------------------------------
# The repository
# ---------------------------------------------------------------------------------------------


class SqliteStorage(Storage):
    """:class:`Storage` in one SQLite file.  Create it with :meth:`open`."""

    def __init__(self, pool: ConnectionPool, clock: Clock | None = None) -> None:
        self._pool = pool
        self._clock: Clock = clock or (lambda: datetime.now(UTC))

    @classmethod
    async def open(
        cls,
        path: str | Path | None = None,
        *,
        readers: int = 2,
        synchronous: Synchronous = "NORMAL",
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        checkpoint_interval: float | None = DEFAULT_CHECKPOINT_INTERVAL,
        clock: Clock | None = None,
    ) -> Self:
        """Open (creating and migrating as needed) the database at ``path``.

        ``path`` defaults to :func:`storage.settings.database_path` (``DATABASE_PATH``, else
        ``nardy.sqlite3`` in the working directory).  Raises
        :class:`~storage.errors.DatabaseTooNewError` for a file written by newer code.
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
            checkpoint_interval=checkpoint_interval,
        )
        try:
            with translate_errors():
                writer = await pool.open_writer(
                    check=functools.partial(check_openable, path=target)
                )
                await migrate(writer, path=target)
                await pool.open_readers()
                await pool.start_checkpointer()
        except BaseException:
            await pool.close(optimize=False)  # a refused file is left exactly as it was
            raise
        return cls(pool, clock)

    @property
    def path(self) -> Path:
        return self._pool.path

    def _now(self) -> int:
        return _us(self._clock())

    async def close(self) -> None:
        await self._pool.close()

    async def backup(self, target: str | Path) -> None:
        async with self._pool.read() as source, aiosqlite.connect(Path(target)) as dest:
            await source.backup(dest)

    # -- small helpers -----------------------------------------------------------------------

    async def _fetch_one(self, sql: str, params: Sequence[Any]) -> Row | None:
        async with self._pool.read() as conn:
            rows = list(await conn.execute_fetchall(sql, params))
        return rows[0] if rows else None

    async def _fetch_all(self, sql: str, params: Sequence[Any]) -> list[Row]:
        async with self._pool.read() as conn:
            return list(await conn.execute_fetchall(sql, params))

    @staticmethod
    async def _one(conn: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> Row | None:
        rows = list(await conn.execute_fetchall(sql, params))
        return rows[0] if rows else None

    @staticmethod
    async def _require(
        conn: aiosqlite.Connection,
        *,
        user_ids: Iterable[int | None] = (),
        chat_id: int | None = None,
    ) -> None:
        """Raise NotFoundError naming the missing user or chat, rather than a bare FK error."""
        wanted = sorted({uid for uid in user_ids if uid is not None})
        if wanted:
            marks = ", ".join("?" * len(wanted))
            rows = await conn.execute_fetchall(
                f"SELECT user_id FROM users WHERE user_id IN ({marks})", wanted
            )
            missing = set(wanted) - {row[0] for row in rows}
            if missing:
                raise NotFoundError("user", min(missing))
        if chat_id is not None:
            rows = list(
                await conn.execute_fetchall("SELECT 1 FROM chats WHERE chat_id = ?", (chat_id,))
            )
            if not rows:
                raise NotFoundError("chat", chat_id)

    @staticmethod
    async def _claim_update(conn: aiosqlite.Connection, update_id: int, now: int) -> bool:
        rows = await conn.execute_fetchall(
            "INSERT INTO processed_updates (update_id, processed_at) VALUES (?, ?) "
            "ON CONFLICT (update_id) DO NOTHING RETURNING update_id",
            (update_id, now),
        )
        return bool(list(rows))

    # -- users and chats ---------------------------------------------------------------------

    async def upsert_user(
        self,
        user_id: int,
        display_name: str,
        *,
        username: str | None = None,
        language: str | None = None,
    ) -> User:
        now = self._now()
        async with self._pool.transaction(starts_with_write=True) as conn:
            row = await self._one(
                conn,
                f"INSERT INTO users ({_USER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, "
                "username = excluded.username, "
                "language = COALESCE(excluded.language, users.language), "
                "updated_at = excluded.updated_at "
                f"RETURNING {_USER_COLUMNS}",
                (user_id, display_name, username, language, now, now),
            )
        assert row is not None
        return _user_from_row(row)

    async def get_user(self, user_id: int) -> User:
        row = await self._fetch_one(
            f"SELECT {_USER_COLUMNS} FROM users WHERE user_id = ?", (user_id,)
        )
        if row is None:
            raise NotFoundError("user", user_id)
        return _user_from_row(row)

    async def upsert_chat(
        self, chat_id: int, chat_type: ChatType | str, *, title: str | None = None
    ) -> Chat:
        kind = ChatType(chat_type)
        now = self._now()
        async with self._pool.transaction(starts_with_write=True) as conn:
            row = await self._one(
                conn,
                "INSERT INTO chats (chat_id, chat_type, title, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (chat_id) DO UPDATE SET chat_type = excluded.chat_type, "
                "title = excluded.title, updated_at = excluded.updated_at "
                f"RETURNING {_CHAT_COLUMNS}",
                (chat_id, kind.value, title, now, now),
            )
        assert row is not None
        return _chat_from_row(row)

    async def get_chat(self, chat_id: int) -> Chat:
        row = await self._fetch_one(
            f"SELECT {_CHAT_COLUMNS} FROM chats WHERE chat_id = ?", (chat_id,)
        )
        if row is None:
            raise NotFoundError("chat", chat_id)
        return _chat_from_row(row)

    async def update_chat_settings(
        self,
        chat_id: int,
        *,
        language: str | None = UNSET,
        default_variant: Variant | str = UNSET,
        match_length: int = UNSET,
        options: Mapping[str, Any] = UNSET,
    ) -> Chat:
        changes: list[tuple[str, Any]] = []
        if language is not UNSET:
            changes.append(("language", language))
        if default_variant is not UNSET:
            changes.append(("default_variant", Variant(default_variant).value))
        if match_length is not UNSET:
            if int(match_length) < 1:
                raise ValueError("match_length must be at least 1")
            changes.append(("match_length", int(match_length)))
        if options is not UNSET:
            changes.append(("options_json", _dump_options(options)))
        changes.append(("updated_at", self._now()))
        assignments = ", ".join(f"{column} = ?" for column, _ in changes)
        async with self._pool.transaction(starts_with_write=True) as conn:
            row = await self._one(
                conn,
                f"UPDATE chats SET {assignments} WHERE chat_id = ? RETURNING {_CHAT_COLUMNS}",
                [value for _, value in changes] + [chat_id],
            )
            if row is None:
                raise NotFoundError("chat", chat_id)
        return _chat_from_row(row)

    # -- games -------------------------------------------------------------------------------

    async def _insert_game(self, conn: aiosqlite.Connection, new: NewGame, now: int) -> Game:
        variant = _check_new_game(new)
        existing = await self._one(
            conn,
            "SELECT game_id FROM games WHERE chat_id = ? AND thread_id = ? AND status = 'active'",
            (new.chat_id, new.thread_id),
        )
        if existing is not None:
            raise ActiveGameExistsError(new.chat_id, new.thread_id, existing["game_id"])
        await self._require(
            conn, user_ids=(new.white_user_id, new.black_user_id), chat_id=new.chat_id
        )
        row = await self._one(
            conn,
            "INSERT INTO games (variant, status, chat_id, thread_id, white_user_id, "
            "black_user_id, ai_level, match_length, options_json, state, version, move_count, "
            "created_at, updated_at) "
            "VALUES (?, 'active', ?, ?, ?, ?, ?, ?, ?, ?, 1, 0, ?, ?) "
            f"RETURNING {_GAME_COLUMNS}",
            (
                variant.value,
                new.chat_id,
                new.thread_id,
                new.white_user_id,
                new.black_user_id,
                new.ai_level,
                new.match_length,
                _dump_options(new.options),
                new.state,
                now,
                now,
            ),
        )
        assert row is not None
        return _game_from_row(row)

    async def create_game(self, new: NewGame) -> Game:
        _check_new_game(new)
        now = self._now()
        async with self._pool.transaction() as conn:
            return await self._insert_game(conn, new, now)

    async def get_game(self, game_id: int) -> Game:
        row = await self._fetch_one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,)
        )
        if row is None:
            raise NotFoundError("game", game_id)
        return _game_from_row(row)

    async def get_active_game(self, chat_id: int, thread_id: int = 0) -> Game | None:
        row = await self._fetch_one(
            f"SELECT {_GAME_COLUMNS} FROM games "
            "WHERE chat_id = ? AND thread_id = ? AND status = 'active'",
            (chat_id, thread_id),
        )
        return None if row is None else _game_from_row(row)

    async def list_user_games(
        self, user_id: int, *, status: GameStatus | str | None = None, limit: int = 20
    ) -> list[Game]:
        status_value = None if status is None else GameStatus(status).value
        # Two index range scans (one per seat) merged, instead of an OR that scans the table.
        rows = await self._fetch_all(
            f"SELECT {_GAME_COLUMNS} FROM ("
            f" SELECT {_GAME_COLUMNS} FROM games WHERE white_user_id = ?1"
            f" UNION ALL"
            f" SELECT {_GAME_COLUMNS} FROM games WHERE black_user_id = ?1"
            ") WHERE ?2 IS NULL OR status = ?2 "
            "ORDER BY updated_at DESC, game_id DESC LIMIT ?3",
            (user_id, status_value, limit),
        )
        return [_game_from_row(row) for row in rows]

    async def _write_game(
        self,
        conn: aiosqlite.Connection,
        game_id: int,
        expected_version: int,
        *,
        state: str | None,
        added_moves: int,
        score: tuple[int, int] | None,
        now: int,
        extra_assignments: str = "",
        extra_params: Sequence[Any] = (),
    ) -> Game:
        """The optimistic write: ``UPDATE ... WHERE version = expected`` or a typed error."""
        score_white, score_black = score if score is not None else (None, None)
        row = await self._one(
            conn,
            "UPDATE games SET state = COALESCE(?, state), version = version + 1, "
            "move_count = move_count + ?, score_white = COALESCE(?, score_white), "
            f"score_black = COALESCE(?, score_black), updated_at = ?{extra_assignments} "
            "WHERE game_id = ? AND version = ? AND status = 'active' "
            f"RETURNING {_GAME_COLUMNS}",
            (
                state,
                added_moves,
                score_white,
                score_black,
                now,
                *extra_params,
                game_id,
                expected_version,
            ),
        )
        if row is not None:
            return _game_from_row(row)
        current = await self._one(
            conn, "SELECT version, status FROM games WHERE game_id = ?", (game_id,)
        )
        if current is None:
            raise NotFoundError("game", game_id)
        if current["version"] != expected_version:
            raise StaleVersionError(game_id, expected_version, current["version"])
        raise GameNotActiveError(game_id, current["status"])

    @staticmethod
    async def _append_moves(
        conn: aiosqlite.Connection, game: Game, moves: Sequence[NewMove], now: int
    ) -> None:
        if not moves:
            return
        first_seq = game.move_count - len(moves) + 1
        await conn.executemany(
            f"INSERT INTO moves ({_MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game.game_id,
                    first_seq + offset,
                    Colour(move.colour).value,
                    game.user_id_of(move.colour),
                    None if move.dice is None else move.dice[0],
                    None if move.dice is None else move.dice[1],
                    move.play,
                    move.position_id,
                    game.version,
                    now,
                )
                for offset, move in enumerate(moves)
            ],
        )

    async def save_game(
        self,
        game_id: int,
        expected_version: int,
        state: str,
        *,
        moves: Sequence[NewMove] = (),
        score: tuple[int, int] | None = None,
        update_id: int | None = None,
    ) -> Game:
        if not isinstance(state, str):
            raise ValueError("state must be the engine's serialised text")
        _check_moves(moves)
        _check_score(score)
        now = self._now()
        async with self._pool.transaction(starts_with_write=True) as conn:
            if update_id is not None and not await self._claim_update(conn, update_id, now):
                raise DuplicateUpdateError(update_id)
            game = await self._write_game(
                conn,
                game_id,
                expected_version,
                state=state,
                added_moves=len(moves),
                score=score,
                now=now,
            )
            await self._append_moves(conn, game, moves, now)
        return game

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
    ) -> FinishedGame:
        if not isinstance(state, str):
            raise ValueError("state must be the engine's serialised text")
        result = _check_result(result)
        _check_moves(moves)
        _check_score(score)
        now = self._now()
        async with self._pool.transaction(starts_with_write=True) as conn:
            if update_id is not None and not await self._claim_update(conn, update_id, now):
                raise DuplicateUpdateError(update_id)
            game = await self._write_game(
                conn,
                game_id,
                expected_version,
                state=state,
                added_moves=len(moves),
                score=score,
                now=now,
                extra_assignments=(
                    ", status = 'finished', winner = ?, result_kind = ?, points = ?, "
                    "finished_at = ?"
                ),
                extra_params=(result.winner.value, result.kind.value, result.points, now),
            )
            await self._append_moves(conn, game, moves, now)
            await self._record_statistics(conn, game, result)
            changes: tuple[RatingChange, ...] = ()
            if not game.vs_ai:
                changes = await self._record_ratings(conn, game, result, now)
                by_colour = {change.colour: change.delta for change in changes}
                row = await self._one(
                    conn,
                    "UPDATE games SET white_rating_change = ?, black_rating_change = ? "
                    f"WHERE game_id = ? RETURNING {_GAME_COLUMNS}",
                    (by_colour[Colour.WHITE], by_colour[Colour.BLACK], game.game_id),
                )
                assert row is not None
                game = _game_from_row(row)
        return FinishedGame(game=game, rating_changes=changes)

    @staticmethod
    async def _record_statistics(
        conn: aiosqlite.Connection, game: Game, result: GameResult
    ) -> None:
        rows = []
        for colour in Colour:
            user_id = game.user_id_of(colour)
            if user_id is None:
                continue
            won = colour is result.winner
            counters = dict.fromkeys(_STAT_COUNTERS, 0)
            counters["games"] = 1
            counters["wins" if won else "losses"] = 1
            counters[f"{'wins' if won else 'losses'}_{result.kind.value}"] = 1
            counters["points_won" if won else "points_lost"] = result.points
            rows.append((user_id, game.variant.value, int(game.vs_ai), *counters.values()))
        increments = ", ".join(f"{name} = {name} + excluded.{name}" for name in _STAT_COUNTERS)
        await conn.executemany(
            f"INSERT INTO user_stats ({_STATS_COLUMNS}) "
            f"VALUES ({', '.join('?' * (3 + len(_STAT_COUNTERS)))}) "
            f"ON CONFLICT (user_id, variant, vs_ai) DO UPDATE SET {increments}",
            rows,
        )

    @staticmethod
    async def _record_ratings(
        conn: aiosqlite.Connection, game: Game, result: GameResult, now: int
    ) -> tuple[RatingChange, ...]:
        winner_id = game.user_id_of(result.winner)
        loser_id = game.user_id_of(result.winner.opponent)
        assert winner_id is not None and loser_id is not None
        rows = await conn.execute_fetchall(
            "SELECT user_id, rating, games FROM ratings WHERE variant = ? AND user_id IN (?, ?)",
            (game.variant.value, winner_id, loser_id),
        )
        current = {row["user_id"]: (float(row["rating"]), row["games"]) for row in rows}
        winner_before, winner_games = current.get(winner_id, (INITIAL_RATING, 0))
        loser_before, loser_games = current.get(loser_id, (INITIAL_RATING, 0))
        update = elo.elo_update(
            winner_before, winner_games, loser_before, loser_games, game.match_length
        )
        await conn.executemany(
            f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, 1, ?, ?) "
            "ON CONFLICT (user_id, variant) DO UPDATE SET rating = excluded.rating, "
            "games = ratings.games + 1, peak = MAX(ratings.peak, excluded.rating), "
            "updated_at = excluded.updated_at",
            [
                (
                    winner_id,
                    game.variant.value,
                    update.winner_after,
                    max(INITIAL_RATING, update.winner_after),
                    now,
                ),
                (
                    loser_id,
                    game.variant.value,
                    update.loser_after,
                    max(INITIAL_RATING, update.loser_after),
                    now,
                ),
            ],
        )
        return (
            RatingChange(winner_id, result.winner, winner_before, update.winner_after),
            RatingChange(loser_id, result.winner.opponent, loser_before, update.loser_after),
        )

    async def abandon_game(
        self,
        game_id: int,
        expected_version: int,
        state: str | None = None,
        *,
        update_id: int | None = None,
    ) -> Game:
        now = self._now()
        async with self._pool.transaction(starts_with_write=True) as conn:
            if update_id is not None and not await self._claim_update(conn, update_id, now):
                raise DuplicateUpdateError(update_id)
            return await self._write_game(
                conn,
                game_id,
                expected_version,
                state=state,
                added_moves=0,
                score=None,
                now=now,
                extra_assignments=", status = 'abandoned', finished_at = ?",
                extra_params=(now,),
            )

    async def get_moves(
        self, game_id: int, *, after_seq: int = 0, limit: int | None = None
    ) -> list[MoveRecord]:
        rows = await self._fetch_all(
            f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (game_id, after_seq, -1 if limit is None else limit),
        )
        return [_move_from_row(row) for row in rows]

    # -- board messages ----------------------------------------------------------------------

    async def set_game_message(
        self,
        game_id: int,
        chat_id: int,
        message_id: int,
        *,
        thread_id: int = 0,
        kind: str = "board",
    ) -> GameMessage:
        now = self._now()
        try:
            async with self._pool.transaction(starts_with_write=True) as conn:
                row = await self._one(
                    conn,
                    f"INSERT INTO game_messages ({_MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (game_id, chat_id, thread_id, kind) DO UPDATE SET "
                    "message_id = excluded.message_id, updated_at = excluded.updated_at "
                    f"RETURNING {_MESSAGE_COLUMNS}",
                    (game_id, chat_id, thread_id, kind, message_id, now),
                )
        except ConstraintError as exc:  # the only foreign key here is the game
            raise NotFoundError("game", game_id) from exc
        assert row is not None
        return _message_from_row(row)

    async def get_game_messages(self, game_id: int) -> list[GameMessage]:
        rows = await self._fetch_all(
            f"SELECT {_MESSAGE_COLUMNS} FROM game_messages WHERE game_id = ? "
            "ORDER BY chat_id, thread_id, kind",
            (game_id,),
        )
        return [_message_from_row(row) for row in rows]

    async def delete_game_message(
        self, game_id: int, chat_id: int, *, thread_id: int = 0, kind: str = "board"
    ) -> bool:
        async with self._pool.transaction(starts_with_write=True) as conn:
            rows = await conn.execute_fetchall(
                "DELETE FROM game_messages "
                "WHERE game_id = ? AND chat_id = ? AND thread_id = ? AND kind = ? "
                "RETURNING game_id",
                (game_id, chat_id, thread_id, kind),
            )
        return bool(list(rows))

    async def find_game_by_message(self, chat_id: int, message_id: int) -> Game | None:
        row = await self._fetch_one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE game_id = ("
            " SELECT game_id FROM game_messages WHERE chat_id = ? AND message_id = ?"
            " ORDER BY updated_at DESC LIMIT 1)",
            (chat_id, message_id),
        )
        return None if row is None else _game_from_row(row)

    # -- invitations -------------------------------------------------------------------------

    async def create_invitation(self, new: NewInvitation) -> Invitation:
        variant = Variant(new.variant)
        if new.invitee_id is not None and new.invitee_id == new.inviter_id:
            raise ValueError("a user cannot invite themselves")
        if new.match_length < 1:
            raise ValueError("match_length must be at least 1")
        expires_at = _us(new.expires_at)
        token = new.token if new.token is not None else secrets.token_urlsafe(12)
        now = self._now()
        async with self._pool.transaction() as conn:
            await self._require(
                conn, user_ids=(new.inviter_id, new.invitee_id), chat_id=new.chat_id
            )
            row = await self._one(
                conn,
                "INSERT INTO invitations (token, inviter_id, invitee_id, chat_id, thread_id, "
                "variant, match_length, options_json, state, created_at, expires_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?) "
                f"RETURNING {_INVITATION_COLUMNS}",
                (
                    token,
                    new.inviter_id,
                    new.invitee_id,
                    new.chat_id,
                    new.thread_id,
                    variant.value,
                    new.match_length,
                    _dump_options(new.options),
                    now,
                    expires_at,
                ),
            )
        assert row is not None
        return _invitation_from_row(row)

    async def get_invitation(self, token: str) -> Invitation:
        row = await self._fetch_one(
            f"SELECT {_INVITATION_COLUMNS} FROM invitations WHERE token = ?", (token,)
        )
        if row is None:
            raise NotFoundError("invitation", token)
        return _invitation_from_row(row)

    async def _pending_invitation(self, conn: aiosqlite.Connection, token: str) -> Invitation:
        row = await self._one(
            conn, f"SELECT {_INVITATION_COLUMNS} FROM invitations WHERE token = ?", (token,)
        )
        if row is None:
            raise NotFoundError("invitation", token)
        invitation = _invitation_from_row(row)
        if invitation.state is not InvitationState.PENDING:
            raise InvitationNotPendingError(token, invitation.state.value)
        return invitation

    async def _resolve(
        self,
        conn: aiosqlite.Connection,
        token: str,
        state: InvitationState,
        now: int,
        *,
        accepted_by: int | None = None,
        game_id: int | None = None,
    ) -> Invitation:
        row = await self._one(
            conn,
            "UPDATE invitations SET state = ?, resolved_at = ?, accepted_by = ?, game_id = ? "
            f"WHERE token = ? AND state = 'pending' RETURNING {_INVITATION_COLUMNS}",
            (state.value, now, accepted_by, game_id, token),
        )
        assert row is not None  # checked pending inside the same transaction
        return _invitation_from_row(row)

    async def accept_invitation(
        self, token: str, user_id: int, *, game: NewGame | None = None
    ) -> AcceptedInvitation:
        if game is not None:
            _check_new_game(game)
        now = self._now()
        async with self._pool.transaction() as conn:
            invitation = await self._pending_invitation(conn, token)
            if now >= _us(invitation.expires_at):
                raise InvitationExpiredError(token)
            if user_id == invitation.inviter_id or invitation.invitee_id not in (None, user_id):
                raise InvitationNotForYouError(token, user_id)
            await self._require(conn, user_ids=(user_id,))
            created = None
            if game is not None:
                seats = {game.white_user_id, game.black_user_id}
                if seats != {invitation.inviter_id, user_id}:
                    raise ValueError("the game must seat the inviter and the accepting user")
                created = await self._insert_game(conn, game, now)
            accepted = await self._resolve(
                conn,
                token,
                InvitationState.ACCEPTED,
                now,
                accepted_by=user_id,
                game_id=None if created is None else created.game_id,
            )
        return AcceptedInvitation(invitation=accepted, game=created)

    async def decline_invitation(self, token: str, user_id: int) -> Invitation:
        now = self._now()
        async with self._pool.transaction() as conn:
            invitation = await self._pending_invitation(conn, token)
            if user_id == invitation.inviter_id or invitation.invitee_id not in (None, user_id):
                raise InvitationNotForYouError(token, user_id)
            return await self._resolve(conn, token, InvitationState.DECLINED, now)

    async def cancel_invitation(self, token: str, user_id: int) -> Invitation:
        now = self._now()
        async with self._pool.transaction() as conn:
            invitation = await self._pending_invitation(conn, token)
            if user_id != invitation.inviter_id:
                raise InvitationNotForYouError(token, user_id)
            return await self._resolve(conn, token, InvitationState.CANCELLED, now)

    async def expire_invitations(self, now: datetime | None = None) -> list[Invitation]:
        moment = self._now() if now is None else _us(now)
        async with self._pool.transaction(starts_with_write=True) as conn:
            rows = await conn.execute_fetchall(
                "UPDATE invitations SET state = 'expired', resolved_at = ?1 "
                f"WHERE state = 'pending' AND expires_at <= ?1 RETURNING {_INVITATION_COLUMNS}",
                (moment,),
            )
        return sorted((_invitation_from_row(row) for row in rows), key=lambda i: i.token)

    # -- statistics and ratings --------------------------------------------------------------

    async def get_user_stats(
        self, user_id: int, variant: Variant | str, *, vs_ai: bool = False
    ) -> UserStats:
        kind = Variant(variant)
        row = await self._fetch_one(
            f"SELECT {_STATS_COLUMNS} FROM user_stats "
            "WHERE user_id = ? AND variant = ? AND vs_ai = ?",
            (user_id, kind.value, int(vs_ai)),
        )
        if row is None:
            return UserStats(user_id=user_id, variant=kind, vs_ai=vs_ai)
        return _stats_from_row(row)

    async def list_user_stats(self, user_id: int) -> list[UserStats]:
        rows = await self._fetch_all(
            f"SELECT {_STATS_COLUMNS} FROM user_stats WHERE user_id = ? ORDER BY variant, vs_ai",
            (user_id,),
        )
        return [_stats_from_row(row) for row in rows]

    async def get_rating(self, user_id: int, variant: Variant | str) -> Rating:
        kind = Variant(variant)
        row = await self._fetch_one(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE user_id = ? AND variant = ?",
            (user_id, kind.value),
        )
        if row is None:
            return Rating(user_id, kind, INITIAL_RATING, 0, INITIAL_RATING, None)
        return _rating_from_row(row)

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

    async def mark_update_processed(self, update_id: int) -> bool:
        now = self._now()
        async with self._pool.transaction(starts_with_write=True) as conn:
            return await self._claim_update(conn, update_id, now)

    async def prune_processed_updates(self, older_than: timedelta = timedelta(days=2)) -> int:
        cutoff = _us(self._clock() - older_than)
        async with self._pool.transaction(starts_with_write=True) as conn:
            cursor = await conn.execute(
                "DELETE FROM processed_updates WHERE processed_at < ?", (cutoff,)
            )
            return cursor.rowcount
