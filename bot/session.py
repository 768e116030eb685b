"""The HTTP session the bot talks to the Bot API through."""

from __future__ import annotations

from typing import Any

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.methods import Response, TelegramMethod


class ApiSession(AiohttpSession):
    """aiogram's aiohttp session, keeping the parametrised ``Response[...]`` models alive.

    aiogram parses every reply with ``Response[method.__returning__]``. pydantic caches such
    parametrisations only weakly, so between two calls the class is garbage and the next call
    builds it again, schema and all — measured as a quarter of the bot's CPU under load. Holding
    one strong reference per return type makes the second call a dictionary lookup.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._responses: dict[Any, type[Response[Any]]] = {}

    def check_response(
        self, bot: Bot, method: TelegramMethod[Any], status_code: int, content: str
    ) -> Response[Any]:
        returning = method.__returning__
        if returning not in self._responses:
            self._responses[returning] = Response[returning]  # type: ignore[valid-type]
        return super().check_response(bot, method, status_code, content)
