"""Outer middlewares: drop redelivered updates, and give handlers the user's language.

Both run before any handler, so handlers stay thin: they receive ``lang`` by name.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, Message, TelegramObject, Update, User

import storage
from bot.boards import Languages
from bot.recent import Recent
from bot.texts import normalise_lang

log = logging.getLogger(__name__)
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class OncePerUpdate(BaseMiddleware):
    """A redelivered update (same ``update_id``) is acknowledged and ignored: it acts once."""

    def __init__(self, store: storage.Storage) -> None:
        self.store = store
        self.duplicates = 0

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        if isinstance(event, Update) and not await self.store.mark_update_processed(
            event.update_id
        ):
            self.duplicates += 1
            log.info("update %s was already processed; ignored", event.update_id)
            return None
        return await handler(event, data)


def display_name(user: User) -> str:
    name = " ".join(p for p in (user.first_name, user.last_name) if p)
    return name or (user.username or str(user.id))


class Context(BaseMiddleware):
    """Registers users and chats once and puts ``lang`` (the chat's language) into ``data``."""

    def __init__(self, store: storage.Storage, langs: Languages) -> None:
        self.store = store
        self.langs = langs
        self._users: Recent[int, tuple[str, str | None]] = Recent(100_000)
        self._chats: Recent[int, bool] = Recent(100_000)

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user: User | None = None
        chat = None
        if isinstance(event, Message):
            user, chat = event.from_user, event.chat
        elif isinstance(event, CallbackQuery):
            user = event.from_user
            chat = event.message.chat if event.message is not None else None
        if user is not None and not user.is_bot:
            await self._user(user)
        if chat is not None and self._chats.get(chat.id) is None:
            await self.store.upsert_chat(chat.id, chat.type, title=chat.title)
            self._chats[chat.id] = True
        if chat is not None:
            data["lang"] = await self.langs.of_chat(chat.id)
        elif user is not None:
            data["lang"] = await self.langs.of_chat(user.id)
        else:
            data["lang"] = "ru"
        return await handler(event, data)

    async def _user(self, user: User) -> None:
        name = display_name(user)
        known = self._users.get(user.id)
        if known is not None and known == (name, user.username):
            return
        language: str | None = None
        try:
            stored = await self.store.get_user(user.id)
            if stored.language is None:
                language = normalise_lang(user.language_code)
        except storage.NotFoundError:
            language = normalise_lang(user.language_code)
        await self.store.upsert_user(user.id, name, username=user.username, language=language)
        if language is not None:
            self.langs.remember(user.id, language)
        self._users[user.id] = (name, user.username)
