"""Rules knowledge base for the bot's /rules feature: topics, rejection reasons, matcher.

Everything here is pure data and pure functions (no aiogram, no I/O); the Telegram handlers
call it. Importing the package is cheap: the matcher's index is built on the first call to
``match`` and then reused.

Public API::

    match(question, *, lang_hint=None, variant=None, limit=3) -> list[TopicMatch]
    suggest(question, *, lang_hint=None, variant=None) -> list[TopicMatch]  # "did you mean"
    all_topics() -> tuple[Topic, ...]
    get_topic(topic_id) -> Topic                    # KeyError if unknown
    topic_by_number(number) -> Topic                # RULES.md §8 row number, 1..24
    topics_for_rule(rule_id) -> list[Topic]
    get_rejection(rule_id) -> Rejection | None      # Rejection.message(lang)
    get_diagram(key, variant=None) -> Diagram | None
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from teacher.diagrams import DIAGRAMS, get_diagram
from teacher.matcher import THRESHOLD, Matcher, about_bot, default_matcher, match, suggest
from teacher.model import (
    LANGS,
    Applies,
    Diagram,
    Keywords,
    Lang,
    Rejection,
    Text,
    Topic,
    TopicMatch,
    Variant,
)
from teacher.rejections import REJECTIONS, get_rejection
from teacher.topics import TOPICS

_BY_ID: Mapping[str, Topic] = MappingProxyType({t.id: t for t in TOPICS})
_BY_NUMBER: Mapping[int, Topic] = MappingProxyType({t.number: t for t in TOPICS})


def all_topics() -> tuple[Topic, ...]:
    """Every topic in RULES.md §8 order (for a /rules menu)."""
    return TOPICS


def get_topic(topic_id: str) -> Topic:
    """The topic with slug ``topic_id``; a ``KeyError`` means stale callback data."""
    return _BY_ID[topic_id]


def topic_by_number(number: int) -> Topic:
    """The topic in row ``number`` of RULES.md §8 (1–24)."""
    return _BY_NUMBER[number]


def topics_for_rule(rule_id: str) -> list[Topic]:
    """Topics that explain ``rule_id``, to offer "more about this rule" after a rejection."""
    key = rule_id.strip().upper()
    return [t for t in TOPICS if key in t.rule_ids]


__all__ = [
    "DIAGRAMS",
    "LANGS",
    "REJECTIONS",
    "THRESHOLD",
    "TOPICS",
    "Applies",
    "Diagram",
    "Keywords",
    "Lang",
    "Matcher",
    "Rejection",
    "Text",
    "Topic",
    "TopicMatch",
    "Variant",
    "about_bot",
    "all_topics",
    "default_matcher",
    "get_diagram",
    "get_rejection",
    "get_topic",
    "match",
    "suggest",
    "topic_by_number",
    "topics_for_rule",
]
