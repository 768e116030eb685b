"""Ending a game other than by play: a timeout claim (or keep waiting), /abandon — an offer
to abandon by agreement (a player) or ending the game to free the chat (a group admin).

The game layer decides (:meth:`gameplay.GameService.claim`, ``accept_abandon``,
``end_by_admin``); storage makes each exactly-once (the stored version is the lock). Admin
rights are Telegram's, so they are checked here, again on the confirming tap.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot import refusals
from bot.boards import Target
from bot.callbacks import Act, GameCB
from bot.handlers.util import is_admin
from bot.presenter import localized, mention, short_name
from bot.showing import Shows
from bot.texts import h, t
from engine import Side
from gameplay import Actor, GameService, Place, Refusal, Refused, Snapshot


def _buttons(lang: str, snap: Snapshot, *pairs: tuple[str, Act]) -> InlineKeyboardMarkup:
    row = [
        InlineKeyboardButton(
            text=t(lang, key), callback_data=GameCB(game=snap.game_id, v=snap.version, a=a).pack()
        )
        for key, a in pairs
    ]
    return InlineKeyboardMarkup(inline_keyboard=[row])


async def _drop(query: CallbackQuery, shows: Shows) -> None:
    """Delete the message a tapped offer or confirmation came in (never a board)."""
    message = query.message
    if isinstance(message, Message) and message.photo is None:
        await shows.outbox.run(message.chat.id, lambda: message.delete(), kind="edit")


async def _ending(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    shows: Shows,
    call: Awaitable[Snapshot | None],
    done: str,
    show: Callable[[Snapshot], Awaitable[None]],
) -> None:
    """Run a tap's ending of the game of ``callback_data``: a refusal answers the tap;
    success answers ``done``, removes the message it came in and the game's notices (a
    reminder, a Claim button) and shows the game (``show``). A repeated update (None)
    changes nothing more."""
    try:
        snap = await call
    except Refused as refused:
        await refusals.answer_tap(query, lang, refused)
        return
    await query.answer(t(lang, done))
    if snap is not None:
        await _drop(query, shows)
        await shows.boards.clear_notices(callback_data.game)
        await show(snap)


# ---- timeout ---------------------------------------------------------------------------------


async def claim(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    actor: Actor,
    games: GameService,
    shows: Shows,
    update_id: int | None = None,
) -> None:
    """Claim a game whose mover's time is up (scored as their resignation, M-19)."""

    async def claimed() -> Snapshot | None:
        outcome = await games.claim(actor, callback_data.game, callback_data.v, update_id=update_id)
        return outcome.snap  # None: a repeated update

    async def show(snap: Snapshot) -> None:
        await shows.update(snap, actor_user_id=actor.user_id)

    await _ending(query, callback_data, lang, shows, claimed(), "claim_done", show)


async def _dismiss(query: CallbackQuery, lang: str, shows: Shows, said: str) -> None:
    """A "no" to an offer or a confirmation: the tap answered ``said``, the message gone."""
    await query.answer(t(lang, said))
    await _drop(query, shows)


async def keep_waiting(query: CallbackQuery, lang: str, shows: Shows) -> None:
    await _dismiss(query, lang, shows, "wait_ok")


# ---- /abandon --------------------------------------------------------------------------------


async def abandon(
    message: Message,
    lang: str,
    actor: Actor,
    place: Place,
    games: GameService,
    shows: Shows,
    bot: Bot,
) -> None:
    """A player offers to abandon the game by agreement; a group admin who does not play in
    it is asked to confirm ending it."""
    snap = await games.find_for_chat(place, actor.user_id)
    if snap is None:
        await message.answer(t(lang, "no_game"))
        return
    seat = snap.seat_of_user(actor.user_id)
    if seat is not None:
        await _offer(message, lang, actor, snap, seat, games, shows)
        return
    if place.private or not await is_admin(bot, place.chat_id, actor.user_id):
        await refusals.reply(message, lang, Refused(Refusal.NOT_ADMIN))
        return
    local = localized(snap, lang)
    game = local.game
    text = t(
        lang,
        "admin_end_confirm",
        white=h(short_name(local.names[game.seat_of(Side.WHITE)])),
        black=h(short_name(local.names[game.seat_of(Side.BLACK)])),
    )
    keyboard = _buttons(
        lang, snap, ("btn_admin_end", Act.ADMIN_END), ("btn_admin_keep", Act.ADMIN_KEEP)
    )
    await shows.outbox.run(message.chat.id, lambda: message.answer(text, reply_markup=keyboard))


async def _offer(
    message: Message,
    lang: str,
    actor: Actor,
    snap: Snapshot,
    seat: int,
    games: GameService,
    shows: Shows,
) -> None:
    try:
        snap = await games.offer_abandon(actor, snap.game_id)
    except Refused as refused:
        await refusals.reply(message, lang, refused)
        return
    other = snap.user_ids.get(1 - seat)
    assert other is not None  # offer_abandon refuses a game against the computer

    def words(their: str, target: Target) -> tuple[str, InlineKeyboardMarkup]:
        text = t(
            their,
            "abandon_offer",
            name=h(short_name(snap.names[seat])),
            other=mention(snap, 1 - seat),
        )
        keyboard = _buttons(
            their,
            snap,
            ("btn_abandon_accept", Act.ABANDON_YES),
            ("btn_abandon_decline", Act.ABANDON_NO),
        )
        return text, keyboard

    await shows.tell_player(snap, other, words)
    if message.chat.type == "private":
        await message.answer(t(lang, "abandon_offer_sent"))


async def abandon_yes(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    actor: Actor,
    games: GameService,
    shows: Shows,
    update_id: int | None = None,
) -> None:
    accepted = games.accept_abandon(actor, callback_data.game, callback_data.v, update_id=update_id)
    await _ending(query, callback_data, lang, shows, accepted, "abandon_accepted", shows.refresh)


async def abandon_no(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    actor: Actor,
    games: GameService,
    shows: Shows,
) -> None:
    try:
        await games.decline_abandon(actor, callback_data.game)
    except Refused as refused:
        await refusals.answer_tap(query, lang, refused)
        return
    await _dismiss(query, lang, shows, "abandon_declined")


async def admin_end(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    place: Place,
    games: GameService,
    shows: Shows,
    bot: Bot,
    update_id: int | None = None,
) -> None:
    """The confirmation: rights checked again (they change, and a message outlives them)."""
    if place.private or not await is_admin(bot, place.chat_id, query.from_user.id):
        await refusals.answer_tap(query, lang, Refused(Refusal.NOT_ADMIN))
        return
    ended = games.end_by_admin(callback_data.game, update_id=update_id)
    await _ending(query, callback_data, lang, shows, ended, "admin_ended", shows.refresh)


async def admin_keep(query: CallbackQuery, lang: str, shows: Shows) -> None:
    await _dismiss(query, lang, shows, "admin_kept")


def router() -> Router:
    """``claim="save"``: the update is claimed in the write it causes."""
    r = Router(name="clock")
    cbq = r.callback_query
    cbq.register(claim, GameCB.filter(F.a == Act.CLAIM), flags={"claim": "save"})
    cbq.register(keep_waiting, GameCB.filter(F.a == Act.WAIT), flags={"claim": "none"})
    cbq.register(abandon_yes, GameCB.filter(F.a == Act.ABANDON_YES), flags={"claim": "save"})
    cbq.register(abandon_no, GameCB.filter(F.a == Act.ABANDON_NO), flags={"claim": "none"})
    cbq.register(admin_end, GameCB.filter(F.a == Act.ADMIN_END), flags={"claim": "save"})
    cbq.register(admin_keep, GameCB.filter(F.a == Act.ADMIN_KEEP), flags={"claim": "none"})
    r.message.register(abandon, Command("abandon"))
    return r
