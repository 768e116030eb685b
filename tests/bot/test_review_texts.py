"""The review as the player reads it (bot.presenter.review): valid Telegram HTML with the
players' names escaped, Russian with no English word in it, English with no Russian one, and
every kind of decision worded — plays, doubles, answers and missed doubles."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from ai.review import review_game
from bot.presenter.review import match_review_text, mistake_pictures, review_text
from engine import Side, get_variant
from gameplay.reviews import MatchGame, MatchReview, Review, ReviewedMistake, summarize
from tests.fake_telegram import CAPTION_LIMIT, parse_html
from tests.matches import play_match

NAMES = {Side.WHITE: "<b>Ann & Co</b>", Side.BLACK: "Бо́рис <i>"}


@pytest.fixture(scope="module")
def review() -> Review:
    """A reviewed random-play short game, its players' biggest mistakes joined by one cube
    mistake of every kind (the cube's are rarely among a random player's three biggest)."""
    _, logs = play_match("short", 1, seed=2, double_rate=0.15, take_rate=0.5)
    computed = summarize(7, review_game(logs[0].history, "short"))
    before = get_variant("short").start_position()
    cube = [
        ("double", "double_early", {"equity": 0.2}),
        ("double", "double_too_good", {"equity": 1.2}),
        ("take", "wrong_take", {"equity": -0.7}),
        ("drop", "wrong_drop", {"equity": -0.3}),
        ("no_double", "missed_double", {"equity": 0.7, "drop": 1}),
        ("no_double", "missed_redouble", {"equity": 0.5, "drop": 0}),
    ]
    players = {}
    for side, player in computed.players.items():
        extra = tuple(
            ReviewedMistake(side, kind, 9, None, before, (), (), 0.123, why, {**p, "lost": 0.123})
            for kind, why, p in cube
        )
        players[side] = replace(player, mistakes=player.mistakes + extra)
    return replace(computed, players=players)


def _without_names(text: str) -> str:
    for name in NAMES.values():
        text = text.replace(name, "")
    return text


def test_every_kind_of_mistake_is_in_the_sample(review: Review) -> None:
    kinds = {m.kind for p in review.players.values() for m in p.mistakes}
    assert kinds == {"play", "double", "take", "drop", "no_double"}, kinds


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_review_is_html_with_names_escaped_in_one_language(review: Review, lang) -> None:
    texts = [review_text(review, NAMES, lang)]
    pictures = mistake_pictures(review, NAMES, lang)
    assert len(pictures) == sum(len(p.mistakes) for p in review.players.values())
    texts.extend(p.caption for p in pictures)
    foreign = r"[A-Za-z]{2,}" if lang == "ru" else r"[А-Яа-яЁё]{2,}"
    for text in texts:
        plain, _ = parse_html(text)  # raises as Telegram would on broken HTML
        assert any(name in plain for name in NAMES.values())
        assert not re.search(foreign, _without_names(plain)), plain
    for picture in pictures:
        assert len(parse_html(picture.caption)[0]) <= CAPTION_LIMIT
    assert "&lt;b&gt;Ann &amp; Co&lt;/b&gt;" in texts[0]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_match_review_names_the_players_and_each_game(review: Review, lang) -> None:
    """Two games with the colours swapped: each player's totals add the colour they played
    in each game; the words are in one language and the names escaped."""
    second = replace(review, game_id=8)
    match = MatchReview(
        "short",
        3,
        (1, 3),
        (MatchGame(review, 0, 1, 2), MatchGame(second, 1, 0, 1)),
    )
    names = (NAMES[Side.WHITE], NAMES[Side.BLACK])
    text = match_review_text(match, names, lang)
    plain, _ = parse_html(text)
    foreign = r"[A-Za-z]{2,}" if lang == "ru" else r"[А-Яа-яЁё]{2,}"
    assert not re.search(foreign, _without_names(plain).replace("/review", "")), plain
    white, black = review.players[Side.WHITE], review.players[Side.BLACK]
    seat0 = match.totals(0)
    assert seat0.decisions == white.decisions + black.decisions
    assert "&lt;b&gt;Ann &amp; Co&lt;/b&gt;" in text
    assert ("№7" if lang == "ru" else "No. 7") in plain and "1:3" in plain
    # the title, the totals, both games' lines and game 1's winner
    assert plain.count(names[1]) == 5
