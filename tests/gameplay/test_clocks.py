"""The move-clock policy (gameplay/clocks.py): choices, defaults, deadlines counted from the
last action, move numbers from real engine games, what a caption shows."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from engine.game import Game, Phase
from engine.options import Options
from gameplay import clocks
from gameplay.clocks import ClockState, MoveClock, TimeUnit, remaining_words
from storage import GameClock

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_choices_and_defaults() -> None:
    assert [c.per_move for c in clocks.CHOICES] == [
        None,
        timedelta(minutes=5),
        timedelta(hours=1),
        timedelta(hours=24),
        timedelta(hours=72),
    ]
    assert clocks.default_clock(group=True) is MoveClock.HOURS_24
    assert clocks.default_clock(group=False) is MoveClock.HOURS_72
    assert clocks.default_clock(group=True, vs_computer=True) is MoveClock.OFF
    assert clocks.clock_from_options({"move_clock": "1h"}, group=True) is MoveClock.HOUR_1
    assert clocks.clock_from_options({"move_clock": "off"}, group=False) is MoveClock.OFF
    assert clocks.clock_from_options({"move_clock": "9h"}, group=True) is MoveClock.HOURS_24
    assert clocks.clock_from_options({}, group=False) is MoveClock.HOURS_72
    assert clocks.clock_from_options({"move_clock": "5m"}, group=True, vs_computer=True) is (
        MoveClock.OFF
    )


def test_plan_counts_from_the_last_action() -> None:
    p = clocks.plan(MoveClock.HOURS_24, NOW)
    assert (p.remind_at, p.deadline_at) == (NOW + timedelta(hours=12), NOW + timedelta(hours=24))
    assert p.abandon_at == NOW + timedelta(days=30)
    assert clocks.plan(MoveClock.MIN_5, NOW).remind_at == NOW + timedelta(minutes=2, seconds=30)
    off = clocks.plan(MoveClock.OFF, NOW, abandon_after=timedelta(days=7))
    assert (off.remind_at, off.deadline_at, off.abandon_at) == (None, None, NOW + timedelta(7))
    computer = clocks.plan(MoveClock.HOUR_1, NOW, someone_on_clock=False)
    assert computer.deadline_at is None and computer.abandon_at is not None

    update = clocks.clock_update(MoveClock.HOUR_1, NOW, move=7, on_clock_user_id=5)
    assert (update.move_number, update.on_clock_user_id) == (7, 5)
    assert update.deadline_at == NOW + timedelta(hours=1)
    assert clocks.clock_update(MoveClock.HOUR_1, NOW, move=7, on_clock_user_id=None).remind_at is (
        None
    )


def test_move_numbers_follow_the_player_to_act() -> None:
    """Through a whole random short game with the cube: the move number changes exactly when
    the seat to act changes or a new turn begins, and never within a turn's steps."""
    rng = random.Random(11)
    game = Game("short", Options(cube=True))
    game.roll_lot(rng)
    last = (clocks.move_number(game), game.seat_to_act, sum(game.turns_played))
    for _ in range(3000):
        if game.phase is Phase.OVER:
            break
        seat = game.seat_to_act
        if game.phase is Phase.ROLL:
            if game.can_double(seat) and rng.random() < 0.05:
                game.offer_double(seat)
            else:
                game.roll(rng, seat=seat)
        elif game.phase is Phase.DOUBLE:
            game.take(seat)
        else:
            before = clocks.move_number(game)
            play = rng.choice(game.turn.legal_plays)
            if play.steps:
                s = play.steps[0]
                game.step(s.src, s.dst, seat=seat)
                if game.phase is Phase.MOVE:
                    assert clocks.move_number(game) == before  # a step keeps the move
                    game.undo(seat=seat)
            game.play(play, seat=seat)
        now = (clocks.move_number(game), game.seat_to_act, sum(game.turns_played))
        if now[1] != last[1] or now[2] != last[2]:
            assert now[0] > last[0], (last, now)
        else:
            assert now[0] == last[0]
        last = now
    assert game.phase is Phase.OVER
    assert any(e.kind == "take" for e in game.history)  # the cube's moves were exercised
    assert clocks.move_number(game, game_number=2) > 2_000_000


def stored(deadline: datetime | None, user: int | None = 5) -> GameClock:
    return GameClock(1, 3, 7, user, None, deadline, None, False, False, None)


def test_view_and_claims() -> None:
    assert clocks.view(None, NOW).state is ClockState.OFF
    assert clocks.view(stored(None), NOW).state is ClockState.OFF
    running = clocks.view(stored(NOW + timedelta(hours=23, minutes=10)), NOW)
    assert running.state is ClockState.RUNNING and running.remaining == timedelta(
        hours=23, minutes=10
    )
    assert not running.may_claim(6)
    expired = clocks.view(stored(NOW), NOW)
    assert expired.state is ClockState.EXPIRED and expired.remaining == timedelta(0)
    assert expired.may_claim(6) and not expired.may_claim(5)
    assert not clocks.view(stored(NOW, user=None), NOW).may_claim(6)


@pytest.mark.parametrize(
    ("left", "words"),
    [
        (timedelta(hours=71, minutes=59), (2, TimeUnit.DAYS)),
        (timedelta(hours=48), (2, TimeUnit.DAYS)),
        (timedelta(hours=47, minutes=59), (47, TimeUnit.HOURS)),
        (timedelta(hours=23, minutes=59), (23, TimeUnit.HOURS)),
        (timedelta(hours=1), (1, TimeUnit.HOURS)),
        (timedelta(minutes=59, seconds=59), (59, TimeUnit.MINUTES)),
        (timedelta(minutes=1), (1, TimeUnit.MINUTES)),
        (timedelta(seconds=59), (59, TimeUnit.SECONDS)),
        (timedelta(seconds=0.4), (1, TimeUnit.SECONDS)),
        (timedelta(seconds=-5), (1, TimeUnit.SECONDS)),
    ],
)
def test_remaining_words_round_down_to_one_unit(left: timedelta, words: tuple) -> None:
    assert remaining_words(left) == words
