"""The one in-memory copy of recent games: the newest stored row and its parsed match.

Every write to a game goes through :class:`~gameplay.service.GameService`, and each write
returns the row it stored, so the newest row (and the match it holds, already parsed) is
known without reading it back: a tap costs no database read and no JSON parse. The entry is
keyed by the row's version, the same freshness counter every button carries and every save
checks, so a stale entry cannot be acted on: a save from it fails, and a tap carrying a newer
version than the entry reloads the game.
"""

from __future__ import annotations

from collections import OrderedDict

import storage
from engine import Match


class GameCache:
    """A bounded map game id -> (newest row, its match), least recently used forgotten."""

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._entries: OrderedDict[int, tuple[storage.Game, Match]] = OrderedDict()

    def get(self, game_id: int) -> tuple[storage.Game, Match] | None:
        """The newest known row and a private copy of its match (the caller may mutate it)."""
        entry = self._entries.get(game_id)
        if entry is None:
            return None
        self._entries.move_to_end(game_id)
        row, match = entry
        return row, match.copy()

    def get_version(self, game_id: int) -> int | None:
        """The newest known version of a game (without copying its match)."""
        entry = self._entries.get(game_id)
        return entry[0].version if entry is not None else None

    def put(self, row: storage.Game, match: Match) -> None:
        """Remember ``row`` (and ``match``, its state) unless a newer version is known."""
        known = self._entries.get(row.game_id)
        if known is not None and known[0].version > row.version:
            return
        self._entries[row.game_id] = (row, match.copy())
        self._entries.move_to_end(row.game_id)
        while len(self._entries) > self.limit:
            self._entries.popitem(last=False)

    def forget(self, game_id: int) -> None:
        self._entries.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._entries)
