"""Match play: a computed match equity table and cube decisions by match winning chances.

Why computed, not copied: published tables (Kazaross-XG, Rockwell-Kazaross) are for
backgammon with its gammon rate; long nardy ends in mars far more often, so each variant needs
its own table, and one short recursion makes both from the variant's rate of doubled results.

**The table.** ``equity(a, b)`` is the chance that the player ``a`` points away wins against
one ``b`` away, each game won by either side with probability ½ and, when won, doubled
(mars, gammon) with probability ``g`` (koks, worth 3, is rare enough to count as mars here):

* ``a ≤ 0`` → 1, ``b ≤ 0`` → 0, and 1-away against 1-away → ½;
* **post-Crawford** (the leader 1 away, the Crawford game played): the trailer doubles at
  once and the leader takes, so each game is worth 2 (4 doubled) to the trailer and the
  match to the leader;
* **the Crawford game** (the leader has just reached 1 away): no cube, the trailer gains 1
  (2 doubled), the leader wins the match;
* **before Crawford** the games are scored as if played without the cube (1, or 2 doubled).

The last rule is the approximation: a live cube makes a pre-Crawford game worth more than its
cubeless points, which helps the trailer, so the table overstates the leader's edge before
Crawford (more so at lopsided scores and high doubled rates: at a rate of ½, 2-away against
8-away even comes out above 1-away against 8-away). At the rates in use (0.235, 0.30) and
scores up to 11 away it is monotone; the values at 1-away (Crawford, post-Crawford) follow
the cube exactly.

**Cube decisions** compare match winning chances (MWC) in the dead-cube model: the doubler's
MWC when the game is played on at the present cube, when it is played at twice the cube, and
when the opponent drops (the doubler scores the present cube). The outcome distribution is
the nets' (win, doubled win, triple win, doubled loss, triple loss). Double when both replies
leave the doubler better off than not doubling and the opponent is near their take point;
take when playing on at twice the cube beats the drop for the taker, give or take the value
of owning the cube (the margins are the money thresholds of ``ai.player`` carried over, see
:data:`WINDOW`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

MAX_AWAY = 64

# The dead-cube comparison alone doubles far too early (a live cube lets the taker redouble
# and the doubler wait for market losers). These margins, as shares of what a game at twice
# the cube can swing, carry the money thresholds of ai.player over: in money play the swing
# is 4 points, a double at equity 0.40 (redouble 0.48) leaves the taker 1 − 2·0.40 = 0.2
# (0.04) points better off taking than dropping, i.e. 0.05 (0.01) of the swing, and a take
# down to −0.56 costs up to 0.12 points more than the drop, 0.03 of the swing.
WINDOW = (0.05, 0.01)  # centred cube, my own cube
TAKE_MARGIN = 0.03


@dataclass(frozen=True, slots=True)
class MatchScore:
    """The score of a match from one player's side: points needed by each (``away``),
    whether the Crawford game has been played (later games may use the cube again) and
    whether the match uses the Crawford rule at all (without it, V-16 off — our default —
    every game at 1 away is played as post-Crawford)."""

    length: int
    mine: int
    theirs: int
    crawford_done: bool = False
    crawford_rule: bool = True

    @property
    def my_away(self) -> int:
        return self.length - self.mine

    @property
    def their_away(self) -> int:
        return self.length - self.theirs


class MatchEquityTable:
    """Match winning chances by away scores for one rate of doubled results (see module)."""

    def __init__(self, doubled_rate: float) -> None:
        if not 0.0 <= doubled_rate < 1.0:
            raise ValueError("the rate of doubled results is a probability below 1")
        self.g = doubled_rate

    def equity(
        self, a: int, b: int, *, crawford_done: bool = True, crawford_rule: bool = True
    ) -> float:
        """MWC of the player ``a`` away against the player ``b`` away, before a game starts.

        At a 1-away score ``crawford_done`` says whether this game is post-Crawford (True)
        or the Crawford game itself (False); elsewhere it does not matter. Without the
        Crawford rule there is no Crawford game."""
        return _equity(self.g, a, b, crawford_done or not crawford_rule, crawford_rule)

    def after(self, score: MatchScore, points: int) -> float:
        """My MWC once a game worth ``points`` (negative: lost) has been scored."""
        a = score.my_away - max(points, 0)
        b = score.their_away - max(-points, 0)
        # The Crawford game follows the first game that brings someone to 1 away.
        done = score.crawford_done or score.my_away == 1 or score.their_away == 1
        return self.equity(a, b, crawford_done=done, crawford_rule=score.crawford_rule)


@cache
def _equity(g: float, a: int, b: int, crawford_done: bool, rule: bool = True) -> float:
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    if a > MAX_AWAY or b > MAX_AWAY:
        raise ValueError(f"match scores beyond {MAX_AWAY} away are not tabulated")
    if a == 1 and b == 1:
        return 0.5
    if a == 1 or b == 1:
        if a == 1:  # seen from the trailer
            return 1.0 - _equity(g, b, a, crawford_done, rule)
        if crawford_done:  # post-Crawford: I (the trailer) double at once, the leader takes
            two = _equity(g, a - 2, 1, True, rule)
            return 0.5 * ((1 - g) * two + g * _equity(g, a - 4, 1, True, rule))
        one = _equity(g, a - 1, 1, True, rule)
        return 0.5 * ((1 - g) * one + g * _equity(g, a - 2, 1, True, rule))
    nxt = not rule  # reaching 1 away starts the Crawford game only under the rule
    win = (1 - g) * _equity(g, a - 1, b, nxt, rule) + g * _equity(g, a - 2, b, nxt, rule)
    lose = (1 - g) * _equity(g, a, b - 1, nxt, rule) + g * _equity(g, a, b - 2, nxt, rule)
    return 0.5 * (win + lose)


def cube_mwc(
    table: MatchEquityTable, score: MatchScore, results: list[tuple[int, float]], cube: int
) -> tuple[float, float, float]:
    """The doubler's MWC: no double (play on at ``cube``), double/take (at ``2·cube``),
    double/drop (scores ``cube``). ``results`` as from
    :meth:`ai.variant_ai.VariantAI.results`: (points at cube 1, probability) pairs."""
    no_double = sum(p * table.after(score, k * cube) for k, p in results)
    take = sum(p * table.after(score, k * 2 * cube) for k, p in results)
    drop = table.after(score, cube)
    return no_double, take, drop


def _swing(table: MatchEquityTable, score: MatchScore, cube: int) -> float:
    """What a single game at twice the cube can move my MWC: the stake in MWC units."""
    return table.after(score, 2 * cube) - table.after(score, -2 * cube)


def should_double(
    table: MatchEquityTable,
    score: MatchScore,
    results: list[tuple[int, float]],
    cube: int,
    *,
    centred: bool = True,
) -> bool:
    """Double when the opponent's better reply leaves me better off than playing on and the
    game is near their take point (within :data:`WINDOW` of the stake); post-Crawford the
    trailer doubles whenever it is no worse (a leader 1 away never gains from owning the
    cube, so giving it costs nothing)."""
    no_double, take, drop = cube_mwc(table, score, results, cube)
    gain = min(take, drop) - no_double
    post = score.crawford_done or not score.crawford_rule
    if post and score.their_away == 1 and score.my_away > 1:
        return gain >= -1e-12
    window = WINDOW[0 if centred else 1] * _swing(table, score, cube)
    return gain > 1e-12 and drop - take <= window


def should_take(
    table: MatchEquityTable, score: MatchScore, results: list[tuple[int, float]], cube: int
) -> bool:
    """``score`` and ``results`` are the doubler's: take when playing on at twice the cube
    leaves the doubler no better off than my drop would, give or take the value of owning
    the cube (:data:`TAKE_MARGIN` of the stake)."""
    _, take, drop = cube_mwc(table, score, results, cube)
    return take - drop <= TAKE_MARGIN * _swing(table, score, cube)
