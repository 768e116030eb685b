"""Group pickers, for both backends: what the bot has shown the people of a group game in
private (ephemeral messages) during a turn, and how that turn is being played.

Several webhook workers serve one game, so none may keep this in memory alone: which picker
or private view is open (to close it when the turn moves on), how often this turn's picker
was sent (after two sends the turn goes on the board's own buttons) and whether the turn fell
back to those buttons. A turn is named by the game's number in its match and the count of
its events (``gameplay.turn_key``); a row of an older turn is outdated, never wrong.

Two workers racing get one answer: a send is counted by one ``UPDATE``-on-conflict (each
worker gets its own count back); a shown message is closed by whoever *deletes* its row
(``RETURNING``), so it is closed once; and keeping a newly shown one reads the game's row
locked first (PostgreSQL), so of two pickers sent at once exactly one is kept and the other
handed back to be closed.
"""

from __future__ import annotations

from typing import Any

from storage.errors import NotFoundError
from storage.models import PickerMessage, PickerTurn
from storage.sql.steps import Body, Dialect, one, rows
from storage.sqlite.rows import from_us

TURN_COLUMNS = "game_id, game_number, move_number, sends, on_board, updated_at"
MESSAGE_COLUMNS = (
    "game_id, kind, user_id, chat_id, ephemeral_id, game_number, move_number, updated_at"
)
#: What a row in ``picker_messages`` is: the mover's picker, or someone else's private view.
KINDS = ("picker", "view")

#: A send of the turn's picker: the first of a new turn starts the count again (and the turn
#: on the picker, not the board).
COUNT_SEND = (
    f"INSERT INTO picker_turns ({TURN_COLUMNS}) VALUES (?1, ?2, ?3, 1, 0, ?4) "
    "ON CONFLICT (game_id) DO UPDATE SET "
    "sends = CASE WHEN picker_turns.game_number = excluded.game_number "
    "AND picker_turns.move_number = excluded.move_number THEN picker_turns.sends + 1 ELSE 1 END, "
    "on_board = CASE WHEN picker_turns.game_number = excluded.game_number "
    "AND picker_turns.move_number = excluded.move_number THEN picker_turns.on_board ELSE 0 END, "
    "game_number = excluded.game_number, move_number = excluded.move_number, "
    "updated_at = excluded.updated_at "
    f"RETURNING {TURN_COLUMNS}"
)

#: The turn is played on the shared board's buttons (its sends so far are kept).
PUT_ON_BOARD = (
    f"INSERT INTO picker_turns ({TURN_COLUMNS}) VALUES (?1, ?2, ?3, 0, 1, ?4) "
    "ON CONFLICT (game_id) DO UPDATE SET "
    "sends = CASE WHEN picker_turns.game_number = excluded.game_number "
    "AND picker_turns.move_number = excluded.move_number THEN picker_turns.sends ELSE 0 END, "
    "on_board = 1, game_number = excluded.game_number, move_number = excluded.move_number, "
    "updated_at = excluded.updated_at "
    f"RETURNING {TURN_COLUMNS}"
)

SELECT_TURN = f"SELECT {TURN_COLUMNS} FROM picker_turns WHERE game_id = ?"

SELECT_MESSAGES = (
    f"SELECT {MESSAGE_COLUMNS} FROM picker_messages WHERE game_id = ? ORDER BY kind, user_id"
)

SELECT_MESSAGE = (
    f"SELECT {MESSAGE_COLUMNS} FROM picker_messages WHERE game_id = ? AND kind = ? AND user_id = ?"
)

KEEP_MESSAGE = (
    f"INSERT INTO picker_messages ({MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (game_id, kind, user_id) DO UPDATE SET chat_id = excluded.chat_id, "
    "ephemeral_id = excluded.ephemeral_id, game_number = excluded.game_number, "
    "move_number = excluded.move_number, updated_at = excluded.updated_at"
)

GAME_EXISTS = "SELECT 1 FROM games WHERE game_id = ?"


def _require_game(game_id: int, lock: str = "") -> Body[None]:
    if (yield one(GAME_EXISTS + lock, game_id)) is None:
        raise NotFoundError("game", game_id)


def turn_from_row(row: Any) -> PickerTurn:
    return PickerTurn(
        game_id=row["game_id"],
        game_number=int(row["game_number"]),
        move_number=int(row["move_number"]),
        sends=int(row["sends"]),
        on_board=bool(row["on_board"]),
        updated_at=from_us(row["updated_at"]),
    )


def message_from_row(row: Any) -> PickerMessage:
    return PickerMessage(
        game_id=row["game_id"],
        kind=row["kind"],
        user_id=row["user_id"],
        chat_id=row["chat_id"],
        ephemeral_id=int(row["ephemeral_id"]),
        game_number=int(row["game_number"]),
        move_number=int(row["move_number"]),
        updated_at=from_us(row["updated_at"]),
    )


def count_send(
    db: Dialect, game_id: int, game_number: int, move_number: int, now: int
) -> Body[PickerTurn]:
    yield from _require_game(game_id)
    return turn_from_row((yield one(COUNT_SEND, game_id, game_number, move_number, now)))


def put_on_board(
    db: Dialect, game_id: int, game_number: int, move_number: int, now: int
) -> Body[PickerTurn]:
    yield from _require_game(game_id)
    return turn_from_row((yield one(PUT_ON_BOARD, game_id, game_number, move_number, now)))


def keep_message(
    db: Dialect, message: PickerMessage, newest_wins: bool, now: int
) -> Body[PickerMessage | None]:
    """Remember a shown picker or view, one per game, kind and person, and return the one
    to close (or None). Of two sent for one person (two taps on two workers) the newer stays
    (``newest_wins``, the larger id) — the one just sent comes back if it is the older —
    unless the caller knows the person is using this one (they tapped it). The game's row
    is read locked first, so two keeps of one game are decided one after the other."""
    yield from _require_game(message.game_id, lock=db.for_update)
    old = yield one(SELECT_MESSAGE, message.game_id, message.kind, message.user_id)
    if old is not None and int(old["ephemeral_id"]) == message.ephemeral_id:
        return None
    if old is not None and newest_wins and int(old["ephemeral_id"]) > message.ephemeral_id:
        return message
    yield one(
        KEEP_MESSAGE,
        message.game_id,
        message.kind,
        message.user_id,
        message.chat_id,
        message.ephemeral_id,
        message.game_number,
        message.move_number,
        now,
    )
    return None if old is None else message_from_row(old)


def take_messages(
    db: Dialect, game_id: int, kind: str, keep_turn: tuple[int, int] | None
) -> Body[list[PickerMessage]]:
    """Forget the game's messages of ``kind`` (but those of ``keep_turn``) and return them:
    the caller that got a row back is the one that closes its message."""
    if keep_turn is None:
        taken = yield rows(
            f"DELETE FROM picker_messages WHERE game_id = ? AND kind = ? "
            f"RETURNING {MESSAGE_COLUMNS}",
            game_id,
            kind,
        )
    else:
        taken = yield rows(
            "DELETE FROM picker_messages WHERE game_id = ? AND kind = ? "
            "AND NOT (game_number = ? AND move_number = ?) "
            f"RETURNING {MESSAGE_COLUMNS}",
            game_id,
            kind,
            *keep_turn,
        )
    return [message_from_row(r) for r in taken]


def forget_message(db: Dialect, message: PickerMessage) -> Body[bool]:
    """Forget one shown message, if it is still the one stored (a newer one is kept)."""
    taken = yield rows(
        "DELETE FROM picker_messages WHERE game_id = ? AND kind = ? AND user_id = ? "
        "AND ephemeral_id = ? RETURNING game_id",
        message.game_id,
        message.kind,
        message.user_id,
        message.ephemeral_id,
    )
    return bool(taken)
