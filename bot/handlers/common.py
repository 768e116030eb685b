"""/start (with deep links), /help, /lang."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import Message

import storage
from bot.boards import Boards, Languages
from bot.gameplay import GameplayError, GameService
from bot.handlers.util import is_admin
from bot.middlewares import display_name
from bot.texts import LANGS, h, t

router = Router(name="common")


@router.message(CommandStart(deep_link=True), F.chat.type == "private")
async def start_with_payload(
    message: Message,
    command: CommandObject,
    lang: str,
    games: GameService,
    boards: Boards,
    langs: Languages,
    bot: Bot,
) -> None:
    """A friend opened an invitation link: join the game and show both players the board."""
    assert message.from_user is not None
    token = (command.args or "").strip()
    try:
        snap = await games.accept(token, message.from_user.id, chat_id=message.chat.id, thread_id=0)
    except GameplayError as err:
        await message.answer(t(lang, err.key, **err.params))
        return
    await boards.show_new(snap)
    inviter_seat = 0
    inviter = snap.user_ids.get(inviter_seat)
    if inviter is not None:
        inviter_lang = await langs.of_chat(inviter)
        name = h(display_name(message.from_user))
        await boards.outbox.run(
            inviter,
            lambda: bot.send_message(
                inviter, t(inviter_lang, "invite_accepted_inviter", name=name)
            ),
        )


@router.message(CommandStart())
async def start(message: Message, lang: str) -> None:
    await message.answer(t(lang, "start"))


@router.message(Command("help"))
async def help_(message: Message, lang: str) -> None:
    await message.answer(t(lang, "help"))


@router.message(Command("lang"))
async def set_lang(
    message: Message,
    command: CommandObject,
    lang: str,
    store: storage.Storage,
    langs: Languages,
    bot: Bot,
) -> None:
    choice = (command.args or "").strip().lower()
    if choice not in LANGS:
        await message.answer(t(lang, "lang_usage"))
        return
    assert message.from_user is not None
    if message.chat.type == "private":
        await store.upsert_user(
            message.from_user.id,
            display_name(message.from_user),
            username=message.from_user.username,
            language=choice,
        )
    else:
        if not await is_admin(bot, message.chat.id, message.from_user.id):
            await message.answer(t(lang, "lang_admins_only"))
            return
        await store.update_chat_settings(message.chat.id, language=choice)
    langs.remember(message.chat.id, choice)
    await message.answer(t(choice, "lang_set"))
