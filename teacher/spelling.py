"""Spelling correction against the words players really use (round 6).

The matcher's own typo reading (``teacher.matcher``) corrects a word towards the *keywords*
only: «выбртаь», «шакшу», «сгорлеи», "bllack" found nothing when the keyword they are a typo
of is another form or a word no keyword has («выбрать» a colour, «сгорели»), and the learned
model then saw a word no training question had. Here a word the Russian dictionary does not
know (or an English word no training question had) is corrected to the nearest word of a
vocabulary learned from the training questions — the correctly spelt words of about four
thousand questions people wrote, shipped in the model file — by optimal-string-alignment
distance (a swap of two letters is one edit): one edit from five letters on, two from eight,
the most frequent word on a tie. The corrected word then goes through the usual reading, so
both the keyword index and the learned model see it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from teacher.model import Lang
from teacher.text import is_stopword, script_of

MIN_LENGTH = 5
"""Shorter words are not corrected: four letters one edit apart are too often two real words
(«дом» / «дам», "rice" / "dice")."""
MIN_LATIN_LENGTH = 6
"""English words are corrected from this length: "times" is not a typo of "timer"."""
TWO_EDITS_FROM = 8
"""Words this long may be two edits from their correction."""
MIN_LATIN_COUNT = 2
"""An English word enters the vocabulary once this many training questions have it (there is
no English dictionary here to tell a typo from a word, and a typo is rarely made twice)."""


def vocabulary(
    questions: Iterable[tuple[str, Sequence[str]]],
    known_ru: Callable[[str], bool],
    trusted: Iterable[Sequence[str]] = (),
) -> tuple[str, ...]:
    """The spelling vocabulary of ``questions`` (language, words), most frequent first.

    A Russian word is in it when the dictionary knows it; an English word when
    ``MIN_LATIN_COUNT`` English questions have it or it is one of the ``trusted`` words (the
    topics' own keywords and texts, spelt by their author). The Latin words of a Russian
    question are transliteration or the keyboard layout, never English to correct to (round 16:
    one layout-typed question with a typo, «zfgthnfz ifirf», and its misspelt twin put "ifirf"
    in, and then no «… ifirf» — «шашка» — was re-read).
    """
    counts: Counter[str] = Counter()
    for lang, words in questions:
        counts.update(
            {w for w in words if _correctable(w) and (lang != "ru" or script_of(w) != "lat")}
        )
    trusted_words = {w for words in trusted for w in words if _correctable(w)}
    counts.update({w: 0 for w in trusted_words})
    keep = [
        w
        for w, n in counts.items()
        if (known_ru(w) if script_of(w) == "cyr" else n >= MIN_LATIN_COUNT or w in trusted_words)
    ]
    return tuple(sorted(keep, key=lambda w: (-counts[w], w)))


def _correctable(word: str) -> bool:
    return len(word) >= MIN_LENGTH and script_of(word) != "num" and not is_stopword(word)


class Speller:
    """Corrects misspelt words to the vocabulary; read-only once built (thread-safe)."""

    def __init__(self, words: Sequence[str], known_ru: Callable[[str], bool]) -> None:
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        self._known_ru = known_ru
        self._vocabulary = tuple(words)
        self._rank = {word: i for i, word in enumerate(words)}
        # By script and length, in vocabulary order (most frequent first), so that a search
        # looks only at words that can be close enough and a tie goes to the common word.
        by_length: dict[tuple[str, int], list[str]] = defaultdict(list)
        for word in words:
            by_length[(script_of(word), len(word))].append(word)
        self._by_length = {k: tuple(v) for k, v in by_length.items()}
        self._extract_one: Callable[..., Any] = process.extractOne
        self._distance: Callable[..., int] = OSA.distance
        self.correct: Callable[[str, Lang | None], str] = lru_cache(maxsize=16384)(self._correct)

    def _correct(self, word: str, lang_hint: Lang | None) -> str:
        """``word`` itself, or the vocabulary word it is most likely a typo of."""
        if not _correctable(word) or word in self._rank:
            return word
        script = script_of(word)
        if script == "cyr" and self._known_ru(word):
            return word  # a real word is not a typo
        if script == "lat" and (lang_hint == "ru" or len(word) < MIN_LATIN_LENGTH):
            return word  # a Russian speaker's Latin word is likely transliteration
        max_distance = 2 if len(word) >= TWO_EDITS_FROM else 1
        best: tuple[int, int] | None = None  # (distance, rank in the vocabulary)
        for length in range(len(word) - max_distance, len(word) + max_distance + 1):
            choices = self._by_length.get((script, length))
            if not choices:
                continue
            hit = self._extract_one(word, choices, scorer=self._distance, score_cutoff=max_distance)
            if hit is not None:
                candidate = (int(hit[1]), self._rank[hit[0]])
                if best is None or candidate < best:
                    best = candidate
        return self._vocabulary[best[1]] if best is not None else word
