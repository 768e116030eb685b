"""The HTTP session the bot talks to the Bot API through, the board edits whose reply it does
not read, and the record of which taps have been answered."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any, ClassVar

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageCaption,
    EditMessageMedia,
    Response,
    TelegramMethod,
)
from aiogram.methods.base import TelegramType

from storage.recent import Recent


class EditCaptionUnread(EditMessageCaption):
    """``editMessageCaption`` for a caller that never reads the edited message: it returns
    ``True`` once Telegram has accepted the edit."""

    __returning__: ClassVar[type] = bool


class EditMediaUnread(EditMessageMedia):
    """``editMessageMedia`` for a caller that never reads the edited message: it returns
    ``True`` once Telegram has accepted the edit."""

    __returning__: ClassVar[type] = bool


#: Methods whose successful reply is acknowledged without being parsed.
UNREAD_RESULTS = (EditCaptionUnread, EditMediaUnread)


class ApiSession(AiohttpSession):
    """aiogram's aiohttp session, made cheaper for what the bot does on every tap.

    * aiogram parses every reply with ``Response[method.__returning__]``. pydantic caches such
      parametrisations only weakly, so between two calls the class is garbage and the next
      call builds it again, schema and all — measured as a quarter of the bot's CPU under
      load. One strong reference per return type makes the second call a dictionary lookup.
    * A board edit returns the whole edited message (photo sizes, caption, the keyboard's
      buttons), ~0.15 ms to validate, and the board publisher never looks at it. It sends
      :class:`EditCaptionUnread` / :class:`EditMediaUnread`, whose declared result is ``bool``:
      a successful reply is answered with ``True`` without parsing the message. Every other
      method, the plain edits included, is parsed as aiogram does; errors are parsed and
      raised exactly as before.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._responses: dict[Any, type[Response[Any]]] = {}
        self._accepted: Response[bool] = Response[bool](ok=True, result=True)

    def check_response(
        self, bot: Bot, method: TelegramMethod[Any], status_code: int, content: str
    ) -> Response[Any]:
        if isinstance(method, UNREAD_RESULTS) and status_code == HTTPStatus.OK:
            try:
                reply = self.json_loads(content)
            except ValueError:
                reply = None
            if isinstance(reply, dict) and reply.get("ok") is True and "result" in reply:
                return self._accepted
        returning = method.__returning__
        if returning not in self._responses:
            self._responses[returning] = Response[returning]  # type: ignore[valid-type]
        return super().check_response(bot, method, status_code, content)


class AnsweredQueries(BaseRequestMiddleware):
    """Remembers which callback queries have been answered (or the answer attempted).

    Telegram accepts one answer per callback query; a second fails with "query is too old".
    Handlers answer a tap early and in several places, so the one place that sees every answer
    go out — the session's request chain — keeps the ids; the error handler asks it before
    answering a tap whose handler failed.
    """

    def __init__(self, limit: int = 10_000) -> None:
        self._ids: Recent[str, bool] = Recent(limit)

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        if isinstance(method, AnswerCallbackQuery):
            self._ids[method.callback_query_id] = True  # even a failed answer used the one try
        return await make_request(bot, method)

    def __contains__(self, query_id: object) -> bool:
        return query_id in self._ids
