"""Showing games in chats: a snapshot becomes boards and notices in every chat that shows it.

A game is shown in one message per chat: the group's, or each player's private chat. A turn
edits those messages in place. Edits do not notify anybody, so when the turn passes to a
person who did not just act, one short notice ("your move") is sent to them and the previous
notice of that game in that chat is deleted: at most one new message per turn, and the chat
keeps one board and at most one notice per game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from aiogram.types import InlineKeyboardMarkup

from bot.boards import Board, Boards, ChatGone, Target
from bot.languages import Languages
from bot.outbox import Outbox
from bot.presenter import ChatView, board_view, mention, short_name
from bot.texts import h, t
from gameplay import GameService, Snapshot

log = logging.getLogger(__name__)


class Shows:
    """Publishes snapshots of games (through :class:`~bot.boards.Boards`)."""

    def __init__(self, boards: Boards, games: GameService, langs: Languages) -> None:
        self.boards = boards
        self.games = games
        self.langs = langs

    @property
    def outbox(self) -> Outbox:
        """The publishing outbox, for the handlers' own messages."""
        return self.boards.outbox

    def initial_targets(self, snap: Snapshot) -> list[Target]:
        """Where a new game is shown: its group, or each human player's private chat."""
        row = snap.row
        if not Target(row.chat_id).private:
            return [Target(row.chat_id, row.thread_id)]
        return [Target(uid) for uid in snap.user_ids.values() if uid is not None]

    async def board(self, snap: Snapshot, target: Target, pick: int | None = None) -> Board:
        """The board ``target`` sees: its language, its owner's side and buttons."""
        lang = await self.langs.of_chat(target.chat_id)
        owner = target.chat_id if target.private else None
        bv = board_view(snap, ChatView(lang=lang, owner_user_id=owner, pick=pick))
        return Board(bv.caption, bv.keyboard, snap.game.current_position, bv.options)

    # ---- publish ----------------------------------------------------------------------------

    async def show_new(self, snap: Snapshot, targets: list[Target] | None = None) -> None:
        """Send the first board of a game to its chats."""
        for target in targets or self.initial_targets(snap):
            await self._send(snap, target)

    async def update(self, snap: Snapshot, *, actor_user_id: int | None) -> None:
        """Edit every board of the game to show ``snap``, start the next game of a match,
        and tell the person who must act now."""
        self.boards.shown(snap.game_id, snap.version)  # older notices are now stale
        targets = await self.boards.targets(snap.game_id)
        for target, message_id in targets:
            try:
                await self.boards.edit(
                    snap.game_id, target, message_id, await self.board(snap, target)
                )
            except ChatGone as gone:
                await self.blocked(snap, gone.target)
        if snap.next_game is not None:
            await self.show_new(snap.next_game, [t for t, _ in targets] or None)
            return
        await self.notify(snap, actor_user_id=actor_user_id)

    async def pick(
        self, snap: Snapshot, target: Target, message_id: int, point: int | None
    ) -> None:
        """Show the destinations of a tapped point (or go back) on one board: only the caption
        and the buttons change, so no picture is drawn — picking is the commonest tap."""
        board = await self.board(snap, target, point)
        try:
            await self.boards.edit(snap.game_id, target, message_id, board, picture=False)
        except ChatGone as gone:
            await self.blocked(snap, gone.target)

    async def refresh(self, snap: Snapshot) -> None:
        """Edit every board's caption and buttons, not its picture (the position is the
        same): the move clock ran out, or the game ended without a move."""
        self.boards.shown(snap.game_id, snap.version)
        for target, message_id in await self.boards.targets(snap.game_id):
            try:
                board = await self.board(snap, target)
                await self.boards.edit(snap.game_id, target, message_id, board, picture=False)
            except ChatGone as gone:
                await self.blocked(snap, gone.target)

    async def resend(self, snap: Snapshot, target: Target) -> None:
        """/board: a fresh board message in this chat (the old one is forgotten)."""
        await self._send(snap, target)

    async def _send(self, snap: Snapshot, target: Target) -> None:
        try:
            await self.boards.send(snap.game_id, target, await self.board(snap, target))
        except ChatGone as gone:
            await self.blocked(snap, gone.target)

    async def board_message(self, snap: Snapshot, chat_id: int) -> int | None:
        return await self.boards.board_in(snap.game_id, chat_id)

    # ---- notices ------------------------------------------------------------------------

    async def notify(self, snap: Snapshot, *, actor_user_id: int | None) -> None:
        """Tell the person who must act now, unless they just acted (see module doc)."""
        seat = snap.game.seat_to_act
        if seat is None or snap.ai_seat is not None:
            return
        uid = snap.user_ids.get(seat)
        if uid is None or uid == actor_user_id:
            return
        await self.tell_player(
            snap, uid, lambda lang, _: (t(lang, "notify_turn", name=mention(snap, seat)), None)
        )

    async def tell_player(
        self,
        snap: Snapshot,
        user_id: int,
        words: Callable[[str, Target], tuple[str, InlineKeyboardMarkup | None]],
    ) -> None:
        """A notice for one player under the game's board, replacing the game's previous
        notice there: in the group (the text mentions them) or in their own private chat.
        ``words(lang, target)`` gives the text and buttons in that chat's language."""
        for target, board_id in await self.boards.targets(snap.game_id):
            if target.private and target.chat_id != user_id:
                continue
            lang = await self.langs.of_chat(target.chat_id)
            text, markup = words(lang, target)
            try:
                await self.boards.notice(
                    snap.game_id, snap.version, target, text, board_id, reply_markup=markup
                )
            except ChatGone as gone:
                await self.blocked(snap, gone.target)

    # ---- a chat that is gone -----------------------------------------------------------------

    async def blocked(self, snap: Snapshot, target: Target) -> None:
        """The bot was blocked or removed: stop the game cleanly and tell the other player."""
        log.info("chat %s is gone; stopping game %s", target.chat_id, snap.game_id)
        await self.games.abandon(snap.game_id)
        if not target.private:
            return
        who = snap.seat_of_user(target.chat_id)
        name = short_name(snap.names[who]) if who is not None else "?"
        for uid in snap.user_ids.values():
            if uid is None or uid == target.chat_id:
                continue
            lang = await self.langs.of_chat(uid)
            await self.boards.tell(uid, t(lang, "paused_blocked", name=h(name)))
