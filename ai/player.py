"""Computer players: how each level chooses a play and answers the cube.

Levels
------
``easy``    the hand-written evaluation, played with noise: it usually picks a sensible play
            but often not the best one, the way a beginner does (see :data:`EASY_TEMPERATURE`).
``medium``  the trained network at 0-ply: the play whose resulting position it values most;
            in short nardy sampled with a little noise (see :data:`MEDIUM_TEMPERATURE`), so
            that ``hard`` stays clearly stronger.
``hard``    the network's best few plays re-scored 1-ply: each is averaged over the opponent's
            21 rolls with the opponent's best reply; where the variant's settings say so, the
            closest few of those are then re-scored 2-ply.
``random``, ``race``  benchmark baselines (uniform legal play; the greedy "race" player).

Determinism: a player with a seed draws its random numbers from a generator seeded by the seed
*and* the position and dice, so the same question always gets the same answer, however many
moves the player made before (a bot may rebuild players between messages).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ai import heuristic
from ai.cube import CubeSettings, MoneyCube, money_cube
from ai.match import MatchScore
from ai.match import should_double as match_double
from ai.match import should_take as match_take
from ai.net import NetSet, shipped_nets
from ai.race import race_equity, race_outcomes
from ai.search import (
    ROLL_WEIGHTS,
    ROLLS,
    Board,
    Evaluator,
    HeuristicEvaluator,
    NetEvaluator,
    one_ply,
    two_ply,
)
from ai.variant_ai import SearchSettings, VariantAI, variant_ai
from engine import movegen
from engine.game import MAX_CUBE, Game, Phase
from engine.options import Options
from engine.position import Position
from engine.step import Play
from engine.variants import get_variant

LEVELS = ("easy", "medium", "hard")
BASELINES = ("random", "race")

# Easy: softmax over the heuristic score (in pips) at this temperature, so a play 12 pips worse
# than the best is still chosen e^-1 times as often. At 6 it beat the race baseline 73 % in
# short nardy: too strong for a level beginners should beat.
EASY_TEMPERATURE = 12.0

# Medium: a softmax over the nets' 0-ply equities (points per game) at this temperature, per
# variant. Short nardy's nets became so good at 0-ply that hard's 2-ply search hardly beat them
# any more (48.8 % of 1,000 games with short7's nets); the noise makes medium slip the way a
# decent club player does, far above easy (docs/ai.md, level tables). 0: always the best play.
MEDIUM_TEMPERATURE = {"short": 0.04, "long": 0.0}

# Money play with nets (medium, hard): Janowski's model on the nets' outcome distribution
# (ai.cube), the pre-roll distribution at this depth (1: averaged over the roller's 21 rolls,
# each played by the nets' best 0-ply choice, ~30 ms; it lost less than depth 0 on the
# gnubg-judged cube decisions, docs/ai.md).
CUBE_SETTINGS = {"medium": CubeSettings(depth=0), "hard": CubeSettings(depth=1)}

# Without nets and at easy: thresholds in cubeless equity (points per game at cube 1).
DOUBLE_AT = 0.40  # first double, centred cube (≈ 70 % wins without gammons)
REDOUBLE_AT = 0.48  # redouble from an owned cube: ownership is worth giving up only later
TOO_GOOD = 1.0  # the opponent would drop, but playing on wins more (gammons)
TAKE_FROM = -0.56  # a take loses less than dropping (−0.5 at the doubled cube) + live cube
EASY_SHIFT = 0.25  # easy doubles early and takes too much, as beginners do


@dataclass(slots=True)
class Player:
    """A computer opponent for one variant at one level (see the module docstring)."""

    level: str
    variant: str
    seed: int | None = None
    net: NetSet | None = field(default=None, repr=False)
    use_net: bool = True  # False: the hand-written evaluation only (for measurements)
    search: SearchSettings | None = None  # instead of the variant's (for measurements)
    cube: CubeSettings | None = None  # instead of the level's money cube (for measurements)
    temperature: float | None = None  # instead of MEDIUM_TEMPERATURE (for measurements)
    _rng: random.Random = field(default_factory=random.Random, repr=False)
    _vai: VariantAI = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.level not in LEVELS + BASELINES:
            raise ValueError(f"unknown level {self.level!r}; expected one of {LEVELS}")
        self.variant = get_variant(self.variant).name
        self._vai = variant_ai(self.variant)
        if self.net is None and self.use_net and self.level in ("medium", "hard"):
            self.net = shipped_nets(self.variant, self._vai.phases)

    # ---- plays --------------------------------------------------------------------------

    def choose_play(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        first_turn: bool = False,
        options: Options | None = None,
    ) -> Play:
        """One of the variant's legal plays for this roll (a pass is the empty play)."""
        plays = get_variant(self.variant).legal_plays(
            position, dice, first_turn=first_turn, options=options
        )
        if len(plays) == 1:
            return plays[0]
        rng = self._rng_for(position, dice)
        if self.level == "random":
            return rng.choice(plays)
        if self.level == "race":
            return _race_choice(self._vai, plays, rng)
        if self.level == "easy":
            scores = self._heuristic_scores(plays)
            noisy = [s / EASY_TEMPERATURE + _gumbel(rng) for s in scores]
            return plays[max(range(len(plays)), key=noisy.__getitem__)]
        ranked = self.rank(position, dice, first_turn=first_turn, options=options, rng=rng)
        temperature = self.play_temperature()
        if temperature > 0:
            noisy = [value / temperature + _gumbel(rng) for _, value in ranked]
            return ranked[max(range(len(ranked)), key=noisy.__getitem__)][0]
        return ranked[0][0]

    def play_temperature(self) -> float:
        """The noise of this player's choice among its ranked plays (0: the best play)."""
        if self.temperature is not None:
            return self.temperature
        return MEDIUM_TEMPERATURE.get(self.variant, 0.0) if self.level == "medium" else 0.0

    def rank(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        first_turn: bool = False,
        options: Options | None = None,
        rng: random.Random | None = None,
        candidates: int | None = None,
        budget: int | None = None,
        depth: int = 2,
    ) -> list[tuple[Play, float]]:
        """Plays with their equity for the mover, best first, as this level judges them.

        ``hard`` returns only the candidates of its deepest search (0-, 1- and 2-ply
        equities are not comparable): the plays it valued 2-ply when the variant's settings
        ask for it, ``depth`` ≥ 2 and two or more plays were close at 1-ply, else the plays it
        valued 1-ply. Other levels return every play.
        """
        opts = options or Options()
        plays = get_variant(self.variant).legal_plays(
            position, dice, first_turn=first_turn, options=opts
        )
        rng = rng or self._rng_for(position, dice)
        order = list(range(len(plays)))
        rng.shuffle(order)  # ties go to a seeded random play, not to generation order
        plays = [plays[i] for i in order]
        evaluate = self._evaluator()
        me = [p.result.mover for p in plays]
        opp = [p.result.opponent for p in plays]
        values = evaluate(me, opp)
        search = self.search_settings()
        candidates = search.candidates if candidates is None else candidates
        budget = search.budget if budget is None else budget
        if self.level == "hard" and len(plays) > 1:
            best0 = float(values.max())
            top = sorted(range(len(plays)), key=lambda i: -values[i])[:candidates]
            top = [i for i in top if values[i] >= best0 - search.margin] or top[:1]
            valued: list[tuple[int, float]] = []
            work = 0
            for i in top:
                if valued and work >= budget:
                    break
                value, replies = one_ply(evaluate, self._vai, me[i], opp[i], opts)
                valued.append((i, value))
                work += replies
            if depth >= 2:
                valued = self._deepen(valued, me, opp, opts, evaluate, search)
            scored = [(plays[i], v) for i, v in valued]
        else:
            scored = [(p, float(v)) for p, v in zip(plays, values, strict=True)]
        scored.sort(key=lambda pv: -pv[1])
        return scored

    def _deepen(
        self,
        scored: list[tuple[int, float]],
        me: Sequence[Board],
        opp: Sequence[Board],
        opts: Options,
        evaluate: Evaluator,
        search: SearchSettings,
    ) -> list[tuple[int, float]]:
        """The 1-ply candidates re-valued 2-ply where they are close (see SearchSettings);
        returns them unchanged when at most one is close, 2-ply is off, or the budget runs
        out before two of them are valued (a hard cap: a play's 2-ply stops the moment the
        replies would exceed ``deep_budget``, which bounds the worst-case time)."""
        ranked = sorted(scored, key=lambda iv: -iv[1])
        if search.deep < 2 or len(ranked) < 2:
            return ranked
        close = [iv for iv in ranked if iv[1] >= ranked[0][1] - search.deep_margin]
        close = close[: search.deep]
        if len(close) < 2:
            return ranked
        deep: list[tuple[int, float]] = []
        work = 0
        for i, _ in close:
            left = search.deep_budget - work
            if left <= 0:
                break
            value, replies = two_ply(evaluate, self._vai, me[i], opp[i], opts, limit=left)
            work += replies
            if value is None:  # out of budget inside this play's search
                break
            deep.append((i, value))
        if len(deep) < 2:  # nothing to compare at 2-ply: the 1-ply answer stands
            return ranked
        return deep

    def search_settings(self) -> SearchSettings:
        """How far ``hard`` looks: the variant's settings for its evaluator (unless given)."""
        if self.search is not None:
            return self.search
        return self._vai.net_search if self.net is not None else self._vai.heuristic_search

    # ---- the cube -----------------------------------------------------------------------

    def should_double(self, game: Game, match: MatchScore | None = None) -> bool:
        """Whether to offer the cube now (phase ROLL, this player to move).

        In a match (``match``: the score from this player's side) ``medium`` and ``hard``
        decide by match winning chances (:mod:`ai.match`); in money play by Janowski's
        cubeful equities on the nets' outcome distribution (:meth:`money_cube`). ``easy``
        and players without nets use fixed windows on the cubeless equity: strong enough that
        the opponent's take costs them (``DOUBLE_AT``), not so strong that playing on for a
        mars is worth more than the single point a drop would give (``TOO_GOOD``).
        """
        if game.phase is not Phase.ROLL or not game.cube_enabled or game.crawford:
            return False
        side = game.side_to_move
        if game.cube_owner not in (None, side):
            return False
        pos = game.pos
        if match is not None and self.level in ("medium", "hard") and self.net is not None:
            results = self._pre_roll_results(pos.mover, pos.opponent)
            return match_double(
                self._vai.match_table(),
                match,
                results,
                game.cube_value,
                centred=game.cube_owner is None,
            )
        if self.level in BASELINES:
            return False
        values = self._game_money_cube(game)
        if values is not None:
            return values.should_double
        eq = self._pre_roll_equity(pos.mover, pos.opponent)
        threshold = DOUBLE_AT if game.cube_owner is None else REDOUBLE_AT
        if self.level == "easy":
            threshold -= EASY_SHIFT
        if eq > TOO_GOOD and -eq < TAKE_FROM:
            return False
        return eq >= threshold

    def should_take(self, game: Game, match: MatchScore | None = None) -> bool:
        """Whether to accept an offered double (phase DOUBLE, this player answering).

        In a match (``match`` from this player's side) ``medium`` and ``hard`` take when
        playing on at twice the cube keeps more match winning chances than the drop; in
        money play when Janowski's double/take costs no more than the drop
        (:meth:`money_cube`). ``easy`` and players without nets: take when the cubeless
        equity is above ``TAKE_FROM`` (−0.5 a point at the doubled cube, less a little for
        owning the cube afterwards).
        """
        if game.phase is not Phase.DOUBLE:
            return False
        if match is not None and self.level in ("medium", "hard") and self.net is not None:
            pos = game.pos  # the doubler is to roll
            doubler = replace(match, mine=match.theirs, theirs=match.mine)
            results = self._pre_roll_results(pos.mover, pos.opponent)
            return match_take(self._vai.match_table(), doubler, results, game.cube_value)
        if self.level == "random":
            return self._rng.random() < 0.5
        if self.level == "race":
            return True
        pos = game.pos  # the doubler is to roll; the taker "has just moved"
        values = self._game_money_cube(game)
        if values is not None:
            return values.should_take
        eq = -self._pre_roll_equity(pos.mover, pos.opponent)
        bound = TAKE_FROM - (EASY_SHIFT if self.level == "easy" else 0.0)
        return eq >= bound

    def _game_money_cube(self, game: Game) -> MoneyCube | None:
        """:meth:`money_cube` for the side about to roll in ``game`` (in phase DOUBLE: the
        doubler, whose cube was centred or its own)."""
        pos = game.pos
        return self.money_cube(
            pos.mover,
            pos.opponent,
            redouble=game.cube_owner is not None,
            cube=game.cube_value,
            options=game.options,
        )

    def money_cube(
        self,
        me: Board,
        opp: Board,
        *,
        redouble: bool,
        cube: int = 1,
        options: Options | None = None,
    ) -> MoneyCube | None:
        """Janowski's money-game cube values (:mod:`ai.cube`) for the side about to roll with
        board ``me`` (the doubler): centred cube or, with ``redouble``, its own at ``cube``.
        None for ``easy`` and players without nets (they keep the fixed thresholds)."""
        if self.net is None or self.level not in CUBE_SETTINGS:
            return None
        settings = self.cube or CUBE_SETTINGS[self.level]
        if settings.thresholds:
            return None
        race = self._vai.no_contact(me, opp)
        if race and settings.race_formula:
            win, marses, marsed = race_outcomes(me, opp)
            results = [(2, marses), (1, win - marses), (-2, marsed), (-1, 1.0 - win - marsed)]
        else:
            results = self._pre_roll_results(me, opp, settings.depth, options)
        return money_cube(
            results,
            efficiency=settings.race if race else settings.contact,
            redouble=redouble,
            dead_after_take=2 * cube >= MAX_CUBE,
            take_margin=0.0 if race else settings.take_margin,
            double_margin=0.0 if race else settings.double_margin,
        )

    def pre_roll_results(
        self, position: Position, depth: int = 0, options: Options | None = None
    ) -> list[tuple[int, float]] | None:
        """How the game may end for the side to move in ``position``, before its roll: the
        nets' outcome distribution (at ``depth`` 0 the one this player's match cube decisions
        use; 1: averaged over the roller's 21 rolls), as (points at cube 1, probability);
        None for a player without nets."""
        if self.net is None:
            return None
        return self._pre_roll_results(position.mover, position.opponent, depth, options)

    def _pre_roll_results(
        self, me: Board, opp: Board, depth: int = 0, options: Options | None = None
    ) -> list[tuple[int, float]]:
        """The nets' outcome distribution for the side about to roll, as (points at cube 1,
        probability): at ``depth`` 0 the opponent's after-state value seen from this side;
        at 1 the average over this side's 21 rolls of the distribution after its best 0-ply
        play of each (what a 1-ply search sees)."""
        assert self.net is not None
        vai = self._vai
        ev = NetEvaluator(vai, self.net)
        if depth < 1 or me[0] == 15 or opp[0] == 15:
            probs = ev.probs(np.asarray([opp], dtype=np.int16), np.asarray([me], dtype=np.int16))
            return vai.results(vai.flip(probs)[0])
        first = vai.opponent_first_turn(me)
        movers: list[Board] = []
        others: list[Board] = []
        starts: list[int] = []
        for dice, _ in ROLLS:
            ctx = movegen.make_context(
                vai.name, me, opp, dice, first_turn=first, options=options or Options()
            )
            nodes = movegen.generate(ctx) or [(0, (), me, opp)]
            starts.append(len(movers))
            movers.extend(n[2] for n in nodes)
            others.extend(n[3] for n in nodes)
        probs = ev.probs(np.asarray(movers, dtype=np.int16), np.asarray(others, dtype=np.int16))
        values = vai.equity(probs)
        ends = [*starts[1:], len(movers)]
        best = [s + int(np.argmax(values[s:e])) for s, e in zip(starts, ends, strict=True)]
        return vai.results(ROLL_WEIGHTS @ probs[best].astype(np.float64))

    def _pre_roll_equity(self, me: tuple[int, ...], opp: tuple[int, ...]) -> float:
        """Equity of the side about to roll: the race formula once contact is over, else the
        opponent's after-state value from the net (or the heuristic), seen from this side."""
        vai = self._vai
        if vai.no_contact(me, opp):
            return race_equity(me, opp)
        if self.net is not None:
            probs = NetEvaluator(vai, self.net).probs(
                np.asarray([opp], dtype=np.int16), np.asarray([me], dtype=np.int16)
            )
            return float(vai.equity(vai.flip(probs))[0])
        return -float(HeuristicEvaluator(vai)([opp], [me])[0])

    # ---- helpers ------------------------------------------------------------------------

    def _evaluator(self) -> Evaluator:
        if self.net is not None and self.level in ("medium", "hard"):
            return NetEvaluator(self._vai, self.net)
        return HeuristicEvaluator(self._vai)

    def _heuristic_scores(self, plays: Sequence[Play]) -> list[float]:
        score = self._vai.heuristic_score
        return [score(p.result.mover, p.result.opponent) for p in plays]

    def _rng_for(self, position: Position, dice: tuple[int, int]) -> random.Random:
        if self.seed is None:
            return self._rng
        key = f"{self.seed}|{self.level}|{position.white}|{position.black}|{int(position.turn)}"
        return random.Random(f"{key}|{dice}")


def _gumbel(rng: random.Random) -> float:
    """Gumbel noise: argmax(score/T + noise) samples the softmax at temperature T."""
    return -math.log(-math.log(rng.random() or 1e-12))


def _race_choice(vai: VariantAI, plays: Sequence[Play], rng: random.Random) -> Play:
    """Greedy baseline: most pips gained, then fewest blots (short), then most made points."""

    def key(play: Play) -> tuple[int, int, int, float]:
        me = play.result.mover
        blots = sum(1 for p in range(1, 26) if me[p] == 1) if vai.counts_blots else 0
        made = sum(1 for p in range(1, 25) if me[p] >= 2)
        return (heuristic.pips(me), blots, -made, rng.random())

    return min(plays, key=key)
