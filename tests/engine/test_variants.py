"""Variants as classes behind one interface (engine.variant.Variant), the engine's enums
(VariantName, EventKind, Reason), NotationError's codes and the house-rule descriptors.

The third variant below is the evidence that the interface is complete: it is one subclass
and one registration, and everything shared — the search, turns, games, matches, scoring,
position IDs and the JSON form — works for it without knowing its name.
"""

from __future__ import annotations

import json
import random
from dataclasses import fields

import pytest

from engine import (
    OPTION_INFO,
    EventKind,
    Game,
    IllegalActionError,
    Match,
    NotationCode,
    NotationError,
    Options,
    Phase,
    Position,
    Reason,
    VariantName,
    format_steps,
    get_variant,
    parse_segments,
    positionid,
    registered,
)
from engine.position import Side
from engine.result import ResultKind
from engine.short_nardy import ShortNardy
from engine.variant import Variant, register, unregister
from tests.engine.helpers import long_pos

A, B = 0, 1
LONG, SHORT = get_variant("long"), get_variant("short")


class Nackgammon(ShortNardy):
    """Backgammon from a different start (two more back checkers): one class, one name."""

    name = "nackgammon"
    title_ru = "Накгаммон"
    title_en = "Nackgammon"
    aliases = ()

    def start_board(self) -> tuple[int, ...]:
        return Position.board_from_mapping({24: 2, 23: 2, 13: 4, 8: 3, 6: 4})


@pytest.fixture
def nackgammon():
    variant = register(Nackgammon())
    yield variant
    unregister(variant)


def _play_out(match: Match, rng: random.Random) -> None:
    """Play random legal plays (no cube) until the game ends, round-tripping the JSON form
    after every turn, as the bot's storage does."""
    for _ in range(2000):
        game = match.current
        if game.phase is Phase.OVER:
            return
        if game.phase is Phase.OPENING:
            game.roll_lot(rng)
        elif game.phase is Phase.ROLL:
            game.roll(rng)
        else:
            game.play(rng.choice(game.turn.legal_plays))
        match = Match.from_json(match.to_json())
    raise AssertionError("the game did not end")


def test_a_third_variant_is_one_class_and_one_registration(nackgammon: Variant) -> None:
    assert get_variant("Nackgammon") is nackgammon and nackgammon in registered()
    start = nackgammon.start_position()
    assert start.variant == "nackgammon" and start.mover[23] == 2
    plays = nackgammon.legal_plays(start, (6, 5))
    assert "24/18/13" in {format_steps(p.steps) for p in plays}  # the shared search, its steps
    assert positionid.decode(positionid.encode(start), "nackgammon") == start
    assert Options().cube_enabled("nackgammon")  # its own default (inherited: M-14)
    match = Match("nackgammon", length=1)
    rng = random.Random(7)
    _play_out(match, rng)


def test_the_interface_is_what_every_variant_implements() -> None:
    """The abstract part of Variant; each built-in variant overrides all of it."""
    abstract = ("start_board", "prepare", "board_result_kind")
    for name in abstract:
        method = getattr(Variant, name)
        with pytest.raises(NotImplementedError):
            method(Variant(), *([None] * (method.__code__.co_argcount - 1)))
    for variant in (LONG, SHORT):
        for name in abstract:
            assert getattr(type(variant), name) is not getattr(Variant, name), (variant, name)


def test_variant_facts_are_the_rules_of_each_game() -> None:
    assert (LONG.has_bar, LONG.can_hit, LONG.cube_by_default) == (False, False, False)
    assert (SHORT.has_bar, SHORT.can_hit, SHORT.cube_by_default) == (True, True, True)
    # L-5 / V-3 and S-4: who plays the lot's numbers.
    assert not LONG.lot_is_first_roll(Options())
    assert LONG.lot_is_first_roll(Options(first_move_lot_dice=True))
    assert SHORT.lot_is_first_roll(Options())
    # M-17 / V-12 and M-18: how the next game of a match starts (winner seat 1, black seat 0).
    assert LONG.next_game_starter(1, 0, Options()) == 0
    assert LONG.next_game_starter(1, 0, Options(winner_starts_next=True)) == 1
    assert SHORT.next_game_starter(1, 0, Options()) is None
    assert (LONG.keeps_colours, SHORT.keeps_colours) == (False, True)
    # Position keys: the opponent cannot change during a long-nardy turn.
    start = LONG.start_position()
    assert LONG.position_key(start) == start.mover
    short = SHORT.start_position()
    assert SHORT.position_key(short) == (short.mover, short.opponent)


def test_variant_scoring() -> None:
    """A mars in long nardy (M-2) and a koks in short nardy (M-6) are the variant's rule."""
    pos = long_pos("1×3", "24×15")
    assert LONG.board_result_kind(pos, Side.WHITE, Options()) is ResultKind.MARS
    loser = Position.board_from_mapping({25: 1, 6: 14})
    short = Position("short", Position.board_from_mapping({}), loser)
    assert SHORT.board_result_kind(short, Side.WHITE, Options()) is ResultKind.KOKS


def test_an_unknown_variant_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match="'long', 'short'"):
        get_variant("tavla")


# ---- VariantName -----------------------------------------------------------------------------


def test_variant_names_are_an_enum_that_equals_the_strings() -> None:
    pos = Position("long", LONG.start_board(), LONG.start_board())
    assert pos.variant is VariantName.LONG and pos.variant == "long"
    assert pos == Position(VariantName.LONG, pos.white, pos.black)
    assert hash(pos) == hash(Position(VariantName.LONG, pos.white, pos.black))
    assert Game("short").variant_name is VariantName.SHORT
    assert Match("длинные").variant_name is VariantName.LONG
    assert get_variant(VariantName.SHORT) is SHORT


def test_stored_json_keeps_plain_strings_and_old_json_loads() -> None:
    match = Match("long")
    match.current.set_lot(6, 1)
    match.current.roll(dice=(3, 1))
    data = json.loads(match.to_json())
    assert data["variant"] == "long" and data["game"]["variant"] == "long"
    assert [e["kind"] for e in data["game"]["history"]] == ["lot", "roll"]
    # A stored game written before the enums existed: the same strings load into enums.
    loaded = Match.from_json(json.dumps(data))
    assert loaded.variant_name is VariantName.LONG
    assert [e.kind for e in loaded.current.history] == [EventKind.LOT, EventKind.ROLL]
    assert loaded.to_json() == match.to_json()


def test_storage_speaks_the_engine_variant_enum() -> None:
    import storage

    assert storage.Variant is VariantName


# ---- EventKind -------------------------------------------------------------------------------


def test_every_event_kind_is_written_by_some_game() -> None:
    seen: set[EventKind] = set()
    game = Game("short")
    game.set_lot(5, 3)  # the lot, whose numbers are the first move (S-4)
    game.play(game.turn.legal_plays[0])
    game.offer_double(game.seat_to_act)
    game.take(game.seat_to_act)
    seen |= {e.kind for e in game.history}
    # A pass: white's checker on the bar against a closed board.
    closed = Position.board_from_mapping({p: 2 for p in range(1, 7)} | {7: 3})
    position = Position("short", _bar_board(), closed)
    SHORT.check_position(position)
    blocked = Game("short", position=position, phase=Phase.ROLL)
    blocked.roll(dice=(6, 6))
    seen |= {e.kind for e in blocked.history}
    dropped = Game("short")
    dropped.set_lot(5, 3)
    dropped.play(dropped.turn.legal_plays[0])
    dropped.offer_double(dropped.seat_to_act)
    dropped.drop(dropped.seat_to_act)
    resigned = Game("long")
    resigned.set_lot(6, 1)
    resigned.resign(A)
    seen |= {e.kind for g in (dropped, resigned) for e in g.history}
    assert seen == set(EventKind)
    assert all(type(e.kind) is EventKind for e in game.history)


def _bar_board() -> tuple[int, ...]:
    return Position.board_from_mapping({25: 1, 6: 14})


# ---- refusal reasons -------------------------------------------------------------------------


def _refusal(action) -> Reason:
    with pytest.raises(IllegalActionError) as info:
        action()
    return info.value.reason


def test_refusals_say_precisely_why() -> None:
    game = Game("long")
    assert _refusal(lambda: game.roll(dice=(3, 1), seat=A)) is Reason.NOT_YOUR_TURN  # no lot
    game.set_lot(6, 1)  # seat A is white and rolls
    assert _refusal(lambda: game.step(24, 21, seat=A)) is Reason.NO_DICE
    assert _refusal(lambda: game.commit(seat=A)) is Reason.NO_DICE
    assert _refusal(lambda: game.step(24, 21, seat=B)) is Reason.NOT_YOUR_TURN
    assert _refusal(lambda: game.take(A)) is Reason.WRONG_PHASE
    game.roll(dice=(3, 1), seat=A)
    assert _refusal(lambda: game.roll(dice=(3, 1), seat=A)) is Reason.WRONG_PHASE
    assert _refusal(Match("long").next_game) is Reason.GAME_NOT_OVER
    assert _refusal(lambda: Match("long").record_result()) is Reason.GAME_NOT_OVER
    game.resign(B)
    assert _refusal(lambda: game.roll(dice=(3, 1), seat=B)) is Reason.GAME_OVER
    assert _refusal(lambda: game.turn) is Reason.GAME_OVER
    match = Match("long")
    match.current.set_lot(6, 1)
    match.current.resign(B)
    assert _refusal(match.next_game) is Reason.MATCH_OVER
    # Reasons that cite the same rules are still different members.
    assert Reason.NO_DICE is not Reason.NOT_YOUR_TURN
    assert Reason.WRONG_PHASE.rule_ids == Reason.NOT_YOUR_TURN.rule_ids
    assert len({r.value for r in Reason}) == len(Reason)


# ---- NotationError codes ---------------------------------------------------------------------

NOTATION_CASES = [
    ("24/x", NotationCode.BAD_POINT, {"point": "x", "text": "24/x"}),
    ("24/*", NotationCode.BAD_POINT, {"point": "*", "text": "24/*"}),
    ("25/18", NotationCode.POINT_RANGE, {"point": 25, "text": "25/18"}),
    ("24", NotationCode.NOT_FROM_TO, {"token": "24"}),
    ("off/3", NotationCode.FROM_OFF, {"token": "off/3"}),
    ("24/bar", NotationCode.TO_BAR, {"token": "24/bar"}),
    ("1/7", NotationCode.BACKWARDS, {"token": "1/7", "src": 1, "dst": 7}),
    ("6/5 6/5 6/5 6/5 6/5", NotationCode.TOO_MANY_STEPS, {"count": 5, "limit": 4}),
]


@pytest.mark.parametrize(("text", "code", "params"), NOTATION_CASES)
def test_notation_errors_carry_a_code_and_its_parameters(
    text: str, code: NotationCode, params: dict
) -> None:
    with pytest.raises(NotationError) as info:
        parse_segments(text)
    assert info.value.code is code
    assert info.value.params == params
    assert str(info.value).isascii() and str(info.value)  # the English form for the CLI


def test_every_notation_code_is_reachable_and_documented() -> None:
    assert {code for _, code, _ in NOTATION_CASES} == set(NotationCode)
    doc = NotationCode.__doc__ or ""
    for _, code, params in NOTATION_CASES:
        assert f"``{code.name}``" in doc
        for key in params:
            assert f"``{key}``" in doc, (code, key)


# ---- house-rule descriptors ------------------------------------------------------------------


def test_every_option_is_described_in_field_order() -> None:
    assert [info.name for info in OPTION_INFO] == [f.name for f in fields(Options)]


@pytest.mark.parametrize("info", OPTION_INFO, ids=lambda i: i.name)
def test_option_descriptors_offer_valid_values_default_first(info) -> None:
    default = getattr(Options(), info.name)
    assert info.choices[0].value is default or info.choices[0].value == default
    for choice in info.choices:
        options = Options.from_dict({info.name: choice.value})
        assert getattr(options, info.name) == choice.value
        assert Options.from_dict(options.to_dict()) == options
        assert info.choice(choice.value) is choice
        assert choice.label("ru") and choice.label("en") and choice.label_ru != choice.label_en
    assert info.rule_id.startswith(("V-", "M-"))
    assert info.variants and set(info.variants) <= set(VariantName)
    assert info.label("ru") == info.choices[-1].label_ru
    with pytest.raises(ValueError):
        info.choice("no such value")


def test_option_descriptors_know_where_they_apply() -> None:
    by_name = {info.name: info for info in OPTION_INFO}
    assert by_name["block_in_passing"].applies_to("long")
    assert not by_name["block_in_passing"].applies_to("short")
    assert by_name["crawford"].applies_to("short") and by_name["crawford"].is_toggle
    assert not by_name["long_scoring"].is_toggle
    assert by_name["cube"].choice(None).rule_id == "M-14"
    assert by_name["cube"].choice(True) is not by_name["cube"].choice(None)
