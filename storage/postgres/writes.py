"""Write transactions for PostgreSQL, as coroutines run inside one ``BEGIN`` ... ``COMMIT``.

Each public function here is a whole transaction body: :meth:`PostgresStorage._write` opens the
transaction on a pooled connection, awaits the body and commits (or rolls back if it raised).
They take the current time (read on the event loop) and arguments already validated.

Where SQLite serialises writers (one write lock), PostgreSQL runs them side by side at READ
COMMITTED, so the bodies lock what they read before deciding on it:

* a game write is ``UPDATE ... WHERE version = $expected``: a concurrent writer of the same row
  waits for the first to commit, then re-checks the condition against the new version and
  updates nothing; the row version is the lock, as in SQLite;
* an update claim is ``INSERT ... ON CONFLICT DO NOTHING``: the second claimant waits for the
  first transaction and inserts only if it rolled back;
* ratings are read ``FOR UPDATE`` (rows created first if missing), so two games finishing at
  once for one player both count; every multi-row lock is taken in ``user_id`` order, so two
  such transactions cannot deadlock;
* an invitation is read ``FOR UPDATE`` before it is answered, so of two people accepting at
  once the second sees it accepted;
* the one-active-game rule is the partial unique index; the insert runs in a savepoint so that
  losing that race reports :class:`~storage.errors.ActiveGameExistsError`.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, ParamSpec, TypeVar

import asyncpg

from storage import rating as elo
from storage.errors import (
    ActiveGameExistsError,
    ClaimRefusedError,
    DuplicateUpdateError,
    GameNotActiveError,
    InvitationExpiredError,
    InvitationNotForYouError,
    InvitationNotPendingError,
    NotFoundError,
    OfferError,
    StaleVersionError,
)
from storage.models import (
    INITIAL_RATING,
    AbandonOffer,
    AcceptedInvitation,
    Chat,
    ChatType,
    ClockUpdate,
    Colour,
    DiceRolls,
    EndReason,
    FinishedGame,
    Game,
    GameMessage,
    GameResult,
    Invitation,
    InvitationState,
    NewGame,
    NewMove,
    RatingChange,
    User,
    Variant,
)
from storage.postgres import clocks, dice
from storage.sqlite.rows import (
    CHAT_COLUMNS,
    CLOCK_COLUMNS,
    GAME_COLUMNS,
    INVITATION_COLUMNS,
    MESSAGE_COLUMNS,
    MOVE_COLUMNS,
    OFFER_COLUMNS,
    STAT_COUNTERS,
    STATS_COLUMNS,
    USER_COLUMNS,
    chat_from_row,
    clock_from_row,
    dump_options,
    game_from_row,
    invitation_from_row,
    message_from_row,
    offer_from_row,
    statistics_increments,
    to_us,
    user_from_row,
)

Conn = asyncpg.Connection
P = ParamSpec("P")
T = TypeVar("T")


def marks(count: int, start: int = 1) -> str:
    """``$1, $2, ...``: PostgreSQL's numbered placeholders."""
    return ", ".join(f"${n}" for n in range(start, start + count))


async def _require(
    conn: Conn, *, user_ids: Iterable[int | None] = (), chat_id: int | None = None
) -> None:
    """Raise NotFoundError naming the missing user or chat, rather than a bare FK error."""
    wanted = sorted({uid for uid in user_ids if uid is not None})
    if wanted:
        rows = await conn.fetch("SELECT user_id FROM users WHERE user_id = ANY($1)", wanted)
        missing = set(wanted) - {row[0] for row in rows}
        if missing:
            raise NotFoundError("user", min(missing))
    if (
        chat_id is not None
        and await conn.fetchval("SELECT 1 FROM chats WHERE chat_id = $1", chat_id) is None
    ):
        raise NotFoundError("chat", chat_id)


# -- users and chats ---------------------------------------------------------------------------


async def upsert_user(
    conn: Conn,
    user_id: int,
    display_name: str,
    username: str | None,
    language: str | None,
    now: int,
) -> User:
    row = await conn.fetchrow(
        f"INSERT INTO users ({USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $5) "
        "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, "
        "username = excluded.username, "
        "language = COALESCE(excluded.language, users.language), "
        "updated_at = excluded.updated_at "
        f"RETURNING {USER_COLUMNS}",
        user_id,
        display_name,
        username,
        language,
        now,
    )
    return user_from_row(row)


async def set_picker_way(conn: Conn, user_id: int, way: str, now: int) -> None:
    await _require(conn, user_ids=(user_id,))
    await conn.execute(
        "INSERT INTO player_settings (user_id, picker_way, updated_at) VALUES ($1, $2, $3) "
        "ON CONFLICT (user_id) DO UPDATE SET picker_way = excluded.picker_way, "
        "updated_at = excluded.updated_at",
        user_id,
        way,
        now,
    )


async def upsert_chat(
    conn: Conn, chat_id: int, chat_type: ChatType, title: str | None, now: int
) -> Chat:
    row = await conn.fetchrow(
        "INSERT INTO chats (chat_id, chat_type, title, created_at, updated_at) "
        "VALUES ($1, $2, $3, $4, $4) "
        "ON CONFLICT (chat_id) DO UPDATE SET chat_type = excluded.chat_type, "
        "title = excluded.title, updated_at = excluded.updated_at "
        f"RETURNING {CHAT_COLUMNS}",
        chat_id,
        chat_type.value,
        title,
        now,
    )
    return chat_from_row(row)


async def update_chat(conn: Conn, chat_id: int, changes: Sequence[tuple[str, Any]]) -> Chat:
    """``changes`` are (column, value) pairs whose column names come from the store's code."""
    assignments = ", ".join(f"{column} = ${n}" for n, (column, _) in enumerate(changes, start=2))
    row = await conn.fetchrow(
        f"UPDATE chats SET {assignments} WHERE chat_id = $1 RETURNING {CHAT_COLUMNS}",
        chat_id,
        *(value for _, value in changes),
    )
    if row is None:
        raise NotFoundError("chat", chat_id)
    return chat_from_row(row)


# -- games -------------------------------------------------------------------------------------


async def _active_game_id(conn: Conn, chat_id: int, thread_id: int) -> int | None:
    value = await conn.fetchval(
        "SELECT game_id FROM games WHERE chat_id = $1 AND thread_id = $2 AND status = 'active' "
        "AND inline_message_id IS NULL",
        chat_id,
        thread_id,
    )
    return None if value is None else int(value)


async def insert_game(conn: Conn, new: NewGame, variant: Variant, now: int) -> Game:
    existing = None
    if new.inline_message_id is None:  # a game in an inline message does not hold its chat
        existing = await _active_game_id(conn, new.chat_id, new.thread_id)
    if existing is not None:
        raise ActiveGameExistsError(new.chat_id, new.thread_id, existing)
    await _require(conn, user_ids=(new.white_user_id, new.black_user_id), chat_id=new.chat_id)
    try:
        async with conn.transaction():  # a savepoint: losing the race below is reported
            row = await conn.fetchrow(
                "INSERT INTO games (variant, status, chat_id, thread_id, white_user_id, "
                "black_user_id, ai_level, match_length, options_json, state, version, "
                "move_count, created_at, updated_at, dice_seed_id, inline_message_id) "
                "VALUES ($1, 'active', $2, $3, $4, $5, $6, $7, $8, $9, 1, 0, $10, $10, $11, $12) "
                f"RETURNING {GAME_COLUMNS}",
                variant.value,
                new.chat_id,
                new.thread_id,
                new.white_user_id,
                new.black_user_id,
                new.ai_level,
                new.match_length,
                dump_options(new.options),
                new.state,
                now,
                new.dice_seed_id,
                new.inline_message_id,
            )
    except asyncpg.UniqueViolationError as exc:
        if exc.constraint_name != "games_one_active_per_topic":
            raise
        # Another transaction created the chat's game after our check and has committed
        # (the unique index made us wait for it), so it is visible now.
        winner = await _active_game_id(conn, new.chat_id, new.thread_id)
        raise ActiveGameExistsError(new.chat_id, new.thread_id, winner) from exc
    game = game_from_row(row)
    await dice.append_dice(conn, game.dice_seed_id, new.dice)
    if new.clock is not None:
        await clocks.set_clock(conn, game.game_id, game.version, new.clock, now)
    return game


async def _write_game(
    conn: Conn,
    game_id: int,
    expected_version: int,
    *,
    state: str | None,
    moves: Sequence[NewMove],
    score: tuple[int, int] | None,
    update_id: int | None,
    now: int,
    extra_assignments: str = "",
    extra_params: Sequence[Any] = (),
) -> Game:
    """The optimistic write, in one statement: ``UPDATE games ... WHERE version = expected``,
    and only if it matched, the update claim, the clock following the new version (its
    abandonment time moved on by the time since its last write, as in SQLite's
    ``follow_version``; ``LEAST`` skips NULLs as ``next_due`` does), and the moves appended to
    the log numbered on from the new count (no gaps).  A typed error if the
    game was not written.  (One round trip where separate statements took four.)

    ``extra_assignments`` use placeholders from ``$8`` on, filled from ``extra_params``.
    """
    score_white, score_black = score if score is not None else (None, None)
    n = 8 + len(extra_params)  # the first placeholder after the extra ones
    sql = (
        "WITH g AS ("
        " UPDATE games SET state = COALESCE($3, state), version = version + 1,"
        " move_count = move_count + $4, score_white = COALESCE($5, score_white),"
        f" score_black = COALESCE($6, score_black), updated_at = $7{extra_assignments}"
        " WHERE game_id = $1 AND version = $2 AND status = 'active'"
        f" RETURNING {GAME_COLUMNS}"
        "), claimed AS ("
        " INSERT INTO processed_updates (update_id, processed_at)"
        f" SELECT ${n}::bigint, $7 FROM g WHERE ${n}::bigint IS NOT NULL"
        "), followed AS ("  # see storage.sqlite.clocks.follow_version
        " UPDATE game_clocks AS c SET game_version = g.version,"
        " abandon_at = c.abandon_at + GREATEST(0, $7 - c.updated_at),"
        " next_due_at = LEAST(CASE WHEN c.reminded = 0 THEN c.remind_at END,"
        "  CASE WHEN c.timed_out = 0 THEN c.deadline_at END,"
        "  c.abandon_at + GREATEST(0, $7 - c.updated_at)),"
        " updated_at = $7"
        " FROM g WHERE c.game_id = g.game_id"
        "), logged AS ("
        f" INSERT INTO moves ({MOVE_COLUMNS})"
        " SELECT g.game_id, g.move_count - $4 + m.ord, m.colour,"
        " CASE m.colour WHEN 'white' THEN g.white_user_id ELSE g.black_user_id END,"
        " m.die1, m.die2, m.play, m.position_id, g.version, $7"
        f" FROM g, unnest(${n + 1}::text[], ${n + 2}::smallint[], ${n + 3}::smallint[],"
        f" ${n + 4}::text[], ${n + 5}::text[])"
        " WITH ORDINALITY AS m (colour, die1, die2, play, position_id, ord)"
        ") SELECT * FROM g"
    )
    try:
        row = await conn.fetchrow(
            sql,
            game_id,
            expected_version,
            state,
            len(moves),
            score_white,
            score_black,
            now,
            *extra_params,
            update_id,
            [Colour(move.colour).value for move in moves],
            [None if move.dice is None else move.dice[0] for move in moves],
            [None if move.dice is None else move.dice[1] for move in moves],
            [move.play for move in moves],
            [move.position_id for move in moves],
        )
    except asyncpg.UniqueViolationError as exc:
        if exc.constraint_name != "processed_updates_pkey" or update_id is None:
            raise
        raise DuplicateUpdateError(update_id) from exc
    if row is not None:
        return game_from_row(row)
    # Nothing was written; say why, in the order the SQLite backend finds it.
    if update_id is not None and await conn.fetchval(
        "SELECT 1 FROM processed_updates WHERE update_id = $1", update_id
    ):
        raise DuplicateUpdateError(update_id)
    current = await conn.fetchrow("SELECT version, status FROM games WHERE game_id = $1", game_id)
    if current is None:
        raise NotFoundError("game", game_id)
    if current["version"] != expected_version:
        raise StaleVersionError(game_id, expected_version, current["version"])
    raise GameNotActiveError(game_id, current["status"])


def own_transaction(body: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Mark a body that opens its transaction itself (or needs none): the store runs it on a
    plain pooled connection."""
    body.own_transaction = True  # type: ignore[attr-defined]
    return body


@own_transaction
async def save_game(
    conn: Conn,
    game_id: int,
    expected_version: int,
    state: str,
    moves: Sequence[NewMove],
    score: tuple[int, int] | None,
    update_id: int | None,
    now: int,
    drawn: DiceRolls | None = None,
    clock: ClockUpdate | None = None,
) -> Game:
    """The tap's write.  Without dice or a clock it is the one statement of
    :func:`_write_game`, atomic by itself, so no ``BEGIN`` / ``COMMIT`` round trips."""
    write = functools.partial(
        _write_game,
        conn,
        game_id,
        expected_version,
        state=state,
        moves=moves,
        score=score,
        update_id=update_id,
        now=now,
    )
    if drawn is None and clock is None:
        return await write()
    async with conn.transaction():
        game = await write()
        await dice.append_dice(conn, game.dice_seed_id, drawn)
        if clock is not None:
            await clocks.set_clock(conn, game.game_id, game.version, clock, now)
    return game


async def finish_game(
    conn: Conn,
    game_id: int,
    expected_version: int,
    state: str,
    result: GameResult,
    moves: Sequence[NewMove],
    score: tuple[int, int] | None,
    update_id: int | None,
    now: int,
    drawn: DiceRolls | None = None,
    end_reason: EndReason | None = None,
) -> FinishedGame:
    game = await _write_game(
        conn,
        game_id,
        expected_version,
        state=state,
        moves=moves,
        score=score,
        update_id=update_id,
        now=now,
        extra_assignments=(
            ", status = 'finished', winner = $8, result_kind = $9, points = $10, "
            "finished_at = $7, end_reason = $11"
        ),
        extra_params=(
            result.winner.value,
            result.kind.value,
            result.points,
            None if end_reason is None else end_reason.value,
        ),
    )
    await dice.append_dice(conn, game.dice_seed_id, drawn)
    await clocks.drop(conn, game.game_id)
    await _record_statistics(conn, game, result)
    if game.vs_ai:
        return FinishedGame(game=game, rating_changes=())
    changes = await _record_ratings(conn, game, result, now)
    by_colour = {change.colour: change.delta for change in changes}
    row = await conn.fetchrow(
        "UPDATE games SET white_rating_change = $2, black_rating_change = $3 "
        f"WHERE game_id = $1 RETURNING {GAME_COLUMNS}",
        game.game_id,
        by_colour[Colour.WHITE],
        by_colour[Colour.BLACK],
    )
    return FinishedGame(game=game_from_row(row), rating_changes=changes)


async def _record_statistics(conn: Conn, game: Game, result: GameResult) -> None:
    """One upsert per human seat: every counter is added, so a missing row starts at zero."""
    increments = ", ".join(
        f"{name} = user_stats.{name} + excluded.{name}" for name in STAT_COUNTERS
    )
    await conn.executemany(
        f"INSERT INTO user_stats ({STATS_COLUMNS}) VALUES ({marks(3 + len(STAT_COUNTERS))}) "
        f"ON CONFLICT (user_id, variant, vs_ai) DO UPDATE SET {increments}",
        statistics_increments(game, result),
    )


async def _record_ratings(
    conn: Conn, game: Game, result: GameResult, now: int
) -> tuple[RatingChange, ...]:
    winner_id = game.user_id_of(result.winner)
    loser_id = game.user_id_of(result.winner.opponent)
    assert winner_id is not None and loser_id is not None
    players = sorted((winner_id, loser_id))
    variant = game.variant.value
    # Make sure both rows exist, then lock them: a read without the lock could be overtaken by
    # another game of the same player finishing at this moment, and its change lost.
    await conn.execute(
        "INSERT INTO ratings (user_id, variant, rating, games, peak, updated_at) "
        "SELECT u, $2, $3, 0, $3, $4 FROM unnest($1::bigint[]) AS u ORDER BY u "
        "ON CONFLICT (user_id, variant) DO NOTHING",
        players,
        variant,
        INITIAL_RATING,
        now,
    )
    rows = await conn.fetch(
        "SELECT user_id, rating, games FROM ratings WHERE variant = $1 AND user_id = ANY($2) "
        "ORDER BY user_id FOR UPDATE",
        variant,
        players,
    )
    current = {row["user_id"]: (float(row["rating"]), row["games"]) for row in rows}
    winner_before, winner_games = current[winner_id]
    loser_before, loser_games = current[loser_id]
    update = elo.elo_update(
        winner_before, winner_games, loser_before, loser_games, game.match_length
    )
    await conn.executemany(
        "UPDATE ratings SET rating = $3, games = games + 1, peak = GREATEST(peak, $3), "
        "updated_at = $4 WHERE user_id = $1 AND variant = $2",
        sorted(
            (user_id, variant, after, now)
            for user_id, after in ((winner_id, update.winner_after), (loser_id, update.loser_after))
        ),
    )
    return (
        RatingChange(winner_id, result.winner, winner_before, update.winner_after),
        RatingChange(loser_id, result.winner.opponent, loser_before, update.loser_after),
    )


async def abandon_game(
    conn: Conn,
    game_id: int,
    expected_version: int,
    state: str | None,
    update_id: int | None,
    now: int,
    reason: EndReason | None = None,
) -> Game:
    game = await _write_game(
        conn,
        game_id,
        expected_version,
        state=state,
        moves=(),
        score=None,
        update_id=update_id,
        now=now,
        extra_assignments=", status = 'abandoned', finished_at = $7, end_reason = $8",
        extra_params=(None if reason is None else reason.value,),
    )
    await clocks.drop(conn, game.game_id)
    return game


# -- move clocks and ending without play ---------------------------------------------------------


async def _locked_game(conn: Conn, game_id: int) -> Game:
    """The game row, locked until the transaction ends: the checks below are made on the
    version no other writer can change before this transaction's own write."""
    row = await conn.fetchrow(
        f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = $1 FOR UPDATE", game_id
    )
    if row is None:
        raise NotFoundError("game", game_id)
    return game_from_row(row)


async def claim_timeout(
    conn: Conn,
    game_id: int,
    expected_version: int,
    claimant_id: int,
    state: str,
    result: GameResult,
    moves: Sequence[NewMove],
    score: tuple[int, int] | None,
    update_id: int | None,
    now: int,
) -> FinishedGame:
    """The waiting player claims a game whose move clock ran out (as in the SQLite body): the
    checks and the finish in one transaction, on the locked game row."""
    game = await _locked_game(conn, game_id)
    if game.status.value != "active":
        raise GameNotActiveError(game_id, game.status.value)
    if game.version != expected_version:
        raise StaleVersionError(game_id, expected_version, game.version)
    row = await conn.fetchrow(
        f"SELECT {CLOCK_COLUMNS} FROM game_clocks WHERE game_id = $1", game_id
    )
    clock = None if row is None else clock_from_row(row)
    if game.colour_of(claimant_id) is None:
        raise ClaimRefusedError(game_id, "not_a_player")
    if clock is None or clock.deadline_at is None:
        raise ClaimRefusedError(game_id, "no_clock")
    if claimant_id == clock.on_clock_user_id:
        raise ClaimRefusedError(game_id, "on_clock")
    if to_us(clock.deadline_at) > now:
        raise ClaimRefusedError(game_id, "not_expired")
    if game.user_id_of(result.winner) != claimant_id:
        raise ValueError("a timeout claim is won by the claimant")
    return await finish_game(
        conn,
        game_id,
        expected_version,
        state,
        result,
        moves,
        score,
        update_id,
        now,
        end_reason=EndReason.TIMEOUT,
    )


async def fire_abandon(conn: Conn, game_id: int, game_version: int, now: int) -> Game | None:
    """Close a game nobody has touched for the abandonment period, exactly once: None if it
    was already closed, moved on, or is not due yet (of two schedulers, the second waits for
    the game row's lock, then finds it closed)."""
    try:
        await _locked_game(conn, game_id)
    except NotFoundError:
        return None
    due = await conn.fetchval(
        "SELECT 1 FROM game_clocks JOIN games USING (game_id) WHERE game_id = $1 "
        "AND game_clocks.game_version = $2 AND games.version = $2 AND games.status = 'active' "
        "AND abandon_at IS NOT NULL AND abandon_at <= $3",
        game_id,
        game_version,
        now,
    )
    if due is None:
        return None
    return await abandon_game(conn, game_id, game_version, None, None, now, EndReason.INACTIVE)


async def offer_abandon(
    conn: Conn, game_id: int, user_id: int, expected_version: int, now: int
) -> AbandonOffer:
    """A player offers to abandon the game; the offer lapses with the next write of the game."""
    game = await _locked_game(conn, game_id)
    if game.status.value != "active":
        raise GameNotActiveError(game_id, game.status.value)
    if game.version != expected_version:
        raise StaleVersionError(game_id, expected_version, game.version)
    if game.colour_of(user_id) is None:
        raise OfferError(game_id, "not_a_player")
    row = await conn.fetchrow(
        "INSERT INTO game_offers (game_id, kind, offered_by, game_version, created_at) "
        "VALUES ($1, 'abandon', $2, $3, $4) ON CONFLICT (game_id, kind) DO UPDATE SET "
        "offered_by = excluded.offered_by, game_version = excluded.game_version, "
        f"created_at = excluded.created_at RETURNING {OFFER_COLUMNS}",
        game_id,
        user_id,
        game.version,
        now,
    )
    return offer_from_row(row)


async def withdraw_offer(conn: Conn, game_id: int, user_id: int) -> bool:
    """Either player withdraws (offerer) or declines (opponent) the offer; True if one stood."""
    game = await _locked_game(conn, game_id)
    if game.colour_of(user_id) is None:
        raise OfferError(game_id, "not_a_player")
    deleted = await conn.fetchval(
        "DELETE FROM game_offers WHERE game_id = $1 AND kind = 'abandon' RETURNING game_id",
        game_id,
    )
    return deleted is not None


async def accept_abandon(
    conn: Conn,
    game_id: int,
    user_id: int,
    expected_version: int,
    update_id: int | None,
    now: int,
) -> Game:
    """The other player accepts a standing offer made at this very version: the game is
    abandoned by agreement, with no statistics or rating change."""
    game = await _locked_game(conn, game_id)
    if game.colour_of(user_id) is None:
        raise OfferError(game_id, "not_a_player")
    row = await conn.fetchrow(
        f"SELECT {OFFER_COLUMNS} FROM game_offers WHERE game_id = $1 AND kind = 'abandon'",
        game_id,
    )
    offer = None if row is None else offer_from_row(row)
    if offer is None or offer.game_version != game.version:
        raise OfferError(game_id, "no_offer")
    if offer.offered_by == user_id:
        raise OfferError(game_id, "own_offer")
    return await abandon_game(
        conn, game_id, expected_version, None, update_id, now, EndReason.AGREEMENT
    )


# -- board messages ----------------------------------------------------------------------------


async def set_game_message(
    conn: Conn,
    game_id: int,
    chat_id: int,
    message_id: int,
    thread_id: int,
    kind: str,
    now: int,
) -> GameMessage:
    if await conn.fetchval("SELECT 1 FROM games WHERE game_id = $1", game_id) is None:
        raise NotFoundError("game", game_id)
    row = await conn.fetchrow(
        f"INSERT INTO game_messages ({MESSAGE_COLUMNS}) VALUES ({marks(6)}) "
        "ON CONFLICT (game_id, chat_id, thread_id, kind) DO UPDATE SET "
        "message_id = excluded.message_id, updated_at = excluded.updated_at "
        f"RETURNING {MESSAGE_COLUMNS}",
        game_id,
        chat_id,
        thread_id,
        kind,
        message_id,
        now,
    )
    return message_from_row(row)


async def delete_game_message(
    conn: Conn, game_id: int, chat_id: int, thread_id: int, kind: str
) -> bool:
    deleted = await conn.fetchval(
        "DELETE FROM game_messages "
        "WHERE game_id = $1 AND chat_id = $2 AND thread_id = $3 AND kind = $4 RETURNING game_id",
        game_id,
        chat_id,
        thread_id,
        kind,
    )
    return deleted is not None


# -- invitations -------------------------------------------------------------------------------


async def insert_invitation(
    conn: Conn,
    token: str,
    inviter_id: int,
    invitee_id: int | None,
    chat_id: int | None,
    thread_id: int,
    variant: Variant,
    match_length: int,
    options_json: str,
    expires_at: int,
    now: int,
    dice_seed_id: int | None = None,
    invitee_username: str | None = None,
) -> Invitation:
    await _require(conn, user_ids=(inviter_id, invitee_id), chat_id=chat_id)
    row = await conn.fetchrow(
        "INSERT INTO invitations (token, inviter_id, invitee_id, chat_id, thread_id, variant, "
        "match_length, options_json, state, created_at, expires_at, dice_seed_id, "
        "invitee_username) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10, $11, $12) "
        f"RETURNING {INVITATION_COLUMNS}",
        token,
        inviter_id,
        invitee_id,
        chat_id,
        thread_id,
        variant.value,
        match_length,
        options_json,
        now,
        expires_at,
        dice_seed_id,
        invitee_username,
    )
    return invitation_from_row(row)


async def _pending_invitation(conn: Conn, token: str) -> Invitation:
    """The invitation, locked until the transaction ends, if it is still pending."""
    row = await conn.fetchrow(
        f"SELECT {INVITATION_COLUMNS} FROM invitations WHERE token = $1 FOR UPDATE", token
    )
    if row is None:
        raise NotFoundError("invitation", token)
    invitation = invitation_from_row(row)
    if invitation.state is not InvitationState.PENDING:
        raise InvitationNotPendingError(token, invitation.state.value)
    return invitation


def _may_answer(invitation: Invitation, user_id: int) -> bool:
    """Anyone but the inviter for an open invitation; only the invitee for a personal one."""
    return user_id != invitation.inviter_id and invitation.invitee_id in (None, user_id)


async def _resolve(
    conn: Conn,
    token: str,
    state: InvitationState,
    now: int,
    *,
    accepted_by: int | None = None,
    game_id: int | None = None,
) -> Invitation:
    row = await conn.fetchrow(
        "UPDATE invitations SET state = $2, resolved_at = $3, accepted_by = $4, game_id = $5 "
        f"WHERE token = $1 AND state = 'pending' RETURNING {INVITATION_COLUMNS}",
        token,
        state.value,
        now,
        accepted_by,
        game_id,
    )
    assert row is not None  # locked pending in this same transaction
    return invitation_from_row(row)


async def accept_invitation(
    conn: Conn,
    token: str,
    user_id: int,
    game: NewGame | None,
    variant: Variant | None,
    now: int,
) -> AcceptedInvitation:
    invitation = await _pending_invitation(conn, token)
    if now >= to_us(invitation.expires_at):
        raise InvitationExpiredError(token)
    if not _may_answer(invitation, user_id):
        raise InvitationNotForYouError(token, user_id)
    await _require(conn, user_ids=(user_id,))
    created = None
    if game is not None and variant is not None:
        if {game.white_user_id, game.black_user_id} != {invitation.inviter_id, user_id}:
            raise ValueError("the game must seat the inviter and the accepting user")
        created = await insert_game(conn, game, variant, now)
    accepted = await _resolve(
        conn,
        token,
        InvitationState.ACCEPTED,
        now,
        accepted_by=user_id,
        game_id=None if created is None else created.game_id,
    )
    return AcceptedInvitation(invitation=accepted, game=created)


async def decline_invitation(conn: Conn, token: str, user_id: int, now: int) -> Invitation:
    invitation = await _pending_invitation(conn, token)
    if not _may_answer(invitation, user_id):
        raise InvitationNotForYouError(token, user_id)
    return await _resolve(conn, token, InvitationState.DECLINED, now)


async def cancel_invitation(conn: Conn, token: str, user_id: int, now: int) -> Invitation:
    invitation = await _pending_invitation(conn, token)
    if user_id != invitation.inviter_id:
        raise InvitationNotForYouError(token, user_id)
    return await _resolve(conn, token, InvitationState.CANCELLED, now)


async def expire_invitations(conn: Conn, moment: int) -> list[Invitation]:
    rows = await conn.fetch(
        "UPDATE invitations SET state = 'expired', resolved_at = $1 "
        f"WHERE state = 'pending' AND expires_at <= $1 RETURNING {INVITATION_COLUMNS}",
        moment,
    )
    return sorted((invitation_from_row(row) for row in rows), key=lambda i: i.token)


# -- Telegram updates --------------------------------------------------------------------------


async def claim_update(conn: Conn, update_id: int, now: int) -> bool:
    """Insert the update id; False if it was there already (then nothing was written).

    A concurrent claim of the same id waits for this transaction: it inserts if this one rolls
    back, and finds the row if it commits.
    """
    claimed = await conn.fetchval(
        "INSERT INTO processed_updates (update_id, processed_at) VALUES ($1, $2) "
        "ON CONFLICT (update_id) DO NOTHING RETURNING update_id",
        update_id,
        now,
    )
    return claimed is not None


async def mark_inline_lost(conn: Conn, inline_message_id: str, now: int) -> bool:
    """Record that the bot can no longer edit an inline message; True the first time."""
    marked = await conn.fetchval(
        "INSERT INTO inline_messages_lost (inline_message_id, lost_at) VALUES ($1, $2) "
        "ON CONFLICT (inline_message_id) DO NOTHING RETURNING inline_message_id",
        inline_message_id,
        now,
    )
    return marked is not None


async def prune_updates(conn: Conn, cutoff: int) -> int:
    status = await conn.execute("DELETE FROM processed_updates WHERE processed_at < $1", cutoff)
    return int(status.split()[-1])  # "DELETE <count>"
