"""Property tests: seeded random games of both variants played to the end, every play checked
step by step against invariants that follow from RULES.md.

Each side picks a uniformly random legal play. For every turn the play's steps are replayed
by hand and must: use the rolled dice, move the mover's own checkers, never land on an O
point (long, L-6) or on 2+ O checkers (short, S-5), hit exactly when landing on a blot (S-7),
never take a second head checker after the first turn (L-8, L-14), never leave a six-point
block with no O checker ahead after any step (L-16, L-17), lower the mover's pip count, and
raise the opponent's only by hits. Every game must end, and its score must match the board.
"""

from __future__ import annotations

import random

import pytest

from engine import Options, Play, Position, Side, get_variant, movegen
from engine.position import BAR, OFF
from engine.scoring import ResultKind, score_game
from tests.engine import reference
from tests.engine.corpus import roll

MAX_TURNS = 1000  # a random long game takes ~110 turns, a short one ~90


def pips(board: tuple[int, ...] | list[int]) -> int:
    return sum(p * board[p] for p in range(1, 26))


def check_turn(
    pos: Position, dice: tuple[int, int], first_turn: bool, play: Play, options: Options
) -> None:
    """Replay ``play`` by hand and check the per-step invariants."""
    long = pos.variant == "long"
    me, opp = list(pos.mover), list(pos.opponent)
    unused = list((dice[0],) * 4 if dice[0] == dice[1] else dice)
    heads = 0
    opp_pips = pips(opp)
    hit_pips = 0
    for step in play.steps:
        unused.remove(step.die)  # each step uses one rolled die (C-14, C-15)
        assert me[step.src] > 0, "C-1: moves one of the mover's own checkers"
        if step.dst != OFF:
            assert step.src - step.dst == step.die, "C-15: exactly one die"
            if long:
                assert not opp[reference.long_opp_point(step.dst)], "L-6: O on the point"
            else:
                o = reference.short_opp_point(step.dst)
                assert opp[o] < 2, "S-5: 2+ O checkers"
                assert step.hit == (opp[o] == 1), "S-7: a blot is hit"
                if step.hit:
                    opp[o] -= 1
                    opp[BAR] += 1
                    hit_pips += 25 - o
        else:
            assert sum(me[0:7]) == 15, "C-24: bearing off needs all checkers home"
            assert step.die >= step.src, "C-27: no bear-off with a smaller die"
            if options.bearoff_next_turn:
                assert sum(pos.mover[0:7]) == 15, "V-7: home at the start of the turn"
        before = pips(me)
        me[step.src] -= 1
        me[step.dst] += 1
        assert 0 < before - pips(me) <= step.die, "a step lowers the mover's pips"
        heads += long and step.src == 24
        if long and not options.block_in_passing:
            assert not reference.illegal_block(tuple(me), tuple(opp), options), "L-17, V-2"
    assert (tuple(me), tuple(opp)) == (play.result.mover, play.result.opponent)
    assert sum(me) == sum(opp) == 15, "C-1: 15 checkers a side"
    assert pips(opp) == opp_pips + hit_pips, "O's pips rise only by hits"
    if long and options.block_in_passing:
        assert not reference.illegal_block(tuple(me), tuple(opp), options), "V-1"
    if long:
        limit = reference.head_limit(pos.opponent, dice, first_turn, options)
        assert heads <= limit <= (2 if first_turn else 1), "L-8, L-11, L-14: head rule"
        assert play.result.opponent == pos.opponent, "L-6: no hitting in long nardy"


def expected_kind(final: Position, winner: Side) -> ResultKind:
    """M-1 … M-6 from the loser's board, written independently of engine.scoring."""
    loser = final.board(winner.other)
    if loser[OFF]:
        return ResultKind.OIN
    if final.variant == "short" and (loser[BAR] or any(loser[19:25])):
        return ResultKind.KOKS
    return ResultKind.MARS


def play_game(variant: str, rng: random.Random, options: Options) -> int:
    """One random game to the end with every turn checked; returns the number of turns."""
    rules = get_variant(variant)
    pos = rules.start_position(Side.WHITE if rng.random() < 0.5 else Side.BLACK)
    turns = [0, 0]
    for count in range(1, MAX_TURNS + 1):
        dice = roll(rng)
        first = turns[pos.turn] == 0
        # Variant.legal_plays, minus building a Play for every outcome (half the time here).
        nodes = movegen.generate(rules.context(pos, dice, first_turn=first, options=options))
        assert len({n[2:] for n in nodes}) == len(nodes), "one play per outcome"
        play = rules.node_to_play(pos, rng.choice(nodes))
        check_turn(pos, dice, first, play, options)
        turns[pos.turn] += 1
        if play.result.is_finished():
            winner = pos.turn
            assert play.result.borne_off(winner) == 15
            assert play.result.borne_off(winner.other) < 15
            result = score_game(play.result, winner, options)
            assert result.winner is winner
            assert result.kind is expected_kind(play.result, winner)
            assert result.points == {"oin": 1, "mars": 2, "koks": 3}[result.kind]
            return count
        pos = play.result.swapped()
    pytest.fail(f"{variant} game did not end within {MAX_TURNS} turns")


@pytest.mark.parametrize(
    ("variant", "games", "seed"),
    [("long", 1100, 101), ("short", 900, 102)],
)
def test_random_games_keep_the_invariants(variant: str, games: int, seed: int) -> None:
    rng = random.Random(seed)
    lengths = [play_game(variant, rng, Options()) for _ in range(games)]
    assert min(lengths) >= 14  # no game can be won faster than 15 checkers allow


@pytest.mark.parametrize(
    "options",
    [
        pytest.param(Options(block_in_passing=True), id="V-1"),
        pytest.param(Options(block_needs_home=True), id="V-2"),
        pytest.param(Options(first_turn_any_double=True, no_obstacle_clause=True), id="V-4 V-5"),
        pytest.param(Options(bearoff_next_turn=True), id="V-7"),
    ],
)
def test_random_long_games_under_variants_end_and_score(options: Options) -> None:
    """The V-switches keep every game finite and every turn's steps sound."""
    rng = random.Random(",".join(sorted(options.to_dict())))
    for _ in range(50):
        play_game("long", rng, options)
