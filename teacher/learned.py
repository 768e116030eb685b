"""A learned reading of questions: naive Bayes over words, trained on questions people wrote.

The keyword matcher knows the words each topic's author thought of; players use many more
(«куча в углу» for the head, «сгорание костей», "my mate reckons you can skip"). About two
thousand questions, each labelled with its topic or as off-topic — the tuning table, the
development sets and the two blind sets that have been reported — and the sentences of every
topic's own explanation teach a multinomial naive Bayes model which words, word families
(first letters), word pairs and index terms go with which topic. The matcher adds its
probabilities to the keyword scores (``teacher.matcher``).

The model ships as word counts in ``teacher/data/question_model.json`` (a few hundred KB,
nothing downloaded, nothing trained at run time); ``scripts/teacher_train.py`` writes it
again from the labelled sets, and a test fails when the shipped file is not what training
on the current sets and keywords gives. Naive Bayes was chosen by measurement over logistic
regression on held-out blind sets (docs/knowledge.md): with this little data it generalises
as well and trains in milliseconds, deterministically.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import pairwise

from teacher.offtopic import about_the_bot
from teacher.text import Tokens, script_of, significant_words

OFF_TOPIC = "none"
"""The class of questions that are not about the rules."""

ALPHA = 0.05
"""Additive smoothing of the word counts (chosen on held-out sets, docs/knowledge.md)."""

TEMPERATURE = 3.0
"""Naive Bayes multiplies evidence as if words were independent, so its probabilities are
far too sure; dividing the log-probabilities by this spreads them to usable confidences."""

PREFIX = 4
"""A word's first letters stand for its family: сгорание, сгорать, сгорел; блокировать,
блокада; выбросить, выброс — derivation, which lemmas and stems leave apart."""

BOT_CONTEXT = "bot"
"""The feature of a question set in the bot's own context (``offtopic.about_the_bot``): the
matcher declines it — how to use the bot is not a rules answer — unless the model is all but
sure it is a rules question (``matcher.BOT_OFF_TOPIC_MAX``, round 14)."""

WORD = "w:"
"""The prefix of a word's own term among the features."""

NOVEL = ("unk", "unk2")
"""Features of a question with one, or two or more, words the model never saw: questions
about something else bring such words more often than rules questions do (round 6)."""

MODEL_FILE = "question_model.json"
FORMAT_VERSION = 2


DEFINITION = "def"
"""A feature: the question asks what a word means («что такое прайм», "what is timing") —
strategy words and names are asked about this way, rules seldom are."""

_DEFINITION_PAIRS = frozenset(
    {
        ("что", "такое"),
        ("что", "значит"),
        ("что", "означает"),
        ("что", "это"),
        ("это", "что"),
        ("кто", "такой"),
        ("что", "за"),
        ("what", "is"),
        ("what", "does"),
        ("what", "are"),
    }
)
_DEFINITION_WORDS = frozenset({"what's", "whats", "wats", "mean", "means", "meaning", "define"})


def asks_definition(words: Sequence[str]) -> bool:
    """Whether ``words`` ask what something means: «что такое …», «… это что», "what is …",
    "what does … mean"."""
    pairs = pairwise(words)
    return any(p in _DEFINITION_PAIRS for p in pairs) or not _DEFINITION_WORDS.isdisjoint(words)


NOT_ASKED = "noq"
"""A feature: no question word and no question mark (chat during a game, a reaction)."""


def features(
    tokens: Tokens,
    terms: Iterable[str],
    word_term: Callable[[str], str],
    other_reading: Callable[[str], str | None] | None = None,
) -> frozenset[str]:
    """What the model sees of a question: the index terms the matcher found (typos already
    corrected), each significant word's own term and its first letters, adjacent word pairs,
    numbers, dice and rule IDs.

    ``word_term`` reads one word (a lemma's stem in Russian, a stem in English);
    ``other_reading``, if given, a second reading of it — a Latin word typed by a Russian
    speaker read as transliteration («kak bit» → бить), so it meets the Cyrillic questions'
    features (its English stem stays too).
    """
    out = {"t:" + term for term in terms}
    previous = ""
    for word in significant_words(tokens.words):
        term = "#" if script_of(word) == "num" else word_term(word)
        out.add(WORD + term)
        if len(term) > PREFIX:
            out.add("p:" + term[:PREFIX])
        alt = other_reading(word) if other_reading is not None else None
        if alt:
            out.add(WORD + alt)
            if len(alt) > PREFIX:
                out.add("p:" + alt[:PREFIX])
        if previous:
            out.add(f"b:{previous}_{term}")
        previous = term
    if about_the_bot(tokens.words):
        out.add(BOT_CONTEXT)
    if asks_definition(tokens.words):
        out.add(DEFINITION)
        out.update("d:" + f[len(WORD) :] for f in list(out) if f.startswith(WORD))
    for dice in tokens.dice:
        out.add("dice")
        if dice[1] == dice[2]:
            out.add("double")
    out.update("r:" + rule_id for rule_id in tokens.rule_ids)
    if tokens.moves:  # a written move: a question about a concrete play
        out.add("move")
        if len(tokens.moves) > 1:
            out.add("moves")
    return frozenset(out)


def novelty(unseen: int) -> frozenset[str]:
    """The ``NOVEL`` features of a question with ``unseen`` words the model never saw."""
    return frozenset(NOVEL[: min(unseen, len(NOVEL))])


@dataclass(frozen=True, slots=True)
class Counts:
    """Training counts: per class, how many questions, and in how many each feature was."""

    classes: tuple[str, ...]
    documents: tuple[int, ...]
    features: Mapping[str, Mapping[int, int]]
    words: tuple[str, ...] = ()
    """The spelling vocabulary (``teacher.spelling``): correctly spelt words of the training
    questions, most frequent first, that a misspelt question word is corrected to."""

    def to_json(self) -> str:
        data = {
            "format": FORMAT_VERSION,
            "classes": list(self.classes),
            "documents": list(self.documents),
            "features": {
                f: sorted(by_class.items()) for f, by_class in sorted(self.features.items())
            },
            "words": list(self.words),
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Counts:
        data = json.loads(text)
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"question model format {data.get('format')!r} is not supported")
        return cls(
            classes=tuple(data["classes"]),
            documents=tuple(data["documents"]),
            features={
                f: {int(c): int(n) for c, n in pairs} for f, pairs in data["features"].items()
            },
            words=tuple(data.get("words", ())),
        )


def count(
    examples: Iterable[tuple[frozenset[str], str]],
    classes: Sequence[str],
    words: Sequence[str] = (),
) -> Counts:
    """Count features per class over ``(features, class)`` examples (``words``: the spelling
    vocabulary shipped with them)."""
    index = {c: i for i, c in enumerate(classes)}
    documents = [0] * len(classes)
    by_feature: dict[str, dict[int, int]] = {}
    for feats, label in examples:
        c = index[label]
        documents[c] += 1
        for f in feats:
            slot = by_feature.setdefault(f, {})
            slot[c] = slot.get(c, 0) + 1
    return Counts(tuple(classes), tuple(documents), by_feature, tuple(words))


class QuestionModel:
    """Multinomial naive Bayes over question features, read-only once built (thread-safe).

    Kept sparse in plain Python: a feature adds its smoothed log-probability to every class,
    which is the class's default (a feature never seen with it) plus a correction for the
    few classes it was seen with; a question has a few dozen features, so an answer is a few
    hundred additions.
    """

    def __init__(self, counts: Counts, *, alpha: float = ALPHA) -> None:
        self.classes = counts.classes
        self.words = counts.words
        n = len(self.classes)
        vocabulary = len(counts.features)
        totals = [0] * n
        for by_class in counts.features.values():
            for c, k in by_class.items():
                totals[c] += k
        denominators = [math.log(total + alpha * vocabulary) for total in totals]
        self._default = tuple(math.log(alpha) - d for d in denominators)
        self._extra: dict[str, tuple[tuple[int, float], ...]] = {
            f: tuple(
                (c, math.log(k + alpha) - denominators[c] - self._default[c])
                for c, k in sorted(by_class.items())
            )
            for f, by_class in counts.features.items()
        }
        off = self.classes.index(OFF_TOPIC) if OFF_TOPIC in self.classes else -1
        self._rules_features = frozenset(
            f for f, by_class in counts.features.items() if any(c != off for c in by_class)
        )
        docs = counts.documents
        self._log_prior = tuple(math.log((d + 1) / (sum(docs) + n)) for d in docs)

    @classmethod
    def shipped(cls) -> QuestionModel:
        """The model trained on the labelled sets, from the package's data file."""
        text = resources.files("teacher").joinpath("data", MODEL_FILE).read_text("utf-8")
        return cls(Counts.from_json(text))

    def with_novelty(self, feats: frozenset[str]) -> frozenset[str]:
        """``feats`` and the ``NOVEL`` features for its words no training question had."""
        return feats | novelty(sum(f.startswith(WORD) and f not in self._extra for f in feats))

    def foreign(self, feats: Iterable[str]) -> bool:
        """Whether any of ``feats`` was never seen in a rules question (only off-topic ones
        had it, or none): a word from outside the game («холодильник», "espresso")."""
        return any(f in self._extra and f not in self._rules_features for f in feats)

    def probabilities(self, feats: Iterable[str]) -> dict[str, float]:
        """Each class's probability for a question's features (sums to 1)."""
        log = list(self._log_prior)
        for f in feats:
            extra = self._extra.get(f)
            if extra is None:
                continue  # a feature no training question had says nothing
            for c, default in enumerate(self._default):
                log[c] += default
            for c, delta in extra:
                log[c] += delta
        top = max(log)
        weights = [math.exp((x - top) / TEMPERATURE) for x in log]
        total = sum(weights)
        return {c: w / total for c, w in zip(self.classes, weights, strict=True)}
