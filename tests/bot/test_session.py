"""The bot's HTTP session: pinned response models, board edits acknowledged without parsing the
message they return (and typed so), everything else parsed as aiogram does; uploads sent as
one body with aiogram's fields; and the start-up objects frozen out of the garbage collector."""

from __future__ import annotations

import gc
import json
import re
from typing import Any
from unittest.mock import patch
from uuid import UUID

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import ClientDecodeError, TelegramBadRequest
from aiogram.methods import (
    DeleteMessage,
    EditMessageCaption,
    EditMessageMedia,
    GetMe,
    Response,
    SendDocument,
    SendMessage,
    SendPhoto,
)
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
)
from aiohttp import BytesPayload, FormData

from bot.session import (
    ONE_PIECE_BYTES,
    ApiSession,
    EditCaptionUnread,
    EditMediaUnread,
    multipart_body,
)
from tests.fake_telegram import parse_form_data

TOKEN = "123:ABCdefGhIJKlmnoPQRstuVWXyz0123456789"


def test_session_keeps_response_models_alive() -> None:
    """aiogram asks for ``Response[T]`` on every reply; it must not be rebuilt each time."""
    session = ApiSession()
    bot = Bot(TOKEN, session=session)
    ok = json.dumps({"ok": True, "result": True})
    first = session.check_response(bot, DeleteMessage(chat_id=1, message_id=2), 200, ok)
    gc.collect()
    second = session.check_response(bot, DeleteMessage(chat_id=1, message_id=3), 200, ok)
    assert type(first) is type(second) is Response[bool]
    me = json.dumps({"ok": True, "result": {"id": 9, "is_bot": True, "first_name": "Нарды"}})
    assert session.check_response(bot, GetMe(), 200, me).result.first_name == "Нарды"


def test_unread_board_edits_declare_bool_and_are_not_parsed() -> None:
    session = ApiSession()
    bot = Bot(TOKEN, session=session)
    # Not a valid Message (no date, no chat): parsing it would fail — it is not parsed.
    edited = json.dumps({"ok": True, "result": {"message_id": 5}})
    caption = EditCaptionUnread(chat_id=1, message_id=5, caption="🎲 6-5")
    media = EditMediaUnread(chat_id=1, message_id=5, media=InputMediaPhoto(media="file-id"))
    for edit in (caption, media):
        assert edit.__returning__ is bool  # what the caller is promised …
        result = session.check_response(bot, edit, 200, edited).result
        assert result is True and isinstance(result, edit.__returning__)  # … is what it gets
    # Both are the Bot API methods they extend, sent under the same names.
    assert caption.__api_method__ == EditMessageCaption.__api_method__
    # A failed edit still raises Telegram's error.
    failed = json.dumps(
        {"ok": False, "error_code": 400, "description": "Bad Request: message is not modified"}
    )
    with pytest.raises(TelegramBadRequest, match="not modified"):
        session.check_response(bot, caption, 400, failed)


def test_a_plain_edit_returns_the_message_telegram_sent() -> None:
    """Only the opt-in methods skip parsing: a plain edit's result is the edited Message."""
    session = ApiSession()
    bot = Bot(TOKEN, session=session)
    message = {
        "message_id": 5,
        "date": 0,
        "chat": {"id": -100, "type": "supergroup", "title": "Нарды"},
        "caption": "🎲 6-5",
    }
    edit = EditMessageCaption(chat_id=-100, message_id=5, caption="🎲 6-5")
    result = session.check_response(bot, edit, 200, json.dumps({"ok": True, "result": message}))
    assert isinstance(result.result, Message) and result.result.caption == "🎲 6-5"
    broken = json.dumps({"ok": True, "result": {"message_id": 5}})
    with pytest.raises(ClientDecodeError):
        session.check_response(bot, edit, 200, broken)
    with pytest.raises(ClientDecodeError):
        session.check_response(bot, SendMessage(chat_id=1, text="x"), 200, broken)


def test_start_up_objects_are_frozen_out_of_the_garbage_collector() -> None:
    from bot.memory import GC_THRESHOLDS, settle_memory

    thresholds = gc.get_threshold()
    try:
        settle_memory()
        # Everything alive now (modules, aiogram, pydantic schemas) is out of the collector's
        # reach; a full collection walks only what came after, and less often.
        assert gc.get_freeze_count() > 50_000
        assert len(gc.get_objects()) < gc.get_freeze_count() / 10
        assert gc.get_threshold() == GC_THRESHOLDS
        assert GC_THRESHOLDS[0] > thresholds[0] and GC_THRESHOLDS[2] > thresholds[2]
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


async def _aiohttp_body(payload: Any) -> bytes:
    """What aiohttp writes for a request body (a FormData or a Payload) on the wire,
    de-chunked: the bytes of each write in order."""

    class Sink:
        def __init__(self) -> None:
            self.chunks: list[bytes] = []

        async def write(self, chunk: bytes) -> None:
            self.chunks.append(bytes(chunk))

    body = payload() if isinstance(payload, FormData) else payload
    sink = Sink()
    await body.write(sink)
    return b"".join(sink.chunks)


def _parts(body: bytes, content_type: str) -> list[tuple[str, str | None, str | None, bytes]]:
    """The parts of a multipart body, the ``attach://`` keys (random per request) renamed
    in the order they appear."""
    boundary = content_type.partition("boundary=")[2].encode()
    parts = list(parse_form_data(body, boundary))
    keys: dict[bytes, bytes] = {}
    for _, _, _, data in parts:
        for key in re.findall(rb"attach://([A-Za-z0-9_-]+)", data):
            keys.setdefault(key, b"file%d" % len(keys))
    renamed = []
    for name, filename, part_type, data in parts:
        for key, new in keys.items():
            data = data.replace(b"attach://" + key, b"attach://" + new)
        renamed.append((keys.get(name.encode(), name.encode()).decode(), filename, part_type, data))
    return renamed


async def test_an_upload_is_one_body_with_the_fields_aiogram_sends() -> None:
    """A picture's request is sent in one piece with a length (aiogram's own form streams the
    file, so aiohttp sent it chunked, a socket write per piece of every field): the same
    parts, names, file name, part headers and bytes as aiogram's form."""
    bot = Bot(TOKEN)
    picture = bytes(range(256)) * 400  # 100 KB, every byte value
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="13/7 «Ход»", callback_data="g:1:2")]]
    )
    methods = [
        SendPhoto(
            chat_id=-100,
            photo=BufferedInputFile(picture, filename="board-7.jpg"),
            caption="<b>Алиса</b> 🎲 6-5",
            reply_markup=keyboard,
        ),
        EditMessageMedia(
            chat_id=-100,
            message_id=5,
            media=InputMediaPhoto(
                media=BufferedInputFile(picture, filename="board-7.jpg"), caption="x"
            ),
            reply_markup=keyboard,
        ),
    ]
    for method in methods:
        ours = ApiSession().build_form_data(bot, method)
        assert isinstance(ours, BytesPayload) and ours.size == len(ours._value)
        theirs = AiohttpSession().build_form_data(bot, method)()
        assert ours.headers["Content-Type"].startswith("multipart/form-data; boundary=")
        assert _parts(ours._value, ours.headers["Content-Type"]) == _parts(
            await _aiohttp_body(theirs), theirs.headers["Content-Type"]
        )
        assert await _aiohttp_body(ours) == ours._value  # aiohttp writes it as it is


async def test_other_requests_are_what_aiogram_builds() -> None:
    """No file: form-encoded, the very bytes of aiogram's form. A file name that needs
    quoting or a large file (streamed, not held twice): aiogram's own form."""
    bot = Bot(TOKEN)
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Ход", callback_data="g:1:2")]]
    )
    session = ApiSession()
    message = SendMessage(chat_id=1, text="Привет & <b>до встречи</b>", reply_markup=keyboard)
    plain = session.build_form_data(bot, message)
    theirs = AiohttpSession().build_form_data(bot, message)()
    assert isinstance(plain, BytesPayload)
    assert plain.headers["Content-Type"] == theirs.headers["Content-Type"]
    assert plain.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert await _aiohttp_body(plain) == await _aiohttp_body(theirs)
    for upload in (
        BufferedInputFile(b"x" * 100, filename='партия "1".mat'),
        BufferedInputFile(b"x" * (ONE_PIECE_BYTES + 1), filename="replay.gif"),
    ):
        form = session.build_form_data(bot, SendDocument(chat_id=1, document=upload))
        assert isinstance(form, FormData) and form.is_multipart


def test_a_boundary_is_never_inside_the_body() -> None:
    """The boundary is random, and drawn again should it occur in a value or a file."""
    with patch("bot.session.uuid.uuid4") as uuid4:
        uuid4.side_effect = [UUID(int=1), UUID(int=1), UUID(int=2)]
        taken = UUID(int=1).hex
        body = multipart_body([("caption", taken)], [("f", "a.jpg", taken.encode())])
    assert UUID(int=2).hex in body.headers["Content-Type"]
    parts = list(parse_form_data(body._value, UUID(int=2).hex.encode()))
    assert [(name, data) for name, _, _, data in parts] == [
        ("caption", taken.encode()),
        ("f", taken.encode()),
    ]
