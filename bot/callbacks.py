"""Typed callback data (each packs to at most 64 bytes, Telegram's limit).

Board buttons carry the game id and the game's version — the freshness counter — so a tap on
an older board is recognised and answered "this board is outdated" without acting.
"""

from __future__ import annotations

from enum import StrEnum

from aiogram.filters.callback_data import CallbackData


class Act(StrEnum):
    ROLL = "r"
    DOUBLE = "d"
    TAKE = "t"
    DROP = "x"
    PICK = "p"  # a source point was tapped: show its destinations
    MOVE = "m"  # a destination was tapped: play the step
    BACK = "b"  # back from destinations to sources
    UNDO = "u"
    DONE = "c"
    RESIGN = "s"  # ask for confirmation
    RESIGN_YES = "y"
    RESIGN_NO = "n"
    REMATCH = "R"
    WHY = "w"  # explain the last forfeit / pass
    HINT = "h"
    VERIFY = "f"  # after the match: verify the dice (docs/fairness.md)
    REPLAY = "A"  # the finished game's animated replay
    RECORD = "F"  # the finished game's record as a .mat file
    OPEN = "o"  # a group's shared board: open the mover's private picker
    PLAY = "P"  # a whole play (``s``: its index among the turn's legal plays)
    WAY = "v"  # the picker's way: ``s`` 1 whole plays, 0 step by step (remembered)
    CLAIM = "C"  # the mover's time is up: the waiting player claims the game
    WAIT = "W"  # the mover's time is up: keep waiting
    ABANDON_YES = "a"  # accept the other player's offer to abandon the game
    ABANDON_NO = "z"  # decline (or withdraw) the offer
    ADMIN_END = "E"  # a group admin confirms ending the game
    ADMIN_KEEP = "K"  # ... or lets it go on
    REVIEW = "Q"  # the computer's review of the finished game
    MATCH_REVIEW = "M"  # the review of the whole match, once it is over


class GameCB(CallbackData, prefix="g"):
    game: int
    v: int
    a: Act
    s: int = 0
    t: int = 0


class LobbyAct(StrEnum):
    JOIN = "j"
    CANCEL = "c"
    ACCEPT = "a"
    DECLINE = "d"


class LobbyCB(CallbackData, prefix="l"):
    token: str
    a: LobbyAct


class MenuAct(StrEnum):
    INVITE = "i"  # private /new: invite a friend with this variant
    COMPUTER = "c"  # private /new: play the computer
    LEVEL = "l"  # chosen computer level
    CANCEL = "x"


class NewGameCB(CallbackData, prefix="n"):
    a: MenuAct
    variant: str = "long"
    level: str = ""


class RulesCB(CallbackData, prefix="k"):
    """/rules navigation: ``view`` is 'menu', 'variant' or 'topic'."""

    view: str
    key: str = ""
    game: int = 0


#: RulesCB(view="menu") key of a button on a message that is not a rules page (a private view
#: of a game's board): the menu comes as a message of its own, the tapped one stays as it is.
RULES_MENU_APART = "apart"


class SettingsCB(CallbackData, prefix="o"):
    """/settings: ``field`` to change and the new ``value``."""

    field: str
    value: str = ""
