"""Inline mode: ``@bot`` typed in any chat offers challenges; the chosen one is posted there as
a card, and the game is played in that message.

* ``inline_query``: results in the sender's language, each a real invitation with its dice
  committed (the card shows the fingerprint) and a preview of the start position, plus the
  invitation link (the game then goes to the private chats). ``@bot @friend`` names the only
  person who may accept.
* ``chosen_inline_result`` (only when inline feedback is on in BotFather): the card is posted,
  so its invitation is not offered again.
* Accept on the card (a tap with an ``inline_message_id`` and no message): the game starts in
  that message. The sender cannot accept their own card.
* Board buttons on an inline message work as on a group's board (:mod:`bot.handlers.play`);
  picking a point is handled here, because there is no message to point at.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aiogram import Bot, F, Router
from aiogram.types import (
    CallbackQuery,
    ChosenInlineResult,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQuery,
    InlineQueryResultArticle,
    InlineQueryResultCachedPhoto,
    InlineQueryResultsButton,
    InlineQueryResultUnion,
    InputTextMessageContent,
)
from aiogram.utils.deep_linking import create_start_link

from bot import refusals
from bot.boards import Target
from bot.callbacks import Act, GameCB, LobbyAct, LobbyCB
from bot.handlers.dice import client_seed_of
from bot.handlers.lobby import invitation_commitment, length_text, rules_text, with_commitment
from bot.handlers.play import point_of
from bot.handlers.util import VARIANT_WORDS
from bot.languages import Languages
from bot.middlewares import actor_of
from bot.presenter.board import start_options
from bot.presenter.dice import with_copy_button
from bot.showing import Shows
from bot.texts import h, normalise_lang, t
from engine import Options, get_variant
from gameplay import Actor, GameService, Lobby, Refused, Snapshot, clocks
from gameplay.clocks import MoveClock
from gameplay.inline import InlineChallenges, Offer
from gameplay.refusals import Refusal

log = logging.getLogger(__name__)

USERNAME = re.compile(r"@([A-Za-z][A-Za-z0-9_]{4,31})\b")
#: Telegram caches a person's answer this long (they are personal: they carry invitations).
CACHE_SECONDS = 30
MATCH_LENGTHS = (3, 5, 7)


@dataclass(frozen=True, slots=True)
class Query:
    """What an inline query asks for: a variant, a match length, a named opponent."""

    variant: str | None = None
    length: int | None = None
    username: str | None = None


def parse_query(text: str, *, bot_username: str | None, own_username: str | None) -> Query:
    """``@bot [@friend] [long|short] [N]`` in any order; unknown words are ignored, and so is
    a name that is the bot's or the sender's own."""
    variant = length = username = None
    skip = {(bot_username or "").casefold(), (own_username or "").casefold()} - {""}
    for match in USERNAME.finditer(text):
        if match.group(1).casefold() not in skip:
            username = match.group(1)
            break
    for word in USERNAME.sub(" ", text).lower().split():
        if word.isdigit():
            length = max(1, min(25, int(word)))
        elif word in VARIANT_WORDS:
            variant = VARIANT_WORDS[word]
    return Query(variant, length, username)


def offers(query: Query) -> list[Offer]:
    """The games offered for a query: single games of each variant (short nardy with and
    without the cube), matches, and the invitation link last."""
    variants = [query.variant] if query.variant else ["long", "short"]
    no_cube = Options(cube=False)
    if query.length is None:
        out = [Offer(v) for v in variants]
        if "short" in variants:
            out.append(Offer("short", options=no_cube))
        out.extend(Offer(variants[0], n) for n in MATCH_LENGTHS)
    else:
        out = [Offer(v, query.length) for v in variants]
        if "short" in variants:
            out.append(Offer("short", query.length, no_cube))
    out.append(Offer(variants[0], query.length or 1, link=True))
    return out


def result_id(offer: Offer) -> str:
    """A result's id names its offer, so a chosen result can be told apart (≤ 64 bytes)."""
    cube = "d" if offer.options.cube is None else str(int(offer.options.cube))
    return f"{'k' if offer.link else 'c'}.{offer.variant}.{offer.match_length}.{cube}"


def offer_of(rid: str) -> Offer | None:
    """The offer a result id names (None for an id this bot never made)."""
    parts = rid.split(".")
    if len(parts) != 4 or parts[0] not in ("c", "k") or not parts[2].isdigit():
        return None
    variant, cube = parts[1], parts[3]
    if variant not in ("long", "short") or cube not in ("d", "0", "1"):
        return None
    options = Options() if cube == "d" else Options(cube=cube == "1")
    return Offer(variant, int(parts[2]), options, link=parts[0] == "k")


def _title(lang: str, offer: Offer, *, cube_words: bool = True) -> str:
    """The result's title ("Short nardy, a match to 5, no cube"); on the picture, where the
    cube is drawn, without the cube words."""
    length = length_text(lang, offer.match_length)
    cube = ""
    if cube_words and offer.variant == "short":
        cube = t(
            lang, "inline_cube_on" if offer.options.cube_enabled("short") else "inline_cube_off"
        )
    text = t(
        lang, "inline_title", variant=t(lang, f"variant_{offer.variant}"), length=length, cube=cube
    )
    return text[:1].upper() + text[1:]


def _link_result(
    lang: str, actor: Actor, offer: Offer, link: str, commitment: str | None
) -> InlineQueryResultArticle:
    """The invitation link as a result: the game then goes to both private chats."""
    text = t(
        lang,
        "inline_link_card",
        inviter=h(actor.name),
        variant=t(lang, f"variant_{offer.variant}") + length_text(lang, offer.match_length),
        link=link,
    )
    button = InlineKeyboardButton(text=t(lang, "btn_open_link"), url=link)
    return InlineQueryResultArticle(
        id=result_id(offer),
        title=t(lang, "inline_link_title", variant=_title(lang, offer)),
        description=t(lang, "inline_link_description"),
        input_message_content=InputTextMessageContent(
            message_text=with_commitment(lang, text, commitment)
        ),
        reply_markup=InlineKeyboardMarkup(inline_keyboard=[[button]]),
    )


def _card(
    lang: str,
    actor: Actor,
    offer: Offer,
    asked: Query,
    token: str,
    clock: MoveClock,
    commitment: str | None,
) -> tuple[str, InlineKeyboardMarkup, str]:
    """A challenge card's text, its buttons (Accept, and the dice fingerprint to copy) and
    the result's description."""
    whom = f"@{h(asked.username)}" if asked.username else t(lang, "inline_whom_anyone")
    text = t(
        lang,
        "inline_card",
        inviter=h(actor.name),
        whom=whom,
        variant=t(lang, f"variant_{offer.variant}"),
        length=length_text(lang, offer.match_length),
        rules=rules_text(lang, offer.variant, offer.options, clock),
    )
    accept = InlineKeyboardButton(
        text=t(lang, "btn_accept"), callback_data=LobbyCB(token=token, a=LobbyAct.ACCEPT).pack()
    )
    markup = InlineKeyboardMarkup(inline_keyboard=[[accept]])
    if commitment is not None:
        markup = with_copy_button(markup, lang, commitment)
    about = (
        t(lang, "inline_named", username=asked.username)
        if asked.username
        else t(lang, "inline_anyone")
    )
    return with_commitment(lang, text, commitment), markup, about


def _clock_of(options: Mapping[str, Any]) -> MoveClock:
    """The move clock an invitation's game will have (the lobby chose it)."""
    return clocks.split_options(options)[1] or clocks.default_clock(group=False)


async def _card_result(
    lang: str,
    actor: Actor,
    offer: Offer,
    asked: Query,
    token: str,
    clock: MoveClock,
    commitment: str | None,
    shows: Shows,
) -> InlineQueryResultUnion:
    """A challenge card as a result: a photo of the start (its file id; the picture is
    uploaded once per offer and language), or text when no chat can take the upload."""
    text, markup, about = _card(lang, actor, offer, asked, token, clock, commitment)
    options = start_options(
        lang,
        match_length=offer.match_length,
        cube=offer.options.cube_enabled(offer.variant),
        title=_title(lang, offer, cube_words=False),
    )
    position = get_variant(offer.variant).start_position()
    picture = await shows.inline.file_id(position, options, [actor.user_id])
    if picture is None:
        return InlineQueryResultArticle(
            id=result_id(offer),
            title=_title(lang, offer),
            description=about,
            input_message_content=InputTextMessageContent(message_text=text),
            reply_markup=markup,
        )
    return InlineQueryResultCachedPhoto(
        id=result_id(offer),
        photo_file_id=picture,
        title=_title(lang, offer),
        description=about,
        caption=text,
        reply_markup=markup,
    )


async def inline_query(
    query: InlineQuery,
    bot: Bot,
    games: GameService,
    challenges: InlineChallenges,
    shows: Shows,
    langs: Languages,
    update_id: int | None = None,
) -> None:
    """Offer the games as challenge cards, each an invitation with its dice committed."""
    me = await bot.me()
    actor = actor_of(query.from_user)
    # The sender's language: the one they chose with /lang, else their app's.
    language = await games.players.seen(actor, normalise_lang(query.from_user.language_code))
    if language is not None:
        langs.remember(actor.user_id, language)
    lang = await langs.of_chat(actor.user_id)
    asked = parse_query(query.query, bot_username=me.username, own_username=actor.username)
    seed = client_seed_of(query, update_id)
    cards: list[InlineQueryResultUnion] = []
    links: list[InlineQueryResultUnion] = []
    for offer in offers(asked):
        inv = await challenges.offer(
            actor, offer, invitee_username=asked.username, client_seed=seed
        )
        commitment = await invitation_commitment(games, inv.dice_seed_id)
        if offer.link:
            link = await create_start_link(bot, inv.token)
            links.append(_link_result(lang, actor, offer, link, commitment))
        else:
            cards.append(
                await _card_result(
                    lang, actor, offer, asked, inv.token, _clock_of(inv.options), commitment, shows
                )
            )
    button = None
    if any(isinstance(card, InlineQueryResultArticle) for card in cards):
        # no picture could be uploaded: starting the bot gives it a chat to upload to
        button = InlineQueryResultsButton(text=t(lang, "btn_open_bot"), start_parameter="inline")
    await query.answer(cards + links, cache_time=CACHE_SECONDS, is_personal=True, button=button)


async def chosen(result: ChosenInlineResult, bot: Bot, challenges: InlineChallenges) -> None:
    """A card was posted (inline feedback is on): never offer its invitation again."""
    offer = offer_of(result.result_id)
    if offer is None:
        return
    me = await bot.me()
    asked = parse_query(
        result.query, bot_username=me.username, own_username=result.from_user.username
    )
    challenges.posted(result.from_user.id, offer, asked.username)


async def accept(
    query: CallbackQuery,
    callback_data: LobbyCB,
    lang: str,
    lobby: Lobby,
    games: GameService,
    shows: Shows,
    update_id: int | None = None,
) -> None:
    """Accept on a card: the game starts in this inline message."""
    inline_id = query.inline_message_id
    assert inline_id is not None
    actor = actor_of(query.from_user)
    try:
        snap = await lobby.accept(
            callback_data.token,
            actor,
            client_seed=client_seed_of(query, update_id),
            inline_message_id=inline_id,
        )
    except Refused as refused:
        await query.answer(refusals.refusal_text(lang, refused), show_alert=True)
        closed = (Refusal.INVITE_CLOSED, Refusal.INVITE_EXPIRED, Refusal.INVITE_UNKNOWN)
        if refused.refusal in closed and await games.find_inline(inline_id) is None:
            await shows.inline.say(inline_id, t(lang, "inline_closed"))
        return
    await query.answer()
    await shows.show_new(snap)


async def pick(
    query: CallbackQuery, callback_data: GameCB, lang: str, snap: Snapshot, shows: Shows
) -> None:
    """A point tapped on an inline board: show its destinations there (nothing changes)."""
    try:
        point = point_of(snap, callback_data)
    except ValueError:
        await query.answer(t(lang, "outdated"))
        return
    await query.answer()
    target = Target(0, inline_id=query.inline_message_id)
    await shows.pick(snap, target, 0, point)


def router() -> Router:
    """The inline router; it must come before the lobby and play routers, whose handlers
    expect a message under the button."""
    r = Router(name="inline")
    r.inline_query.register(inline_query)
    r.chosen_inline_result.register(chosen)
    from_inline = F.inline_message_id.is_not(None)
    r.callback_query.register(accept, LobbyCB.filter(F.a == LobbyAct.ACCEPT), from_inline)
    r.callback_query.register(
        pick,
        GameCB.filter(F.a.in_({Act.PICK, Act.BACK})),
        from_inline,
        flags={"tap": "turn", "claim": "none"},
    )
    return r
