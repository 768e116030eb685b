"""Inline mode for the fake Bot API server (a mixin of :class:`tests.fake_telegram.FakeTelegram`).

Why a separate module: inline mode is a world of its own -- queries typed in any chat, results
the bot answers with, messages "via @bot" posted into chats the bot may not be in, and edits
addressed by ``inline_message_id`` instead of a chat and a message id. It is kept apart from the
chat-message core so both can grow without stepping on each other.

What is modelled, as Telegram does it:

* ``tg.inline_query(user, "text", chat=...)`` queues an ``inline_query`` update (only when inline
  mode is on, ``tg.inline_mode``; BotFather's /setinline);
* ``answerInlineQuery`` is validated (query id, at most 50 results, unique result ids of 1-64
  bytes, known result types with their required fields, message texts and captions within
  limits, inline keyboards, ``cache_time`` >= 0, ``is_personal``, ``next_offset`` <= 64 bytes,
  the results button's ``start_parameter``) and kept in ``tg.inline_answers``;
* ``tg.choose_inline_result(query_id, result_id)`` posts the chosen result into the chat the query
  was typed in. It gets an ``inline_message_id`` only if the result has a ``reply_markup`` (as in
  Telegram); a ``chosen_inline_result`` update is queued only when inline feedback is on
  (``tg.inline_feedback``, BotFather's /setinlinefeedback);
* ``tg.tap_inline(inline_message_id, user, data)`` queues a callback query with no ``message``
  and the ``inline_message_id`` instead;
* edits with ``inline_message_id`` (text, caption, media, markup) answer ``True``; a media edit
  must name a file by ``file_id`` or URL -- an upload into an inline message is refused;
* ``tg.delete_inline_message(id)`` (a user deleted it) and ``tg.expire_inline_message(id)`` (the
  bot can no longer edit it) make later edits fail.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests import fake_telegram as core

if TYPE_CHECKING:
    from tests.fake_telegram import FakeChat, FakeUser, StoredFile, StoredMessage, _Upload

# Telegram's wording where it is known; the upload refusal's exact text is not documented
# (docs/testing.md, "Known gaps"), the rule itself is: "When an inline message is edited, a new
# file can't be uploaded; use a previously uploaded file via its file_id or specify a URL".
QUERY_ID_INVALID = "Bad Request: QUERY_ID_INVALID"
RESULTS_TOO_MUCH = "Bad Request: RESULTS_TOO_MUCH"
RESULT_ID_INVALID = "Bad Request: RESULT_ID_INVALID"
RESULT_ID_DUPLICATE = "Bad Request: RESULT_ID_DUPLICATE"
RESULT_TYPE_INVALID = "Bad Request: RESULT_TYPE_INVALID"
RESULT_TITLE_EMPTY = "Bad Request: RESULT_TITLE_EMPTY"
MESSAGE_EMPTY = "Bad Request: MESSAGE_EMPTY"
PHOTO_URL_EMPTY = "Bad Request: PHOTO_CONTENT_URL_EMPTY"
PHOTO_THUMB_EMPTY = "Bad Request: PHOTO_THUMB_URL_EMPTY"
NEXT_OFFSET_INVALID = "Bad Request: NEXT_OFFSET_INVALID"
START_PARAM_INVALID = "Bad Request: START_PARAM_INVALID"
CACHE_TIME_INVALID = "Bad Request: CACHE_TIME_INVALID"
MESSAGE_ID_INVALID = "Bad Request: MESSAGE_ID_INVALID"
INLINE_UPLOAD = "Bad Request: can't upload a new file into an inline message; use a file_id or URL"
INLINE_WITH_CHAT = "Bad Request: chat_id and message_id must be empty for an inline message"

MAX_RESULTS = 50
#: Result types and, for each, the fields one of which Telegram requires besides ``id``.
RESULT_TYPES = frozenset(
    {
        "article",
        "photo",
        "gif",
        "mpeg4_gif",
        "video",
        "audio",
        "voice",
        "document",
        "location",
        "venue",
        "contact",
        "game",
        "sticker",
    }
)
_START_PARAMETER = re.compile(r"[A-Za-z0-9_-]{1,64}")
_URL = re.compile(r"https?://\S+$")


@dataclass(eq=False, slots=True)
class InlineQuery:
    """An inline query a user typed; ``chat_id`` is where (None: the chat is not modelled)."""

    id: str
    user_id: int
    query: str
    chat_id: int | None
    chat_type: str
    created: float
    answered: bool = False


@dataclass(frozen=True, slots=True)
class InlineAnswer:
    """What the bot answered to one inline query (results as sent, JSON-decoded)."""

    query_id: str
    results: list[dict[str, Any]]
    cache_time: int
    is_personal: bool
    next_offset: str
    button: dict[str, Any] | None = None

    def result(self, result_id: str) -> dict[str, Any]:
        for item in self.results:
            if item.get("id") == result_id:
                return item
        raise LookupError(f"no result {result_id!r}; the ids are {[r['id'] for r in self.results]}")

    @property
    def titles(self) -> list[str]:
        return [str(r.get("title") or r.get("caption") or "") for r in self.results]


@dataclass(slots=True)
class _InlineState:
    queries: dict[str, InlineQuery] = field(default_factory=dict)
    answers: dict[str, InlineAnswer] = field(default_factory=dict)
    messages: dict[str, StoredMessage] = field(default_factory=dict)
    expired: set[str] = field(default_factory=set)
    query_seq: itertools.count[int] = field(default_factory=lambda: itertools.count(7_100_000_001))
    message_seq: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    chat_seq: itertools.count[int] = field(default_factory=lambda: itertools.count(1))


class InlineMode:
    """Inline queries, their answers, inline messages and their edits (see the module doc).

    Mixed into :class:`~tests.fake_telegram.FakeTelegram`, whose chat and message machinery it
    uses (``_user``, ``_chat``, ``_log``, ``_enqueue``, ``_apply_edit`` ...).
    """

    _inline: _InlineState
    inline_mode: bool
    inline_feedback: bool
    inline_deadline: float | None

    # ---------------------------------------------------------------- settings

    def _init_inline(self) -> None:
        self._inline = _InlineState()
        #: Inline mode on for the bot (BotFather /setinline); ``getMe`` says so.
        self.inline_mode = True
        #: ``chosen_inline_result`` updates are sent (BotFather /setinlinefeedback).
        self.inline_feedback = True
        #: Seconds after which an inline query can no longer be answered (None: never).
        self.inline_deadline: float | None = None

    @property
    def inline_answers(self) -> dict[str, InlineAnswer]:
        """Answers by inline query id."""
        return self._inline.answers

    @property
    def inline_messages(self) -> dict[str, StoredMessage]:
        """Messages posted via the bot, by ``inline_message_id`` (also in ``messages``)."""
        return self._inline.messages

    # ---------------------------------------------------------------- world building

    def users_chat(self, *users: FakeUser | int, title: str | None = None) -> FakeChat:
        """A chat between people that the bot is not in (e.g. two friends' private chat):
        the bot cannot send there, only post via inline mode and edit what it posted."""
        people = [self._user(u) for u in users]
        if not people:
            raise ValueError("a chat needs at least one person")
        chat_id = 8_000_000_000 + next(self._inline.chat_seq)
        label = title or " & ".join(p.label for p in people)
        chat = core.FakeChat(
            id=chat_id,
            type="private" if len(people) == 2 else "group",
            title=label,
            members={p.id for p in people},
            bot_member=False,
        )
        self.chats[chat_id] = chat
        self.messages[chat_id] = {}
        return chat

    def delete_inline_message(self, inline_message_id: str) -> None:
        """A user deletes the message posted via the bot; later edits fail."""
        message = self._inline_message(inline_message_id)
        message.deleted = True
        self._log(message.chat_id, f"a user deleted the inline message {inline_message_id}")

    def expire_inline_message(self, inline_message_id: str) -> None:
        """The bot can no longer edit this inline message (Telegram refuses old ones)."""
        self._inline_message(inline_message_id)
        self._inline.expired.add(inline_message_id)

    # ---------------------------------------------------------------- the users' side

    async def inline_query(
        self,
        user: FakeUser | int,
        query: str = "",
        *,
        chat: FakeChat | int | None = None,
        offset: str = "",
    ) -> str:
        """The user types ``@bot query`` in ``chat`` (None: a chat the fake does not model);
        returns the inline query id. Raises if inline mode is off: Telegram sends nothing."""
        person = self._user(user)
        if not self.inline_mode:
            raise ValueError("inline mode is off for this bot: Telegram sends no inline queries")
        if len(query) > 256:
            raise ValueError("an inline query has at most 256 characters")
        where = self._chat(chat) if chat is not None else None
        if where is None:
            chat_type = "private"
        elif where.id == person.id:
            chat_type = "sender"
        else:
            chat_type = where.type
        query_id = str(next(self._inline.query_seq))
        self._inline.queries[query_id] = InlineQuery(
            query_id,
            person.id,
            query,
            where.id if where is not None else None,
            chat_type,
            self._clock(),
        )
        log_chat = where.id if where is not None else None
        self._log(log_chat, f"{person.label} types: @{self.bot_username} {query}".rstrip())
        body = {
            "id": query_id,
            "from": person.api(),
            "query": query,
            "offset": offset,
            "chat_type": chat_type,
        }
        self._enqueue({"inline_query": body})
        return query_id

    async def choose_inline_result(self, query_id: str, result_id: str) -> StoredMessage:
        """The user picks a result: it is posted into the query's chat "via @bot". Returns the
        message (``inline_message_id`` set only when the result had an inline keyboard)."""
        query = self._inline.queries.get(query_id)
        if query is None:
            raise LookupError(f"no inline query {query_id}")
        answer = self._inline.answers.get(query_id)
        if answer is None:
            raise LookupError(f"the bot has not answered inline query {query_id}")
        result = answer.result(result_id)
        chat_id = query.chat_id
        if chat_id is None:
            chat_id = self.users_chat(query.user_id, title="(chat)").id
        chat = self._chat(chat_id)
        message = self._inline_result_message(chat, query.user_id, result)
        person = self._user(query.user_id)
        self._log_output(f"{person.label} via @{self.bot_username} #{message.message_id}", message)
        if self.inline_feedback:
            chosen: dict[str, Any] = {
                "result_id": result_id,
                "from": person.api(),
                "query": query.query,
            }
            if message.inline_message_id is not None:
                chosen["inline_message_id"] = message.inline_message_id
            self._enqueue({"chosen_inline_result": chosen})
        return message

    async def tap_inline(
        self,
        inline_message_id: str,
        user: FakeUser | int,
        data: str | None = None,
        *,
        label: str | None = None,
        check_button: bool = True,
    ) -> str:
        """A tap on a button of an inline message (by ``data`` or by ``label``): the callback
        query has no ``message``, only the ``inline_message_id``. Returns the query id."""
        message = self._inline_message(inline_message_id)
        if message.deleted:
            raise LookupError(f"the inline message {inline_message_id} was deleted")
        person = self._user(user)
        chat = self._chat(message.chat_id)
        if person.id not in chat.members:
            raise ValueError(f"{person.label} is not in the chat where that message is")
        if label is not None:
            found = message.button_by_label(label)
            if found is None or "callback_data" not in found:
                raise LookupError(f"no callback button {label!r}: {message.button_labels()}")
            data = found["callback_data"]
        if data is None:
            raise ValueError("give the button's data or its label")
        button = message.button_by_data(data)
        if button is None and check_button:
            raise ValueError(f"no button with data {data!r}: {message.button_labels()}")
        query_id = str(next(self._query_seq))
        self._queries[query_id] = core._Query(
            query_id, chat.id, message.message_id, person.id, data, self._clock()
        )
        shown = f"[{button['text']}]" if button is not None else f"(stale data {data!r})"
        self._log(chat.id, f"{person.label} taps {shown} on the inline message")
        self._enqueue(
            {
                "callback_query": {
                    "id": query_id,
                    "from": person.api(),
                    "inline_message_id": inline_message_id,
                    "chat_instance": chat.instance,
                    "data": data,
                }
            }
        )
        return query_id

    # ---------------------------------------------------------------- Bot API methods

    async def _m_answer_inline_query(
        self, params: dict[str, Any], files: dict[str, _Upload]
    ) -> Any:
        query = self._inline.queries.get(str(params.get("inline_query_id") or ""))
        if query is None:
            raise _bad(QUERY_ID_INVALID)
        deadline = self.inline_deadline
        if query.answered or (deadline is not None and self._clock() - query.created > deadline):
            raise _bad(core.QUERY_TOO_OLD)
        results = params.get("results")
        if isinstance(results, str):
            results = _json(results, "results")
        if not isinstance(results, list):
            raise _bad("Bad Request: results must be an Array")
        if len(results) > MAX_RESULTS:
            raise _bad(RESULTS_TOO_MUCH)
        seen: set[str] = set()
        for item in results:
            self._check_result(item, seen)
        cache_time = params.get("cache_time", 300)
        if isinstance(cache_time, str):
            cache_time = int(cache_time) if cache_time.strip().lstrip("-").isdigit() else -1
        if not isinstance(cache_time, int) or cache_time < 0:
            raise _bad(CACHE_TIME_INVALID)
        personal = params.get("is_personal", False)
        if isinstance(personal, str):
            personal = personal.strip().lower() in ("true", "1")
        next_offset = str(params.get("next_offset") or "")
        if len(next_offset.encode()) > 64:
            raise _bad(NEXT_OFFSET_INVALID)
        button = params.get("button")
        if isinstance(button, str):
            button = _json(button, "button")
        if button is not None:
            if not isinstance(button, dict) or not str(button.get("text") or ""):
                raise _bad("Bad Request: BUTTON_TEXT_INVALID")
            start = button.get("start_parameter")
            if "web_app" not in button and (
                not isinstance(start, str) or not _START_PARAMETER.fullmatch(start)
            ):
                raise _bad(START_PARAM_INVALID)
        query.answered = True
        answer = InlineAnswer(query.id, results, cache_time, bool(personal), next_offset, button)
        self._inline.answers[query.id] = answer
        who = self._user(query.user_id).label
        lines = [f"bot offers {who} {len(results)} results:"]
        lines.extend(f"  {r['type']} {r['id']}: {_result_title(r)}" for r in results)
        if button is not None:
            lines.append(f"  [{button['text']}]")
        self._log(query.chat_id, lines)
        return True

    def _check_result(self, item: Any, seen: set[str]) -> None:
        if not isinstance(item, dict):
            raise _bad("Bad Request: InlineQueryResult must be an Object")
        kind = item.get("type")
        if kind not in RESULT_TYPES:
            raise _bad(RESULT_TYPE_INVALID)
        result_id = item.get("id")
        if not isinstance(result_id, str) or not 1 <= len(result_id.encode()) <= 64:
            raise _bad(RESULT_ID_INVALID)
        if result_id in seen:
            raise _bad(RESULT_ID_DUPLICATE)
        seen.add(result_id)
        content = item.get("input_message_content")
        if kind == "article":
            if not str(item.get("title") or "").strip():
                raise _bad(RESULT_TITLE_EMPTY)
            if not isinstance(content, dict):
                raise _bad(MESSAGE_EMPTY)
        if kind == "photo":
            if "photo_file_id" in item:
                self._known_photo(item["photo_file_id"])
            else:
                if not _URL.match(str(item.get("photo_url") or "")):
                    raise _bad(PHOTO_URL_EMPTY)
                if not _URL.match(str(item.get("thumbnail_url") or "")):
                    raise _bad(PHOTO_THUMB_EMPTY)
            self._result_caption(item)
        if content is not None:
            self._content_text(content)
        if "reply_markup" in item:
            markup = item["reply_markup"]
            if not isinstance(markup, dict):
                raise _bad("Bad Request: can't parse inline keyboard markup JSON object")
            core._validate_inline_keyboard(markup)

    def _result_caption(self, result: dict[str, Any]) -> tuple[str | None, Any]:
        """A photo result's caption (its own ``parse_mode``), within Telegram's limit."""
        return self._formatted(
            result,
            "caption",
            "caption_entities",
            limit=core.CAPTION_LIMIT,
            too_long=core.CAPTION_TOO_LONG,
            required=False,
        )

    def _content_text(self, content: Any) -> tuple[str, list[dict[str, Any]] | None]:
        """The text of an InputTextMessageContent (the only kind the fake posts)."""
        if not isinstance(content, dict) or "message_text" not in content:
            raise _bad(MESSAGE_EMPTY)
        text, entities = self._formatted(
            content,
            "message_text",
            "entities",
            limit=core.TEXT_LIMIT,
            too_long=core.TEXT_TOO_LONG,
            required=False,
        )
        if text is None:
            raise _bad(MESSAGE_EMPTY)
        return text, entities

    def _known_photo(self, file_id: Any) -> StoredFile:
        stored = self.files.get(file_id) if isinstance(file_id, str) else None
        if stored is None or stored.kind != "photo":
            raise _bad(core.WRONG_FILE_ID)
        return stored

    def _url_photo(self, url: str, width: int = 0, height: int = 0) -> StoredFile:
        """A photo Telegram would fetch from ``url`` (the fake keeps no bytes for it)."""
        number = next(self._file_seq)
        digest = format(abs(hash(url)), "x")[:12]
        stored = core.StoredFile(
            file_id=f"AgACAgQAAxUAA{number:07d}",
            file_unique_id=f"AQADurl{digest}",
            kind="photo",
            data=None,
            size=0,
            width=width,
            height=height,
            file_path=f"photos/url_{number}.jpg",
        )
        stored.sizes = [
            {
                "file_id": stored.file_id,
                "file_unique_id": stored.file_unique_id,
                "file_size": 0,
                "width": width,
                "height": height,
            }
        ]
        self.files[stored.file_id] = stored
        return stored

    def _inline_result_message(
        self, chat: FakeChat, user_id: int, result: dict[str, Any]
    ) -> StoredMessage:
        fields: dict[str, Any] = {}
        content = result.get("input_message_content")
        if content is not None:
            fields["text"], fields["entities"] = self._content_text(content)
        elif result["type"] == "photo":
            if "photo_file_id" in result:
                stored = self._known_photo(result["photo_file_id"])
            else:
                stored = self._url_photo(
                    result["photo_url"],
                    int(result.get("photo_width") or 0),
                    int(result.get("photo_height") or 0),
                )
            caption, caption_entities = self._result_caption(result)
            fields.update(
                media_kind="photo", file=stored, caption=caption, caption_entities=caption_entities
            )
        else:
            raise ValueError(f"the fake cannot post a {result['type']} result without text")
        markup = result.get("reply_markup")
        inline_id = None
        if markup is not None:
            inline_id = f"AgAAA{next(self._inline.message_seq):06d}{self.bot_id:x}"
        message = self._new_message(
            chat,
            from_bot=False,
            sender_id=user_id,
            reply_markup=markup,
            via_bot=True,
            inline_message_id=inline_id,
            **fields,
        )
        if inline_id is not None:
            self._inline.messages[inline_id] = message
        if message.media_kind == "photo" and message.file is not None:
            self._latest_photo[chat.id] = message.file
        return message

    def _inline_message(self, inline_message_id: str) -> StoredMessage:
        message = self._inline.messages.get(inline_message_id)
        if message is None:
            raise LookupError(f"no inline message {inline_message_id!r}")
        return message

    def _inline_target(self, params: dict[str, Any]) -> StoredMessage:
        """The inline message an edit names (validated as Telegram does)."""
        if params.get("chat_id") not in (None, "") or params.get("message_id") not in (None, ""):
            raise _bad(INLINE_WITH_CHAT)
        message = self._inline.messages.get(str(params["inline_message_id"]))
        if message is None or message.deleted:
            raise _bad(MESSAGE_ID_INVALID)
        if message.inline_message_id in self._inline.expired:
            raise _bad(core.CANT_EDIT)
        return message

    async def _edit_inline(
        self, what: str, params: dict[str, Any], files: dict[str, _Upload]
    ) -> bool:
        """An edit addressed by ``inline_message_id``: ``what`` is text, caption, media or
        markup. Telegram answers ``True`` (not the message) for inline messages."""

        message = self._inline_target(params)
        markup = self._edit_markup(params)
        label = f"bot edits inline #{message.message_id}"
        if what == "text":
            text, entities = self._formatted(
                params,
                "text",
                "entities",
                limit=core.TEXT_LIMIT,
                too_long=core.TEXT_TOO_LONG,
                required=True,
            )
            if message.text is None:
                raise _bad(core.NO_TEXT_TO_EDIT)
            changes: dict[str, Any] = {"text": text, "entities": entities, "reply_markup": markup}
        elif what == "caption":
            caption, caption_entities = self._caption(params)
            if message.file is None:
                raise _bad(core.NO_CAPTION_TO_EDIT)
            changes = {
                "caption": caption,
                "caption_entities": caption_entities,
                "reply_markup": markup,
            }
        elif what == "media":
            media = params.get("media")
            if not isinstance(media, dict):
                raise _bad("Bad Request: can't parse InputMedia JSON object")
            source = media.get("media")
            if files or (isinstance(source, str) and source.startswith("attach://")):
                raise _bad(INLINE_UPLOAD)
            if media.get("type") != "photo":
                raise _bad(f"Bad Request: unsupported media type {media.get('type')!r} in the fake")
            if isinstance(source, str) and _URL.match(source):
                stored = self._url_photo(source)
            else:
                stored = self._known_photo(source)
            media_params = core._normalize({k: v for k, v in media.items() if k != "media"})
            caption, caption_entities = self._caption(media_params, media_params.get("parse_mode"))
            same = message.file is not None and message.file.file_unique_id == stored.file_unique_id
            # Telegram lets an edit turn a text message into a photo.
            changes = {
                "media_kind": "photo",
                "file": message.file if same else stored,
                "text": None,
                "entities": None,
                "caption": caption,
                "caption_entities": caption_entities,
                "reply_markup": markup,
            }
            label = f"bot edits inline #{message.message_id}"
        else:
            changes = {"reply_markup": markup}
            label = f"bot edits the buttons of inline #{message.message_id}"
        self._apply_edit(message, changes)
        if message.media_kind == "photo" and message.file is not None:
            self._latest_photo[message.chat_id] = message.file
        self._log_output(label, message)
        return True


def _bad(description: str) -> Exception:
    return core._bad(description)


def _json(value: str, name: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        raise _bad(f"Bad Request: can't parse {name} JSON object") from None


def _result_title(result: dict[str, Any]) -> str:
    title = result.get("title") or result.get("description") or result.get("caption") or ""
    return str(title).split("\n", 1)[0]
