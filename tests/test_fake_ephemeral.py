"""The fake Bot API server's ephemeral messages (Bot API 10.3), driven by a real aiogram ``Bot``.

What is checked is what the bot relies on: a message only its receiver sees (``message_id`` 0,
an ``ephemeral_message_id``), shown in place of the tapped message for that user only, edited
and deleted by receiver and id, tapped (the callback query carries the ephemeral message),
expiring, dropped or refused for a user, and strict errors on wrong parameters.
"""

from __future__ import annotations

import io

import aiohttp
import pytest
import pytest_asyncio
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import (
    BotCommand,
    BufferedInputFile,
    EphemeralMessageParameters,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    KeyboardButton,
    ReplyKeyboardMarkup,
)
from PIL import Image

from tests.fake_telegram import FakeTelegram, FakeUser

GROUP = -100777


def png(color: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (32, 24), color).save(buffer, format="PNG")
    return buffer.getvalue()


def buttons(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=x, callback_data=x) for x in labels]]
    )


@pytest_asyncio.fixture
async def world(fake_telegram: FakeTelegram) -> tuple[FakeTelegram, FakeUser, FakeUser, FakeUser]:
    tg = fake_telegram
    alice, bob, carol = tg.user(1, "Alice"), tg.user(2, "Bob"), tg.user(3, "Carol")
    group = tg.group(GROUP, "Club")
    group.members.update({alice.id, bob.id, carol.id})
    return tg, alice, bob, carol


async def board_and_tap(tg: FakeTelegram, bot: Bot, user: FakeUser) -> tuple[int, str]:
    """A public board with a Move button, tapped by ``user``: (board id, query id)."""
    board = await bot.send_photo(
        GROUP,
        BufferedInputFile(png("brown"), "b.png"),
        caption="Board",
        reply_markup=buttons("Move"),
    )
    query = await tg.tap(GROUP, board.message_id, user, "Move")
    return board.message_id, query


async def test_an_ephemeral_message_replaces_the_tapped_board_for_its_receiver_only(
    world: tuple[FakeTelegram, FakeUser, FakeUser, FakeUser], fake_bot: Bot
) -> None:
    tg, alice, bob, _ = world
    board_id, query = await board_and_tap(tg, fake_bot, alice)

    sent = await fake_bot.send_photo(
        GROUP,
        BufferedInputFile(png("green"), "picker.png"),
        caption="Your picker",
        reply_markup=buttons("24", "13"),
        ephemeral_message_parameters=EphemeralMessageParameters(
            receiver_user_id=alice.id,
            callback_query_id=query,
            replace_callback_query_message=True,
        ),
    )

    assert sent.message_id == 0
    assert sent.ephemeral_message_id == 1
    assert sent.receiver_user is not None and sent.receiver_user.id == alice.id
    assert [m.caption for m in tg.visible_messages(GROUP, alice)] == ["Your picker"]
    assert [m.caption for m in tg.visible_messages(GROUP, bob)] == ["Board"]
    assert tg.messages[GROUP][board_id].caption == "Board"  # the board itself is untouched
    with pytest.raises(ValueError, match="ephemeral message in place of"):
        await tg.tap(GROUP, board_id, alice, "Move")  # Alice cannot see the board now
    assert "Your picker" not in tg.transcript(GROUP, viewer=bob)
    assert "Your picker" in tg.transcript(GROUP, viewer=alice)
    assert tg.calls("sendPhoto")[-1].is_ephemeral and not tg.calls("sendPhoto")[0].is_ephemeral


async def test_taps_on_an_ephemeral_message_carry_it_and_edits_go_by_receiver_and_id(
    world: tuple[FakeTelegram, FakeUser, FakeUser, FakeUser], fake_bot: Bot
) -> None:
    tg, alice, bob, _ = world
    _, query = await board_and_tap(tg, fake_bot, alice)
    params = EphemeralMessageParameters(
        receiver_user_id=alice.id, callback_query_id=query, replace_callback_query_message=True
    )
    sent = await fake_bot.send_photo(
        GROUP,
        BufferedInputFile(png("green"), "p.png"),
        caption="Pick",
        reply_markup=buttons("24"),
        ephemeral_message_parameters=params,
    )
    eid = sent.ephemeral_message_id
    assert eid is not None

    tapped = await tg.tap_ephemeral(GROUP, alice, label="24")
    update = tg._update_archive[max(tg._update_archive)]["callback_query"]
    assert update["id"] == tapped
    assert update["message"]["message_id"] == 0
    assert update["message"]["ephemeral_message_id"] == eid
    assert update["message"]["receiver_user"]["id"] == alice.id

    # a callback from an ephemeral message must not ask to replace a message again
    with pytest.raises(TelegramBadRequest, match="must be False"):
        await fake_bot.send_message(
            GROUP,
            "x",
            ephemeral_message_parameters=EphemeralMessageParameters(
                receiver_user_id=alice.id,
                callback_query_id=tapped,
                replace_callback_query_message=True,
            ),
        )

    where = {"chat_id": GROUP, "receiver_user_id": alice.id, "ephemeral_message_id": eid}
    assert await fake_bot.edit_ephemeral_message_caption(
        caption="24 → 18", reply_markup=buttons("Undo"), **where
    )
    assert tg.ephemeral(GROUP, alice).caption == "24 → 18"
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await fake_bot.edit_ephemeral_message_caption(
            caption="24 → 18", reply_markup=buttons("Undo"), **where
        )
    assert await fake_bot.edit_ephemeral_message_media(
        media=InputMediaPhoto(media=BufferedInputFile(png("red"), "q.png"), caption="New"),
        **where,
    )
    assert tg.ephemeral(GROUP, alice).photo == png("red")
    assert tg.ephemeral(GROUP, alice).buttons() == []  # the media edit sent no buttons
    assert await fake_bot.edit_ephemeral_message_reply_markup(reply_markup=buttons("Done"), **where)
    assert tg.ephemeral(GROUP, alice).button_labels() == [["Done"]]
    with pytest.raises(TelegramBadRequest, match="there is no text in the message to edit"):
        await fake_bot.edit_ephemeral_message_text(text="x", **where)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await fake_bot.edit_ephemeral_message_caption(
            caption="x", chat_id=GROUP, receiver_user_id=bob.id, ephemeral_message_id=eid
        )

    assert await fake_bot.delete_ephemeral_message(**where)
    assert [m.caption for m in tg.visible_messages(GROUP, alice)] == ["Board"]  # back again
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await fake_bot.delete_ephemeral_message(**where)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await fake_bot.edit_ephemeral_message_caption(caption="y", **where)


async def test_text_ephemerals_without_a_tap_and_their_text_edits(
    world: tuple[FakeTelegram, FakeUser, FakeUser, FakeUser], fake_bot: Bot
) -> None:
    tg, _, bob, carol = world
    sent = await fake_bot.send_message(
        GROUP,
        "<b>Mars</b> is a double win",
        parse_mode="HTML",
        ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=carol.id),
    )
    assert (sent.message_id, sent.text) == (0, "Mars is a double win")
    assert sent.entities is not None and sent.entities[0].type == "bold"
    where = {
        "chat_id": GROUP,
        "receiver_user_id": carol.id,
        "ephemeral_message_id": sent.ephemeral_message_id,
    }
    assert await fake_bot.edit_ephemeral_message_text(text="Mars: 2 points", **where)
    assert tg.ephemeral(GROUP, carol).text == "Mars: 2 points"
    assert tg.visible_messages(GROUP, bob) == []
    with pytest.raises(LookupError):
        tg.ephemeral(GROUP, bob)
    # the ids count per chat
    second = await fake_bot.send_message(
        GROUP,
        "again",
        ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=bob.id),
    )
    assert second.ephemeral_message_id == (sent.ephemeral_message_id or 0) + 1


async def test_wrong_parameters_are_refused(
    world: tuple[FakeTelegram, FakeUser, FakeUser, FakeUser], fake_bot: Bot
) -> None:
    tg, alice, bob, _ = world
    tg.private_chat(alice)
    stranger = tg.user(9, "Stranger")
    _, query = await board_and_tap(tg, fake_bot, alice)

    def to(user_id: int, **extra: object) -> EphemeralMessageParameters:
        return EphemeralMessageParameters(receiver_user_id=user_id, **extra)  # type: ignore[arg-type]

    cases = [
        (alice.id, to(alice.id), "only to group and supergroup chats"),  # a private chat
        (GROUP, to(stranger.id), "RECEIVER_USER_ID_INVALID"),  # not in the group
        (GROUP, to(424242), "RECEIVER_USER_ID_INVALID"),  # nobody
        (GROUP, to(bob.id, callback_query_id=query), "QUERY_ID_INVALID"),  # Alice's tap
        (GROUP, to(alice.id, callback_query_id="123"), "QUERY_ID_INVALID"),
        (GROUP, to(alice.id, replace_callback_query_message=True), "only with callback_query_id"),
    ]
    for chat_id, params, error in cases:
        with pytest.raises(TelegramBadRequest, match=error):
            await fake_bot.send_message(chat_id, "x", ephemeral_message_parameters=params)
    with pytest.raises(TelegramBadRequest, match="only inline keyboards"):
        await fake_bot.send_message(
            GROUP,
            "x",
            reply_markup=ReplyKeyboardMarkup(keyboard=[[KeyboardButton(text="a")]]),
            ephemeral_message_parameters=to(alice.id),
        )
    with pytest.raises(TelegramBadRequest, match="specified twice"):
        await fake_bot.send_message(
            GROUP, "x", ephemeral_message_parameters=to(alice.id), receiver_user_id=alice.id
        )
    url = f"{tg.base_url}/bot{tg.token}/editEphemeralMessageText"
    async with aiohttp.ClientSession() as http:  # aiogram requires a receiver: a raw request
        form = {"chat_id": str(GROUP), "ephemeral_message_id": "1", "text": "x"}
        async with http.post(url, data=form) as response:
            body = await response.json()
    assert body["description"] == "Bad Request: receiver_user_id is not specified"
    assert tg.ephemerals.get(GROUP, {}) == {}


async def test_the_callback_must_be_fresh(fake_telegram: FakeTelegram) -> None:
    now = [0.0]
    async with FakeTelegram(clock=lambda: now[0]) as tg:
        bot = tg.make_bot()
        try:
            alice = tg.user(1, "Alice")
            tg.group(GROUP, "Club").members.add(alice.id)
            _, query = await board_and_tap(tg, bot, alice)
            now[0] += 16
            with pytest.raises(TelegramBadRequest, match="query is too old"):
                await bot.send_message(
                    GROUP,
                    "late",
                    ephemeral_message_parameters=EphemeralMessageParameters(
                        receiver_user_id=alice.id, callback_query_id=query
                    ),
                )
        finally:
            await bot.session.close()


async def test_expiry_dropping_and_refusing(fake_telegram: FakeTelegram) -> None:
    now = [0.0]
    async with FakeTelegram(clock=lambda: now[0], ephemeral_ttl=60) as tg:
        bot = tg.make_bot()
        try:
            alice, bob = tg.user(1, "Alice"), tg.user(2, "Bob")
            tg.group(GROUP, "Club").members.update({alice.id, bob.id})
            board_id, query = await board_and_tap(tg, bot, alice)
            sent = await bot.send_message(
                GROUP,
                "picker",
                reply_markup=buttons("Done"),
                ephemeral_message_parameters=EphemeralMessageParameters(
                    receiver_user_id=alice.id,
                    callback_query_id=query,
                    replace_callback_query_message=True,
                ),
            )
            now[0] += 61
            assert tg.visible_messages(GROUP, alice)[0].message_id == board_id  # expired
            with pytest.raises(TelegramBadRequest, match="message to edit not found"):
                await bot.edit_ephemeral_message_text(
                    text="x",
                    chat_id=GROUP,
                    receiver_user_id=alice.id,
                    ephemeral_message_id=sent.ephemeral_message_id or 0,
                )
            assert "expired" in tg.transcript(GROUP, viewer=alice)

            tg.set_ephemeral_delivery(bob, "drop")
            dropped = await bot.send_message(
                GROUP,
                "lost",
                ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=bob.id),
            )
            assert dropped.ephemeral_message_id is not None  # Telegram accepted it…
            assert tg.visible_messages(GROUP, bob)[-1].message_id == board_id  # …Bob never saw
            with pytest.raises(LookupError):
                await tg.tap_ephemeral(GROUP, bob, "Done")

            tg.set_ephemeral_delivery(bob, "refuse")
            with pytest.raises(TelegramBadRequest, match="EPHEMERAL_MESSAGE_UNSUPPORTED"):
                await bot.send_message(
                    GROUP,
                    "no",
                    ephemeral_message_parameters=EphemeralMessageParameters(
                        receiver_user_id=bob.id
                    ),
                )
        finally:
            await bot.session.close()


async def test_tap_button_taps_what_the_user_sees(
    world: tuple[FakeTelegram, FakeUser, FakeUser, FakeUser], fake_bot: Bot
) -> None:
    tg, alice, bob, _ = world
    _, query = await board_and_tap(tg, fake_bot, alice)
    await fake_bot.send_message(
        GROUP,
        "picker",
        reply_markup=buttons("Move", "Done"),
        ephemeral_message_parameters=EphemeralMessageParameters(
            receiver_user_id=alice.id, callback_query_id=query, replace_callback_query_message=True
        ),
    )
    await tg.tap_button(GROUP, alice, "Move")  # the picker's Move, not the hidden board's
    assert tg._queries[max(tg._queries)].ephemeral_id == 1
    await tg.tap_button(GROUP, bob, "Move")  # Bob sees the board
    assert tg._queries[max(tg._queries)].ephemeral_id is None


async def test_commands_may_be_marked_ephemeral(
    world: tuple[FakeTelegram, FakeUser, FakeUser, FakeUser], fake_bot: Bot
) -> None:
    tg, *_ = world
    await fake_bot.set_my_commands(
        [
            BotCommand(command="rules", description="Rules", is_ephemeral=True),
            BotCommand(command="new", description="New game"),
        ]
    )
    assert tg.commands[("default", "")] == [
        {"command": "rules", "description": "Rules", "is_ephemeral": True},
        {"command": "new", "description": "New game"},
    ]
