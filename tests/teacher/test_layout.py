"""Round 7: questions typed in the wrong keyboard layout, the other-game check on the words as
typed, the Crawford rule under matches, and strategy words (docs/knowledge.md)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from teacher import get_topic
from teacher.evaluation import read_set
from teacher.layout import fix_layout
from teacher.learned import NOT_ASKED
from teacher.matcher import Matcher, default_matcher, match

DATA = Path(__file__).resolve().parent / "data"


@cache
def _matcher() -> Matcher:
    return default_matcher()


def _relayout(question: str) -> str:
    return _matcher().relayout(question)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("rfr [jlbnm c ujkjds", "как ходить с головы"),
        ("Rfr [jlbnm c ujkjds?", "как ходить с головы?"),
        ("rjulf vj;yj ds,hfcsdfnm", "когда можно выбрасывать"),
        ("xnj nfrjt vfhc", "что такое марс"),
        ("рщц вщ ш иуфк щаа", "how do i bear off"),
        ("црфе шы ф ифк", "what is a bar"),
        # Round 9: a comma that is the letter б («re,» = «куб», not "re" and a comma), and a
        # word that re-typed is a typo the spelling vocabulary corrects («удавоения»).
        ("re, elfdjtybz", "куб удавоения"),
        ("vjuey kb e,bnm ldt ifirb", "могун ли убить две шашки"),
    ],
)
def test_a_question_in_the_wrong_layout_is_read_in_the_right_one(typed: str, meant: str) -> None:
    assert _relayout(typed) == meant


@pytest.mark.parametrize(
    "question",
    [
        "kak hodit s golovy",  # transliteration, not the keyboard
        "chto takoe mars",
        "how do i bear off",
        "what is mars",
        "gg",
        "ok",
        "как ходить с головы",
        "марс",
        "можно ли бить bar",  # mixed scripts
        "re, what is a cube",  # a comma after an English word stays a comma
        "ok, got it",
    ],
)
def test_english_russian_and_transliteration_are_left_alone(question: str) -> None:
    assert _relayout(question) == question


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        # Round 14: the first words typed before the player switched the layout.
        ("rfr ходить с головы", "как ходить с головы"),
        ("xnj такое марс?", "что такое марс?"),
        ("vj;yj ли бить с бара", "можно ли бить с бара"),
        ("rnj [jlbn gthdsv (кто ходит первым?)", "кто ходит первым (кто ходит первым?)"),
        # Round 17: switched before a number.
        ("dsgfkj 3 и 5 можно одной шашкой", "выпало 3 и 5 можно одной шашкой"),
    ],
)
def test_words_typed_before_the_layout_was_switched_are_re_read(typed: str, meant: str) -> None:
    assert _relayout(typed) == meant


@pytest.mark.parametrize(
    "question", ["ok давай", "можно ли бить bar", "nardy правила", "gg хорошая партия", "c головы"]
)
def test_english_and_look_alike_letters_before_russian_are_left_alone(question: str) -> None:
    assert _relayout(question) == question


def test_no_labelled_question_in_the_right_layout_is_re_read() -> None:
    """Over every labelled set, only the questions typed in the wrong layout change: Russian
    typed with the Latin layout, or (v11) English typed with the Cyrillic one, or (round 14)
    a Russian question whose first words were typed before the layout was switched."""
    changed = []
    for path in sorted(DATA.glob("*.tsv")):
        for row in read_set(path):
            if _relayout(row.question) != row.question:
                changed.append((row.lang, row.question))
    assert changed, "the labelled sets have questions typed in the Latin layout"
    for lang, question in changed:
        cyrillic = any("а" <= c <= "я" for c in question.lower())
        latin = any("a" <= c <= "z" for c in question.lower())
        if lang == "ru" and cyrillic and latin:  # switched midway: only the words before it
            first = next(i for i, c in enumerate(question.lower()) if "а" <= c <= "я")
            assert _relayout(question)[first:] == question[first:], question
            continue
        assert (lang == "ru" and not cyrillic) or (lang == "en" and not latin), question


def test_one_layout_typed_row_with_a_typo_does_not_poison_the_vocabulary() -> None:
    """Round 16: v15's «zfgthnfz ifirf» (a typo inside the layout typing) is not re-read, and it
    and its misspelt twin put "ifirf" into the spelling vocabulary as English — then no «…
    ifirf» («шашка») was re-read. A Russian question's Latin words never enter it."""
    from teacher.spelling import vocabulary

    rows = [("ru", ("zfgthnfz", "ifirf")), ("ru", ("zfgthnfz", "ifirf"))]
    assert vocabulary(rows, lambda w: False) == ()
    assert vocabulary([("en", ("checker",)), ("en", ("checker",))], lambda w: False) == ("checker",)
    assert _relayout("pfgthnf ifirf") == "заперта шашка"


def test_the_layout_reading_uses_only_the_dictionaries() -> None:
    """Without known words on the other side nothing is re-read (no guessing)."""
    assert fix_layout("rfr [jlbnm", lambda w: False, lambda w: False) == "rfr [jlbnm"


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("rfr [jlbnm c ujkjds", "head_rule"),
        ("xnj nfrjt vfhc", "game_end"),
        ("rjulf vj;yj ds,hfcsdfnm?", "bearoff_when"),
    ],
)
def test_a_question_in_the_latin_layout_is_answered(question: str, topic: str) -> None:
    assert [m.topic.id for m in match(question, lang_hint="ru")][:1] == [topic]


def test_english_in_the_cyrillic_layout_is_answered() -> None:
    assert [m.topic.id for m in match("рщц вщ ш иуфк щаа", lang_hint="en")][:1] == ["bearoff_when"]


def test_another_game_is_named_by_the_words_as_typed() -> None:
    """«рубика» is no dictionary word; a vocabulary with «рубка» (a nardy word: hitting)
    would correct it, and the Rubik's cube would become a rules question."""
    speller_matcher = Matcher(learn=False, vocabulary=("рубка",))
    assert speller_matcher.score("как собрать кубик рубика").other_game
    assert match("как собрать кубик рубика", lang_hint="ru") == []


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("что такое правило кроуфорда", "ru"),
        ("посткроуфорд что это", "ru"),
        ("what is the crawford rule", "en"),
        ("post crawford doubling", "en"),
    ],
)
def test_the_crawford_rule_is_answered_by_the_match_topic(question: str, lang: str) -> None:
    assert [m.topic.id for m in match(question, lang_hint=lang)][:1] == ["match"]


def test_the_match_topic_states_the_crawford_rule_and_the_cube_points_to_it() -> None:
    topic, cube = get_topic("match"), get_topic("cube")
    assert "V-16" in topic.rule_ids
    assert "Кроуфорд" in topic.body.ru and "Crawford" in topic.body.en
    assert "N−1" in topic.body.ru and "N−1" in topic.body.en
    assert "«Матч и следующая партия»" in cube.body.ru
    assert "Matches and the next game" in cube.body.en


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("что значит блокада", "ru"),
        ("игра на задних это что", "ru"),
        ("что такое бланк", "ru"),
        ("что такое стройматериал", "ru"),
        ("холдинг это что", "ru"),
        ("что такое гонка в нардах", "ru"),
        ("holding game meaning", "en"),
        ("what is a blitz", "en"),
    ],
)
def test_strategy_words_are_answered_by_the_strategy_topic(question: str, lang: str) -> None:
    assert [m.topic.id for m in match(question, lang_hint=lang)][:1] == ["strategy_terms"]


def test_the_prime_is_a_word_of_strategy_and_of_the_block_rule() -> None:
    """RULES.md §6: «прайм» is the players' word for the block (L-19). Asked what it means, it
    is a strategy word (the strategy topic says what it is, the block rule comes second; the
    blind sets v6–v10 filed it so five times); asked whether one may build it, the rule."""
    what = [m.topic.id for m in match("что такое прайм", lang_hint="ru")]
    assert what[:2] == ["strategy_terms", "six_block"]
    rule = match("можно ли строить прайм из шести шашек в длинных", lang_hint="ru")
    assert [m.topic.id for m in rule][:1] == ["six_block"]


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("какова вероятность выбросить две шестерки", "ru"),
        ("what are the odds of rolling double sixes", "en"),
    ],
)
def test_dice_probability_homework_is_not_a_rules_question(question: str, lang: str) -> None:
    assert match(question, lang_hint=lang) == []


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("давай быстрее ходи", False),
        ("nice roll lol", False),
        ("как ходить с головы", True),
        ("марс?", True),
        ("can i hit here", True),
    ],
)
def test_a_sentence_that_asks_nothing_is_marked_for_the_model(question: str, asked: bool) -> None:
    features = _matcher().score(question).features
    assert (NOT_ASKED not in features) is asked


# Round 17: words typed without spaces are read as the words they are made of.
@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("ктопервыйходит", ("кто", "первый", "ходит")),
        ("можнолибить", ("можно", "ли", "бить")),
        ("чтотакое марс", ("что", "такое", "марс")),
        ("скольковсегошашек", ("сколько", "всего", "шашек")),
        ("сколькоможноснятьсголовы", ("сколько", "можно", "снять", "с", "головы")),
        ("шестьподрядможно", ("6", "подряд", "можно")),  # a number word becomes a digit
    ],
)
def test_words_typed_without_spaces_are_read_apart(typed: str, meant: tuple[str, ...]) -> None:
    assert _matcher().read(typed, "ru").tokens.words == meant


@pytest.mark.parametrize(
    "word",
    # Words no dictionary knows that a dictionary's fragments would cut up («нард» + «истов»,
    # «к» + «рауф» + «орда»): only the words players use count as pieces, and they must not be
    # many short ones («нард» + «и» + «с» + «ты»).
    ["нардистов", "нардисты", "крауфорда", "бэкгаммон", "гульбара", "пипкаунт", "гюльбара"],
)
def test_an_unknown_word_is_not_cut_into_fragments(word: str) -> None:
    assert _matcher().read(f"что такое {word}", "ru").tokens.words == ("что", "такое", word)


def test_a_glued_question_is_answered() -> None:
    assert [m.topic.id for m in match("ктопервыйходит", lang_hint="ru")][:1] == ["first_player"]


def test_splitting_glued_words_is_cheap() -> None:
    import time

    from teacher.text import split_glued

    allowed = {"кто", "первый", "ходит"}.__contains__
    start = time.perf_counter()
    for _ in range(100):
        split_glued("ктопервыйходитпотом", allowed)
    assert (time.perf_counter() - start) / 100 < 0.001  # well under a millisecond a word
