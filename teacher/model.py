"""Value types of the rules knowledge base.

Everything here is a frozen, hashable dataclass so that the content modules can be plain
data: the catalog is built once at import of the data module (cheap: no I/O, no parsing) and
can never be changed by a handler by accident.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

Lang = Literal["ru", "en"]
"""The two languages every user-visible text exists in."""

Variant = Literal["long", "short"]
"""A game: long nardy (длинные нарды) or short nardy (короткие нарды, backgammon)."""

Applies = Literal["long", "short", "both"]
"""Which game a topic is about."""

LANGS: tuple[Lang, ...] = ("ru", "en")


@dataclass(frozen=True, slots=True)
class Text:
    """One user-visible text in Russian and English.

    Kept as a pair (not a dict) so that a missing translation is a construction error,
    not a ``KeyError`` in a handler at run time.
    """

    ru: str
    en: str

    def get(self, lang: Lang) -> str:
        """Return the text in ``lang``; anything but ``"en"`` gets Russian, the bot's default."""
        return self.en if lang == "en" else self.ru


NEGATIVE_WEIGHT = -1.0
"""The weight that marks a ``"-"`` phrase: context that rules a topic out."""


@dataclass(frozen=True, slots=True)
class Keywords:
    """Phrases that point the matcher at a topic.

    Each phrase is matched as a whole: every significant word of it must occur in the
    question (in any word form, allowing typos). A phrase may carry a weight prefix:
    ``"!"`` doubles its weight (a word that alone identifies the topic, e.g. «марс»),
    ``"~"`` halves it (a word that only supports, e.g. «игра»), and ``"-"`` makes it count
    *against* the topic: context that rules the topic out (e.g. «в середине игры» for the
    first-move exception) halves the topic's score. Russian phrases are also
    how Latin transliterations («golova», «mars») are recognised, so they need no Latin copy.
    """

    ru: tuple[str, ...]
    en: tuple[str, ...]

    def weighted(self) -> Iterator[tuple[str, float]]:
        """Every phrase (both languages) without its mark, with its weight (2, 1, 0.5, or
        ``NEGATIVE_WEIGHT`` for context that rules the topic out)."""
        for raw in (*self.ru, *self.en):
            if raw.startswith("!"):
                yield raw[1:], 2.0
            elif raw.startswith("-"):
                yield raw[1:], NEGATIVE_WEIGHT
            elif raw.startswith("~"):
                yield raw[1:], 0.5
            else:
                yield raw, 1.0


@dataclass(frozen=True, slots=True)
class Topic:
    """One rules explanation the bot can give (RULES.md §8, one row each).

    ``number`` is the row number in RULES.md §8, ``id`` a stable slug for callback data and
    links between topics. ``rule_ids`` are the RULES.md IDs the body explains; the body
    cites them in brackets, so a player can ask about a rule by its ID.
    """

    id: str
    number: int
    title: Text
    body: Text
    rule_ids: tuple[str, ...]
    applies_to: Applies
    related: tuple[str, ...]
    keywords: Keywords
    diagram: str | None = None

    def caption(self, lang: Lang) -> str:
        """Title and body as one plain-text message (fits a photo caption of 1024 chars)."""
        return f"{self.title.get(lang)}\n\n{self.body.get(lang)}"

    def applies(self, variant: Variant | None) -> bool:
        """True if the topic is relevant to a game of ``variant`` (``None``: any game)."""
        return variant is None or self.applies_to in ("both", variant)


@dataclass(frozen=True, slots=True)
class Diagram:
    """An example position the renderer draws next to a topic.

    ``position`` uses RULES.md §0.4 notation, X to move, O's points in O's own pips with
    X's pips in brackets, e.g. ``"X: 24×13, 18×1, 16×1; O: 24×13, 18×2 [X 12, 6]"``.
    ``highlight`` lists X pips to mark (25 = bar, 0 = off). The description is data for
    the renderer and for tests, not a user text, so it is English only.
    """

    key: str
    variant: Variant
    position: str
    highlight: tuple[int, ...]
    note: str
    dice: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Rejection:
    """A one-line reason shown when the engine rejects a move ("why?"), keyed by rule ID."""

    rule_id: str
    text: Text

    def message(self, lang: Lang) -> str:
        """The full user message, e.g. "Ход отклонён: … (L-8)"."""
        prefix = "Move rejected" if lang == "en" else "Ход отклонён"
        return f"{prefix}: {self.text.get(lang)} ({self.rule_id})"


@dataclass(frozen=True, slots=True)
class TopicMatch:
    """One ranked answer of the matcher.

    ``score`` is in (0, 1]; results below the confidence threshold are never returned.
    ``matched`` names the keyword phrases that fired, for logs and for tuning.
    """

    topic: Topic
    score: float
    matched: tuple[str, ...] = field(default=())
    close: bool = False
    """For a runner-up: it scored nearly as well as the best topic, so the question may well
    be about it (the bot offers it explicitly rather than among "see also")."""
