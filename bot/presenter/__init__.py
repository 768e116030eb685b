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
)
from bot.presenter.keyboard import keyboard
from gameplay import Snapshot
from renderer.options import BoardOptions

__all__ = [
    "CAPTION_LIMIT",
    "DISC",
    "BoardView",
    "ChatView",
    "board_options",
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
]


@dataclass(frozen=True, slots=True)
class BoardView:
    caption: str
    keyboard: InlineKeyboardMarkup | None
    options: BoardOptions


def board_view(snap: Snapshot, view: ChatView) -> BoardView:
    snap = localized(snap, view.lang)
    return BoardView(caption(snap, view), keyboard(snap, view), board_options(snap, view))
