"""Small helpers shared by the handlers (no rules, no SQL)."""

from __future__ import annotations

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError

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
