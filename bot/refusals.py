"""The one place where the game layer's refusals become words in the user's language.

A rules refusal cites its RULES.md ids and comes with a "Why?" button to the topic that
explains the rule; the others are one catalog line each. Tapped buttons get a short answer
(an alert when the player must read it), typed commands a reply.
"""

from __future__ import annotations

from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.callbacks import RulesCB
from bot.texts import h, t
from engine import NotationError, Reason
from gameplay import Refusal, Refused

KEYS: dict[Refusal, str] = {
    Refusal.GAME_NOT_FOUND: "game_not_found",
    Refusal.GAME_OVER: "game_over_already",
    Refusal.GAME_NOT_OVER: "game_not_over",
    Refusal.MATCH_NOT_OVER: "match_not_over",
    Refusal.GAME_EXISTS: "game_exists",
    Refusal.OUTDATED: "outdated",
    Refusal.NOT_A_PLAYER: "not_a_player",
    Refusal.NOT_YOUR_TURN: "not_your_turn",
    Refusal.NO_DICE_YET: "no_dice_yet",
    Refusal.WRONG_PHASE: "wrong_phase",
    Refusal.NOTHING_TO_UNDO: "nothing_to_undo",
    Refusal.BAD_NOTATION: "bad_notation",
    Refusal.ILLEGAL: "rejected",
    Refusal.HINTS_OFF: "hint_off",
    Refusal.NO_HINT_NOW: "hint_none",
    Refusal.INVITE_UNKNOWN: "invite_unknown",
    Refusal.INVITE_OWN: "invite_own",
    Refusal.INVITE_CLOSED: "invite_closed",
    Refusal.INVITE_EXPIRED: "invite_expired",
    Refusal.INVITE_NOT_FOR_YOU: "invite_not_for_you",
    Refusal.CANCEL_ONLY_INVITER: "cancel_only_inviter",
    Refusal.CLAIM_NO_CLOCK: "claim_no_clock",
    Refusal.CLAIM_NOT_YET: "claim_not_yet",
    Refusal.CLAIM_OWN_CLOCK: "claim_own_clock",
    Refusal.NO_OFFER: "no_offer",
    Refusal.OWN_OFFER: "own_offer",
    Refusal.ABANDON_VS_COMPUTER: "abandon_vs_computer",
    Refusal.NOT_ADMIN: "not_admin",
}
# Answered as a passing note, not an alert to dismiss: nothing the player did was wrong.
QUIET = frozenset({Refusal.OUTDATED, Refusal.NOT_YOUR_TURN, Refusal.NOT_A_PLAYER})


def rule_text(lang: str, reason: Reason) -> str:
    """The one-line explanation of a rules refusal, with its rule ids (e.g. "… (L-8)")."""
    from teacher import get_rejection

    ids = ", ".join(reason.rule_ids)
    for rule_id in reason.rule_ids:
        rejection = get_rejection(rule_id)
        if rejection is not None:
            return f"{rejection.text.get(lang)} ({ids})"
    return f"{t(lang, 'rejected_generic')} ({ids})"


def notation_text(lang: str, error: NotationError) -> str:
    """Why typed text is not a move, in ``lang``: the catalog's ``notation.<code>`` entry
    with the error's parameters, the user's own text in them HTML-escaped."""
    params = {key: h(value) for key, value in error.params.items()}
    return t(lang, f"notation.{error.code}", **params)


def refusal_text(lang: str, refused: Refused) -> str:
    """The refusal in words (user text in it, such as bad notation, is escaped)."""
    if refused.refusal is Refusal.ILLEGAL and refused.reason is not None:
        return t(lang, "rejected", rule=rule_text(lang, refused.reason))
    if refused.refusal is Refusal.BAD_NOTATION and refused.notation is not None:
        return t(lang, "bad_notation", detail=notation_text(lang, refused.notation))
    return t(lang, KEYS[refused.refusal])


def why_keyboard(lang: str, rule_ids: tuple[str, ...]) -> InlineKeyboardMarkup | None:
    """A "Why?" button to the first topic that explains one of ``rule_ids``."""
    from teacher import topics_for_rule

    for rule_id in rule_ids:
        topics = topics_for_rule(rule_id)
        if topics:
            data = RulesCB(view="topic", key=topics[0].id).pack()
            button = InlineKeyboardButton(text=t(lang, "btn_why"), callback_data=data)
            return InlineKeyboardMarkup(inline_keyboard=[[button]])
    return None


async def answer_tap(query: CallbackQuery, lang: str, refused: Refused) -> None:
    """Answer a tapped button with the refusal."""
    await query.answer(refusal_text(lang, refused), show_alert=refused.refusal not in QUIET)


async def reply(message: Message, lang: str, refused: Refused) -> None:
    """Reply to a typed command with the refusal (and "Why?" for a rules refusal)."""
    await message.answer(
        refusal_text(lang, refused), reply_markup=why_keyboard(lang, refused.rule_ids)
    )
