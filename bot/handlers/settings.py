"""/settings: a chat's house rules for new games (RULES.md §5), one tap per switch.

In a group only administrators may change them (checked again on every tap: rights change,
and a message with buttons outlives them); in a private chat the user edits their own. What
each switch means is the engine's business (:class:`engine.Options`); what a tap changes is
:mod:`bot.house_rules`'s. This module only draws the screen and saves.
"""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.boards import GONE
from bot.callbacks import SettingsCB
from bot.handlers.util import is_admin
from bot.house_rules import (
    F_BOARD,
    F_CLOCK,
    F_CUBE,
    F_HINTS,
    F_LENGTH,
    F_SCORING,
    F_VARIANT,
    TOGGLES,
    ChatDefaults,
    SettingError,
    apply_setting,
    cube_state,
    describe,
    next_value,
)
from bot.outbox import Outbox
from bot.presenter.clock import clock_name
from bot.texts import t
from gameplay import Actor, GameService, Place

ON, OFF = "✅", "▫️"


def _length(lang: str, n: int) -> str:
    return t(lang, "set_length_1") if n == 1 else t(lang, "set_length_n", n=n)


def settings_text(lang: str, defaults: ChatDefaults, *, private: bool) -> str:
    title = t(lang, "set_title_private" if private else "set_title_group")
    clock = clock_name(lang, defaults.clock_for(group=not private))
    hints = (
        (
            ""
            if private
            else t(lang, "set_hints_line", state=t(lang, "set_on" if defaults.hints else "set_off"))
            + "\n"
            + t(lang, "set_board_line", side=t(lang, f"set_board_{defaults.board_side}"))
            + "\n"
        )
        + t(lang, "set_clock_line", clock=clock)
        + "\n"
    )
    body = t(
        lang,
        "set_body",
        variant=t(lang, f"variant_{defaults.variant}"),
        length=_length(lang, defaults.match_length),
        long=describe(lang, "long", defaults.options),
        short=describe(lang, "short", defaults.options),
        hints=hints,
    )
    return f"{title}\n{body}"


def settings_keyboard(lang: str, defaults: ChatDefaults, *, private: bool) -> InlineKeyboardMarkup:
    """One button per switch; each carries the value it sets (see ``next_value``)."""

    def button(text: str, name: str) -> InlineKeyboardButton:
        data = SettingsCB(field=name, value=next_value(defaults, name, group=not private))
        return InlineKeyboardButton(text=text, callback_data=data.pack())

    opts = defaults.options
    rows = [
        [
            button(
                t(lang, "set_btn_variant", variant=t(lang, f"set_variant_{defaults.variant}")),
                F_VARIANT,
            ),
            button(
                t(lang, "set_btn_length", length=_length(lang, defaults.match_length)), F_LENGTH
            ),
        ],
        [button(t(lang, "set_btn_cube", state=t(lang, f"set_cube_{cube_state(opts)}")), F_CUBE)],
        [
            button(
                t(
                    lang,
                    "set_btn_clock",
                    clock=clock_name(lang, defaults.clock_for(group=not private)),
                ),
                F_CLOCK,
            )
        ],
    ]
    for name, _variants, vid in TOGGLES:
        mark = ON if getattr(opts, name) else OFF
        label = t(lang, "set_btn_toggle", mark=mark, label=t(lang, f"set_lbl_{name}"), vid=vid)
        rows.append([button(label, name)])
        if name == "bearoff_next_turn":  # scoring sits with the other long-nardy switches
            scoring = t(lang, f"set_scoring_{opts.long_scoring}")
            rows.append([button(t(lang, "set_btn_scoring", name=scoring), F_SCORING)])
    if not private:
        mark = ON if defaults.hints else OFF
        rows.append([button(t(lang, "set_btn_hints", mark=mark), F_HINTS)])
        side = t(lang, f"set_board_{defaults.board_side}")
        rows.append([button(t(lang, "set_btn_board", side=side), F_BOARD)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


async def _may_edit(bot: Bot, message: Message, user_id: int) -> bool:
    if message.chat.type == "private":
        return True
    return await is_admin(bot, message.chat.id, user_id)


async def settings(
    message: Message,
    lang: str,
    actor: Actor,
    place: Place,
    games: GameService,
    bot: Bot,
    outbox: Outbox,
) -> None:
    """Show the chat's defaults with a switch for each (administrators only in groups)."""
    if not await _may_edit(bot, message, actor.user_id):
        await outbox.run(message.chat.id, lambda: message.answer(t(lang, "set_admins_only")))
        return
    private = place.private
    defaults = await games.chats.defaults(place.chat_id)
    text = settings_text(lang, defaults, private=private)
    keyboard = settings_keyboard(lang, defaults, private=private)
    await outbox.run(message.chat.id, lambda: message.answer(text, reply_markup=keyboard))


async def settings_tap(
    query: CallbackQuery,
    callback_data: SettingsCB,
    lang: str,
    place: Place,
    games: GameService,
    bot: Bot,
    outbox: Outbox,
) -> None:
    """Re-check the rights, set the switch to the value the button carries, save, redraw."""
    message = query.message
    if not isinstance(message, Message):
        await query.answer(t(lang, "set_stale"), show_alert=True)
        return
    if not await _may_edit(bot, message, query.from_user.id):
        await query.answer(t(lang, "set_admins_only"), show_alert=True)
        return
    private = place.private
    defaults = await games.chats.defaults(place.chat_id)
    try:
        changed = apply_setting(defaults, callback_data.field, callback_data.value)
    except SettingError:
        await query.answer(t(lang, "set_stale"), show_alert=True)
        return
    if changed == defaults:
        # A tap on an older copy of the screen: nothing to save, but show the current state.
        await query.answer(t(lang, "set_same"))
    else:
        await games.chats.save_defaults(place.chat_id, message.chat.type, changed)
        await query.answer(t(lang, "set_saved"))
    text = settings_text(lang, changed, private=private)
    keyboard = settings_keyboard(lang, changed, private=private)
    try:
        await outbox.run(
            message.chat.id, lambda: message.edit_text(text, reply_markup=keyboard), kind="edit"
        )
    except TelegramBadRequest as exc:
        if not any(gone in exc.message for gone in GONE):
            raise
        # the screen was deleted or is too old to edit: the change is saved; show it anew
        await outbox.run(message.chat.id, lambda: message.answer(text, reply_markup=keyboard))


def router() -> Router:
    r = Router(name="settings")
    r.message.register(settings, Command("settings"))
    r.callback_query.register(settings_tap, SettingsCB.filter())
    return r
