"""Questions typed in the wrong keyboard layout (round 7).

A player who forgets to switch the keyboard types Russian with the Latin layout on —
«rfr [jlbnm c ujkjds» is «как ходить с головы» — or English with the Cyrillic one («рщц вщ ш
иуфк щаа» is "how do i bear off"). Neither is transliteration: the letters are the keys'
other labels (ЙЦУКЕН ↔ QWERTY), and some Russian letters sit on punctuation keys (х on «[»,
ж on «;», б on «,», ю on «.»). A question is re-read in the other layout only when most of its
words become real words that way and few were real words as typed, so English, Russian and
transliteration («kak hodit s golovy») are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_LATIN_KEYS = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`"
_CYRILLIC_KEYS = "йцукенгшщзхъфывапролджэячсмитьбюё"
_TO_CYRILLIC = str.maketrans(
    _LATIN_KEYS + _LATIN_KEYS.upper() + '{}:"<>~', _CYRILLIC_KEYS * 2 + "ХЪЖЭБЮЁ"
)
_TO_LATIN = str.maketrans(_CYRILLIC_KEYS + _CYRILLIC_KEYS.upper(), _LATIN_KEYS * 2)

_LATIN_KEYS_CLASS = r"[a-z\[\];',.`{}:\"<>~]"
"""A key of the Latin layout that types a Russian letter (the letters and х ъ ж э б ю ё)."""
_LATIN_CHUNK_RE = re.compile(_LATIN_KEYS_CLASS + "+", re.IGNORECASE)
_CYRILLIC_CHUNK_RE = re.compile(r"[а-яё]+", re.IGNORECASE)
_TRAILING = ".,"  # a sentence's own full stop or comma after a word typed in Latin
MIN_SHARE = 0.6
"""This share of a question's words must be real words in the other layout."""
MAX_AS_TYPED = 0.34
"""And at most this share real words as typed."""


def _latin_words(text: str) -> list[str]:
    return [m.group(0) for m in _LATIN_CHUNK_RE.finditer(text) if len(m.group(0)) >= 2]


def _to_cyrillic(chunk: str, known_ru: Callable[[str], bool]) -> str:
    """One Latin-layout chunk in Cyrillic; a trailing full stop or comma that makes it no word
    is kept as punctuation."""
    whole = chunk.translate(_TO_CYRILLIC).lower()
    if known_ru(whole):
        return whole
    stripped = chunk.rstrip(_TRAILING)
    if stripped and stripped != chunk and known_ru(stripped.translate(_TO_CYRILLIC).lower()):
        return stripped.translate(_TO_CYRILLIC).lower() + chunk[len(stripped) :]
    return whole


def _english_as_typed(
    chunk: str, known_ru: Callable[[str], bool], known_en: Callable[[str], bool]
) -> bool:
    """Whether a Latin chunk is an English word as typed. A comma or full stop at its end is
    punctuation only if, read as б or ю, it makes no Russian word: «re,» is «куб», not "re"
    and a comma (round 9)."""
    stripped = chunk.strip(_TRAILING).lower()
    if not stripped or not known_en(stripped):
        return False
    whole = chunk.lower().translate(_TO_CYRILLIC)
    return not (stripped != chunk.lower() and len(whole) >= 3 and known_ru(whole))


def _retyped_in_cyrillic(text: str, known_ru: Callable[[str], bool]) -> str:
    """Every Latin-layout chunk of ``text`` in Cyrillic, the rest as it is."""
    return _LATIN_CHUNK_RE.sub(lambda m: _to_cyrillic(m.group(0), known_ru), text)


def _to_latin(chunk: str) -> str:
    return chunk.lower().translate(_TO_LATIN)


_LEADING_LATIN_RE = re.compile(
    r"\s*(?:" + _LATIN_KEYS_CLASS + r"+\s+)+(?=[^\w\s]*[а-яё0-9])", re.IGNORECASE
)
"""Latin words at the start, then a Russian word or a number («dsgfkj 3 и 5 …», round 17)."""


def _switched_midway(
    question: str, known_ru: Callable[[str], bool], known_en: Callable[[str], bool]
) -> str:
    """``question`` with its leading Latin words re-typed in Cyrillic when the player began in
    the Latin layout and switched it after a word or two («rfr ходить с головы» is «как ходить
    с головы»; round 14): each of those words must be a Russian word re-typed and none an
    English word as typed («можно ли бить bar», "ok давай" stay as they are)."""
    lead = _LEADING_LATIN_RE.match(question)
    if lead is None:
        return question
    chunks = _latin_words(lead.group(0))
    if not chunks or len(chunks) != len(lead.group(0).split()):
        return question
    for chunk in chunks:
        if _english_as_typed(chunk, known_ru, known_en):
            return question
        if not known_ru(_to_cyrillic(chunk, known_ru).rstrip(_TRAILING)):
            return question
    return _retyped_in_cyrillic(lead.group(0), known_ru) + question[lead.end() :]


def fix_layout(
    question: str,
    known_ru: Callable[[str], bool],
    known_en: Callable[[str], bool],
) -> str:
    """``question`` re-typed in the other keyboard layout when it was typed in the wrong one,
    else ``question`` unchanged.

    ``known_ru`` tells a Russian dictionary word, ``known_en`` a word of the English the
    matcher knows (its keywords, training questions and stop words).
    """
    if re.search(r"[а-яё]", question, re.IGNORECASE):
        if re.search(r"[a-z]", question, re.IGNORECASE):
            # Mixed scripts: not a whole question in the wrong layout, but maybe its first
            # words typed before the player switched it.
            return _switched_midway(question, known_ru, known_en)
        words = [w.lower() for w in _CYRILLIC_CHUNK_RE.findall(question) if len(w) >= 2]
        if not words:
            return question
        typed = sum(known_ru(w) for w in words)
        other = sum(known_en(w.translate(_TO_LATIN)) and not known_ru(w) for w in words)
        if other >= MIN_SHARE * len(words) and typed <= MAX_AS_TYPED * len(words):
            return _CYRILLIC_CHUNK_RE.sub(lambda m: _to_latin(m.group(0)), question)
        return question
    chunks = _latin_words(question)
    if not chunks:
        return question
    typed = sum(_english_as_typed(c, known_ru, known_en) for c in chunks)
    converted = [_to_cyrillic(c, known_ru) for c in chunks]
    other = sum(known_ru(w.rstrip(_TRAILING)) for w in converted)
    if other >= MIN_SHARE * len(chunks) and typed <= MAX_AS_TYPED * len(chunks):
        return _retyped_in_cyrillic(question, known_ru)
    return question
