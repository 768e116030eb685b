"""What an inline query asks for, and the result ids that name the offers (they round-trip)."""

from __future__ import annotations

from bot.handlers.inline import Query, offer_of, offers, parse_query, result_id
from engine import Options
from gameplay.inline import Offer


def test_a_query_names_a_variant_a_length_and_an_opponent_in_any_order() -> None:
    parse = lambda text: parse_query(text, bot_username="nardy_bot", own_username="alice_k")  # noqa: E731
    assert parse("") == Query()
    assert parse("@boris_n short 5") == Query("short", 5, "boris_n")
    assert parse("5 длинные @Boris_N") == Query("long", 5, "Boris_N")
    # the bot's own name, the sender's own, and too short a name are no opponent
    assert parse("@nardy_bot @alice_k @bob") == Query()
    assert parse("короткие 99 слово") == Query("short", 25, None)


def test_offers_cover_the_variants_matches_and_the_link() -> None:
    plain = offers(Query())
    assert [(o.variant, o.match_length, o.options.cube, o.link) for o in plain] == [
        ("long", 1, None, False),
        ("short", 1, None, False),
        ("short", 1, False, False),
        ("long", 3, None, False),
        ("long", 5, None, False),
        ("long", 7, None, False),
        ("long", 1, None, True),
    ]
    short5 = offers(Query("short", 5))
    assert [(o.variant, o.match_length, o.options.cube) for o in short5] == [
        ("short", 5, None),
        ("short", 5, False),
        ("short", 5, None),
    ]
    assert short5[-1].link


def test_result_ids_round_trip_and_stay_within_telegrams_limit() -> None:
    for query in (Query(), Query("short"), Query("long", 7), Query("short", 25, "boris_n")):
        for offer in offers(query):
            rid = result_id(offer)
            assert len(rid.encode()) <= 64
            assert offer_of(rid) == offer
    assert offer_of(result_id(Offer("short", 1, Options(cube=True)))) == Offer(
        "short", 1, Options(cube=True)
    )
    for forged in ("", "x.long.1.d", "c.chess.1.d", "c.long.one.d", "c.long.1.q", "c.long.1"):
        assert offer_of(forged) is None
