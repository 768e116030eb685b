"""Text normalisation for the rules matcher: tokens, stems, transliteration, sound keys.

The heavy lifting is done by libraries: pymorphy3 with its Russian dictionary finds a
word's lemma (шашек → шашка, сгорела → сгореть) and knows whether a word exists at all (a
word it does not know may be a typo); Snowball stemmers (``snowballstemmer``) then join what
lemmas leave apart (выброс, выбросить → выброс) and do the same for English; RapidFuzz (in
``matcher``) measures typo distance.
This module only prepares their input: it splits a question into words, keeps dice such as
"6-6" and rule IDs such as "L-8" as single tokens, repairs words typed with mixed Latin and
Cyrillic look-alike letters, turns Latin transliteration into Cyrillic, and computes a
coarse "sound key" so that spellings a Russian speaker mixes up (галава/голова, марз/марс,
бэкгамон/бэкгаммон) meet before any edit distance is needed.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Script = Literal["cyr", "lat", "num"]

_WORD_RE = re.compile(r"[0-9a-zа-яё]+(?:['’][a-z]+)?", re.IGNORECASE)
_DICE_RE = re.compile(
    r"(?<![0-9])([1-6])\s*(?:[-–—:xх×*/]{1,2}|\s|\sи\s|\sand\s|\sна\s)\s*([1-6])(?![0-9])",
    re.IGNORECASE,
)
_RULE_RE = re.compile(r"(?<![0-9A-Za-zА-Яа-яЁё])([CLSMVclsmvСМсм])\s*[-–—]\s*(\d{1,2})(?![0-9])")
_CYR_RE = re.compile(r"[а-яё]")
_LAT_RE = re.compile(r"[a-z]")

# Latin letters that look like Cyrillic ones, used only inside words that mix both scripts
# (e.g. "кoкс" typed with a Latin "o"): such a word is almost always Russian.
_HOMOGLYPHS = str.maketrans(
    {
        "a": "а",
        "c": "с",
        "e": "е",
        "k": "к",
        "m": "м",
        "o": "о",
        "p": "р",
        "t": "т",
        "x": "х",
        "y": "у",
        "b": "в",
        "h": "н",
    }
)
_RULE_LETTERS = str.maketrans({"С": "C", "с": "C", "М": "M", "м": "M"})

STOPWORDS_RU: frozenset[str] = frozenset(
    """
    а и но или да же ли бы ведь вот ну то это эти этот эта этом что чтобы чем как какой какая
    какое какие каким такое такой так тоже также в во на с со к ко у о об от из за по при для
    без про над под я мне меня мной мы нас нам ты тебя тебе вы вас вам он она оно они его ее
    их им ему мой моя мое мои моих моей моего свой своя свои своих твой ваш ваша ваши можно
    ли есть был была было были будет быть уже еще всегда просто вообще тогда там тут здесь
    скажи подскажи подскажите объясни объясните расскажи расскажите пожалуйста плиз вопрос
    почему зачем если какую каком каких какими какого какому мою моим моими моему свою своей
    этой эту этого тот та те той того который которая которые которое все весь вся всех всем
    бот бота боту ботом хочу хотел хотела хотим хотят хочется штука штуки штук штуку
    понимать понять значит означает означать значить
    """.split()  # noqa: SIM905 - a word list reads better as text than as 150 quoted strings
)
"""Russian words that carry no topic. "почему" is here: "почему сгорел зар" is about the die."""

STOPWORDS_EN: frozenset[str] = frozenset(
    """
    the a an is are was were be been do does did i me my mine you your it its of in on at to
    for with can could may might what how why if and or there this that these those which
    will would should shall am please tell explain about so just as by from we us our they
    them their he she his her don't doesn't isn't aren't it's what's i'm i've dont im
    doesnt isnt whats bot thing things stuff mean means meaning
    """.split()  # noqa: SIM905 - as above
)


def script_of(word: str) -> Script:
    """Which alphabet a token is written in; digits-only tokens are ``"num"``."""
    if _CYR_RE.search(word):
        return "cyr"
    if _LAT_RE.search(word):
        return "lat"
    return "num"


def fold_homoglyphs(word: str) -> str:
    """Make a word that mixes Cyrillic and Latin look-alikes wholly Cyrillic."""
    if _CYR_RE.search(word) and _LAT_RE.search(word):
        return word.translate(_HOMOGLYPHS)
    return word


@dataclass(frozen=True, slots=True)
class Tokens:
    """A question split for matching: words, dice such as ``"d66"``, cited rule IDs, and
    written moves as ``"from/to"`` (``"24/18"``, ``"bar/20"``, ``"6/off"``)."""

    words: tuple[str, ...]
    dice: tuple[str, ...]
    rule_ids: tuple[str, ...]
    moves: tuple[str, ...] = ()


def dice_token(a: str, b: str) -> str:
    """A roll as one order-free token: "6-1" and "1-6" are both ``"d61"``."""
    hi, lo = sorted((a, b), reverse=True)
    return f"d{hi}{lo}"


_NUMBER_WORDS = {
    "один": "1",
    "два": "2",
    "две": "2",
    "двух": "2",
    "двум": "2",
    "двумя": "2",
    "три": "3",
    "трех": "3",
    "тремя": "3",
    "четыре": "4",
    "четырех": "4",
    "пять": "5",
    "пяти": "5",
    "шесть": "6",
    "шести": "6",
    "шестью": "6",
    "одна": "1",
    "одну": "1",
    "одной": "1",
    "одного": "1",
    "одним": "1",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
}
# A die's face by its name, in any case form: «сыграть шестёрку», «выпала двойка».
_DIE_FACES = {"единиц": "1", "двойк": "2", "тройк": "3", "четверк": "4", "пятерк": "5"}
_DIE_FACES["шестерк"] = "6"
_DIE_FACE_RE = re.compile(
    r"(?<![0-9a-zа-яё])(единиц|двойк|тройк|четв[её]рк|пят[её]рк|шест[её]рк)[а-я]{0,3}(?![а-яё])",
    re.IGNORECASE,
)
# «Камень» is a checker, but «камень шесть-пять» (a stone and a roll) is the roll (RULES.md §6.1).
_STONE_ROLL_RE = re.compile(
    r"(?<![а-яё])кам(?:ень|ня|ни|нем|не)\s+(?=[1-6]\s*(?:[-–—:xх]|\s)\s*[1-6](?![0-9]))",
    re.IGNORECASE,
)
# Die faces by their Persian / Turkic names, as players in the Caucasus and Central Asia call
# a roll: «шеш-ду» is 6-2; «ду-» before a face is a double of it («ду-шеш» 6-6, «дубара»
# 2-2), as are «хап-ек» (1-1) and a face with «гоша» («шеш-гоша»); also in Latin letters.
# Only in pairs, where they cannot be ordinary words (шеш-беш alone is the game's old name).
_FACE_NAMES = {
    "1": "ек як йек yek yak",
    "2": "ду дю du dy dyu бара bara",
    "3": "се сэ si se",
    "4": "чар чахар джахар char chahar cahar jahar",
    "5": "пяндж пендж пенч беш penj panj pendzh besh",
    "6": "шеш shesh",
}
_FACE = {name: digit for digit, names in _FACE_NAMES.items() for name in names.split()}
_FACE_ALT = "|".join(sorted(_FACE, key=len, reverse=True))
_DOUBLE_PREFIX = {"ду", "дю", "du", "dy", "dyu", "хап", "хэп", "hep", "hap"}
_DOUBLE_NAME = r"(?:гош[аи]?|кош[аи]?|gosh[ae]?|kosh[ae]?)"
_FACE_PAIR_RE = re.compile(
    rf"(?<![\wа-яё])(?:({_FACE_ALT}|хап|хэп|hep|hap)\s*[-–— ]?\s*({_FACE_ALT})|"
    rf"({_FACE_ALT})\s*[-–— ]\s*{_DOUBLE_NAME}|{_DOUBLE_NAME}\s*[-–— ]\s*({_FACE_ALT}))"
    r"(?![\wа-яё])",
    re.IGNORECASE,
)


def _face_pair(m: re.Match[str]) -> str:
    """A roll named by face names, as digits («шеш-ду» → "6-2", «ду-шеш» → "6-6 куш")."""
    a, b, double_a, double_b = (g.lower() if g else g for g in m.groups())
    if a and b:
        if {a, b} <= {"шеш", "беш", "shesh", "besh"} and a != b:
            return m.group(0)  # шеш-беш: the game's name far more often than a roll
        if a in _DOUBLE_PREFIX:
            return f" {_FACE[b]}-{_FACE[b]} куш "
        return f" {_FACE[a]}-{_FACE[b]} "
    face = _FACE[double_a or double_b]
    return f" {face}-{face} куш "


_NUMBER_WORD_RE = re.compile(
    r"(?<![0-9a-zа-яё])(" + "|".join(_NUMBER_WORDS) + r")(?![0-9a-zа-яё])", re.IGNORECASE
)


_GLUED_NUMBER_RE = re.compile(r"(?<=[а-яё])(?=[0-9])|(?<=[0-9])(?=[а-яё]{4})", re.IGNORECASE)
"""A number typed against a word («матчдо7», «играемдо5очков», «15наодной»; round 19): a space
goes in between; an ordinal's ending («24й», «6ти», «24го») stays on its number."""


def tokenize(text: str) -> Tokens:
    """Split ``text`` into lowercase words, dice tokens and rule IDs.

    Rule IDs and dice are cut out first so that "L-8" is not read as the letter L and the
    number 8, and "6-6" or «шесть-шесть» not as two sixes. Number words become digits, so
    «две шашки» and "2 шашки" are the same question.
    """
    text = _GLUED_NUMBER_RE.sub(" ", text.replace("ё", "е").replace("Ё", "Е"))
    rule_ids = tuple(
        f"{m.group(1).translate(_RULE_LETTERS).upper()}-{int(m.group(2))}"
        for m in _RULE_RE.finditer(text)
    )
    text = _RULE_RE.sub(" ", text)
    text = _SPOKEN_MOVE_RE.sub(_spoken_move, text)
    moved = _move_words(text)
    moves = tuple(m.group(0).lower() for m in _MOVE_RE.finditer(text))
    text = _MOVE_RE.sub(" ", text)
    text = _FACE_PAIR_RE.sub(_face_pair, text)
    text = _NUMBER_WORD_RE.sub(lambda m: _NUMBER_WORDS[m.group(1).lower()], text)
    text = _DIE_FACE_RE.sub(lambda m: _DIE_FACES[m.group(1).lower().replace("ё", "е")], text)
    text = _STONE_ROLL_RE.sub("зар ", text)
    dice = tuple(dice_token(m.group(1), m.group(2)) for m in _DICE_RE.finditer(text))
    text = _DICE_RE.sub(" ", text)
    words = tuple(fold_homoglyphs(w.lower().replace("’", "'")) for w in _WORD_RE.findall(text))
    home = _home_words(text)
    return Tokens(
        words=words + tuple(w for w in (*moved, *home) if w not in words),
        dice=dice,
        rule_ids=rule_ids,
        moves=moves,
    )


_HOME_RU_RE = re.compile(
    r"(?<![\w])(?:на|с|со)\s+(?:[1-6](?:-?(?:м|й|ом|ого|ой))?\s+(?:пункт|лунк)|"
    r"(?:треть|четв[её]рт|пят|шест)(?:ем|ом|ого|ой|ий|ый)(?![\w]))",
    re.IGNORECASE,
)
_HOME_EN_RE = re.compile(
    r"\b(?:on|from)\s+(?:the\s+)?(?:[1-6](?:\s*-?\s*point)?|(?:third|fourth|fifth|sixth)"
    r"(?:\s+point)?)\b(?!\s*[-/:])",
    re.IGNORECASE,
)


def _home_words(text: str) -> tuple[str, ...]:
    """A checker "on the 4 point" or «на пятом» stands in the home board: the words of a
    bearing-off situation told only in numbers («выпало 3, на третьем нет шашек»)."""
    words: list[str] = []
    if _HOME_RU_RE.search(text):
        words.append("дом")
    if _HOME_EN_RE.search(text):
        words.append("home")
    return tuple(words)


_MOVE_RE = re.compile(
    r"(?<![\w/])(\d{1,2}|bar|бар)((?:/(?:\d{1,2}|off|выброс)\*?)+)(?:\(\d\))?(?![\w/])",
    re.IGNORECASE,
)


# A move told in words or with a dash: «с 24 на 18», «со 13 до 7», "from 13 to 7", «13-7»
# (a dash between numbers is a roll when both can be dice, so only when the first cannot).
_SPOKEN_MOVE_RE = re.compile(
    r"(?<![\w/])(?:(?:с|со|from)\s+(\d{1,2})\s+(?:на|до|to)\s+(\d{1,2})|"
    r"([7-9]|1\d|2[0-4])\s*[-–—]\s*(\d{1,2}))(?![\w/:])",
    re.IGNORECASE,
)


def _spoken_move(m: re.Match[str]) -> str:
    """«с 24 на 18» → "24/18", when the points can be a move (1–24, forwards)."""
    src, dst = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    a, b = int(src), int(dst)
    if not (1 <= b < a <= 24):
        return m.group(0)
    return f" {a}/{b} "


def _move_words(text: str) -> tuple[str, ...]:
    """What written moves («24/18 24/20», "bar/20", "6/off") say about the topic.

    A move is cut out before dice are read (so "6/3" is not a roll) and stands for the
    words its points imply: two checkers from 24 — the head; the bar — бар; off — выброс.
    """
    words: list[str] = []
    sources = []
    for m in _MOVE_RE.finditer(text):
        src = m.group(1).lower()
        sources.append(src)
        if src in ("bar", "бар"):
            words.append("бар")
        if re.search(r"/(?:off|выброс)", m.group(2), re.IGNORECASE):
            words.append("выброс")
    if sources.count("24") >= 2:
        words.append("голова")
    return tuple(dict.fromkeys(words))


def is_stopword(word: str) -> bool:
    """True for function words that never identify a topic (and for single letters)."""
    if len(word) == 1 and not word.isdigit():
        return True
    return word in STOPWORDS_RU or word in STOPWORDS_EN


GLUED_MIN_LEN = 7
"""A word this long that no dictionary knows may be words typed without spaces («можноли»)."""
GLUED_MAX_PIECES = 8
GLUED_MIN_AVERAGE = 3
_GLUED_SHORT = frozenset("вскуиоая")  # one-letter prepositions and conjunctions


def split_glued(word: str, allowed: Callable[[str], bool]) -> tuple[str, ...] | None:
    """``word`` as the fewest ``allowed`` words it is made of («ктопервыйходит» → кто, первый,
    ходит; «шестьподрядможно» → 6, подряд, можно: number words become digits, as ``tokenize``
    makes them), the split with the longest shortest piece on a tie; ``None`` when it is not
    made of at most ``GLUED_MAX_PIECES`` of them (round 17).

    ``allowed`` is strict on purpose — the words players use (the spelling vocabulary, stop
    words, keyword words) rather than everything a dictionary knows, which has fragments for
    any word («нард» + «истов», «к» + «рауф» + «орда»). A piece is two letters at least unless
    it is a one-letter preposition or conjunction before another piece. Dynamic programming over
    the cut points: at most a few hundred set look-ups a word.
    """
    n = len(word)
    # best[i]: (pieces, minus the shortest piece's length, the pieces) of word[:i]
    best: list[tuple[int, int, tuple[str, ...]] | None] = [None] * (n + 1)
    best[0] = (0, 0, ())
    for i in range(1, n + 1):
        for j in range(i):
            before = best[j]
            if before is None or before[0] >= GLUED_MAX_PIECES:
                continue
            piece = word[j:i]
            # A one-letter word stands before another («сголовы»), never last: «гюльбар» + «а»
            # is a case ending.
            if len(piece) < 2 and (piece not in _GLUED_SHORT or i == n):
                continue
            if piece not in _NUMBER_WORDS and not allowed(piece):
                continue
            shortest = max(before[1], -len(piece)) if j else -len(piece)
            candidate = (before[0] + 1, shortest, (*before[2], piece))
            current = best[i]
            if current is None or candidate[:2] < current[:2]:
                best[i] = candidate
    found = best[n]
    # Pieces of three letters on average at least: a word cut into many short ones is a word
    # no list has («нардисты» is not «нард и с ты»), not a glued question.
    if found is None or found[0] < 2 or found[0] * GLUED_MIN_AVERAGE > n:
        return None
    return tuple(_NUMBER_WORDS.get(piece, piece) for piece in found[2])  # «шесть» → 6


# --- Latin → Cyrillic -------------------------------------------------------------------------

_LAT_MULTI: tuple[tuple[str, str], ...] = (
    ("shch", "щ"),
    ("sch", "щ"),
    ("zh", "ж"),
    ("kh", "х"),
    ("ch", "ч"),
    ("sh", "ш"),
    ("ts", "ц"),
    ("tz", "ц"),
    ("ck", "к"),
    ("yo", "е"),
    ("yu", "ю"),
    ("ya", "я"),
    ("ye", "е"),
    ("jo", "е"),
    ("ju", "ю"),
    ("ja", "я"),
    ("ph", "ф"),
)
_LAT_SINGLE = {
    "a": "а",
    "b": "б",
    "v": "в",
    "g": "г",
    "d": "д",
    "e": "е",
    "z": "з",
    "i": "и",
    "j": "й",
    "k": "к",
    "l": "л",
    "m": "м",
    "n": "н",
    "o": "о",
    "p": "п",
    "r": "р",
    "s": "с",
    "t": "т",
    "u": "у",
    "f": "ф",
    "h": "х",
    "c": "к",
    "w": "в",
    "q": "к",
    "x": "кс",
    "'": "ь",
}
_VOWELS_LAT = frozenset("aeiouy")


def translit_to_cyrillic(word: str) -> str:
    """Read a Latin-typed Russian word ("golovy", "sgorel", "s golovy") as Cyrillic.

    There is no single standard for casual transliteration, so this accepts the common
    spellings at once: "y" is «ы» after a consonant and «й» elsewhere, "ya/ja" is «я», etc.
    """
    out: list[str] = []
    i = 0
    n = len(word)
    while i < n:
        for lat, cyr in _LAT_MULTI:
            if word.startswith(lat, i):
                out.append(cyr)
                i += len(lat)
                break
        else:
            ch = word[i]
            if ch == "y":
                prev = word[i - 1] if i else ""
                out.append("ы" if prev and prev not in _VOWELS_LAT else "й")
            else:
                out.append(_LAT_SINGLE.get(ch, ch))
            i += 1
    return "".join(out)


# --- sound keys ------------------------------------------------------------------------------

_RU_VOWELS = str.maketrans(
    {
        "о": "а",
        "е": "и",
        "э": "и",
        "я": "а",
        "ю": "у",
        "ы": "и",
        "й": "и",
        "ь": None,
        "ъ": None,
        "щ": "ш",
    }
)
_RU_DEVOICE = {"б": "п", "в": "ф", "г": "к", "д": "т", "ж": "ш", "з": "с"}
_DOUBLES = re.compile(r"(.)\1+")


def sound_key(word: str) -> str:
    """A coarse phonetic key: unstressed-vowel and final-devoicing confusions fold together.

    Russian: о/а, е/и/э, я/а, ю/у, ы/и, щ/ш merge, ь/ъ vanish, a final voiced consonant becomes
    voiceless, doubled letters collapse. Latin: doubled letters collapse ("hiting").
    """
    if script_of(word) == "cyr":
        key = word.replace("ё", "е").translate(_RU_VOWELS)
        if key and key[-1] in _RU_DEVOICE:
            key = key[:-1] + _RU_DEVOICE[key[-1]]
    else:
        key = word.replace("ph", "f").replace("ck", "k")
    return _DOUBLES.sub(r"\1", key)


# --- stemmers --------------------------------------------------------------------------------

Stemmer = Callable[[str], str]


class SnowballStemmers:
    """Snowball's Russian and English stemmers behind a lock.

    A ``snowballstemmer`` object keeps the word being stemmed in its own state, so one
    instance must not be used by two threads at once (handlers may call the matcher from
    ``asyncio.to_thread``); stems are cached, so the lock is rarely taken.
    """

    def __init__(self) -> None:
        import snowballstemmer  # here, not at module level: importing the package stays cheap

        self._ru = snowballstemmer.stemmer("russian")
        self._en = snowballstemmer.stemmer("english")
        self._lock = threading.Lock()
        self.ru: Stemmer = lru_cache(maxsize=8192)(self._stem_ru)
        self.en: Stemmer = lru_cache(maxsize=8192)(self._stem_en)

    def _stem_ru(self, word: str) -> str:
        with self._lock:
            return str(self._ru.stemWord(word))

    def _stem_en(self, word: str) -> str:
        with self._lock:
            return str(self._en.stemWord(word))


class RussianWords:
    """Russian words → matcher terms: pymorphy3 lemma, the players' lexicon, Snowball stem.

    ``term`` is what a keyword word is indexed under; ``candidates`` are the terms a question
    word is looked up as, best first (the lemma's term, then the plain stem of the word, then
    the terms of the other readings pymorphy3 offers), because a lemmatiser's first guess is
    sometimes another word (зары → «зара»). ``known`` tells a dictionary word from a possible
    typo. pymorphy3's analyser is read-only after loading, so it is safe to share between
    threads; results are cached.
    """

    def __init__(self, stemmers: SnowballStemmers | None = None) -> None:
        import pymorphy3  # here, not at module level: importing the package stays cheap

        from teacher.lexicon import canonical_ru

        self._morph = pymorphy3.MorphAnalyzer()
        self._stem = (stemmers or SnowballStemmers()).ru
        self._canonical = canonical_ru
        self.candidates: Callable[[str], tuple[str, ...]] = lru_cache(maxsize=16384)(
            self._candidates
        )
        self.known: Callable[[str], bool] = lru_cache(maxsize=16384)(self._morph.word_is_known)
        self._lemma: Callable[[str], str] = lru_cache(maxsize=16384)(
            lambda word: self._morph.parse(word)[0].normal_form.replace("ё", "е")
        )

    def _lemma_term(self, lemma: str) -> str:
        return self._stem(self._canonical(lemma.replace("ё", "е")))

    def _candidates(self, word: str) -> tuple[str, ...]:
        parses = self._morph.parse(word)
        lemmas = [p.normal_form for p in parses[:3]]
        first = self._lemma_term(lemmas[0]) if lemmas else self._stem(word)
        rest = [self._lemma_term(w) for w in (word, *lemmas[1:])]
        # A diminutive is the same thing, smaller: шашечка → шашка, треугольничек → треугольник.
        plain = [_undiminish(w) for w in lemmas[:1]]
        rest += [self._lemma_term(w) for w in plain if w]
        return tuple(dict.fromkeys([first, *rest]))

    def term(self, word: str) -> str:
        """The one term a keyword word is indexed under."""
        return self.candidates(word)[0]

    def lemma(self, word: str) -> str:
        """The dictionary form pymorphy3 reads first (шахматах → шахматы)."""
        return self._lemma(word)


_DIMINUTIVES = (("ечка", "ка"), ("ичек", "ик"), ("очек", "ок"), ("ичка", "ка"))


def _undiminish(lemma: str) -> str:
    """The plain noun of a diminutive lemma, or ``""`` when it has no diminutive suffix."""
    for suffix, plain in _DIMINUTIVES:
        if lemma.endswith(suffix) and len(lemma) > len(suffix) + 2:
            return lemma[: -len(suffix)] + plain
    return ""


class SnowballRussianWords:
    """The previous Russian reading (Snowball stems only), kept to measure against."""

    def __init__(self, stemmers: SnowballStemmers | None = None) -> None:
        self._stem = (stemmers or SnowballStemmers()).ru

    def candidates(self, word: str) -> tuple[str, ...]:
        return (self._stem(word),)

    def term(self, word: str) -> str:
        return self._stem(word)

    def known(self, word: str) -> bool:
        return False

    def lemma(self, word: str) -> str:
        return word


def significant_words(words: tuple[str, ...]) -> Iterator[str]:
    """The words of a question or keyword phrase that can carry meaning."""
    return (w for w in words if not is_stopword(w))
