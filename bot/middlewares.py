"""Middlewares: what every update needs before its handler, so handlers stay thin.

* :class:`Updates` (outer, per update): a redelivered update id seen by this process is
  dropped at once; the id goes into the handler's data;
* :class:`Context` (outer, messages and buttons): who acts (:class:`gameplay.Actor`, with
  their current name), where (:class:`gameplay.Place`, with its kind) and ``lang``;
* :class:`Claim` (inner, after the handler is chosen): updates that change something other
  than a game's state claim their id in storage first, so they act once even across a
  restart. Handlers flagged ``claim="save"`` claim it in the save they cause instead (one
  write per tap), and ``claim="none"`` handlers change nothing, so a redelivery only shows
  the same thing again;
* :class:`GameTap` (inner, board buttons): loads the game once for the tap and answers an
  outdated board, a finished game, a stranger or a tap out of turn before any handler runs.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.dispatcher.flags import get_flag
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import CallbackQuery, Chat, Message, TelegramObject, Update, User

from bot import refusals
from bot.boards import Picker
from bot.callbacks import GameCB
from bot.languages import Languages
from bot.texts import DEFAULT_LANG, normalise_lang
from gameplay import Actor, ChatKind, GameService, Place, Refusal, Refused
from storage.recent import Recent

log = logging.getLogger(__name__)
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class Updates(BaseMiddleware):
    """Drops an update id this process has already seen (a webhook retry, a redelivery)."""

    def __init__(self, limit: int = 10_000) -> None:
        self._seen: Recent[int, bool] = Recent(limit)
        self.duplicates = 0

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        if isinstance(event, Update):
            if self._seen.get(event.update_id) is not None:
                self.duplicates += 1
                log.info("update %s was already seen; ignored", event.update_id)
                return None
            self._seen[event.update_id] = True
            data["update_id"] = event.update_id
        return await handler(event, data)


def display_name(user: User) -> str:
    name = " ".join(p for p in (user.first_name, user.last_name) if p)
    return name or (user.username or str(user.id))


def actor_of(user: User) -> Actor:
    """The game layer's view of a Telegram user: id and current name."""
    return Actor(user.id, display_name(user), user.username)


def chat_kind(chat: Chat) -> ChatKind:
    if chat.type == "private":
        return ChatKind.PRIVATE
    return ChatKind.FORUM if chat.is_forum else ChatKind.GROUP


def place_of(message: Message) -> Place:
    """Where a message is: its chat, forum topic and the chat's kind."""
    thread = message.message_thread_id if message.is_topic_message else None
    return Place(message.chat.id, thread or 0, chat_kind(message.chat))


class Context(BaseMiddleware):
    """Reports the person and the chat to the game layer (it writes only what changed) and
    puts ``actor``, ``place`` and ``lang`` (the chat's language) into the handler's data."""

    def __init__(self, games: GameService, langs: Languages) -> None:
        self.games = games
        self.langs = langs

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user: User | None = None
        message: Message | None = None
        if isinstance(event, Message):
            user, message = event.from_user, event
        elif isinstance(event, CallbackQuery):
            user = event.from_user
            message = event.message if isinstance(event.message, Message) else None
        if user is not None and not user.is_bot:
            actor = actor_of(user)
            data["actor"] = actor
            language = await self.games.players.seen(actor, normalise_lang(user.language_code))
            if language is not None:
                self.langs.remember(user.id, language)
        if message is not None:
            chat = message.chat
            await self.games.chats.seen(chat.id, chat.type, chat.title)
            data["place"] = place_of(message)
            if message.ephemeral_message_id is not None and user is not None:
                # a tap in a private picker: only its user reads the answer
                data["lang"] = await self.langs.of_chat(user.id)
            else:
                data["lang"] = await self.langs.of_chat(chat.id)
        elif user is not None:
            data["lang"] = await self.langs.of_chat(user.id)
        else:
            data["lang"] = DEFAULT_LANG
        return await handler(event, data)


class Claim(BaseMiddleware):
    """Claims the update in storage before a handler that changes something outside a
    game's state (see the module doc); a claimed id is acknowledged and ignored."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.duplicates = 0

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        update_id = data.get("update_id")
        claim_first = update_id is not None and get_flag(data, "claim") not in ("save", "none")
        if claim_first and not await self.games.claim_update(update_id):
            self.duplicates += 1
            log.info("update %s was already processed; ignored", update_id)
            return None
        return await handler(event, data)


class GameTap(BaseMiddleware):
    """Board buttons: the game is loaded once, into ``snap``, and checked here.

    The handler's ``tap`` flag says what the button needs: ``"turn"`` the player to act,
    ``"anytime"`` either player (resigning), ``"load"`` only the game.
    """

    def __init__(self, games: GameService) -> None:
        self.games = games

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        need = get_flag(data, "tap")
        cb = data.get("callback_data")
        if need is None or not isinstance(event, CallbackQuery) or not isinstance(cb, GameCB):
            return await handler(event, data)
        try:
            data["snap"] = await self.games.load_for_tap(
                cb.game,
                event.from_user.id,
                cb.v,
                anytime=need == "anytime",
                check=need != "load",
            )
        except Refused as refused:
            await self._refused(event, cb, data, refused)
            return None
        return await handler(event, data)

    async def _refused(
        self, event: CallbackQuery, cb: GameCB, data: dict[str, Any], refused: Refused
    ) -> None:
        """Answer the refusal. A tap the board has outgrown may also be a redelivery of a tap
        that was saved (its worker died before showing it, and the redelivery reached another
        one): if its update was processed already, the boards are shown as stored, which the
        worker that saved it could not do."""
        update_id = data.get("update_id")
        stale = refused.refusal in (Refusal.OUTDATED, Refusal.GAME_OVER)
        try:
            await refusals.answer_tap(event, data.get("lang", DEFAULT_LANG), refused)
        except TelegramBadRequest:
            if not stale:  # "query is too old": a redelivered tap, answered before
                raise
        # An outdated tap changes nothing, so claiming its update costs nothing.
        shows = data.get("shows")
        redelivered = (
            stale and update_id is not None and not await self.games.claim_update(update_id)
        )
        if not stale or shows is None:
            return
        message = event.message
        in_picker = isinstance(message, Message) and message.ephemeral_message_id is not None
        if redelivered or (not in_picker and not shows.boards.sole_writer):
            # With several workers a board can be behind the stored game (an edit that lost
            # to a slower one, a worker that died before editing): whoever taps it sees it
            # brought up to date. One process shows every change it saves...
            await shows.show_stored(cb.game)
        elif not in_picker and refused.refusal is Refusal.GAME_OVER:
            # ...unless showing a finish failed after it was saved: the match's next game,
            # stored with the finish, has no board then (a polled update is confirmed as the
            # next ones are fetched: after a crash it is not delivered again).
            await shows.show_unshown_next(cb.game)
        if in_picker:  # a group mover's picker behind the game: brought up to date
            assert isinstance(message, Message) and message.ephemeral_message_id is not None
            picker = Picker(message.chat.id, event.from_user.id, message.ephemeral_message_id)
            await shows.refresh_picker(cb.game, picker)
