"""What a chat sees of a game: the caption, the inline keyboard and the picture's options.

Pure functions of a :class:`gameplay.Snapshot` and the chat's point of view
(:class:`ChatView`), one module each: :mod:`.caption`, :mod:`.keyboard`, :mod:`.board`.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiogram.types import InlineKeyboardMarkup

from bot.presenter.board import board_options
from bot.presenter.caption import CAPTION_LIMIT, caption
from bot.presenter.common import (
    DISC,
    ChatView,
    burned_dice,
    dice_text,
    event_line,
    forfeit_rule,
    last_play_event,
    localized,
    mention,
    point_label,
    short_name,
    shown_position,
)
from bot.presenter.dice import commitment_line, with_copy_button
from bot.presenter.keyboard import keyboard
from engine import Position
from gameplay import Snapshot
from renderer.options import BoardOptions

__all__ = [
    "CAPTION_LIMIT",
    "DISC",
    "BoardView",
    "ChatView",
    "board_options",
    "board_picture",
    "board_view",
    "burned_dice",
    "caption",
    "dice_text",
    "event_line",
    "forfeit_rule",
    "keyboard",
    "last_play_event",
    "localized",
    "mention",
    "point_label",
    "short_name",
    "shown_position",
]


@dataclass(frozen=True, slots=True)
class BoardView:
    caption: str
    keyboard: InlineKeyboardMarkup | None
    options: BoardOptions
    position: Position


def board_view(snap: Snapshot, view: ChatView) -> BoardView:
    snap = localized(snap, view.lang)
    text, buttons = caption(snap, view), keyboard(snap, view)
    if snap.dice_commitment is not None:  # a new game's first board: the dice commitment
        line = "\n" + commitment_line(view.lang, snap.dice_commitment)
        if len(text) + len(line) <= CAPTION_LIMIT:
            text += line
        buttons = with_copy_button(buttons, view.lang, snap.dice_commitment)
    return BoardView(text, buttons, board_options(snap, view), shown_position(snap, view))


def board_picture(snap: Snapshot, view: ChatView) -> tuple[Position, BoardOptions]:
    """What :func:`board_view`'s picture is drawn from, without its caption and buttons."""
    snap = localized(snap, view.lang)
    return shown_position(snap, view), board_options(snap, view)
