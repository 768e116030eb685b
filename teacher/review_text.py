"""Words for the game review (``ai.review``): the labels and one line of "why" per reason
code, in Russian and English. Pure: codes and parameters in, text out; the bot's catalogs may
take these over.

Russian nouns agree with the number (под 1 ударом, под 11 ударами; 1 пипс, 3 пипса); the
wording never gives a player a grammatical gender.
"""

from __future__ import annotations

from collections.abc import Mapping

LANGS = ("ru", "en")

LABELS: dict[str, dict[str, str]] = {
    "ru": {"strong": "сильная игра", "average": "средняя игра", "beginner": "новичок"},
    "en": {"strong": "strong play", "average": "average play", "beginner": "beginner"},
}

# ``{n:word}`` placeholders are filled by :func:`_plural` with the Russian forms below.
_RU_FORMS: dict[str, tuple[str, str, str]] = {
    "shots_under": ("ударом", "ударами", "ударами"),  # «под N ударами»
    "pip": ("пипс", "пипса", "пипсов"),
    "point": ("пункт", "пункта", "пунктов"),
    "decision": ("решение", "решения", "решений"),
    "checker_acc": ("шашку", "шашки", "шашек"),  # «бьёт N шашек»
}

WHY: dict[str, dict[str, str]] = {
    "ru": {
        "wins": "лучший ход сразу выигрывает партию",
        "saves_mars": "лучший ход выбрасывает первую шашку и спасает от марса",
        "blot_shots": "оставили блот под {shots} {shots:shots_under} из 36 "
        "(после лучшего хода — {best_shots})",
        "missed_hit": "упустили удар: лучший ход бьёт {hits} {hits:checker_acc} соперника",
        "block": "лучший ход строит {best_run} {best_run:point} подряд (у вас {played_run})",
        "head": "голова: после лучшего хода на ней остаётся {best_head}, после вашего — "
        "{played_head}",
        "race": "гонка: вы {lead_words}; здесь важен каждый пипс",
        "double_early": "удвоение рано: перевеса ещё не хватает, чтобы отдавать куб",
        "double_too_good": "слишком хорошо для удвоения: играя дальше, вы выигрываете больше",
        "wrong_take": "надо было отказаться: принятие теряет больше, чем отказ",
        "wrong_drop": "надо было принять: отказ отдаёт больше, чем игра дальше",
        "missed_double": "надо было удвоить — {market}",
        "missed_redouble": "надо было переудвоить — {market}",
        "equity": "лучший ход сильнее на {lost_k} тысячных очка",
    },
    "en": {
        "wins": "the best play wins the game at once",
        "saves_mars": "the best play bears off a first checker and saves the mars",
        "blot_shots": "left a blot to {shots} shots of 36 (the best play leaves {best_shots})",
        "missed_hit": "missed a hit: the best play hits {hits} {hits_checkers}",
        "block": "the best play builds {best_run} points in a row (yours: {played_run})",
        "head": "the head: the best play leaves {best_head} checkers on it, yours {played_head}",
        "race": "race: you are {lead_words}; every wasted pip counts",
        "double_early": "doubled too early: not strong enough yet to give the cube away",
        "double_too_good": "too good to double: playing on wins more",
        "wrong_take": "should have dropped: taking loses more than the drop",
        "wrong_drop": "should have taken: dropping gives away more than playing on",
        "missed_double": "should have doubled — {market}",
        "missed_redouble": "should have redoubled — {market}",
        "equity": "the best play is worth {lost_k} thousandths of a point more",
    },
}


# A missed double's second half: whether the opponent had a drop (``drop`` = 1) or a take.
MARKET: dict[str, dict[int, str]] = {
    "ru": {
        1: "у соперника уже отказ, удвоение сразу выигрывало ставку",
        0: "перевеса уже хватало, а соперник ещё мог принять (игра на удвоенную ставку)",
    },
    "en": {
        1: "the opponent already had a drop, so the double would have won the stake at once",
        0: "you were strong enough, and the opponent could still take (a game for twice the stake)",
    },
}


def _ru_form(n: int, forms: tuple[str, str, str]) -> str:
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms[1]
    return forms[2]


def _lead_words(lead: int, lang: str) -> str:
    if lang == "ru":
        if lead == 0:
            return "наравне по пипсам"
        word = _ru_form(lead, _RU_FORMS["pip"])
        where = "впереди" if lead > 0 else "позади"
        return f"{where} на {abs(lead)} {word}"
    if lead == 0:
        return "level in pips"
    pips = "pip" if abs(lead) == 1 else "pips"
    return f"{abs(lead)} {pips} {'ahead' if lead > 0 else 'behind'}"


def _plural_format(template: str, params: Mapping[str, object]) -> str:
    """``template`` filled from ``params``; ``{n:shot}`` is the Russian form of "shot" that
    agrees with ``n``."""
    out = template
    for key, forms in _RU_FORMS.items():
        for name, value in params.items():
            placeholder = f"{{{name}:{key}}}"
            if placeholder in out:
                out = out.replace(placeholder, _ru_form(int(value), forms))  # type: ignore[call-overload]
    return out.format(**params)


def why_line(why: str, params: Mapping[str, int | float], lang: str = "ru") -> str:
    """One line saying why a mistake was one (``why`` is an ``ai.review.Why`` value)."""
    lang = lang if lang in LANGS else "ru"
    values: dict[str, object] = dict(params)
    if "lead" in values:
        values["lead_words"] = _lead_words(int(values["lead"]), lang)  # type: ignore[arg-type]
    if "hits" in values:
        values["hits_checkers"] = "checker" if int(values["hits"]) == 1 else "checkers"  # type: ignore[call-overload]
    if "drop" in values:
        values["market"] = MARKET[lang][1 if values["drop"] else 0]
    if "lost" in values:
        values["lost_k"] = round(1000 * float(values["lost"]))  # type: ignore[arg-type]
    return _plural_format(WHY[lang][why], values)


def decisions_text(n: int, lang: str = "ru") -> str:
    """ "34 решения" / "34 decisions"."""
    if lang == "en":
        return f"{n} decision" if n == 1 else f"{n} decisions"
    return f"{n} {_ru_form(n, _RU_FORMS['decision'])}"


def number_text(value: float, digits: int, lang: str = "ru") -> str:
    """A number as the language writes it: ``6,1`` in Russian, ``6.1`` in English."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if lang != "en" else text


def label_text(label: str, lang: str = "ru") -> str:
    """The plain label of a player's error rate (``ai.review.Label`` value)."""
    return LABELS[lang if lang in LANGS else "ru"][label]


__all__ = ["LABELS", "WHY", "decisions_text", "label_text", "number_text", "why_line"]
