"""Finished games looked up again: a chat's or a player's recent games (``/history``), the one
a ``/review`` means, and the earlier games of a match for its whole record."""

from __future__ import annotations

import storage
from engine import Match
from engine.record import GameLog, current_game_log
from gameplay.actions import Place
from gameplay.refusals import Refusal, Refused

HISTORY_SIZE = 10


class Archive:
    """Read-only views of stored games."""

    def __init__(self, store: storage.Storage) -> None:
        self.store = store

    async def recent(
        self, place: Place, user_id: int, limit: int = HISTORY_SIZE
    ) -> list[storage.Game]:
        """Finished games, newest first: the chat's in a group, the user's own (in any
        chat) in a private chat."""
        finished = storage.GameStatus.FINISHED
        if place.private:
            return await self.store.list_user_games(user_id, status=finished, limit=limit)
        return await self.store.list_chat_games(place.chat_id, status=finished, limit=limit)

    async def finished_game(self, place: Place, user_id: int, game_id: int | None) -> storage.Game:
        """The game ``/review`` means: ``game_id`` if it belongs to this chat or to the user,
        else the latest of :meth:`recent`. Refused(GAME_NOT_FOUND) when there is none,
        Refused(GAME_NOT_OVER) for a game still being played."""
        if game_id is None:
            games = await self.recent(place, user_id, limit=1)
            if not games:
                raise Refused(Refusal.GAME_NOT_FOUND)
            return games[0]
        try:
            game = await self.store.get_game(game_id)
        except storage.NotFoundError:
            raise Refused(Refusal.GAME_NOT_FOUND) from None
        if game.chat_id != place.chat_id and user_id not in (
            game.white_user_id,
            game.black_user_id,
        ):
            raise Refused(Refusal.GAME_NOT_FOUND)
        if game.status is not storage.GameStatus.FINISHED:
            raise Refused(Refusal.GAME_NOT_OVER)
        return game

    async def earlier_games(self, game_id: int) -> list[GameLog]:
        """The logs of the games played before ``game_id`` in its match, first game first
        (each game is stored in its own row; the match's rows share a dice seed)."""
        logs = []
        for row in await self.store.match_games(game_id):
            if row.game_id >= game_id:
                break
            logs.append(current_game_log(Match.from_json(row.state)))
        return logs


__all__ = ["HISTORY_SIZE", "Archive"]
