"""Stored games (STYLE habit 3): ``Match.to_json`` / ``from_json`` round-trips at every step of
random matches — partial turns, doubles on offer, results — and the restored match plays on."""

from __future__ import annotations

import json
import random

import pytest

from engine import LongScoring, Match, Options, Phase


def restored(match: Match) -> Match:
    """Serialise, read back, and check nothing was lost; the copy is played on from here."""
    text = match.to_json()
    copy = Match.from_json(text)
    assert copy.to_dict() == match.to_dict()
    assert copy == match
    assert copy.to_json() == text
    game, old = copy.current, match.current
    if game.phase is Phase.MOVE:
        assert game.turn.steps == old.turn.steps
        assert game.current_position == old.current_position
        assert game.legal_steps() == old.legal_steps()
    return copy


def play_match(variant: str, length: int, options: Options, seed: int) -> set[str]:
    """Play a seeded random match, entering steps one by one (with undos), offering and
    answering doubles and sometimes resigning; round-trip after every action."""
    rng = random.Random(seed)
    match = Match(variant, length=length, options=options)
    seen: set[str] = set()
    while True:
        match = restored(match)
        game = match.current
        seen.update(e.kind for e in game.history)
        if game.phase is Phase.MOVE and game.steps:
            seen.add("partial turn")
        if game.phase is Phase.OPENING:
            game.roll_lot(rng)
        elif game.phase is Phase.ROLL:
            seat = game.seat_to_act
            assert seat is not None
            if rng.random() < 0.004:
                game.resign(seat)
            elif game.can_double(seat) and rng.random() < 0.1:
                game.offer_double(seat)
            else:
                game.roll(rng, seat=seat)
        elif game.phase is Phase.DOUBLE:
            seat = game.seat_to_act
            assert seat is not None
            game.take(seat) if rng.random() < 0.8 else game.drop(seat)
        elif game.phase is Phase.MOVE:
            offered = game.legal_steps()
            if game.steps and rng.random() < 0.1:
                game.undo()
            elif offered:
                step = rng.choice(offered)
                game.step(step.src, step.dst)
            else:
                game.commit()
        else:  # OVER: the result is stored too
            match.record_result()
            match = restored(match)
            if match.is_over:
                return seen
            match.next_game()


@pytest.mark.parametrize(
    ("variant", "length", "options", "seed"),
    [
        pytest.param("long", 3, Options(), 1, id="long match to 3"),
        pytest.param("long", 2, Options(cube=True, crawford=True), 2, id="long, cube, Crawford"),
        pytest.param("short", 3, Options(), 3, id="short match to 3 with the cube"),
        pytest.param(
            "short", 5, Options(crawford=True, resign_as_oin=True), 4, id="short to 5, Crawford"
        ),
    ],
)
def test_round_trip_at_every_step_of_random_matches(
    variant: str, length: int, options: Options, seed: int
) -> None:
    seen = play_match(variant, length, options, seed)
    assert {"lot", "roll", "move", "end", "partial turn"} <= seen
    if options.cube_enabled(variant):
        assert {"double", "take"} <= seen


def test_unknown_format_version_is_refused() -> None:
    data = json.loads(Match("short").to_json())
    for version in (None, 0, 2, "1"):
        data["format"] = version
        with pytest.raises(ValueError, match="format"):
            Match.from_json(json.dumps(data))


def test_options_survive_and_unknown_options_are_refused() -> None:
    options = Options(block_in_passing=True, long_scoring=LongScoring.HOME_MARS, cube=True)
    match = Match.from_json(Match("long", length=3, options=options).to_json())
    assert match.options == Options.from_dict(options.to_dict())
    data = json.loads(match.to_json())
    data["options"]["no_such_rule"] = True
    with pytest.raises(ValueError):
        Match.from_json(json.dumps(data))
