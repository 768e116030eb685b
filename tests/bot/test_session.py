"""The bot's HTTP session: pinned response models, board edits acknowledged without parsing the
message they return (and typed so), everything else parsed as aiogram does; and the start-up
objects frozen out of the garbage collector."""

from __future__ import annotations

import gc
import json

import pytest
from aiogram import Bot
from aiogram.exceptions import ClientDecodeError, TelegramBadRequest
from aiogram.methods import DeleteMessage, EditMessageCaption, GetMe, Response, SendMessage
from aiogram.types import InputMediaPhoto, Message

from bot.session import ApiSession, EditCaptionUnread, EditMediaUnread

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
