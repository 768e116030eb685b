"""Text catalogs (STYLE habit 9): every word a user reads lives here, in Russian and English.

``t(lang, key, **params)`` formats a catalog entry. Russian is the default language (most
players speak it); a missing English entry falls back to Russian rather than crash.
"""

from __future__ import annotations

import re
from html import escape

from bot.texts import en, ru

LANGS = ("ru", "en")
DEFAULT_LANG = "ru"
CATALOGS: dict[str, dict[str, str]] = {"ru": ru.TEXTS, "en": en.TEXTS}

# Telegram language codes of people who are best served in Russian.
RUSSIAN_FIRST = frozenset({"ru", "uk", "be", "kk", "ky", "uz", "tg", "az", "hy", "ka", "tk"})


def normalise_lang(code: str | None) -> str:
    """Map a Telegram ``language_code`` (or a /lang argument) to one of :data:`LANGS`."""
    if not code:
        return DEFAULT_LANG
    base = code.strip().lower().replace("_", "-").split("-")[0]
    if base in LANGS:
        return base
    return DEFAULT_LANG if base in RUSSIAN_FIRST else "en"


def t(lang: str, key: str, **params: object) -> str:
    """The text ``key`` in ``lang`` with ``params`` filled in."""
    catalog = CATALOGS.get(lang, CATALOGS[DEFAULT_LANG])
    template = catalog.get(key)
    if template is None:
        template = CATALOGS[DEFAULT_LANG][key]
    return template.format(**params) if params else template


def h(text: object) -> str:
    """Escape user-provided text (names, notation) for Telegram HTML."""
    return escape(str(text), quote=False)


_NOTATION_WORDS = re.compile(r"\b(bar|off)\b")


def localized_notation(lang: str, notation: str) -> str:
    """A play's canonical notation (``bar/22* 6/off``) with the bar and bearing off named as
    the catalog names them (``бар/22* 6/выброс`` in Russian), so captions use the buttons'
    words. Typed input accepts both forms (:mod:`engine.notation`)."""
    return _NOTATION_WORDS.sub(lambda m: t(lang, m.group(1)), notation)
