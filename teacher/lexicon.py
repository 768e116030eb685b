"""The players' lexicon: words people use for the same thing, mapped to one canonical word.

Applied to lemmas (Russian, after pymorphy3) and to words (English) on *both* sides — the
topics' keyword phrases and the players' questions — so a keyword never needs to list a
synonym, and a synonym added here helps every topic at once. Sources: the glossary and the
keyword column of RULES.md §6 and §8, and the slang in the seed texts (players' forums and
rule pages): «фишка»/«камень» for шашка, «старт»/«рука» for голова, «кость»/«кубик» for
зар, «срубить»/«съесть» for побить, «зажать» for запереть, «выкинуть» for выбросить.

Why a list and not word vectors: the navec embeddings shipped in the ``natasha`` wheel were
measured (docs/knowledge.md) and put «фишка» nearer to «погода» than to «шашка», and do not
know «зар» at all; game slang is exactly where news-trained vectors are weakest. Aspect pairs
(выбросить/выбрасывать, сгореть/сгорать) are here too: a lemmatiser keeps them apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType


def _groups(groups: dict[str, str]) -> Mapping[str, str]:
    """``{"canonical": "synonym synonym …"}`` → ``{synonym: canonical}``."""
    table: dict[str, str] = {}
    for canonical, words in groups.items():
        for word in words.split():
            if word in table and table[word] != canonical:
                raise ValueError(f"{word!r} is listed for {table[word]!r} and {canonical!r}")
            table[word] = canonical
    return MappingProxyType(table)


RU: Mapping[str, str] = _groups(
    {
        "шашка": "фишка камень камушек фигура шашечка пешка",
        "голова": "старт",
        "зар": "кость кубик зарик",
        "дубль": "дупль дуплет дубл",
        "гош": "гоша",
        "бить": (
            "бой побить срубить рубить съесть есть скушать сбить выбить ударить срезать поедание"
        ),
        "запереть": "ловушка зажать заблокировать замкнуть закрыть запирать зажимать блокировать",
        "застрять": "застревать",
        "выбросить": (
            "выбрасывать выкинуть выкидывать вывести выводить выбрасывание выкидывание "
            "спасать выгонять"
        ),
        "сгореть": "сгорать сжечь сжигать пропасть пропадать исчезнуть исчезать",
        "пропустить": "пропускать",
        "начинать": "начать",
        "жребий": "жеребьёвка жеребьевка",
        "соперник": "противник оппонент враг",
        "сдаться": "сдаваться капитулировать слиться сливаться ливнуть",
        "партия": "кон катка партейка",
        "удвоение": "удвоить удваивать дабл",
        "переудвоение": "переудвоить редабл",
        "перепрыгнуть": "перепрыгивать перескочить перескакивать",
        "расставить": "расставлять расставиться расставляться",
        "доска": "поле",
        "войти": "входить зайти заходить",
        "ввести": "вводить выставить выставлять",
        "заряжаться": "зарядиться",
        "отменить": "отменять",
        "конец": "закончиться заканчиваться кончиться кончаться окончание",
        "взяться": "тронуть трогать коснуться касаться браться",
        "подкрутить": "подкручивать",
        "начало": "изначально первоначально сначала",
        "нумерация": "нумеровать пронумеровать нумероваться пронумероваться",
        "снять": "снимать",
        "оин": "ойн",
        "куб": "даве",
        "борт": "бортик",
        "завести": "заводить",
        "обязательно": "требовать потребовать",
        "последний": "пятнадцатый",
        "пас": "пасануть пасовать спасовать",
        "середина": "посреди",
        "тавла": "тавлы табла",
        # V-16 / V-17: the two cube rules' names as they are also transliterated.
        "якоби": "джекоби джейкоби джакоби",
        "кроуфорд": "крауфорд",
        # A point named by its ordinal («на третьем нет шашек», «с пятого»): the home
        # points of bearing off. «первый» and «второй» name turns and dice far more often.
        "пункт": "лунка ячейка клетка стрела слот третий четвертый пятый шестой",
    }
)
"""Russian lemma → the canonical lemma the keywords use."""

EN: Mapping[str, str] = _groups(
    {
        "checker": "piece stone chip counter man token",
        "dice": "die",
        "hit": "capture captured capturing knock knocked eat ate eaten",
        "locked": "trapped stuck jammed",
        "resign": "surrender concede forfeits ff",
        "draw": "tie",
        "colours": "colors",
        "skip": "skipped skipping",
        "opponent": "enemy rival opponents",
        "prime": "wall fence",
        "undo": "takeback",
        "start": "begin begins beginning",
        "bear": "bore borne",
        "allowed": "permitted legal",
        "colour": "color",
        "cannot": "cant can't couldnt couldn't unable",
        "forced": "mandatory obligatory compulsory",
        "tavla": "tavli tawla takhteh",
        "dance": "danced dancing fan fanned",
    }
)
"""English word → the canonical word the keywords use."""

EN_FORMS: Mapping[str, str] = MappingProxyType(
    {"doubles": "doublet", "doublet": "doublet", "doublets": "doublet"}
)
"""English word forms that are their own term, not their stem's (round 19): "doubles" is the
roll (dice, doubles on the first move, bearing off with doubles), "double" and "doubling" the
cube — one stem, «doubl», had made "explain doubles", "doubles?" the cube's. In the labelled
English sets "doubles" asks about the cube in 6 questions of 155, "double" in 155 of 286."""


def canonical_ru(lemma: str) -> str:
    """The canonical lemma for a Russian lemma (itself if the lexicon has no entry)."""
    return RU.get(lemma, lemma)


def canonical_en(word: str) -> str:
    """The canonical form of an English word (itself if the lexicon has no entry)."""
    return EN.get(word, word)
