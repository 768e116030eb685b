"""Training the learned question model (``teacher.learned``) from labelled questions.

Used by ``scripts/teacher_train.py`` (which writes the shipped model) and by the tests that
check the shipped file is current. Besides the labelled sets, every topic's keyword phrases,
titles and the sentences of its explanation are examples of their topic, so a topic nobody
has asked about yet still has words (measured: the sentences add 3 points of top-1 on a
held-out blind set).
"""

from __future__ import annotations

import hashlib
import random
import re
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence

from teacher.evaluation import Row
from teacher.learned import OFF_TOPIC, WORD, Counts, QuestionModel, count, novelty
from teacher.matcher import Matcher, Reading
from teacher.model import Topic
from teacher.offtopic import NEAR_DOMAIN_EN, NEAR_DOMAIN_RU
from teacher.spelling import vocabulary
from teacher.text import RussianWords, script_of, tokenize
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


class Trainer:
    """Trains question models, again and again, from one process's shared readings.

    Leave-one-set-out and the held-out guards of the tests train a model per held-out set
    on nearly the same questions. Reading a question (``Matcher.read``: layout, spelling) and
    scoring what was read are by far the cost of training; only the reading depends on the
    training set (through the spelling vocabulary), so a ``Trainer`` keeps one Russian
    dictionary reader, scores each distinct reading once, and keeps each trained model under a
    content hash of its rows. All of it lives in memory for one run: nothing is written, so
    nothing can go stale.
    """

    def __init__(self, topics: Sequence[Topic] = TOPICS) -> None:
        self._topics = tuple(topics)
        self._russian = RussianWords()
        # Scores readings without a spelling vocabulary: ``score_reading`` never uses one.
        self._scorer = Matcher(self._topics, learn=False, russian=self._russian, vocabulary=())
        self._features: dict[tuple[Reading, str], frozenset[str]] = {}
        self._words: dict[tuple[str, bool], tuple[str, ...]] = {}
        self._trained: dict[str, Counts] = {}

    def matcher(self, counts: Counts) -> Matcher:
        """A matcher answering with the model of ``counts`` that shares this trainer's
        dictionary reader (pure, so only its caches are shared): what a held-out evaluation
        needs, without loading the dictionary again."""
        return Matcher(self._topics, russian=self._russian, model=QuestionModel(counts))

    def _tokens(self, question: str, *, relayout: bool = False) -> tuple[str, ...]:
        """The words of ``question`` (``relayout``: in the keyboard layout it was meant in,
        read without a spelling vocabulary, so the same for every model), once a run."""
        key = (question, relayout)
        words = self._words.get(key)
        if words is None:
            text = self._scorer.relayout(question) if relayout else question
            words = self._words[key] = tokenize(text).words
        return words

    def train(self, rows: Iterable[Row]) -> Counts:
        """Count the features of ``rows`` (plus the topics' own keywords) per topic.

        The features are read by a keyword-only matcher, the same reading ``Matcher.score``
        gives at run time, so training and answering see a question alike. Each question is
        also trained on once more with a typo (``misspelt``); the spelling vocabulary
        (``teacher.spelling``) is built from the same questions and shipped with the counts.
        """
        rows = list(rows)
        key = hashlib.sha256(
            "\n".join(f"{r.lang}\t{r.expected}\t{r.question}" for r in rows).encode()
        ).hexdigest()
        if key not in self._trained:
            self._trained[key] = self._train(rows)
        return self._trained[key]

    def _train(self, rows: list[Row]) -> Counts:
        own = keyword_rows(self._topics)
        # A question typed in the wrong keyboard layout gets its typo after it is re-read in
        # the layout it was meant in: a typo in «ghfdbkj ujkjds» (правило головы) makes it no
        # longer re-read, and its Latin letters would enter the spelling vocabulary as English
        # ("ghfdbkj" three times over), which then stops the real question being re-read.
        rows += [
            Row(row.lang, row.expected, misspelt(self._scorer.relayout(row.question)))
            for row in rows
        ]
        every = [*own, *rows]
        # A question typed in the wrong keyboard layout («gbgcs» for «пипсы») teaches the words
        # it was meant as, not its Latin letters: they would become "English" words and make
        # the layout reading re-type the real Russian word.
        words = vocabulary(
            ((row.lang, self._tokens(row.question, relayout=True)) for row in every),
            self._russian.known,
            trusted=(self._tokens(row.question) for row in own),
        )
        reader = Matcher(self._topics, learn=False, russian=self._russian, vocabulary=words)
        examples = [(self._read(reader, row), row.expected) for row in every]
        # A word only one training question has is, to the model, what a word no training
        # question had is at run time: so the model learns how often each class brings words it
        # never saw.
        seen = Counter(f for feats, _ in examples for f in feats if f.startswith(WORD))
        examples = [
            (feats | novelty(sum(seen[f] == 1 for f in feats if f.startswith(WORD))), label)
            for feats, label in examples
        ]
        classes = [topic.id for topic in self._topics] + [OFF_TOPIC]
        return count(examples, classes, words)

    def _read(self, reader: Matcher, row: Row) -> frozenset[str]:
        reading = reader.read(row.question, lang_hint=row.lang)
        feats = self._features.get((reading, row.lang))
        if feats is None:
            feats = self._scorer.score_reading(reading, lang_hint=row.lang).features
            self._features[(reading, row.lang)] = feats
        return feats


def train(rows: Iterable[Row], topics: Sequence[Topic] = TOPICS) -> Counts:
    """A model trained on ``rows`` (``Trainer.train``; a new trainer: nothing shared)."""
    return Trainer(topics).train(rows)


def misspelt(question: str) -> str:
    """``question`` with one typo in one word of five letters or more (two letters swapped, one
    dropped or one doubled), the same every time: the training questions' misspelt twins, so
    that the model sees the readings a typo gives (measured: docs/knowledge.md)."""
    rnd = random.Random(zlib.crc32(question.encode()))
    words = question.split()
    long_words = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    if not long_words:
        return question
    i = rnd.choice(long_words)
    word = words[i]
    j = rnd.randrange(1, len(word) - 1)
    edit = rnd.randrange(3)
    if edit == 0:
        word = word[:j] + word[j + 1] + word[j] + word[j + 2 :]
    elif edit == 1:
        word = word[:j] + word[j + 1 :]
    else:
        word = word[:j] + word[j] + word[j:]
    words[i] = word
    return " ".join(words)
