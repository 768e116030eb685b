"""Guards on the matcher's measured figures: they may improve, never fall back.

The blind set v2 (data/blind_set_v2.tsv) was written by someone who saw only the topic titles;
it was evaluated once, on the matcher frozen at commit 2741a2b, and the counts below are that
measurement (docs/knowledge.md). This test does not tune anything: it fails when a change
makes the matcher worse on questions it was never tuned on. Blind set v1 was reported once
(round 1, commit 5d8e751) and then used for tuning in round 2; it and the development sets
are guarded the same way, at the figures they had when the matcher was frozen. Blind set v3
was reported once in round 3 (commit 5b2aff8) and then became training data of the learned
model (tests/teacher/test_learned.py reproduces its blind figures by training without it);
blind set v4 the same in round 4 (commit 21d083c), blind set v5 in round 5 (commit 2312e0d),
blind set v6 in round 6 (commit 9f3aa63), blind set v7 in round 7 (commit c9adec8), blind set v8
in round 8 (commit ea565f0), blind set v9 in round 9 (commit 8533b32), blind set v10 in round 10
(commit 4fa8426), blind set v11 in round 11 (commit 1d10d65), blind set v12 in round 12 (commit
4e27f11), blind set v13 in round 13 (commit 493369f), blind set v14 in round 14 (commit 10278d9),
blind set v15 in round 15 (commit 626d1e9),
blind set v16 in round 16 (commit d9a2f77),
blind sets v17 and v18 in round 17 (commit fb596b2),
blind set v19 in round 19 (commit c05e89c),
blind set v20 on the frozen round-19 matcher (commit 5a50825), made training data in round 20.
The written training sets of rounds 13,
14 and 17 (data/train_set_13*.tsv, train_set_14*.tsv, train_set_17*.tsv) were never blind: they
are guarded as training data.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from teacher.evaluation import evaluate, read_set

DATA = Path(__file__).resolve().parent / "data"

# set -> ({lang: (questions, top-1, top-3, wrong don't-know)}, (off-topic, off-topic don't-know))
MEASURED: dict[str, tuple[dict[str, tuple[int, int, int, int]], tuple[int, int]]] = {
    # v20: reported once (commit 9a38a93, on the frozen 5a50825: ru 305/315/4, en 200/204/2,
    # off-topic 95), then made training data of the learned model (round 20); these are its
    # figures as training data.
    "blind_set_v20.tsv": ({"ru": (322, 315, 320, 2), "en": (207, 203, 206, 1)}, (100, 99)),
    # v19: reported once (round 19, commit c05e89c: ru 443/472/3, en 337/353/9, off-topic
    # 122), then made training data of the learned model; these are its figures as training data.
    "blind_set_v19.tsv": ({"ru": (480, 468, 478, 1), "en": (365, 358, 365, 0)}, (131, 129)),
    # v17, v18: reported once (round 17, commit fb596b2: v17 ru 444/452/17, en 334/351/3,
    # off-topic 125; v18 ru 436/456/2, en 320/348/3, off-topic 122), then made training data of
    # the learned model; these are their figures as training data.
    "blind_set_v17.tsv": ({"ru": (477, 463, 467, 8), "en": (360, 353, 358, 1)}, (131, 128)),
    "blind_set_v18.tsv": ({"ru": (464, 456, 464, 0), "en": (357, 349, 357, 0)}, (130, 127)),
    # v16: reported once (round 16, commit d9a2f77: ru 420/443/15, en 326/343/7, off-topic
    # 123), then made training data of the learned model; these are its figures as training data.
    # Off-topic 124 → 123 with v20 in training: "what's 12 times 12" reads as dice (v20's "do i
    # move 4 times or 2 times" brought "times" to dice).
    "blind_set_v16.tsv": ({"ru": (462, 440, 453, 8), "en": (355, 339, 349, 3)}, (124, 123)),
    # v15: reported once (round 15, commit 626d1e9: ru 458/483/20, en 337/357/11, off-topic
    # 131), then made training data of the learned model; these are its figures as training data.
    # Off-topic 131 → 130 with round 17's thresholds (a topic the model is far surer of wins
    # over its off-topic doubt): "what does anchor mean on a ship" (a strategy word).
    # 130 → 129 with v20 in training: "what's 17 times 23" reads as dice (v20's "times", above).
    "blind_set_v15.tsv": ({"ru": (507, 485, 498, 9), "en": (372, 357, 365, 6)}, (132, 129)),
    # v14: reported once (round 14, commit 10278d9: ru 471/494/6, en 322/348/8, off-topic
    # 126), then made training data of the learned model; these are its figures as training data.
    # With v15 in training: ru top-3 502 → 501, en 348/358/1 → 347/357/2.
    # Off-topic 129 → 128 with round 17's written training sets 17b, 17c; en top-1 347 → 346,
    # top-3 357 → 356 with v17 and v18 in training (its "don't know" 2 → 1).
    # en top-1 346 → 345 with v19 in training (its top-3 356 → 358, "don't know" 2 → 0).
    "blind_set_v14.tsv": ({"ru": (504, 492, 501, 1), "en": (360, 345, 358, 0)}, (130, 128)),
    # v13: reported once (round 13, commit 493369f: ru 405/422/9, en 276/293/6, off-topic
    # 99), then made training data of the learned model; these are its figures as training data.
    "blind_set_v13.tsv": ({"ru": (436, 420, 426, 8), "en": (303, 291, 297, 5)}, (106, 104)),
    # Round 13's written training sets (never blind): their figures as training data.
    "train_set_13a.tsv": ({"ru": (514, 497, 509, 4), "en": (62, 62, 62, 0)}, (122, 121)),
    # 13b's en top-1 448 → 447 with round 14's written training sets (its top-3 and "don't
    # know" improved).
    # 446 with v14 in training.
    "train_set_13b.tsv": ({"ru": (77, 77, 77, 0), "en": (454, 446, 450, 3)}, (105, 104)),
    # 13c and 13d have one more Russian row each since round 14 (the layout-typed «gbgcs» and
    # «crjkmrj gbgcjd», dropped in round 13, back once they no longer spoil the vocabulary).
    # With round 14's written training sets 13c's off-topic 526 → 521 (questions about the app
    # and other games' border that 14a–c file the other way) and 13d's top-1 ru 511 → 509, en
    # 280 → 276, en top-3 282 → 281: neighbouring topics the new sets split differently.
    # Round 17's thresholds: off-topic 521 → 519 ("is 2 the only even prime", «жребий брошен это
    # кто сказал»: a word of the game the model is far surer of than of off-topic).
    "train_set_13c.tsv": ({"ru": (208, 200, 203, 5), "en": (129, 122, 127, 2)}, (528, 519)),
    "train_set_13d.tsv": ({"ru": (518, 509, 515, 3), "en": (284, 276, 281, 2)}, (70, 70)),
    # Round 14's written training sets (never blind): their figures as training data. Before
    # they joined training (a fresh measure on the writers' files, repeats included,
    # docs/knowledge.md) the round-13 model gave 14a ru 76.2 %, 14b ru 90.8 / en 91.0 %, 14c
    # off-topic 91.4 %, 14d en 86.2 %, 14e ru 84.5 % top-1.
    # With v14 in training 14a's ru top-1 511 → 510 and en top-3 189 → 188, 14e's ru top-1
    # 631 → 629.
    # 14a's en top-1 185 → 184 with v16 in training.
    "train_set_14a.tsv": ({"ru": (517, 510, 517, 0), "en": (190, 184, 188, 0)}, (119, 118)),
    # With v15 in training: 14b ru top-1 380 → 379, 14c ru 141 → 140 and en 90 → 89, 14e ru
    # 629 → 627.
    # 14b's en top-3 215 → 214 and 14d's off-topic 86 → 85 with round 17's written training
    # sets 17b (terse English) and 17c (border questions), which file some neighbours otherwise.
    "train_set_14b.tsv": ({"ru": (397, 379, 394, 2), "en": (218, 211, 214, 1)}, (46, 46)),
    # 14c's off-topic 427 → 425 in round 16 (OFF_TOPIC_MAX 0.12 → 0.14, KEYWORD_MIN 0.2 → 0.1:
    # «дом 2 ещё идёт?», a TV show, is answered; the rules questions gained more, docs).
    # 425 → 424 with v16 in training.
    "train_set_14c.tsv": ({"ru": (152, 140, 150, 2), "en": (96, 89, 94, 2)}, (439, 424)),
    "train_set_14d.tsv": ({"ru": (45, 45, 45, 0), "en": (577, 555, 569, 6)}, (87, 85)),
    # 14e's off-topic 94 → 93 with round 17's written set 17a in training («понял принял»),
    # 93 → 92 with v17 and v18.
    "train_set_14e.tsv": ({"ru": (656, 627, 649, 7), "en": (39, 38, 38, 1)}, (96, 92)),
    # Round 17's written training sets (never blind): their figures as training data. Before
    # they joined training (fresh, docs/knowledge.md) 17a gave ru 93.8 / 97.9 / 1.4 % on the
    # round-17 matcher (82.6 / 86.7 / 12.8 % on round 16's), 17b en 89.9 %, 17c ru 94.1 / en
    # 89.2 % top-1.
    "train_set_17a.tsv": ({"ru": (437, 431, 437, 0)}, (61, 59)),
    # 17b's en top-3 334 → 333 with v19 in training (its top-1 326 → 328).
    "train_set_17b.tsv": ({"en": (335, 328, 333, 0)}, (65, 62)),
    # 17c's en top-1 178 → 177 with v17 and v18 in training.
    "train_set_17c.tsv": ({"ru": (238, 230, 236, 1), "en": (185, 177, 184, 0)}, (31, 31)),
    # v12: reported once (round 12, commit 4e27f11: ru 344/363/12, en 210/230/11, off-topic
    # 84), then made training data of the learned model; these are its figures as training data.
    # Round 13's written training sets moved it: ru top-1 372 → 369, en top-1 238 → 237,
    # off-topic 99 → 98 (its top-3 and "don't know" improved).
    # Round 14's written training sets: en top-3 244 → 243, "don't know" 4 → 5 (its ru top-1
    # rose 369 → 370).
    # Off-topic 98 → 97 with round 17's thresholds: "what was the blitz in ww2" (a strategy
    # word; the model is four times surer of the strategy topic than of off-topic).
    "blind_set_v12.tsv": ({"ru": (382, 369, 375, 6), "en": (249, 237, 243, 5)}, (100, 97)),
    # v11: reported once (round 11, commit 1d10d65: ru 341/350/5, en 230/240/3, off-topic
    # 78), then made training data of the learned model; these are its figures as training data.
    # Round 14's written training sets: en top-1 238 → 237, top-3 242 → 241 (ru rose 349 → 351,
    # off-topic 88 → 89).
    "blind_set_v11.tsv": ({"ru": (355, 349, 351, 4), "en": (244, 237, 241, 2)}, (89, 88)),
    # v10: reported once (round 10, commit 4fa8426: ru 394/415/15, en 215/226/5, off-topic
    # 86), then made training data of the learned model; these are its figures as training data.
    "blind_set_v10.tsv": ({"ru": (432, 413, 422, 10), "en": (232, 225, 230, 2)}, (102, 102)),
    # v9: reported once (round 9, commit 8533b32: ru 286/315/13, en 144/156/9, off-topic 85),
    # then made training data of the learned model; these are its figures as training data.
    # Off-topic 86 → 85 when v12 joined training (round 12): "what's 12 times 14" (v12 has
    # "times" in rules questions).
    "blind_set_v9.tsv": ({"ru": (333, 317, 324, 8), "en": (168, 161, 161, 6)}, (86, 85)),
    # v8: reported once (round 8, commit ea565f0: ru 274/305/10, en 144/147/2, off-topic 87),
    # then made training data of the learned model; these are its figures as training data
    # (ru top-1 307 → 305 when v9 joined training in round 9; off-topic 88 → 87 in round 12,
    # "whats 7 times 8": v12 has "times" in rules questions).
    # Off-topic 87 → 86 with round 13's written training sets (its ru top-1 rose 305 → 311).
    "blind_set_v8.tsv": ({"ru": (319, 305, 314, 5), "en": (156, 153, 154, 1)}, (88, 86)),
    # v7: reported once (round 7, commit c9adec8: ru 238/261/10, en 119/124/3, off-topic 71),
    # then made training data of the learned model; these are its figures as training data.
    "blind_set_v7.tsv": ({"ru": (273, 264, 265, 8), "en": (129, 125, 127, 2)}, (75, 74)),
    # v6: reported once (round 6, commit 9f3aa63: ru 304/348/25, en 142/158/6, off-topic 91),
    # then made training data of the learned model; these are its figures as training data
    # (off-topic 117 → 116 when v9 joined training in round 9, 116 → 115 in round 12, 115 → 113
    # with round 13's written training sets, while its ru top-1 rose 356 → 370).
    # Off-topic 113 → 111 with round 14's written training sets (its ru "don't know" 17 → 4),
    # 111 → 110 with v14 in training.
    "blind_set_v6.tsv": ({"ru": (381, 356, 363, 17), "en": (170, 163, 167, 3)}, (120, 110)),
    # v5: reported once (round 5, commit 2312e0d: ru 225/245/7, en 107/114/6, off-topic 73),
    # then made training data of the learned model; these are its figures as training data.
    # Off-topic 88 → 87 with round 17's thresholds: «как начать новую игру» (the bot's usage,
    # which the bot answers with /new itself) gets a topic; 87 → 86 with the written set 17a
    # in training («ну и партия была»).
    # v5's off-topic 86 → 85 in round 19 ("doubles" its own term: "lol he rolled doubles
    # again" now reads as the dice; held out, v5 declines the same 75 as before).
    # 85 → 84 with v19 in training: «как поставить длинные нарды по умолчанию» (the bot's
    # settings) reads as setup.
    "blind_set_v5.tsv": ({"ru": (260, 253, 258, 2), "en": (122, 117, 118, 4)}, (90, 84)),
    # v4: reported once (round 4, commit 21d083c: ru 249/268/3, en 119/128/2, off-topic 79),
    # then made training data of the learned model; these are its figures as training data.
    "blind_set_v4.tsv": ({"ru": (278, 277, 277, 1), "en": (130, 128, 129, 1)}, (85, 84)),
    # v3: reported once (round 3, commit 5b2aff8: ru 234/255/5, en 124/135/1, off-topic 62),
    # then made training data of the learned model; these are its figures as training data.
    "blind_set_v3.tsv": ({"ru": (265, 258, 261, 4), "en": (141, 139, 141, 0)}, (68, 66)),
    "blind_set_v2.tsv": ({"ru": (291, 211, 246, 25), "en": (155, 124, 145, 6)}, (73, 73)),
    # v1: reported once (ru 204/239/18, en 121/142/6, off-topic 59), then tuned on in round 2.
    "blind_set_v1.tsv": ({"ru": (275, 242, 262, 5), "en": (155, 140, 152, 2)}, (73, 70)),
    "dev_set.tsv": ({"ru": (118, 114, 116, 1), "en": (66, 62, 64, 2)}, (35, 35)),
    # dev 2's en wrong "don't know" 0 → 1 in round 6: v6 taught "misclicked can i undo" as
    # off-topic (the bot's undo button), and dev 2's "can I undo" (physical_rules) went with it.
    # dev 2's ru wrong "don't know" 1 → 2 in round 7 (its top-1 86 → 88): v7 taught doubts
    # about the dice as off-topic, and dev 2 files «бот подкручивает кубики?» under
    # physical_rules. Its ru top-1 88 → 87 in round 9, when v9 joined training.
    "dev_set_2.tsv": ({"ru": (91, 87, 89, 2), "en": (60, 58, 59, 1)}, (24, 23)),
    "dev_set_3.tsv": ({"ru": (30, 25, 29, 0), "en": (15, 11, 14, 0)}, (5, 5)),
    # dev 4's en top-1 17 → 16 in round 6: "how do doubles work" now answers the cube first
    # (the dice close second), see test_knowledge.py.
    "dev_set_4.tsv": ({"ru": (39, 36, 37, 1), "en": (17, 16, 17, 0)}, (12, 12)),
    # dev 5 (round 3, after v3): ru 60/62/1, en 21/23/0, off-topic 14 when written; tuned on.
    "dev_set_5.tsv": ({"ru": (64, 62, 63, 1), "en": (23, 23, 23, 0)}, (16, 16)),
    # dev 6 (round 6, after v5, before tuning): ru 38/40/2, en 25/26/2, off-topic 18 when
    # written; tuned on.
    "dev_set_6.tsv": ({"ru": (42, 41, 42, 0), "en": (28, 28, 28, 0)}, (28, 26)),
}


@pytest.mark.parametrize("name", sorted(MEASURED))
def test_figures_do_not_regress(name: str) -> None:
    by_lang, (off_total, off_dont_know) = MEASURED[name]
    figures = evaluate(read_set(DATA / name))
    for lang, (total, top1, top3, dont_know) in by_lang.items():
        got = figures.by_lang[lang]
        assert got.total == total, f"{name}: the set changed; measure it again, never tune on it"
        assert got.top1 >= top1, (name, lang, "top-1", got.top1, top1)
        assert got.top3 >= top3, (name, lang, "top-3", got.top3, top3)
        assert got.dont_know <= dont_know, (name, lang, "don't know", got.dont_know, dont_know)
    assert figures.off_topic_total == off_total
    assert figures.off_topic_dont_know >= off_dont_know, (name, figures.off_topic_dont_know)


# blind set -> (its header, how many of its questions earlier sets happen to have as well)
BLIND = {
    "blind_set_v2.tsv": ("# BLIND SET v2 — NEVER TUNE ON IT", 48),
    "blind_set_v3.tsv": ("# BLIND SET v3 — reported once", 54),
    "blind_set_v4.tsv": ("# BLIND SET v4 — reported once", 5),
    "blind_set_v5.tsv": ("# BLIND SET v5 — reported once", 39),
    "blind_set_v6.tsv": ("# BLIND SET v6 — reported once", 89),
    "blind_set_v7.tsv": ("# BLIND SET v7 — reported once", 64),
    "blind_set_v8.tsv": ("# BLIND SET v8 — reported once", 107),
    "blind_set_v9.tsv": ("# BLIND SET v9 — reported once", 118),
    "blind_set_v10.tsv": ("# BLIND SET v10 — reported once", 124),
    "blind_set_v11.tsv": ("# BLIND SET v11 — reported once", 150),
    "blind_set_v12.tsv": ("# BLIND SET v12 — reported once", 109),
    "blind_set_v13.tsv": ("# BLIND SET v13 — reported once", 129),
    "blind_set_v14.tsv": ("# BLIND SET v14 — reported once", 237),
    "blind_set_v15.tsv": ("# BLIND SET v15 — reported once", 216),
    "blind_set_v16.tsv": ("# BLIND SET v16 — reported once", 303),
    "blind_set_v17.tsv": ("# BLIND SET v17 — reported once", 269),
    "blind_set_v18.tsv": ("# BLIND SET v18 — reported once", 225),
    "blind_set_v19.tsv": ("# BLIND SET v19 — reported once", 221),
    "blind_set_v20.tsv": ("# BLIND SET v20 — reported once", 193),
}


# development set -> the last blind set that had been read when it was written
WRITTEN_AFTER = {
    "dev_set_6.tsv": "blind_set_v5.tsv",
    # Round 13's written training sets: written after v12 was reported (never shown it).
    **{f"train_set_13{part}.tsv": "blind_set_v12.tsv" for part in "abcd"},
    # Round 14's: written after v13 was reported (never shown it).
    **{f"train_set_14{part}.tsv": "blind_set_v13.tsv" for part in "abcde"},
    # Round 17's: written after v16 was reported (never shown it).
    **{f"train_set_17{part}.tsv": "blind_set_v16.tsv" for part in "abc"},
}


def _version(name: str) -> int:
    """A blind set's number (``blind_set_v10.tsv`` → 10; 0 for anything else): names sort
    v10 before v2, numbers do not."""
    found = re.search(r"_v(\d+)\.tsv$", name)
    return int(found.group(1)) if found else 0


@pytest.mark.parametrize("name", sorted(BLIND))
def test_blind_set_meets_its_size_and_is_kept_apart(name: str) -> None:
    from tests.teacher.test_knowledge import QUESTIONS, UNRELATED

    header, shared = BLIND[name]
    rows = read_set(DATA / name)
    on_topic = [r for r in rows if r.expected != "none"]
    assert sum(r.lang == "ru" for r in on_topic) >= 200
    assert sum(r.lang == "en" for r in on_topic) >= 100
    assert sum(r.expected == "none" for r in rows) >= 50
    # Written independently of everything before it; a few dozen everyday phrasings ("what is
    # mars", «привет») happen to be in both. No question may move from one side to the other.
    earlier = {q[0].lower() for q in QUESTIONS} | {q.lower() for q in UNRELATED}
    for other in MEASURED:
        if _version(WRITTEN_AFTER.get(other, "")) >= _version(name):
            continue  # written after this blind set was read: not earlier
        if other != name and (other not in BLIND or _version(other) < _version(name)):
            earlier |= {r.question.lower() for r in read_set(DATA / other)}
    assert len(earlier & {r.question.lower() for r in rows}) <= shared
    assert (DATA / name).read_text(encoding="utf-8").startswith(header)
