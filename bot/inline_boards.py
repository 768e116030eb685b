"""Boards in inline-mode messages: pictures by ``file_id``, edits by ``inline_message_id``.

Telegram does not let a bot upload a new file into an inline message ("When an inline
message is edited, a new file can't be uploaded; use a previously uploaded file via its file_id
or specify a URL"). So a board picture is uploaded once to a chat the bot controls — the
``MEDIA_CHAT_ID`` chat if one is set (a private channel or group where the bot may post), else
the private chat of a player who has started the bot, where the message is deleted at once —
and the inline message is edited with that picture's ``file_id``. File ids are kept per
picture (the position and everything drawn on it), so a picture already uploaded is never
uploaded again: the opening position, a board redrawn after a failed edit, the pictures of the
challenge cards. When no chat can take the upload, the caption and buttons still change.

The bottom of the bot like :mod:`bot.boards`: it knows nothing of games; a message the bot can
no longer edit comes out as :class:`InlineLost` for the layer above.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zlib
from collections.abc import Sequence

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.types import BufferedInputFile, InputMediaPhoto

from bot.boards import Board
from bot.drawing import Painter
from bot.outbox import Outbox
from bot.session import EditCaptionUnread, EditMediaUnread
from engine import Position
from renderer.options import BoardOptions
from storage.recent import Recent

log = logging.getLogger(__name__)

NO_CAPTION = "there is no caption in the message to edit"


class InlineLost(Exception):
    """The inline message can no longer be edited: deleted, too old, or an edit failed for
    good (the outbox has already waited out rate limits and retried network errors)."""

    def __init__(self, inline_message_id: str) -> None:
        super().__init__(f"inline message {inline_message_id} can no longer be edited")
        self.inline_message_id = inline_message_id


def budget_key(inline_message_id: str) -> int:
    """The outbox budget of an inline message: a number no real chat has (group ids are
    above -10**13), negative so it gets a group's edit budget."""
    return -(2**50) - zlib.crc32(inline_message_id.encode())


class InlineBoards:
    """Uploads board pictures where it may and edits inline messages with their file ids."""

    def __init__(
        self,
        bot: Bot,
        outbox: Outbox,
        painter: Painter,
        *,
        media_chat_id: int | None = None,
        cache_size: int = 4096,
    ) -> None:
        self.bot = bot
        self.outbox = outbox
        self.painter = painter
        self.media_chat_id = media_chat_id
        self._file_ids: Recent[tuple[Position, BoardOptions], str] = Recent(cache_size)
        # People whose private chat refused an upload (never started the bot, blocked it):
        # not tried again for a while. Forgetting one only costs one more refused call.
        self._unreachable: Recent[int, bool] = Recent(cache_size)
        self.uploads = 0  # pictures uploaded (the rest came from the cache)
        self.cache_hits = 0

    async def file_id(
        self, position: Position, options: BoardOptions, uploaders: Sequence[int]
    ) -> str | None:
        """The picture's ``file_id``: known, or uploaded now to the media chat or to the first
        of ``uploaders`` (private chats) that takes it; None if none does."""
        key = (position, options)
        known = self._file_ids.get(key)
        if known is not None:
            self.cache_hits += 1
            return known
        image = await self.painter.draw(position, options)
        chats = [self.media_chat_id] if self.media_chat_id is not None else []
        chats.extend(u for u in uploaders if u not in chats and self._unreachable.get(u) is None)
        for chat_id in chats:
            photo = BufferedInputFile(image, filename="board.jpg")
            try:
                sent = await self.outbox.run(
                    chat_id,
                    lambda c=chat_id, p=photo: self.bot.send_photo(c, p, disable_notification=True),
                )
            except (TelegramBadRequest, TelegramForbiddenError) as exc:
                log.info("cannot upload a board picture to chat %s: %s", chat_id, exc)
                if chat_id != self.media_chat_id:
                    self._unreachable[chat_id] = True
                continue
            if sent is None or not sent.photo:
                continue
            if chat_id != self.media_chat_id:  # a player's chat keeps no stray picture
                with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
                    await self.outbox.run(chat_id, lambda m=sent: m.delete(), kind="edit")
            self.uploads += 1
            file_id = sent.photo[-1].file_id
            self._file_ids[key] = file_id
            return file_id
        return None

    async def edit(
        self,
        inline_message_id: str,
        board: Board,
        uploaders: Sequence[int],
        *,
        picture: bool,
        version: int,
    ) -> None:
        """Show ``board`` (the game at ``version``) in the inline message: the picture too
        (by file id) unless ``picture`` is False or no chat could take its upload. Raises
        :class:`InlineLost`."""
        key = budget_key(inline_message_id)
        ticket: int | None = None
        file_id: str | None = None
        if picture:
            ticket, file_id = await asyncio.gather(
                self.outbox.ticket(key, 0, version),
                self.file_id(board.position, board.options, uploaders),
            )

        async def call() -> object:
            if file_id is not None:
                return await self.bot(
                    EditMediaUnread(
                        media=InputMediaPhoto(media=file_id, caption=board.caption),
                        inline_message_id=inline_message_id,
                        reply_markup=board.keyboard,
                    )
                )
            try:
                return await self.bot(
                    EditCaptionUnread(
                        inline_message_id=inline_message_id,
                        caption=board.caption,
                        reply_markup=board.keyboard,
                    )
                )
            except TelegramBadRequest as exc:  # still the text card: no picture to keep
                if NO_CAPTION not in exc.message:
                    raise
                return await self.bot.edit_message_text(
                    board.caption,
                    inline_message_id=inline_message_id,
                    reply_markup=board.keyboard,
                )

        try:
            await self.outbox.edit(key, 0, call, ticket=ticket, version=version)
        except TelegramAPIError as exc:
            log.warning("inline message %s: edit failed: %s", inline_message_id, exc)
            raise InlineLost(inline_message_id) from None

    async def say(self, inline_message_id: str, text: str) -> None:
        """Replace the inline message's caption (or text) and drop its buttons, if it can
        still be edited (a card no longer open, a game gone elsewhere)."""
        key = budget_key(inline_message_id)
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
            try:
                await self.outbox.run(
                    key,
                    lambda: self.bot(
                        EditCaptionUnread(inline_message_id=inline_message_id, caption=text)
                    ),
                    kind="edit",
                )
            except TelegramBadRequest as exc:
                if NO_CAPTION not in exc.message:
                    raise
                await self.outbox.run(
                    key,
                    lambda: self.bot.edit_message_text(text, inline_message_id=inline_message_id),
                    kind="edit",
                )
