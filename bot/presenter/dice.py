"""The dice commitment as a chat shows it before the first die: a short form in the text and
the full SHA-256 behind a copy button (docs/fairness.md, step 1)."""

from __future__ import annotations

from aiogram.types import CopyTextButton, InlineKeyboardButton, InlineKeyboardMarkup

from bot.texts import t
from engine.fairness import short_commitment


def commitment_line(lang: str, commitment: str) -> str:
    """The short commitment as a message line (the full hash is behind the copy button)."""
    return t(lang, "dice_commitment", short=short_commitment(commitment))


def copy_commitment_button(lang: str, commitment: str) -> InlineKeyboardButton:
    """Copies the full SHA-256 commitment, to compare with the report after the match."""
    return InlineKeyboardButton(
        text=t(lang, "btn_copy_commitment"), copy_text=CopyTextButton(text=commitment)
    )


def with_copy_button(
    markup: InlineKeyboardMarkup | None, lang: str, commitment: str
) -> InlineKeyboardMarkup:
    """``markup`` with a last row that copies the full commitment."""
    rows = list(markup.inline_keyboard) if markup is not None else []
    return InlineKeyboardMarkup(inline_keyboard=[*rows, [copy_commitment_button(lang, commitment)]])
