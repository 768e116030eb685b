"""Publishing board messages: send, edit and re-send them, post and replace notices.

The bottom of the bot: it knows Telegram messages, the outbox (send budgets, 429s, newer
edits overtaking older ones), the drawing processes and which messages show which game
(stored, and kept in memory after the first read). It knows nothing of games, handlers or
the game layer: what a board says comes in as a :class:`Board`; a chat that blocked the bot
comes out as :class:`ChatGone` for the layer above to act on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.types import (
    BufferedInputFile,
    EphemeralMessageParameters,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
)

import storage
from bot.drawing import Painter
from bot.outbox import Outbox
from bot.session import EditCaptionUnread, EditMediaUnread
from engine import Position
from renderer.options import BoardOptions
from storage.recent import Recent

log = logging.getLogger(__name__)

#: Pictures drawn ahead (:meth:`Boards.prepare`) are kept until used, at most this many (one
#: JPEG is ~110 KB; a game has at most one waiting, for as long as its mover thinks).
PREPARED = 128
#: What a picture is drawn from: two equal ones are the same picture.
_Picture = tuple[Position, BoardOptions]

GONE = (
    "message to edit not found",
    "message can't be edited",
    "MESSAGE_ID_INVALID",
    "message to delete not found",
)


@dataclass(frozen=True, slots=True)
class Target:
    """A chat (and forum topic) where a game is shown, or an inline-mode message
    (``inline_id``; ``chat_id`` is then 0: the bot may not know that chat)."""

    chat_id: int
    thread_id: int = 0
    inline_id: str | None = None

    @property
    def private(self) -> bool:
        """Telegram's convention: a private chat has its user's (positive) id."""
        return self.inline_id is None and self.chat_id > 0


@dataclass(frozen=True, slots=True)
class Board:
    """One board message: its caption and buttons, and the position with its picture options
    (drawn only when the picture is sent or replaced)."""

    caption: str
    keyboard: InlineKeyboardMarkup | None
    position: Position
    options: BoardOptions


@dataclass(frozen=True, slots=True)
class Picker:
    """A mover's private picker: an ephemeral message in a group, seen by ``receiver`` only."""

    chat_id: int
    receiver: int
    ephemeral_id: int


def _shows(picker: Picker) -> tuple[int, int, int]:
    """A picker's key among the pictures remembered as shown (its ephemeral id alone is not
    unique: each chat counts its own)."""
    return picker.chat_id, picker.receiver, picker.ephemeral_id


class PickerFailed(Exception):
    """An ephemeral picker could not be sent or changed (refused, expired, deleted); the
    layer above re-sends it or falls back to buttons on the shared board."""


class ChatGone(Exception):
    """The bot was blocked in (or removed from) ``target``."""

    def __init__(self, target: Target) -> None:
        super().__init__(f"chat {target.chat_id} is gone")
        self.target = target


class Boards:
    """Sends and edits the messages that show games."""

    def __init__(
        self,
        bot: Bot,
        store: storage.Storage,
        outbox: Outbox,
        painter: Painter | None = None,
        *,
        sole_writer: bool = True,
    ) -> None:
        """``sole_writer`` False: other processes send boards of the same games (several
        workers on one database), so the stored list of a game's messages is read every time
        instead of remembered."""
        self.bot = bot
        self.store = store
        self.outbox = outbox
        self.painter = painter or Painter(0)
        self._messages: Recent[int, list[storage.GameMessage]] = Recent(
            4096, max_age=None if sole_writer else 0
        )
        self._prepared: Recent[tuple[Position, BoardOptions], asyncio.Future[bytes]] = Recent(
            PREPARED
        )
        #: The picture each private picker or view shows, once Telegram has taken it: an
        #: edit whose picture is the same (whole plays or step by step chosen, a picker
        #: brought up to date that was) changes only the caption and buttons — nothing is
        #: drawn or uploaded. Another worker may change a picker's picture: not with several.
        #: Keyed by chat, receiver and ephemeral id (each chat counts its ephemeral ids).
        self._picker_pictures: Recent[tuple[int, int, int], _Picture] = Recent(
            4096, max_age=None if sole_writer else 0
        )
        self.sole_writer = sole_writer

    # ---- which messages ---------------------------------------------------------------------

    async def messages(self, game_id: int) -> list[storage.GameMessage]:
        """The messages that show a game (boards and notices), from memory when known.

        They are read on every tap and change only here (:meth:`_keep`), so after the first
        read the stored list is kept in step with the database instead of read again.
        """
        known = self._messages.get(game_id)
        if known is None:
            known = await self.store.get_game_messages(game_id)
            self._messages[game_id] = known
        return list(known)

    async def targets(self, game_id: int) -> list[tuple[Target, int]]:
        """Each chat's board message of the game."""
        return [
            (Target(m.chat_id, m.thread_id), m.message_id)
            for m in await self.messages(game_id)
            if m.kind == "board"
        ]

    async def board_in(self, game_id: int, chat_id: int) -> int | None:
        """The game's board message in a chat, if it has one."""
        for target, message_id in await self.targets(game_id):
            if target.chat_id == chat_id:
                return message_id
        return None

    async def _keep(self, game_id: int, target: Target, message_id: int, kind: str) -> None:
        stored = await self.store.set_game_message(
            game_id, target.chat_id, message_id, thread_id=target.thread_id, kind=kind
        )
        known = self._messages.get(game_id)
        if known is None:
            return
        self._messages[game_id] = [
            m
            for m in known
            if (m.chat_id, m.thread_id, m.kind) != (stored.chat_id, stored.thread_id, stored.kind)
        ] + [stored]

    # ---- boards -------------------------------------------------------------------------

    def prepare(self, board: Board) -> None:
        """Start drawing ``board``'s picture now, for a message about to be wanted (the next
        mover's picker, while they think): the tap that shows it then only sends it. The
        drawing process does the same work, earlier; a picture never asked for is dropped.
        Not with several workers: the tap that wants it may go to another one, which would
        draw it again."""
        if not self.sole_writer:
            return
        self._start_drawing(board, self.painter.draw_ahead)

    def draw_soon(self, board: Board) -> None:
        """Start drawing ``board``'s picture now, for an edit this task makes next, after
        something slow in between (a save, a picker's closing): the edit finds it drawn.
        Unlike :meth:`prepare`, it is wanted at once, by this worker."""
        self._start_drawing(board, self.painter.draw)

    def _start_drawing(
        self, board: Board, draw: Callable[[Position, BoardOptions], Awaitable[bytes]]
    ) -> None:
        key = (board.position, board.options)
        if key in self._prepared:
            return
        drawing = asyncio.ensure_future(draw(board.position, board.options))
        # A failure is seen (and the board drawn again) by whoever asks for it, if anyone.
        drawing.add_done_callback(lambda done: done.cancelled() or done.exception())
        self._prepared[key] = drawing

    async def _picture(self, game_id: int, board: Board) -> BufferedInputFile:
        image = None
        drawing = self._prepared.pop((board.position, board.options), None)
        if drawing is not None and not drawing.cancelled():
            if not drawing.done():
                self.painter.hurry(board.position, board.options)
            try:
                image = await asyncio.shield(drawing)
            except asyncio.CancelledError:
                if not drawing.cancelled():
                    raise  # this tap's own task is cancelled, not the drawing
            except Exception:  # drawn again below, where a lasting error is raised
                image = None
        if image is None:
            image = await self.painter.draw(board.position, board.options)
        return BufferedInputFile(image, filename=f"board-{game_id}.jpg")

    async def send(self, game_id: int, target: Target, board: Board) -> None:
        """A new board message in ``target`` (it replaces the chat's previous one)."""
        photo = await self._picture(game_id, board)
        try:
            msg: Message | None = await self.outbox.run(
                target.chat_id, self._photo_call(target, photo, board)
            )
        except TelegramForbiddenError:
            raise ChatGone(target) from None
        if msg is not None:
            await self._keep(game_id, target, msg.message_id, "board")

    def _photo_call(
        self,
        target: Target,
        photo: BufferedInputFile,
        board: Board,
        ephemeral: EphemeralMessageParameters | None = None,
    ) -> Callable[[], Awaitable[Message]]:
        """The one way a board picture is sent: to the chat (and topic) of ``target``, with
        the board's caption and buttons; ``ephemeral`` makes it a private picker or view."""
        return lambda: self.bot.send_photo(
            target.chat_id,
            photo,
            caption=board.caption,
            reply_markup=board.keyboard,
            message_thread_id=target.thread_id or None,
            ephemeral_message_parameters=ephemeral,
        )

    async def edit(
        self,
        game_id: int,
        target: Target,
        message_id: int,
        board: Board,
        *,
        picture: bool = True,
        version: int,
    ) -> None:
        """Show ``board``, the game at ``version``, in the existing message: the picture too,
        or (``picture`` False, as when a checker is picked) only the caption and buttons —
        nothing is drawn then.

        Skipped if a newer state of the message was asked for meanwhile: one of a newer
        version whenever it was asked (a slow worker's edit from an older state must not
        cover it), or a later one of the same version. A message the user deleted is sent
        again."""
        ticket: int | None = None
        call: Callable[[], Awaitable[object]]
        if picture:
            # The ticket is taken while the picture is drawn (a newer state asked meanwhile
            # gets a larger one); an edit of the caption takes it with the budget.
            ticket, photo = await asyncio.gather(
                self.outbox.ticket(target.chat_id, message_id, version),
                self._picture(game_id, board),
            )
            media = InputMediaPhoto(media=photo, caption=board.caption)

            def call() -> Awaitable[object]:
                return self.bot(
                    EditMediaUnread(
                        media=media,
                        chat_id=target.chat_id,
                        message_id=message_id,
                        reply_markup=board.keyboard,
                    )
                )
        else:

            def call() -> Awaitable[object]:
                return self.bot(
                    EditCaptionUnread(
                        chat_id=target.chat_id,
                        message_id=message_id,
                        caption=board.caption,
                        reply_markup=board.keyboard,
                    )
                )

        try:
            await self.outbox.edit(target.chat_id, message_id, call, ticket=ticket, version=version)
        except TelegramForbiddenError:
            raise ChatGone(target) from None
        except TelegramBadRequest as exc:
            if not any(g in exc.message for g in GONE):
                raise
            await self.send(game_id, target, board)

    # ---- notices ------------------------------------------------------------------------

    async def shown(self, game_id: int, version: int) -> None:
        """The game is being shown at ``version``: notices made for older versions are stale."""
        await self.outbox.shown(game_id, version)

    async def notice(
        self,
        game_id: int,
        version: int,
        target: Target,
        text: str,
        reply_to: int | None,
        *,
        reply_markup: InlineKeyboardMarkup | None = None,
    ) -> None:
        """Post a short notice (under the board) and delete the game's previous notice in
        that chat, so a chat keeps at most one. Skipped if the game has been shown at a newer
        version by the time the chat's budget lets it go (the notice would be stale)."""
        old = [
            m
            for m in await self.messages(game_id)
            if m.kind == "notice" and m.chat_id == target.chat_id
        ]
        try:
            msg = await self.outbox.run(
                target.chat_id,
                lambda: self.bot.send_message(
                    target.chat_id,
                    text,
                    message_thread_id=target.thread_id or None,
                    reply_to_message_id=reply_to,
                    allow_sending_without_reply=True,
                    reply_markup=reply_markup,
                ),
                skip=lambda: self.outbox.moved_on(game_id, version),
            )
        except TelegramForbiddenError:
            raise ChatGone(target) from None
        if msg is None:
            return
        await self._keep(game_id, target, msg.message_id, "notice")
        await self._delete(old)

    async def clear_notices(self, game_id: int) -> None:
        """Delete the game's notices in every chat (it ended: a reminder or a Claim button
        left standing would only be outdated)."""
        await self._delete([m for m in await self.messages(game_id) if m.kind == "notice"])

    async def _delete(self, messages: list[storage.GameMessage]) -> None:
        for m in messages:
            with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
                await self.outbox.run(
                    m.chat_id,
                    lambda m=m: self.bot.delete_message(m.chat_id, m.message_id),
                    kind="edit",
                )

    # ---- explanations ("Why?") ----------------------------------------------------------

    async def explanation_in(self, game_id: int, target: Target) -> int | None:
        """The message explaining the game's last forfeit in a chat, if one was posted."""
        for m in await self.messages(game_id):
            if m.kind == "why" and (m.chat_id, m.thread_id) == (target.chat_id, target.thread_id):
                return m.message_id
        return None

    async def keep_explanation(self, game_id: int, target: Target, message_id: int) -> None:
        """Remember the game's explanation message in a chat (one per chat, like a notice)."""
        await self._keep(game_id, target, message_id, "why")

    async def tell(self, chat_id: int, text: str) -> None:
        """A plain message to a chat, if it can still be reached."""
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
            await self.outbox.run(chat_id, lambda: self.bot.send_message(chat_id, text))

    # ---- private pickers (ephemeral messages) -----------------------------------------------

    async def send_picker(
        self,
        game_id: int,
        target: Target,
        receiver: int,
        board: Board,
        *,
        query_id: str | None,
        replace: bool,
    ) -> Picker:
        """Show ``board`` to ``receiver`` only (in place of the tapped board when
        ``replace``); PickerFailed if Telegram does not take it."""
        photo = await self._picture(game_id, board)
        params = EphemeralMessageParameters(
            receiver_user_id=receiver,
            callback_query_id=query_id,
            replace_callback_query_message=True if replace else None,
        )
        try:
            msg = await self.outbox.run(
                target.chat_id, self._photo_call(target, photo, board, params), kind="ephemeral"
            )
        except TelegramAPIError as exc:
            log.info("picker for %s in chat %s refused: %s", receiver, target.chat_id, exc)
            raise PickerFailed(str(exc)) from None
        if msg is None or msg.ephemeral_message_id is None:
            raise PickerFailed("no ephemeral message id in the answer")
        picker = Picker(target.chat_id, receiver, msg.ephemeral_message_id)
        self._picker_pictures[_shows(picker)] = (board.position, board.options)
        return picker

    async def edit_picker(
        self, game_id: int, picker: Picker, board: Board, *, version: int, picture: bool = True
    ) -> None:
        """Show ``board``, the game at ``version``, in the open picker (skipped if a newer
        state was asked for meanwhile, as in :meth:`edit`); PickerFailed when it is gone
        (expired, deleted) or refused. The picture is drawn and sent only if it differs from
        the one the picker shows."""
        key = ("ephemeral", picker.receiver, picker.ephemeral_id)
        shows = _shows(picker)
        picture = picture and self._picker_pictures.get(shows) != (board.position, board.options)
        if picture:  # what it shows is unknown until this edit is through
            self._picker_pictures.pop(shows, None)
        ticket: int | None = None
        where = {
            "chat_id": picker.chat_id,
            "receiver_user_id": picker.receiver,
            "ephemeral_message_id": picker.ephemeral_id,
        }
        call: Callable[[], Awaitable[object]]
        if picture:
            ticket, photo = await asyncio.gather(
                self.outbox.ticket(picker.chat_id, key, version), self._picture(game_id, board)
            )
            media = InputMediaPhoto(media=photo, caption=board.caption)

            def call() -> Awaitable[object]:
                return self.bot.edit_ephemeral_message_media(
                    media=media, reply_markup=board.keyboard, **where
                )
        else:

            def call() -> Awaitable[object]:
                return self.bot.edit_ephemeral_message_caption(
                    caption=board.caption, reply_markup=board.keyboard, **where
                )

        try:
            done = await self.outbox.edit(
                picker.chat_id, key, call, ticket=ticket, version=version, kind="ephemeral"
            )
        except TelegramAPIError as exc:
            raise PickerFailed(str(exc)) from None
        if picture and done is not None:
            self._picker_pictures[shows] = (board.position, board.options)

    async def close_picker(self, picker: Picker) -> None:
        """Delete a picker (its receiver sees the shared board again); gone already is fine."""
        self._picker_pictures.pop(_shows(picker), None)
        with contextlib.suppress(TelegramAPIError):
            await self.outbox.run(
                picker.chat_id,
                lambda: self.bot.delete_ephemeral_message(
                    chat_id=picker.chat_id,
                    receiver_user_id=picker.receiver,
                    ephemeral_message_id=picker.ephemeral_id,
                ),
                kind="ephemeral",
            )

    async def tell_privately(
        self, chat_id: int, receiver: int, text: str, *, query_id: str | None = None, **kw: object
    ) -> bool:
        """A text only ``receiver`` sees in a group (a private answer); False when Telegram
        refused it (the caller answers publicly instead)."""
        params = EphemeralMessageParameters(receiver_user_id=receiver, callback_query_id=query_id)
        try:
            msg = await self.outbox.run(
                chat_id,
                lambda: self.bot.send_message(
                    chat_id, text, ephemeral_message_parameters=params, **kw
                ),
                kind="ephemeral",
            )
        except TelegramAPIError as exc:
            log.info("private answer to %s in chat %s refused: %s", receiver, chat_id, exc)
            return False
        return msg is not None
