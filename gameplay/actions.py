"""Typed actions: what a person asks the game to do, and who and where they are.

The bot builds these from a button's callback data or a typed command; the game layer never
sees Telegram types. Chat kind is passed in (:class:`ChatKind`), never guessed from an id.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ChatKind(StrEnum):
    PRIVATE = "private"
    GROUP = "group"
    FORUM = "forum"  # a supergroup with topics: a game per topic


@dataclass(frozen=True, slots=True)
class Actor:
    """A person acting, with the name they have *now* (a renamed player is shown renamed)."""

    user_id: int
    name: str
    username: str | None = None


@dataclass(frozen=True, slots=True)
class Place:
    """Where something is asked: a chat, its forum topic (0 outside topics) and its kind.

    A game played in an inline-mode message has that message's id here; its ``chat_id`` is
    the inviter's private chat (the bot may not be in the chat where the message is)."""

    chat_id: int
    thread_id: int = 0
    kind: ChatKind = ChatKind.GROUP
    inline_message_id: str | None = None

    @property
    def private(self) -> bool:
        return self.kind is ChatKind.PRIVATE


@dataclass(frozen=True, slots=True)
class Roll:
    pass


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the turn being entered: a checker from ``src`` to ``dst``."""

    src: int
    dst: int


@dataclass(frozen=True, slots=True)
class Undo:
    pass


@dataclass(frozen=True, slots=True)
class Commit:
    """Done: confirm the turn entered so far (C-33)."""


@dataclass(frozen=True, slots=True)
class PlayText:
    """A whole play or a part of one in notation ("24/18 13/11"); a play that completes the
    turn is confirmed at once."""

    text: str


@dataclass(frozen=True, slots=True)
class WholePlay:
    """One of the turn's legal plays, chosen whole (a picker button): ``index`` into the
    turn's legal plays (:func:`gameplay.picker.whole_plays` numbers them); it is played and
    confirmed at once, replacing any steps entered so far."""

    index: int


@dataclass(frozen=True, slots=True)
class Double:
    pass


@dataclass(frozen=True, slots=True)
class Take:
    pass


@dataclass(frozen=True, slots=True)
class Drop:
    pass


@dataclass(frozen=True, slots=True)
class Resign:
    """Resigning is allowed to either player at any moment of the game (M-19)."""


Action = Roll | Step | Undo | Commit | PlayText | WholePlay | Double | Take | Drop | Resign

# Actions that wait for nobody's turn (the others must come from the seat to act).
ANYTIME: tuple[type, ...] = (Resign,)
