"""Private answers in groups: what one member asked (/rules, /stats, /help, /hint, "Why?")
only they see, as an ephemeral message; a public reply when Telegram will not take it.

A handler says it answers privately with the flag ``answer="private"``. For its duration
(:class:`PrivateScope`, a Dispatcher middleware) the asker is remembered in a context
variable, and the session middleware :class:`PrivateAnswers` turns the handler's own sends to
that group into ephemeral ones addressed to the asker — so the handlers (and the rules
teacher's code behind them) stay as they are. A tap on such a private answer (the rules
menu's buttons) edits it: edits of ``message_id`` 0 become ``editEphemeralMessage*`` calls on
the tapped ephemeral message. Nothing else is touched: game boards and pickers are sent by
:mod:`bot.boards` outside any private scope.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.dispatcher.flags import get_flag
from aiogram.exceptions import TelegramAPIError, TelegramRetryAfter
from aiogram.methods import (
    DeleteEphemeralMessage,
    DeleteMessage,
    EditEphemeralMessageCaption,
    EditEphemeralMessageMedia,
    EditEphemeralMessageReplyMarkup,
    EditEphemeralMessageText,
    EditMessageCaption,
    EditMessageMedia,
    EditMessageReplyMarkup,
    EditMessageText,
    Response,
    SendMessage,
    SendPhoto,
    TelegramMethod,
)
from aiogram.methods.base import TelegramType
from aiogram.types import CallbackQuery, EphemeralMessageParameters, Message, TelegramObject

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PrivateTo:
    """Whom the current handler answers privately, in which group; ``ephemeral_id``: the
    private answer whose button was tapped (edits go to it)."""

    chat_id: int
    user_id: int
    query_id: str | None = None
    ephemeral_id: int | None = None


_CURRENT: ContextVar[PrivateTo | None] = ContextVar("nardy_private_answer", default=None)


def private_to(chat_id: int) -> PrivateTo | None:
    """The private scope of the running handler, if it answers in ``chat_id`` privately."""
    scope = _CURRENT.get()
    return scope if scope is not None and scope.chat_id == chat_id else None


class PrivateScope(BaseMiddleware):
    """Opens the private scope around handlers flagged ``answer="private"`` in groups."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if get_flag(data, "answer") != "private":
            return await handler(event, data)
        scope = None
        if isinstance(event, Message) and event.from_user is not None:
            if event.chat.type in ("group", "supergroup"):
                scope = PrivateTo(event.chat.id, event.from_user.id)
        elif isinstance(event, CallbackQuery) and isinstance(event.message, Message):
            message = event.message
            if message.chat.type in ("group", "supergroup"):
                scope = PrivateTo(
                    message.chat.id, event.from_user.id, event.id, message.ephemeral_message_id
                )
        if scope is None:
            return await handler(event, data)
        token = _CURRENT.set(scope)
        try:
            return await handler(event, data)
        finally:
            _CURRENT.reset(token)


class PrivateAnswers(BaseRequestMiddleware):
    """Sends of a private scope go to the asker only; edits of its tapped answer go to it."""

    def __init__(self) -> None:
        self.sent = 0
        self.fell_back = 0

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        scope = _CURRENT.get()
        if scope is None or getattr(method, "chat_id", None) != scope.chat_id:
            return await make_request(bot, method)
        if (
            isinstance(method, SendMessage | SendPhoto)
            and method.ephemeral_message_parameters is None
        ):
            private = method.model_copy(
                update={
                    "ephemeral_message_parameters": EphemeralMessageParameters(
                        receiver_user_id=scope.user_id, callback_query_id=scope.query_id
                    )
                }
            )
            try:
                response = await make_request(bot, private)  # type: ignore[arg-type]
            except TelegramRetryAfter:
                raise
            except TelegramAPIError as exc:  # an old client, a private chat mistaken…
                log.info("private answer in chat %s refused (%s): public", scope.chat_id, exc)
                self.fell_back += 1
                return await make_request(bot, method)
            self.sent += 1
            return response  # type: ignore[return-value]
        translated = _to_ephemeral(method, scope)
        if translated is not None:
            return await make_request(bot, translated)  # type: ignore[arg-type]
        return await make_request(bot, method)


def _to_ephemeral(method: TelegramMethod[Any], scope: PrivateTo) -> TelegramMethod[Any] | None:
    """An edit or delete of the tapped private answer (``message_id`` 0) as the ephemeral
    method that does it; None for anything else."""
    if scope.ephemeral_id is None or getattr(method, "message_id", None) != 0:
        return None
    where = {
        "chat_id": scope.chat_id,
        "receiver_user_id": scope.user_id,
        "ephemeral_message_id": scope.ephemeral_id,
    }
    if isinstance(method, EditMessageText):
        return EditEphemeralMessageText(
            text=method.text,
            parse_mode=method.parse_mode,
            entities=method.entities,
            reply_markup=method.reply_markup,
            **where,
        )
    if isinstance(method, EditMessageCaption):
        return EditEphemeralMessageCaption(
            caption=method.caption,
            parse_mode=method.parse_mode,
            caption_entities=method.caption_entities,
            reply_markup=method.reply_markup,
            **where,
        )
    if isinstance(method, EditMessageMedia):
        return EditEphemeralMessageMedia(
            media=method.media, reply_markup=method.reply_markup, **where
        )
    if isinstance(method, EditMessageReplyMarkup):
        return EditEphemeralMessageReplyMarkup(reply_markup=method.reply_markup, **where)
    if isinstance(method, DeleteMessage):
        return DeleteEphemeralMessage(**where)
    return None
