"""The language of each chat: a private chat speaks its user's language, a group its own.

A presentation cache in front of the game layer's people and chats: the language is read
once per chat and kept (``remember`` records a change made by /lang or a newcomer).
"""

from __future__ import annotations

from bot.texts import normalise_lang
from gameplay import Chats, Players
from storage.recent import Recent


class Languages:
    def __init__(
        self, players: Players, chats: Chats, limit: int = 100_000, *, max_age: float | None = None
    ) -> None:
        """``max_age``: seconds a language is believed once read (set it when other workers
        may change it with /lang)."""
        self.players = players
        self.chats = chats
        self._cache: Recent[int, str] = Recent(limit, max_age=max_age)

    def remember(self, chat_id: int, lang: str) -> None:
        self._cache[chat_id] = lang

    async def of_chat(self, chat_id: int) -> str:
        lang = self._cache.get(chat_id)
        if lang is not None:
            return lang
        # Telegram's convention: a private chat has its user's (positive) id, groups negative.
        if chat_id > 0:
            stored = await self.players.language_of(chat_id)
        else:
            stored = await self.chats.language_of(chat_id)
        lang = normalise_lang(stored)
        self._cache[chat_id] = lang
        return lang
