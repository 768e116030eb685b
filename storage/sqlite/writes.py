"""Write transactions, as plain functions run in the writer thread.

Each public function here is a whole transaction body: :meth:`ConnectionThread.transaction` wraps
it in ``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` if it raises), in one trip to the
writer thread.  They take the current time as an argument (the store's clock is read on the
event loop) and validated arguments (checks happen before a transaction is queued).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

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
from storage.sqlite import clocks, dice
from storage.sqlite.rows import (
    CHAT_COLUMNS,
    CLOCK_COLUMNS,
    GAME_COLUMNS,
    INVITATION_COLUMNS,
    MESSAGE_COLUMNS,
    MOVE_COLUMNS,
    OFFER_COLUMNS,
    RATING_COLUMNS,
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

Row = sqlite3.Row


def _one(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> Row | None:
    row: Row | None = conn.execute(sql, params).fetchone()
    return row


def _all(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    return conn.execute(sql, params).fetchall()


def _require(
    conn: sqlite3.Connection, *, user_ids: Iterable[int | None] = (), chat_id: int | None = None
) -> None:
    """Raise NotFoundError naming the missing user or chat, rather than a bare FK error."""
    wanted = sorted({uid for uid in user_ids if uid is not None})
    if wanted:
        marks = ", ".join("?" * len(wanted))
        rows = _all(conn, f"SELECT user_id FROM users WHERE user_id IN ({marks})", wanted)
        missing = set(wanted) - {row[0] for row in rows}
        if missing:
            raise NotFoundError("user", min(missing))
    if (
        chat_id is not None
        and _one(conn, "SELECT 1 FROM chats WHERE chat_id = ?", (chat_id,)) is None
    ):
        raise NotFoundError("chat", chat_id)


def _claim_update(conn: sqlite3.Connection, update_id: int | None, now: int) -> None:
    """Mark the update processed in the caller's transaction, or raise if it already was."""
    if update_id is not None and not claim_update(conn, update_id, now):
        raise DuplicateUpdateError(update_id)


# -- users and chats ---------------------------------------------------------------------------


def upsert_user(
    conn: sqlite3.Connection,
    user_id: int,
    display_name: str,
    username: str | None,
    language: str | None,
    now: int,
) -> User:
    row = _one(
        conn,
        f"INSERT INTO users ({USER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, "
        "username = excluded.username, "
        "language = COALESCE(excluded.language, users.language), "
        "updated_at = excluded.updated_at "
        f"RETURNING {USER_COLUMNS}",
        (user_id, display_name, username, language, now, now),
    )
    assert row is not None
    return user_from_row(row)


def set_picker_way(conn: sqlite3.Connection, user_id: int, way: str, now: int) -> None:
    _require(conn, user_ids=(user_id,))
    conn.execute(
        "INSERT INTO player_settings (user_id, picker_way, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET picker_way = excluded.picker_way, "
        "updated_at = excluded.updated_at",
        (user_id, way, now),
    )


def upsert_chat(
    conn: sqlite3.Connection, chat_id: int, chat_type: ChatType, title: str | None, now: int
) -> Chat:
    row = _one(
        conn,
        "INSERT INTO chats (chat_id, chat_type, title, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (chat_id) DO UPDATE SET chat_type = excluded.chat_type, "
        "title = excluded.title, updated_at = excluded.updated_at "
        f"RETURNING {CHAT_COLUMNS}",
        (chat_id, chat_type.value, title, now, now),
    )
    assert row is not None
    return chat_from_row(row)


def update_chat(conn: sqlite3.Connection, chat_id: int, changes: Sequence[tuple[str, Any]]) -> Chat:
    """``changes`` are (column, value) pairs whose column names come from the store's code."""
    assignments = ", ".join(f"{column} = ?" for column, _ in changes)
    row = _one(
        conn,
        f"UPDATE chats SET {assignments} WHERE chat_id = ? RETURNING {CHAT_COLUMNS}",
        [value for _, value in changes] + [chat_id],
    )
    if row is None:
        raise NotFoundError("chat", chat_id)
    return chat_from_row(row)


# -- games -------------------------------------------------------------------------------------


def insert_game(conn: sqlite3.Connection, new: NewGame, variant: Variant, now: int) -> Game:
    existing = None
    if new.inline_message_id is None:  # a game in an inline message does not hold its chat
        existing = _one(
            conn,
            "SELECT game_id FROM games WHERE chat_id = ? AND thread_id = ? AND status = 'active' "
            "AND inline_message_id IS NULL",
            (new.chat_id, new.thread_id),
        )
    if existing is not None:
        raise ActiveGameExistsError(new.chat_id, new.thread_id, existing["game_id"])
    _require(conn, user_ids=(new.white_user_id, new.black_user_id), chat_id=new.chat_id)
    row = _one(
        conn,
        "INSERT INTO games (variant, status, chat_id, thread_id, white_user_id, black_user_id, "
        "ai_level, match_length, options_json, state, version, move_count, created_at, "
        "updated_at, dice_seed_id, inline_message_id) "
        "VALUES (?, 'active', ?, ?, ?, ?, ?, ?, ?, ?, 1, 0, ?, ?, ?, ?) "
        f"RETURNING {GAME_COLUMNS}",
        (
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
            now,
            new.dice_seed_id,
            new.inline_message_id,
        ),
    )
    assert row is not None
    game = game_from_row(row)
    dice.append_dice(conn, game.dice_seed_id, new.dice)
    if new.clock is not None:
        clocks.set_clock(conn, game.game_id, game.version, new.clock, now)
    return game


def _write_game(
    conn: sqlite3.Connection,
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
    row = _one(
        conn,
        "UPDATE games SET state = COALESCE(?, state), version = version + 1, "
        "move_count = move_count + ?, score_white = COALESCE(?, score_white), "
        f"score_black = COALESCE(?, score_black), updated_at = ?{extra_assignments} "
        "WHERE game_id = ? AND version = ? AND status = 'active' "
        f"RETURNING {GAME_COLUMNS}",
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
        game = game_from_row(row)
        clocks.follow_version(conn, game.game_id, game.version, now)
        return game
    current = _one(conn, "SELECT version, status FROM games WHERE game_id = ?", (game_id,))
    if current is None:
        raise NotFoundError("game", game_id)
    if current["version"] != expected_version:
        raise StaleVersionError(game_id, expected_version, current["version"])
    raise GameNotActiveError(game_id, current["status"])


def _append_moves(conn: sqlite3.Connection, game: Game, moves: Sequence[NewMove], now: int) -> None:
    """Append to the log, numbered on from the count the UPDATE just returned: no gaps."""
    if not moves:
        return
    first_seq = game.move_count - len(moves) + 1
    conn.executemany(
        f"INSERT INTO moves ({MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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


def save_game(
    conn: sqlite3.Connection,
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
    _claim_update(conn, update_id, now)
    game = _write_game(
        conn,
        game_id,
        expected_version,
        state=state,
        added_moves=len(moves),
        score=score,
        now=now,
    )
    _append_moves(conn, game, moves, now)
    dice.append_dice(conn, game.dice_seed_id, drawn)
    if clock is not None:
        clocks.set_clock(conn, game.game_id, game.version, clock, now)
    return game


def finish_game(
    conn: sqlite3.Connection,
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
    _claim_update(conn, update_id, now)
    game = _write_game(
        conn,
        game_id,
        expected_version,
        state=state,
        added_moves=len(moves),
        score=score,
        now=now,
        extra_assignments=(
            ", status = 'finished', winner = ?, result_kind = ?, points = ?, finished_at = ?, "
            "end_reason = ?"
        ),
        extra_params=(
            result.winner.value,
            result.kind.value,
            result.points,
            now,
            None if end_reason is None else end_reason.value,
        ),
    )
    _append_moves(conn, game, moves, now)
    dice.append_dice(conn, game.dice_seed_id, drawn)
    clocks.drop(conn, game.game_id)
    _record_statistics(conn, game, result)
    if game.vs_ai:
        return FinishedGame(game=game, rating_changes=())
    changes = _record_ratings(conn, game, result, now)
    by_colour = {change.colour: change.delta for change in changes}
    row = _one(
        conn,
        "UPDATE games SET white_rating_change = ?, black_rating_change = ? "
        f"WHERE game_id = ? RETURNING {GAME_COLUMNS}",
        (by_colour[Colour.WHITE], by_colour[Colour.BLACK], game.game_id),
    )
    assert row is not None
    return FinishedGame(game=game_from_row(row), rating_changes=changes)


def _record_statistics(conn: sqlite3.Connection, game: Game, result: GameResult) -> None:
    """One upsert per human seat: every counter is added, so a missing row starts at zero."""
    increments = ", ".join(f"{name} = {name} + excluded.{name}" for name in STAT_COUNTERS)
    conn.executemany(
        f"INSERT INTO user_stats ({STATS_COLUMNS}) "
        f"VALUES ({', '.join('?' * (3 + len(STAT_COUNTERS)))}) "
        f"ON CONFLICT (user_id, variant, vs_ai) DO UPDATE SET {increments}",
        statistics_increments(game, result),
    )


def _record_ratings(
    conn: sqlite3.Connection, game: Game, result: GameResult, now: int
) -> tuple[RatingChange, ...]:
    winner_id = game.user_id_of(result.winner)
    loser_id = game.user_id_of(result.winner.opponent)
    assert winner_id is not None and loser_id is not None
    rows = _all(
        conn,
        "SELECT user_id, rating, games FROM ratings WHERE variant = ? AND user_id IN (?, ?)",
        (game.variant.value, winner_id, loser_id),
    )
    current = {row["user_id"]: (float(row["rating"]), row["games"]) for row in rows}
    winner_before, winner_games = current.get(winner_id, (INITIAL_RATING, 0))
    loser_before, loser_games = current.get(loser_id, (INITIAL_RATING, 0))
    update = elo.elo_update(
        winner_before, winner_games, loser_before, loser_games, game.match_length
    )
    conn.executemany(
        f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, 1, ?, ?) "
        "ON CONFLICT (user_id, variant) DO UPDATE SET rating = excluded.rating, "
        "games = ratings.games + 1, peak = MAX(ratings.peak, excluded.rating), "
        "updated_at = excluded.updated_at",
        [
            (user_id, game.variant.value, after, max(INITIAL_RATING, after), now)
            for user_id, after in (
                (winner_id, update.winner_after),
                (loser_id, update.loser_after),
            )
        ],
    )
    return (
        RatingChange(winner_id, result.winner, winner_before, update.winner_after),
        RatingChange(loser_id, result.winner.opponent, loser_before, update.loser_after),
    )


def abandon_game(
    conn: sqlite3.Connection,
    game_id: int,
    expected_version: int,
    state: str | None,
    update_id: int | None,
    now: int,
    reason: EndReason | None = None,
) -> Game:
    _claim_update(conn, update_id, now)
    game = _write_game(
        conn,
        game_id,
        expected_version,
        state=state,
        added_moves=0,
        score=None,
        now=now,
        extra_assignments=", status = 'abandoned', finished_at = ?, end_reason = ?",
        extra_params=(now, None if reason is None else reason.value),
    )
    clocks.drop(conn, game.game_id)
    return game


# -- move clocks and ending without play ---------------------------------------------------------


def _game_row(conn: sqlite3.Connection, game_id: int) -> Game:
    row = _one(conn, f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,))
    if row is None:
        raise NotFoundError("game", game_id)
    return game_from_row(row)


def claim_timeout(
    conn: sqlite3.Connection,
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
    """The waiting player claims a game whose move clock ran out: scored by the engine as the
    other player's resignation, finished with statistics and ratings like any game, in one
    transaction with the checks (so a last-second move, which changes the version, wins)."""
    game = _game_row(conn, game_id)
    if game.status.value != "active":
        raise GameNotActiveError(game_id, game.status.value)
    if game.version != expected_version:
        raise StaleVersionError(game_id, expected_version, game.version)
    row = _one(conn, f"SELECT {CLOCK_COLUMNS} FROM game_clocks WHERE game_id = ?", (game_id,))
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
    return finish_game(
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


def fire_abandon(
    conn: sqlite3.Connection, game_id: int, game_version: int, now: int
) -> Game | None:
    """Close a game nobody has touched for the abandonment period, exactly once: None if it
    was already closed, moved on, or is not due yet."""
    row = _one(
        conn,
        "SELECT 1 FROM game_clocks JOIN games USING (game_id) WHERE game_id = ? "
        "AND game_clocks.game_version = ? AND games.version = ? AND games.status = 'active' "
        "AND abandon_at IS NOT NULL AND abandon_at <= ?",
        (game_id, game_version, game_version, now),
    )
    if row is None:
        return None
    return abandon_game(conn, game_id, game_version, None, None, now, EndReason.INACTIVE)


def offer_abandon(
    conn: sqlite3.Connection, game_id: int, user_id: int, expected_version: int, now: int
) -> AbandonOffer:
    """A player offers to abandon the game; the offer lapses with the next write of the game."""
    game = _game_row(conn, game_id)
    if game.status.value != "active":
        raise GameNotActiveError(game_id, game.status.value)
    if game.version != expected_version:
        raise StaleVersionError(game_id, expected_version, game.version)
    if game.colour_of(user_id) is None:
        raise OfferError(game_id, "not_a_player")
    row = _one(
        conn,
        "INSERT INTO game_offers (game_id, kind, offered_by, game_version, created_at) "
        "VALUES (?, 'abandon', ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
        "offered_by = excluded.offered_by, game_version = excluded.game_version, "
        f"created_at = excluded.created_at RETURNING {OFFER_COLUMNS}",
        (game_id, user_id, game.version, now),
    )
    assert row is not None
    return offer_from_row(row)


def withdraw_offer(conn: sqlite3.Connection, game_id: int, user_id: int) -> bool:
    """Either player withdraws (offerer) or declines (opponent) the offer; True if one stood."""
    game = _game_row(conn, game_id)
    if game.colour_of(user_id) is None:
        raise OfferError(game_id, "not_a_player")
    rows = _all(
        conn,
        "DELETE FROM game_offers WHERE game_id = ? AND kind = 'abandon' RETURNING game_id",
        (game_id,),
    )
    return bool(rows)


def accept_abandon(
    conn: sqlite3.Connection,
    game_id: int,
    user_id: int,
    expected_version: int,
    update_id: int | None,
    now: int,
) -> Game:
    """The other player accepts a standing offer made at this very version: the game is
    abandoned by agreement, with no statistics or rating change."""
    game = _game_row(conn, game_id)
    if game.colour_of(user_id) is None:
        raise OfferError(game_id, "not_a_player")
    row = _one(
        conn,
        f"SELECT {OFFER_COLUMNS} FROM game_offers WHERE game_id = ? AND kind = 'abandon'",
        (game_id,),
    )
    offer = None if row is None else offer_from_row(row)
    if offer is None or offer.game_version != game.version:
        raise OfferError(game_id, "no_offer")
    if offer.offered_by == user_id:
        raise OfferError(game_id, "own_offer")
    return abandon_game(conn, game_id, expected_version, None, update_id, now, EndReason.AGREEMENT)


# -- board messages ----------------------------------------------------------------------------


def set_game_message(
    conn: sqlite3.Connection,
    game_id: int,
    chat_id: int,
    message_id: int,
    thread_id: int,
    kind: str,
    now: int,
) -> GameMessage:
    if _one(conn, "SELECT 1 FROM games WHERE game_id = ?", (game_id,)) is None:
        raise NotFoundError("game", game_id)
    row = _one(
        conn,
        f"INSERT INTO game_messages ({MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (game_id, chat_id, thread_id, kind) DO UPDATE SET "
        "message_id = excluded.message_id, updated_at = excluded.updated_at "
        f"RETURNING {MESSAGE_COLUMNS}",
        (game_id, chat_id, thread_id, kind, message_id, now),
    )
    assert row is not None
    return message_from_row(row)


def delete_game_message(
    conn: sqlite3.Connection, game_id: int, chat_id: int, thread_id: int, kind: str
) -> bool:
    rows = _all(
        conn,
        "DELETE FROM game_messages "
        "WHERE game_id = ? AND chat_id = ? AND thread_id = ? AND kind = ? RETURNING game_id",
        (game_id, chat_id, thread_id, kind),
    )
    return bool(rows)


# -- invitations -------------------------------------------------------------------------------


def insert_invitation(
    conn: sqlite3.Connection,
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
    _require(conn, user_ids=(inviter_id, invitee_id), chat_id=chat_id)
    row = _one(
        conn,
        "INSERT INTO invitations (token, inviter_id, invitee_id, chat_id, thread_id, variant, "
        "match_length, options_json, state, created_at, expires_at, dice_seed_id, "
        "invitee_username) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?) "
        f"RETURNING {INVITATION_COLUMNS}",
        (
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
        ),
    )
    assert row is not None
    return invitation_from_row(row)


def _pending_invitation(conn: sqlite3.Connection, token: str) -> Invitation:
    row = _one(conn, f"SELECT {INVITATION_COLUMNS} FROM invitations WHERE token = ?", (token,))
    if row is None:
        raise NotFoundError("invitation", token)
    invitation = invitation_from_row(row)
    if invitation.state is not InvitationState.PENDING:
        raise InvitationNotPendingError(token, invitation.state.value)
    return invitation


def _may_answer(invitation: Invitation, user_id: int) -> bool:
    """Anyone but the inviter for an open invitation; only the invitee for a personal one."""
    return user_id != invitation.inviter_id and invitation.invitee_id in (None, user_id)


def _resolve(
    conn: sqlite3.Connection,
    token: str,
    state: InvitationState,
    now: int,
    *,
    accepted_by: int | None = None,
    game_id: int | None = None,
) -> Invitation:
    row = _one(
        conn,
        "UPDATE invitations SET state = ?, resolved_at = ?, accepted_by = ?, game_id = ? "
        f"WHERE token = ? AND state = 'pending' RETURNING {INVITATION_COLUMNS}",
        (state.value, now, accepted_by, game_id, token),
    )
    assert row is not None  # checked pending in this same transaction
    return invitation_from_row(row)


def accept_invitation(
    conn: sqlite3.Connection,
    token: str,
    user_id: int,
    game: NewGame | None,
    variant: Variant | None,
    now: int,
) -> AcceptedInvitation:
    invitation = _pending_invitation(conn, token)
    if now >= to_us(invitation.expires_at):
        raise InvitationExpiredError(token)
    if not _may_answer(invitation, user_id):
        raise InvitationNotForYouError(token, user_id)
    _require(conn, user_ids=(user_id,))
    created = None
    if game is not None and variant is not None:
        if {game.white_user_id, game.black_user_id} != {invitation.inviter_id, user_id}:
            raise ValueError("the game must seat the inviter and the accepting user")
        created = insert_game(conn, game, variant, now)
    accepted = _resolve(
        conn,
        token,
        InvitationState.ACCEPTED,
        now,
        accepted_by=user_id,
        game_id=None if created is None else created.game_id,
    )
    return AcceptedInvitation(invitation=accepted, game=created)


def decline_invitation(conn: sqlite3.Connection, token: str, user_id: int, now: int) -> Invitation:
    invitation = _pending_invitation(conn, token)
    if not _may_answer(invitation, user_id):
        raise InvitationNotForYouError(token, user_id)
    return _resolve(conn, token, InvitationState.DECLINED, now)


def cancel_invitation(conn: sqlite3.Connection, token: str, user_id: int, now: int) -> Invitation:
    invitation = _pending_invitation(conn, token)
    if user_id != invitation.inviter_id:
        raise InvitationNotForYouError(token, user_id)
    return _resolve(conn, token, InvitationState.CANCELLED, now)


def expire_invitations(conn: sqlite3.Connection, moment: int) -> list[Invitation]:
    rows = _all(
        conn,
        "UPDATE invitations SET state = 'expired', resolved_at = ?1 "
        f"WHERE state = 'pending' AND expires_at <= ?1 RETURNING {INVITATION_COLUMNS}",
        (moment,),
    )
    return sorted((invitation_from_row(row) for row in rows), key=lambda i: i.token)


# -- Telegram updates --------------------------------------------------------------------------


def claim_update(conn: sqlite3.Connection, update_id: int, now: int) -> bool:
    """Insert the update id; False if it was there already (then nothing was written)."""
    row = _one(
        conn,
        "INSERT INTO processed_updates (update_id, processed_at) VALUES (?, ?) "
        "ON CONFLICT (update_id) DO NOTHING RETURNING update_id",
        (update_id, now),
    )
    return row is not None


def mark_inline_lost(conn: sqlite3.Connection, inline_message_id: str, now: int) -> bool:
    """Record that the bot can no longer edit an inline message; True the first time."""
    row = _one(
        conn,
        "INSERT INTO inline_messages_lost (inline_message_id, lost_at) VALUES (?, ?) "
        "ON CONFLICT (inline_message_id) DO NOTHING RETURNING inline_message_id",
        (inline_message_id, now),
    )
    return row is not None


def prune_updates(conn: sqlite3.Connection, cutoff: int) -> int:
    return conn.execute("DELETE FROM processed_updates WHERE processed_at < ?", (cutoff,)).rowcount
