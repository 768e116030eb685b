"""Starting games: /new (group lobby or private menu), /challenge, /cancel, invitation links."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)
from aiogram.utils.deep_linking import create_start_link

import storage
from bot.boards import Boards
from bot.callbacks import LobbyAct, LobbyCB, MenuAct, NewGameCB
from bot.gameplay import GameplayError, GameService
from bot.handlers.util import parse_new_args, thread_of
from bot.house_rules import chat_defaults, describe
from bot.middlewares import display_name
from bot.texts import h, t

router = Router(name="lobby")


def _length_text(lang: str, n: int) -> str:
    return t(lang, "lobby_length", n=n) if n > 1 else ""


def _lobby_keyboard(lang: str, token: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=t(lang, "btn_join"),
                    callback_data=LobbyCB(token=token, a=LobbyAct.JOIN).pack(),
                ),
                InlineKeyboardButton(
                    text=t(lang, "btn_cancel"),
                    callback_data=LobbyCB(token=token, a=LobbyAct.CANCEL).pack(),
                ),
            ]
        ]
    )


async def _active_game_message(
    message: Message, lang: str, games: GameService, boards: Boards
) -> bool:
    """Say so (replying to its board) if this chat/topic already has a game; True if it has."""
    assert message.from_user is not None
    snap = await games.find_for_chat(
        message.chat.id,
        thread_of(message),
        message.from_user.id,
        private=message.chat.type == "private",
    )
    if snap is None:
        return False
    board = next(
        (
            m.message_id
            for m in await boards.messages(snap.row.game_id)
            if m.kind == "board" and m.chat_id == message.chat.id
        ),
        None,
    )
    await message.answer(
        t(lang, "game_exists"), reply_to_message_id=board, allow_sending_without_reply=True
    )
    return True


@router.message(Command("new"), F.chat.type.in_({"group", "supergroup"}))
async def new_in_group(
    message: Message,
    command: CommandObject,
    lang: str,
    games: GameService,
    store: storage.Storage,
    boards: Boards,
) -> None:
    """Open a lobby: the first other member to tap Join becomes the opponent."""
    assert message.from_user is not None
    if await _active_game_message(message, lang, games, boards):
        return
    defaults = await chat_defaults(store, message.chat.id)
    variant, length = parse_new_args(command.args, defaults.variant, defaults.match_length)
    inv = await games.invite(
        message.from_user.id,
        variant,
        chat_id=message.chat.id,
        thread_id=thread_of(message),
        match_length=length,
        options=defaults.options,
    )
    text = t(
        lang,
        "lobby",
        inviter=h(display_name(message.from_user)),
        variant=t(lang, f"variant_{variant}"),
        length=_length_text(lang, length),
        rules=t(lang, "lobby_rules", rules=describe(lang, variant, defaults.options)),
    )
    await message.answer(text, reply_markup=_lobby_keyboard(lang, inv.token))


@router.message(Command("challenge"), F.chat.type.in_({"group", "supergroup"}))
async def challenge(
    message: Message,
    command: CommandObject,
    lang: str,
    games: GameService,
    store: storage.Storage,
    boards: Boards,
) -> None:
    """/challenge as a reply: invite exactly that member (Accept / Decline)."""
    assert message.from_user is not None
    target = message.reply_to_message.from_user if message.reply_to_message else None
    if target is None:
        await message.answer(t(lang, "challenge_need_reply"))
        return
    if target.is_bot:
        await message.answer(t(lang, "challenge_bot"))
        return
    if target.id == message.from_user.id:
        await message.answer(t(lang, "challenge_self"))
        return
    if await _active_game_message(message, lang, games, boards):
        return
    await store.upsert_user(target.id, display_name(target), username=target.username)
    defaults = await chat_defaults(store, message.chat.id)
    variant, length = parse_new_args(command.args, defaults.variant, defaults.match_length)
    inv = await games.invite(
        message.from_user.id,
        variant,
        chat_id=message.chat.id,
        thread_id=thread_of(message),
        invitee_id=target.id,
        match_length=length,
        options=defaults.options,
    )
    invitee = f'<a href="tg://user?id={target.id}">{h(display_name(target))}</a>'
    text = t(
        lang,
        "challenge",
        inviter=h(display_name(message.from_user)),
        invitee=invitee,
        variant=t(lang, f"variant_{variant}"),
        length=_length_text(lang, length),
        rules=t(lang, "lobby_rules", rules=describe(lang, variant, defaults.options)),
    )
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=t(lang, "btn_accept"),
                    callback_data=LobbyCB(token=inv.token, a=LobbyAct.ACCEPT).pack(),
                ),
                InlineKeyboardButton(
                    text=t(lang, "btn_decline"),
                    callback_data=LobbyCB(token=inv.token, a=LobbyAct.DECLINE).pack(),
                ),
            ]
        ]
    )
    await message.answer(text, reply_markup=keyboard)


@router.callback_query(LobbyCB.filter(F.a.in_({LobbyAct.JOIN, LobbyAct.ACCEPT})))
async def join(
    query: CallbackQuery,
    callback_data: LobbyCB,
    lang: str,
    games: GameService,
    boards: Boards,
) -> None:
    message = query.message
    if not isinstance(message, Message):
        await query.answer(t(lang, "outdated"))
        return
    try:
        snap = await games.accept(
            callback_data.token,
            query.from_user.id,
            chat_id=message.chat.id,
            thread_id=thread_of(message),
        )
    except GameplayError as err:
        await query.answer(t(lang, err.key, **err.params), show_alert=True)
        return
    await query.answer()
    game = snap.game
    from engine import Side

    white = h(snap.names[game.seat_of(Side.WHITE)])
    black = h(snap.names[game.seat_of(Side.BLACK)])
    await boards.outbox.run(
        message.chat.id,
        lambda: message.edit_text(t(lang, "lobby_started", white=white, black=black)),
        kind="edit",
    )
    await boards.show_new(snap)


@router.callback_query(LobbyCB.filter(F.a.in_({LobbyAct.CANCEL, LobbyAct.DECLINE})))
async def cancel_lobby(
    query: CallbackQuery,
    callback_data: LobbyCB,
    lang: str,
    store: storage.Storage,
    boards: Boards,
) -> None:
    message = query.message
    if not isinstance(message, Message):
        await query.answer(t(lang, "outdated"))
        return
    try:
        if callback_data.a is LobbyAct.CANCEL:
            await store.cancel_invitation(callback_data.token, query.from_user.id)
            text = t(lang, "lobby_cancelled")
        else:
            await store.decline_invitation(callback_data.token, query.from_user.id)
            text = t(lang, "challenge_declined", invitee=h(display_name(query.from_user)))
    except storage.InvitationNotForYouError:
        await query.answer(t(lang, "invite_not_for_you"), show_alert=True)
        return
    except storage.InvitationError:
        await query.answer(
            t(
                lang,
                "cancel_only_inviter" if callback_data.a is LobbyAct.CANCEL else "invite_closed",
            ),
            show_alert=True,
        )
        return
    except storage.NotFoundError:
        await query.answer(t(lang, "invite_unknown"), show_alert=True)
        return
    await query.answer()
    await boards.outbox.run(message.chat.id, lambda: message.edit_text(text), kind="edit")


# ---- private chats ----------------------------------------------------------------------------


def _private_menu(lang: str) -> InlineKeyboardMarkup:
    def b(key: str, act: MenuAct, variant: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            text=t(lang, key), callback_data=NewGameCB(a=act, variant=variant).pack()
        )

    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                b("btn_invite_long", MenuAct.INVITE, "long"),
                b("btn_invite_short", MenuAct.INVITE, "short"),
            ],
            [
                b("btn_ai_long", MenuAct.COMPUTER, "long"),
                b("btn_ai_short", MenuAct.COMPUTER, "short"),
            ],
        ]
    )


@router.message(Command("new"), F.chat.type == "private")
async def new_in_private(message: Message, lang: str, games: GameService, boards: Boards) -> None:
    if await _active_game_message(message, lang, games, boards):
        return
    await message.answer(t(lang, "private_menu"), reply_markup=_private_menu(lang))


@router.callback_query(NewGameCB.filter(F.a == MenuAct.INVITE))
async def private_invite(
    query: CallbackQuery,
    callback_data: NewGameCB,
    lang: str,
    games: GameService,
    store: storage.Storage,
    bot: Bot,
) -> None:
    message = query.message
    if not isinstance(message, Message):
        await query.answer()
        return
    variant = "short" if callback_data.variant == "short" else "long"
    defaults = await chat_defaults(store, message.chat.id)
    inv = await games.invite(
        query.from_user.id,
        variant,
        chat_id=None,
        match_length=defaults.match_length,
        options=defaults.options,
    )
    await query.answer()
    link = await create_start_link(bot, inv.token)
    hours = int(games.invitation_ttl.total_seconds() // 3600)
    share = f"https://t.me/share/url?url={link}"
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=t(lang, "btn_share"), url=share),
            ]
        ]
    )
    await message.edit_text(t(lang, "invite_link", link=link, hours=hours), reply_markup=keyboard)


@router.callback_query(NewGameCB.filter(F.a == MenuAct.COMPUTER))
async def private_computer(query: CallbackQuery, callback_data: NewGameCB, lang: str) -> None:
    message = query.message
    if not isinstance(message, Message):
        await query.answer()
        return
    variant = "short" if callback_data.variant == "short" else "long"
    rows = [
        [
            InlineKeyboardButton(
                text=t(lang, f"level_{level}"),
                callback_data=NewGameCB(a=MenuAct.LEVEL, variant=variant, level=level).pack(),
            )
            for level in ("easy", "medium", "hard")
        ]
    ]
    await query.answer()
    await message.edit_text(
        t(lang, "choose_level"), reply_markup=InlineKeyboardMarkup(inline_keyboard=rows)
    )


@router.callback_query(NewGameCB.filter(F.a == MenuAct.LEVEL))
async def private_level(
    query: CallbackQuery,
    callback_data: NewGameCB,
    lang: str,
    games: GameService,
    store: storage.Storage,
    boards: Boards,
) -> None:
    message = query.message
    if not isinstance(message, Message):
        await query.answer()
        return
    variant = "short" if callback_data.variant == "short" else "long"
    level = callback_data.level if callback_data.level in ("easy", "medium", "hard") else "medium"
    try:
        snap = await games.start_vs_ai(
            query.from_user.id,
            message.chat.id,
            variant,
            level,
            (await chat_defaults(store, message.chat.id)).options,
        )
    except GameplayError as err:
        await query.answer(t(lang, err.key, **err.params), show_alert=True)
        return
    await query.answer()
    await boards.outbox.run(message.chat.id, lambda: message.delete())
    await boards.show_new(snap)


@router.message(Command("cancel"))
async def cancel(message: Message, lang: str, store: storage.Storage) -> None:
    """Cancel the user's open invitations (lobbies in this chat, links from a private chat)."""
    assert message.from_user is not None
    chat_id = None if message.chat.type == "private" else message.chat.id
    invitations = await store.list_invitations(
        message.from_user.id, state=storage.InvitationState.PENDING
    )
    cancelled = 0
    for inv in invitations:
        if chat_id is not None and inv.chat_id != chat_id:
            continue
        try:
            await store.cancel_invitation(inv.token, message.from_user.id)
            cancelled += 1
        except storage.InvitationError:
            continue
    await message.answer(t(lang, "cancelled" if cancelled else "nothing_to_cancel"))
