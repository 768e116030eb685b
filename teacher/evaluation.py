"""Measure the matcher on a question set (a TSV file): top-1, top-3 and "don't know" rates.

The set's lines are ``lang<TAB>expected topic id or none<TAB>question``; lines starting with
``#`` and blank lines are skipped. ``none`` marks an off-topic question, which the matcher
should answer with "I don't know". Used by ``scripts/teacher_eval.py`` and by the tests that
guard the figures measured on the blind set.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from teacher.matcher import Matcher, default_matcher
from teacher.model import LANGS, Lang

OFF_TOPIC = "none"


@dataclass(frozen=True, slots=True)
class Row:
    """One question of a set."""

    lang: Lang
    expected: str  # a topic id, or OFF_TOPIC
    question: str


@dataclass(frozen=True, slots=True)
class LangFigures:
    """Rates over the on-topic questions of one language (fractions of ``total``)."""

    total: int
    top1: int
    top3: int
    dont_know: int
    suggested: int = 0  # of ``dont_know``: offered "did you mean …?" (``Matcher.suggest``)
    suggested_right: int = 0  # … with the expected topic among the suggestions

    def rate(self, count: int) -> float:
        return count / self.total if self.total else 0.0


@dataclass(frozen=True, slots=True)
class Figures:
    """The result of one evaluation; ``misses`` lists (row, topics answered) for reading."""

    by_lang: dict[str, LangFigures]
    off_topic_total: int
    off_topic_dont_know: int
    misses: tuple[tuple[Row, tuple[str, ...]], ...]
    off_topic_suggested: int = 0  # of ``off_topic_dont_know``: offered "did you mean …?"

    @property
    def off_topic_rate(self) -> float:
        return self.off_topic_dont_know / self.off_topic_total if self.off_topic_total else 0.0


def read_set(path: Path) -> list[Row]:
    """Rows of a TSV question set; raises ``ValueError`` naming a malformed line."""
    rows: list[Row] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#") or line.lower().startswith("lang\t"):
            continue  # blank, comment, or the column header
        parts = line.split("\t")
        if len(parts) < 3 or parts[0].strip().lower() not in LANGS:
            raise ValueError(f"{path}:{number}: expected lang<TAB>topic<TAB>question")
        lang: Lang = "en" if parts[0].strip().lower() == "en" else "ru"
        question = "\t".join(parts[2:]).strip()
        rows.append(Row(lang, parts[1].strip().lower(), question))
    return rows


def evaluate(rows: Iterable[Row], matcher: Matcher | None = None) -> Figures:
    """Ask every question with the asker's language as the hint, as the bot does."""
    matcher = matcher or default_matcher()
    counts: dict[str, list[int]] = {}
    off_total = off_dont_know = off_suggested = 0
    misses: list[tuple[Row, tuple[str, ...]]] = []
    for row in rows:
        ids = tuple(r.topic.id for r in matcher.match(row.question, lang_hint=row.lang, limit=3))
        offered: tuple[str, ...] = ()
        if not ids:
            offered = tuple(r.topic.id for r in matcher.suggest(row.question, lang_hint=row.lang))
        if row.expected == OFF_TOPIC:
            off_total += 1
            off_dont_know += not ids
            off_suggested += bool(offered)
            if ids:
                misses.append((row, ids))
            continue
        c = counts.setdefault(row.lang, [0, 0, 0, 0, 0, 0])
        c[0] += 1
        c[1] += bool(ids) and ids[0] == row.expected
        c[2] += row.expected in ids
        c[3] += not ids
        c[4] += bool(offered)
        c[5] += row.expected in offered
        if not ids or ids[0] != row.expected:
            misses.append((row, ids))
    return Figures(
        by_lang={lang: LangFigures(*c) for lang, c in sorted(counts.items())},
        off_topic_total=off_total,
        off_topic_dont_know=off_dont_know,
        misses=tuple(misses),
        off_topic_suggested=off_suggested,
    )


def pooled(parts: Iterable[Figures]) -> Figures:
    """Several evaluations added up, as if their sets were one (leave-one-set-out totals)."""
    counts: dict[str, list[int]] = {}
    off_total = off_dont_know = off_suggested = 0
    misses: list[tuple[Row, tuple[str, ...]]] = []
    for part in parts:
        for lang, f in part.by_lang.items():
            c = counts.setdefault(lang, [0, 0, 0, 0, 0, 0])
            figures = (f.total, f.top1, f.top3, f.dont_know, f.suggested, f.suggested_right)
            for i, n in enumerate(figures):
                c[i] += n
        off_total += part.off_topic_total
        off_dont_know += part.off_topic_dont_know
        off_suggested += part.off_topic_suggested
        misses.extend(part.misses)
    return Figures(
        by_lang={lang: LangFigures(*c) for lang, c in sorted(counts.items())},
        off_topic_total=off_total,
        off_topic_dont_know=off_dont_know,
        misses=tuple(misses),
        off_topic_suggested=off_suggested,
    )


def report(figures: Figures) -> str:
    """The figures as the few lines the eval script prints."""
    lines = []
    for lang, f in figures.by_lang.items():
        lines.append(
            f"{lang}: {f.total} questions | top-1 {f.top1} ({f.rate(f.top1):.1%}) | "
            f"top-3 {f.top3} ({f.rate(f.top3):.1%}) | "
            f"wrong don't-know {f.dont_know} ({f.rate(f.dont_know):.1%}; "
            f"did-you-mean {f.suggested}, right {f.suggested_right}, "
            f"bare {f.dont_know - f.suggested} ({f.rate(f.dont_know - f.suggested):.1%}))"
        )
    bare = figures.off_topic_dont_know - figures.off_topic_suggested
    lines.append(
        f"off-topic: {figures.off_topic_total} questions | don't-know "
        f"{figures.off_topic_dont_know} ({figures.off_topic_rate:.1%}; did-you-mean "
        f"{figures.off_topic_suggested}, bare {bare} "
        f"({bare / figures.off_topic_total if figures.off_topic_total else 0:.1%}))"
    )
    return "\n".join(lines)
