"""The game layer: between the engine and storage below and the Telegram bot above.

It knows games, players, chats and invitations, never Telegram: the bot passes typed actions
(:mod:`gameplay.actions`) with who acts and where, and gets snapshots, outcomes or a
:class:`Refused` with a :class:`Refusal` to word. It imports no aiogram (a test checks).
"""

from gameplay.actions import (
    Action,
    Actor,
    ChatKind,
    Commit,
    Double,
    Drop,
    Place,
    PlayText,
    Resign,
    Roll,
    Step,
    Take,
    Undo,
    WholePlay,
)
from gameplay.cache import GameCache
from gameplay.computer import ComputerPlayers
from gameplay.lobby import Lobby, RematchOffer
from gameplay.people import ChatDefaults, Chats, Players
from gameplay.picker import PickerWay, one_tap_steps, turn_key, whole_plays
from gameplay.refusals import Refusal, Refused
from gameplay.service import Decision, GameService, Hints, Outcome
from gameplay.snapshot import Snapshot

__all__ = [
    "Action",
    "Actor",
    "ChatDefaults",
    "ChatKind",
    "Chats",
    "Commit",
    "ComputerPlayers",
    "Decision",
    "Double",
    "Drop",
    "GameCache",
    "GameService",
    "Hints",
    "Lobby",
    "Outcome",
    "PickerWay",
    "Place",
    "PlayText",
    "Players",
    "Refusal",
    "Refused",
    "RematchOffer",
    "Resign",
    "Roll",
    "Snapshot",
    "Step",
    "Take",
    "Undo",
    "WholePlay",
    "one_tap_steps",
    "turn_key",
    "whole_plays",
]
