"""Write transactions, written once for SQLite and PostgreSQL (see :mod:`storage.sql.steps`).

Each public function here is a whole transaction body: the store runs it from ``BEGIN`` to
``COMMIT`` (or ``ROLLBACK`` if it raises), in SQLite's writer thread or on a pooled PostgreSQL
connection.  The bodies take the current time as an argument (the store's clock is read on the
event loop) and validated arguments (checks happen before a transaction is queued).

SQLite serialises writers (one write lock); PostgreSQL runs them side by side at READ
COMMITTED, so what a body reads and then decides on is read ``db.for_update`` (a row lock
there, nothing in SQLite), and:

* a game write is ``UPDATE ... WHERE version = expected``: a concurrent writer of the same row
  waits for the first to commit, then re-checks the condition against the new version and
  updates nothing; the row version is the lock;
* an update claim is ``INSERT ... ON CONFLICT DO NOTHING``: the second claimant waits for the
  first transaction and inserts only if it rolled back;
* ratings are read locked (rows created first if missing), so two games finishing at once for
  one player both count; every multi-row lock is taken in ``user_id`` order, so two such
  transactions cannot deadlock;
* an invitation is read locked before it is answered, so of two people accepting at once the
  second sees it accepted;
* the one-active-game rule is the partial unique index; the insert runs in a savepoint so that
  losing that race reports :class:`~storage.errors.ActiveGameExistsError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from storage import rating as elo
from storage.errors import (
    ActiveGameExistsError,
    ClaimRefusedError,
    ConstraintError,
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
    NextGame,
    RatingChange,
    User,
    Variant,
)
from storage.sql import clocks, dice
from storage.sql.steps import Body, Dialect, GameWrite, count, many, marks, one, rows
from storage.sqlite.rows import (
    CHAT_COLUMNS,
    CLOCK_COLUMNS,
    GAME_COLUMNS,
    INVITATION_COLUMNS,
    MESSAGE_COLUMNS,
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


def _require(user_ids: Iterable[int | None] = (), chat_id: int | None = None) -> Body[None]:
    """Raise NotFoundError naming the missing user or chat, rather than a bare FK error."""
    wanted = sorted({uid for uid in user_ids if uid is not None})
    if wanted:
        found = yield rows(
            f"SELECT user_id FROM users WHERE user_id IN ({marks(len(wanted))})", *wanted
        )
        missing = set(wanted) - {row[0] for row in found}
        if missing:
            raise NotFoundError("user", min(missing))
    if (
        chat_id is not None
        and (yield one("SELECT 1 FROM chats WHERE chat_id = ?", chat_id)) is None
    ):
        raise NotFoundError("chat", chat_id)


# -- users and chats ---------------------------------------------------------------------------


def upsert_user(
    db: Dialect,
    user_id: int,
    display_name: str,
    username: str | None,
    language: str | None,
    now: int,
) -> Body[User]:
    row = yield one(
        f"INSERT INTO users ({USER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
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
        now,
    )
    return user_from_row(row)


def set_picker_way(db: Dialect, user_id: int, way: str, now: int) -> Body[None]:
    yield from _require((user_id,))
    yield one(
        "INSERT INTO player_settings (user_id, picker_way, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (user_id) DO UPDATE SET picker_way = excluded.picker_way, "
        "updated_at = excluded.updated_at",
        user_id,
        way,
        now,
    )


def upsert_chat(
    db: Dialect, chat_id: int, chat_type: ChatType, title: str | None, now: int
) -> Body[Chat]:
    row = yield one(
        "INSERT INTO chats (chat_id, chat_type, title, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (chat_id) DO UPDATE SET chat_type = excluded.chat_type, "
        "title = excluded.title, updated_at = excluded.updated_at "
        f"RETURNING {CHAT_COLUMNS}",
        chat_id,
        chat_type.value,
        title,
        now,
        now,
    )
    return chat_from_row(row)


def update_chat(db: Dialect, chat_id: int, changes: Sequence[tuple[str, Any]]) -> Body[Chat]:
    """``changes`` are (column, value) pairs whose column names come from the store's code."""
    assignments = ", ".join(f"{column} = ?" for column, _ in changes)
    row = yield one(
        f"UPDATE chats SET {assignments} WHERE chat_id = ? RETURNING {CHAT_COLUMNS}",
        *(value for _, value in changes),
        chat_id,
    )
    if row is None:
        raise NotFoundError("chat", chat_id)
    return chat_from_row(row)


# -- games -------------------------------------------------------------------------------------


def _active_game_id(chat_id: int, thread_id: int) -> Body[int | None]:
    row = yield one(
        "SELECT game_id FROM games WHERE chat_id = ? AND thread_id = ? AND status = 'active' "
        "AND inline_message_id IS NULL",
        chat_id,
        thread_id,
    )
    return None if row is None else int(row[0])


def insert_game(db: Dialect, new: NewGame, variant: Variant, now: int) -> Body[Game]:
    existing = None
    if new.inline_message_id is None:  # a game in an inline message does not hold its chat
        existing = yield from _active_game_id(new.chat_id, new.thread_id)
    if existing is not None:
        raise ActiveGameExistsError(new.chat_id, new.thread_id, existing)
    yield from _require((new.white_user_id, new.black_user_id), new.chat_id)
    try:
        row = yield one(
            "INSERT INTO games (variant, status, chat_id, thread_id, white_user_id, "
            "black_user_id, ai_level, match_length, options_json, state, version, "
            "move_count, created_at, updated_at, dice_seed_id, inline_message_id) "
            "VALUES (?, 'active', ?, ?, ?, ?, ?, ?, ?, ?, 1, 0, ?, ?, ?, ?) "
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
            now,
            new.dice_seed_id,
            new.inline_message_id,
            savepoint=True,
        )
    except ConstraintError as exc:
        if exc.constraint != "games_one_active_per_topic":
            raise
        # Another PostgreSQL transaction created the chat's game after our check and has
        # committed (the unique index made us wait for it), so it is visible now.
        winner = yield from _active_game_id(new.chat_id, new.thread_id)
        raise ActiveGameExistsError(new.chat_id, new.thread_id, winner) from exc
    game = game_from_row(row)
    yield from dice.append_dice(game.dice_seed_id, new.dice)
    if new.clock is not None:
        yield from clocks.set_clock(game.game_id, game.version, new.clock, now)
    return game


def why_not_written(game_id: int, expected_version: int) -> Body[NoReturn]:
    """Raise why a game's optimistic write matched no row: no such game, a newer version, or
    the game is over."""
    current = yield one("SELECT version, status FROM games WHERE game_id = ?", game_id)
    if current is None:
        raise NotFoundError("game", game_id)
    if current["version"] != expected_version:
        raise StaleVersionError(game_id, expected_version, current["version"])
    raise GameNotActiveError(game_id, current["status"])


def save_game(
    db: Dialect,
    game_id: int,
    expected_version: int,
    state: str,
    moves: Sequence[NewMove],
    score: tuple[int, int] | None,
    update_id: int | None,
    now: int,
    drawn: DiceRolls | None = None,
    clock: ClockUpdate | None = None,
) -> Body[Game]:
    """A turn's write: the game write with the next move's clock
    (:class:`~storage.sql.steps.GameWrite`: one statement on PostgreSQL), and the dice drawn."""
    write = GameWrite(game_id, expected_version, state, moves, score, update_id, now, clock=clock)
    game = yield from db.write_game(write, drawn is None)
    yield from dice.append_dice(game.dice_seed_id, drawn)
    return game


def finish_game(
    db: Dialect,
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
    next_game: NextGame | None = None,
) -> Body[FinishedGame]:
    """A game's end with its result, statistics and ratings, and (``next_game``) the match's
    next game, all in one transaction: the finish and the next game stand or fall together."""
    ending = {
        "status": "finished",
        "winner": result.winner.value,
        "result_kind": result.kind.value,
        "points": result.points,
        "finished_at": now,
        "end_reason": None if end_reason is None else end_reason.value,
    }
    write = GameWrite(game_id, expected_version, state, moves, score, update_id, now, ending)
    game = yield from db.write_game(write, False)
    yield from dice.append_dice(game.dice_seed_id, drawn)
    yield from clocks.drop(game.game_id)
    yield many(
        f"INSERT INTO user_stats ({STATS_COLUMNS}) VALUES ({marks(3 + len(STAT_COUNTERS))}) "
        "ON CONFLICT (user_id, variant, vs_ai) DO UPDATE SET "
        + ", ".join(f"{name} = user_stats.{name} + excluded.{name}" for name in STAT_COUNTERS),
        statistics_increments(game, result),  # one row per human seat, added to
    )
    changes: tuple[RatingChange, ...] = ()
    if not game.vs_ai:
        changes = yield from _record_ratings(db, game, result, now)
        by_colour = {change.colour: change for change in changes}
        white, black = by_colour[Colour.WHITE], by_colour[Colour.BLACK]
        row = yield one(
            "UPDATE games SET white_rating_change = ?, black_rating_change = ?, "
            "white_rating_after = ?, black_rating_after = ? WHERE game_id = ? "
            f"RETURNING {GAME_COLUMNS}",
            white.delta,
            black.delta,
            white.after,
            black.after,
            game.game_id,
        )
        game = game_from_row(row)
    following = None if next_game is None else (yield from _insert_next(db, next_game, now))
    return FinishedGame(game=game, rating_changes=changes, next_game=following)


def start_next_game(
    db: Dialect, game_id: int, expected_version: int, nxt: NextGame, now: int
) -> Body[Game | None]:
    """A finished game's next game of its match, started late (a match the code before
    session 8 left without one): the finished game's version moves on in the same
    transaction, so of two workers starting it at once one does and the other gets
    :class:`StaleVersionError` (on PostgreSQL it waits for the first's row, then finds the
    version moved)."""
    row = yield one(
        "UPDATE games SET version = version + 1 "
        "WHERE game_id = ? AND version = ? AND status = 'finished' RETURNING game_id",
        game_id,
        expected_version,
    )
    if row is None:
        current = yield one("SELECT version, status FROM games WHERE game_id = ?", game_id)
        if current is None:
            raise NotFoundError("game", game_id)
        if current["version"] != expected_version:
            raise StaleVersionError(game_id, expected_version, current["version"])
        raise ValueError(f"game {game_id} is {current['status']}, not finished")
    return (yield from _insert_next(db, nxt, now))


def _insert_next(db: Dialect, nxt: NextGame, now: int) -> Body[Game | None]:
    """The match's next game with its opening move log (as a created game and its first
    save would write them). None if its place holds another active game — which the game just
    finished there rules out; the finish then stands alone, as a game that starts none."""
    try:
        game = yield from insert_game(db, nxt.game, Variant(nxt.game.variant), now)
    except ActiveGameExistsError:
        return None
    if not nxt.moves:
        return game
    return (
        yield from save_game(
            db,
            game.game_id,
            game.version,
            nxt.game.state,
            nxt.moves,
            None,
            None,
            now,
            clock=nxt.game.clock,
        )
    )


def _record_ratings(
    db: Dialect, game: Game, result: GameResult, now: int
) -> Body[tuple[RatingChange, ...]]:
    winner_id = game.user_id_of(result.winner)
    loser_id = game.user_id_of(result.winner.opponent)
    assert winner_id is not None and loser_id is not None
    players = sorted((winner_id, loser_id))
    variant = game.variant.value
    # Make sure both rows exist, then lock them: a read without the lock could be overtaken by
    # another game of the same player finishing at this moment, and its change lost.
    yield many(
        "INSERT INTO ratings (user_id, variant, rating, games, peak, updated_at) "
        "VALUES (?, ?, ?, 0, ?, ?) ON CONFLICT (user_id, variant) DO NOTHING",
        [(user_id, variant, INITIAL_RATING, INITIAL_RATING, now) for user_id in players],
    )
    found = yield rows(
        "SELECT user_id, rating, games, peak FROM ratings WHERE variant = ? AND user_id IN (?, ?) "
        f"ORDER BY user_id{db.for_update}",
        variant,
        *players,
    )
    current = {
        row["user_id"]: (float(row["rating"]), row["games"], float(row["peak"])) for row in found
    }
    winner_before, winner_games, winner_peak = current[winner_id]
    loser_before, loser_games, loser_peak = current[loser_id]
    update = elo.elo_update(
        winner_before, winner_games, loser_before, loser_games, game.match_length
    )
    yield many(
        "UPDATE ratings SET rating = ?, games = games + 1, peak = ?, updated_at = ? "
        "WHERE user_id = ? AND variant = ?",
        [
            (after, max(peak, after), now, user_id, variant)
            for user_id, after, peak in sorted(
                (
                    (winner_id, update.winner_after, winner_peak),
                    (loser_id, update.loser_after, loser_peak),
                )
            )
        ],
    )
    return (
        RatingChange(winner_id, result.winner, winner_before, update.winner_after),
        RatingChange(loser_id, result.winner.opponent, loser_before, update.loser_after),
    )


def abandon_game(
    db: Dialect,
    game_id: int,
    expected_version: int,
    state: str | None,
    update_id: int | None,
    now: int,
    reason: EndReason | None = None,
) -> Body[Game]:
    ending = {
        "status": "abandoned",
        "finished_at": now,
        "end_reason": None if reason is None else reason.value,
    }
    write = GameWrite(game_id, expected_version, state, (), None, update_id, now, ending)
    game = yield from db.write_game(write, False)
    yield from clocks.drop(game.game_id)
    return game


# -- move clocks and ending without play ---------------------------------------------------------


def _locked_game(db: Dialect, game_id: int) -> Body[Game]:
    """The game row, locked until the transaction ends (PostgreSQL): the checks made on it
    hold until this transaction's own write."""
    row = yield one(f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?{db.for_update}", game_id)
    if row is None:
        raise NotFoundError("game", game_id)
    return game_from_row(row)


def _active_at(game: Game, expected_version: int) -> None:
    if game.status.value != "active":
        raise GameNotActiveError(game.game_id, game.status.value)
    if game.version != expected_version:
        raise StaleVersionError(game.game_id, expected_version, game.version)


def claim_timeout(
    db: Dialect,
    game_id: int,
    expected_version: int,
    claimant_id: int,
    state: str,
    result: GameResult,
    moves: Sequence[NewMove],
    score: tuple[int, int] | None,
    update_id: int | None,
    now: int,
    next_game: NextGame | None = None,
) -> Body[FinishedGame]:
    """The waiting player claims a game whose move clock ran out: scored by the engine as the
    other player's resignation, finished with statistics and ratings like any game, in one
    transaction with the checks (so a last-second move, which changes the version, wins)."""
    game = yield from _locked_game(db, game_id)
    _active_at(game, expected_version)
    row = yield one(f"SELECT {CLOCK_COLUMNS} FROM game_clocks WHERE game_id = ?", game_id)
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
    return (
        yield from finish_game(
            db,
            game_id,
            expected_version,
            state,
            result,
            moves,
            score,
            update_id,
            now,
            end_reason=EndReason.TIMEOUT,
            next_game=next_game,
        )
    )


def fire_abandon(db: Dialect, game_id: int, game_version: int, now: int) -> Body[Game | None]:
    """Close a game nobody has touched for the abandonment period, exactly once: None if it
    was already closed, moved on, or is not due yet (of two schedulers, the second waits for
    the game row's lock, then finds it closed)."""
    try:
        yield from _locked_game(db, game_id)
    except NotFoundError:
        return None
    due = yield one(
        "SELECT 1 FROM game_clocks JOIN games USING (game_id) WHERE game_id = ?1 "
        "AND game_clocks.game_version = ?2 AND games.version = ?2 AND games.status = 'active' "
        "AND abandon_at IS NOT NULL AND abandon_at <= ?3",
        game_id,
        game_version,
        now,
    )
    if due is None:
        return None
    return (yield from abandon_game(db, game_id, game_version, None, None, now, EndReason.INACTIVE))


def offer_abandon(
    db: Dialect, game_id: int, user_id: int, expected_version: int, now: int
) -> Body[AbandonOffer]:
    """A player offers to abandon the game; the offer lapses with the next write of the game."""
    game = yield from _locked_game(db, game_id)
    _active_at(game, expected_version)
    if game.colour_of(user_id) is None:
        raise OfferError(game_id, "not_a_player")
    row = yield one(
        "INSERT INTO game_offers (game_id, kind, offered_by, game_version, created_at) "
        "VALUES (?, 'abandon', ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
        "offered_by = excluded.offered_by, game_version = excluded.game_version, "
        f"created_at = excluded.created_at RETURNING {OFFER_COLUMNS}",
        game_id,
        user_id,
        game.version,
        now,
    )
    return offer_from_row(row)


def withdraw_offer(db: Dialect, game_id: int, user_id: int) -> Body[bool]:
    """Either player withdraws (offerer) or declines (opponent) the offer; True if one stood."""
    game = yield from _locked_game(db, game_id)
    if game.colour_of(user_id) is None:
        raise OfferError(game_id, "not_a_player")
    deleted = yield rows(
        "DELETE FROM game_offers WHERE game_id = ? AND kind = 'abandon' RETURNING game_id",
        game_id,
    )
    return bool(deleted)


def accept_abandon(
    db: Dialect,
    game_id: int,
    user_id: int,
    expected_version: int,
    update_id: int | None,
    now: int,
) -> Body[Game]:
    """The other player accepts a standing offer made at this very version: the game is
    abandoned by agreement, with no statistics or rating change."""
    game = yield from _locked_game(db, game_id)
    if game.colour_of(user_id) is None:
        raise OfferError(game_id, "not_a_player")
    row = yield one(
        f"SELECT {OFFER_COLUMNS} FROM game_offers WHERE game_id = ? AND kind = 'abandon'",
        game_id,
    )
    offer = None if row is None else offer_from_row(row)
    if offer is None or offer.game_version != game.version:
        raise OfferError(game_id, "no_offer")
    if offer.offered_by == user_id:
        raise OfferError(game_id, "own_offer")
    return (
        yield from abandon_game(
            db, game_id, expected_version, None, update_id, now, EndReason.AGREEMENT
        )
    )


# -- board messages ----------------------------------------------------------------------------


def set_game_message(
    db: Dialect,
    game_id: int,
    chat_id: int,
    message_id: int,
    thread_id: int,
    kind: str,
    now: int,
) -> Body[GameMessage]:
    if (yield one("SELECT 1 FROM games WHERE game_id = ?", game_id)) is None:
        raise NotFoundError("game", game_id)
    row = yield one(
        f"INSERT INTO game_messages ({MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
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


def delete_game_message(
    db: Dialect, game_id: int, chat_id: int, thread_id: int, kind: str
) -> Body[bool]:
    deleted = yield rows(
        "DELETE FROM game_messages "
        "WHERE game_id = ? AND chat_id = ? AND thread_id = ? AND kind = ? RETURNING game_id",
        game_id,
        chat_id,
        thread_id,
        kind,
    )
    return bool(deleted)


# -- invitations -------------------------------------------------------------------------------


def insert_invitation(
    db: Dialect,
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
) -> Body[Invitation]:
    yield from _require((inviter_id, invitee_id), chat_id)
    row = yield one(
        "INSERT INTO invitations (token, inviter_id, invitee_id, chat_id, thread_id, variant, "
        "match_length, options_json, state, created_at, expires_at, dice_seed_id, "
        "invitee_username) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?) "
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


def _pending_invitation(db: Dialect, token: str) -> Body[Invitation]:
    """The invitation, locked until the transaction ends, if it is still pending."""
    row = yield one(
        f"SELECT {INVITATION_COLUMNS} FROM invitations WHERE token = ?{db.for_update}", token
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


def _resolve(
    token: str,
    state: InvitationState,
    now: int,
    *,
    accepted_by: int | None = None,
    game_id: int | None = None,
) -> Body[Invitation]:
    row = yield one(
        "UPDATE invitations SET state = ?, resolved_at = ?, accepted_by = ?, game_id = ? "
        f"WHERE token = ? AND state = 'pending' RETURNING {INVITATION_COLUMNS}",
        state.value,
        now,
        accepted_by,
        game_id,
        token,
    )
    assert row is not None  # read pending (and locked) in this same transaction
    return invitation_from_row(row)


def accept_invitation(
    db: Dialect,
    token: str,
    user_id: int,
    game: NewGame | None,
    variant: Variant | None,
    now: int,
) -> Body[AcceptedInvitation]:
    invitation = yield from _pending_invitation(db, token)
    if now >= to_us(invitation.expires_at):
        raise InvitationExpiredError(token)
    if not _may_answer(invitation, user_id):
        raise InvitationNotForYouError(token, user_id)
    yield from _require((user_id,))
    created = None
    if game is not None and variant is not None:
        if {game.white_user_id, game.black_user_id} != {invitation.inviter_id, user_id}:
            raise ValueError("the game must seat the inviter and the accepting user")
        created = yield from insert_game(db, game, variant, now)
    accepted = yield from _resolve(
        token,
        InvitationState.ACCEPTED,
        now,
        accepted_by=user_id,
        game_id=None if created is None else created.game_id,
    )
    return AcceptedInvitation(invitation=accepted, game=created)


def decline_invitation(db: Dialect, token: str, user_id: int, now: int) -> Body[Invitation]:
    invitation = yield from _pending_invitation(db, token)
    if not _may_answer(invitation, user_id):
        raise InvitationNotForYouError(token, user_id)
    return (yield from _resolve(token, InvitationState.DECLINED, now))


def cancel_invitation(db: Dialect, token: str, user_id: int, now: int) -> Body[Invitation]:
    invitation = yield from _pending_invitation(db, token)
    if user_id != invitation.inviter_id:
        raise InvitationNotForYouError(token, user_id)
    return (yield from _resolve(token, InvitationState.CANCELLED, now))


def expire_invitations(db: Dialect, moment: int) -> Body[list[Invitation]]:
    expired = yield rows(
        "UPDATE invitations SET state = 'expired', resolved_at = ?1 "
        f"WHERE state = 'pending' AND expires_at <= ?1 RETURNING {INVITATION_COLUMNS}",
        moment,
    )
    return sorted((invitation_from_row(row) for row in expired), key=lambda i: i.token)


def claim_first_board(db: Dialect, game_id: int, now: int, expired: int) -> Body[bool]:
    """Claim a game's first board at ``now``: a new claim, or the take-over of one made
    before ``expired``; False while another stands. Of two claims at once (PostgreSQL) the
    second waits for the first's row and then finds it standing."""
    if (yield one("SELECT 1 FROM games WHERE game_id = ?", game_id)) is None:
        raise NotFoundError("game", game_id)
    row = yield one(
        "INSERT INTO board_claims (game_id, claimed_at) VALUES (?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET claimed_at = excluded.claimed_at "
        "WHERE board_claims.claimed_at < ? RETURNING game_id",
        game_id,
        now,
        expired,
    )
    return row is not None


# -- Telegram updates --------------------------------------------------------------------------


def claim_update(db: Dialect, update_id: int, now: int) -> Body[bool]:
    """Insert the update id; False if it was there already (then nothing was written).

    A concurrent claim of the same id (PostgreSQL) waits for this transaction: it inserts if
    this one rolls back, and finds the row if it commits.
    """
    row = yield one(
        "INSERT INTO processed_updates (update_id, processed_at) VALUES (?, ?) "
        "ON CONFLICT (update_id) DO NOTHING RETURNING update_id",
        update_id,
        now,
    )
    return row is not None


def mark_inline_lost(db: Dialect, inline_message_id: str, now: int) -> Body[bool]:
    """Record that the bot can no longer edit an inline message; True the first time."""
    row = yield one(
        "INSERT INTO inline_messages_lost (inline_message_id, lost_at) VALUES (?, ?) "
        "ON CONFLICT (inline_message_id) DO NOTHING RETURNING inline_message_id",
        inline_message_id,
        now,
    )
    return row is not None


def prune_updates(db: Dialect, cutoff: int) -> Body[int]:
    return (yield count("DELETE FROM processed_updates WHERE processed_at < ?", cutoff))
