"""Find the rules topics a free-text question is about.

Method (details and measurements in docs/knowledge.md):

1. Every topic's keyword phrases are normalised once into tuples of *terms* (Snowball stems,
   dice such as ``d66``) and indexed, together with each word's sound key
   (``text.sound_key``) for typo lookup. Each term gets an inverse-document-frequency weight
   over the 24 topics, so a word many topics share counts for little and a word one topic
   owns (марс, бар) counts fully; words almost every question has (шашка, ход) are capped.
2. A question is tokenised; each word is looked up as a stem, then by sound key, then with
   RapidFuzz's optimal-string-alignment distance over the sound keys (1 edit for 5–7
   letters, 2 for longer). A Latin word is read as English or as transliterated Russian.
3. A phrase fires when all its terms are present; it adds
   ``weight × Σ(idf × quality) × (1 + 0.25 × (terms − 1))`` to its topic, so a phrase
   outranks the same words scattered over other topics. A rule ID in the question ("L-8")
   adds a fixed bonus to the topics that cite it.
4. The game being played (or one the question names) halves the score of topics about the
   other game. If the best topic stays below ``THRESHOLD`` nothing is returned, and the
   bot says it doesn't know that one.
5. Negative evidence: a question that names another game (chess, draughts, a Rubik's cube;
   ``teacher.offtopic``) gets no answer, and one whose words the index mostly does not
   explain needs ``SPARSE_THRESHOLD`` rather than ``THRESHOLD``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from teacher import learned
from teacher.layout import fix_layout
from teacher.learned import QuestionModel
from teacher.model import Lang, Topic, TopicMatch, Variant
from teacher.offtopic import (
    EVERYDAY_EN,
    EVERYDAY_RU,
    GAME_WORDS,
    WEAK_EVERYDAY,
    about_the_bot,
    bot_command,
    comparisons,
    names_other_game,
    names_other_game_in_text,
    starts_a_game_here,
)
from teacher.spelling import Speller
from teacher.text import (
    GLUED_MIN_LEN,
    STOPWORDS_EN,
    STOPWORDS_RU,
    RussianWords,
    SnowballRussianWords,
    SnowballStemmers,
    Stemmer,
    Tokens,
    script_of,
    significant_words,
    sound_key,
    split_glued,
    tokenize,
    translit_to_cyrillic,
)
from teacher.topics import TOPICS

# Words that make a sentence a question; chat during a game («давай быстрее ходи», "nice
# roll lol") has none of them and no question mark (the learned feature ``NOT_ASKED``).
_QUESTION_WORDS = frozenset(
    """
    как какой какая какое какие каким каких что чем чего почему зачем когда сколько куда где
    откуда кто чей ли можно нельзя надо нужно обязательно разве правда
    how what which why when where who whose can could may must should is are do does did
    will would if whats
    """.split()  # noqa: SIM905 - a word list reads better as text
)

THRESHOLD = 1.0
"""Minimum raw score of the best topic: one exact keyword that only this topic uses."""

MIN_COVERAGE = 0.4
"""Share of a question's words (weighted by match quality) the index must explain ..."""
SPARSE_THRESHOLD = 2.0
"""... or else the best topic needs this much evidence: a question mostly made of words no
topic uses ("what's the capital of Australia") is not a rules question because one of its
words resembles a keyword."""

ALTERNATE_MIN = 0.5
"""Minimum raw score for a runner-up to be offered next to the best topic."""

CLOSE_RATIO = 0.7
"""A runner-up scoring at least this share of the best topic's score is a close second."""

KEYWORD_SHARE = 1.0
"""Weight of the keyword score against the learned probability (both in [0, 1] after
``KEYWORD_CAP``) when ranking; chosen on held-out blind sets (docs/knowledge.md)."""
KEYWORD_CAP = 4.0
"""A keyword score this high is certain: more keywords firing do not outweigh the model."""
LEARNED_MIN = 0.3
"""When the keywords alone are not sure, the learned model's best topic needs this
probability, ..."""
KEYWORD_MIN = 0.1
"""... and some keyword must point somewhere (a question made only of words no topic uses,
«почему не работает вайфай», is not answered on the model's word alone). Both chosen by
leave-one-set-out (0.35 and 0.3 until round 8; 0.3 and 0.2 over v1–v8 in round 9; the keyword
floor 0.1 over v1–v15 in round 16, docs/knowledge.md)."""
MODEL_ALONE_MIN = 0.5
"""A question no keyword points at is still answered when the model gives its best topic this
much ...  («что такое заборчик из шести», «стенка из 6»: the model knows them, no keyword has
«заборчик» or «стенка») ..."""
MODEL_ALONE_OFF_TOPIC_MAX = 0.06
"""... and finds it this unlikely off-topic: «почему не работает вайфай» stays declined (round
17, leave-one-set-out over v1–v16: the same from 0.3 to 0.5 at 0.06, no off-topic question
answered; 0.1 answers one below 0.5, docs/knowledge.md)."""
OFF_TOPIC_MAX = 0.16
"""A question the learned model finds this likely off-topic gets "I don't know" (chosen by
leave-one-set-out: 0.3 over v1–v3 in round 3, 0.25 in round 4, 0.15 over v1–v5 in round 6,
0.12 over v1–v7 in round 8, 0.14 over v1–v15 in round 16, 0.16 over v1–v16 in round 17,
docs/knowledge.md), ..."""
SURE_OFF_TOPIC_MAX = 0.3
"""... unless the doubt stays below this and the model's best topic is ``SURE_RATIO`` times as
likely (``SURE_RATIO_CONFIDENT`` when the keywords alone are confident): "is there a draw in
backgammon" (0.19 off-topic, 0.77 resign_draw), «хочу сдаться безнадежно уже что будет» (0.17,
0.75) were declined though the model was four times surer of the topic (round 17)."""
SURE_RATIO = 4.0
SURE_RATIO_CONFIDENT = 2.5
FRAGMENT_WORDS = 1
"""A question this short (significant words, each found exactly: «бой», «пункты», «снять»,
"points?") is answered on any keyword evidence ...  """
FRAGMENT_OFF_TOPIC_MAX = 0.06
"""... when the model finds it this unlikely off-topic, however spread the model is over the
topics a bare word may mean (round 19, leave-one-set-out over v1–v18: ru −6, en −4 wrong
"don't know", no off-topic question answered; 0.1 answers 2, 0.16 answers 7; two words answer
one more off-topic question for one English answer, docs/knowledge.md)."""
BARE_KEYWORD_WORDS = 1
"""A question that is one of a topic's keywords and nothing more («матч», «кокс», exact, no
other word) is declined only when off-topic is the model's most likely class for it: the
everyday senses such a word has elsewhere («матч Россия — Бразилия») taught the model a doubt
that a bare word typed to the rules teacher does not deserve (round 12)."""
LEARNED_CLOSE_RATIO = 0.5
"""With the learned model, a runner-up scoring this share of the best is offered as a close
second: on held-out blind sets this names the right topic in about 70 % of the questions
whose answer was second, and flags 13 % of those answered right first (docs/knowledge.md)."""
LEARNED_OTHER_GAME_FACTOR = 0.3
"""Factor for a topic about the other game than the one asked about or played: lower than
``OTHER_GAME_FACTOR`` because the model, sure of a question it was trained on in general
(«встать на шашку соперника» is about long nardy's occupied points), must still give way
to the game on the table (in short nardy it is hitting)."""
BOT_OFF_TOPIC_MAX = 0.01
"""A question set in the bot's own context (the app, "this bot", the computer opponent) is
declined — how to use the bot is no rules answer — unless the model is this sure it is a rules
question: «в приложении дом справа, а где он по правилам?» asks a rule (round 14, chosen by
leave-one-set-out, docs/knowledge.md)."""
EVERYDAY_OFF_TOPIC_MIN = 0.01
"""An everyday word of the game among words no rules question had («голова кружится») declines
the question unless the model is this sure it is a rules question (round 15)."""
RUNNER_UP_MIN = 0.1
"""A runner-up below this combined score is not offered."""
SUGGEST_MIN = 0.5
"""A question ``match`` does not answer, but does not decline outright either, gets "did you
mean …?" (``Matcher.suggest``) when its best topic's combined score reaches this (chosen by
leave-one-set-out over v1–v9 in round 10: 0.4 suggests to two more off-topic questions and
no more right topics, docs/knowledge.md); ..."""
SUGGEST_RUNNER_UP = 0.5
"""... and the runner-up is offered too when it reaches this share of ``SUGGEST_MIN``."""
SUGGEST_LIMIT = 2
"""At most the best topic and one runner-up are suggested."""

RULED_OUT_FACTOR = 0.5
"""Score factor for a topic whose ``"-"`` phrase fired (context that rules it out)."""

OTHER_GAME_FACTOR = 0.5
"""Score factor for topics about the other game (e.g. the bar while playing long nardy)."""

GENERIC_WORDS: tuple[str, ...] = (
    "нарды",
    "шашка",
    "фишка",
    "игра",
    "ход",
    "ходить",
    "доска",
    "соперник",
    "противник",
    "nardy",
    "checker",
    "game",
    "move",
    "turn",
    "opponent",
)
"""Words nearly every rules question contains: they support a phrase but never decide."""
GENERIC_IDF = 0.3

_Q_EXACT = 1.0
_Q_SOUND = 0.9
_Q_STEM_SOUND = 0.85
_Q_FUZZY = (1.0, 0.8, 0.7)  # by edit distance
_Q_SHORT_FUZZY = 0.6  # a 4-letter word one edit away: supports, never decides alone
_Q_OTHER_READING = 0.95  # a Latin word read in the language the player does not use
_PHRASE_BONUS = 0.25
_RULE_ID_BONUS = 3.0
_FUZZY_MIN_LEN = 5
_SHORT_FUZZY_LEN = 4
BAG_WEIGHT = 0.5
"""Weight of a single topic word found anywhere in the question (outside a whole phrase)."""

_LONG_PREFIXES = ("длин", "dlinn", "long")
_SHORT_PREFIXES = ("коротк", "korotk", "short")


@dataclass(frozen=True, slots=True)
class _Phrase:
    text: str
    topic: int
    terms: tuple[str, ...]
    weight: float


@dataclass(frozen=True, slots=True)
class _Index:
    phrases: tuple[_Phrase, ...]
    by_term: dict[str, tuple[int, ...]]  # term -> indexes into phrases
    idf: dict[str, float]
    sound_to_terms: dict[str, frozenset[str]]
    fuzzy_keys: dict[str, tuple[str, ...]]  # script -> sound keys of whole keyword words
    topics_by_rule: dict[str, tuple[int, ...]]
    bag: dict[str, tuple[tuple[int, float], ...]]  # term -> (topic, weight × idf) of its words
    terms: frozenset[str]  # every term the index knows (phrases and title words)
    topic_terms: tuple[frozenset[str], ...]  # by topic: the terms of its keywords and title


@dataclass(frozen=True, slots=True)
class Reading:
    """A question as read (``Matcher.read``): the tokens after the layout and spelling
    corrections, whether it is asked at all (a question word or mark), whether it names
    another game."""

    tokens: Tokens
    asked: bool
    other_game: bool


@dataclass(frozen=True, slots=True)
class Scored:
    """The keyword evidence for one question (what ``Matcher.match`` decides on)."""

    ranked: tuple[tuple[int, float], ...]  # (topic index, raw score), best first
    matched: dict[int, list[str]]  # topic index -> the phrases that fired
    confident: bool  # the keywords alone are enough to answer
    features: frozenset[str] = frozenset()  # what the learned model reads
    game: Variant | None = None  # the game the question is about (named, or being played)
    other_game: bool = False  # it names another game (chess …): never a nardy answer
    ruled_out: frozenset[int] = frozenset()  # topics a "-" phrase ruled out
    # An everyday word of the game alone («голова болит»): the model features of the other
    # words, which decline the question if no rules question ever had one (round 11).
    everyday: tuple[str, ...] = ()
    # The question is a keyword of the best topic and nothing else («матч», "mars"): the
    # model's off-topic doubt needs ``OFF_TOPIC_MAX_BARE`` to decline it (round 12).
    bare_keyword: bool = False
    # It asks how to start a game in the bot («как начать партию в боте»): the bot's /new,
    # declined however sure the model is of the match topic (round 18).
    new_game_here: bool = False
    # A one-word question whose word is a keyword's («бой», «пункты»): answered on the
    # keywords when the model does not doubt it (``FRAGMENT_OFF_TOPIC_MAX``, round 19).
    fragment: bool = False


class Matcher:
    """The question matcher over a topic catalog.

    The module-level ``match`` uses one shared instance (``default_matcher``); building
    others is for experiments, e.g. trying another Russian stemmer or lemmatiser through
    ``stem_ru`` (see docs/knowledge.md).
    """

    def __init__(
        self,
        topics: Sequence[Topic] = TOPICS,
        *,
        russian: RussianWords | SnowballRussianWords | None = None,
        bag_weight: float = BAG_WEIGHT,
        model: QuestionModel | None = None,
        learn: bool = True,
        vocabulary: Sequence[str] | None = None,
    ) -> None:
        # Imported here, not at module level, so that importing the package stays cheap.
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        from teacher.lexicon import EN, EN_FORMS

        snowball = SnowballStemmers()
        self._ru = russian or RussianWords(snowball)
        self._stem_ru: Stemmer = snowball.ru
        self._raw_stem_en: Stemmer = snowball.en
        self._en_canonical = {snowball.en(a): snowball.en(b) for a, b in EN.items()}
        self._en_forms = EN_FORMS
        self._bag_weight = bag_weight
        self._extract_one: Callable[..., Any] = process.extractOne
        self._distance: Callable[..., int] = OSA.distance
        self._topics = tuple(topics)
        self._double = self._ru.term("дубль")
        self._generic = frozenset(self._term(w) for w in GENERIC_WORDS)
        self._everyday = frozenset(self._term(w) for w in (*EVERYDAY_RU, *EVERYDAY_EN))
        self._weak_everyday = frozenset(self._term(w) for w in WEAK_EVERYDAY)
        self._game_words = frozenset(self._term(w) for w in (*GENERIC_WORDS, *GAME_WORDS))
        self._index = self._build()
        self._model = (model or QuestionModel.shipped()) if learn else None
        # Misspelt words are corrected to the training questions' vocabulary (the model's,
        # or the one training is building) before anything else reads them.
        words = vocabulary if vocabulary is not None else getattr(self._model, "words", ())
        self._speller = Speller(words, self._ru.known) if words else None
        self._last: tuple[tuple[str, Lang | None, Variant | None], Scored, dict[str, float]] = (
            ("", None, None),
            Scored((), {}, confident=False),
            {},
        )
        # The words a run of words typed without spaces («можнолибить») may be made of: the
        # spelling vocabulary's Russian, the stop and question words, the keywords' words.
        self._glue_words = frozenset(
            w
            for w in (*words, *STOPWORDS_RU, *_QUESTION_WORDS, *self._keyword_words("ru"))
            if script_of(w) == "cyr"
        )
        # The English a question typed in the Cyrillic layout is checked against.
        self._english = frozenset(
            w for w in (*STOPWORDS_EN, *words, *self._keyword_words("en")) if script_of(w) == "lat"
        )

    # -- index -----------------------------------------------------------------------------------

    def _term(self, word: str) -> str:
        """The term of one word: its stem in its own language (digits stay as they are)."""
        script = script_of(word)
        if script == "cyr":
            return self._ru.term(word)
        if script == "lat":
            return self._stem_en(word)
        return word

    def _translit_term(self, word: str) -> str | None:
        """A Latin word's term read as transliterated Russian ("golovy" → голова)."""
        if script_of(word) != "lat":
            return None
        return self._ru.term(translit_to_cyrillic(word))

    def _keyword_words(self, lang: Lang) -> set[str]:
        return {
            w
            for t in self._topics
            for p in (t.keywords.en if lang == "en" else t.keywords.ru)
            for w in tokenize(p.lstrip("!~-")).words
        }

    def relayout(self, question: str) -> str:
        """``question`` in the keyboard layout it was meant in (``teacher.layout``). A word
        re-typed counts as Russian when the dictionary knows it or the spelling vocabulary
        corrects it (round 9: «elfdjtybz» is «удавоения», a typo of «удвоения»)."""
        return fix_layout(question, self._russian_or_typo, self._english.__contains__)

    def _russian_or_typo(self, word: str) -> bool:
        """A dictionary word, a word of the topics' own keywords the dictionary lacks («пипсов»,
        round 14: «crjkmrj gbgcjd» is «сколько пипсов»), or one the spelling vocabulary
        corrects (a misspelt word)."""
        if self._ru.known(word):
            return True
        if script_of(word) == "cyr" and any(
            term in self._index.terms for term in self._ru.candidates(word)
        ):
            return True
        speller = self._speller
        return (
            speller is not None and script_of(word) == "cyr" and speller.correct(word, "ru") != word
        )

    def _stem_en(self, word: str) -> str:
        """An English word's term: its Snowball stem, through the players' lexicon (a few
        forms are terms of their own: "doubles", ``lexicon.EN_FORMS``)."""
        form = self._en_forms.get(word.lower())
        if form is not None:
            return form
        stem = self._raw_stem_en(word)
        return self._en_canonical.get(stem, stem)

    def _build(self) -> _Index:
        phrases: list[_Phrase] = []
        sound_to_terms: dict[str, set[str]] = defaultdict(set)
        word_keys: set[str] = set()
        topics_by_rule: dict[str, list[int]] = defaultdict(list)
        for t_idx, topic in enumerate(self._topics):
            for rule_id in topic.rule_ids:
                topics_by_rule[rule_id].append(t_idx)
            best: dict[tuple[str, ...], _Phrase] = {}
            for text, weight in topic.keywords.weighted():
                tokens = tokenize(text)
                words = tuple(significant_words(tokens.words))
                terms = tuple(dict.fromkeys([*(self._term(w) for w in words), *tokens.dice]))
                if not terms:
                    raise ValueError(f"keyword {text!r} of topic {topic.id!r} has no content")
                for word in words:
                    term = self._term(word)
                    sound_to_terms[sound_key(word)].add(term)
                    sound_to_terms[sound_key(term)].add(term)
                    word_keys.add(sound_key(word))
                # Forms that reduce to the same terms ("голова", "с головы") count once.
                key = tuple(sorted(terms))
                if key not in best or best[key].weight < weight:
                    best[key] = _Phrase(text=text, topic=t_idx, terms=terms, weight=weight)
            phrases.extend(best.values())

        by_term: dict[str, list[int]] = defaultdict(list)
        topics_of_term: dict[str, set[int]] = defaultdict(set)
        for p_idx, phrase in enumerate(phrases):
            for term in phrase.terms:
                by_term[term].append(p_idx)
                topics_of_term[term].add(phrase.topic)
        n = len(self._topics)
        idf = {
            term: math.log(1 + n / len(ts)) / math.log(1 + n) for term, ts in topics_of_term.items()
        }
        for word in GENERIC_WORDS:
            term = self._term(word)
            if term in idf:
                idf[term] = min(idf[term], GENERIC_IDF)

        # Every word of a topic's keywords and title, weighted by how few topics share it.
        bag_words: dict[int, set[str]] = defaultdict(set)
        for t_idx, topic in enumerate(self._topics):
            texts = [text for text, weight in topic.keywords.weighted() if weight > 0]
            texts += [topic.title.ru, topic.title.en]
            for text in texts:
                for word in significant_words(tokenize(text).words):
                    if script_of(word) == "num":
                        continue
                    term = self._term(word)
                    bag_words[t_idx].add(term)
                    sound_to_terms[sound_key(word)].add(term)
                    word_keys.add(sound_key(word))
        topics_of_bag: dict[str, list[int]] = defaultdict(list)
        for t_idx, terms_ in bag_words.items():
            for term in terms_:
                topics_of_bag[term].append(t_idx)
        generic = {self._term(w) for w in GENERIC_WORDS}
        bag: dict[str, tuple[tuple[int, float], ...]] = {}
        for term, ts in topics_of_bag.items():
            weight = math.log(1 + n / len(ts)) / math.log(1 + n)
            if term in generic:
                weight = min(weight, GENERIC_IDF)
            bag[term] = tuple((t_idx, weight) for t_idx in ts)

        fuzzy: dict[str, list[str]] = defaultdict(list)
        for key in sorted(word_keys):
            script = script_of(key)
            if script != "num" and len(key) >= _SHORT_FUZZY_LEN:
                fuzzy[script].append(key)
        return _Index(
            phrases=tuple(phrases),
            by_term={t: tuple(ps) for t, ps in by_term.items()},
            idf=idf,
            sound_to_terms={k: frozenset(v) for k, v in sound_to_terms.items()},
            fuzzy_keys={k: tuple(v) for k, v in fuzzy.items()},
            topics_by_rule={r: tuple(ts) for r, ts in topics_by_rule.items()},
            bag=bag,
            terms=frozenset(by_term) | frozenset(bag),
            topic_terms=tuple(
                frozenset(bag_words[i])
                | {t for p in phrases if p.topic == i and p.weight > 0 for t in p.terms}
                for i in range(n)
            ),
        )

    # -- lookup ----------------------------------------------------------------------------------

    def _lookup(
        self,
        word: str,
        stems: Sequence[str],
        quality: float,
        found: dict[str, float],
        *,
        dictionary_word: bool = False,
    ) -> None:
        """Record the terms ``word`` stands for: exact term, sound-alike, then fuzzy.

        ``stems`` are the word's candidate terms, best first. A word the Russian dictionary
        knows is a real word, not a typo: it is taken as it is or not at all (so «дам» never
        becomes «дом»). Other words may be one edit from a keyword word from four letters on
        (short words weigh less: they support a topic, never decide it), two from eight.
        """
        index = self._index
        for stem in stems:
            if stem in index.terms:
                _keep(found, (stem,), quality * _Q_EXACT)
                return
        if dictionary_word:
            return
        word_key = sound_key(word)
        for key, q in ((word_key, _Q_SOUND), *((sound_key(s), _Q_STEM_SOUND) for s in stems)):
            terms = index.sound_to_terms.get(key)
            if terms:
                _keep(found, terms, quality * q)
                return
        # English has no dictionary here to tell a typo from a real word ("rice", "love"),
        # so its four-letter words are not corrected.
        min_len = _SHORT_FUZZY_LEN if script_of(word) == "cyr" else _FUZZY_MIN_LEN
        if len(word_key) < min_len:
            return
        max_dist = 1 if len(word_key) < 8 else 2
        choices = index.fuzzy_keys.get(script_of(word_key), ())
        for key in dict.fromkeys([word_key, *(sound_key(s) for s in stems)]):
            if len(key) < min_len:
                continue
            hit = self._extract_one(key, choices, scorer=self._distance, score_cutoff=max_dist)
            if hit is not None:
                q = _Q_SHORT_FUZZY if len(word_key) < _FUZZY_MIN_LEN else _Q_FUZZY[int(hit[1])]
                _keep(found, index.sound_to_terms[hit[0]], quality * q)
                return

    def _lookup_cyrillic(self, word: str, quality: float, found: dict[str, float]) -> None:
        self._lookup(
            word, self._ru.candidates(word), quality, found, dictionary_word=self._ru.known(word)
        )

    def _lookup_latin(self, word: str, lang_hint: Lang | None, found: dict[str, float]) -> None:
        """Read a Latin word as English ("head") or as transliterated Russian ("golova").

        The reading in the player's language is tried first, and the other one only if the
        first finds no exact term, so that "mars" is not counted twice (as mars and марс).
        """
        cyr = translit_to_cyrillic(word)
        english = (word, (self._stem_en(word),))
        russian = (cyr, self._ru.candidates(cyr))
        if lang_hint == "ru":
            readings = ((russian, 1.0), (english, _Q_OTHER_READING))
        else:
            readings = ((english, 1.0), (russian, _Q_OTHER_READING))
        for (_, stems), quality in readings:
            for stem in stems:
                if stem in self._index.terms:
                    _keep(found, (stem,), quality)
                    return
        # Only the player's own reading may be a short sound-alike or typo: "pizza" read as
        # Russian is one edit from «пипса», "cup" sounds like «куб».
        before = len(found)
        for i, ((surface, stems), quality) in enumerate(readings):
            if i == 0 or len(word) >= 6:
                self._lookup(surface, stems, quality, found)
        if len(found) == before and len(word) >= 6:
            self._split_compound(word, found)

    def _split_compound(self, word: str, found: dict[str, float]) -> None:
        """Read a run-together word ("bearoff", "pipcount") as two known English words."""
        for cut in range(3, len(word) - 2):
            left, right = self._stem_en(word[:cut]), self._stem_en(word[cut:])
            if left in self._index.by_term and right in self._index.by_term:
                _keep(found, (left, right), _Q_SOUND)
                return

    def _terms(
        self,
        tokens: Tokens,
        lang_hint: Lang | None,
        unexplained: list[str] | None = None,
        coverage: list[float] | None = None,
        per_word: list[tuple[str, dict[str, float]]] | None = None,
    ) -> dict[str, float]:
        """The terms of a question with their quality; words that found no term at all are
        appended to ``unexplained``, each word's best quality to ``coverage`` and each word
        with its own terms to ``per_word`` (when given)."""
        found: dict[str, float] = {}
        for word in significant_words(tokens.words):
            mine: dict[str, float] = {}
            script = script_of(word)
            if script == "cyr":
                self._lookup_cyrillic(word, 1.0, mine)
            elif script == "lat":
                self._lookup_latin(word, lang_hint, mine)
            elif word in self._index.by_term:
                _keep(mine, (word,), _Q_EXACT)
            # A bare number (a point, a roll) is part of a nardy question, not a foreign word.
            if not mine and unexplained is not None and script != "num":
                unexplained.append(word)
            if coverage is not None and script != "num":
                coverage.append(max(mine.values(), default=0.0))
            if per_word is not None and script != "num":
                per_word.append((word, mine))
            for term, quality in mine.items():
                _keep(found, (term,), quality)
        for dice in tokens.dice:
            if dice in self._index.by_term:
                _keep(found, (dice,), _Q_EXACT)
            if dice[1] == dice[2] and self._double in self._index.terms:
                _keep(found, (self._double,), _Q_SOUND)  # "6-6" is a double
        return found

    def terms_of(self, question: str, lang_hint: Lang | None = None) -> dict[str, float]:
        """The index terms found in ``question`` with their match quality (for debugging)."""
        return self._terms(tokenize(self.relayout(question)), lang_hint)

    # -- scoring ---------------------------------------------------------------------------------

    def _confident(
        self,
        best: tuple[int, float],
        found: dict[str, float],
        unexplained: list[str],
        phrase_scores: dict[int, float],
    ) -> bool:
        """Whether the best topic is an answer rather than a guess.

        Either its score reaches ``THRESHOLD`` (one exact keyword that only this topic
        uses), or it explains the whole question: one of its keyword phrases fired, every
        significant word found a term and every term belongs to this topic or is a word
        every question may have (нарды, шашка): «голова», «зары», "doubling". A question
        made of the topic's own words is about it even when those words are shared.
        """
        t_idx, raw = best
        if raw >= THRESHOLD:
            return True
        if phrase_scores.get(t_idx, 0.0) < ALTERNATE_MIN or unexplained or not found:
            return False
        own = self._index.topic_terms[t_idx]
        return all(term in own or term in self._generic for term in found)

    def read(self, question: str, lang_hint: Lang | None = None) -> Reading:
        """``question`` as the matcher reads it: in the keyboard layout it was meant in, its
        misspelt words corrected to the spelling vocabulary, and whether it names another
        game. Everything after this step (``score_reading``) depends on the reading alone,
        not on the vocabulary, so training can reuse it (``teacher.training.Trainer``)."""
        tokens = tokenize(self.relayout(question))
        # Another game is named by the words as typed: a correction may turn a name no
        # training question has into a nardy word («кубик рубика» → «рубка»).
        if (
            names_other_game(tokens.words, self._ru.lemma)
            or names_other_game_in_text(question, tokens.words, self._ru.lemma)
            or (lang_hint == "ru" and self._names_other_game_in_translit(tokens.words))
        ):
            return Reading(tokens, asked=True, other_game=True)
        # A game named only as a comparison («как в шахматах», "I only play chess") is not
        # what the question asks about: its words are dropped (round 10).
        compared = comparisons(tokens.words, self._ru.lemma)
        if compared:
            kept = tuple(w for i, w in enumerate(tokens.words) if i not in compared)
            tokens = replace(tokens, words=kept)
        if self._speller is not None:
            correct = self._speller.correct
            tokens = replace(
                tokens, words=self._unglue(tuple(correct(w, lang_hint) for w in tokens.words))
            )
            if names_other_game(tokens.words, self._ru.lemma):
                return Reading(tokens, asked=True, other_game=True)
        asked = "?" in question or bool(_QUESTION_WORDS.intersection(tokens.words))
        return Reading(tokens, asked, other_game=False)

    def _names_other_game_in_translit(self, words: tuple[str, ...]) -> bool:
        """Whether a Russian speaker's Latin words name another game read as transliteration
        («kak igrat v shashki», «pravila shahmat»; round 19)."""
        if not any(script_of(w) == "lat" for w in words):
            return False
        cyrillic = tuple(translit_to_cyrillic(w) if script_of(w) == "lat" else w for w in words)
        return names_other_game(cyrillic, self._ru.lemma)

    def _unglue(self, words: tuple[str, ...]) -> tuple[str, ...]:
        """``words`` with each long word no dictionary knows that is a run of words typed
        without spaces («ктопервыйходит», «можнолибить») read as those words (round 17)."""
        if not any(len(w) >= GLUED_MIN_LEN for w in words):
            return words
        out: list[str] = []
        for word in words:
            pieces = None
            if len(word) >= GLUED_MIN_LEN and script_of(word) == "cyr" and not self._ru.known(word):
                pieces = split_glued(word, self._glue_words.__contains__)
            out.extend(pieces or (word,))
        return tuple(out)

    def score(
        self, question: str, *, lang_hint: Lang | None = None, variant: Variant | None = None
    ) -> Scored:
        """Every topic's keyword score for ``question`` and whether the best one is confident
        (the evidence ``match`` decides on, and the learned model adds to)."""
        return self.score_reading(
            self.read(question, lang_hint), lang_hint=lang_hint, variant=variant
        )

    def score_reading(
        self, reading: Reading, *, lang_hint: Lang | None = None, variant: Variant | None = None
    ) -> Scored:
        """``score`` of a question already read (``read``)."""
        if reading.other_game:
            return Scored((), {}, confident=False, other_game=True)
        index = self._index
        tokens = reading.tokens
        unexplained: list[str] = []
        coverage: list[float] = []
        per_word: list[tuple[str, dict[str, float]]] = []
        found = self._terms(tokens, lang_hint, unexplained, coverage, per_word)
        scores: dict[int, float] = defaultdict(float)
        matched: dict[int, list[str]] = defaultdict(list)

        candidates = {p for term in found for p in index.by_term.get(term, ())}
        in_phrase: set[tuple[int, str]] = set()
        ruled_out: set[int] = set()
        phrase_scores: dict[int, float] = defaultdict(float)
        for p_idx in sorted(candidates):
            phrase = index.phrases[p_idx]
            if not all(t in found for t in phrase.terms):
                continue
            total = sum(index.idf[t] * found[t] for t in phrase.terms)
            bonus = 1 + _PHRASE_BONUS * (len(phrase.terms) - 1)
            if phrase.weight < 0:  # context that rules this topic out
                ruled_out.add(phrase.topic)
                continue
            scores[phrase.topic] += phrase.weight * total * bonus
            phrase_scores[phrase.topic] += phrase.weight * total * bonus
            matched[phrase.topic].append(phrase.text)
            in_phrase.update((phrase.topic, t) for t in phrase.terms)

        if self._bag_weight:
            for term, quality in found.items():
                for t_idx, weight in index.bag.get(term, ()):
                    if (t_idx, term) not in in_phrase:  # a fired phrase has counted it
                        scores[t_idx] += self._bag_weight * weight * quality

        for rule_id in tokens.rule_ids:
            for t_idx in index.topics_by_rule.get(rule_id, ()):
                scores[t_idx] += _RULE_ID_BONUS
                matched[t_idx].append(rule_id)

        for t_idx in ruled_out:
            if t_idx in scores:
                scores[t_idx] *= RULED_OUT_FACTOR

        game = _game_named(tokens.words) or variant
        if game is not None:
            for t_idx in scores:
                if not self._topics[t_idx].applies(game):
                    scores[t_idx] *= OTHER_GAME_FACTOR

        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], self._topics[kv[0]].number))
        confident = bool(ranked) and self._confident(ranked[0], found, unexplained, phrase_scores)
        sparse = bool(coverage) and sum(coverage) / len(coverage) < MIN_COVERAGE
        if sparse and ranked and ranked[0][1] < SPARSE_THRESHOLD:
            confident = False
        feats = learned.features(
            tokens, found, self._term, self._translit_term if lang_hint == "ru" else None
        )
        if not reading.asked:
            feats |= {learned.NOT_ASKED}
        everyday = (
            () if tokens.rule_ids or tokens.dice or tokens.moves else self._everyday_only(per_word)
        )
        bare = (
            confident
            and not unexplained
            and 0 < len(coverage) <= BARE_KEYWORD_WORDS
            and min(coverage) >= _Q_EXACT
            and phrase_scores.get(ranked[0][0], 0.0) > 0
        )
        return Scored(
            tuple(ranked),
            dict(matched),
            confident,
            feats,
            game,
            ruled_out=frozenset(ruled_out),
            everyday=everyday,
            bare_keyword=bare,
            new_game_here=starts_a_game_here(tokens.words),
            fragment=0 < len(coverage) <= FRAGMENT_WORDS and min(coverage) >= _Q_EXACT,
        )

    def _everyday_only(self, per_word: list[tuple[str, dict[str, float]]]) -> tuple[str, ...]:
        """For a question whose only words of the game are everyday ones («голова», «марс»,
        "prime") with no word of the game proper beside them (шашка, зар, ход; "checker"):
        the model features of its words that found no term, which ``_rank`` looks up — a
        word no rules question ever had («болит», «холодильник», "espresso") says the
        question is about the everyday sense. Empty otherwise (round 11)."""
        sure = [
            (word, {t for t, q in mine.items() if q >= _Q_STEM_SOUND}) for word, mine in per_word
        ]
        everyday = {t for _, terms in sure for t in terms & self._everyday}
        strong = everyday - self._weak_everyday
        # None, or two of the game's words («снимать с головы»); a weak one ("take") beside
        # another everyday word does not count as the second.
        if not everyday or len(strong) > 1 or (not strong and len(everyday) > 1):
            return ()
        if any(terms & self._game_words for _, terms in sure):
            return ()
        return tuple(learned.WORD + self._term(word) for word, terms in sure if not terms)

    def match(
        self,
        question: str,
        *,
        lang_hint: Lang | None = None,
        variant: Variant | None = None,
        limit: int = 3,
    ) -> list[TopicMatch]:
        """Rank topics for ``question``; empty when no topic is a confident answer."""
        if bot_command(question):
            return []
        scored = self.score(question, lang_hint=lang_hint, variant=variant)
        if self._model is not None:
            feats = self._model.with_novelty(scored.features)
            p = self._model.probabilities(feats)
            # ``suggest`` right after an unanswered question reuses this reading (one tuple,
            # replaced whole, so a concurrent caller sees either the old one or the new).
            self._last = ((question, lang_hint, variant), scored, p)
            return self._combine(scored, p, limit)
        ranked, matched = scored.ranked, scored.matched
        if not scored.confident:
            return []
        return [
            TopicMatch(
                topic=self._topics[t_idx],
                score=round(1 - math.exp(-raw / 2), 3),
                matched=tuple(matched.get(t_idx, ())),
                close=rank > 0 and raw >= CLOSE_RATIO * ranked[0][1],
            )
            for rank, (t_idx, raw) in enumerate(ranked[: max(limit, 1)])
            if raw >= ALTERNATE_MIN
        ]

    def _combine(self, scored: Scored, p: dict[str, float], limit: int) -> list[TopicMatch]:
        """Rank by keyword score (capped, scaled to [0, ``KEYWORD_SHARE``]) plus the learned
        probability, and answer when either reading is sure enough and the question does not
        look off-topic to the model."""
        ranked, sure = self._rank(scored, p)
        if not ranked or not sure:
            return []
        return self._matches(scored, ranked, limit)

    def _rank(self, scored: Scored, p: dict[str, float]) -> tuple[list[tuple[int, float]], bool]:
        """Topics by combined score, best first, and whether the best is an answer; no topics
        at all when the question is declined outright (another game, the bot, off-topic)."""
        if (
            scored.other_game
            or scored.new_game_here
            or (
                learned.BOT_CONTEXT in scored.features
                and p.get(learned.OFF_TOPIC, 1.0) >= BOT_OFF_TOPIC_MAX
            )
            or self._off_topic(scored, p)
            or (
                self._model is not None
                and self._model.foreign(scored.everyday)
                and p.get(learned.OFF_TOPIC, 1.0) >= EVERYDAY_OFF_TOPIC_MIN
            )
        ):
            return [], False
        raw = dict(scored.ranked)
        best_raw = max(raw.values(), default=0.0)
        combined: dict[int, float] = {}
        for t_idx, topic in enumerate(self._topics):
            keyword = raw.get(t_idx, 0.0)
            # The other game's topics rank lower however sure their keywords are: the factor
            # ``score`` applied is taken back out, and applied after the cap.
            other = scored.game is not None and not topic.applies(scored.game)
            if other:
                keyword /= OTHER_GAME_FACTOR
            value = KEYWORD_SHARE * min(keyword, KEYWORD_CAP) / KEYWORD_CAP + p.get(topic.id, 0.0)
            if t_idx in scored.ruled_out:  # «в середине игры»: however sure the model is
                value *= RULED_OUT_FACTOR
            combined[t_idx] = value * LEARNED_OTHER_GAME_FACTOR if other else value
        learned_best = max(p.get(topic.id, 0.0) for topic in self._topics)
        sure = (
            scored.confident
            or (learned_best >= LEARNED_MIN and best_raw >= KEYWORD_MIN)
            or (
                learned_best >= MODEL_ALONE_MIN
                and p.get(learned.OFF_TOPIC, 1.0) < MODEL_ALONE_OFF_TOPIC_MAX
            )
            or (
                scored.fragment
                and best_raw >= KEYWORD_MIN
                and p.get(learned.OFF_TOPIC, 1.0) < FRAGMENT_OFF_TOPIC_MAX
            )
        )
        ranked = sorted(combined.items(), key=lambda kv: (-kv[1], self._topics[kv[0]].number))
        return ranked, sure

    def _off_topic(self, scored: Scored, p: dict[str, float]) -> bool:
        """Whether the model finds the question off-topic: at ``OFF_TOPIC_MAX`` unless it is
        far surer of a topic (``SURE_OFF_TOPIC_MAX``), or for a bare keyword («матч») only when
        off-topic is the model's most likely class."""
        doubt = p.get(learned.OFF_TOPIC, 0.0)
        if doubt < OFF_TOPIC_MAX:
            return False
        best = max(p.get(topic.id, 0.0) for topic in self._topics)
        ratio = SURE_RATIO_CONFIDENT if scored.confident else SURE_RATIO
        if doubt < SURE_OFF_TOPIC_MAX and best >= ratio * doubt:
            return False
        if not scored.bare_keyword:
            return True
        return doubt >= best

    def _matches(
        self, scored: Scored, ranked: list[tuple[int, float]], limit: int
    ) -> list[TopicMatch]:
        top = ranked[0][1]
        return [
            TopicMatch(
                topic=self._topics[t_idx],
                score=round(value / (1 + KEYWORD_SHARE), 3),
                matched=tuple(scored.matched.get(t_idx, ())),
                close=rank > 0 and value >= LEARNED_CLOSE_RATIO * top,
            )
            for rank, (t_idx, value) in enumerate(ranked[: max(limit, 1)])
            if rank == 0 or value >= RUNNER_UP_MIN
        ]

    def suggest(
        self,
        question: str,
        *,
        lang_hint: Lang | None = None,
        variant: Variant | None = None,
    ) -> list[TopicMatch]:
        """For a question ``match`` does not answer: the best topic and the runner-up as
        "did you mean …?" when one is reasonably close (its combined score at least
        ``SUGGEST_MIN``), so the bot offers them instead of a bare "I don't know". Empty
        when ``match`` answers, or the question is declined outright (another game, the
        bot itself, off-topic to the model), or nothing is close (round 10)."""
        if self._model is None or bot_command(question):
            return []
        key, scored, p = self._last
        if key != (question, lang_hint, variant):
            scored = self.score(question, lang_hint=lang_hint, variant=variant)
            p = self._model.probabilities(self._model.with_novelty(scored.features))
        ranked, sure = self._rank(scored, p)
        if sure or not ranked or ranked[0][1] < SUGGEST_MIN:
            return []
        return [
            replace(m, close=True)
            for m in self._matches(scored, ranked, SUGGEST_LIMIT)
            if m.score * (1 + KEYWORD_SHARE) >= SUGGEST_MIN * SUGGEST_RUNNER_UP
        ]


def _keep(found: dict[str, float], terms: Iterable[str], quality: float) -> None:
    """Record ``terms`` with ``quality`` unless a better reading was already found."""
    for term in terms:
        if quality > found.get(term, 0.0):
            found[term] = quality


def _game_named(words: Iterable[str]) -> Variant | None:
    """The game a question names itself ("в длинных нардах", "in short nardy"), if one."""
    words = tuple(words)
    long_ = any(w.startswith(_LONG_PREFIXES) for w in words)
    short = any(w.startswith(_SHORT_PREFIXES) for w in words)
    if long_ != short:
        return "long" if long_ else "short"
    return None


@cache
def default_matcher() -> Matcher:
    """The shared matcher, built on first use (tens of milliseconds), not at import."""
    return Matcher()


def match(
    question: str,
    *,
    lang_hint: Lang | None = None,
    variant: Variant | None = None,
    limit: int = 3,
) -> list[TopicMatch]:
    """Rank the rules topics a player's question is about, best first.

    ``lang_hint`` is the player's interface language: with ``"ru"`` a Latin-typed word is
    read first as Russian transliteration ("golova"), otherwise first as English.
    ``variant`` is the game being played, if any: topics about the other game rank lower
    (a game named in the question itself wins over it). Returns at most ``limit`` matches,
    and an empty list when nothing reaches the confidence threshold. Scores are in (0, 1);
    the threshold corresponds to a score of about 0.39.
    """
    return default_matcher().match(question, lang_hint=lang_hint, variant=variant, limit=limit)


def suggest(
    question: str, *, lang_hint: Lang | None = None, variant: Variant | None = None
) -> list[TopicMatch]:
    """A "did you mean …?" for a question ``match`` does not answer: up to two topics that are
    reasonably close (``Matcher.suggest``), or an empty list when nothing is (then the bot
    says it does not know, with the menu)."""
    return default_matcher().suggest(question, lang_hint=lang_hint, variant=variant)


def about_bot(question: str) -> bool:
    """Whether ``question`` asks how to use the bot itself (start a game, play the computer,
    switch the sound on, being dropped from a game; a bot command like "/start" sent as a
    question): ``match`` declines it as no rules answer, and the bot answers it with a
    pointer to /new and /help instead of "I don't know" (``offtopic.about_the_bot``)."""
    return bot_command(question) or about_the_bot(tokenize(question).words)
