"""A fake Telegram Bot API server for end-to-end tests of the nardy bot.

Why this exists: the real bot must be exercised exactly as it runs in production -- a real
aiogram ``Bot`` speaking HTTP and a real ``Dispatcher`` long-polling ``getUpdates`` -- but
Telegram is not reachable from CI, and mocks at the Python level skip the serialisation,
validation and error mapping where real bots break.  This module runs a small aiohttp server on
127.0.0.1 that speaks the Bot API wire format, keeps per-chat message state, is strict where
Telegram is strict (answering with Telegram's own error wording, so aiogram raises the same
exception types), and lets a test play the users: type text, tap buttons, and then read back
what the bot did as a recorded call list or a human-readable transcript.

Typical use (see ``docs/testing.md`` for the whole driving API)::

    async with FakeTelegram() as tg:
        bot = tg.make_bot()
        alice = tg.user(1001, "Alice")
        chat = tg.private_chat(alice)
        await tg.send_text(chat, alice, "/start")
        call = await tg.wait_for(lambda c: c.method == "sendMessage")
        await tg.tap_button(chat, alice, "New game")
        await tg.wait_idle()
        print(tg.transcript(chat.id))

The server is single-process and single-event-loop: all state lives on the ``FakeTelegram``
instance and is only touched from the loop, so no locks are needed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import itertools
import json
import mimetypes
import random
import re
import socket
import time
import urllib.parse
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import Message
from aiohttp import web
from PIL import Image

from tests.fake_inline import InlineAnswer, InlineMode, InlineQuery

__all__ = [
    "Call",
    "CallbackAnswer",
    "FakeChat",
    "FakeTelegram",
    "FakeUser",
    "InlineAnswer",
    "InlineQuery",
    "LocalBotSession",
    "StoredFile",
    "StoredMessage",
    "TelegramApiError",
]

# --------------------------------------------------------------------------------------------
# Telegram's own error descriptions.  aiogram maps errors by HTTP status, but bots (and our
# error handler) match on these strings, so they are spelled exactly as Telegram spells them.
# --------------------------------------------------------------------------------------------

# How long the bot must stay quiet after its last call, once it reports no update in hand,
# before :meth:`FakeTelegram.wait_settled` calls it settled.
SETTLED_LULL = 0.01
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
BLOCKED = "Forbidden: bot was blocked by the user"
KICKED_GROUP = "Forbidden: bot was kicked from the group chat"
KICKED_SUPERGROUP = "Forbidden: bot was kicked from the supergroup chat"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
CHAT_NOT_FOUND = "Bad Request: chat not found"
TEXT_EMPTY = "Bad Request: message text is empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
MEDIA_REQUIRED = 'Bad Request: parameter "media" is required'
ALBUM_EMPTY = "Bad Request: there are no messages to send"
ALBUM_TOO_LARGE = "Bad Request: too many messages to send as an album"
# Telegram itself sends a lone item as a plain message, but the Bot API documents 2-10 items:
# the fake holds bots to the documented contract (its own wording, not Telegram's).
ALBUM_TOO_SMALL = "Bad Request: a media group must include 2-10 items"
ALBUM_NO_MARKUP = "Bad Request: a media group takes no reply_markup"
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
BUTTON_URL_INVALID = "Bad Request: BUTTON_URL_INVALID"
MARKUP_TOO_LONG = "Bad Request: reply markup is too long"
PHOTO_DIMENSIONS = "Bad Request: PHOTO_INVALID_DIMENSIONS"
IMAGE_FAILED = "Bad Request: IMAGE_PROCESS_FAILED"
WRONG_FILE_ID = "Bad Request: wrong file identifier/HTTP URL specified"
THREAD_NOT_FOUND = "Bad Request: message thread not found"
REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
CANT_EDIT = "Bad Request: message can't be edited"
CANT_DELETE = "Bad Request: message can't be deleted"
NO_TEXT_TO_EDIT = "Bad Request: there is no text in the message to edit"
NO_CAPTION_TO_EDIT = "Bad Request: there is no caption in the message to edit"
NO_MEDIA_TO_EDIT = "Bad Request: there is no media in the message to edit"
PARSE_ENTITIES = "Bad Request: can't parse entities: "
# Ephemeral messages (Bot API 10.3).  Telegram documents the parameters but not every error's
# wording; these follow its style (upper-case codes), and the bot must not depend on them.
EPHEMERAL_CHAT = "Bad Request: ephemeral messages can be sent only to group and supergroup chats"
EPHEMERAL_RECEIVER = "Bad Request: RECEIVER_USER_ID_INVALID"
EPHEMERAL_QUERY = "Bad Request: QUERY_ID_INVALID"
EPHEMERAL_REPLACE_NO_QUERY = (
    "Bad Request: replace_callback_query_message can be used only with callback_query_id"
)
EPHEMERAL_REPLACE_EPHEMERAL = (
    "Bad Request: replace_callback_query_message must be False for callback queries from "
    "ephemeral messages"
)
EPHEMERAL_TWICE = "Bad Request: ephemeral message parameters are specified twice"
EPHEMERAL_MARKUP = "Bad Request: ephemeral messages support only inline keyboards"
EPHEMERAL_UNSUPPORTED = "Bad Request: EPHEMERAL_MESSAGE_UNSUPPORTED"
EPHEMERAL_PARAMS = "Bad Request: can't parse ephemeral message parameters JSON object"
EPHEMERAL_NOT_SPECIFIED = "Bad Request: ephemeral message identifier is not specified"
RECEIVER_NOT_SPECIFIED = "Bad Request: receiver_user_id is not specified"
#: callback_query_id and replies to ephemeral messages work only this soon after the tap/send.
EPHEMERAL_WINDOW = 15.0
CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance "
    "is running"
)

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
ALBUM_LIMIT = 10  # items of one sendMediaGroup
CALLBACK_TEXT_LIMIT = 200
MAX_PHOTO_SIDE = 1280
MAX_ROW_BUTTONS = 8
MAX_INLINE_BUTTONS = 100
MAX_UPLOAD_BYTES = 50 * 1024 * 1024

_DEFAULT_DESCRIPTIONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    500: "Internal Server Error",
    502: "Bad Gateway",
}

_CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
_DICE_RANGES = {"🎲": 6, "🎯": 6, "🎳": 6, "🏀": 5, "⚽": 5, "🎰": 64}
_BUTTON_ACTIONS = frozenset(
    {
        "callback_data",
        "url",
        "web_app",
        "login_url",
        "switch_inline_query",
        "switch_inline_query_current_chat",
        "switch_inline_query_chosen_chat",
        "copy_text",
        "callback_game",
        "pay",
    }
)
_BUTTON_URL = re.compile(r"(https?|tg)://\S+$")
_INT_TEXT = re.compile(r"-?\d+")

# Parameters that arrive as strings in form bodies but mean something else.  aiogram sends
# every non-string scalar JSON-encoded ("123", "true") and every object as a JSON string.
_INT_PARAMS = frozenset(
    {
        "message_id",
        "message_thread_id",
        "offset",
        "limit",
        "timeout",
        "user_id",
        "cache_time",
        "reply_to_message_id",
        "duration",
        "width",
        "height",
        "from_chat_id",
        "until_date",
        "receiver_user_id",
        "ephemeral_message_id",
    }
)
_BOOL_PARAMS = frozenset(
    {
        "show_alert",
        "disable_notification",
        "protect_content",
        "allow_sending_without_reply",
        "has_spoiler",
        "show_caption_above_media",
        "disable_web_page_preview",
        "drop_pending_updates",
        "only_if_banned",
        "disable_content_type_detection",
        "allow_paid_broadcast",
        "is_big",
        "replace_callback_query_message",
        "is_personal",
    }
)
_JSON_PARAMS = frozenset(
    {
        "reply_markup",
        "entities",
        "caption_entities",
        "media",
        "commands",
        "scope",
        "reply_parameters",
        "link_preview_options",
        "allowed_updates",
        "message_ids",
        "menu_button",
        "rights",
        "ephemeral_message_parameters",
        "results",
        "button",
    }
)


class TelegramApiError(Exception):
    """An error the fake answers with, shaped like Telegram's ``{"ok": false, ...}`` body."""

    def __init__(self, error_code: int, description: str, *, retry_after: int | None = None):
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.retry_after = retry_after

    def payload(self) -> dict[str, Any]:
        """The JSON body Telegram would send for this error."""
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def _bad(description: str) -> TelegramApiError:
    return TelegramApiError(400, description)


_BOUNDARY_RE = re.compile(r'boundary=(?:"([^"]+)"|([^;\s]+))', re.IGNORECASE)
_PARAM_RE = re.compile(r';\s*([\w*.-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')
MULTIPART_ERROR = "Bad Request: can't parse multipart/form-data"


def parse_form_data(
    body: bytes, boundary: bytes
) -> Iterator[tuple[str, str | None, str | None, bytes]]:
    """The parts of a multipart/form-data body (RFC 7578): (name, filename, content type,
    data). Strict: a malformed body is a 400, as at Telegram.

    Written for the fake rather than using aiohttp's reader, which parses every part's headers
    with the ``email`` package: under the load benchmark that was a third of this server's CPU,
    taken from the same two cores the bot runs on.
    """
    delimiter = b"--" + boundary
    pieces = body.split(delimiter)
    if len(pieces) < 3 or pieces[0] not in (b"", b"\r\n") or not pieces[-1].startswith(b"--"):
        raise _bad(MULTIPART_ERROR)
    for piece in pieces[1:-1]:
        if not piece.startswith(b"\r\n") or not piece.endswith(b"\r\n"):
            raise _bad(MULTIPART_ERROR)
        head, separator, data = piece[2:-2].partition(b"\r\n\r\n")
        if not separator:
            raise _bad(MULTIPART_ERROR)
        headers: dict[str, str] = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, colon, value = line.partition(":")
            if not colon:
                raise _bad(MULTIPART_ERROR)
            headers[key.strip().lower()] = value.strip()
        disposition = headers.get("content-disposition", "")
        if disposition.partition(";")[0].strip().lower() != "form-data":
            raise _bad(MULTIPART_ERROR)
        params: dict[str, str] = {}
        for key, value in _PARAM_RE.findall(disposition):
            if value.startswith('"'):
                value = re.sub(r"\\(.)", r"\1", value[1:-1])
            params[key.lower()] = value.strip()
        name = params.get("name")
        if not name:
            continue
        filename = params.get("filename")
        extended = params.get("filename*")
        if extended is not None and "''" in extended:  # RFC 5987: utf-8''%D0%B4...
            charset, _, encoded = extended.partition("''")
            filename = urllib.parse.unquote(encoded, encoding=charset or "utf-8")
        yield name, filename, headers.get("content-type"), data


# --------------------------------------------------------------------------------------------
# Value objects visible to tests
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FakeUser:
    """A human Telegram user the test plays."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = "ru"

    @property
    def label(self) -> str:
        """Name used in transcripts."""
        return self.first_name

    def api(self) -> dict[str, Any]:
        """The Bot API ``User`` object."""
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data


@dataclass(eq=False, slots=True)
class FakeChat:
    """A chat known to the fake: a private chat with one user, or a (super)group."""

    id: int
    type: str
    title: str | None = None
    user: FakeUser | None = None
    is_forum: bool = False
    admins: list[int] = field(default_factory=list)
    bot_is_admin: bool = False
    blocked: bool = False
    members: set[int] = field(default_factory=set)
    bot_member: bool = True  # False: people's chat the bot is not in (see ``users_chat``)

    @property
    def label(self) -> str:
        """Name used as a prefix in the all-chats transcript."""
        if self.user is not None:
            return self.user.label
        return self.title or str(self.id)

    @property
    def instance(self) -> str:
        """A stable ``chat_instance`` string for callback queries from this chat."""
        return str((abs(self.id) * 2654435761) % (1 << 62))

    def api(self) -> dict[str, Any]:
        """The Bot API ``Chat`` object."""
        if self.user is not None:
            data = self.user.api()
            data.pop("is_bot")
            data.pop("language_code", None)
            data["type"] = "private"
            return data
        data = {"id": self.id, "type": self.type, "title": self.title}
        if self.is_forum:
            data["is_forum"] = True
        return data


@dataclass(eq=False, slots=True)
class StoredFile:
    """A file the fake has seen (an upload).  ``data`` is None when bytes are not kept."""

    file_id: str
    file_unique_id: str
    kind: str
    data: bytes | None
    size: int
    width: int = 0
    height: int = 0
    file_name: str | None = None
    mime_type: str | None = None
    file_path: str = ""
    sizes: list[dict[str, Any]] = field(default_factory=list)

    def api(self) -> dict[str, Any]:
        """The Bot API object for a non-photo file (Animation / Document)."""
        data: dict[str, Any] = {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": self.size,
        }
        if self.kind == "animation":
            data.update(width=self.width, height=self.height, duration=0)
        if self.file_name:
            data["file_name"] = self.file_name
        if self.mime_type:
            data["mime_type"] = self.mime_type
        return data


@dataclass(eq=False, slots=True)
class StoredMessage:
    """The current state of one message in a chat, as the user would see it now."""

    chat_id: int
    message_id: int
    date: int
    from_bot: bool
    sender_id: int
    text: str | None = None
    entities: list[dict[str, Any]] | None = None
    caption: str | None = None
    caption_entities: list[dict[str, Any]] | None = None
    media_kind: str | None = None
    file: StoredFile | None = None
    dice: dict[str, Any] | None = None
    reply_markup: dict[str, Any] | None = None
    message_thread_id: int | None = None
    reply_to_message_id: int | None = None
    edit_date: int | None = None
    deleted: bool = False
    pinned: bool = False
    edits: int = 0
    # An ephemeral message: shown to ``receiver_id`` only (message_id 0 on the wire), perhaps
    # in place of the message ``replaces`` (for that user only); ``dropped`` never arrived.
    receiver_id: int | None = None
    ephemeral_message_id: int | None = None
    replaces: int | None = None
    created: float = 0.0
    dropped: bool = False
    expired: bool = False
    via_bot: bool = False  # posted by a user choosing an inline result
    inline_message_id: str | None = None
    media_group_id: str | None = None  # the album (sendMediaGroup) the message belongs to

    @property
    def is_ephemeral(self) -> bool:
        """Whether this message is an ephemeral one (seen by one user only)."""
        return self.ephemeral_message_id is not None

    @property
    def live(self) -> bool:
        """Not deleted and (if ephemeral) not expired."""
        return not self.deleted and not self.expired

    @property
    def photo(self) -> bytes | None:
        """The bytes of the photo currently shown, if the message is a photo."""
        if self.media_kind == "photo" and self.file is not None:
            return self.file.data
        return None

    @property
    def photo_size(self) -> tuple[int, int] | None:
        """(width, height) of the photo currently shown."""
        if self.media_kind == "photo" and self.file is not None:
            return self.file.width, self.file.height
        return None

    def buttons(self) -> list[list[dict[str, Any]]]:
        """Rows of inline buttons (raw dicts) currently under the message."""
        if not self.reply_markup:
            return []
        return self.reply_markup.get("inline_keyboard", [])

    def button_labels(self) -> list[list[str]]:
        """Rows of button labels, handy for assertions."""
        return [[button.get("text", "") for button in row] for row in self.buttons()]

    def button_by_label(self, label: str) -> dict[str, Any] | None:
        """The first inline button with exactly this label."""
        for row in self.buttons():
            for button in row:
                if button.get("text") == label:
                    return button
        return None

    def button_by_data(self, data: str) -> dict[str, Any] | None:
        """The first inline button carrying this callback_data."""
        for row in self.buttons():
            for button in row:
                if button.get("callback_data") == data:
                    return button
        return None


@dataclass(slots=True)
class Call:
    """One HTTP call the bot made, in arrival order.

    ``params`` are normalised (ints are ints, JSON fields are decoded, uploads are replaced by a
    ``"<upload name, N bytes>"`` placeholder).  ``response`` is the exact JSON body returned.
    """

    seq: int
    method: str
    params: dict[str, Any]
    time: float
    chat_id: int | None
    response: dict[str, Any]

    @property
    def ok(self) -> bool:
        """True when Telegram-the-fake answered ``ok: true``."""
        return bool(self.response.get("ok"))

    @property
    def result(self) -> Any:
        """The ``result`` of a successful call (None for errors)."""
        return self.response.get("result")

    @property
    def error(self) -> str | None:
        """The error description, or None when the call succeeded."""
        return None if self.ok else self.response.get("description")

    @property
    def error_code(self) -> int | None:
        """The error code, or None when the call succeeded."""
        return None if self.ok else self.response.get("error_code")

    @property
    def is_ephemeral(self) -> bool:
        """Whether the call sends, edits or deletes an ephemeral message (one user sees it)."""
        return (
            "Ephemeral" in self.method
            or "ephemeral_message_parameters" in self.params
            or "receiver_user_id" in self.params
        )


@dataclass(frozen=True, slots=True)
class CallbackAnswer:
    """What the bot answered to one callback query."""

    query_id: str
    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int


@dataclass(eq=False, slots=True)
class _Query:
    id: str
    chat_id: int
    message_id: int
    user_id: int
    data: str
    created: float
    answered: bool = False
    ephemeral_id: int | None = None  # the tapped message was this ephemeral one


@dataclass(frozen=True, slots=True)
class _EphemeralSpec:
    """Validated ``ephemeral_message_parameters`` of one send."""

    receiver: int
    query: _Query | None
    replace: bool
    dropped: bool


@dataclass(eq=False, slots=True)
class _QueuedUpdate:
    update_id: int
    payload: dict[str, Any]
    redelivered: bool = False
    delivered: bool = False
    sending: bool = False  # a webhook POST of it is in flight


@dataclass(slots=True)
class _Webhook:
    """What ``setWebhook`` registered."""

    url: str
    secret_token: str | None
    max_connections: int


@dataclass(slots=True)
class _Failure:
    error_code: int
    description: str
    retry_after: int | None


@dataclass(slots=True)
class _Upload:
    filename: str
    data: bytes
    content_type: str | None


@dataclass(eq=False, slots=True)
class _Waiter:
    predicate: Callable[[Call], bool]
    future: asyncio.Future[Call]


# --------------------------------------------------------------------------------------------
# Text formatting: parse_mode HTML / MarkdownV2 / Markdown into (text, entities)
# --------------------------------------------------------------------------------------------


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: the unit Telegram uses for entity offsets."""
    if text.isascii():  # most of the text: no character outside the first plane
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _byte_offset(src: str, index: int) -> int:
    return len(src[:index].encode("utf-8"))


def _sorted_entities(entities: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(entities, key=lambda e: (e["offset"], -e["length"]))


_HTML_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_HTML_PLAIN = re.compile(r"[^<&]+")
_HTML_NAME = re.compile(r"[A-Za-z0-9-]*")
_HTML_ENTITY = re.compile(r"&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);")
_HTML_ATTR = re.compile(r"""\s*([A-Za-z0-9_-]*)\s*(?:=\s*("[^"]*"|'[^']*'|[^\s"']+))?""")
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


def _decode_html_entity(name: str) -> str | None:
    if name[0] != "#":
        return _NAMED_ENTITIES.get(name)
    try:
        code = int(name[2:], 16) if name[1] in "xX" else int(name[1:])
    except ValueError:
        return None
    if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
        return chr(code)
    return None


def _html_attributes(src: str, tag: str, at: int) -> dict[str, str]:
    attrs: dict[str, str] = {}
    pos = 0
    while pos < len(src):
        match = _HTML_ATTR.match(src, pos)
        if match is None or match.end() == pos:
            break
        name, value = match.group(1), match.group(2)
        if not name:
            if src[pos:].strip():
                raise _bad(
                    f'{PARSE_ENTITIES}Empty attribute name in the tag "{tag}" at byte offset {at}'
                )
            break
        if value and value[0] in "\"'":
            value = value[1:-1]
        attrs[name.lower()] = "" if value is None else value
        pos = match.end()
    return attrs


def parse_html(src: str) -> tuple[str, list[dict[str, Any]]]:
    """Telegram's HTML parse mode: returns plain text and entities, or raises a 400.

    The error messages follow Telegram (tdlib) wording so that a bot's log looks the same as
    in production; byte offsets are UTF-8 offsets into the source like Telegram reports.
    """
    out: list[str] = []
    pos16 = 0
    stack: list[tuple[str, int, dict[str, Any] | None]] = []
    entities: list[dict[str, Any]] = []
    i, n = 0, len(src)
    while i < n:
        plain = _HTML_PLAIN.match(src, i)
        if plain is not None:
            chunk = plain.group()
            out.append(chunk)
            pos16 += utf16_len(chunk)
            i = plain.end()
            continue
        if src[i] == "&":
            match = _HTML_ENTITY.match(src, i)
            decoded = _decode_html_entity(match.group(1)) if match else None
            if match is not None and decoded is not None:
                out.append(decoded)
                pos16 += utf16_len(decoded)
                i = match.end()
            else:
                out.append("&")
                pos16 += 1
                i += 1
            continue
        at = _byte_offset(src, i)
        if src.startswith("</", i):
            end = src.find(">", i)
            if not stack:
                raise _bad(f"{PARSE_ENTITIES}Unexpected end tag at byte offset {at}")
            if end < 0:
                raise _bad(f"{PARSE_ENTITIES}Unclosed end tag at byte offset {at}")
            name = src[i + 2 : end].strip().lower()
            tag, start, entity = stack.pop()
            if name and name != tag:
                raise _bad(
                    f"{PARSE_ENTITIES}Unmatched end tag at byte offset {at}, "
                    f'expected "</{tag}>", found "</{name}>"'
                )
            if entity is not None and pos16 > start:
                entities.append({**entity, "offset": start, "length": pos16 - start})
            i = end + 1
            continue
        name_match = _HTML_NAME.match(src, i + 1)
        assert name_match is not None  # the pattern matches the empty string
        tag = name_match.group().lower()
        if tag not in _HTML_TAGS:
            raise _bad(f'{PARSE_ENTITIES}Unsupported start tag "{tag}" at byte offset {at}')
        end = src.find(">", name_match.end())
        if end < 0:
            raise _bad(f"{PARSE_ENTITIES}Unclosed start tag at byte offset {at}")
        attrs = _html_attributes(src[name_match.end() : end], tag, at)
        entity: dict[str, Any] | None = {"type": _HTML_TAGS[tag]}
        if tag == "span" and attrs.get("class") != "tg-spoiler":
            raise _bad(
                f'{PARSE_ENTITIES}Tag "span" must have class "tg-spoiler" at byte offset {at}'
            )
        if tag == "a":
            entity = {"type": "text_link", "url": attrs["href"]} if attrs.get("href") else None
        elif tag == "blockquote" and "expandable" in attrs:
            entity = {"type": "expandable_blockquote"}
        elif tag == "tg-emoji":
            entity = {"type": "custom_emoji", "custom_emoji_id": attrs.get("emoji-id", "")}
        elif tag == "code" and stack and stack[-1][0] == "pre":
            # <pre><code class="language-x"> is one pre entity with a language.
            language = attrs.get("class", "")
            pre_tag, pre_start, pre_entity = stack[-1]
            if language.startswith("language-") and pre_entity is not None:
                stack[-1] = (pre_tag, pre_start, {**pre_entity, "language": language[9:]})
            entity = None
        stack.append((tag, pos16, entity))
        i = end + 1
    if stack:
        raise _bad(
            f'{PARSE_ENTITIES}Can\'t find end tag corresponding to start tag "{stack[-1][0]}"'
        )
    return "".join(out), _sorted_entities(entities)


_MDV2_RESERVED = frozenset("_*[]()~`>#+-=|{}.!")
_MDV2_NAMES = {
    "bold": "Bold",
    "italic": "Italic",
    "underline": "Underline",
    "strikethrough": "Strikethrough",
    "spoiler": "Spoiler",
    "link": "TextUrl",
}


def _mdv2_reserved(char: str) -> TelegramApiError:
    return _bad(
        f"{PARSE_ENTITIES}Character '{char}' is reserved and must be escaped with the "
        "preceding '\\'"
    )


def _mdv2_literal(src: str, start: int, stop_token: str, name: str) -> tuple[str, int]:
    """Read code/pre content up to ``stop_token``; only ` and \\ may be escaped inside."""
    out: list[str] = []
    i = start
    while i < len(src):
        if src[i] == "\\" and i + 1 < len(src):
            out.append(src[i + 1])
            i += 2
            continue
        if src.startswith(stop_token, i):
            return "".join(out), i + len(stop_token)
        out.append(src[i])
        i += 1
    at = _byte_offset(src, start - len(stop_token))
    raise _bad(f"{PARSE_ENTITIES}Can't find end of {name} entity at byte offset {at}")


def parse_markdown_v2(src: str) -> tuple[str, list[dict[str, Any]]]:
    """An approximation of Telegram's MarkdownV2: the common constructs plus the strictness
    that bites real bots (unescaped reserved characters, unclosed entities)."""
    out: list[str] = []
    pos16 = 0
    stack: list[tuple[str, int, int]] = []
    entities: list[dict[str, Any]] = []
    i, n = 0, len(src)

    def emit(chunk: str) -> None:
        nonlocal pos16
        out.append(chunk)
        pos16 += utf16_len(chunk)

    while i < n:
        ch = src[i]
        if ch == "\\":
            if i + 1 < n and 0 < ord(src[i + 1]) < 127:
                emit(src[i + 1])
                i += 2
                continue
            raise _mdv2_reserved("\\")
        if ch == "`":
            if src.startswith("```", i):
                body, i = _mdv2_literal(src, i + 3, "```", "Pre")
                language, newline, rest = body.partition("\n")
                entity: dict[str, Any] = {"type": "pre"}
                if newline and language and " " not in language:
                    entity["language"] = language
                    body = rest
                start = pos16
                emit(body)
            else:
                body, i = _mdv2_literal(src, i + 1, "`", "Code")
                entity = {"type": "code"}
                start = pos16
                emit(body)
            if pos16 > start:
                entities.append({**entity, "offset": start, "length": pos16 - start})
            continue
        kind, width = None, 1
        if ch == "*":
            kind = "bold"
        elif ch == "_":
            kind, width = ("underline", 2) if src.startswith("__", i) else ("italic", 1)
        elif ch == "~":
            kind = "strikethrough"
        elif ch == "|":
            if not src.startswith("||", i):
                raise _mdv2_reserved("|")
            kind, width = "spoiler", 2
        if kind is not None:
            open_kinds = [entry[0] for entry in stack]
            if kind in open_kinds:
                while stack:
                    open_kind, start, _ = stack.pop()
                    if open_kind == kind:
                        break
                if pos16 > start:
                    entities.append({"type": kind, "offset": start, "length": pos16 - start})
            else:
                stack.append((kind, pos16, _byte_offset(src, i)))
            i += width
            continue
        if ch == "[" or (ch == "!" and src.startswith("![", i)):
            stack.append(("link", pos16, _byte_offset(src, i)))
            i += 1 if ch == "[" else 2
            continue
        if ch == "]" and stack and stack[-1][0] == "link":
            _, start, _ = stack.pop()
            i += 1
            if i < n and src[i] == "(":
                url, i = _mdv2_literal(src, i + 1, ")", "TextUrl")
                if pos16 > start and url:
                    entities.append(
                        {"type": "text_link", "url": url, "offset": start, "length": pos16 - start}
                    )
            continue
        if ch == ">" and (i == 0 or src[i - 1] == "\n"):
            i += 1  # block quote marker; the quote entity itself is not modelled
            continue
        if ch in _MDV2_RESERVED:
            raise _mdv2_reserved(ch)
        emit(ch)
        i += 1
    if stack:
        kind, _, at = stack[-1]
        name = _MDV2_NAMES[kind]
        raise _bad(f"{PARSE_ENTITIES}Can't find end of {name} entity at byte offset {at}")
    return "".join(out), _sorted_entities(entities)


def parse_markdown_legacy(src: str) -> tuple[str, list[dict[str, Any]]]:
    """Telegram's legacy ``Markdown`` mode: *bold*, _italic_, `code`, ```pre```, [t](url)."""
    out: list[str] = []
    pos16 = 0
    entities: list[dict[str, Any]] = []
    i, n = 0, len(src)
    markers = {"*": "bold", "_": "italic", "`": "code"}
    while i < n:
        ch = src[i]
        if ch == "\\" and i + 1 < n and src[i + 1] in "*_`[":
            out.append(src[i + 1])
            pos16 += 1
            i += 2
            continue
        token = "```" if src.startswith("```", i) else ch
        if token in markers or token == "```" or ch == "[":
            close = "]" if ch == "[" else token
            end = src.find(close, i + len(token))
            if end < 0:
                at = _byte_offset(src, i)
                raise _bad(
                    f"{PARSE_ENTITIES}Can't find end of the entity starting at byte offset {at}"
                )
            body = src[i + len(token) : end]
            entity: dict[str, Any] | None = {"type": "pre" if token == "```" else markers.get(ch)}
            i = end + len(close)
            if ch == "[":
                entity = None
                if i < n and src[i] == "(":
                    url_end = src.find(")", i)
                    if url_end > 0:
                        entity = {"type": "text_link", "url": src[i + 1 : url_end]}
                        i = url_end + 1
            if body:
                if entity is not None:
                    entities.append({**entity, "offset": pos16, "length": utf16_len(body)})
                out.append(body)
                pos16 += utf16_len(body)
            continue
        out.append(ch)
        pos16 += utf16_len(ch)
        i += 1
    return "".join(out), _sorted_entities(entities)


def parse_formatted(text: str, parse_mode: str) -> tuple[str, list[dict[str, Any]]]:
    """Dispatch on ``parse_mode`` (case-insensitive like Telegram)."""
    mode = parse_mode.lower()
    if mode == "html":
        return parse_html(text)
    if mode == "markdownv2":
        return parse_markdown_v2(text)
    if mode == "markdown":
        return parse_markdown_legacy(text)
    raise _bad(f'Bad Request: unsupported parse_mode "{parse_mode}"')


_COMMAND = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_@])")


def command_entities(text: str) -> list[dict[str, Any]]:
    """``bot_command`` entities as Telegram attaches them to user text ("/cmd", "/cmd@bot")."""
    return [
        {
            "type": "bot_command",
            "offset": utf16_len(text[: match.start()]),
            "length": utf16_len(match.group()),
        }
        for match in _COMMAND.finditer(text)
    ]


# --------------------------------------------------------------------------------------------
# Reply markup validation
# --------------------------------------------------------------------------------------------


def _validate_inline_keyboard(markup: dict[str, Any]) -> dict[str, Any]:
    rows = markup.get("inline_keyboard")
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise _bad(
            'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup must be an Array'
        )
    total = 0
    for row in rows:
        if len(row) > MAX_ROW_BUTTONS:
            raise _bad(MARKUP_TOO_LONG)
        total += len(row)
        for button in row:
            if not isinstance(button, dict):
                raise _bad(
                    "Bad Request: can't parse inline keyboard button: "
                    "InlineKeyboardButton must be an Object"
                )
            label = button.get("text")
            if not isinstance(label, str):
                raise _bad(
                    "Bad Request: can't parse inline keyboard button: "
                    'Field "text" must be of type String'
                )
            if _BUTTON_ACTIONS.isdisjoint(button):
                raise _bad(
                    "Bad Request: can't parse inline keyboard button: "
                    "Text buttons are unallowed in the inline keyboard"
                )
            data = button.get("callback_data")
            if "callback_data" in button and (
                not isinstance(data, str) or not 1 <= len(data.encode("utf-8")) <= 64
            ):
                raise _bad(BUTTON_DATA_INVALID)
            url = button.get("url")
            if "url" in button and (not isinstance(url, str) or not _BUTTON_URL.match(url)):
                raise _bad(BUTTON_URL_INVALID)
            if "copy_text" in button:
                _check_copy_text(button["copy_text"])
    if total > MAX_INLINE_BUTTONS:
        raise _bad(MARKUP_TOO_LONG)
    return {"inline_keyboard": rows}


def _check_copy_text(value: Any) -> None:
    """A CopyTextButton: an object whose ``text`` (what is copied) has 1-256 characters."""
    if not isinstance(value, dict):
        raise _bad(
            "Bad Request: can't parse inline keyboard button: CopyTextButton must be an Object"
        )
    text = value.get("text")
    if not isinstance(text, str):
        raise _bad(
            'Bad Request: can\'t parse inline keyboard button: Field "text" must be of type String'
        )
    if not 1 <= len(text) <= 256:
        raise _bad("Bad Request: COPY_TEXT_INVALID")


def _validate_markup(value: Any) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Split reply_markup into (inline keyboard kept on the message, other keyboards)."""
    if value is None:
        return None, None
    if not isinstance(value, dict):
        raise _bad("Bad Request: can't parse reply keyboard markup JSON object")
    if "inline_keyboard" in value:
        return _validate_inline_keyboard(value), None
    if "keyboard" in value:
        rows = value["keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise _bad('Bad Request: field "keyboard" of the ReplyKeyboardMarkup must be an Array')
        if sum(len(row) for row in rows) > 300 or any(len(row) > 12 for row in rows):
            raise _bad(MARKUP_TOO_LONG)
        return None, value
    if value.get("remove_keyboard") or value.get("force_reply"):
        return None, value
    raise _bad("Bad Request: can't parse reply keyboard markup JSON object")


# --------------------------------------------------------------------------------------------
# aiogram glue
# --------------------------------------------------------------------------------------------


class LocalBotSession(AiohttpSession):
    """aiogram's real ``AiohttpSession``, minus the 250 ms TLS grace sleep on ``close()``.

    aiogram sleeps after closing so that TLS connections can shut down; the fake speaks plain
    HTTP over loopback, and the sleep would dominate the run time of short tests.
    """

    async def close(self) -> None:
        client = getattr(self, "_session", None)
        if client is not None and not client.closed:
            await client.close()


#: JPEG start-of-frame markers (baseline, progressive, ...): their segment gives the size.
#: The others of 0xC0-0xCF are Huffman tables (C4), reserved (C8) and arithmetic coding (CC).
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """A JPEG's width and height read from its frame header (microseconds, where Pillow's
    header reading also parses every table); None if ``data`` is not a well-formed JPEG up
    to that header."""
    if not data.startswith(b"\xff\xd8"):
        return None
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        if length < 2:
            return None
        if marker in _JPEG_SOF:
            if at + 9 > len(data) or length < 7:
                return None
            height = int.from_bytes(data[at + 5 : at + 7], "big")
            width = int.from_bytes(data[at + 7 : at + 9], "big")
            return (width, height) if width and height else None
        at += 2 + length
    return None


def _image_size(data: bytes, *, full_decode: bool) -> tuple[int, int]:
    if not full_decode:
        size = _jpeg_size(data)
        if size is not None:
            return size
    with Image.open(io.BytesIO(data)) as image:
        if full_decode:
            image.load()
        return image.width, image.height


Handler = Callable[[dict[str, Any], dict[str, _Upload]], Awaitable[Any]]


class FakeTelegram(InlineMode):
    """The fake Bot API server plus the test-side driving API.

    Constructor options:
      token, bot_id, bot_username, bot_first_name -- who the bot is (``getMe``);
      callback_deadline -- seconds after a tap after which ``answerCallbackQuery`` fails as
        "query is too old" (None = never, the default);
      clock -- monotonic clock used for call times and callback ages (tests may inject one);
      store_file_bytes -- keep uploaded bytes (needed by ``latest_photo``); a load benchmark
        can switch it off to keep memory flat;
      decode_images -- fully decode uploaded photos with Pillow (else only read the header);
      hash_uploads -- derive a file's ``file_unique_id`` from its bytes (SHA-1), so the same
        bytes uploaded twice share it, as at Telegram; off (a load benchmark, whose bot never
        reads it), each upload gets a unique id of its own without hashing its bytes;
      history_limit -- keep only about this many recent calls / updates (None = all);
      dice_seed -- seed for ``sendDice`` values not scripted with ``script_dice``;
      ephemeral_ttl -- seconds after which an ephemeral message expires (None = only when a
        test calls ``expire_ephemeral``).
    """

    def __init__(
        self,
        *,
        token: str = "123456789:TEST-fake-telegram-token",
        bot_username: str = "nardy_test_bot",
        bot_first_name: str = "Nardy",
        callback_deadline: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        store_file_bytes: bool = True,
        decode_images: bool = True,
        hash_uploads: bool = True,
        history_limit: int | None = None,
        dice_seed: int = 0,
        ephemeral_ttl: float | None = None,
    ) -> None:
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        self.callback_deadline = callback_deadline
        self.store_file_bytes = store_file_bytes
        self.decode_images = decode_images
        self.hash_uploads = hash_uploads
        self.history_limit = history_limit
        self._clock = clock
        self._started_at = clock()

        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.messages: dict[int, dict[int, StoredMessage]] = {}
        self.files: dict[str, StoredFile] = {}
        self.callback_answers: dict[str, CallbackAnswer] = {}
        self.commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.bot_texts: dict[tuple[str, str], str] = {}

        self._next_message_id: dict[int, int] = {}
        self._last_bot_message: dict[int, int] = {}
        self._latest_photo: dict[int, StoredFile] = {}
        self._file_seq = itertools.count(1)
        self._upload_seq = itertools.count(1)
        self._album_seq = itertools.count(1)
        self._files_by_path: dict[str, StoredFile] = {}
        self._query_seq = itertools.count(4_000_000_001)
        self._queries: dict[str, _Query] = {}

        self._update_seq = itertools.count(10_001)
        self._queue: deque[_QueuedUpdate] = deque()
        self._update_archive: dict[int, dict[str, Any]] = {}
        self._poller: asyncio.Future[str] | None = None

        self._calls: list[Call] = []
        self._calls_base = 0
        self._calls_by_chat: dict[int, list[Call]] = {}
        self._call_seq = 0
        self._action_mark = 0
        self._waiters: dict[int | None, list[_Waiter]] = {}
        self._log_entries: list[tuple[int | None, tuple[str, ...]]] = []

        self._failures: dict[str, deque[_Failure]] = {}
        self._dice_script: deque[int] = deque()
        self._rng = random.Random(dice_seed)

        self.ephemeral_ttl = ephemeral_ttl
        # chat -> (receiver, ephemeral_message_id) -> message; ids count per chat
        self.ephemerals: dict[int, dict[tuple[int, int], StoredMessage]] = {}
        self._next_ephemeral_id: dict[int, int] = {}
        self._ephemeral_delivery: dict[int, str] = {}
        self._private_entries: dict[int, int] = {}  # log entry index -> the one user who sees it

        self._in_flight = 0
        self._last_activity = 0.0
        self._activity = asyncio.Event()
        # Set by a harness that runs the bot in this process: True while the bot is still
        # handling an update (see :meth:`wait_settled`).
        self.bot_busy: Callable[[], bool] | None = None

        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._closing = False

        # Webhook mode (setWebhook): updates are POSTed instead of waiting for getUpdates.
        self.webhook: _Webhook | None = None
        #: Test-side stand-in for a load balancer: base URLs ("http://127.0.0.1:8081") that
        #: webhook deliveries go to in turn (the registered URL's path kept); a failed delivery
        #: is retried on the next one.  None: deliver to the registered URL itself.
        self.webhook_upstreams: list[str] | None = None
        #: Seconds between attempts to deliver an update a webhook did not confirm.
        self.webhook_retry_delay = 0.2
        self.webhook_deliveries = 0
        self.webhook_failures = 0
        self._webhook_task: asyncio.Task[None] | None = None
        self._webhook_stopping = False
        self._webhook_wake = asyncio.Event()
        self._webhook_turn = itertools.count()
        self._slow: dict[str, deque[float]] = {}

        self._init_inline()
        handlers: dict[str, Handler] = {
            "answerInlineQuery": self._m_answer_inline_query,
            "getMe": self._m_get_me,
            "logOut": self._m_true,
            "close": self._m_true,
            "getUpdates": self._m_get_updates,
            "deleteWebhook": self._m_delete_webhook,
            "setWebhook": self._m_set_webhook,
            "getWebhookInfo": self._m_get_webhook_info,
            "sendMessage": self._m_send_message,
            "sendPhoto": self._m_send_photo,
            "sendAnimation": self._m_send_animation,
            "sendDocument": self._m_send_document,
            "sendMediaGroup": self._m_send_media_group,
            "sendDice": self._m_send_dice,
            "sendChatAction": self._m_send_chat_action,
            "editMessageText": self._m_edit_message_text,
            "editMessageCaption": self._m_edit_message_caption,
            "editMessageMedia": self._m_edit_message_media,
            "editMessageReplyMarkup": self._m_edit_message_reply_markup,
            "deleteMessage": self._m_delete_message,
            "deleteMessages": self._m_delete_messages,
            "answerCallbackQuery": self._m_answer_callback_query,
            "setMyCommands": self._m_set_my_commands,
            "getMyCommands": self._m_get_my_commands,
            "deleteMyCommands": self._m_delete_my_commands,
            "setMyDescription": self._m_set_bot_text("description"),
            "getMyDescription": self._m_get_bot_text("description"),
            "setMyShortDescription": self._m_set_bot_text("short_description"),
            "getMyShortDescription": self._m_get_bot_text("short_description"),
            "setMyName": self._m_set_bot_text("name"),
            "getMyName": self._m_get_bot_text("name"),
            "setChatMenuButton": self._m_true,
            "getChatMenuButton": self._m_get_chat_menu_button,
            "getChat": self._m_get_chat,
            "getChatMember": self._m_get_chat_member,
            "getChatAdministrators": self._m_get_chat_administrators,
            "getChatMemberCount": self._m_get_chat_member_count,
            "pinChatMessage": self._m_pin_chat_message,
            "unpinChatMessage": self._m_unpin_chat_message,
            "unpinAllChatMessages": self._m_unpin_all_chat_messages,
            "getFile": self._m_get_file,
            "editEphemeralMessageText": self._m_edit_ephemeral_message_text,
            "editEphemeralMessageCaption": self._m_edit_ephemeral_message_caption,
            "editEphemeralMessageMedia": self._m_edit_ephemeral_message_media,
            "editEphemeralMessageReplyMarkup": self._m_edit_ephemeral_message_reply_markup,
            "deleteEphemeralMessage": self._m_delete_ephemeral_message,
        }
        self._methods: dict[str, tuple[str, Handler]] = {
            name.lower(): (name, handler) for name, handler in handlers.items()
        }

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Bind 127.0.0.1 on an ephemeral port and start serving."""
        if self._runner is not None:
            raise RuntimeError("FakeTelegram is already running")
        app = web.Application(client_max_size=MAX_UPLOAD_BYTES + 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_get("/file/bot{token}/{path:.+}", self._handle_file)
        runner = web.AppRunner(
            app,
            handle_signals=False,
            access_log=None,
            handler_cancellation=True,
            shutdown_timeout=1.0,
        )
        await runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self._port = sock.getsockname()[1]
        await web.SockSite(runner, sock).start()
        self._runner = runner
        self._closing = False

    async def stop(self) -> None:
        """Wake any long poll, then close the server and its connections."""
        if self._runner is None:
            return
        self._closing = True
        self._wake_poller("closing")
        await self._stop_webhook()
        runner, self._runner = self._runner, None
        await runner.cleanup()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """Base URL for ``TelegramAPIServer.from_base(base_url)``."""
        if self._port is None:
            raise RuntimeError("FakeTelegram is not started")
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_server(self) -> TelegramAPIServer:
        """aiogram's server description pointing at this fake."""
        return TelegramAPIServer.from_base(self.base_url)

    def make_session(self) -> LocalBotSession:
        """A real aiogram HTTP session aimed at the fake."""
        return LocalBotSession(api=self.api_server)

    def make_bot(self, **kwargs: Any) -> Bot:
        """A real aiogram ``Bot`` talking to the fake over HTTP (close its session after)."""
        return Bot(token=self.token, session=self.make_session(), **kwargs)

    @property
    def bot_user(self) -> dict[str, Any]:
        """The bot as a Bot API ``User`` (as it appears in ``from`` of its messages)."""
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_first_name,
            "username": self.bot_username,
        }

    # ---------------------------------------------------------------- world building

    def user(
        self,
        id: int,
        first_name: str,
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "ru",
    ) -> FakeUser:
        """Register (or replace) a human user."""
        person = FakeUser(id, first_name, last_name, username, language_code)
        self.users[id] = person
        return person

    def private_chat(self, user: FakeUser | int) -> FakeChat:
        """The user's private chat with the bot (as if they had pressed Start)."""
        person = self._user(user)
        chat = self.chats.get(person.id)
        if chat is None:
            chat = FakeChat(id=person.id, type="private", user=person, members={person.id})
            self.chats[person.id] = chat
            self.messages[person.id] = {}
        return chat

    def group(
        self,
        chat_id: int,
        title: str,
        *,
        forum: bool = False,
        admins: Iterable[FakeUser | int] = (),
        supergroup: bool | None = None,
        bot_is_admin: bool = False,
    ) -> FakeChat:
        """Register a group the bot is in.  The first admin is reported as the creator.

        ``supergroup`` defaults to True for forums and for ids starting with -100 (like real
        supergroup ids); it only changes the chat type and the "kicked" wording.
        """
        if chat_id >= 0:
            raise ValueError("group chat ids are negative")
        if supergroup is None:
            supergroup = forum or str(chat_id).startswith("-100")
        if forum and not supergroup:
            raise ValueError("only supergroups can be forums")
        admin_ids = [self._user(admin).id for admin in admins]
        chat = FakeChat(
            id=chat_id,
            type="supergroup" if supergroup else "group",
            title=title,
            is_forum=forum,
            admins=admin_ids,
            bot_is_admin=bot_is_admin,
            members=set(admin_ids),
        )
        self.chats[chat_id] = chat
        self.messages.setdefault(chat_id, {})
        return chat

    def set_admins(
        self, chat: FakeChat | int, admins: Iterable[FakeUser | int], *, bot_is_admin: bool = False
    ) -> None:
        """Replace a group's administrators (first one is the creator)."""
        target = self._chat(chat)
        target.admins = [self._user(admin).id for admin in admins]
        target.bot_is_admin = bot_is_admin
        target.members.update(target.admins)

    def block_bot(self, chat: FakeChat | int) -> None:
        """The user blocks the bot (private) or the bot is kicked (group): sends get 403."""
        target = self._chat(chat)
        target.blocked = True
        what = "blocked the bot" if target.user else "kicked the bot"
        self._log(target.id, f"{target.label} {what}")

    def unblock_bot(self, chat: FakeChat | int) -> None:
        """Undo ``block_bot``."""
        target = self._chat(chat)
        target.blocked = False
        self._log(target.id, f"{target.label} unblocked the bot")

    def fail_next(
        self,
        method: str,
        *,
        error_code: int = 429,
        retry_after: int = 1,
        description: str | None = None,
        times: int = 1,
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail before any validation.

        429 errors carry ``parameters.retry_after`` so aiogram raises ``TelegramRetryAfter``.
        """
        if description is None:
            if error_code == 429:
                description = f"Too Many Requests: retry after {retry_after}"
            else:
                description = _DEFAULT_DESCRIPTIONS.get(error_code, "Error")
        failure = _Failure(error_code, description, retry_after if error_code == 429 else None)
        self._failures.setdefault(method.lower(), deque()).extend([failure] * times)

    def slow_next(self, method: str, seconds: float, *, times: int = 1) -> None:
        """Make the next ``times`` calls of ``method`` take ``seconds`` before they are
        answered (an update whose handling is in flight for a while)."""
        self._slow.setdefault(method.lower(), deque()).extend([seconds] * times)

    def script_dice(self, *values: int) -> None:
        """Queue exact values for the next ``sendDice`` calls."""
        self._dice_script.extend(values)

    def delete_message_as_user(self, chat_id: FakeChat | int, message_id: int) -> None:
        """The user deletes a message (e.g. the board) from their side; later edits fail."""
        chat = self._chat(chat_id)
        message = self.messages.get(chat.id, {}).get(message_id)
        if message is None or message.deleted:
            raise LookupError(f"no message #{message_id} in chat {chat.id}")
        message.deleted = True
        who = chat.user.label if chat.user else "a user"
        self._log(chat.id, f"{who} deleted #{message_id}")

    # ---------------------------------------------------------------- injecting updates

    async def send_text(
        self,
        chat: FakeChat | int,
        user: FakeUser | int,
        text: str,
        *,
        reply_to_message_id: int | None = None,
        message_thread_id: int | None = None,
    ) -> Message:
        """The user types ``text`` into ``chat``; returns the message as the bot receives it."""
        target = self._chat(chat)
        person = self._user(user)
        self._check_user_can_act(target, person)
        if not text or len(text) > TEXT_LIMIT:
            raise ValueError("Telegram users can only send 1..4096 characters")
        if message_thread_id is not None and not target.is_forum:
            raise ValueError(f"chat {target.id} is not a forum; it has no topics")
        if reply_to_message_id is not None:
            replied = self.messages[target.id].get(reply_to_message_id)
            if replied is None or replied.deleted:
                raise LookupError(f"no message #{reply_to_message_id} to reply to")
        target.members.add(person.id)
        message = self._new_message(
            target,
            from_bot=False,
            sender_id=person.id,
            text=text,
            entities=command_entities(text) or None,
            message_thread_id=message_thread_id,
            reply_to_message_id=reply_to_message_id,
        )
        payload = self._message_payload(message)
        where = f" [topic {message_thread_id}]" if message_thread_id is not None else ""
        reply = f" (reply to #{reply_to_message_id})" if reply_to_message_id is not None else ""
        self._log(target.id, _indent_lines(f"{person.label}{where}{reply}: ", text.split("\n")))
        self._enqueue({"message": payload})
        return Message.model_validate(payload)

    async def tap(
        self,
        chat: FakeChat | int,
        message_id: int,
        user: FakeUser | int,
        data: str,
        *,
        check_button: bool = True,
    ) -> str:
        """The user taps the inline button carrying ``data`` under ``message_id``.

        The callback query carries the message as the bot last left it.  With
        ``check_button=False`` a tap on a button that is no longer there can be simulated (a
        user with a stale client).  Returns the callback query id.
        """
        target = self._chat(chat)
        person = self._user(user)
        self._check_user_can_act(target, person)
        message = self.messages[target.id].get(message_id)
        if message is None or message.deleted:
            raise LookupError(f"no message #{message_id} in chat {target.id}")
        if not message.from_bot:
            raise ValueError(f"message #{message_id} was not sent by the bot")
        button = message.button_by_data(data)
        if button is None and check_button:
            raise ValueError(
                f"message #{message_id} has no button with callback_data {data!r}; "
                f"its buttons are {message.button_labels()}"
            )
        target.members.add(person.id)
        query_id = str(next(self._query_seq))
        self._queries[query_id] = _Query(
            query_id, target.id, message_id, person.id, data, self._clock()
        )
        if check_button and self._replaced_for(target.id, person.id, message_id) is not None:
            raise ValueError(
                f"{person.label} sees an ephemeral message in place of #{message_id}; "
                "tap that (tap_ephemeral) or pass check_button=False"
            )
        label = f"[{button['text']}]" if button is not None else f"(stale data {data!r})"
        self._log(target.id, f"{person.label} taps {label} on #{message_id}", only=person.id)
        self._enqueue(
            {
                "callback_query": {
                    "id": query_id,
                    "from": person.api(),
                    "message": self._message_payload(message),
                    "chat_instance": target.instance,
                    "data": data,
                }
            }
        )
        return query_id

    async def tap_button(
        self,
        chat: FakeChat | int,
        user: FakeUser | int,
        label: str,
        *,
        message_id: int | None = None,
    ) -> str:
        """Tap the button labelled ``label`` on ``message_id`` or on the newest bot message
        that has such a button.  Returns the callback query id."""
        target = self._chat(chat)
        person = self._user(user)
        candidates: Iterable[StoredMessage]
        if message_id is not None:
            candidates = [self.messages[target.id][message_id]]
        else:
            if self.ephemerals.get(target.id):  # what the user sees: their ephemeral first
                for mine in reversed(self.ephemeral_messages(target, person)):
                    if mine.dropped:
                        continue
                    button = mine.button_by_label(label)
                    if button is not None and "callback_data" in button:
                        return await self.tap_ephemeral(
                            target,
                            person,
                            button["callback_data"],
                            ephemeral_message_id=mine.ephemeral_message_id,
                        )
            candidates = reversed(list(self.messages[target.id].values()))
        for message in candidates:
            if message.deleted or not message.from_bot:
                continue
            if (
                message_id is None
                and self.ephemerals.get(target.id)
                and self._replaced_for(target.id, person.id, message.message_id) is not None
            ):
                continue
            button = message.button_by_label(label)
            if button is not None and "callback_data" in button:
                return await self.tap(target, message.message_id, user, button["callback_data"])
        raise LookupError(f"no callback button labelled {label!r} in chat {target.id}")

    async def redeliver(self, update_id: int) -> None:
        """Queue an already delivered update again, with the same update_id (Telegram does
        this when a bot crashes before confirming); a correct bot must stay idempotent."""
        payload = self._update_archive.get(update_id)
        if payload is None:
            raise LookupError(f"update {update_id} is unknown (or older than history_limit)")
        self._queue.append(_QueuedUpdate(update_id, payload, redelivered=True))
        self._log(None, f"(update {update_id} redelivered)")
        self._action_mark = self._call_seq
        self._wake_poller("update")
        self._touch()

    def update_id_of(self, query_id: str) -> int:
        """The update that carried callback query ``query_id`` (to redeliver it)."""
        for update_id, payload in self._update_archive.items():
            if payload.get("callback_query", {}).get("id") == query_id:
                return update_id
        raise LookupError(f"no update carried callback query {query_id}")

    def query_answered(self, query_id: str) -> bool:
        """Whether the bot answered callback query ``query_id``."""
        query = self._queries.get(query_id)
        return query is not None and query.answered

    async def inject_update(self, update: dict[str, Any]) -> int:
        """Queue a raw update body (without ``update_id``) for anything the helpers lack."""
        return self._enqueue(update)

    # ---------------------------------------------------------------- inspecting

    def calls(self, method: str | None = None, chat_id: FakeChat | int | None = None) -> list[Call]:
        """Recorded calls in order, optionally filtered by method name and chat id."""
        if isinstance(chat_id, FakeChat):
            chat_id = chat_id.id
        source = self._calls if chat_id is None else self._calls_by_chat.get(chat_id, [])
        if method is None:
            return list(source)
        wanted = self._canonical(method)
        return [call for call in source if call.method == wanted]

    def mark(self) -> int:
        """A position in the call log, for ``wait_for(..., since=mark)``."""
        return self._call_seq

    async def wait_for(
        self,
        predicate: Callable[[Call], bool] | str,
        *,
        chat_id: FakeChat | int | None = None,
        timeout: float = 5.0,
        since: int | None = None,
    ) -> Call:
        """Wait for the first recorded call matching ``predicate`` (a callable or a method
        name) and, optionally, ``chat_id``.

        A callable predicate never sees ``getUpdates`` polls (name "getUpdates" to wait for
        one) but does see failed calls, whose ``result`` is None -- check ``call.ok`` first.
        By default only calls made after the most recently injected update are considered, so
        "act, then wait" never matches an older reply; pass ``since=0`` to search everything or
        ``since=tg.mark()`` for an explicit point.  Raises ``TimeoutError`` with the recent
        transcript.
        """
        if isinstance(chat_id, FakeChat):
            chat_id = chat_id.id
        if isinstance(predicate, str):
            wanted = self._canonical(predicate)

            def match(call: Call) -> bool:
                return call.method == wanted and (chat_id is None or call.chat_id == chat_id)
        else:
            user_predicate = predicate

            def match(call: Call) -> bool:
                return (
                    call.method != "getUpdates"
                    and (chat_id is None or call.chat_id == chat_id)
                    and user_predicate(call)
                )

        start = self._action_mark if since is None else since
        source = self._calls if chat_id is None else self._calls_by_chat.get(chat_id, [])
        for call in _calls_since(source, start):
            if match(call):
                return call
        future: asyncio.Future[Call] = asyncio.get_running_loop().create_future()
        waiter = _Waiter(match, future)
        self._waiters.setdefault(chat_id, []).append(waiter)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            tail = "\n".join(self.transcript(chat_id).splitlines()[-15:])
            raise TimeoutError(
                f"no matching bot call within {timeout}s; transcript tail:\n{tail}"
            ) from None
        finally:
            self._waiters[chat_id].remove(waiter)

    async def wait_idle(self, quiet: float = 0.2, timeout: float = 10.0) -> None:
        """Wait until every update is confirmed, no request is in flight and the bot made no
        call for ``quiet`` seconds -- i.e. the bot has finished reacting."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            now = loop.time()
            busy = self._in_flight > 0 or bool(self._queue)
            quiet_left = quiet - (now - self._last_activity)
            if not busy and quiet_left <= 0:
                return
            if now >= deadline:
                raise TimeoutError(
                    f"bot not idle after {timeout}s: {len(self._queue)} unconfirmed updates, "
                    f"{self._in_flight} requests in flight"
                )
            wait = deadline - now if busy else min(quiet_left, deadline - now)
            event = self._activity
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), wait)

    async def wait_settled(self, quiet: float = 0.05, timeout: float = 10.0) -> None:
        """Wait until the bot has finished reacting. Without :attr:`bot_busy` this is
        :meth:`wait_idle` (no call for ``quiet`` seconds); with it, the bot says when it
        handles nothing, so a lull of a few milliseconds after its last call suffices (the
        lull covers an update delivered but not yet picked up by the bot's dispatcher)."""
        probe = self.bot_busy
        if probe is None:
            await self.wait_idle(quiet=quiet, timeout=timeout)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        lull = min(quiet, SETTLED_LULL)
        while True:
            await self.wait_idle(quiet=lull, timeout=max(0.0, deadline - loop.time()))
            if not probe():
                return
            if loop.time() >= deadline:
                raise TimeoutError(f"bot still handling updates after {timeout}s")
            event = self._activity
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), SETTLED_LULL)

    def pending_updates(self) -> int:
        """Updates queued or delivered but not yet confirmed by the poller."""
        return len(self._queue)

    @property
    def poller_waiting(self) -> bool:
        """True while a ``getUpdates`` long poll is parked waiting for updates."""
        return self._poller is not None and not self._poller.done()

    def latest_photo(self, chat_id: FakeChat | int) -> bytes:
        """Bytes of the most recent photo the bot sent or edited into the chat."""
        chat = self._chat(chat_id)
        stored = self._latest_photo.get(chat.id)
        if stored is None:
            raise LookupError(f"the bot has not shown a photo in chat {chat.id}")
        if stored.data is None:
            raise RuntimeError("photo bytes were not kept (store_file_bytes=False)")
        return stored.data

    def last_bot_message(self, chat_id: FakeChat | int) -> StoredMessage:
        """The newest message the bot sent to the chat (even if since edited or deleted)."""
        chat = self._chat(chat_id)
        message_id = self._last_bot_message.get(chat.id)
        if message_id is None:
            raise LookupError(f"the bot has sent nothing to chat {chat.id}")
        return self.messages[chat.id][message_id]

    def last_bot_message_seen_by(
        self, chat_id: FakeChat | int, user: FakeUser | int
    ) -> StoredMessage:
        """The newest message the bot sent that ``user`` sees in the chat: a public one, or
        an ephemeral one addressed to them (as it is now, even if since edited)."""
        chat, person = self._chat(chat_id), self._user(user)
        for call in reversed(self._calls_by_chat.get(chat.id, [])):
            if not call.ok or not call.method.startswith("send"):
                continue
            result = call.result
            if not isinstance(result, dict):
                continue
            number = result.get("ephemeral_message_id")
            if number is None:
                return self.messages[chat.id][result["message_id"]]
            if result.get("receiver_user", {}).get("id") == person.id:
                return self.ephemerals[chat.id][(person.id, number)]
        raise LookupError(f"the bot has sent {person.label} nothing in chat {chat.id}")

    def transcript(
        self, chat_id: FakeChat | int | None = None, *, viewer: FakeUser | int | None = None
    ) -> str:
        """What happened, in order, as a player would read it.

        For one chat, lines are unprefixed; for all chats each line starts with the chat's
        label in brackets.  Continuation lines (more text, button rows) are indented.
        ``viewer``: only what that user could see -- their own taps and answers, their own
        ephemeral messages, and everything public (another user's taps are invisible).
        """
        wanted = None if chat_id is None else self._chat(chat_id).id
        seer = None if viewer is None else self._user(viewer).id
        lines: list[str] = []
        for index, (entry_chat, entry) in enumerate(self._log_entries):
            if wanted is not None and entry_chat != wanted:
                continue
            if seer is not None and self._private_entries.get(index, seer) != seer:
                continue
            prefix = ""
            if wanted is None:
                label = self.chats[entry_chat].label if entry_chat in self.chats else "-"
                prefix = f"[{label}] "
            lines.append(prefix + entry[0])
            lines.extend(f"{prefix}    {line}" for line in entry[1:])
        return "\n".join(lines) + ("\n" if lines else "")

    def save_transcript(self, path: str | Path, chat_id: FakeChat | int | None = None) -> Path:
        """Write ``transcript(chat_id)`` to ``path`` (parents created) and return the path."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(self.transcript(chat_id), encoding="utf-8")
        return target

    # ---------------------------------------------------------------- HTTP plumbing

    async def _handle_api(self, request: web.Request) -> web.Response:
        raw_method = request.match_info["method"]
        entry = self._methods.get(raw_method.lower())
        method = entry[0] if entry is not None else raw_method
        active = method != "getUpdates"
        if active:
            self._in_flight += 1
            self._touch()
        params: dict[str, Any] = {}
        files: dict[str, _Upload] = {}
        try:
            try:
                if request.match_info["token"] != self.token:
                    raise TelegramApiError(401, "Unauthorized")
                if entry is None:
                    raise TelegramApiError(404, "Not Found")
                params, files = await self._read_params(request)
                slow = self._slow.get(method.lower())
                if slow:
                    await asyncio.sleep(slow.popleft())
                self._raise_scripted_failure(method)
                result = await entry[1](params, files)
                body: dict[str, Any] = {"ok": True, "result": result}
                status = 200
            except TelegramApiError as error:
                body, status = error.payload(), error.error_code
            if files:
                params = dict(params)
                for name, upload in files.items():
                    placeholder = f"<upload {upload.filename}, {len(upload.data)} bytes>"
                    params.setdefault(name, placeholder)
            self._record(method, params, body)
        finally:
            if active:
                self._in_flight -= 1
                self._touch()
        return web.json_response(body, status=status)

    async def _handle_file(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response(TelegramApiError(401, "Unauthorized").payload(), status=401)
        stored = self._files_by_path.get(request.match_info["path"])
        if stored is not None and stored.data is not None:
            return web.Response(body=stored.data, content_type=stored.mime_type or None)
        return web.json_response(TelegramApiError(404, "Not Found").payload(), status=404)

    async def _read_params(self, request: web.Request) -> tuple[dict[str, Any], dict[str, _Upload]]:
        raw: dict[str, Any] = dict(request.query)
        files: dict[str, _Upload] = {}
        if request.method == "POST" and request.can_read_body:
            # The media type without parameters: aiohttp's request.content_type parses the
            # header with the email package, slow enough to show in the load benchmark.
            content_type = request.headers.get("Content-Type", "").partition(";")[0].strip().lower()
            if content_type == "application/json":
                try:
                    body = await request.json()
                except ValueError:
                    raise _bad("Bad Request: can't parse JSON encoded request") from None
                if not isinstance(body, dict):
                    raise _bad("Bad Request: JSON object expected")
                raw.update(body)
            elif content_type == "multipart/form-data":
                boundary = _BOUNDARY_RE.search(request.headers.get("Content-Type", ""))
                if boundary is None:
                    raise _bad("Bad Request: can't parse multipart/form-data: no boundary")
                body = await request.read()
                marker = (boundary.group(1) or boundary.group(2)).encode("latin-1")
                for name, filename, part_type, data in parse_form_data(body, marker):
                    if filename is not None:
                        if len(data) > MAX_UPLOAD_BYTES:
                            raise TelegramApiError(413, "Request Entity Too Large")
                        files[name] = _Upload(filename, data, part_type)
                    else:
                        try:
                            raw[name] = data.decode()
                        except UnicodeDecodeError:
                            raise _bad("Bad Request: strings must be encoded in UTF-8") from None
            else:
                form = await request.post()
                raw.update({key: value for key, value in form.items() if isinstance(value, str)})
        return _normalize(raw), files

    def _raise_scripted_failure(self, method: str) -> None:
        pending = self._failures.get(method.lower())
        if pending:
            failure = pending.popleft()
            raise TelegramApiError(
                failure.error_code, failure.description, retry_after=failure.retry_after
            )

    def _canonical(self, method: str) -> str:
        entry = self._methods.get(method.lower())
        return entry[0] if entry is not None else method

    def _record(self, method: str, params: dict[str, Any], body: dict[str, Any]) -> None:
        chat_id = params.get("chat_id")
        if method == "answerCallbackQuery":
            query = self._queries.get(str(params.get("callback_query_id")))
            chat_id = query.chat_id if query is not None else None
        inline_message = self.inline_messages.get(str(params.get("inline_message_id") or ""))
        if inline_message is not None:
            chat_id = inline_message.chat_id
        if not isinstance(chat_id, int):
            chat_id = None
        call = Call(self._call_seq, method, params, self._clock() - self._started_at, chat_id, body)
        self._call_seq += 1
        self._calls.append(call)
        if chat_id is not None:
            self._calls_by_chat.setdefault(chat_id, []).append(call)
        if not call.ok and method != "getUpdates":
            self._log(chat_id, f"bot ✗ {method}: {call.error}")
        self._trim_history()
        for key in (chat_id, None) if chat_id is not None else (None,):
            for waiter in self._waiters.get(key, ()):
                if waiter.future.done():
                    continue
                try:
                    matched = waiter.predicate(call)
                except Exception as error:  # a broken predicate must fail the test, loudly
                    waiter.future.set_exception(error)
                    continue
                if matched:
                    waiter.future.set_result(call)

    def _trim_history(self) -> None:
        limit = self.history_limit
        if limit is None or len(self._calls) <= 2 * limit:
            return
        drop = len(self._calls) - limit
        del self._calls[:drop]
        self._calls_base = self._calls[0].seq
        for chat_calls in self._calls_by_chat.values():
            keep = next(
                (i for i, c in enumerate(chat_calls) if c.seq >= self._calls_base), len(chat_calls)
            )
            del chat_calls[:keep]
        if len(self._update_archive) > 2 * limit:
            excess = len(self._update_archive) - limit
            for update_id in list(itertools.islice(self._update_archive, excess)):
                del self._update_archive[update_id]
        if len(self._log_entries) > 4 * limit:
            cut = len(self._log_entries) - 2 * limit
            del self._log_entries[:cut]
            self._private_entries = {
                index - cut: user for index, user in self._private_entries.items() if index >= cut
            }

    def _touch(self) -> None:
        self._last_activity = asyncio.get_running_loop().time()
        event, self._activity = self._activity, asyncio.Event()
        event.set()

    # ---------------------------------------------------------------- update queue

    def _enqueue(self, body: dict[str, Any]) -> int:
        update_id = next(self._update_seq)
        payload = {"update_id": update_id, **body}
        self._update_archive[update_id] = payload
        self._queue.append(_QueuedUpdate(update_id, payload))
        self._action_mark = self._call_seq
        self._wake_poller("update")
        self._touch()
        return update_id

    def _wake_poller(self, reason: str) -> None:
        if self._poller is not None and not self._poller.done():
            self._poller.set_result(reason)
        self._webhook_wake.set()

    # ---------------------------------------------------------------- webhook delivery

    async def _stop_webhook(self) -> None:
        task, self._webhook_task = self._webhook_task, None
        if task is not None:
            # The flag as well as the cancellation: Python 3.11's wait_for can swallow a
            # cancellation that arrives as its wait ends.
            self._webhook_stopping = True
            self._webhook_wake.set()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _deliver_webhooks(self) -> None:
        """POST every queued update to the webhook, at most ``max_connections`` at once, as
        Telegram does: an update is confirmed (removed from the queue) by a 2xx answer only;
        a refused connection, an error status or a dropped connection (a worker killed in the
        middle) leaves it queued, and it is delivered again after ``webhook_retry_delay``."""
        import aiohttp

        running: set[asyncio.Task[None]] = set()
        timeout = aiohttp.ClientTimeout(total=120)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            try:
                while self.webhook is not None and not self._webhook_stopping:
                    self._webhook_wake.clear()
                    hook = self.webhook
                    for entry in list(self._queue):
                        if len(running) >= hook.max_connections:
                            break
                        if entry.sending:
                            continue
                        entry.sending = True
                        entry.delivered = True
                        task = asyncio.create_task(self._post_update(session, hook, entry))
                        running.add(task)
                        task.add_done_callback(running.discard)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._webhook_wake.wait(), 1.0)
            finally:
                for task in running:
                    task.cancel()
                await asyncio.gather(*running, return_exceptions=True)

    def _webhook_target(self, hook: _Webhook) -> str:
        if not self.webhook_upstreams:
            return hook.url
        parts = urllib.parse.urlsplit(hook.url)
        base = self.webhook_upstreams[next(self._webhook_turn) % len(self.webhook_upstreams)]
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        return base.rstrip("/") + path

    async def _post_update(self, session: Any, hook: _Webhook, entry: _QueuedUpdate) -> None:
        import aiohttp

        headers = {}
        if hook.secret_token:
            headers["X-Telegram-Bot-Api-Secret-Token"] = hook.secret_token
        ok = False
        try:
            async with session.post(
                self._webhook_target(hook), json=entry.payload, headers=headers
            ) as answer:
                await answer.read()
                ok = 200 <= answer.status < 300
        except (aiohttp.ClientError, OSError, TimeoutError):
            ok = False
        self.webhook_deliveries += 1
        if ok:
            with contextlib.suppress(ValueError):
                self._queue.remove(entry)
            self._touch()
            return
        self.webhook_failures += 1
        await asyncio.sleep(self.webhook_retry_delay)
        entry.sending = False
        self._webhook_wake.set()

    def _confirm(self, offset: int) -> None:
        if offset < 0:
            keep = -offset
            while len(self._queue) > keep:
                self._queue.popleft()
            return
        before = len(self._queue)
        self._queue = deque(
            entry
            for entry in self._queue
            if entry.update_id >= offset or (entry.redelivered and not entry.delivered)
        )
        if len(self._queue) != before:
            self._touch()

    def _take_batch(self, offset: int | None, limit: int) -> list[dict[str, Any]]:
        batch: list[dict[str, Any]] = []
        for entry in self._queue:
            if len(batch) >= limit:
                break
            if (
                offset is None
                or offset <= 0
                or entry.update_id >= offset
                or (entry.redelivered and not entry.delivered)
            ):
                entry.delivered = True
                batch.append(entry.payload)
        return batch

    # ---------------------------------------------------------------- resolution helpers

    def _user(self, user: FakeUser | int) -> FakeUser:
        if isinstance(user, FakeUser):
            return user
        try:
            return self.users[user]
        except KeyError:
            raise LookupError(f"user {user} is not registered; call tg.user(...)") from None

    def _chat(self, chat: FakeChat | int) -> FakeChat:
        if isinstance(chat, FakeChat):
            return chat
        try:
            return self.chats[chat]
        except KeyError:
            raise LookupError(f"chat {chat} is not registered") from None

    def _check_user_can_act(self, chat: FakeChat, user: FakeUser) -> None:
        if chat.user is not None and chat.user.id != user.id:
            raise ValueError(f"{user.label} cannot act in {chat.user.label}'s private chat")
        if chat.blocked:
            raise ValueError(f"chat {chat.id} has blocked/kicked the bot; call unblock_bot first")

    def _target_chat(self, params: dict[str, Any]) -> FakeChat:
        chat_id = params.get("chat_id")
        if chat_id is None or chat_id == "":
            raise _bad("Bad Request: chat_id is empty")
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None or not chat.bot_member:
            if isinstance(chat_id, int) and chat_id in self.users:
                raise TelegramApiError(403, CANT_INITIATE)
            raise _bad(CHAT_NOT_FOUND)
        if chat.blocked:
            description = (
                BLOCKED
                if chat.user
                else (KICKED_SUPERGROUP if chat.type == "supergroup" else KICKED_GROUP)
            )
            raise TelegramApiError(403, description)
        return chat

    def _thread(self, chat: FakeChat, params: dict[str, Any]) -> int | None:
        thread = params.get("message_thread_id")
        if thread is None:
            return None
        if not chat.is_forum:
            raise _bad(THREAD_NOT_FOUND)
        return int(thread)

    def _reply_target(self, chat: FakeChat, params: dict[str, Any]) -> int | None:
        reply = params.get("reply_parameters")
        message_id = params.get("reply_to_message_id")
        allow_missing = bool(params.get("allow_sending_without_reply"))
        if isinstance(reply, dict):
            message_id = reply.get("message_id")
            allow_missing = allow_missing or bool(reply.get("allow_sending_without_reply"))
        if message_id is None:
            return None
        target = self.messages[chat.id].get(int(message_id))
        if target is None or target.deleted:
            if allow_missing:
                return None
            raise _bad(REPLY_NOT_FOUND)
        return target.message_id

    def _formatted(
        self,
        params: dict[str, Any],
        text_field: str,
        entities_field: str,
        *,
        limit: int,
        too_long: str,
        required: bool,
        parse_mode: str | None = None,
    ) -> tuple[str | None, list[dict[str, Any]] | None]:
        raw = params.get(text_field)
        if raw is None or raw == "":
            if required:
                raise _bad(TEXT_EMPTY)
            return None, None
        mode = parse_mode if parse_mode is not None else params.get("parse_mode")
        if mode:
            text, entities = parse_formatted(str(raw), str(mode))
        else:
            text = str(raw)
            given = params.get(entities_field)
            if given is not None and not isinstance(given, list):
                raise _bad("Bad Request: can't parse entities JSON object")
            entities = list(given) if given else []
        if not text.strip():
            if required:
                raise _bad(TEXT_EMPTY)
            return None, None
        if len(text) > limit:
            raise _bad(too_long)
        return text, entities or None

    def _caption(
        self, params: dict[str, Any], parse_mode: str | None = None
    ) -> tuple[str | None, list[dict[str, Any]] | None]:
        return self._formatted(
            params,
            "caption",
            "caption_entities",
            limit=CAPTION_LIMIT,
            too_long=CAPTION_TOO_LONG,
            required=False,
            parse_mode=parse_mode,
        )

    def _new_message(self, chat: FakeChat, **fields: Any) -> StoredMessage:
        message_id = self._next_message_id.get(chat.id, 1)
        self._next_message_id[chat.id] = message_id + 1
        message = StoredMessage(
            chat_id=chat.id, message_id=message_id, date=int(time.time()), **fields
        )
        self.messages.setdefault(chat.id, {})[message_id] = message
        if message.from_bot:
            self._last_bot_message[chat.id] = message_id
        return message

    def _message_for_edit(self, params: dict[str, Any]) -> StoredMessage:
        if params.get("inline_message_id"):
            raise _bad("Bad Request: MESSAGE_ID_INVALID")
        chat = self._target_chat(params)
        message_id = params.get("message_id")
        if message_id is None:
            raise _bad("Bad Request: message identifier is not specified")
        message = self.messages[chat.id].get(message_id)
        if message is None or message.deleted:
            raise _bad(EDIT_NOT_FOUND)
        if not message.from_bot:
            raise _bad(CANT_EDIT)
        return message

    def _message_payload(self, message: StoredMessage, *, nested: bool = False) -> dict[str, Any]:
        chat = self.chats[message.chat_id]
        data: dict[str, Any] = {
            "message_id": message.message_id,
            "date": message.date,
            "chat": chat.api(),
            "from": self.bot_user if message.from_bot else self.users[message.sender_id].api(),
        }
        if message.ephemeral_message_id is not None and message.receiver_id is not None:
            data["ephemeral_message_id"] = message.ephemeral_message_id
            data["receiver_user"] = self.users[message.receiver_id].api()
        if message.via_bot:
            data["via_bot"] = self.bot_user
        if message.message_thread_id is not None:
            data["message_thread_id"] = message.message_thread_id
            data["is_topic_message"] = True
        if message.reply_to_message_id is not None and not nested:
            replied = self.messages[message.chat_id].get(message.reply_to_message_id)
            if replied is not None and not replied.deleted:
                data["reply_to_message"] = self._message_payload(replied, nested=True)
        if message.edit_date is not None:
            data["edit_date"] = message.edit_date
        if message.text is not None:
            data["text"] = message.text
            if message.entities:
                data["entities"] = message.entities
        if message.file is not None:
            if message.media_kind == "photo":
                data["photo"] = message.file.sizes
            elif message.media_kind == "animation":
                data["animation"] = message.file.api()
                data["document"] = message.file.api()
            else:
                data["document"] = message.file.api()
        if message.dice is not None:
            data["dice"] = message.dice
        if message.media_group_id is not None:
            data["media_group_id"] = message.media_group_id
        if message.caption is not None:
            data["caption"] = message.caption
            if message.caption_entities:
                data["caption_entities"] = message.caption_entities
        if message.reply_markup is not None:
            data["reply_markup"] = message.reply_markup
        return data

    # ---------------------------------------------------------------- files

    def _new_file_ids(self, kind: str, digest: str) -> tuple[str, str, int]:
        number = next(self._file_seq)
        prefix = {"photo": "AgAC", "animation": "CgAC", "document": "BQAC"}[kind]
        return f"{prefix}AgIAAxkBAAI{number:07d}", f"AQAD{digest[:12]}", number

    async def _store_upload(self, upload: _Upload, kind: str) -> StoredFile:
        data = upload.data
        if self.hash_uploads:
            digest = hashlib.sha1(data, usedforsecurity=False).hexdigest()
        else:  # unique per upload, not per content (the option's doc)
            digest = f"{next(self._upload_seq):012x}".ljust(40, "0")
        width = height = 0
        if kind in ("photo", "animation"):
            full = self.decode_images and kind == "photo"
            try:
                if full:  # a whole decode is slow: off the server's event loop
                    width, height = await asyncio.to_thread(_image_size, data, full_decode=True)
                else:  # the header alone: microseconds
                    width, height = _image_size(data, full_decode=False)
            except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
                if kind == "photo":
                    raise _bad(IMAGE_FAILED) from None
            if kind == "photo" and (width > MAX_PHOTO_SIDE or height > MAX_PHOTO_SIDE):
                raise _bad(PHOTO_DIMENSIONS)
        file_id, unique_id, number = self._new_file_ids(kind, digest)
        mime = upload.content_type
        if not mime or mime == "application/octet-stream":
            mime = mimetypes.guess_type(upload.filename)[0]
        extension = Path(upload.filename).suffix or (".jpg" if kind == "photo" else "")
        stored = StoredFile(
            file_id=file_id,
            file_unique_id=unique_id,
            kind=kind,
            data=data if self.store_file_bytes else None,
            size=len(data),
            width=width,
            height=height,
            file_name=None if kind == "photo" else upload.filename,
            mime_type=None if kind == "photo" else mime,
            file_path=f"{kind}s/file_{number}{extension}",
        )
        self.files[file_id] = stored
        self._files_by_path[stored.file_path] = stored
        if kind == "photo":
            stored.sizes = self._photo_sizes(stored, digest)
        return stored

    def _photo_sizes(self, stored: StoredFile, digest: str) -> list[dict[str, Any]]:
        """Telegram answers a photo with several sizes; bots use the last (largest) one."""
        sizes: list[dict[str, Any]] = []
        longest = max(stored.width, stored.height, 1)
        for side in (90, 320, 800):
            if longest <= side:
                break
            thumb_id, _, _ = self._new_file_ids("photo", digest)
            width = max(1, stored.width * side // longest)
            height = max(1, stored.height * side // longest)
            thumb = StoredFile(
                file_id=thumb_id,
                file_unique_id=f"AQAD{digest[:12]}x{side}",
                kind="photo",
                data=stored.data,
                size=stored.size,
                width=width,
                height=height,
                file_path=stored.file_path,
            )
            thumb.sizes = [
                {
                    "file_id": thumb_id,
                    "file_unique_id": thumb.file_unique_id,
                    "file_size": stored.size,
                    "width": width,
                    "height": height,
                }
            ]
            self.files[thumb_id] = thumb
            sizes.append(thumb.sizes[0])
        sizes.append(
            {
                "file_id": stored.file_id,
                "file_unique_id": stored.file_unique_id,
                "file_size": stored.size,
                "width": stored.width,
                "height": stored.height,
            }
        )
        return sizes

    async def _input_file(
        self, value: Any, files: dict[str, _Upload], field_name: str, kind: str
    ) -> StoredFile:
        """Resolve a file parameter: a direct upload, ``attach://name`` or a file_id."""
        if value is None and field_name in files:
            return await self._store_upload(files[field_name], kind)
        if not isinstance(value, str) or not value:
            raise _bad(f"Bad Request: there is no {field_name} in the request")
        if value.startswith("attach://"):
            upload = files.get(value[len("attach://") :])
            if upload is None:
                raise _bad(WRONG_FILE_ID)
            return await self._store_upload(upload, kind)
        stored = self.files.get(value)
        if stored is None:
            raise _bad(WRONG_FILE_ID)
        if stored.kind != kind:
            raise _bad(
                f"Bad Request: can't use file of type {stored.kind.title()} as {kind.title()}"
            )
        return stored

    # ---------------------------------------------------------------- transcript helpers

    def _log(self, chat_id: int | None, entry: str | list[str], *, only: int | None = None) -> None:
        """Log a transcript entry; ``only``: the one user who sees it (a tap, an answer, an
        ephemeral message), left out of other viewers' transcripts."""
        lines = (entry,) if isinstance(entry, str) else tuple(entry)
        if only is not None:
            self._private_entries[len(self._log_entries)] = only
        self._log_entries.append((chat_id, lines))

    def _describe(self, message: StoredMessage) -> list[str]:
        head = ""
        if message.media_kind == "photo" and message.file is not None:
            head = f"[photo {message.file.width}x{message.file.height}]"
        elif message.media_kind == "animation" and message.file is not None:
            head = f"[animation {message.file.width}x{message.file.height}]"
        elif message.media_kind == "document" and message.file is not None:
            head = f"[document {message.file.file_name or 'file'}]"
        elif message.dice is not None:
            head = f"[dice {message.dice['emoji']} = {message.dice['value']}]"
        body = message.text if message.text is not None else (message.caption or "")
        body_lines = body.split("\n") if body else []
        first = " ".join(part for part in (head, body_lines[0] if body_lines else "") if part)
        return [first, *body_lines[1:], *_markup_lines(message.reply_markup)]

    def _log_output(self, prefix: str, message: StoredMessage, extra: Any = None) -> None:
        lines = self._describe(message)
        lines.extend(_markup_lines(extra))
        self._log(message.chat_id, [f"{prefix}: {lines[0]}".rstrip(), *lines[1:]])

    # ---------------------------------------------------------------- Bot API methods

    async def _m_true(self, params: dict[str, Any], files: dict[str, _Upload]) -> bool:
        return True

    async def _m_get_me(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": self.inline_mode,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _m_get_updates(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        if self.webhook is not None:
            raise TelegramApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = params.get("offset")
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = max(float(params.get("timeout") or 0), 0.0)
        if offset:
            self._confirm(offset)
        batch = self._take_batch(offset, limit)
        if batch or timeout == 0 or self._closing:
            return batch
        # Telegram allows one long poll at a time: a newer one terminates the older one.
        self._wake_poller("conflict")
        waiter: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._poller = waiter
        try:
            done, _ = await asyncio.wait({waiter}, timeout=timeout)
        finally:
            if self._poller is waiter:
                self._poller = None
        if done and waiter.result() == "conflict":
            raise TelegramApiError(409, CONFLICT)
        return self._take_batch(offset, limit)

    async def _m_set_webhook(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        url = str(params.get("url") or "")
        if not url:
            await self._stop_webhook()
            self.webhook = None
            return True
        if not url.startswith("https://"):
            raise _bad("Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
        secret = params.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", str(secret)):
            raise _bad("Bad Request: secret token contains unallowed characters")
        connections = int(params.get("max_connections") or 40)
        if not 1 <= connections <= 100:
            raise _bad("Bad Request: bad webhook: max_connections must be between 1 and 100")
        if params.get("drop_pending_updates"):
            self._queue.clear()
        self.webhook = _Webhook(url, None if secret is None else str(secret), connections)
        self._wake_poller("conflict")  # a long poll in progress ends with 409
        if self._webhook_task is None or self._webhook_task.done():
            self._webhook_stopping = False
            self._webhook_task = asyncio.create_task(self._deliver_webhooks())
        self._webhook_wake.set()
        return True

    async def _m_delete_webhook(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        await self._stop_webhook()
        self.webhook = None
        for entry in self._queue:
            entry.sending = False
        if params.get("drop_pending_updates"):
            self._queue.clear()
            self._touch()
        return True

    async def _m_get_webhook_info(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        pending = len(self._queue)
        url = self.webhook.url if self.webhook is not None else ""
        info: dict[str, Any] = {
            "url": url,
            "has_custom_certificate": False,
            "pending_update_count": pending,
        }
        if self.webhook is not None:
            info["max_connections"] = self.webhook.max_connections
        return info

    async def _m_send_message(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        chat = self._target_chat(params)
        spec = self._ephemeral_spec(chat, params)
        text, entities = self._formatted(
            params, "text", "entities", limit=TEXT_LIMIT, too_long=TEXT_TOO_LONG, required=True
        )
        inline, other = _validate_markup(params.get("reply_markup"))
        thread = self._thread(chat, params)
        reply_to = self._reply_target(chat, params)
        if spec is not None:
            return self._send_ephemeral(
                chat,
                spec,
                other,
                text=text,
                entities=entities,
                reply_markup=inline,
                message_thread_id=thread,
            )
        message = self._new_message(
            chat,
            from_bot=True,
            sender_id=self.bot_id,
            text=text,
            entities=entities,
            reply_markup=inline,
            message_thread_id=thread,
            reply_to_message_id=reply_to,
        )
        self._log_output(f"bot #{message.message_id}", message, other)
        return self._message_payload(message)

    async def _send_file(self, params: dict[str, Any], files: dict[str, _Upload], kind: str) -> Any:
        chat = self._target_chat(params)
        spec = self._ephemeral_spec(chat, params)
        caption, caption_entities = self._caption(params)
        inline, other = _validate_markup(params.get("reply_markup"))
        thread = self._thread(chat, params)
        reply_to = self._reply_target(chat, params)
        stored = await self._input_file(params.get(kind), files, kind, kind)
        if chat.blocked:  # blocked while the upload was being decoded
            self._target_chat(params)
        if spec is not None:
            return self._send_ephemeral(
                chat,
                spec,
                other,
                caption=caption,
                caption_entities=caption_entities,
                media_kind=kind,
                file=stored,
                reply_markup=inline,
                message_thread_id=thread,
            )
        message = self._new_media_message(
            chat, kind, stored, caption, caption_entities, thread, reply_to, reply_markup=inline
        )
        self._log_output(f"bot #{message.message_id}", message, other)
        return self._message_payload(message)

    def _new_media_message(
        self,
        chat: FakeChat,
        kind: str,
        stored: StoredFile,
        caption: str | None,
        caption_entities: list[dict[str, Any]] | None,
        thread: int | None,
        reply_to: int | None,
        **fields: Any,
    ) -> StoredMessage:
        """A photo, animation or document the bot sends (alone or in an album)."""
        message = self._new_message(
            chat,
            from_bot=True,
            sender_id=self.bot_id,
            caption=caption,
            caption_entities=caption_entities,
            media_kind=kind,
            file=stored,
            message_thread_id=thread,
            reply_to_message_id=reply_to,
            **fields,
        )
        if kind == "photo":
            self._latest_photo[chat.id] = stored
        return message

    async def _m_send_photo(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        return await self._send_file(params, files, "photo")

    async def _m_send_animation(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        return await self._send_file(params, files, "animation")

    async def _m_send_document(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        return await self._send_file(params, files, "document")

    async def _m_send_media_group(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        """An album: 2-10 photos (or 2-10 documents), each with its own caption, sent as
        messages sharing one ``media_group_id``; the result is the list of messages. Checked
        whole before anything is stored, as Telegram refuses an album whole. Video and audio
        items, which this fake does not store, are refused as unsupported."""
        chat = self._target_chat(params)
        media = params.get("media")
        if media is None:
            raise _bad(MEDIA_REQUIRED)
        if not isinstance(media, list):
            raise _bad("Bad Request: can't parse media JSON object")
        if not media:
            raise _bad(ALBUM_EMPTY)
        if len(media) > ALBUM_LIMIT:
            raise _bad(ALBUM_TOO_LARGE)
        if len(media) < 2:
            raise _bad(ALBUM_TOO_SMALL)
        if params.get("reply_markup") is not None:
            raise _bad(ALBUM_NO_MARKUP)
        kinds = []
        for item in media:
            kind = item.get("type") if isinstance(item, dict) else None
            if kind in ("animation", "sticker", "voice", "video_note"):
                raise _bad(
                    f"Bad Request: can't parse InputMedia: type \"{kind}\" can't be used in "
                    "sendMediaGroup"
                )
            if kind not in ("photo", "document", "video", "audio"):
                raise _bad(f'Bad Request: can\'t parse InputMedia: type "{kind}" is unsupported')
            if kind in ("video", "audio"):
                raise _bad(f"Bad Request: {kind} albums are not supported by the fake")
            kinds.append(kind)
        if "document" in kinds and len(set(kinds)) > 1:
            raise _bad("Bad Request: document can't be mixed with other media types")
        thread = self._thread(chat, params)
        reply_to = self._reply_target(chat, params)
        prepared = []
        for item, kind in zip(media, kinds, strict=True):
            item_params = _normalize({k: v for k, v in item.items() if k not in ("media", "type")})
            caption, entities = self._caption(item_params, item_params.get("parse_mode"))
            if "media" not in item:
                raise _bad("Bad Request: can't parse InputMedia: media not found")
            prepared.append((kind, caption, entities, item["media"]))
        stored = [await self._input_file(m, files, "media", kind) for kind, _, _, m in prepared]
        if chat.blocked:  # blocked while the uploads were being decoded
            self._target_chat(params)
        group_id = str(13_000_000_000_000_000 + next(self._album_seq))
        results = []
        for (kind, caption, entities, _), file in zip(prepared, stored, strict=True):
            message = self._new_media_message(
                chat, kind, file, caption, entities, thread, reply_to, media_group_id=group_id
            )
            self._log_output(f"bot #{message.message_id} (album {group_id})", message)
            results.append(self._message_payload(message))
        return results

    async def _m_send_dice(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        chat = self._target_chat(params)
        emoji = params.get("emoji") or "🎲"
        if emoji not in _DICE_RANGES:
            raise _bad("Bad Request: BOT_DICE_EMOJI_INVALID")
        value = self._dice_script.popleft() if self._dice_script else None
        if value is None:
            value = self._rng.randint(1, _DICE_RANGES[emoji])
        inline, other = _validate_markup(params.get("reply_markup"))
        message = self._new_message(
            chat,
            from_bot=True,
            sender_id=self.bot_id,
            dice={"emoji": emoji, "value": value},
            reply_markup=inline,
            message_thread_id=self._thread(chat, params),
        )
        self._log_output(f"bot #{message.message_id}", message, other)
        return self._message_payload(message)

    async def _m_send_chat_action(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        chat = self._target_chat(params)
        if params.get("action") not in _CHAT_ACTIONS:
            raise _bad("Bad Request: wrong parameter action in request")
        self._thread(chat, params)
        return True

    def _apply_edit(self, message: StoredMessage, changes: dict[str, Any]) -> None:
        if all(getattr(message, key) == value for key, value in changes.items()):
            raise _bad(NOT_MODIFIED)
        for key, value in changes.items():
            setattr(message, key, value)
        message.edit_date = int(time.time())
        message.edits += 1

    async def _edit_media(
        self, message: StoredMessage, params: dict[str, Any], files: dict[str, _Upload]
    ) -> StoredFile:
        """Replace a message's media by the ``media`` parameter (an InputMedia JSON object),
        its caption and its buttons, as editMessageMedia and its ephemeral twin do; the file
        sent (the message keeps its own when it is the same file)."""
        media = params.get("media")
        if not isinstance(media, dict):
            raise _bad("Bad Request: can't parse InputMedia JSON object")
        kind = media.get("type")
        if kind not in ("photo", "animation", "document"):
            raise _bad(f"Bad Request: unsupported media type {kind!r} in the fake")
        media_params = _normalize({k: v for k, v in media.items() if k != "media"})
        caption, caption_entities = self._caption(media_params, media_params.get("parse_mode"))
        markup = self._edit_markup(params)
        if message.file is None:
            raise _bad(NO_MEDIA_TO_EDIT)
        stored = await self._input_file(media.get("media"), files, "media", kind)
        same_file = (
            message.file.file_unique_id == stored.file_unique_id and message.media_kind == kind
        )
        changes = {
            "media_kind": kind,
            "file": message.file if same_file else stored,
            "caption": caption,
            "caption_entities": caption_entities,
            "reply_markup": markup,
        }
        self._apply_edit(message, changes)
        return stored

    def _edit_markup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        inline, other = _validate_markup(params.get("reply_markup"))
        if other is not None:
            raise _bad("Bad Request: inline keyboard expected")
        return inline

    async def _m_edit_message_text(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        if params.get("inline_message_id"):
            return await self._edit_inline("text", params, files)
        message = self._message_for_edit(params)
        text, entities = self._formatted(
            params, "text", "entities", limit=TEXT_LIMIT, too_long=TEXT_TOO_LONG, required=True
        )
        markup = self._edit_markup(params)
        if message.text is None:
            raise _bad(NO_TEXT_TO_EDIT)
        self._apply_edit(message, {"text": text, "entities": entities, "reply_markup": markup})
        self._log_output(f"bot edits #{message.message_id}", message)
        return self._message_payload(message)

    async def _m_edit_message_caption(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        if params.get("inline_message_id"):
            return await self._edit_inline("caption", params, files)
        message = self._message_for_edit(params)
        caption, caption_entities = self._caption(params)
        markup = self._edit_markup(params)
        if message.file is None:
            raise _bad(NO_CAPTION_TO_EDIT)
        self._apply_edit(
            message,
            {"caption": caption, "caption_entities": caption_entities, "reply_markup": markup},
        )
        self._log_output(f"bot edits caption #{message.message_id}", message)
        return self._message_payload(message)

    async def _m_edit_message_media(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        if params.get("inline_message_id"):
            return await self._edit_inline("media", params, files)
        message = self._message_for_edit(params)
        stored = await self._edit_media(message, params, files)
        if message.media_kind == "photo":
            self._latest_photo[message.chat_id] = stored
        self._log_output(f"bot edits #{message.message_id}", message)
        return self._message_payload(message)

    async def _m_edit_message_reply_markup(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        if params.get("inline_message_id"):
            return await self._edit_inline("markup", params, files)
        message = self._message_for_edit(params)
        markup = self._edit_markup(params)
        self._apply_edit(message, {"reply_markup": markup})
        if markup is None:
            self._log(message.chat_id, f"bot removes the buttons of #{message.message_id}")
        else:
            self._log(
                message.chat_id,
                [f"bot edits buttons of #{message.message_id}:", *_markup_lines(markup)],
            )
        return self._message_payload(message)

    def _delete(self, chat: FakeChat, message_id: Any) -> StoredMessage:
        message = self.messages[chat.id].get(message_id) if isinstance(message_id, int) else None
        if message is None or message.deleted:
            raise _bad(DELETE_NOT_FOUND)
        if chat.user is None and not message.from_bot and not chat.bot_is_admin:
            raise _bad(CANT_DELETE)
        message.deleted = True
        self._log(chat.id, f"bot deletes #{message.message_id}")
        return message

    async def _m_delete_message(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        chat = self._target_chat(params)
        self._delete(chat, params.get("message_id"))
        return True

    async def _m_delete_messages(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        chat = self._target_chat(params)
        ids = params.get("message_ids")
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise _bad("Bad Request: message_ids must be a non-empty Array of at most 100 ids")
        for message_id in ids:
            try:
                self._delete(chat, message_id)
            except TelegramApiError:
                continue  # Telegram skips messages it cannot delete
        return True

    async def _m_answer_callback_query(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        query = self._queries.get(str(params.get("callback_query_id")))
        if query is None or query.answered:
            raise _bad(QUERY_TOO_OLD)
        if self.callback_deadline is not None and (
            self._clock() - query.created > self.callback_deadline
        ):
            raise _bad(QUERY_TOO_OLD)
        text = params.get("text") or None
        if text is not None and len(text) > CALLBACK_TEXT_LIMIT:
            raise _bad("Bad Request: MESSAGE_TOO_LONG")
        query.answered = True
        answer = CallbackAnswer(
            query.id,
            text,
            bool(params.get("show_alert")),
            params.get("url") or None,
            int(params.get("cache_time") or 0),
        )
        self.callback_answers[query.id] = answer
        who = self.users[query.user_id].label
        if text is None:
            self._log(query.chat_id, f"bot answers {who}'s tap silently", only=query.user_id)
        else:
            how = "with an alert" if answer.show_alert else "with a toast"
            self._log(
                query.chat_id, f'bot answers {who}\'s tap {how}: "{text}"', only=query.user_id
            )
        return True

    # ---------------------------------------------------------------- ephemeral messages

    def set_ephemeral_delivery(self, user: FakeUser | int, mode: str) -> None:
        """How ephemeral messages to ``user`` fare: ``"deliver"`` (the default), ``"drop"``
        (accepted, edits accepted, but the user never sees them -- an offline or old client)
        or ``"refuse"`` (the send fails with a Bad Request)."""
        if mode not in ("deliver", "drop", "refuse"):
            raise ValueError(f"unknown ephemeral delivery mode {mode!r}")
        self._ephemeral_delivery[self._user(user).id] = mode

    def ephemeral_messages(
        self, chat: FakeChat | int, user: FakeUser | int, *, live_only: bool = True
    ) -> list[StoredMessage]:
        """The ephemeral messages the bot sent to ``user`` in ``chat``, oldest first
        (``live_only``: those not deleted nor expired, dropped ones included)."""
        target, person = self._chat(chat), self._user(user)
        self._expire_due(target.id)
        found = [
            m
            for (receiver, _), m in self.ephemerals.get(target.id, {}).items()
            if receiver == person.id and (m.live or not live_only)
        ]
        return sorted(found, key=lambda m: m.ephemeral_message_id or 0)

    def ephemeral(self, chat: FakeChat | int, user: FakeUser | int) -> StoredMessage:
        """The newest ephemeral message ``user`` sees in ``chat`` (delivered and live)."""
        seen = [m for m in self.ephemeral_messages(chat, user) if not m.dropped]
        if not seen:
            raise LookupError(f"{self._user(user).label} sees no ephemeral message")
        return seen[-1]

    def expire_ephemeral(
        self, chat: FakeChat | int, user: FakeUser | int, ephemeral_message_id: int | None = None
    ) -> int:
        """Let ``user``'s live ephemeral messages (or one of them) expire now; how many did."""
        count = 0
        for message in self.ephemeral_messages(chat, user):
            if ephemeral_message_id in (None, message.ephemeral_message_id):
                self._expire(message)
                count += 1
        return count

    def visible_messages(self, chat: FakeChat | int, user: FakeUser | int) -> list[StoredMessage]:
        """The bot's and users' messages as ``user`` sees the chat now: public ones, with a
        message replaced for them by an ephemeral one shown as that ephemeral message, and
        their other ephemeral messages after the public ones."""
        target, person = self._chat(chat), self._user(user)
        mine = [m for m in self.ephemeral_messages(target, person) if not m.dropped]
        out: list[StoredMessage] = []
        placed: set[int] = set()
        for message in self.messages.get(target.id, {}).values():
            if message.deleted:
                continue
            instead = [m for m in mine if m.replaces == message.message_id]
            if instead:
                out.append(instead[-1])
                placed.update(id(m) for m in instead)
            else:
                out.append(message)
        out.extend(m for m in mine if id(m) not in placed)
        return out

    async def tap_ephemeral(
        self,
        chat: FakeChat | int,
        user: FakeUser | int,
        data: str | None = None,
        *,
        label: str | None = None,
        ephemeral_message_id: int | None = None,
        check_button: bool = True,
        stale_client: bool = False,
    ) -> str:
        """The user taps a button (by ``data`` or ``label``) on an ephemeral message they see
        (the newest unless ``ephemeral_message_id``).  ``stale_client``: their app still
        shows a deleted or expired one (it missed the event; Telegram does not promise it).
        Returns the callback query id."""
        target, person = self._chat(chat), self._user(user)
        if ephemeral_message_id is None:
            message = self.ephemeral(target, person)
        else:
            self._expire_due(target.id)
            found = self.ephemerals.get(target.id, {}).get((person.id, ephemeral_message_id))
            gone = found is not None and not found.live and not stale_client
            if found is None or gone or found.dropped:
                raise LookupError(f"{person.label} sees no ephemeral #{ephemeral_message_id}")
            message = found
        button = None
        if label is not None:
            button = message.button_by_label(label)
            if button is None or "callback_data" not in button:
                raise LookupError(f"no button {label!r} on {person.label}'s ephemeral message")
            data = button["callback_data"]
        if data is None:
            raise ValueError("give the button's data or label")
        button = button or message.button_by_data(data)
        if button is None and check_button:
            raise ValueError(
                f"ephemeral e{message.ephemeral_message_id} has no button {data!r}; "
                f"its buttons are {message.button_labels()}"
            )
        query_id = str(next(self._query_seq))
        self._queries[query_id] = _Query(
            query_id,
            target.id,
            0,
            person.id,
            data,
            self._clock(),
            ephemeral_id=message.ephemeral_message_id,
        )
        shown = f"[{button['text']}]" if button is not None else f"(stale data {data!r})"
        self._log(
            target.id,
            f"{person.label} taps {shown} on their e{message.ephemeral_message_id}",
            only=person.id,
        )
        self._enqueue(
            {
                "callback_query": {
                    "id": query_id,
                    "from": person.api(),
                    "message": self._message_payload(message),
                    "chat_instance": target.instance,
                    "data": data,
                }
            }
        )
        return query_id

    def shown_in_place_of(
        self, chat: FakeChat | int, user: FakeUser | int, message_id: int
    ) -> StoredMessage | None:
        """The ephemeral message ``user`` sees instead of ``message_id`` (a picker or a
        private view shown in its place), if any: what their tap there would reach."""
        return self._replaced_for(self._chat(chat).id, self._user(user).id, message_id)

    def _replaced_for(self, chat_id: int, user_id: int, message_id: int) -> StoredMessage | None:
        """The live, delivered ephemeral message shown to ``user_id`` in place of
        ``message_id``, if any."""
        self._expire_due(chat_id)
        for (receiver, _), message in self.ephemerals.get(chat_id, {}).items():
            if (
                receiver == user_id
                and message.replaces == message_id
                and message.live
                and not message.dropped
            ):
                return message
        return None

    def _expire(self, message: StoredMessage) -> None:
        message.expired = True
        who = self.users[message.receiver_id].label if message.receiver_id else "?"
        self._log(
            message.chat_id,
            f"({who}'s ephemeral e{message.ephemeral_message_id} expired)",
            only=message.receiver_id,
        )

    def _expire_due(self, chat_id: int) -> None:
        ttl = self.ephemeral_ttl
        if ttl is None:
            return
        now = self._clock()
        for message in self.ephemerals.get(chat_id, {}).values():
            if message.live and now - message.created > ttl:
                self._expire(message)

    def _ephemeral_spec(self, chat: FakeChat, params: dict[str, Any]) -> _EphemeralSpec | None:
        """The ephemeral parameters of a send, checked as strictly as the rest (None: a
        public message)."""
        raw = params.get("ephemeral_message_parameters")
        legacy_receiver = params.get("receiver_user_id")
        legacy_query = params.get("callback_query_id")
        reply = params.get("reply_parameters")
        reply_to_ephemeral = reply.get("ephemeral_message_id") if isinstance(reply, dict) else None
        if raw is None and legacy_receiver is None and legacy_query is None:
            if reply_to_ephemeral is not None:
                raise _bad(
                    "Bad Request: a reply to an ephemeral message must itself be an ephemeral "
                    "message"
                )
            return None
        if raw is not None and (legacy_receiver is not None or legacy_query is not None):
            raise _bad(EPHEMERAL_TWICE)
        if raw is not None:
            if not isinstance(raw, dict):
                raise _bad(EPHEMERAL_PARAMS)
            receiver = raw.get("receiver_user_id")
            query_id = raw.get("callback_query_id")
            replace = raw.get("replace_callback_query_message", False)
        else:
            receiver, query_id, replace = legacy_receiver, legacy_query, False
        if not isinstance(replace, bool):
            raise _bad(EPHEMERAL_PARAMS)
        if chat.type not in ("group", "supergroup"):
            raise _bad(EPHEMERAL_CHAT)
        if (
            not isinstance(receiver, int)
            or isinstance(receiver, bool)
            or receiver not in self.users
            or receiver not in chat.members
        ):
            raise _bad(EPHEMERAL_RECEIVER)
        query = None
        if query_id is not None:
            query = self._queries.get(str(query_id))
            if query is None or query.chat_id != chat.id or query.user_id != receiver:
                raise _bad(EPHEMERAL_QUERY)
            if self._clock() - query.created > EPHEMERAL_WINDOW:
                raise _bad(QUERY_TOO_OLD)
        if replace:
            if query is None:
                raise _bad(EPHEMERAL_REPLACE_NO_QUERY)
            if query.ephemeral_id is not None:
                raise _bad(EPHEMERAL_REPLACE_EPHEMERAL)
        if reply_to_ephemeral is not None:
            self._expire_due(chat.id)
            replied = self.ephemerals.get(chat.id, {}).get((receiver, int(reply_to_ephemeral)))
            if (
                replied is None
                or not replied.live
                or self._clock() - replied.created > EPHEMERAL_WINDOW
            ):
                raise _bad(REPLY_NOT_FOUND)
        mode = self._ephemeral_delivery.get(receiver, "deliver")
        if mode == "refuse":
            raise _bad(EPHEMERAL_UNSUPPORTED)
        return _EphemeralSpec(receiver, query, replace, dropped=mode == "drop")

    def _send_ephemeral(
        self, chat: FakeChat, spec: _EphemeralSpec, other: dict[str, Any] | None, **fields: Any
    ) -> dict[str, Any]:
        if other is not None:
            raise _bad(EPHEMERAL_MARKUP)
        number = self._next_ephemeral_id.get(chat.id, 1)
        self._next_ephemeral_id[chat.id] = number + 1
        replaces = spec.query.message_id if spec.replace and spec.query is not None else None
        message = StoredMessage(
            chat_id=chat.id,
            message_id=0,
            date=int(time.time()),
            from_bot=True,
            sender_id=self.bot_id,
            receiver_id=spec.receiver,
            ephemeral_message_id=number,
            replaces=replaces,
            created=self._clock(),
            dropped=spec.dropped,
            **fields,
        )
        self.ephemerals.setdefault(chat.id, {})[(spec.receiver, number)] = message
        who = self.users[spec.receiver].label
        where = f" in place of #{replaces}" if replaces is not None else ""
        lost = " (dropped: never arrives)" if spec.dropped else ""
        self._log_ephemeral(f"bot → {who} only, e{number}{where}{lost}", message)
        return self._message_payload(message)

    def _log_ephemeral(self, prefix: str, message: StoredMessage) -> None:
        lines = self._describe(message)
        self._log(
            message.chat_id,
            [f"{prefix}: {lines[0]}".rstrip(), *lines[1:]],
            only=message.receiver_id,
        )

    def _ephemeral_for_edit(self, params: dict[str, Any], *, missing: str) -> StoredMessage:
        chat = self._target_chat(params)
        receiver = params.get("receiver_user_id")
        number = params.get("ephemeral_message_id")
        if receiver is None:
            raise _bad(RECEIVER_NOT_SPECIFIED)
        if number is None:
            raise _bad(EPHEMERAL_NOT_SPECIFIED)
        self._expire_due(chat.id)
        message = self.ephemerals.get(chat.id, {}).get((receiver, number))
        if message is None or not message.live:
            raise _bad(missing)
        return message

    def _edited_ephemeral(self, message: StoredMessage, what: str) -> bool:
        who = self.users[message.receiver_id].label if message.receiver_id else "?"
        self._log_ephemeral(f"bot edits {what}{who}'s e{message.ephemeral_message_id}", message)
        return True

    async def _m_edit_ephemeral_message_text(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        message = self._ephemeral_for_edit(params, missing=EDIT_NOT_FOUND)
        text, entities = self._formatted(
            params, "text", "entities", limit=TEXT_LIMIT, too_long=TEXT_TOO_LONG, required=True
        )
        markup = self._edit_markup(params)
        if message.text is None:
            raise _bad(NO_TEXT_TO_EDIT)
        self._apply_edit(message, {"text": text, "entities": entities, "reply_markup": markup})
        return self._edited_ephemeral(message, "")

    async def _m_edit_ephemeral_message_caption(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        message = self._ephemeral_for_edit(params, missing=EDIT_NOT_FOUND)
        caption, caption_entities = self._caption(params)
        markup = self._edit_markup(params)
        if message.file is None:
            raise _bad(NO_CAPTION_TO_EDIT)
        self._apply_edit(
            message,
            {"caption": caption, "caption_entities": caption_entities, "reply_markup": markup},
        )
        return self._edited_ephemeral(message, "the caption of ")

    async def _m_edit_ephemeral_message_media(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        message = self._ephemeral_for_edit(params, missing=EDIT_NOT_FOUND)
        await self._edit_media(message, params, files)
        return self._edited_ephemeral(message, "")

    async def _m_edit_ephemeral_message_reply_markup(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        message = self._ephemeral_for_edit(params, missing=EDIT_NOT_FOUND)
        markup = self._edit_markup(params)
        self._apply_edit(message, {"reply_markup": markup})
        return self._edited_ephemeral(message, "the buttons of ")

    async def _m_delete_ephemeral_message(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        message = self._ephemeral_for_edit(params, missing=DELETE_NOT_FOUND)
        message.deleted = True
        who = self.users[message.receiver_id].label if message.receiver_id else "?"
        self._log(
            message.chat_id,
            f"bot deletes {who}'s e{message.ephemeral_message_id}",
            only=message.receiver_id,
        )
        return True

    def _scope_key(self, scope: Any) -> str:
        if not scope:
            return "default"
        if not isinstance(scope, dict):
            raise _bad("Bad Request: can't parse BotCommandScope JSON object")
        kind = scope.get("type")
        if kind in ("default", "all_private_chats", "all_group_chats", "all_chat_administrators"):
            return str(kind)
        if kind in ("chat", "chat_administrators", "chat_member"):
            chat = self._target_chat(_normalize({"chat_id": scope.get("chat_id")}))
            if kind == "chat_member":
                return f"chat_member:{chat.id}:{int(scope.get('user_id', 0))}"
            return f"{kind}:{chat.id}"
        raise _bad("Bad Request: unsupported bot command scope type")

    async def _m_set_my_commands(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise _bad("Bad Request: can't parse commands JSON object")
        clean: list[dict[str, Any]] = []
        for command in commands:
            name = command.get("command") if isinstance(command, dict) else None
            description = command.get("description") if isinstance(command, dict) else None
            if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9_]{1,32}", name):
                raise _bad("Bad Request: BOT_COMMAND_INVALID")
            if not isinstance(description, str) or not description.strip():
                raise _bad("Bad Request: command description must be non-empty")
            if len(description) > 256:
                raise _bad("Bad Request: command description is too long")
            entry: dict[str, Any] = {"command": name, "description": description}
            if "is_ephemeral" in command:
                if not isinstance(command["is_ephemeral"], bool):
                    raise _bad("Bad Request: can't parse commands JSON object")
                entry["is_ephemeral"] = command["is_ephemeral"]
            clean.append(entry)
        key = (self._scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self.commands[key] = clean
        return True

    async def _m_get_my_commands(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        key = (self._scope_key(params.get("scope")), str(params.get("language_code") or ""))
        return list(self.commands.get(key, []))

    async def _m_delete_my_commands(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        key = (self._scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self.commands.pop(key, None)
        return True

    def _m_set_bot_text(self, name: str) -> Handler:
        async def handler(params: dict[str, Any], files: dict[str, _Upload]) -> Any:
            self.bot_texts[(name, str(params.get("language_code") or ""))] = str(
                params.get(name) or ""
            )
            return True

        return handler

    def _m_get_bot_text(self, name: str) -> Handler:
        async def handler(params: dict[str, Any], files: dict[str, _Upload]) -> Any:
            key = (name, str(params.get("language_code") or ""))
            default = self.bot_first_name if name == "name" else ""
            return {name: self.bot_texts.get(key, default)}

        return handler

    async def _m_get_chat_menu_button(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        return {"type": "default"}

    async def _m_get_chat(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        chat = self._target_chat(params)
        data = chat.api()
        data.update(
            accent_color_id=0,
            max_reaction_count=11,
            accepted_gift_types={
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        )
        pinned = [m for m in self.messages[chat.id].values() if m.pinned and not m.deleted]
        if pinned:
            data["pinned_message"] = self._message_payload(pinned[-1])
        return data

    def _member(self, chat: FakeChat, user_id: int) -> dict[str, Any]:
        if user_id == self.bot_id:
            user = {**self.bot_user}
            if chat.blocked and chat.user is None:
                return {"status": "kicked", "user": user, "until_date": 0}
            if chat.bot_is_admin:
                return _admin_member(user)
            return {"status": "member", "user": user}
        person = self.users.get(user_id)
        if person is None:
            raise _bad("Bad Request: user not found")
        if chat.admins and user_id == chat.admins[0]:
            return {"status": "creator", "user": person.api(), "is_anonymous": False}
        if user_id in chat.admins:
            return _admin_member(person.api())
        if user_id in chat.members:
            return {"status": "member", "user": person.api()}
        return {"status": "left", "user": person.api()}

    async def _m_get_chat_member(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        chat = self._target_chat(params)
        user_id = params.get("user_id")
        if not isinstance(user_id, int):
            raise _bad("Bad Request: user_id is empty")
        return self._member(chat, user_id)

    async def _m_get_chat_administrators(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        chat = self._target_chat(params)
        if chat.user is not None:
            raise _bad("Bad Request: there are no administrators in the private chat")
        admins = [self._member(chat, user_id) for user_id in chat.admins]
        if chat.bot_is_admin:
            admins.append(self._member(chat, self.bot_id))
        return admins

    async def _m_get_chat_member_count(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        chat = self._target_chat(params)
        return len(chat.members) + 1

    async def _m_pin_chat_message(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        chat = self._target_chat(params)
        message = self.messages[chat.id].get(params.get("message_id"))
        if message is None or message.deleted:
            raise _bad("Bad Request: message to pin not found")
        message.pinned = True
        self._log(chat.id, f"bot pins #{message.message_id}")
        return True

    async def _m_unpin_chat_message(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        chat = self._target_chat(params)
        message_id = params.get("message_id")
        pinned = [m for m in self.messages[chat.id].values() if m.pinned]
        if message_id is not None:
            pinned = [m for m in pinned if m.message_id == message_id]
        if pinned:
            pinned[-1].pinned = False
            self._log(chat.id, f"bot unpins #{pinned[-1].message_id}")
        return True

    async def _m_unpin_all_chat_messages(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        chat = self._target_chat(params)
        for message in self.messages[chat.id].values():
            message.pinned = False
        return True

    async def _m_get_file(self, params: dict[str, Any], files: dict[str, _Upload]) -> Any:
        stored = self.files.get(str(params.get("file_id")))
        if stored is None:
            raise _bad("Bad Request: invalid file_id")
        return {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_size": stored.size,
            "file_path": stored.file_path,
        }


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------


def _normalize(raw: dict[str, Any]) -> dict[str, Any]:
    """Turn form strings into the types Telegram would read them as."""
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "chat_id":
            if isinstance(value, str) and _INT_TEXT.fullmatch(value.strip()):
                value = int(value)
        elif key in _INT_PARAMS and isinstance(value, str):
            try:
                value = int(value)
            except ValueError:
                raise _bad(f"Bad Request: invalid {key} specified") from None
        elif key in _BOOL_PARAMS and isinstance(value, str):
            value = value.strip().lower() in ("true", "1")
        elif key in _JSON_PARAMS and isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                what = "reply keyboard markup" if key == "reply_markup" else key
                raise _bad(f"Bad Request: can't parse {what} JSON object") from None
        params[key] = value
    return params


def _admin_member(user: dict[str, Any]) -> dict[str, Any]:
    rights = dict.fromkeys(
        (
            "can_manage_chat",
            "can_delete_messages",
            "can_manage_video_chats",
            "can_restrict_members",
            "can_invite_users",
            "can_change_info",
            "can_post_stories",
            "can_edit_stories",
            "can_delete_stories",
            "can_pin_messages",
        ),
        True,
    )
    return {
        "status": "administrator",
        "user": user,
        "can_be_edited": False,
        "is_anonymous": False,
        "can_promote_members": False,
        "can_send_welcome_messages": False,
        **rights,
    }


def _markup_lines(markup: Any) -> list[str]:
    if not isinstance(markup, dict):
        return []
    if "inline_keyboard" in markup:
        rows = markup["inline_keyboard"]
        return [" ".join(f"[{b.get('text', '')}]" for b in row) for row in rows]
    if "keyboard" in markup:
        rows = markup["keyboard"]
        return [
            "keyboard: "
            + " ".join(f"[{b.get('text', '') if isinstance(b, dict) else b}]" for b in row)
            for row in rows
        ]
    if markup.get("remove_keyboard"):
        return ["(keyboard removed)"]
    if markup.get("force_reply"):
        return ["(asks for a reply)"]
    return []


def _indent_lines(prefix: str, lines: list[str]) -> list[str]:
    return [prefix + lines[0], *lines[1:]]


def _calls_since(calls: list[Call], seq: int) -> Iterator[Call]:
    """Calls with ``call.seq >= seq`` (binary search: the list is ordered by seq)."""
    lo, hi = 0, len(calls)
    while lo < hi:
        mid = (lo + hi) // 2
        if calls[mid].seq < seq:
            lo = mid + 1
        else:
            hi = mid
    return itertools.islice(calls, lo, None)
