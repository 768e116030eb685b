"""Small helpers shared by the handlers (no rules, no SQL)."""

from __future__ import annotations

from dataclasses import dataclass

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import CallbackQuery, Message

from bot.outbox import Outbox
from bot.texts import t
from gameplay import Snapshot

VARIANT_WORDS = {
    "long": "long",
    "длинные": "long",
    "длинная": "long",
    "длинн": "long",
    "l": "long",
    "д": "long",
    "short": "short",
    "короткие": "short",
    "короткая": "short",
    "s": "short",
    "к": "short",
    "backgammon": "short",
    "нарды": "long",
}


def parse_new_args(args: str | None, default_variant: str, default_length: int) -> tuple[str, int]:
    """``/new [long|short] [N]`` in any order; unknown words are ignored."""
    variant, length = default_variant, default_length
    for word in (args or "").lower().split():
        if word.isdigit():
            length = max(1, min(25, int(word)))
        elif word in VARIANT_WORDS:
            variant = VARIANT_WORDS[word]
    return variant, length


async def is_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether the user administers the group (creator or administrator)."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except (TelegramBadRequest, TelegramForbiddenError):
        return False
    return member.status in ("creator", "administrator")


@dataclass(frozen=True, slots=True)
class ReplyChat:
    """Where the answer to a board's button goes: the board's own chat (and forum topic), or,
    for a board in an inline-mode message (which the bot can only edit), the tapping person's
    private chat with the bot (``private``)."""

    chat_id: int
    thread_id: int | None = None
    private: bool = False


async def reply_chat(
    query: CallbackQuery,
    lang: str,
    bot: Bot,
    outbox: Outbox,
    *,
    players: Snapshot | None = None,
    action: str = "typing",
) -> ReplyChat | None:
    """The chat that gets the files and texts a tap asks for; None when there is none, the
    tap then answered here.

    An inline message's answer goes to the tapper's private chat with the bot. With
    ``players`` only that game's players may ask (anyone else is told so). Whether the bot
    may write to the tapper is tried with a chat action (``action``, which they see as
    "sending…"): a person who never started the bot is asked to start it in an alert."""
    message = query.message
    if isinstance(message, Message):
        thread = message.message_thread_id if message.is_topic_message else None
        return ReplyChat(message.chat.id, thread)
    if query.inline_message_id is None:
        await query.answer(t(lang, "outdated"))
        return None
    user_id = query.from_user.id
    if players is not None and players.seat_of_user(user_id) is None:
        await query.answer(t(lang, "not_a_player"), show_alert=True)
        return None
    try:
        await outbox.run(user_id, lambda: bot.send_chat_action(user_id, action))
    except (TelegramForbiddenError, TelegramBadRequest):
        me = await bot.me()
        await query.answer(t(lang, "inline_start_bot", bot=me.username or ""), show_alert=True)
        return None
    return ReplyChat(user_id, private=True)
