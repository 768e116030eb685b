"""The game review (ai.review): errors against the hard level's choice, valued one way for
both plays; exact shot counts; cube decisions (doubles, answers and missed doubles) by
Janowski's money model or, in a match, by match winning chances; labels and reasons."""

from __future__ import annotations

import pytest

from ai import get_player
from ai.cube import money_cube as cube_values
from ai.match import MatchScore
from ai.player import CUBE_SETTINGS
from ai.review import (
    AVERAGE_MAX,
    STRONG_MAX,
    Decision,
    DecisionKind,
    Label,
    Why,
    explain,
    head_point,
    label_for,
    longest_block,
    money_cube,
    no_contact,
    review_game,
    shots,
)
from engine import Match, Options, Side, get_variant
from engine.game import EventKind
from engine.record import game_turns
from teacher.review_text import WHY, label_text, why_line
from tests.engine.helpers import long_pos, short_pos
from tests.matches import play_match

NO_CUBE = Options(cube=False)


def _ai_chooser(levels: dict[int, str], variant: str):
    players = {seat: get_player(level, variant, seed=seat) for seat, level in levels.items()}

    def choose(game, rng):
        return players[game.seat_to_act].choose_play(
            game.pos, game.dice, first_turn=game.first_turn(game.side_to_move), options=game.options
        )

    return choose


def test_a_bad_opening_is_a_mistake_and_the_best_play_is_named() -> None:
    """Short nardy, white opens 3-1 with 24/21 24/23 instead of making the 5-point."""
    match = Match("short", 1)
    game = match.current
    game.set_lot(3, 1)
    game.apply_text("24/21 24/23")
    game.commit()
    review = review_game(game.history, "short")
    (decision,) = review.decisions
    assert decision.kind is DecisionKind.PLAY and decision.side is Side.WHITE
    assert decision.best is not None
    assert {(s.src, s.dst) for s in decision.best.steps} == {(8, 5), (6, 5)}
    assert decision.error > 0.05
    white = review.players[Side.WHITE]
    assert white.decisions == 1 and white.error_rate == pytest.approx(1000 * decision.error)
    assert len(white.mistakes) == 1 and white.mistakes[0].lost == decision.error
    assert review.players[Side.BLACK].decisions == 0


def test_forced_plays_and_passes_are_not_decisions() -> None:
    _, logs = play_match("short", 1, seed=5, double_rate=0.0)
    history = logs[0].history
    review = review_game(history, "short")
    turns, _ = game_turns(history, "short")
    variant = get_variant("short")
    choices = [
        t
        for t in turns
        if t.kind is EventKind.MOVE
        and len(variant.legal_plays(t.before, t.dice, first_turn=t.first_turn)) > 1
    ]
    plays = [d for d in review.decisions if d.kind is DecisionKind.PLAY]
    assert len(plays) == len(choices)
    assert all(d.error >= 0 for d in review.decisions)


def test_the_hard_level_reviews_as_strong_and_easy_worse_than_hard() -> None:
    """Plays only: the games are reviewed as games without the cube (neither player was
    given the cube; reviewed with it, their missed doubles would count too)."""
    for seed in range(2):
        match, logs = play_match(
            "short", 1, seed, choose=_ai_chooser({0: "hard", 1: "easy"}, "short"), double_rate=0
        )
        game = match.current
        review = review_game(logs[0].history, "short", NO_CUBE)
        hard = review.players[game.side_of(0)]
        easy = review.players[game.side_of(1)]
        assert hard.label is Label.STRONG
        assert easy.error_rate > hard.error_rate


def _plain(p: float) -> list[tuple[int, float]]:
    return [(1, p), (-1, 1.0 - p)]


def test_the_money_cube_values_are_the_hard_levels_janowski_model() -> None:
    """The review values a money cube as ``hard`` does (ai.cube, efficiency 0.75 in contact
    and 0.6 in a race, a dead cube after a take to 64), without the levels' margins."""
    hard = CUBE_SETTINGS["hard"]
    for p in (0.3, 0.55, 0.7, 0.78, 0.9):
        for race, x in ((False, hard.contact), (True, hard.race)):
            for redouble in (False, True):
                mine = money_cube(_plain(p), race=race, redouble=redouble)
                theirs = cube_values(_plain(p), efficiency=x, redouble=redouble)
                assert (mine.no_double, mine.double_take) == (
                    theirs.no_double,
                    theirs.double_take,
                )
                assert mine.equity == pytest.approx(2 * p - 1) and mine.redouble is redouble
    # doubling window: not at 55 %, a double and a take at 72 %, a drop at 82 % (the live
    # take point of a cube at x = 0.75 is ~21 %), too good once mars are likely
    assert money_cube(_plain(0.55)).double < money_cube(_plain(0.55)).no_double
    window = money_cube(_plain(0.72))
    assert window.double > window.no_double and window.take_right
    assert not money_cube(_plain(0.82)).take_right
    gammonish = [(2, 0.6), (1, 0.3), (-1, 0.1)]
    assert money_cube(gammonish).no_double > money_cube(gammonish).double == 1.0
    # mars chances move the take point: 70 % wins with a third of them mars is a drop
    assert money_cube(_plain(0.7)).take_right
    assert not money_cube([(2, 0.25), (1, 0.45), (-1, 0.3)]).take_right
    # a take to the top face leaves the taker a dead cube: 22 % is then a drop
    assert money_cube(_plain(0.78)).take_right and not money_cube(_plain(0.78), cube=32).take_right


def test_the_review_values_a_cube_decision_as_the_hard_level_does() -> None:
    """Every money-cube decision of a game carries the values ``hard``'s own cube computes
    for that position, cube and owner (same nets, same 1-ply distribution)."""
    _, logs = play_match("short", 1, seed=1, double_rate=0.3, take_rate=1.0)
    history = logs[0].history
    review = review_game(history, "short")
    turns, _ = game_turns(history, "short")
    hard = get_player("hard", "short", seed=0)
    judged = [d for d in review.decisions if d.kind is DecisionKind.NO_DOUBLE]
    assert judged
    for d in judged:
        assert d.cube is not None
        position = d.before.with_turn(d.side)
        values = hard.money_cube(
            position.mover, position.opponent, redouble=d.cube.redouble, cube=turns[d.index].cube
        )
        assert values is not None
        assert d.cube.no_double == pytest.approx(values.no_double, abs=1e-9)
        assert d.cube.double_take == pytest.approx(values.double_take, abs=1e-9)


def _holder(turns, index: int) -> tuple[object, bool]:
    """Who owned the cube before turn ``index`` (None: centred) and whether that turn's
    mover had just doubled."""
    owner, doubled = None, False
    for turn in turns[:index]:
        if turn.kind is EventKind.TAKE:
            owner = turn.side
        doubled = turn.kind in (EventKind.DOUBLE, EventKind.TAKE)
    return owner, doubled


def test_a_missed_double_is_judged_where_the_player_had_the_cube() -> None:
    """Random plays, doubles offered at random and always taken: a roll without a double is
    judged only when the mover could double (centred or their own cube, not right after
    their own double) and doubling was right; with their own cube it is a redouble."""
    _, logs = play_match("short", 1, seed=1, double_rate=0.3, take_rate=1.0)
    history = logs[0].history
    review = review_game(history, "short")
    turns, _ = game_turns(history, "short")
    missed = [d for d in review.decisions if d.kind is DecisionKind.NO_DOUBLE]
    assert len(missed) >= 3
    for d in missed:
        assert d.cube is not None and d.error > 0
        assert d.best_equity == d.cube.double > d.played_equity == d.cube.no_double
        owner, doubled = _holder(turns, d.index)
        assert owner in (None, d.side) and not doubled
        assert d.cube.redouble == (owner is d.side)
        assert turns[d.index].kind in (EventKind.MOVE, EventKind.PASS)
        mistake = explain(d, "short")
        assert mistake.why is (Why.MISSED_REDOUBLE if d.cube.redouble else Why.MISSED_DOUBLE)
        assert mistake.params["drop"] == int(not d.cube.take_right)
    assert any(d.cube.redouble for d in missed if d.cube is not None)
    # the same game read as one without the cube, or as the Crawford game of a match: no
    # roll is a cube decision (the doubles it holds are judged as they were played)
    for quiet in (
        review_game(history, "short", NO_CUBE),
        review_game(history, "short", match=MatchScore(5, 4, 2), crawford_game=True),
    ):
        assert not any(d.kind is DecisionKind.NO_DOUBLE for d in quiet.decisions)


def test_cube_answers_are_judged_against_the_other_answer() -> None:
    _, logs = play_match("short", 1, seed=11, double_rate=0.5, take_rate=0.5)
    review = review_game(logs[0].history, "short")
    cube = [d for d in review.decisions if d.kind is not DecisionKind.PLAY]
    assert any(d.kind in (DecisionKind.TAKE, DecisionKind.DROP) for d in cube)
    for d in cube:
        assert d.cube is not None
        if d.kind is DecisionKind.TAKE:
            assert d.played_equity == -d.cube.double_take
            assert d.best_equity == max(d.played_equity, -1.0)
        elif d.kind is DecisionKind.DROP:
            assert d.played_equity == -1.0 and d.best_equity == max(-1.0, -d.cube.double_take)
        elif d.kind is DecisionKind.DOUBLE:
            assert d.played_equity == d.cube.double <= 1.0
            why = explain(d, "short").why
            if d.error > 0:
                assert why is (Why.DOUBLE_EARLY if d.cube.take_right else Why.DOUBLE_TOO_GOOD)


def _missed(review, side: Side) -> list[Decision]:
    return [d for d in review.decisions if d.kind is DecisionKind.NO_DOUBLE and d.side is side]


def test_in_a_match_the_cube_is_judged_by_match_winning_chances() -> None:
    """Post-Crawford, the trailer (white, 5 away) should double at once and the leader (1
    away) never gains by doubling: every judged no-double is the trailer's. The same game as
    money play judges other rolls."""
    _, logs = play_match("short", 1, seed=3, double_rate=0.0)
    history = logs[0].history
    score = MatchScore(5, 0, 4, crawford_done=True)
    post = review_game(history, "short", match=score)
    assert len(_missed(post, Side.WHITE)) >= 3 and not _missed(post, Side.BLACK)
    for d in _missed(post, Side.WHITE):
        assert d.cube is not None and d.cube.double_drop == pytest.approx(1.0)
    money = review_game(history, "short")
    assert {d.index for d in _missed(money, Side.WHITE)} != {
        d.index for d in _missed(post, Side.WHITE)
    }
    # seen from black's side the same score gives black the trailer's doubles
    flipped = review_game(history, "short", match=MatchScore(5, 4, 0, crawford_done=True))
    assert _missed(flipped, Side.BLACK) and not _missed(flipped, Side.WHITE)


def test_a_time_limit_stops_the_review_and_says_so() -> None:
    _, logs = play_match("short", 1, seed=5, double_rate=0.0)
    review = review_game(logs[0].history, "short", max_seconds=0.0)
    assert not review.complete
    assert len(review.decisions) <= 1


def test_shots_are_counted_exactly() -> None:
    """A lone white blot 4 pips in front of a black checker: 15 rolls of 36 hit it (any 4,
    3-1, 1-3, 2-2, 1-1); 6 pips: 17 (any 6, 5-1, 4-2, 3-3, 2-2)."""
    # black's 24 is white's 1: the black checker is 4 (or 6) pips behind white's blot
    four = short_pos("5×1, 6×2", "24×1, 1×2")
    six = short_pos("7×1, 6×2", "24×1, 1×2")
    assert shots(four, Side.WHITE) == 15
    assert shots(six, Side.WHITE) == 17
    # white's 3 made, 2 pips in front of the black checker: 2-2 and 1-1 must stop there and
    # no longer hit; any 4 and 3-1 / 1-3 (stopping on 4 or 2) still do: 11 + 2
    blocked = short_pos("5×1, 3×2", "24×1, 1×2")
    assert shots(blocked, Side.WHITE) == 13
    assert shots(get_variant("long").start_position(), Side.WHITE) == 0  # no hits in long


def test_features_blocks_head_and_contact() -> None:
    block = long_pos("24×9, 18×1, 17×1, 16×1, 15×1, 14×1, 13×1", "24×15")
    assert longest_block(block, Side.WHITE, False) == 6
    assert longest_block(short_pos("8×2, 7×2, 6×2, 5×1"), Side.WHITE, True) == 3
    assert head_point("long") == 24 and head_point("short") is None
    race = short_pos("6×5, 5×5, 4×5", "6×5, 5×5, 4×5")
    assert no_contact(race, Side.WHITE)
    assert not no_contact(get_variant("short").start_position(), Side.WHITE)
    assert not no_contact(get_variant("long").start_position(), Side.WHITE)


def test_labels_and_words() -> None:
    assert label_for(0.0) is Label.STRONG
    assert label_for(STRONG_MAX) is Label.STRONG
    assert label_for(STRONG_MAX + 0.1) is Label.AVERAGE
    assert label_for(AVERAGE_MAX + 0.1) is Label.BEGINNER
    assert label_text("beginner", "ru") == "новичок"
    assert label_text("strong", "en") == "strong play"
    for lang in ("ru", "en"):
        assert set(WHY[lang]) == {w.value for w in Why}
    assert why_line("blot_shots", {"shots": 11, "best_shots": 2}) == (
        "оставили блот под 11 ударами из 36 (после лучшего хода — 2)"
    )
    assert why_line("race", {"lead": 12}).startswith("гонка: вы впереди на 12 пипсов;")
    assert why_line("race", {"lead": -1}, "en").startswith("race: you are 1 pip behind;")
    assert why_line("race", {"lead": 0}).startswith("гонка: вы наравне по пипсам;")
    assert why_line("missed_double", {"equity": 0.7, "drop": 1, "lost": 0.12}) == (
        "надо было удвоить — у соперника уже отказ, удвоение сразу выигрывало ставку"
    )
    assert why_line("missed_redouble", {"equity": 0.5, "drop": 0}, "en").startswith(
        "should have redoubled — you were strong enough, and the opponent could still take"
    )


def test_a_long_game_is_reviewed_with_reasons_from_its_features() -> None:
    match, logs = play_match(
        "long", 1, seed=1, choose=_ai_chooser({0: "easy", 1: "hard"}, "long"), double_rate=0
    )
    review = review_game(logs[0].history, "long")
    easy = review.players[match.current.side_of(0)]
    assert easy.decisions > 20 and easy.mistakes
    assert all(
        m.why in (Why.BLOCK, Why.HEAD, Why.RACE, Why.EQUITY, Why.WINS, Why.SAVES_MARS)
        for m in easy.mistakes
    )
    assert [m.lost for m in easy.mistakes] == sorted((m.lost for m in easy.mistakes), reverse=True)
