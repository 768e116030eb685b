"""The HTTP session the bot talks to the Bot API through."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.methods import (
    EditMessageCaption,
    EditMessageMedia,
    EditMessageReplyMarkup,
    EditMessageText,
    Response,
    TelegramMethod,
)

#: Edits whose returned message the bot never reads: a successful reply is not parsed.
UNREAD_RESULTS = (EditMessageMedia, EditMessageCaption, EditMessageReplyMarkup, EditMessageText)


class ApiSession(AiohttpSession):
    """aiogram's aiohttp session, made cheaper for what the bot does on every tap.

    * aiogram parses every reply with ``Response[method.__returning__]``. pydantic caches such
      parametrisations only weakly, so between two calls the class is garbage and the next
      call builds it again, schema and all — measured as a quarter of the bot's CPU under
      load. One strong reference per return type makes the second call a dictionary lookup.
    * A board edit returns the whole edited message (photo sizes, caption, the keyboard's
      buttons), ~0.2 ms to validate, and the bot never looks at it. A successful edit is
      returned as ``True`` instead (a value the Bot API itself gives for some edits); errors
      are parsed and raised exactly as before.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._responses: dict[Any, type[Response[Any]]] = {}
        self._edited: Response[bool] = Response[bool](ok=True, result=True)

    def check_response(
        self, bot: Bot, method: TelegramMethod[Any], status_code: int, content: str
    ) -> Response[Any]:
        if isinstance(method, UNREAD_RESULTS) and status_code == HTTPStatus.OK:
            try:
                reply = self.json_loads(content)
            except ValueError:
                reply = None
            if isinstance(reply, dict) and reply.get("ok") is True and "result" in reply:
                return self._edited
        returning = method.__returning__
        if returning not in self._responses:
            self._responses[returning] = Response[returning]  # type: ignore[valid-type]
        return super().check_response(bot, method, status_code, content)
