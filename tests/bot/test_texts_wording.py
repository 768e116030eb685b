"""Russian wording that reads right for every player: one term for each thing, and no
sentence that gives a player's name a grammatical gender (#18 items 13, 14)."""

from __future__ import annotations

import re
import string

import pytest

from bot.texts import CATALOGS, localized_notation, t
from engine import Turn, format_steps
from engine.notation import parse_segments
from engine.textpos import parse_position

#: Placeholders that stand for a person (a player's display name).
PERSON_FIELDS = frozenset({"name", "inviter", "invitee", "first", "white", "black", "other"})
#: In these templates {a} and {b} are names as well (the opening lot).
NAMED_AB = frozenset({"cap_lot_long", "cap_lot_short"})

#: Wording that makes a name masculine or feminine.
PERSONS = "|".join(sorted(PERSON_FIELDS))
FORBIDDEN = [
    re.compile(r"\{(?:" + PERSONS + r")\}\s+(?:не\s+)?[а-яё]+(?:л|ла|лся|лась)\b"),
    re.compile(r"\b(?:ходит|играет|был|была)\s+(?:первым|первой|белыми)\b"),
    re.compile(r"\b(?:принял|приняла|отказался|отказалась|сдался|сдалась|заблокировал)\b"),
    re.compile(r"\b(?:он|она)\b"),
]
#: A past-tense or instrumental ending that agrees with its subject's gender.
GENDERED_WORD = re.compile(r"\b[а-яё]+(?:л|ла|лся|лась|ым|ой)\b")
#: Where a clause ends: a name and a word in another clause do not agree.
CLAUSE_END = re.compile(r"[.,:;!?—()\n]")


def person_fields(key: str, template: str) -> set[str]:
    fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    persons = fields & PERSON_FIELDS
    if key in NAMED_AB:
        persons |= fields & {"a", "b"}
    return persons


def person_templates() -> list[tuple[str, str]]:
    return [(k, v) for k, v in CATALOGS["ru"].items() if person_fields(k, v)]


def test_the_catalog_has_person_templates_to_check() -> None:
    keys = {k for k, _ in person_templates()}
    assert {"invite_accepted_inviter", "cap_lot_long", "cap_took", "cap_resigned"} <= keys


@pytest.mark.parametrize(("key", "template"), person_templates())
def test_no_russian_template_gives_a_name_a_gender(key: str, template: str) -> None:
    for pattern in FORBIDDEN:
        assert not pattern.search(template), (key, pattern.pattern, template)


@pytest.mark.parametrize(("key", "template"), person_templates())
def test_every_person_template_reads_right_with_a_womans_name(key: str, template: str) -> None:
    """Rendered with «Алиса» (and «Ольга» for the second person), no word in a name's clause
    agrees with a gender — so it reads the same for Алиса, Борис and Grace."""
    fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    persons = person_fields(key, template)
    women = iter(["Алиса", "Ольга", "Мария"])
    values = {f: next(women) if f in persons else "7" for f in fields}
    text = template.format(**values)
    assert "Алиса" in text
    for clause in CLAUSE_END.split(text):
        if any(name in clause for name in ("Алиса", "Ольга", "Мария")):
            assert not GENDERED_WORD.findall(clause.lower()), (key, clause)


def test_one_word_for_the_single_win_and_notation_in_russian_words() -> None:
    ru = CATALOGS["ru"]
    assert all("ойн" not in v.lower() for v in ru.values())  # RULES.md M-1 and the seeds: оин
    assert t("ru", "kind_oin") == "оин"
    # Captions and hints use the buttons' words; English keeps the notation as it is.
    assert localized_notation("ru", "bar/22* 6/off(2)") == "бар/22* 6/выброс(2)"
    assert localized_notation("en", "bar/22* 6/off(2)") == "bar/22* 6/off(2)"
    assert localized_notation("ru", "24/18 13/11") == "24/18 13/11"


def test_localized_notation_over_real_plays_names_bar_and_off_like_the_buttons() -> None:
    """Every play from the bar and every bear-off of two positions is written with «бар» /
    «выброс», the words the point buttons use, and reads back as the same segments (typed
    input accepts both forms)."""
    bearing_off = Turn(parse_position("long", "X: 6×3, 5×2, 4×2, 2×8; O: 24×15"), (6, 5))
    entering = Turn(
        parse_position("short", "X: bar×1, 24×2, 13×5, 8×3, 6×4; O: 24×2, 13×5, 8×3, 6×5"),
        (6, 5),
    )
    for turn, word in ((bearing_off, "выброс"), (entering, "бар")):
        assert turn.legal_plays
        for play in turn.legal_plays:
            canonical = format_steps(play.steps)
            russian = localized_notation("ru", canonical)
            assert word in russian and not re.search(r"\b(?:bar|off)\b", russian), russian
            assert parse_segments(russian) == parse_segments(canonical)


def test_english_texts_quote_the_english_way() -> None:
    """«Guillemets» belong to the Russian texts; English ones quote with “…” (#12, read in
    the picker's transcript: «Step by step»)."""
    quoted = [key for key, text in CATALOGS["en"].items() if "«" in text or "»" in text]
    assert quoted == []
