"""Training the learned question model (``teacher.learned``) from labelled questions.

Used by ``scripts/teacher_train.py`` (which writes the shipped model) and by the tests that
check the shipped file is current. Besides the labelled sets, every topic's keyword phrases,
titles and the sentences of its explanation are examples of their topic, so a topic nobody
has asked about yet still has words (measured: the sentences add 3 points of top-1 on a
held-out blind set).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from teacher.evaluation import Row
from teacher.learned import OFF_TOPIC, Counts, count
from teacher.matcher import Matcher
from teacher.model import Topic
from teacher.offtopic import NEAR_DOMAIN_EN, NEAR_DOMAIN_RU
from teacher.text import script_of
from teacher.topics import TOPICS


def keyword_rows(topics: Sequence[Topic] = TOPICS) -> list[Row]:
    """Each topic's (positive) keyword phrases, its two titles and the sentences of its two
    bodies as labelled questions, and the off-topic neighbours' vocabulary (the bot, the app,
    buying a board: ``teacher.offtopic``) as examples of the off-topic class."""
    rows: list[Row] = []
    for topic in topics:
        for text, weight in topic.keywords.weighted():
            if weight > 0:
                rows.append(Row("ru" if script_of(text) == "cyr" else "en", topic.id, text))
        rows.append(Row("ru", topic.id, topic.title.ru))
        rows.append(Row("en", topic.id, topic.title.en))
        for lang in ("ru", "en"):
            for sentence in re.split(r"(?<=[.!?;:])\s+|\n+", topic.body.get(lang)):
                if sentence.strip():
                    rows.append(Row(lang, topic.id, sentence))
    rows += [Row("ru", OFF_TOPIC, phrase) for phrase in NEAR_DOMAIN_RU]
    rows += [Row("en", OFF_TOPIC, phrase) for phrase in NEAR_DOMAIN_EN]
    return rows


def train(rows: Iterable[Row], topics: Sequence[Topic] = TOPICS) -> Counts:
    """Count the features of ``rows`` (plus the topics' own keywords) per topic.

    The features are read by a keyword-only matcher, the same reading ``Matcher.score``
    gives at run time, so training and answering see a question alike.
    """
    matcher = Matcher(topics, learn=False)
    classes = [topic.id for topic in topics] + [OFF_TOPIC]
    examples = (
        (matcher.score(row.question, lang_hint=row.lang).features, row.expected)
        for row in (*keyword_rows(topics), *rows)
    )
    return count(examples, classes)
