"""aiogram imported with deferred type schemas (bot.lazy_schemas) and the session's pinned
response models (bot.session): the memory and CPU savings must not cost correctness."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest
from aiogram import Bot
from aiogram.exceptions import ClientDecodeError, TelegramBadRequest
from aiogram.methods import DeleteMessage, EditMessageCaption, GetMe, Response, SendMessage

from bot.session import ApiSession

ROOT = Path(__file__).resolve().parents[2]

# VmHWM, not ru_maxrss: Linux carries the parent's (pytest's) peak across fork and exec.
PEAK = (
    "import pathlib; print(next(int(line.split()[1]) // 1024 for line in "
    "pathlib.Path('/proc/self/status').read_text().splitlines() if line.startswith('VmHWM')))"
)


def run_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_importing_the_bot_defers_aiogram_type_schemas_and_saves_memory() -> None:
    lean = run_python(
        "import bot, aiogram.types as T\n"
        "print(sum(not getattr(T, n).__pydantic_complete__ for n in T.__all__"
        " if hasattr(getattr(T, n), '__pydantic_complete__')))\n" + PEAK
    ).split()
    full = run_python("import aiogram\n" + PEAK)
    deferred, lean_mb = int(lean[0]), int(lean[1])
    assert deferred > 250  # every Telegram type waits for its first use
    # Measured: ~165 MB for plain aiogram 3.31, ~65 MB deferred.
    assert int(full) - lean_mb > 50, (full, lean_mb)


def test_every_deferred_type_and_method_still_builds_and_validates() -> None:
    """Forward references resolve for every model, also when one is nested in another."""
    update = {
        "update_id": 7,
        "callback_query": {
            "id": "42",
            "from": {"id": 1, "is_bot": False, "first_name": "Анна", "language_code": "ru"},
            "chat_instance": "ci",
            "data": "g:1:0:p:24:0",
            "message": {
                "message_id": 5,
                "date": 0,
                "chat": {"id": -100, "type": "supergroup", "title": "Нарды", "is_forum": True},
                "message_thread_id": 3,
                "photo": [{"file_id": "a", "file_unique_id": "b", "width": 1024, "height": 905}],
                "caption": "👉 Анна",
                "reply_markup": {"inline_keyboard": [[{"text": "24", "callback_data": "x"}]]},
                "reply_to_message": {
                    "message_id": 4,
                    "date": 0,
                    "chat": {"id": -100, "type": "supergroup", "title": "Нарды"},
                    "text": "/new",
                },
            },
        },
    }
    code = f"""
import json
import bot
from pydantic import BaseModel
import aiogram.types as T, aiogram.methods as M
from aiogram.types import Update, BotCommandScopeChat
from aiogram.methods import SetMyCommands

# First use through pydantic's own deferred path (no explicit rebuild).
u = Update.model_validate(json.loads({json.dumps(json.dumps(update))}))
assert u.callback_query.message.reply_to_message.text == "/new"
assert u.callback_query.message.reply_markup.inline_keyboard[0][0].text == "24"
# A method whose nested type needs a name aiogram imports only for type checkers.
m = SetMyCommands(commands=[], scope=BotCommandScopeChat(chat_id=-5))
assert m.scope.chat_id == -5
broken = []
for module in (T, M):
    for name in module.__all__:
        cls = getattr(module, name)
        if not (isinstance(cls, type) and issubclass(cls, BaseModel)):
            continue
        if cls.__pydantic_generic_metadata__["parameters"]:
            continue
        try:
            cls.model_rebuild()
            assert cls.__pydantic_complete__
        except Exception as exc:
            broken.append((name, repr(exc)[:200]))
print(len(broken), broken[:3])
"""
    assert run_python(code) == "0 []"


def test_session_keeps_response_models_alive() -> None:
    """aiogram asks for ``Response[T]`` on every reply; it must not be rebuilt each time."""
    session = ApiSession()
    bot = Bot("123:ABCdefGhIJKlmnoPQRstuVWXyz0123456789", session=session)
    ok = json.dumps({"ok": True, "result": True})
    first = session.check_response(bot, DeleteMessage(chat_id=1, message_id=2), 200, ok)
    gc.collect()
    second = session.check_response(bot, DeleteMessage(chat_id=1, message_id=3), 200, ok)
    assert type(first) is type(second) is Response[bool]
    me = json.dumps({"ok": True, "result": {"id": 9, "is_bot": True, "first_name": "Нарды"}})
    assert session.check_response(bot, GetMe(), 200, me).result.first_name == "Нарды"


def test_session_does_not_parse_the_message_an_edit_returns() -> None:
    session = ApiSession()
    bot = Bot("123:ABCdefGhIJKlmnoPQRstuVWXyz0123456789", session=session)
    # Not a valid Message (no date, no chat): parsing it would fail — it is not parsed.
    edited = json.dumps({"ok": True, "result": {"message_id": 5}})
    edit = EditMessageCaption(chat_id=1, message_id=5, caption="🎲 6-5")
    assert session.check_response(bot, edit, 200, edited).result is True
    # Anything else is parsed as aiogram would.
    with pytest.raises(ClientDecodeError):
        session.check_response(bot, SendMessage(chat_id=1, text="x"), 200, edited)
    # And a failed edit still raises Telegram's error.
    failed = json.dumps(
        {"ok": False, "error_code": 400, "description": "Bad Request: message is not modified"}
    )
    with pytest.raises(TelegramBadRequest, match="not modified"):
        session.check_response(bot, edit, 400, failed)


def test_start_up_objects_are_frozen_out_of_the_garbage_collector() -> None:
    from bot.app import settle_memory

    try:
        settle_memory()
        # Everything alive now (modules, aiogram, pydantic schemas) is out of the collector's
        # reach; a full collection walks only what came after.
        assert gc.get_freeze_count() > 50_000
        assert len(gc.get_objects()) < gc.get_freeze_count() / 10
    finally:
        gc.unfreeze()
