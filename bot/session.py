"""The HTTP session the bot talks to the Bot API through, the board edits whose reply it does
not read, and the record of which taps have been answered."""

from __future__ import annotations

import re
import uuid
from http import HTTPStatus
from typing import Any, ClassVar
from urllib.parse import urlencode

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
from aiogram.types import BufferedInputFile, InputFile
from aiohttp import BytesPayload, FormData

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

#: A file name written into a part's header as it is: nothing to quote or escape.
_PLAIN_FILENAME = re.compile(r"[A-Za-z0-9._-]{1,128}")
#: Uploads up to this size in all are sent in one piece (a board is ~100 KB); larger ones
#: (a replay's GIF) are streamed as aiogram does, not held twice in memory.
ONE_PIECE_BYTES = 512 * 1024


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
    * An upload (a board's picture) is sent as one ``multipart/form-data`` body built here
      (:meth:`build_form_data`). aiogram hands aiohttp each file as an async generator, so
      aiohttp sent the request chunked, in four socket writes per field (boundary, headers,
      value, line end) — some 35 writes per picture, each a TCP segment the other end
      parses. The same fields and file in one body with its length is one write. A call
      without a file is form-encoded here too, without aiohttp's form and its multipart
      writer.
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

    def build_form_data(  # type: ignore[override]  # aiohttp posts either
        self, bot: Bot, method: TelegramMethod[TelegramType]
    ) -> FormData | BytesPayload:
        """The request's body: what aiogram's form gives aiohttp, built directly — a request
        without files form-encoded, one whose files are all in memory
        (:class:`BufferedInputFile`, named plainly, small) as one multipart body.

        The fields are those of aiogram's own ``build_form_data``: the method's values
        prepared by ``prepare_value`` (empty ones left out), each file as
        ``attach://<key>``'s part. Any other upload (a file read from disk or a URL, a name
        that would need quoting, a large file) goes in aiogram's form. (An aiohttp form
        builds a multipart writer, a random boundary and all, even when it is sent
        form-encoded: ~7 of a turn's ~11 calls have no file.)"""
        files: dict[str, InputFile] = {}
        fields = [
            (key, prepared)
            for key, value in method.model_dump(warnings=False).items()
            if (prepared := self.prepare_value(value, bot=bot, files=files))
        ]
        in_memory = [
            (key, upload.filename or key, upload.data)
            for key, upload in files.items()
            if isinstance(upload, BufferedInputFile)
            and _PLAIN_FILENAME.fullmatch(upload.filename or key)
        ]
        text_only = all(isinstance(value, str) for _, value in fields)
        if text_only and not files:
            # what aiohttp's form makes of text fields alone, without building the form
            return BytesPayload(
                urlencode(fields, doseq=True, encoding="utf-8").encode(),
                content_type="application/x-www-form-urlencoded",
            )
        if (
            text_only
            and len(in_memory) == len(files)
            and sum(len(data) for _, _, data in in_memory) <= ONE_PIECE_BYTES
        ):
            return multipart_body(fields, in_memory)
        return super().build_form_data(bot, method)


def multipart_body(
    fields: list[tuple[str, str]], files: list[tuple[str, str, bytes]]
) -> BytesPayload:
    """``fields`` (name, text) and ``files`` (name, file name, bytes) as one
    ``multipart/form-data`` body (RFC 7578) with a random boundary found in none of them,
    each part's headers as aiohttp writes them. Names are aiogram's parameter names and its
    ``attach://`` keys: plain ASCII."""
    while True:
        boundary = uuid.uuid4().hex
        marker = boundary.encode()
        if not any(marker in data for _, _, data in files) and not any(
            boundary in value for _, value in fields
        ):
            break
    parts: list[bytes] = []
    for name, value in fields:
        parts += (
            b"--%s\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b'Content-Disposition: form-data; name="%s"\r\n\r\n' % (marker, name.encode()),
            value.encode(),
            b"\r\n",
        )
    for name, filename, data in files:
        parts += (
            b"--%s\r\nContent-Type: application/octet-stream\r\n"
            b'Content-Disposition: form-data; name="%s"; filename="%s"\r\n\r\n'
            % (marker, name.encode(), filename.encode()),
            data,
            b"\r\n",
        )
    parts.append(b"--%s--\r\n" % marker)
    return BytesPayload(b"".join(parts), content_type=f"multipart/form-data; boundary={boundary}")


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
