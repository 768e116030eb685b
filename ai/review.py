"""The computer as a coach: every decision of a finished (or running) game, judged.

Pure and synchronous (no I/O; run it off the event loop). It uses only ``ai``'s public
players: :func:`ai.hint` (the ``hard`` level's search) names the best play of each roll, and
both that play and the one actually played are then valued the same way, so the difference
is never an artefact of two searches:

* **a play's equity** is a 1-ply look-ahead: the opponent's 21 rolls, each answered with the
  opponent's best play as the ``medium`` level values it (the after-state evaluation the
  ``hard`` level's own 1-ply search averages), negated and weighted by 1/36 or 2/36; a play
  that bears off the 15th checker is worth its exact result;
* **error** of a play = max(0, equity(best) − equity(played)), in points per game at cube 1;
  forced plays and passes are not decisions and count for nothing;
* **cube actions** (only those taken: a double, a take, a drop) use the cubeless equity E of
  the doubler about to roll (the same 1-ply estimate before the roll) in the dead-cube money
  model: doubling is worth min(2E, 1) against E for not doubling, a take is worth −2E against
  −1 for a drop. So a double is an error only when E < 0 (too early) or E > 1 (too good: play
  on for the mars); missed doubles are not judged.

A player's **error rate** is the mean error per decision × 1000 (like GNU Backgammon's
"mEMG per decision", on our evaluator's scale), and its label follows :data:`LABELS`. The three
biggest mistakes of each player come with a reason code and parameters, derived from features
of the two resulting positions (exact shot counts, blocks, head checkers, the race), to be
worded by the bot's catalogs (``teacher.review_text`` has the ru/en table).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from ai import get_player, hint
from engine.game import Event, EventKind
from engine.options import Options
from engine.position import Position, Side
from engine.record import TurnRecord, game_turns
from engine.scoring import score_game
from engine.step import Play
from engine.variants import Variant, get_variant

# The opponent's 21 distinct rolls with their weight out of 36.
ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)
)

#: Labels by error rate (mean equity lost per decision × 1000), upper bounds inclusive.
#: Chosen from 100 reviewed games per variant of the computer levels against each other
#: (docs/records.md; median and quartiles): ``hard`` 0 (max 5.6 short / 7.6 long), ``medium``
#: 11 (6–16) short / 4 (2–10) long, ``easy`` 112 (89–125) short / 56 (33–113) long.
STRONG_MAX = 5.0
AVERAGE_MAX = 25.0
MISTAKES_SHOWN = 3
BIG_BLOT_SHOTS = 4  # a play leaving this many more shots than the best one: that is "why"


class Label(StrEnum):
    STRONG = "strong"  # «сильная игра»
    AVERAGE = "average"  # «средняя игра»
    BEGINNER = "beginner"  # «новичок»


def label_for(error_rate: float) -> Label:
    """The plain label of an error rate (see :data:`STRONG_MAX`, :data:`AVERAGE_MAX`)."""
    if error_rate <= STRONG_MAX:
        return Label.STRONG
    if error_rate <= AVERAGE_MAX:
        return Label.AVERAGE
    return Label.BEGINNER


class DecisionKind(StrEnum):
    PLAY = "play"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"


class Why(StrEnum):
    """Why a mistake was one, as far as features of the positions can say (worded by the
    bot; parameters in :attr:`Mistake.params`)."""

    WINS = "wins"  # the best play bears off the last checker: the game is won at once
    SAVES_MARS = "saves_mars"  # the best play bears off a first checker, the played one none
    BLOT_SHOTS = "blot_shots"  # shots: rolls of 36 that hit the played position; best_shots
    MISSED_HIT = "missed_hit"  # hits: how many the best play hits
    BLOCK = "block"  # best_run / played_run: consecutive points held after each play
    HEAD = "head"  # played_head / best_head: checkers left on the head (long nardy)
    RACE = "race"  # lead: pips ahead (negative: behind) after the play; wasted: pips
    DOUBLE_EARLY = "double_early"  # equity: the doubler's cubeless equity (< 0)
    DOUBLE_TOO_GOOD = "double_too_good"  # equity > 1: playing on wins more
    WRONG_TAKE = "wrong_take"  # equity: the taker's, doubled (< −1 means drop)
    WRONG_DROP = "wrong_drop"
    EQUITY = "equity"  # no feature explains it: only the equity lost


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged decision: ``index`` is its place in :func:`engine.record.game_turns`."""

    index: int
    side: Side
    kind: DecisionKind
    before: Position
    dice: tuple[int, int] | None
    played: Play | None
    best: Play | None
    played_equity: float
    best_equity: float
    first_turn: bool = False

    @property
    def error(self) -> float:
        return max(0.0, self.best_equity - self.played_equity)


@dataclass(frozen=True, slots=True)
class Mistake:
    """A big mistake with its reason: ``why`` and ``params`` for the bot's wording."""

    decision: Decision
    why: Why
    params: dict[str, int | float] = field(default_factory=dict)

    @property
    def lost(self) -> float:
        """Equity lost, in points per game at cube 1."""
        return self.decision.error


class Rated:
    """The error rate and label of a player's ``decisions`` and ``total_error`` (a review
    just computed, or one stored and read back)."""

    __slots__ = ()
    decisions: int
    total_error: float

    @property
    def error_rate(self) -> float:
        """Mean equity lost per decision × 1000 (0 for a player who made no decision)."""
        return 1000.0 * self.total_error / self.decisions if self.decisions else 0.0

    @property
    def label(self) -> Label:
        return label_for(self.error_rate)


@dataclass(frozen=True, slots=True)
class PlayerReview(Rated):
    side: Side
    decisions: int
    total_error: float
    mistakes: tuple[Mistake, ...]


@dataclass(frozen=True, slots=True)
class GameReview:
    variant: str
    players: dict[Side, PlayerReview]
    decisions: tuple[Decision, ...]
    complete: bool = True  # False: the time limit stopped the review before the game's end
    cpu_seconds: float = 0.0  # CPU time the review took (``time.process_time``)


class _Valuer:
    """Equities by the ``medium`` after-state evaluation, 1 ply deep, memoised per position."""

    def __init__(self, variant: str, options: Options) -> None:
        self.variant = variant
        self.options = options
        self.medium = get_player("medium", variant, seed=0)
        self._cache: dict[tuple[Position, bool], float] = {}

    def best_reply(self, position: Position, dice: tuple[int, int], first_turn: bool) -> float:
        """The best 0-ply equity the side to move can reach with ``dice``."""
        ranked = self.medium.rank(position, dice, first_turn=first_turn, options=self.options)
        return ranked[0][1]

    def pre_roll(self, position: Position, first_turn: bool) -> float:
        """Cubeless equity of the side to move before its roll (average of its best plays)."""
        key = (position, first_turn)
        if key not in self._cache:
            total = sum(w * self.best_reply(position, d, first_turn) for d, w in ROLLS)
            self._cache[key] = total / 36.0
        return self._cache[key]

    def play(self, play: Play, opponent_first: bool) -> float:
        """Equity of ``play`` for the side that made it."""
        mover = play.result.turn
        if play.result.borne_off(mover) == 15:
            return float(score_game(play.result, mover, self.options).points)
        return -self.pre_roll(play.result.with_turn(mover.other), opponent_first)


def review_game(
    history: Sequence[Event],
    variant: str,
    options: Options | None = None,
    *,
    max_seconds: float | None = None,
) -> GameReview:
    """Judge every decision of one game's ``history`` (see the module docstring).

    ``max_seconds`` bounds the CPU time (``time.process_time``): decisions after it are not
    judged and the review says ``complete=False``. Without it the cost is bounded by the
    game's length: each decision is one ``hint`` plus at most two 21-roll look-aheads.
    """
    opts = options or Options()
    variant = get_variant(variant).name
    turns, _ = game_turns(history, variant, opts)
    valuer = _Valuer(variant, opts)
    started = time.process_time()
    decisions: list[Decision] = []
    moved: set[Side] = set()
    complete = True
    for index, turn in enumerate(turns):
        if max_seconds is not None and time.process_time() - started > max_seconds:
            complete = False
            break
        decision = _judge(index, turn, turns, moved, valuer)
        if turn.kind in (EventKind.MOVE, EventKind.PASS):
            moved.add(turn.side)
        if decision is not None:
            decisions.append(decision)
    players = {side: _player_review(side, decisions, variant, opts) for side in Side}
    spent = time.process_time() - started
    return GameReview(variant, players, tuple(decisions), complete, spent)


def _judge(
    index: int,
    turn: TurnRecord,
    turns: Sequence[TurnRecord],
    moved: set[Side],
    valuer: _Valuer,
) -> Decision | None:
    if turn.kind is EventKind.MOVE:
        assert turn.dice is not None and turn.play is not None
        plays = get_variant(valuer.variant).legal_plays(
            turn.before, turn.dice, first_turn=turn.first_turn, options=valuer.options
        )
        if len(plays) < 2:
            return None
        best = hint(
            turn.before, turn.dice, first_turn=turn.first_turn, options=valuer.options, n=1
        )[0][0]
        opponent_first = turn.side.other not in moved
        played = next((p for p in plays if p == turn.play), turn.play)
        played_eq = valuer.play(played, opponent_first)
        best_eq = played_eq if best == played else valuer.play(best, opponent_first)
        if best_eq < played_eq:
            best, best_eq = played, played_eq
        return Decision(
            index,
            turn.side,
            DecisionKind.PLAY,
            turn.before,
            turn.dice,
            played,
            best,
            played_eq,
            best_eq,
            turn.first_turn,
        )
    if turn.kind in (EventKind.DOUBLE, EventKind.TAKE, EventKind.DROP):
        doubler = turn.side if turn.kind is EventKind.DOUBLE else turn.side.other
        e = valuer.pre_roll(turn.before.with_turn(doubler), doubler not in moved)
        if turn.kind is EventKind.DOUBLE:
            kind, chosen, other = DecisionKind.DOUBLE, min(2 * e, 1.0), e
        elif turn.kind is EventKind.TAKE:
            kind, chosen, other = DecisionKind.TAKE, -2 * e, -1.0
        else:
            kind, chosen, other = DecisionKind.DROP, -1.0, -2 * e
        return Decision(
            index, turn.side, kind, turn.before, None, None, None, chosen, max(chosen, other)
        )
    return None


def _player_review(
    side: Side, decisions: Sequence[Decision], variant: str, options: Options
) -> PlayerReview:
    own = [d for d in decisions if d.side is side]
    worst = sorted((d for d in own if d.error > 0), key=lambda d: -d.error)[:MISTAKES_SHOWN]
    mistakes = tuple(explain(d, variant, options) for d in worst)
    return PlayerReview(side, len(own), sum(d.error for d in own), mistakes)


# ---- why ------------------------------------------------------------------------------------


def explain(decision: Decision, variant: str, options: Options | None = None) -> Mistake:
    """The reason code of a mistake: the first feature, in a fixed order, on which the best
    play is clearly better than the played one; ``EQUITY`` when none is."""
    opts = options or Options()
    if decision.kind is not DecisionKind.PLAY:
        return _explain_cube(decision)
    assert decision.played is not None and decision.best is not None
    var = get_variant(variant)
    played, best = decision.played.result, decision.best.result
    side = decision.side
    lost = round(decision.error, 3)
    if best.borne_off(side) == 15 and played.borne_off(side) < 15:
        return Mistake(decision, Why.WINS, {"lost": lost})
    if best.borne_off(side) and not played.borne_off(side):
        return Mistake(decision, Why.SAVES_MARS, {"lost": lost})
    if no_contact(played, side):
        lead = pip_lead(played, side)
        wasted = pip_lead(best, side) - lead
        return Mistake(decision, Why.RACE, {"lead": lead, "wasted": wasted, "lost": lost})
    if var.can_hit:
        shots_played = shots(played, side, opts)
        shots_best = shots(best, side, opts)
        if shots_played - shots_best >= BIG_BLOT_SHOTS:
            params = {"shots": shots_played, "best_shots": shots_best, "lost": lost}
            return Mistake(decision, Why.BLOT_SHOTS, params)
        if decision.best.hits > decision.played.hits:
            return Mistake(decision, Why.MISSED_HIT, {"hits": decision.best.hits, "lost": lost})
    run_played = longest_block(played, side, var.can_hit)
    run_best = longest_block(best, side, var.can_hit)
    if run_best > run_played and run_best >= 4:
        params = {"best_run": run_best, "played_run": run_played, "lost": lost}
        return Mistake(decision, Why.BLOCK, params)
    head = head_point(variant)
    if head is not None:
        head_played = played.board(side)[head]
        head_best = best.board(side)[head]
        if head_best < head_played:
            params = {"played_head": head_played, "best_head": head_best, "lost": lost}
            return Mistake(decision, Why.HEAD, params)
    return Mistake(decision, Why.EQUITY, {"lost": lost})


def _explain_cube(decision: Decision) -> Mistake:
    lost = round(decision.error, 3)
    if decision.kind is DecisionKind.DOUBLE:
        # chosen = min(2E, 1) and the alternative E: recover E from the larger of the two.
        e = decision.best_equity
        why = Why.DOUBLE_EARLY if e < 0.5 else Why.DOUBLE_TOO_GOOD
        return Mistake(decision, why, {"equity": round(e, 3), "lost": lost})
    if decision.kind is DecisionKind.TAKE:
        return Mistake(decision, Why.WRONG_TAKE, {"equity": round(decision.played_equity, 3)})
    return Mistake(decision, Why.WRONG_DROP, {"equity": round(decision.best_equity, 3)})


def shots(position: Position, side: Side, options: Options | None = None) -> int:
    """Rolls out of 36 with which the opponent can hit one of ``side``'s checkers (exact: the
    opponent's legal plays for every roll, so blocked points and the bar count)."""
    var = get_variant(position.variant)
    if not var.can_hit:
        return 0
    facing = position.with_turn(side.other)
    first = False
    total = 0
    for dice, weight in ROLLS:
        plays = var.legal_plays(facing, dice, first_turn=first, options=options)
        if any(p.hits for p in plays):
            total += weight
    return total


def pip_lead(position: Position, side: Side) -> int:
    """Pips ``side`` is ahead by (the opponent's count minus its own)."""
    return position.pip_count(side.other) - position.pip_count(side)


def no_contact(position: Position, side: Side) -> bool:
    """Whether no checker can meet an opposing one again: neither side has an opposing
    checker on its route between its farthest checker and home (a checker on the bar has
    the whole board ahead of it)."""
    var = get_variant(position.variant)
    mine, theirs = position.board(side), position.board(side.other)
    return not _in_the_way(mine, theirs, var) and not _in_the_way(theirs, mine, var)


def _in_the_way(a: tuple[int, ...], b: tuple[int, ...], var: Variant) -> bool:
    back = max((p for p in range(1, 26) if a[p]), default=0)
    if back and b[25]:
        return True
    return any(b[var.to_opponent_point(t)] for t in range(1, min(back, 25)))


def longest_block(position: Position, side: Side, needs_two: bool) -> int:
    """The longest run of consecutive points ``side`` holds (2+ checkers where hits exist)."""
    board = position.board(side)
    least = 2 if needs_two else 1
    best = run = 0
    for p in range(1, 25):
        run = run + 1 if board[p] >= least else 0
        best = max(best, run)
    return best


@lru_cache(maxsize=8)
def head_point(variant: str) -> int | None:
    """The point where all 15 checkers start (long nardy's head, L-2), or None."""
    start = get_variant(variant).start_board()
    return next((p for p in range(1, 25) if start[p] == 15), None)


__all__ = [
    "AVERAGE_MAX",
    "STRONG_MAX",
    "Decision",
    "DecisionKind",
    "GameReview",
    "Label",
    "Mistake",
    "PlayerReview",
    "Rated",
    "Why",
    "explain",
    "label_for",
    "longest_block",
    "no_contact",
    "pip_lead",
    "review_game",
    "shots",
]
