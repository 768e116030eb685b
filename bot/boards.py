"""Showing games in chats: send, edit and re-send board messages, notify the player to move.

A game is shown in one message per chat: the group's, or each player's private chat. A turn
edits those messages in place. Edits do not notify anybody, so when the turn passes to a
person who did not just act, one short notice ("your move") is sent to them and the previous
notice of that game in that chat is deleted: at most one new message per turn, and the chat
keeps one board and at most one notice per game.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import BufferedInputFile, InputMediaPhoto, Message

import storage
from bot.drawing import Painter
from bot.gameplay import GameService, Snapshot
from bot.outbox import Outbox
from bot.presenter import BoardView, ChatView, board_view, mention, short_name
from bot.recent import Recent
from bot.session import EditCaptionUnread, EditMediaUnread
from bot.texts import DEFAULT_LANG, h, normalise_lang, t

log = logging.getLogger(__name__)

GONE = (
    "message to edit not found",
    "message can't be edited",
    "MESSAGE_ID_INVALID",
    "message to delete not found",
)


@dataclass(frozen=True, slots=True)
class Target:
    """A chat (and forum topic) where a game is shown."""

    chat_id: int
    thread_id: int = 0

    @property
    def private(self) -> bool:
        return self.chat_id > 0


class Languages:
    """The language of each chat: a private chat speaks its user's language, a group its own."""

    def __init__(self, store: storage.Storage) -> None:
        self.store = store
        self._cache: Recent[int, str] = Recent(100_000)

    def remember(self, chat_id: int, lang: str) -> None:
        self._cache[chat_id] = lang

    async def of_chat(self, chat_id: int) -> str:
        lang = self._cache.get(chat_id)
        if lang is not None:
            return lang
        lang = DEFAULT_LANG
        try:
            if chat_id > 0:
                user = await self.store.get_user(chat_id)
                lang = normalise_lang(user.language)
            else:
                chat = await self.store.get_chat(chat_id)
                lang = normalise_lang(chat.language)
        except storage.NotFoundError:
            pass
        self._cache[chat_id] = lang
        return lang


class Boards:
    """Publishes snapshots of games to every chat that shows them."""

    def __init__(
        self,
        bot: Bot,
        store: storage.Storage,
        outbox: Outbox,
        games: GameService,
        langs: Languages,
        *,
        painter: Painter | None = None,
        hints_everywhere: bool = False,
    ) -> None:
        self.bot = bot
        self.store = store
        self.outbox = outbox
        self.games = games
        self.langs = langs
        self.hints_everywhere = hints_everywhere
        self.painter = painter or Painter(0)
        self._messages: Recent[int, list[storage.GameMessage]] = Recent(4096)

    # ---- where --------------------------------------------------------------------------

    def initial_targets(self, snap: Snapshot) -> list[Target]:
        """Where a new game is shown: its group, or each human player's private chat."""
        row = snap.row
        if row.chat_id < 0:
            return [Target(row.chat_id, row.thread_id)]
        return [Target(uid) for uid in snap.user_ids.values() if uid is not None]

    async def messages(self, game_id: int) -> list[storage.GameMessage]:
        """The messages that show a game (boards and notices), from memory when known.

        They are read on every tap and change only here (:meth:`_keep_message`), so after the
        first read the stored list is kept in step with the database instead of read again.
        """
        known = self._messages.get(game_id)
        if known is None:
            known = await self.store.get_game_messages(game_id)
            self._messages[game_id] = known
        return list(known)

    async def _keep_message(
        self, game_id: int, chat_id: int, message_id: int, *, thread_id: int, kind: str
    ) -> None:
        stored = await self.store.set_game_message(
            game_id, chat_id, message_id, thread_id=thread_id, kind=kind
        )
        known = self._messages.get(game_id)
        if known is None:
            return
        self._messages[game_id] = [
            m
            for m in known
            if (m.chat_id, m.thread_id, m.kind) != (stored.chat_id, stored.thread_id, stored.kind)
        ] + [stored]

    async def targets(self, snap: Snapshot) -> list[tuple[Target, int | None]]:
        messages = await self.messages(snap.row.game_id)
        return [
            (Target(m.chat_id, m.thread_id), m.message_id) for m in messages if m.kind == "board"
        ]

    def view_for(
        self, snap: Snapshot, target: Target, lang: str, pick: int | None = None
    ) -> ChatView:
        owner = target.chat_id if target.private else None
        return ChatView(lang=lang, owner_user_id=owner, pick=pick)

    # ---- publish ----------------------------------------------------------------------------

    async def show_new(self, snap: Snapshot, targets: list[Target] | None = None) -> None:
        """Send the first board of a game to its chats (and notify the first mover)."""
        for target in targets or self.initial_targets(snap):
            await self._send_board(snap, target)

    async def update(
        self,
        snap: Snapshot,
        *,
        actor_user_id: int | None,
        pick: tuple[int, int] | None = None,
    ) -> None:
        """Edit every board of the game to show ``snap``; ``pick`` = (chat id, point) shows the
        destinations of a chosen point in that chat."""
        self.outbox.shown(snap.row.game_id, snap.version)  # older notices are now stale
        targets = await self.targets(snap)
        for target, message_id in targets:
            point = pick[1] if pick is not None and pick[0] == target.chat_id else None
            if message_id is None:
                await self._send_board(snap, target, point)
            else:
                await self._edit_board(snap, target, message_id, point)
        if snap.next_row is not None:
            nxt = await self.games.snapshot(snap.next_row)
            await self.show_new(nxt, [t for t, _ in targets] or None)
            return
        if pick is None:
            await self.notify(snap, actor_user_id=actor_user_id)

    async def edit_one(
        self, snap: Snapshot, target: Target, message_id: int, point: int | None
    ) -> None:
        """Show the destinations of a tapped point (or go back) on one board: only the caption
        and the buttons change, so no picture is drawn — picking is the commonest tap."""
        ticket = self.outbox.ticket(target.chat_id, message_id)
        bv = board_view(snap, await self._view(snap, target, point), hints=self._hints(snap))
        await self._edit(
            snap,
            target,
            message_id,
            point,
            ticket,
            lambda: self.bot(
                EditCaptionUnread(
                    chat_id=target.chat_id,
                    message_id=message_id,
                    caption=bv.caption,
                    reply_markup=bv.keyboard,
                )
            ),
        )

    async def resend(self, snap: Snapshot, target: Target) -> None:
        """/board: a fresh board message in this chat (the old one is forgotten)."""
        await self._send_board(snap, target)

    def _hints(self, snap: Snapshot) -> bool:
        return snap.ai_seat is not None or self.hints_everywhere

    async def _view(self, snap: Snapshot, target: Target, point: int | None) -> ChatView:
        lang = await self.langs.of_chat(target.chat_id)
        return self.view_for(snap, target, lang, point)

    async def _content(
        self, snap: Snapshot, target: Target, point: int | None
    ) -> tuple[BoardView, bytes]:
        bv = board_view(snap, await self._view(snap, target, point), hints=self._hints(snap))
        image = await self.painter.draw(snap.game.current_position, bv.options)
        return bv, image

    async def _send_board(self, snap: Snapshot, target: Target, point: int | None = None) -> None:
        bv, image = await self._content(snap, target, point)
        photo = BufferedInputFile(image, filename=f"board-{snap.row.game_id}.jpg")
        try:
            msg: Message | None = await self.outbox.run(
                target.chat_id,
                lambda: self.bot.send_photo(
                    target.chat_id,
                    photo,
                    caption=bv.caption,
                    reply_markup=bv.keyboard,
                    message_thread_id=target.thread_id or None,
                ),
            )
        except TelegramForbiddenError:
            await self.blocked(snap, target)
            return
        if msg is not None:
            await self._keep_message(
                snap.row.game_id,
                target.chat_id,
                msg.message_id,
                thread_id=target.thread_id,
                kind="board",
            )

    async def _edit_board(
        self, snap: Snapshot, target: Target, message_id: int, point: int | None
    ) -> None:
        ticket = self.outbox.ticket(target.chat_id, message_id)
        bv, image = await self._content(snap, target, point)
        media = InputMediaPhoto(
            media=BufferedInputFile(image, filename=f"board-{snap.row.game_id}.jpg"),
            caption=bv.caption,
        )
        await self._edit(
            snap,
            target,
            message_id,
            point,
            ticket,
            lambda: self.bot(
                EditMediaUnread(
                    media=media,
                    chat_id=target.chat_id,
                    message_id=message_id,
                    reply_markup=bv.keyboard,
                )
            ),
        )

    async def _edit(
        self,
        snap: Snapshot,
        target: Target,
        message_id: int,
        point: int | None,
        ticket: int,
        call: Callable[[], Awaitable[object]],
    ) -> None:
        """Run one board edit: skipped if a newer state of the message was asked for since
        ``ticket``; a board deleted by the user is sent again; a blocked bot stops the game."""
        try:
            await self.outbox.run(
                target.chat_id,
                call,
                skip=lambda: self.outbox.overtaken(target.chat_id, message_id, ticket),
                kind="edit",
            )
        except TelegramForbiddenError:
            await self.blocked(snap, target)
        except TelegramBadRequest as exc:
            if any(g in exc.message for g in GONE):
                await self._send_board(snap, target, point)
            else:
                raise

    # ---- notices -----------------------------------------------------------------------------

    async def notify(self, snap: Snapshot, *, actor_user_id: int | None) -> None:
        """Tell the person who must act now, unless they just acted (see module doc)."""
        game = snap.game
        seat = game.seat_to_act
        if seat is None:
            return
        uid = snap.user_ids.get(seat)
        if uid is None or uid == actor_user_id:
            return
        if snap.ai_seat is not None:
            return
        targets = await self.targets(snap)
        for target, board_id in targets:
            if target.private and target.chat_id != uid:
                continue
            lang = await self.langs.of_chat(target.chat_id)
            text = t(lang, "notify_turn", name=mention(snap, seat))
            await self._replace_notice(snap, target, text, board_id)

    async def _replace_notice(
        self, snap: Snapshot, target: Target, text: str, board_id: int | None
    ) -> None:
        old = [
            m
            for m in await self.messages(snap.row.game_id)
            if m.kind == "notice" and m.chat_id == target.chat_id
        ]
        try:
            msg = await self.outbox.run(
                target.chat_id,
                lambda: self.bot.send_message(
                    target.chat_id,
                    text,
                    message_thread_id=target.thread_id or None,
                    reply_to_message_id=board_id,
                    allow_sending_without_reply=True,
                ),
                skip=lambda: self.outbox.moved_on(snap.row.game_id, snap.version),
            )
        except TelegramForbiddenError:
            await self.blocked(snap, target)
            return
        if msg is None:
            return
        await self._keep_message(
            snap.row.game_id,
            target.chat_id,
            msg.message_id,
            thread_id=target.thread_id,
            kind="notice",
        )
        for m in old:
            with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
                await self.outbox.run(
                    target.chat_id,
                    lambda m=m: self.bot.delete_message(m.chat_id, m.message_id),
                    kind="edit",
                )

    # ---- a chat that is gone -----------------------------------------------------------------

    async def blocked(self, snap: Snapshot, target: Target) -> None:
        """The bot was blocked or removed: stop the game cleanly and tell the other player."""
        log.info("chat %s is gone; stopping game %s", target.chat_id, snap.row.game_id)
        try:
            await self.games.abandon(snap.row.game_id)
        except storage.StorageError:
            log.exception("could not abandon game %s", snap.row.game_id)
        if not target.private:
            return
        who = snap.seat_of_user(target.chat_id)
        name = short_name(snap.names[who]) if who is not None else "?"
        for uid in snap.user_ids.values():
            if uid is None or uid == target.chat_id:
                continue
            lang = await self.langs.of_chat(uid)
            with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
                await self.outbox.run(
                    uid,
                    lambda uid=uid, lang=lang: self.bot.send_message(
                        uid, t(lang, "paused_blocked", name=h(name))
                    ),
                )
