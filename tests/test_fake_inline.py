"""The fake Bot API server's inline mode, driven by a real aiogram ``Bot`` and ``Dispatcher``:
queries, validated answers, chosen results, taps on inline messages and their edits."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from aiogram import Bot, Dispatcher, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    ChosenInlineResult,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQuery,
    InlineQueryResultArticle,
    InlineQueryResultCachedPhoto,
    InlineQueryResultPhoto,
    InlineQueryResultsButton,
    InputMediaPhoto,
    InputTextMessageContent,
)
from PIL import Image

from tests.fake_telegram import FakeTelegram


def jpeg(color: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), color).save(buffer, format="JPEG")
    return buffer.getvalue()


def accept(data: str = "accept") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Accept", callback_data=data)]]
    )


def card(result_id: str = "long", *, markup: bool = True) -> InlineQueryResultArticle:
    return InlineQueryResultArticle(
        id=result_id,
        title="Long nardy",
        input_message_content=InputTextMessageContent(
            message_text="<b>Alice</b> challenges", parse_mode="HTML"
        ),
        reply_markup=accept() if markup else None,
    )


async def post_cards(tg: FakeTelegram, bot: Bot, *ids: str) -> list[Any]:
    """Alice offers cards with these result ids in her chat with Bob and posts each one."""
    alice = tg.user(1, "Alice")
    chat = tg.users_chat(alice, tg.user(2, "Bob"))
    query_id = await tg.inline_query(alice, chat=chat)
    await tg.wait_idle()
    await bot.answer_inline_query(query_id, [card(i) for i in ids])
    return [await tg.choose_inline_result(query_id, i) for i in ids]


@pytest_asyncio.fixture
async def running(fake_telegram: FakeTelegram) -> AsyncIterator[tuple[FakeTelegram, Bot, list]]:
    """A bot whose dispatcher records the inline updates it receives."""
    seen: list[Any] = []
    router = Router()

    @router.inline_query()
    async def on_query(query: InlineQuery) -> None:
        seen.append(query)

    @router.chosen_inline_result()
    async def on_chosen(chosen: ChosenInlineResult) -> None:
        seen.append(chosen)

    @router.callback_query()
    async def on_tap(query: CallbackQuery) -> None:
        seen.append(query)
        await query.answer("ok")

    dp = Dispatcher()
    dp.include_router(router)
    bot = fake_telegram.make_bot()
    polling = asyncio.create_task(dp.start_polling(bot, handle_signals=False))
    try:
        yield fake_telegram, bot, seen
    finally:
        await dp.stop_polling()
        await polling


async def test_query_answer_choose_tap_and_edit(running: tuple[FakeTelegram, Bot, list]) -> None:
    tg, bot, seen = running
    alice = tg.user(1, "Alice", username="alice", language_code="en")
    bob = tg.user(2, "Bob", username="bob")
    friends = tg.users_chat(alice, bob)
    assert (await bot.get_me()).supports_inline_queries is True

    query_id = await tg.inline_query(alice, "@bob", chat=friends)
    await tg.wait_idle()
    query = seen[-1]
    assert isinstance(query, InlineQuery)
    assert (query.query, query.chat_type, query.from_user.username) == ("@bob", "private", "alice")
    assert await bot.answer_inline_query(query_id, [card()], cache_time=0, is_personal=True)
    answer = tg.inline_answers[query_id]
    assert (answer.cache_time, answer.is_personal, [r["id"] for r in answer.results]) == (
        0,
        True,
        ["long"],
    )

    posted = await tg.choose_inline_result(query_id, "long")
    await tg.wait_idle()
    chosen = seen[-1]
    assert isinstance(chosen, ChosenInlineResult)
    assert chosen.inline_message_id == posted.inline_message_id is not None
    assert (posted.text, posted.chat_id, posted.via_bot) == ("Alice challenges", friends.id, True)

    # A tap from the inline message: no message, the inline message id instead.
    await tg.tap_inline(posted.inline_message_id, bob, label="Accept")
    await tg.wait_idle()
    tap = seen[-1]
    assert isinstance(tap, CallbackQuery)
    assert (tap.message, tap.inline_message_id, tap.data) == (
        None,
        posted.inline_message_id,
        "accept",
    )
    assert tg.callback_answers[tap.id].text == "ok"

    # A picture uploaded elsewhere goes in by file_id; the answer is True, not a message.
    tg.private_chat(alice)
    sent = await bot.send_photo(alice.id, BufferedInputFile(jpeg("red"), "b.jpg"))
    file_id = sent.photo[-1].file_id
    done = await bot.edit_message_media(
        InputMediaPhoto(media=file_id, caption="Your move"),
        inline_message_id=posted.inline_message_id,
        reply_markup=accept("roll"),
    )
    assert done is True
    assert (posted.media_kind, posted.caption, posted.text) == ("photo", "Your move", None)
    assert posted.button_labels() == [["Accept"]]
    assert tg.latest_photo(friends) == posted.photo == jpeg("red")
    assert await bot.edit_message_caption(
        inline_message_id=posted.inline_message_id, caption="Bob's move", reply_markup=accept("x")
    )
    assert posted.caption == "Bob's move"
    assert await bot.edit_message_reply_markup(
        inline_message_id=posted.inline_message_id, reply_markup=accept("y")
    )
    with pytest.raises(TelegramBadRequest, match="not modified"):
        await bot.edit_message_reply_markup(
            inline_message_id=posted.inline_message_id, reply_markup=accept("y")
        )
    transcript = tg.transcript(friends)
    assert "Alice types: @nardy_test_bot @bob" in transcript
    assert "Bob taps [Accept] on the inline message" in transcript
    assert "bot edits inline" in transcript
    # The bot is not in the friends' chat: it cannot send there.
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message(friends.id, "hi")


async def test_uploads_into_inline_messages_are_refused(
    running: tuple[FakeTelegram, Bot, list],
) -> None:
    tg, bot, _ = running
    (posted,) = await post_cards(tg, bot, "long")
    with pytest.raises(TelegramBadRequest, match="can't upload a new file into an inline message"):
        await bot.edit_message_media(
            InputMediaPhoto(media=BufferedInputFile(jpeg("blue"), "b.jpg")),
            inline_message_id=posted.inline_message_id,
        )
    assert posted.text == "Alice challenges"
    # A URL is allowed (Telegram fetches it).
    assert await bot.edit_message_media(
        InputMediaPhoto(media="https://example.org/board.jpg"),
        inline_message_id=posted.inline_message_id,
    )
    assert posted.media_kind == "photo"


async def test_deleted_expired_and_unknown_inline_messages(
    running: tuple[FakeTelegram, Bot, list],
) -> None:
    tg, bot, _ = running
    first, second = await post_cards(tg, bot, "a", "b")
    tg.delete_inline_message(first.inline_message_id)
    with pytest.raises(TelegramBadRequest, match="MESSAGE_ID_INVALID"):
        await bot.edit_message_text("x", inline_message_id=first.inline_message_id)
    tg.expire_inline_message(second.inline_message_id)
    with pytest.raises(TelegramBadRequest, match="message can't be edited"):
        await bot.edit_message_text("x", inline_message_id=second.inline_message_id)
    with pytest.raises(TelegramBadRequest, match="MESSAGE_ID_INVALID"):
        await bot.edit_message_text("x", inline_message_id="AgAAAnonsense")


async def test_answers_are_validated(running: tuple[FakeTelegram, Bot, list]) -> None:
    tg, bot, _ = running
    alice = tg.user(1, "Alice")
    tg.private_chat(alice)
    photo = await bot.send_photo(alice.id, BufferedInputFile(jpeg("green"), "p.jpg"))
    file_id = photo.photo[-1].file_id

    async def answer(results: list[Any], **kwargs: Any) -> str:
        query_id = await tg.inline_query(alice, "x")
        await tg.wait_idle()
        await bot.answer_inline_query(query_id, results, **kwargs)
        return query_id

    cases: list[tuple[list[Any], dict[str, Any], str]] = [
        ([card("same"), card("same")], {}, "RESULT_ID_DUPLICATE"),
        ([card("x" * 65)], {}, "RESULT_ID_INVALID"),
        ([card(str(i)) for i in range(51)], {}, "RESULTS_TOO_MUCH"),
        ([card()], {"cache_time": -1}, "CACHE_TIME_INVALID"),
        ([card()], {"next_offset": "o" * 65}, "NEXT_OFFSET_INVALID"),
        (
            [card()],
            {"button": InlineQueryResultsButton(text="Open", start_parameter="bad param")},
            "START_PARAM_INVALID",
        ),
        ([InlineQueryResultCachedPhoto(id="p", photo_file_id="nope")], {}, "wrong file identifier"),
        (
            [InlineQueryResultPhoto(id="p", photo_url="https://e.org/a.jpg", thumbnail_url="")],
            {},
            "PHOTO_THUMB_URL_EMPTY",
        ),
        (
            [InlineQueryResultCachedPhoto(id="p", photo_file_id=file_id, caption="c" * 1025)],
            {},
            "caption is too long",
        ),
    ]
    for results, kwargs, error in cases:
        with pytest.raises(TelegramBadRequest, match=error):
            await answer(results, **kwargs)
    # A valid answer, once: a second answer to the same query is too late.
    query_id = await answer(
        [InlineQueryResultCachedPhoto(id="p", photo_file_id=file_id, reply_markup=accept())],
        button=InlineQueryResultsButton(text="Open the bot", start_parameter="inline"),
    )
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_inline_query(query_id, [card()])
    with pytest.raises(TelegramBadRequest, match="QUERY_ID_INVALID"):
        await bot.answer_inline_query("123", [card()])
    posted = await tg.choose_inline_result(query_id, "p")
    assert posted.photo == jpeg("green")


async def test_inline_mode_off_and_feedback_off(running: tuple[FakeTelegram, Bot, list]) -> None:
    tg, bot, seen = running
    alice = tg.user(1, "Alice")
    chat = tg.users_chat(alice, tg.user(2, "Bob"))
    tg.inline_feedback = False
    query_id = await tg.inline_query(alice, chat=chat)
    await tg.wait_idle()
    await bot.answer_inline_query(query_id, [card("with"), card("without", markup=False)])
    before = len(seen)
    with_markup = await tg.choose_inline_result(query_id, "with")
    without = await tg.choose_inline_result(query_id, "without")
    await tg.wait_idle()
    assert len(seen) == before  # no chosen_inline_result without feedback
    assert with_markup.inline_message_id is not None
    assert without.inline_message_id is None  # no keyboard: the bot gets no id to edit
    tg.inline_mode = False
    assert (await bot.get_me()).supports_inline_queries is False
    with pytest.raises(ValueError, match="inline mode is off"):
        await tg.inline_query(alice, chat=chat)
