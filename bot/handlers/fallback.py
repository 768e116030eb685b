"""The last handler: a tap that no other handler took.

Buttons of an older version of the bot, a message the bot no longer knows, or forged callback
data reach here; Telegram shows a spinner on the button until the tap is answered, so it is
answered, once, in the tapping user's language.
"""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.languages import Languages
from bot.texts import t


def router() -> Router:
    """A router with only the fallback; include it after every other router."""
    r = Router(name="fallback")
    r.callback_query.register(unknown_button, flags={"claim": "none"})
    return r


async def unknown_button(query: CallbackQuery, langs: Languages) -> None:
    """Answer a tap nothing else understood: the button is no longer valid."""
    lang = await langs.of_chat(query.from_user.id)
    await query.answer(t(lang, "button_invalid"), show_alert=False)
