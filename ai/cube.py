"""Money-game cube decisions by Janowski's cube-life model, with the nets' gammon values.

A cube decision compares three cubeful equities of the doubler (per unit of the present cube):
no double, double/take (twice the value of the game with the cube on the other side) and
double/drop (+1). Janowski's model (R. Janowski, *Take-points in money games*, 1993) writes a
cubeful equity as a mix of two limits:

* the **dead cube** (no more doubling): the cubeless equity E = p·W − (1 − p)·L, with p the
  doubler's winning chance and W, L the average points of a win and of a loss (mars, koks);
* the **fully live cube** (doubles come at the exact moment they turn right, no market
  losers): the equity is linear in p between the points where a double cashes. With W and L
  the live cash point of the doubler is p = (L + 1) / (W + L + ½) and the opponent's is
  1 − (W + 1) / (W + L + ½) (80 % and 20 % without gammons). A centred cube runs from −1 at
  the opponent's cash point to +1 at ours, a cube we own from −L at p = 0 to +1 at our cash
  point, a cube they own from −1 at their cash point to +W at p = 1.

The cubeful equity is x · live + (1 − x) · dead, with x the **cube efficiency** (how much of
the live cube's value a real game keeps; GNU Backgammon uses about ⅔ in contact positions,
more in long races). Take when double/take ≤ double/drop; double when both answers beat no
double (the better answer for the opponent still beats playing on: this also leaves "too
good" positions alone, where no double is worth more than the +1 of a drop).

**The cube level** matters in money play only at the cube's top face (``engine.game.MAX_CUBE``):
a take that puts the cube there leaves the taker a dead cube (x = 0 after the take).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Cube efficiency in contact positions. GNU Backgammon uses 0.68; on the gnubg-judged cube
#: decisions (``benchmarks/cube_positions.py``, docs/ai.md) 0.75 lost a little less with our
#: nets (0.68–0.75 is flat, 0.85 and 0.5 clearly worse).
CONTACT_EFFICIENCY = 0.75
#: Cube efficiency in a pure race (there the bear-off table and race net are nearly exact;
#: 0.5–0.75 judged the same on the set, 0.85 worse).
RACE_EFFICIENCY = 0.6
#: See :attr:`CubeSettings.take_margin` (0.15–0.2 judged best on the set, 0.3 worse).
TAKE_MARGIN = 0.15
#: See :attr:`CubeSettings.double_margin` (0.02–0.05 judged best on the set, 0.15 worse).
DOUBLE_MARGIN = 0.05


@dataclass(frozen=True, slots=True)
class MoneyCube:
    """The doubler's cubeful equities per unit of the present cube (see the module doc)."""

    no_double: float
    double_take: float
    double_drop: float = 1.0
    take_margin: float = 0.0  # a take must beat the drop by this much (see CubeSettings)
    double_margin: float = 0.0  # a double must beat no double by this much (the same)

    @property
    def should_double(self) -> bool:
        """Double when the opponent's better answer beats playing on by ``double_margin``
        (with no margin: is no worse, so a sure win is cashed)."""
        return min(self.double_take, self.double_drop) >= self.no_double + self.double_margin

    @property
    def should_take(self) -> bool:
        """The opponent's answer: take when the take costs them less than the drop by at
        least ``take_margin``."""
        return self.double_take <= self.double_drop - self.take_margin


def win_values(results: Sequence[tuple[int, float]]) -> tuple[float, float, float]:
    """(p, W, L) of an outcome distribution ((points, probability), points > 0 a win): the
    winning chance and the average points of a win and of a loss (1 where that side has no
    chance, so the formulas stay finite)."""
    p = sum(prob for pts, prob in results if pts > 0)
    won = sum(pts * prob for pts, prob in results if pts > 0)
    lost = sum(-pts * prob for pts, prob in results if pts < 0)
    p = min(1.0, max(0.0, p))
    w = won / p if p > 1e-9 else 1.0
    loss = lost / (1.0 - p) if 1.0 - p > 1e-9 else 1.0
    return p, max(1.0, w), max(1.0, loss)


def money_cube(
    results: Sequence[tuple[int, float]],
    *,
    efficiency: float,
    redouble: bool = False,
    dead_after_take: bool = False,
    take_margin: float = 0.0,
    double_margin: float = 0.0,
) -> MoneyCube:
    """Janowski's cubeful equities for the doubler with outcome distribution ``results``
    (before its roll): the cube centred or, with ``redouble``, the doubler's own;
    ``dead_after_take``: the take would put the cube at its top face (no redouble)."""
    p, w, loss = win_values(results)
    x = efficiency
    dead = p * w - (1.0 - p) * loss
    cash = (loss + 1.0) / (w + loss + 0.5)  # our live cash point
    theirs = 1.0 - (w + 1.0) / (w + loss + 0.5)  # the opponent's live cash point, in our p
    if redouble:
        live = 1.0 if p >= cash else -loss + (1.0 + loss) * p / cash
    elif p >= cash:
        live = 1.0
    elif p <= theirs:
        live = -1.0
    else:
        live = -1.0 + 2.0 * (p - theirs) / (cash - theirs)
    # after a take the opponent owns the cube: −1 at their cash point up to +W at p = 1
    their_cube = -1.0 if p <= theirs else -1.0 + (w + 1.0) * (p - theirs) / (1.0 - theirs)
    x_take = 0.0 if dead_after_take else x
    no_double = x * live + (1.0 - x) * dead
    take = 2.0 * (x_take * their_cube + (1.0 - x_take) * dead)
    return MoneyCube(no_double, take, 1.0, take_margin, double_margin)


@dataclass(frozen=True, slots=True)
class CubeSettings:
    """How a player with nets makes its money-cube decisions (``ai.player``)."""

    contact: float = CONTACT_EFFICIENCY  # cube efficiency while there is contact
    race: float = RACE_EFFICIENCY  # ... and in a pure race
    depth: int = 0  # pre-roll outcome distribution: 0 the nets, 1 over the roller's 21 rolls
    race_formula: bool = False  # pure races by the closed-form ai.race instead of the nets
    thresholds: bool = False  # the fixed cubeless thresholds instead (the old rule, measured)
    # A double is news: an opponent doubles where it is strong, often stronger than our nets
    # see (the judged set: most big take errors are passes the nets value at ~70 %), so in
    # contact a take must beat the drop by this margin (per unit of the cube, doubler's side).
    take_margin: float = TAKE_MARGIN
    # The same news the other way: a double the opponent takes is one it thinks is not yet
    # good enough, so in contact a double must beat no double by this margin.
    double_margin: float = DOUBLE_MARGIN
