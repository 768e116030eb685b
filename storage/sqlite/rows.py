"""Rows to dataclasses and back: column lists, time and JSON conversions.

Every query names its columns from the lists here, and every row becomes a dataclass from
:mod:`storage.models` through one ``*_from_row`` function per table, so the mapping lives in one
place and adding a column changes nothing for code that does not ask for it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from storage.models import (
    AbandonOffer,
    Chat,
    ChatType,
    Colour,
    DiceSeed,
    EndReason,
    Game,
    GameClock,
    GameMessage,
    GameResult,
    GameStatus,
    Invitation,
    InvitationState,
    MoveRecord,
    Rating,
    ResultKind,
    User,
    UserStats,
    Variant,
)

Row = sqlite3.Row

# ---------------------------------------------------------------------------------------------
# Column lists and row mapping
# ---------------------------------------------------------------------------------------------

USER_COLUMNS = "user_id, display_name, username, language, created_at, updated_at"
CHAT_COLUMNS = (
    "chat_id, chat_type, title, language, default_variant, match_length, options_json, "
    "created_at, updated_at"
)
GAME_COLUMNS = (
    "game_id, variant, status, chat_id, thread_id, white_user_id, black_user_id, ai_level, "
    "match_length, options_json, score_white, score_black, state, version, move_count, "
    "winner, result_kind, points, created_at, updated_at, finished_at, "
    "white_rating_change, black_rating_change, dice_seed_id, end_reason, inline_message_id, "
    "white_rating_after, black_rating_after"
)
MOVE_COLUMNS = (
    "game_id, seq, colour, player_user_id, die1, die2, play, position_id, game_version, created_at"
)
MESSAGE_COLUMNS = "game_id, chat_id, thread_id, kind, message_id, updated_at"
INVITATION_COLUMNS = (
    "token, inviter_id, invitee_id, chat_id, thread_id, variant, match_length, options_json, "
    "state, created_at, expires_at, resolved_at, accepted_by, game_id, dice_seed_id, "
    "invitee_username"
)
STAT_COUNTERS = (
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
STATS_COLUMNS = "user_id, variant, vs_ai, " + ", ".join(STAT_COUNTERS)
RATING_COLUMNS = "user_id, variant, rating, games, peak, updated_at"
#: Without ``server_seed``: the public view; the secret is read by one query of its own.
DICE_SEED_COLUMNS = "seed_id, commitment, client_seeds, rolls, created_at, revealed_at"
CLOCK_COLUMNS = (
    "game_id, game_version, move_number, on_clock_user_id, remind_at, deadline_at, abandon_at, "
    "reminded, timed_out, next_due_at"
)
OFFER_COLUMNS = "game_id, offered_by, game_version, created_at"


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def to_us(moment: datetime) -> int:
    """A timezone-aware datetime as Unix microseconds (exact integer arithmetic, so a stored
    time reads back equal); naive datetimes are refused because their zone is a guess."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: pass a timezone-aware one (UTC)")
    return (moment - _EPOCH) // _MICROSECOND


def from_us(us: int) -> datetime:
    return _EPOCH + timedelta(microseconds=us)


def from_us_or_none(us: int | None) -> datetime | None:
    return None if us is None else from_us(us)


def float_or_none(value: float | None) -> float | None:
    # SQLite may hand back a REAL that holds a whole number as an int; keep the declared type.
    return None if value is None else float(value)


def dump_options(options: Mapping[str, Any]) -> str:
    if not isinstance(options, Mapping):
        raise ValueError(f"options must be a mapping, got {type(options).__name__}")
    return json.dumps(dict(options), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def load_options(text: str) -> dict[str, Any]:
    if text == "{}":  # the common case, on every game load
        return {}
    value = json.loads(text)
    return value if isinstance(value, dict) else {}


def user_from_row(row: Row) -> User:
    return User(
        user_id=row["user_id"],
        display_name=row["display_name"],
        username=row["username"],
        language=row["language"],
        created_at=from_us(row["created_at"]),
        updated_at=from_us(row["updated_at"]),
    )


def chat_from_row(row: Row) -> Chat:
    return Chat(
        chat_id=row["chat_id"],
        chat_type=ChatType(row["chat_type"]),
        title=row["title"],
        language=row["language"],
        default_variant=Variant(row["default_variant"]),
        match_length=row["match_length"],
        options=load_options(row["options_json"]),
        created_at=from_us(row["created_at"]),
        updated_at=from_us(row["updated_at"]),
    )


def game_from_row(row: Row) -> Game:
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
        options=load_options(row["options_json"]),
        score_white=row["score_white"],
        score_black=row["score_black"],
        state=row["state"],
        version=row["version"],
        move_count=row["move_count"],
        created_at=from_us(row["created_at"]),
        updated_at=from_us(row["updated_at"]),
        finished_at=from_us_or_none(row["finished_at"]),
        result=result,
        white_rating_change=float_or_none(row["white_rating_change"]),
        black_rating_change=float_or_none(row["black_rating_change"]),
        dice_seed_id=row["dice_seed_id"],
        end_reason=None if row["end_reason"] is None else EndReason(row["end_reason"]),
        inline_message_id=row["inline_message_id"],
        white_rating_after=float_or_none(row["white_rating_after"]),
        black_rating_after=float_or_none(row["black_rating_after"]),
    )


def move_from_row(row: Row) -> MoveRecord:
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
        created_at=from_us(row["created_at"]),
    )


def message_from_row(row: Row) -> GameMessage:
    return GameMessage(
        game_id=row["game_id"],
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        kind=row["kind"],
        message_id=row["message_id"],
        updated_at=from_us(row["updated_at"]),
    )


def invitation_from_row(row: Row) -> Invitation:
    return Invitation(
        token=row["token"],
        inviter_id=row["inviter_id"],
        invitee_id=row["invitee_id"],
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        variant=Variant(row["variant"]),
        match_length=row["match_length"],
        options=load_options(row["options_json"]),
        state=InvitationState(row["state"]),
        created_at=from_us(row["created_at"]),
        expires_at=from_us(row["expires_at"]),
        resolved_at=from_us_or_none(row["resolved_at"]),
        accepted_by=row["accepted_by"],
        game_id=row["game_id"],
        dice_seed_id=row["dice_seed_id"],
        invitee_username=row["invitee_username"],
    )


def stats_from_row(row: Row) -> UserStats:
    return UserStats(
        user_id=row["user_id"],
        variant=Variant(row["variant"]),
        vs_ai=bool(row["vs_ai"]),
        **{name: row[name] for name in STAT_COUNTERS},
    )


def rating_from_row(row: Row) -> Rating:
    return Rating(
        user_id=row["user_id"],
        variant=Variant(row["variant"]),
        rating=float(row["rating"]),
        games=row["games"],
        peak=float(row["peak"]),
        updated_at=from_us(row["updated_at"]),
    )


def statistics_increments(game: Game, result: GameResult) -> list[tuple[Any, ...]]:
    """The counters one finished game adds, as (user_id, variant, vs_ai, *STAT_COUNTERS) rows
    in ``user_id`` order (the order their row locks are taken in)."""
    rows = []
    for colour in Colour:
        user_id = game.user_id_of(colour)
        if user_id is None:
            continue
        side = "wins" if colour is result.winner else "losses"
        counters = dict.fromkeys(STAT_COUNTERS, 0)
        counters["games"] = 1
        counters[side] = 1
        counters[f"{side}_{result.kind.value}"] = 1
        counters["points_won" if side == "wins" else "points_lost"] = result.points
        rows.append((user_id, game.variant.value, int(game.vs_ai), *counters.values()))
    return sorted(rows)


def dice_seed_from_row(row: Row, server_seed: bytes | None = None) -> DiceSeed:
    """The public view; ``server_seed`` is filled in by the caller once the seed is revealed."""
    return DiceSeed(
        seed_id=row["seed_id"],
        commitment=row["commitment"],
        client_seeds=tuple(json.loads(row["client_seeds"])),
        rolls=tuple(int(d) for d in row["rolls"]),
        created_at=from_us(row["created_at"]),
        revealed_at=from_us_or_none(row["revealed_at"]),
        server_seed=server_seed,
    )


def clock_from_row(row: Row) -> GameClock:
    return GameClock(
        game_id=row["game_id"],
        game_version=row["game_version"],
        move_number=row["move_number"],
        on_clock_user_id=row["on_clock_user_id"],
        remind_at=from_us_or_none(row["remind_at"]),
        deadline_at=from_us_or_none(row["deadline_at"]),
        abandon_at=from_us_or_none(row["abandon_at"]),
        reminded=bool(row["reminded"]),
        timed_out=bool(row["timed_out"]),
        next_due_at=from_us_or_none(row["next_due_at"]),
    )


def offer_from_row(row: Row) -> AbandonOffer:
    return AbandonOffer(
        game_id=row["game_id"],
        offered_by=row["offered_by"],
        game_version=row["game_version"],
        created_at=from_us(row["created_at"]),
    )
