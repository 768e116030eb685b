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

from bot import refusals
from bot.callbacks import LobbyAct, LobbyCB, MenuAct, NewGameCB
from bot.handlers.dice import client_seed_of
from bot.handlers.util import parse_new_args
from bot.house_rules import describe
from bot.middlewares import actor_of
from bot.presenter.clock import clock_name
from bot.presenter.dice import commitment_line, with_copy_button
from bot.showing import Shows
from bot.texts import h, t
from engine import Options, Side
from engine.variants import VARIANTS
from gameplay import Actor, GameService, Lobby, Place, Refused
from gameplay.clocks import MoveClock
from gameplay.service import LEVELS


def length_text(lang: str, n: int) -> str:
    return t(lang, "lobby_length", n=n) if n > 1 else ""


def rules_text(lang: str, variant: str, options: Options, move_clock: MoveClock) -> str:
    """The lobby's rules in force and its move clock, one line each."""
    rules = t(lang, "lobby_rules", rules=describe(lang, variant, options))
    return f"{rules}\n{t(lang, 'lobby_clock', clock=clock_name(lang, move_clock))}"


def invitation_keyboard(
    lang: str, token: str, *, personal: bool, commitment: str | None = None
) -> InlineKeyboardMarkup:
    """Join / Cancel under an open lobby; Accept / Decline under a personal invitation; and
    the copy button of the dice commitment, when given."""
    if personal:
        buttons = (("btn_accept", LobbyAct.ACCEPT), ("btn_decline", LobbyAct.DECLINE))
    else:
        buttons = (("btn_join", LobbyAct.JOIN), ("btn_cancel", LobbyAct.CANCEL))
    markup = InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=t(lang, key), callback_data=LobbyCB(token=token, a=act).pack()
                )
                for key, act in buttons
            ]
        ]
    )
    return markup if commitment is None else with_copy_button(markup, lang, commitment)


async def invitation_commitment(games: GameService, seed_id: int | None) -> str | None:
    """The SHA-256 commitment of an invitation's dice seed (None for an older one)."""
    seed = await games.seed_view(seed_id)
    return None if seed is None else seed.commitment


def with_commitment(lang: str, text: str, commitment: str | None) -> str:
    """An invitation's text with the short dice commitment under it."""
    return text if commitment is None else f"{text}\n{commitment_line(lang, commitment)}"


async def _active_game_message(
    message: Message, lang: str, actor: Actor, place: Place, games: GameService, shows: Shows
) -> bool:
    """Say so (replying to its board) if this chat/topic already has a game; True if it has.
    A game of an inline message whose board is also shown here does not hold the chat."""
    snap = await games.find_for_chat(place, actor.user_id)
    if snap is None or snap.row.inline_message_id is not None:
        return False
    board = await shows.board_message(snap, place.chat_id)
    await message.answer(
        t(lang, "game_exists"), reply_to_message_id=board, allow_sending_without_reply=True
    )
    return True


async def new_in_group(
    message: Message,
    command: CommandObject,
    lang: str,
    actor: Actor,
    place: Place,
    games: GameService,
    lobby: Lobby,
    shows: Shows,
    update_id: int | None = None,
) -> None:
    """Open a lobby: the first other member to tap Join becomes the opponent."""
    if await _active_game_message(message, lang, actor, place, games, shows):
        return
    defaults = await games.chats.defaults(place.chat_id)
    variant, length = parse_new_args(command.args, defaults.variant, defaults.match_length)
    move_clock = defaults.clock_for(group=True)
    inv = await lobby.invite(
        actor,
        place,
        variant=variant,
        match_length=length,
        options=defaults.options,
        client_seed=client_seed_of(message, update_id),
        move_clock=move_clock,
    )
    commitment = await invitation_commitment(games, inv.dice_seed_id)
    text = t(
        lang,
        "lobby",
        inviter=h(actor.name),
        variant=t(lang, f"variant_{variant}"),
        length=length_text(lang, length),
        rules=rules_text(lang, variant, defaults.options, move_clock),
    )
    await message.answer(
        with_commitment(lang, text, commitment),
        reply_markup=invitation_keyboard(lang, inv.token, personal=False, commitment=commitment),
    )


async def challenge(
    message: Message,
    command: CommandObject,
    lang: str,
    actor: Actor,
    place: Place,
    games: GameService,
    lobby: Lobby,
    shows: Shows,
    update_id: int | None = None,
) -> None:
    """/challenge as a reply: invite exactly that member (Accept / Decline)."""
    target = message.reply_to_message.from_user if message.reply_to_message else None
    if target is None:
        await message.answer(t(lang, "challenge_need_reply"))
        return
    if target.is_bot:
        await message.answer(t(lang, "challenge_bot"))
        return
    if target.id == actor.user_id:
        await message.answer(t(lang, "challenge_self"))
        return
    if await _active_game_message(message, lang, actor, place, games, shows):
        return
    defaults = await games.chats.defaults(place.chat_id)
    variant, length = parse_new_args(command.args, defaults.variant, defaults.match_length)
    invited = actor_of(target)
    move_clock = defaults.clock_for(group=True)
    inv = await lobby.invite(
        actor,
        place,
        variant=variant,
        match_length=length,
        options=defaults.options,
        invitee=invited,
        client_seed=client_seed_of(message, update_id),
        move_clock=move_clock,
    )
    commitment = await invitation_commitment(games, inv.dice_seed_id)
    invitee = f'<a href="tg://user?id={target.id}">{h(invited.name)}</a>'
    text = t(
        lang,
        "challenge",
        inviter=h(actor.name),
        invitee=invitee,
        variant=t(lang, f"variant_{variant}"),
        length=length_text(lang, length),
        rules=rules_text(lang, variant, defaults.options, move_clock),
    )
    await message.answer(
        with_commitment(lang, text, commitment),
        reply_markup=invitation_keyboard(lang, inv.token, personal=True, commitment=commitment),
    )


async def join(
    query: CallbackQuery,
    callback_data: LobbyCB,
    lang: str,
    actor: Actor,
    lobby: Lobby,
    shows: Shows,
    update_id: int | None = None,
) -> None:
    message = query.message
    if not isinstance(message, Message):
        await query.answer(t(lang, "outdated"))
        return
    try:
        snap = await lobby.accept(
            callback_data.token, actor, client_seed=client_seed_of(query, update_id)
        )
    except Refused as refused:
        await query.answer(refusals.refusal_text(lang, refused), show_alert=True)
        return
    await query.answer()
    game = snap.game
    white = h(snap.names[game.seat_of(Side.WHITE)])
    black = h(snap.names[game.seat_of(Side.BLACK)])
    await shows.outbox.run(
        message.chat.id,
        lambda: message.edit_text(t(lang, "lobby_started", white=white, black=black)),
        kind="edit",
    )
    await shows.show_new(snap)


async def cancel_lobby(
    query: CallbackQuery,
    callback_data: LobbyCB,
    lang: str,
    actor: Actor,
    lobby: Lobby,
    shows: Shows,
) -> None:
    message = query.message
    if not isinstance(message, Message):
        await query.answer(t(lang, "outdated"))
        return
    try:
        if callback_data.a is LobbyAct.CANCEL:
            await lobby.cancel(callback_data.token, actor)
            text = t(lang, "lobby_cancelled")
        else:
            await lobby.decline(callback_data.token, actor)
            text = t(lang, "challenge_declined", invitee=h(actor.name))
    except Refused as refused:
        await query.answer(refusals.refusal_text(lang, refused), show_alert=True)
        return
    await query.answer()
    await shows.outbox.run(message.chat.id, lambda: message.edit_text(text), kind="edit")


# ---- private chats ----------------------------------------------------------------------------


def _private_menu(lang: str) -> InlineKeyboardMarkup:
    def b(key: str, act: MenuAct, variant: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            text=t(lang, key), callback_data=NewGameCB(a=act, variant=variant).pack()
        )

    return InlineKeyboardMarkup(
        inline_keyboard=[
            [b(f"btn_invite_{name}", MenuAct.INVITE, name) for name in VARIANTS],
            [b(f"btn_ai_{name}", MenuAct.COMPUTER, name) for name in VARIANTS],
        ]
    )


def _variant(name: str) -> str:
    """A variant named in callback data (an unknown name, from a forged button: long)."""
    return name if name in VARIANTS else "long"


async def new_in_private(
    message: Message, lang: str, actor: Actor, place: Place, games: GameService, shows: Shows
) -> None:
    if await _active_game_message(message, lang, actor, place, games, shows):
        return
    await message.answer(t(lang, "private_menu"), reply_markup=_private_menu(lang))


async def private_invite(
    query: CallbackQuery,
    callback_data: NewGameCB,
    lang: str,
    actor: Actor,
    place: Place,
    games: GameService,
    lobby: Lobby,
    bot: Bot,
    update_id: int | None = None,
) -> None:
    message = query.message
    if not isinstance(message, Message):
        await query.answer()
        return
    defaults = await games.chats.defaults(place.chat_id)
    move_clock = defaults.clock_for(group=False)
    inv = await lobby.invite(
        actor,
        place,
        variant=_variant(callback_data.variant),
        match_length=defaults.match_length,
        options=defaults.options,
        client_seed=client_seed_of(query, update_id),
        move_clock=move_clock,
    )
    commitment = await invitation_commitment(games, inv.dice_seed_id)
    await query.answer()
    link = await create_start_link(bot, inv.token)
    hours = int(lobby.invitation_ttl.total_seconds() // 3600)
    share = f"https://t.me/share/url?url={link}"
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=t(lang, "btn_share"), url=share),
            ]
        ]
    )
    if commitment is not None:
        keyboard = with_copy_button(keyboard, lang, commitment)
    text = t(lang, "invite_link", link=link, hours=hours)
    text += "\n" + t(lang, "lobby_clock", clock=clock_name(lang, move_clock))
    me = await bot.me()
    if me.supports_inline_queries:
        text += t(lang, "inline_hint", bot=me.username)
    else:
        text += t(lang, "inline_off")
    await message.edit_text(with_commitment(lang, text, commitment), reply_markup=keyboard)


async def private_computer(query: CallbackQuery, callback_data: NewGameCB, lang: str) -> None:
    message = query.message
    if not isinstance(message, Message):
        await query.answer()
        return
    variant = _variant(callback_data.variant)
    rows = [
        [
            InlineKeyboardButton(
                text=t(lang, f"level_{level}"),
                callback_data=NewGameCB(a=MenuAct.LEVEL, variant=variant, level=level).pack(),
            )
            for level in LEVELS
        ]
    ]
    await query.answer()
    await message.edit_text(
        t(lang, "choose_level"), reply_markup=InlineKeyboardMarkup(inline_keyboard=rows)
    )


async def private_level(
    query: CallbackQuery,
    callback_data: NewGameCB,
    lang: str,
    actor: Actor,
    place: Place,
    games: GameService,
    shows: Shows,
    update_id: int | None = None,
) -> None:
    message = query.message
    if not isinstance(message, Message):
        await query.answer()
        return
    options = (await games.chats.defaults(place.chat_id)).options
    try:
        snap = await games.start_vs_computer(
            actor,
            place,
            _variant(callback_data.variant),
            callback_data.level,
            options,
            client_seed=client_seed_of(query, update_id),
        )
    except Refused as refused:
        await refusals.answer_tap(query, lang, refused)
        return
    await query.answer()
    await shows.outbox.run(message.chat.id, lambda: message.delete())
    await shows.show_new(snap)


async def cancel(message: Message, lang: str, actor: Actor, place: Place, lobby: Lobby) -> None:
    """Cancel the user's open invitations (lobbies in this chat, links from a private chat)."""
    cancelled = await lobby.cancel_mine(actor, place)
    await message.answer(t(lang, "cancelled" if cancelled else "nothing_to_cancel"))


def router() -> Router:
    r = Router(name="lobby")
    groups = F.chat.type.in_({"group", "supergroup"})
    r.message.register(new_in_group, Command("new"), groups)
    r.message.register(challenge, Command("challenge"), groups)
    r.callback_query.register(join, LobbyCB.filter(F.a.in_({LobbyAct.JOIN, LobbyAct.ACCEPT})))
    r.callback_query.register(
        cancel_lobby, LobbyCB.filter(F.a.in_({LobbyAct.CANCEL, LobbyAct.DECLINE}))
    )
    r.message.register(new_in_private, Command("new"), F.chat.type == "private")
    r.callback_query.register(private_invite, NewGameCB.filter(F.a == MenuAct.INVITE))
    r.callback_query.register(private_computer, NewGameCB.filter(F.a == MenuAct.COMPUTER))
    r.callback_query.register(private_level, NewGameCB.filter(F.a == MenuAct.LEVEL))
    r.message.register(cancel, Command("cancel"))
    return r
