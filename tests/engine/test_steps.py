"""Step-by-step input (RULES.md C-23 item 6, C-33): ``Turn.legal_steps`` offers exactly the
steps that still complete into a legal play, and undo restores the turn as it was."""

from __future__ import annotations

import random

import pytest

from engine import IllegalMoveError, Reason, Turn
from engine.position import OFF
from tests.engine.corpus import spread
from tests.engine.helpers import after, long_pos, short_pos


@pytest.mark.parametrize(("variant", "size"), [("long", 150), ("short", 50)])
def test_any_offered_step_leads_to_a_legal_play(variant: str, size: int) -> None:
    """Property: from random positions, repeatedly taking *any* offered step (by
    ``Turn.step(src, dst)``, as a player would) always ends in a complete legal play, and the
    turn can be committed only then (C-23 item 6)."""
    rng = random.Random(41)
    for sample in spread(variant, size):
        turn = Turn(sample.position, sample.dice, first_turn=sample.first_turn)
        finals = {p.result for p in turn.legal_plays}
        for _ in range(2):
            current = turn
            while offered := current.legal_steps():
                if not current.is_complete():
                    with pytest.raises(IllegalMoveError) as info:
                        current.finish()
                    assert info.value.reason is Reason.INCOMPLETE
                choice = rng.choice(offered)
                current = current.step(choice.src, choice.dst)
                assert len(current.steps) <= len(turn.ctx.all_dice())
            assert current.is_complete(), sample
            assert current.finish().result in finals


@pytest.mark.parametrize(("variant", "size"), [("long", 100), ("short", 25)])
def test_every_legal_play_is_reachable_step_by_step(variant: str, size: int) -> None:
    """Property: the steps of every legal play are offered one after the other."""
    for sample in spread(variant, size):
        turn = Turn(sample.position, sample.dice, first_turn=sample.first_turn)
        for play in turn.legal_plays:
            current = turn
            for step in play.steps:
                assert step in current.legal_steps(), (play, sample)
                current = current.with_step(step)
            assert current.is_complete() and current.current == play.result


def test_undo_restores_the_turn_step_by_step() -> None:
    """C-33: each undo takes back exactly the last step; the offered steps come back too."""
    turn = Turn(long_pos("24×14, 17×1", "24×15"), (6, 1))
    history = [turn]
    for src, dst in [(24, 18), (18, 17)]:
        history.append(history[-1].step(src, dst))
    assert history[-1].is_complete()
    current = history[-1]
    for earlier in reversed(history[:-1]):
        current = current.undo()
        assert current.steps == earlier.steps
        assert current.current == earlier.current
        assert current.remaining_dice == earlier.remaining_dice
        assert current.legal_steps() == earlier.legal_steps()
    assert current.undo().steps == ()  # undo on an empty turn is harmless
    assert history[-1].reset().current == turn.start


def test_a_pass_turn_offers_nothing_and_is_complete() -> None:
    """C-18: with no legal step the turn is complete at once and has one empty play."""
    turn = Turn(short_pos("bar×1, 24×1, 13×5, 8×3, 6×5", "24×2, 13×5, 6×4, 4×4"), (6, 4))
    assert not turn.has_moves and turn.legal_steps() == [] and turn.is_complete()
    assert turn.finish().steps == ()


def test_single_play_is_reported_for_forced_turns() -> None:
    """A turn with one legal outcome (T-L1) exposes it, so the bot can play it itself."""
    turn = Turn(long_pos("24×15", "24×15"), (6, 6), first_turn=True)
    assert turn.single_play is not None and turn.max_dice == 2


def test_C_23_item_4_a_legal_outcome_reached_early_may_be_committed() -> None:
    """C-23 item 4 accepts a play by its final position. X: 2×1, 1×1 with 6-1: `2/off` with
    the 6 already gives X: 1×1, the outcome of the legal `2/1, 1/off`, so the turn may be
    committed although `1/off` with the 1 is still offered. (Pinned; see the report: C-19's
    wording would call the one-die play illegal, but the outcome is the same.)"""
    pos = short_pos("2×1, 1×1")
    turn = Turn(pos, (6, 1)).step(2, OFF)
    assert turn.is_complete() and turn.finish().result == after(pos, "2/1, 1/off")
    assert [(s.src, s.dst, s.die) for s in turn.legal_steps()] == [(1, OFF, 1)]
