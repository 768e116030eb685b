"""The fake Bot API server, driven the way the nardy bot will drive it: a real aiogram ``Bot``
over HTTP and a real ``Dispatcher`` long-polling ``getUpdates``.

If these pass, an end-to-end bot test that fails is failing because of the bot, not the fake.
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from aiogram import Bot, Dispatcher, F, Router
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramConflictError,
    TelegramForbiddenError,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.filters import CommandStart
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BufferedInputFile,
    CallbackQuery,
    CopyTextButton,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaDocument,
    InputMediaPhoto,
    Message,
    Update,
)
from PIL import Image

from tests.fake_telegram import (
    FakeTelegram,
    _image_size,
    _jpeg_size,
    command_entities,
    parse_html,
    parse_markdown_v2,
)

# ------------------------------------------------------------------------------ helpers


def png(width: int, height: int, color: str = "saddlebrown") -> bytes:
    """A real PNG, as the renderer will produce."""
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, format="PNG")
    return buffer.getvalue()


def gif(width: int, height: int) -> bytes:
    """A two-frame GIF for sendAnimation."""
    buffer = io.BytesIO()
    frames = [Image.new("P", (width, height), i) for i in (1, 2)]
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:])
    return buffer.getvalue()


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    """Inline keyboard from rows of (label, callback_data)."""
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=label, callback_data=data) for label, data in row]
            for row in rows
        ]
    )


GAME_MENU = keyboard([("Long nardy", "new:long"), ("Short nardy", "new:short")])


@pytest_asyncio.fixture
async def tg(fake_telegram: FakeTelegram) -> FakeTelegram:
    """The server with one player, Alice, who has started the bot."""
    alice = fake_telegram.user(1001, "Alice", username="alice")
    fake_telegram.private_chat(alice)
    return fake_telegram


@pytest_asyncio.fixture
async def bot(fake_bot: Bot) -> Bot:
    return fake_bot


@pytest_asyncio.fixture
async def polling(tg: FakeTelegram, bot: Bot) -> AsyncIterator[Callable[[Router], Awaitable[None]]]:
    """Start a real Dispatcher polling the fake with the given router; stopped at teardown."""
    started: list[tuple[Dispatcher, asyncio.Task[None]]] = []

    async def start(router: Router) -> None:
        dispatcher = Dispatcher()
        dispatcher.include_router(router)
        task = asyncio.create_task(
            dispatcher.start_polling(bot, handle_signals=False, polling_timeout=5)
        )
        started.append((dispatcher, task))

    yield start
    for dispatcher, task in started:
        await dispatcher.stop_polling()
        await task


ALICE = 1001

# ------------------------------------------------------------------------------ basics


async def test_get_me_over_http(tg: FakeTelegram, bot: Bot) -> None:
    me = await bot.get_me()

    assert (me.id, me.username, me.is_bot) == (tg.bot_id, "nardy_test_bot", True)
    assert [call.method for call in tg.calls()] == ["getMe"]


async def test_send_message_with_inline_keyboard(tg: FakeTelegram, bot: Bot) -> None:
    first = await bot.send_message(
        ALICE, "<b>Choose</b> a game", parse_mode="HTML", reply_markup=GAME_MENU
    )
    second = await bot.send_message(ALICE, "Or read the rules")

    assert (first.message_id, second.message_id) == (1, 2)
    assert first.text == "Choose a game"
    assert [(e.type, e.offset, e.length) for e in first.entities or []] == [("bold", 0, 6)]
    assert first.reply_markup is not None
    assert first.reply_markup.model_dump() == GAME_MENU.model_dump()
    assert first.from_user is not None and first.from_user.id == tg.bot_id
    assert first.chat.type == "private"
    assert tg.messages[ALICE][1].button_labels() == [["Long nardy", "Short nardy"]]
    call = tg.calls("sendMessage")[0]
    assert call.params["chat_id"] == ALICE  # form strings are normalised
    assert call.params["reply_markup"]["inline_keyboard"][0][1]["callback_data"] == "new:short"
    assert tg.transcript(ALICE).splitlines() == [
        "bot #1: Choose a game",
        "    [Long nardy] [Short nardy]",
        "bot #2: Or read the rules",
    ]


async def test_same_bytes_share_a_file_unique_id_unless_uploads_are_not_hashed() -> None:
    """As at Telegram, the same bytes uploaded twice get the same ``file_unique_id`` (file ids
    differ); a load benchmark's fake (``hash_uploads=False``) gives each upload its own."""
    board = png(640, 480)
    for hashed in (True, False):
        async with FakeTelegram(hash_uploads=hashed) as server:
            alice = server.user(1001, "Alice")
            server.private_chat(alice)
            async with server.make_bot() as client:
                sent = [
                    await client.send_photo(alice.id, BufferedInputFile(board, "board.png"))
                    for _ in range(2)
                ]
        photos = [message.photo for message in sent]
        assert all(photo is not None for photo in photos)
        largest = [photo[-1] for photo in photos if photo is not None]
        assert largest[0].file_id != largest[1].file_id
        assert (largest[0].file_unique_id == largest[1].file_unique_id) is hashed
        ids = {size.file_unique_id for photo in photos if photo is not None for size in photo}
        assert len(ids) == (3 if hashed else 6)  # each size its own, per content or per upload


async def test_photo_upload_then_edit_media(tg: FakeTelegram, bot: Bot) -> None:
    board = png(640, 480)
    sent = await bot.send_photo(
        ALICE, BufferedInputFile(board, "board.png"), caption="Your move", reply_markup=GAME_MENU
    )

    assert sent.photo is not None
    assert [(p.width, p.height) for p in sent.photo] == [(90, 67), (320, 240), (640, 480)]
    assert sent.caption == "Your move"
    assert tg.latest_photo(ALICE) == board

    next_board = png(640, 480, "darkgreen")
    edited = await bot.edit_message_media(
        InputMediaPhoto(media=BufferedInputFile(next_board, "board.png"), caption="Their move"),
        chat_id=ALICE,
        message_id=sent.message_id,
        reply_markup=GAME_MENU,
    )
    assert isinstance(edited, Message) and edited.photo is not None
    assert edited.photo[-1].file_unique_id != sent.photo[-1].file_unique_id
    assert edited.edit_date is not None
    assert tg.latest_photo(ALICE) == next_board
    assert tg.messages[ALICE][sent.message_id].photo == next_board

    # The same picture again (by file_id) with the same caption and keyboard changes nothing.
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_media(
            InputMediaPhoto(media=edited.photo[-1].file_id, caption="Their move"),
            chat_id=ALICE,
            message_id=sent.message_id,
            reply_markup=GAME_MENU,
        )

    # A previously returned file_id can be sent again, and downloaded.
    again = await bot.send_photo(ALICE, sent.photo[-1].file_id)
    assert again.photo is not None and again.photo[-1].file_id == sent.photo[-1].file_id
    file = await bot.get_file(edited.photo[-1].file_id)
    assert file.file_path is not None
    downloaded = await bot.download_file(file.file_path)
    assert isinstance(downloaded, io.BytesIO) and downloaded.getvalue() == next_board

    upload = tg.calls("sendPhoto")[0].params
    assert upload["photo"].startswith("attach://")
    assert any(str(value).startswith("<upload board.png") for value in upload.values())
    assert tg.transcript(ALICE).splitlines()[:3] == [
        "bot #1: [photo 640x480] Your move",
        "    [Long nardy] [Short nardy]",
        "bot edits #1: [photo 640x480] Their move",
    ]


async def test_photo_must_decode_and_fit_1280(tg: FakeTelegram, bot: Bot) -> None:
    largest = await bot.send_photo(ALICE, BufferedInputFile(png(1280, 1280), "max.png"))
    assert largest.photo is not None and largest.photo[-1].width == 1280

    with pytest.raises(TelegramBadRequest, match="PHOTO_INVALID_DIMENSIONS"):
        await bot.send_photo(ALICE, BufferedInputFile(png(1281, 10), "wide.png"))
    with pytest.raises(TelegramBadRequest, match="IMAGE_PROCESS_FAILED"):
        await bot.send_photo(ALICE, BufferedInputFile(b"\x89PNG not really", "bad.png"))
    with pytest.raises(TelegramBadRequest, match="wrong file identifier"):
        await bot.send_photo(ALICE, "AgACnot-a-real-file-id")


# ------------------------------------------------------------------------------ strictness


def copy_keyboard(text: str) -> InlineKeyboardMarkup:
    """One button that copies ``text`` (Bot API's CopyTextButton)."""
    button = InlineKeyboardButton(text="copy", copy_text=CopyTextButton(text=text))
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


async def test_a_copy_text_button_is_kept_as_sent(tg: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_message(ALICE, "hash", reply_markup=copy_keyboard("ab" * 32))
    stored = tg.messages[ALICE][sent.message_id]
    assert stored.buttons() == [[{"text": "copy", "copy_text": {"text": "ab" * 32}}]]


def _rows(count: int, per_row: int) -> InlineKeyboardMarkup:
    buttons = [(str(i), f"b{i}") for i in range(count)]
    return keyboard(*[buttons[i : i + per_row] for i in range(0, count, per_row)])


STRICTNESS: list[tuple[str, Callable[[Bot], Awaitable[Any]], str]] = [
    (
        "callback_data over 64 bytes",
        lambda bot: bot.send_message(ALICE, "x", reply_markup=keyboard([("A", "x" * 65)])),
        "Bad Request: BUTTON_DATA_INVALID",
    ),
    (
        "callback_data counted in bytes",
        lambda bot: bot.send_message(ALICE, "x", reply_markup=keyboard([("A", "д" * 33)])),
        "Bad Request: BUTTON_DATA_INVALID",
    ),
    (
        "copy_text over 256 characters",
        lambda bot: bot.send_message(ALICE, "x", reply_markup=copy_keyboard("h" * 257)),
        "Bad Request: COPY_TEXT_INVALID",
    ),
    (
        "nine buttons in a row",
        lambda bot: bot.send_message(ALICE, "x", reply_markup=_rows(9, 9)),
        "Bad Request: reply markup is too long",
    ),
    (
        "more than 100 buttons",
        lambda bot: bot.send_message(ALICE, "x", reply_markup=_rows(101, 8)),
        "Bad Request: reply markup is too long",
    ),
    (
        "copy_text longer than 256 characters",
        lambda bot: bot.send_message(
            ALICE,
            "x",
            reply_markup=InlineKeyboardMarkup(
                inline_keyboard=[
                    [InlineKeyboardButton(text="ID", copy_text=CopyTextButton(text="я" * 257))]
                ]
            ),
        ),
        "Bad Request: COPY_TEXT_INVALID",
    ),
    (
        "empty copy_text",
        lambda bot: bot.send_message(
            ALICE,
            "x",
            reply_markup=InlineKeyboardMarkup(
                inline_keyboard=[
                    [InlineKeyboardButton(text="ID", copy_text=CopyTextButton(text=""))]
                ]
            ),
        ),
        "Bad Request: COPY_TEXT_INVALID",
    ),
    (
        "text over 4096 characters",
        lambda bot: bot.send_message(ALICE, "я" * 4097),
        "Bad Request: message is too long",
    ),
    (
        "text empty after entity parsing",
        lambda bot: bot.send_message(ALICE, "<b> </b>", parse_mode="HTML"),
        "Bad Request: message text is empty",
    ),
    (
        "unclosed HTML tag",
        lambda bot: bot.send_message(ALICE, "<b>Ход", parse_mode="HTML"),
        "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"",
    ),
    (
        "unsupported HTML tag",
        lambda bot: bot.send_message(ALICE, "Ход <div>x</div>", parse_mode="HTML"),
        'Bad Request: can\'t parse entities: Unsupported start tag "div" at byte offset 7',
    ),
    (
        "unescaped MarkdownV2",
        lambda bot: bot.send_message(ALICE, "Version 1.0", parse_mode="MarkdownV2"),
        "Bad Request: can't parse entities: Character '.' is reserved and must be escaped "
        "with the preceding '\\'",
    ),
    (
        "caption over 1024 characters",
        lambda bot: bot.send_photo(
            ALICE, BufferedInputFile(png(8, 8), "p.png"), caption="x" * 1025
        ),
        "Bad Request: message caption is too long",
    ),
    (
        "unknown chat",
        lambda bot: bot.send_message(424242, "hello"),
        "Bad Request: chat not found",
    ),
    (
        "topic in a chat without topics",
        lambda bot: bot.send_message(ALICE, "hello", message_thread_id=5),
        "Bad Request: message thread not found",
    ),
    (
        "reply to a missing message",
        lambda bot: bot.send_message(ALICE, "hello", reply_to_message_id=77),
        "Bad Request: message to be replied not found",
    ),
]


@pytest.mark.parametrize(
    ("call", "description"),
    [case[1:] for case in STRICTNESS],
    ids=[case[0] for case in STRICTNESS],
)
async def test_strict_like_telegram(
    tg: FakeTelegram, bot: Bot, call: Callable[[Bot], Awaitable[Any]], description: str
) -> None:
    with pytest.raises(TelegramBadRequest) as caught:
        await call(bot)

    assert caught.value.message == description
    assert tg.calls()[-1].error == description
    assert tg.messages[ALICE] == {}


async def test_limits_are_inclusive(tg: FakeTelegram, bot: Bot) -> None:
    await bot.send_message(ALICE, "я" * 4096, reply_markup=keyboard([("A", "д" * 32)]))
    await bot.send_message(ALICE, "full", reply_markup=_rows(100, 8))
    await bot.send_photo(ALICE, BufferedInputFile(png(8, 8), "p.png"), caption="x" * 1024)

    assert len(tg.messages[ALICE]) == 3


async def test_edit_and_delete_errors(tg: FakeTelegram, bot: Bot) -> None:
    board = await bot.send_message(ALICE, "Board", reply_markup=GAME_MENU)
    where = {"chat_id": ALICE, "message_id": board.message_id}

    with pytest.raises(TelegramBadRequest) as caught:
        await bot.edit_message_text("Board", reply_markup=GAME_MENU, **where)
    assert caught.value.message == (
        "Bad Request: message is not modified: specified new message content and reply markup "
        "are exactly the same as a current content and reply markup of the message"
    )
    # Same text, other buttons: modified.  Editing text without reply_markup drops the buttons.
    await bot.edit_message_text("Board", reply_markup=keyboard([("Roll", "roll")]), **where)
    edited = await bot.edit_message_text("Board, rolled", **where)
    assert isinstance(edited, Message) and edited.reply_markup is None
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_reply_markup(**where)

    with pytest.raises(TelegramBadRequest) as caught:
        await bot.edit_message_text("x", chat_id=ALICE, message_id=999)
    assert caught.value.message == "Bad Request: message to edit not found"
    with pytest.raises(TelegramBadRequest) as caught:
        await bot.delete_message(ALICE, 999)
    assert caught.value.message == "Bad Request: message to delete not found"

    photo = await bot.send_photo(ALICE, BufferedInputFile(png(8, 8), "p.png"))
    with pytest.raises(TelegramBadRequest, match="there is no text in the message to edit"):
        await bot.edit_message_text("x", chat_id=ALICE, message_id=photo.message_id)
    with pytest.raises(TelegramBadRequest, match="there is no caption in the message to edit"):
        await bot.edit_message_caption(caption="x", **where)
    await bot.edit_message_caption(caption="A board", chat_id=ALICE, message_id=photo.message_id)

    tg.delete_message_as_user(ALICE, board.message_id)
    assert tg.messages[ALICE][board.message_id].deleted
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("Board again", **where)
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(ALICE, board.message_id)
    assert await bot.delete_message(ALICE, photo.message_id) is True
    assert tg.messages[ALICE][photo.message_id].deleted


# ------------------------------------------------------------------------------ scripted trouble


async def test_fail_next_scripts_flood_control_and_outages(tg: FakeTelegram, bot: Bot) -> None:
    tg.fail_next("sendMessage", retry_after=3)
    with pytest.raises(TelegramRetryAfter) as caught:
        await bot.send_message(ALICE, "hi")
    assert caught.value.retry_after == 3
    assert "Original description: Too Many Requests: retry after 3" in caught.value.message
    assert tg.calls("sendMessage")[-1].response["parameters"] == {"retry_after": 3}

    assert (await bot.send_message(ALICE, "hi")).message_id == 1

    tg.fail_next("sendmessage", error_code=500, times=2)
    for _ in range(2):
        with pytest.raises(TelegramServerError, match="Internal Server Error"):
            await bot.send_message(ALICE, "hi")
    assert (await bot.send_message(ALICE, "hi")).message_id == 2


async def test_blocked_and_kicked_bot_get_403(tg: FakeTelegram, bot: Bot) -> None:
    tg.block_bot(ALICE)
    with pytest.raises(TelegramForbiddenError) as caught:
        await bot.send_message(ALICE, "Your move")
    assert caught.value.message == "Forbidden: bot was blocked by the user"
    tg.unblock_bot(ALICE)
    await bot.send_message(ALICE, "Your move")

    group = tg.group(-5001, "Nardy club")
    supergroup = tg.group(-1001234567890, "Nardy league")
    tg.block_bot(group)
    tg.block_bot(supergroup)
    with pytest.raises(TelegramForbiddenError) as caught:
        await bot.send_message(group.id, "hi")
    assert caught.value.message == "Forbidden: bot was kicked from the group chat"
    with pytest.raises(TelegramForbiddenError) as caught:
        await bot.send_message(supergroup.id, "hi")
    assert caught.value.message == "Forbidden: bot was kicked from the supergroup chat"

    tg.user(2002, "Eve")  # known to Telegram, but never pressed Start
    with pytest.raises(TelegramForbiddenError, match="can't initiate conversation"):
        await bot.send_message(2002, "hi")


async def test_wire_formats_and_http_errors(tg: FakeTelegram, bot: Bot) -> None:
    url = f"{tg.base_url}/bot{tg.token}"
    markup = {"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]}
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{url}/getMe") as response:
            assert (await response.json())["result"]["username"] == "nardy_test_bot"
        payload = {"chat_id": ALICE, "text": "json", "reply_markup": markup}
        async with http.post(f"{url}/sendMessage", json=payload) as response:
            assert (await response.json())["result"]["reply_markup"] == markup
        form = {"chat_id": str(ALICE), "text": "form", "reply_markup": json.dumps(markup)}
        async with http.post(f"{url}/SENDMESSAGE", data=form) as response:
            assert (await response.json())["result"]["message_id"] == 2
        upload = aiohttp.FormData()
        upload.add_field("chat_id", str(ALICE))
        upload.add_field("photo", png(16, 16), filename="b.png", content_type="image/png")
        async with http.post(f"{url}/sendPhoto", data=upload) as response:
            assert (await response.json())["result"]["photo"][-1]["width"] == 16
        async with http.post(f"{url}/sendPigeon", data={"chat_id": "1"}) as response:
            assert response.status == 404
            assert await response.json() == {
                "ok": False,
                "error_code": 404,
                "description": "Not Found",
            }
        async with http.post(f"{tg.base_url}/bot1:wrong/getMe") as response:
            assert response.status == 401
            assert (await response.json())["description"] == "Unauthorized"

    stranger = Bot("42:wrong-token", session=tg.make_session())
    try:
        with pytest.raises(TelegramUnauthorizedError):
            await stranger.get_me()
    finally:
        await stranger.session.close()


# ------------------------------------------------------------------------------ updates


async def test_get_updates_long_poll_offset_and_limit(tg: FakeTelegram, bot: Bot) -> None:
    assert await bot.get_updates(timeout=0) == []

    poll = asyncio.create_task(bot.get_updates(timeout=5))
    async with asyncio.timeout(2):
        while not tg.poller_waiting:
            await asyncio.sleep(0.005)
    started = asyncio.get_running_loop().time()
    await tg.send_text(ALICE, ALICE, "hello")
    (first,) = await poll
    assert asyncio.get_running_loop().time() - started < 1.0  # woken, not timed out
    assert first.message is not None and first.message.text == "hello"

    for text in ("one", "two", "three"):
        await tg.send_text(ALICE, ALICE, text)
    batch = await bot.get_updates(offset=first.update_id + 1, limit=2)
    assert [u.message.text for u in batch if u.message] == ["one", "two"]
    assert tg.pending_updates() == 3  # confirmed "hello" only
    rest = await bot.get_updates(offset=batch[-1].update_id + 1)
    assert [u.message.text for u in rest if u.message] == ["three"]
    assert await bot.get_updates(offset=rest[-1].update_id + 1) == []
    assert tg.pending_updates() == 0

    # Telegram allows one long poll at a time: the newer request terminates the older one.
    older = asyncio.create_task(bot.get_updates(timeout=5))
    async with asyncio.timeout(2):
        while not tg.poller_waiting:
            await asyncio.sleep(0.005)
    newer = asyncio.create_task(bot.get_updates(timeout=5))
    with pytest.raises(TelegramConflictError):
        await older
    async with asyncio.timeout(2):
        while not tg.poller_waiting:
            await asyncio.sleep(0.005)
    await tg.send_text(ALICE, ALICE, "last")
    assert len(await newer) == 1


async def test_dispatcher_handles_command_and_tap(
    tg: FakeTelegram, bot: Bot, polling: Callable[[Router], Awaitable[None]], tmp_path: Path
) -> None:
    router = Router()

    @router.message(CommandStart())
    async def start(message: Message) -> None:
        await message.answer("Welcome! Pick a game:", reply_markup=GAME_MENU)

    @router.callback_query(F.data == "new:long")
    async def new_long(query: CallbackQuery) -> None:
        await query.answer("Long nardy it is")
        assert isinstance(query.message, Message)
        await query.message.edit_text("Long nardy: waiting for an opponent")

    await polling(router)

    typed = await tg.send_text(ALICE, ALICE, "/start")
    assert typed.entities is not None and typed.entities[0].type == "bot_command"
    reply = await tg.wait_for("sendMessage", chat_id=ALICE)
    assert reply.result["text"] == "Welcome! Pick a game:"

    query_id = await tg.tap_button(ALICE, ALICE, "Long nardy")
    edit = await tg.wait_for(lambda call: call.method == "editMessageText")
    assert edit.ok and edit.params["message_id"] == reply.result["message_id"]
    await tg.wait_idle()

    assert tg.callback_answers[query_id].text == "Long nardy it is"
    with pytest.raises(TelegramBadRequest) as caught:
        await bot.answer_callback_query(query_id, text="again")
    assert caught.value.message == (
        "Bad Request: query is too old and response timeout expired or query ID is invalid"
    )
    assert tg.transcript(ALICE).splitlines() == [
        "Alice: /start",
        "bot #2: Welcome! Pick a game:",
        "    [Long nardy] [Short nardy]",
        "Alice taps [Long nardy] on #2",
        'bot answers Alice\'s tap with a toast: "Long nardy it is"',
        "bot edits #2: Long nardy: waiting for an opponent",
        "bot ✗ answerCallbackQuery: Bad Request: query is too old and response timeout "
        "expired or query ID is invalid",
    ]
    saved = tg.save_transcript(tmp_path / "games" / "alice.txt", ALICE)
    assert saved.read_text(encoding="utf-8") == tg.transcript(ALICE)
    assert tg.transcript().startswith("[Alice] Alice: /start\n")


async def test_group_command_with_bot_username_and_topics(
    tg: FakeTelegram, bot: Bot, polling: Callable[[Router], Awaitable[None]]
) -> None:
    bob = tg.user(1002, "Bob")
    club = tg.group(-1009000, "Nardy club", forum=True, admins=[bob])
    router = Router()

    @router.message(CommandStart())
    async def start(message: Message) -> None:
        await message.reply("A table is open in this topic")

    await polling(router)

    typed = await tg.send_text(club, ALICE, "/start@nardy_test_bot", message_thread_id=7)
    assert typed.message_thread_id == 7 and typed.is_topic_message
    reply = await tg.wait_for("sendMessage", chat_id=club.id)
    assert reply.result["message_thread_id"] == 7
    assert reply.result["reply_to_message"]["message_id"] == typed.message_id
    assert command_entities("/start@nardy_test_bot") == [
        {"type": "bot_command", "offset": 0, "length": 21}
    ]


async def test_redeliver_repeats_the_same_update_id(
    tg: FakeTelegram, bot: Bot, polling: Callable[[Router], Awaitable[None]]
) -> None:
    seen: list[int] = []
    router = Router()

    @router.message()
    async def echo(message: Message, event_update: Update) -> None:
        seen.append(event_update.update_id)
        await message.answer(f"got {message.text}")

    await polling(router)
    await tg.send_text(ALICE, ALICE, "move 13/7 8/7")
    await tg.wait_for("sendMessage")
    await tg.redeliver(seen[0])
    await tg.wait_for("sendMessage")
    await tg.wait_idle()

    assert seen == [seen[0], seen[0]]
    assert tg.pending_updates() == 0
    assert [c.result["text"] for c in tg.calls("sendMessage")] == ["got move 13/7 8/7"] * 2


async def test_callback_deadline_and_unknown_queries() -> None:
    now = [1000.0]
    async with FakeTelegram(callback_deadline=15.0, clock=lambda: now[0]) as server:
        alice = server.user(ALICE, "Alice")
        server.private_chat(alice)
        bot = server.make_bot()
        try:
            menu = await bot.send_message(ALICE, "Pick", reply_markup=GAME_MENU)
            slow = await server.tap(ALICE, menu.message_id, alice, "new:long")
            now[0] += 16
            with pytest.raises(TelegramBadRequest, match="query is too old"):
                await bot.answer_callback_query(slow)
            quick = await server.tap(ALICE, menu.message_id, alice, "new:short")
            now[0] += 5
            assert await bot.answer_callback_query(quick, text="ok", show_alert=True)
            assert server.callback_answers[quick].show_alert
            with pytest.raises(TelegramBadRequest, match="query is too old"):
                await bot.answer_callback_query("123")
            with pytest.raises(ValueError, match="no button"):
                await server.tap(ALICE, menu.message_id, alice, "gone")
        finally:
            await bot.session.close()


async def test_wait_for_times_out_with_transcript(tg: FakeTelegram, bot: Bot) -> None:
    await bot.send_message(ALICE, "Board")
    with pytest.raises(TimeoutError, match="bot #1: Board"):
        await tg.wait_for("sendPhoto", timeout=0.05, since=0)


# ------------------------------------------------------------------------------ other methods


async def test_commands_chats_and_media(tg: FakeTelegram, bot: Bot) -> None:
    await bot.set_my_commands([BotCommand(command="start", description="Начать игру")])
    await bot.set_my_commands(
        [BotCommand(command="new", description="New game")],
        scope=BotCommandScopeAllGroupChats(),
        language_code="en",
    )
    assert tg.commands[("default", "")] == [{"command": "start", "description": "Начать игру"}]
    assert tg.commands[("all_group_chats", "en")][0]["command"] == "new"
    assert [c.command for c in await bot.get_my_commands()] == ["start"]
    assert await bot.get_my_commands(language_code="en") == []
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand(command="Start", description="x")])

    bob = tg.user(1002, "Bob")
    carol = tg.user(1003, "Carol")
    club = tg.group(-1009000, "Nardy club", forum=True, admins=[bob, ALICE])
    admins = await bot.get_chat_administrators(club.id)
    assert [(a.status, a.user.first_name) for a in admins] == [
        ("creator", "Bob"),
        ("administrator", "Alice"),
    ]
    assert (await bot.get_chat_member(club.id, carol.id)).status == "left"
    await tg.send_text(club, carol, "hi all")
    assert (await bot.get_chat_member(club.id, carol.id)).status == "member"
    info = await bot.get_chat(club.id)
    assert (info.type, info.title, info.is_forum) == ("supergroup", "Nardy club", True)

    assert await bot.send_chat_action(ALICE, "typing")
    with pytest.raises(TelegramBadRequest, match="wrong parameter action"):
        await bot.send_chat_action(ALICE, "dancing")
    note = await bot.send_message(ALICE, "Pinned rules")
    assert await bot.pin_chat_message(ALICE, note.message_id)
    assert tg.messages[ALICE][note.message_id].pinned
    assert await bot.unpin_chat_message(ALICE, message_id=note.message_id)

    document = await bot.send_document(ALICE, BufferedInputFile(b"1. 13/7 8/7", "game.txt"))
    assert document.document is not None and document.document.file_name == "game.txt"
    animation = await bot.send_animation(ALICE, BufferedInputFile(gif(32, 24), "roll.gif"))
    assert animation.animation is not None
    assert (animation.animation.width, animation.animation.height) == (32, 24)
    tg.script_dice(4)
    dice = await bot.send_dice(ALICE)
    assert dice.dice is not None and dice.dice.value == 4
    assert tg.transcript(ALICE).splitlines()[-3:] == [
        "bot #2: [document game.txt]",
        "bot #3: [animation 32x24]",
        "bot #4: [dice 🎲 = 4]",
    ]


async def test_media_group_is_an_album_checked_whole_like_telegram(
    tg: FakeTelegram, bot: Bot
) -> None:
    """sendMediaGroup: 2-10 items of one kind of group, each with its own caption (HTML,
    1,024 characters), stored as messages sharing one media_group_id, returned as a list;
    a refused album stores nothing."""

    def photo(n: int, caption: str | None = None) -> InputMediaPhoto:
        return InputMediaPhoto(
            media=BufferedInputFile(png(40 + n, 30), f"p{n}.png"),
            caption=caption,
            parse_mode="HTML" if caption else None,
        )

    sent = await bot.send_media_group(
        ALICE, [photo(1, "<b>one</b> &amp; all"), photo(2, "two"), photo(3)]
    )
    assert isinstance(sent, list) and len(sent) == 3
    assert [m.caption for m in sent] == ["one & all", "two", None]
    assert sent[0].caption_entities is not None and sent[0].caption_entities[0].type == "bold"
    groups = {m.media_group_id for m in sent}
    assert len(groups) == 1 and None not in groups
    assert [m.photo[-1].width for m in sent if m.photo] == [41, 42, 43]
    assert [m.message_id for m in sent] == [1, 2, 3]
    assert tg.latest_photo(ALICE) == png(43, 30)
    again = await bot.send_media_group(ALICE, [photo(4), photo(5)])
    assert {m.media_group_id for m in again} != groups
    docs = await bot.send_media_group(
        ALICE,
        [
            InputMediaDocument(media=BufferedInputFile(b"a", "a.mat"), caption="a"),
            InputMediaDocument(media=BufferedInputFile(b"b", "b.mat")),
        ],
    )
    assert [m.document.file_name for m in docs if m.document] == ["a.mat", "b.mat"]

    stored = len(tg.messages[ALICE])
    refusals = [
        ([photo(1)], "must include 2-10 items"),
        ([photo(n) for n in range(11)], "too many messages to send as an album"),
        (
            [photo(1), InputMediaDocument(media=BufferedInputFile(b"d", "d.txt"))],
            "document can't be mixed with other media types",
        ),
        ([photo(1, "x" * 1025), photo(2)], "message caption is too long"),
        ([photo(1, "<b>open"), photo(2)], "can't parse entities"),
    ]
    for media, error in refusals:
        with pytest.raises(TelegramBadRequest, match=error):
            await bot.send_media_group(ALICE, media)
    with pytest.raises(TelegramBadRequest, match="there are no messages to send"):
        await bot.send_media_group(ALICE, [])
    # what aiogram itself refuses to send, straight over HTTP
    url = f"{tg.base_url}/bot{tg.token}/sendMediaGroup"
    first = sent[0].photo[-1].file_id if sent[0].photo else ""
    raw = [
        ({"chat_id": ALICE}, 'parameter "media" is required'),
        (
            {"chat_id": ALICE, "media": [{"type": "photo", "media": first}, {"type": "animation"}]},
            'type "animation" can\'t be used in sendMediaGroup',
        ),
        (
            {
                "chat_id": ALICE,
                "media": [{"type": "photo", "media": first}] * 2,
                "reply_markup": {"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]},
            },
            "takes no reply_markup",
        ),
    ]
    async with aiohttp.ClientSession() as http:
        for payload, error in raw:
            async with http.post(url, json=payload) as response:
                body = await response.json()
                assert response.status == 400 and error in body["description"], body
        # an album may reuse files by file_id
        payload = {"chat_id": ALICE, "media": [{"type": "photo", "media": first}] * 2}
        async with http.post(url, json=payload) as response:
            reused = (await response.json())["result"]
            assert [m["photo"][-1]["file_id"] for m in reused] == [first, first]
    assert len(tg.messages[ALICE]) == stored + 2  # nothing of a refused album was stored
    assert tg.transcript(ALICE).splitlines()[:3] == [
        f"bot #1 (album {sent[0].media_group_id}): [photo 41x30] one & all",
        f"bot #2 (album {sent[0].media_group_id}): [photo 42x30] two",
        f"bot #3 (album {sent[0].media_group_id}): [photo 43x30]",
    ]


async def test_many_chats_concurrently(tg: FakeTelegram, bot: Bot) -> None:
    players = [tg.user(10_000 + i, f"P{i}") for i in range(200)]
    for player in players:
        tg.private_chat(player)

    async def game(player_id: int) -> list[int]:
        ids = []
        for move in range(2):
            sent = await bot.send_message(player_id, f"move {move}", reply_markup=GAME_MENU)
            ids.append(sent.message_id)
        return ids

    results = await asyncio.gather(*(game(p.id) for p in players))

    assert all(ids == [1, 2] for ids in results)
    assert len(tg.calls("sendMessage")) == 400
    assert len(tg.calls(chat_id=players[7].id)) == 2


# ------------------------------------------------------------------------------ formatting


def test_html_parsing_yields_text_and_utf16_entities() -> None:
    text, entities = parse_html(
        '🎲 <b>Ход</b> &lt;3 <a href="https://t.me/x">ссылка</a> &amp; <i>done</i>'
    )

    assert text == "🎲 Ход <3 ссылка & done"
    assert entities == [
        {"type": "bold", "offset": 3, "length": 3},
        {"type": "text_link", "url": "https://t.me/x", "offset": 10, "length": 6},
        {"type": "italic", "offset": 19, "length": 4},
    ]


def test_markdown_v2_parsing() -> None:
    text, entities = parse_markdown_v2(r"*Ход* 13/7 \- `8/7` v1\.0")

    assert text == "Ход 13/7 - 8/7 v1.0"
    assert entities == [
        {"type": "bold", "offset": 0, "length": 3},
        {"type": "code", "offset": 11, "length": 3},
    ]


def test_form_data_parser_reads_what_aiohttp_writes_and_refuses_broken_bodies() -> None:
    from tests.fake_telegram import TelegramApiError, parse_form_data

    form = aiohttp.FormData()
    form.add_field("chat_id", "-100")
    form.add_field("caption", 'доска "2"\r\nвторая строка')
    form.add_field("photo", b"\xff\xd8 jpeg \r\n-- bytes", filename="board-1.jpg")
    writer = form()
    chunks: list[bytes] = []

    class Sink:
        async def write(self, data: bytes) -> None:
            chunks.append(bytes(data))

    asyncio.run(writer.write(Sink()))  # type: ignore[arg-type]
    boundary = writer.boundary.encode()
    parts = {
        name: (filename, data)
        for name, filename, _, data in parse_form_data(b"".join(chunks), boundary)
    }
    assert parts["chat_id"] == (None, b"-100")
    assert parts["caption"][1].decode() == 'доска "2"\r\nвторая строка'
    assert parts["photo"] == ("board-1.jpg", b"\xff\xd8 jpeg \r\n-- bytes")

    good = b'--b\r\nContent-Disposition: form-data; name="a\\"q"\r\n\r\nx\r\n--b--\r\n'
    assert list(parse_form_data(good, b"b")) == [('a"q', None, None, b"x")]
    extended = (
        b"--b\r\nContent-Disposition: form-data; name=\"f\"; filename*=utf-8''%D0%B4%D0%BE.jpg"
        b"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\r\n--b--\r\n"
    )
    assert list(parse_form_data(extended, b"b")) == [("f", "до.jpg", "image/jpeg", b"\xff\xd8")]
    for broken in (
        b'--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n',  # no final delimiter
        b'--b\r\nContent-Disposition: form-data; name="a"\r\nx\r\n--b--\r\n',  # no blank line
        b'--b\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--b--\r\n',
        b"garbage",
    ):
        with pytest.raises(TelegramApiError) as caught:
            list(parse_form_data(broken, b"b"))
        assert caught.value.error_code == 400


def test_jpeg_size_from_the_frame_header_agrees_with_pillow() -> None:
    """The load benchmark's fake server reads an upload's size from the JPEG frame header
    alone; it must agree with Pillow on real JPEGs (baseline and progressive, odd sizes) and
    refuse what is not one, which then goes to Pillow (and fails as Telegram fails)."""
    for width, height, progressive in ((1024, 905, False), (800, 706, True), (33, 17, False)):
        buffer = io.BytesIO()
        Image.new("RGB", (width, height), "peru").save(
            buffer, format="JPEG", quality=80, progressive=progressive
        )
        data = buffer.getvalue()
        assert _jpeg_size(data) == (width, height) == _image_size(data, full_decode=True)
    assert _jpeg_size(png(8, 8)) is None
    assert _jpeg_size(b"\xff\xd8 not a marker") is None
    assert _jpeg_size(b"\xff\xd8\xff\xc0\x00") is None  # cut inside the header
    with pytest.raises(OSError):
        _image_size(b"\xff\xd8 not a marker", full_decode=False)
