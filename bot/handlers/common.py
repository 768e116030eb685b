"""/start (with deep links), /help, /lang."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import Message

from bot import refusals
from bot.handlers.dice import client_seed_of
from bot.handlers.util import is_admin
from bot.languages import Languages
from bot.showing import Shows
from bot.texts import LANGS, h, t
from gameplay import Actor, GameService, Lobby, Place, Refused


async def start_with_payload(
    message: Message,
    command: CommandObject,
    lang: str,
    actor: Actor,
    lobby: Lobby,
    shows: Shows,
    langs: Languages,
    update_id: int | None = None,
) -> None:
    """A friend opened an invitation link: join the game and show both players the board."""
    token = (command.args or "").strip()
    try:
        snap = await lobby.accept(token, actor, client_seed=client_seed_of(message, update_id))
    except Refused as refused:
        await refusals.reply(message, lang, refused)
        return
    await shows.show_new(snap)
    inviter = snap.user_ids.get(0)  # the inviter is seat 0
    if inviter is not None:
        inviter_lang = await langs.of_chat(inviter)
        await shows.boards.tell(
            inviter, t(inviter_lang, "invite_accepted_inviter", name=h(actor.name))
        )


async def start(message: Message, lang: str) -> None:
    await message.answer(t(lang, "start"))


async def help_(message: Message, lang: str) -> None:
    await message.answer(t(lang, "help"))


async def set_lang(
    message: Message,
    command: CommandObject,
    lang: str,
    actor: Actor,
    place: Place,
    games: GameService,
    langs: Languages,
    bot: Bot,
) -> None:
    choice = (command.args or "").strip().lower()
    if choice not in LANGS:
        await message.answer(t(lang, "lang_usage"))
        return
    if place.private:
        await games.players.set_language(actor, choice)
    else:
        if not await is_admin(bot, place.chat_id, actor.user_id):
            await message.answer(t(lang, "lang_admins_only"))
            return
        await games.chats.set_language(place.chat_id, choice)
    langs.remember(place.chat_id, choice)
    await message.answer(t(choice, "lang_set"))


def router() -> Router:
    r = Router(name="common")
    r.message.register(start_with_payload, CommandStart(deep_link=True), F.chat.type == "private")
    r.message.register(start, CommandStart())
    r.message.register(help_, Command("help"), flags={"answer": "private"})
    r.message.register(set_lang, Command("lang"))
    return r
