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
* **cube decisions** — a double, a take, a drop, and a roll *without* a double by a player
  who had the cube (centred or their own, not the Crawford game): each is valued from how
  the doubler's game may end before the roll (the nets' outcome distribution, mars and koks
  included, as the levels' cube takes it) as three numbers for the doubler — no double,
  double/take, double/drop (:class:`CubeValues`):

  - in a single game (money play) by Janowski's model as the ``medium`` and ``hard`` levels
    value it (:func:`money_cube`: :mod:`ai.cube` with ``hard``'s settings — the distribution
    at 1-ply, cube efficiency 0.75 in contact and 0.6 in a race, a dead cube after a take to
    the top face). The right answer is the one with the better equity: the levels' margins
    (in contact a double must beat playing on, a take the drop, by a little) are their
    caution against an opponent stronger than their nets, not part of the value;
  - in a match (``match``: the score) by match winning chances in the dead-cube model of
    :mod:`ai.match`, converted to money-like equity (GNU Backgammon's EMG: winning the cube's
    value is +1, losing it −1); a roll without a double is a mistake only where
    :func:`ai.match.should_double` would double (the dead-cube comparison alone doubles far
    too early), a double or an answer by the plain comparison.

  A roll without a double is a decision only when doubling was right (a *missed double*, or
  *redouble* with one's own cube); every other roll's cube choice counts for nothing, like a
  forced play.

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
from ai.cube import money_cube as cube_values
from ai.match import MatchEquityTable, MatchScore, cube_mwc, should_double
from ai.player import CUBE_SETTINGS
from ai.variant_ai import variant_ai
from engine.game import MAX_CUBE, Event, EventKind
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
#: 11 (6–16) short / 4 (2–10) long, ``easy`` 112 (89–125) short / 56 (33–113) long; still
#: between the levels on the nets of ``2a081d4``: hard 1.9 / 0.0, medium 11.0 / 6.4, easy
#: 100.3 / 75.4 (short / long medians).
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
    NO_DOUBLE = "no_double"  # rolled without doubling while holding the cube


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
    MISSED_DOUBLE = "missed_double"  # equity; drop: 1 if the opponent had a drop, else 0
    MISSED_REDOUBLE = "missed_redouble"  # the same with the player's own cube
    EQUITY = "equity"  # no feature explains it: only the equity lost


@dataclass(frozen=True, slots=True)
class CubeValues:
    """A cube decision valued for the doubler (points per game at cube 1, or in a match the
    money-like equivalent): ``equity`` is the doubler's cubeless equity before the roll, the
    rest what each line is worth; ``redouble`` says the doubler owns the cube."""

    equity: float
    no_double: float
    double_take: float
    double_drop: float = 1.0
    redouble: bool = False

    @property
    def double(self) -> float:
        """What doubling is worth: the opponent answers with the better reply for them."""
        return min(self.double_take, self.double_drop)

    @property
    def take_right(self) -> bool:
        """Whether the opponent's right answer to a double is a take."""
        return self.double_take <= self.double_drop


def money_cube(
    results: Sequence[tuple[int, float]],
    *,
    race: bool = False,
    redouble: bool = False,
    cube: int = 1,
) -> CubeValues:
    """Janowski's money-game cube values (:func:`ai.cube.money_cube`) for a doubler whose game
    may end as ``results`` ((points at cube 1, probability), before its roll), with the cube
    efficiency the ``hard`` level uses in a ``race`` or in contact; ``redouble``: the doubler
    owns the cube; ``cube``: its present value (a take to the top face leaves a dead cube)."""
    settings = CUBE_SETTINGS["hard"]
    values = cube_values(
        results,
        efficiency=settings.race if race else settings.contact,
        redouble=redouble,
        dead_after_take=2 * cube >= MAX_CUBE,
    )
    equity = sum(points * prob for points, prob in results)
    return CubeValues(equity, values.no_double, values.double_take, values.double_drop, redouble)


def match_cube(
    table: MatchEquityTable,
    score: MatchScore,
    results: Sequence[tuple[int, float]],
    cube: int,
    *,
    redouble: bool = False,
) -> CubeValues:
    """The same three values in a match (``score`` from the doubler's side, ``results`` the
    doubler's outcome distribution): match winning chances by :func:`ai.match.cube_mwc`,
    converted to money-like equity (GNU Backgammon's EMG) so that scoring the present cube
    is +1 and losing it −1."""
    no_double, take, drop = cube_mwc(table, score, list(results), cube)
    win, lose = table.after(score, cube), table.after(score, -cube)
    span = win - lose

    def emg(mwc: float) -> float:
        return 2 * (mwc - lose) / span - 1 if span > 1e-12 else 0.0

    return CubeValues(emg(no_double), emg(no_double), emg(take), emg(drop), redouble)


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged decision: ``index`` is its place in :func:`engine.record.game_turns`;
    ``cube`` is set for cube decisions."""

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
    cube: CubeValues | None = None

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
        self._results: dict[tuple[Position, bool], list[tuple[int, float]]] = {}

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

    def pre_roll_results(self, position: Position, first_turn: bool) -> list[tuple[int, float]]:
        """How the game may end for the side to move before its roll, as the ``hard``
        level's money cube sees it (the nets at its cube depth); without nets, win or lose a
        single game with the chances of :meth:`pre_roll`'s equity."""
        key = (position, first_turn)
        if key not in self._results:
            depth = CUBE_SETTINGS["hard"].depth
            results = self.medium.pre_roll_results(position, depth, self.options)
            if results is None:
                win = min(1.0, max(0.0, (self.pre_roll(position, first_turn) + 1) / 2))
                results = [(1, win), (-1, 1 - win)]
            self._results[key] = results
        return self._results[key]

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
    match: MatchScore | None = None,
    crawford_game: bool = False,
    max_seconds: float | None = None,
) -> GameReview:
    """Judge every decision of one game's ``history`` (see the module docstring).

    ``match`` is the match score before the game from white's side (``mine`` is white's);
    None or a 1-point match is money play. In the Crawford game (``crawford_game``) there is
    no cube to judge. ``max_seconds`` bounds the CPU time (``time.process_time``): decisions
    after it are not judged and the review says ``complete=False``. Without it the cost is
    bounded by the game's length: each decision is one ``hint`` plus at most two 21-roll
    look-aheads (the cube reuses them).
    """
    opts = options or Options()
    variant = get_variant(variant).name
    turns, _ = game_turns(history, variant, opts)
    valuer = _Valuer(variant, opts)
    cube = _CubeJudge(valuer, match if match is not None and match.length > 1 else None)
    cube_on = opts.cube_enabled(variant) and not crawford_game
    opened_by_lot = _opened_by_lot(history)
    started = time.process_time()
    decisions: list[Decision] = []
    moved: set[Side] = set()
    owner: Side | None = None  # who owns the cube (None: centred)
    doubled: Side | None = None  # who doubled before the coming roll
    complete = True
    for index, turn in enumerate(turns):
        if max_seconds is not None and time.process_time() - started > max_seconds:
            complete = False
            break
        rolled = turn.kind in (EventKind.MOVE, EventKind.PASS)
        if (
            rolled
            and cube_on
            and doubled is not turn.side
            and owner in (None, turn.side)
            and turn.cube < MAX_CUBE
            and not (index == 0 and opened_by_lot)
        ):
            missed = cube.missed_double(index, turn, owner is turn.side)
            if missed is not None:
                decisions.append(missed)
        if turn.kind in (EventKind.DOUBLE, EventKind.TAKE, EventKind.DROP):
            doubler = turn.side if turn.kind is EventKind.DOUBLE else turn.side.other
            decision = cube.answer(index, turn, doubler, owner, doubler not in moved)
        else:
            decision = _judge(index, turn, moved, valuer)
        if rolled:
            moved.add(turn.side)
            doubled = None
        elif turn.kind is EventKind.DOUBLE:
            doubled = turn.side
        elif turn.kind is EventKind.TAKE:
            owner = turn.side
        if decision is not None:
            decisions.append(decision)
    players = {side: _player_review(side, decisions, variant, opts) for side in Side}
    spent = time.process_time() - started
    return GameReview(variant, players, tuple(decisions), complete, spent)


def _opened_by_lot(history: Sequence[Event]) -> bool:
    """Whether the game's first move was played with the opening lot's numbers (short nardy,
    S-4): nobody rolled, so nobody could double before it."""
    for event in history:
        if event.kind is EventKind.ROLL or event.kind is EventKind.DOUBLE:
            return False
        if event.kind in (EventKind.MOVE, EventKind.PASS):
            return True
    return False


def _judge(index: int, turn: TurnRecord, moved: set[Side], valuer: _Valuer) -> Decision | None:
    if turn.kind is not EventKind.MOVE:
        return None
    assert turn.dice is not None and turn.play is not None
    plays = get_variant(valuer.variant).legal_plays(
        turn.before, turn.dice, first_turn=turn.first_turn, options=valuer.options
    )
    if len(plays) < 2:
        return None
    ranked = hint(turn.before, turn.dice, first_turn=turn.first_turn, options=valuer.options, n=1)
    best = ranked[0][0]
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


class _CubeJudge:
    """Cube decisions: the doubler's :class:`CubeValues` by the money model, or in a match
    (``match`` from white's side) by match winning chances."""

    def __init__(self, valuer: _Valuer, match: MatchScore | None) -> None:
        self.valuer = valuer
        self.match = match
        self.table = variant_ai(valuer.variant).match_table() if match is not None else None

    def values(
        self, doubler: Side, before: Position, first_turn: bool, cube: int, own: bool
    ) -> tuple[CubeValues, bool]:
        """The cube's three lines for ``doubler`` about to roll in ``before``, and whether
        doubling is what the model would do."""
        position = before.with_turn(doubler)
        if self.match is None or self.table is None:
            results = self.valuer.pre_roll_results(position, first_turn)
            race = variant_ai(self.valuer.variant).no_contact(position.mover, position.opponent)
            values = money_cube(results, race=race, redouble=own, cube=cube)
            return values, values.double > values.no_double
        score = self.match
        if doubler is Side.BLACK:
            score = MatchScore(
                score.length, score.theirs, score.mine, score.crawford_done, score.crawford_rule
            )
        results = self.valuer.medium.pre_roll_results(position)
        if results is None:  # no nets: the equity as a game without doubled results
            equity = self.valuer.pre_roll(position, first_turn)
            win = min(1.0, max(0.0, (equity + 1) / 2))
            results = [(1, win), (-1, 1 - win)]
        values = match_cube(self.table, score, results, cube, redouble=own)
        return values, should_double(self.table, score, results, cube, centred=not own)

    def missed_double(self, index: int, turn: TurnRecord, own: bool) -> Decision | None:
        """The roll of ``turn`` made without a double: a decision only when doubling was
        right (a missed double or redouble)."""
        values, doubling = self.values(turn.side, turn.before, turn.first_turn, turn.cube, own)
        if not doubling or values.double <= values.no_double:
            return None
        return Decision(
            index,
            turn.side,
            DecisionKind.NO_DOUBLE,
            turn.before,
            None,
            None,
            None,
            values.no_double,
            values.double,
            turn.first_turn,
            values,
        )

    def answer(
        self, index: int, turn: TurnRecord, doubler: Side, owner: Side | None, first: bool
    ) -> Decision:
        """A double, or a take or a drop of one by ``doubler`` (about to roll its first roll
        when ``first``)."""
        values, _ = self.values(doubler, turn.before, first, turn.cube, owner is doubler)
        if turn.kind is EventKind.DOUBLE:
            kind, chosen, other = DecisionKind.DOUBLE, values.double, values.no_double
        elif turn.kind is EventKind.TAKE:
            kind, chosen, other = DecisionKind.TAKE, -values.double_take, -values.double_drop
        else:
            kind, chosen, other = DecisionKind.DROP, -values.double_drop, -values.double_take
        return Decision(
            index,
            turn.side,
            kind,
            turn.before,
            None,
            None,
            None,
            chosen,
            max(chosen, other),
            cube=values,
        )


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
    cube = decision.cube
    assert cube is not None
    params: dict[str, int | float] = {
        "equity": round(cube.equity, 3),
        "lost": round(decision.error, 3),
    }
    if decision.kind is DecisionKind.DOUBLE:
        # a double worth less than playing on: too early while a take is right, too good
        # (playing on for the mars) once the opponent should drop
        why = Why.DOUBLE_EARLY if cube.take_right else Why.DOUBLE_TOO_GOOD
    elif decision.kind is DecisionKind.TAKE:
        why = Why.WRONG_TAKE
    elif decision.kind is DecisionKind.DROP:
        why = Why.WRONG_DROP
    else:
        why = Why.MISSED_REDOUBLE if cube.redouble else Why.MISSED_DOUBLE
        params["drop"] = int(not cube.take_right)
    return Mistake(decision, why, params)


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
    "CubeValues",
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
    "match_cube",
    "money_cube",
    "no_contact",
    "pip_lead",
    "review_game",
    "shots",
]
