"""What the computer player needs to know about each variant, behind one interface.

The rest of ``ai`` never compares a variant's name: it asks :func:`variant_ai` for the
variant's object and calls it (issue #11, STYLE habit 6). Each object holds the encoding its
nets read, the phases it splits the game into, the meaning of the net's outputs, how a
finished game scores, the hand-written evaluation and the rules quirks the search needs.

Output vectors are cumulative probabilities for the side that has just moved:

* long nardy (3): win, win by mars, lose by mars (M-1, M-2; no koks, M-3);
* short nardy (5): win, win by mars (gammon) or better, win by koks (backgammon),
  lose by mars or worse, lose by koks (M-4 … M-6).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from ai import features, heuristic
from ai.match import MatchEquityTable

Board = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How ``hard`` searches: the best ``candidates`` plays at 0-ply (no further than
    ``margin`` below the best) get the 1-ply look-ahead, until ``budget`` opponent replies have
    been evaluated. The budget caps the worst case (doubles in bushy positions)
    deterministically, which a wall-clock limit would not; the rest keep their 0-ply rank.
    Where two or more plays are close at 1-ply, the best few are then valued 2-ply."""

    candidates: int
    margin: float
    budget: int
    # 2-ply: the best ``deep`` plays at 1-ply (no further than ``deep_margin`` below the best)
    # are valued 2-ply within ``deep_budget`` replies in all (a hard cap; if it is reached
    # before two plays are valued, the 1-ply answer stands); 0 turns it off.
    deep: int = 0
    deep_margin: float = 0.0
    deep_budget: int = 0


# With the hand-written evaluation every position costs a Python call: search less.
HEURISTIC_SEARCH = SearchSettings(candidates=4, margin=0.2, budget=1500)


class VariantAI:
    """Per-variant knowledge of the computer player (see the module docstring)."""

    name: str = ""
    n_out: int = 0
    n_inputs: int = 0
    phases: tuple[str, ...] = ("contact", "race")
    flip_index: np.ndarray = np.zeros(0, dtype=np.int64)
    # Pips → equity-like scale of the hand-written score (1.5·tanh(score / scale)).
    heuristic_scale: float = 20.0
    # The greedy "race" baseline also avoids blots where blots can be hit.
    counts_blots: bool = False
    net_search: SearchSettings = SearchSettings(candidates=5, margin=0.2, budget=2500)
    heuristic_search: SearchSettings = HEURISTIC_SEARCH
    # Share of games won doubled or better (mars/gammon, koks): the match equity table's one
    # parameter (ai.match), measured per variant in arena games.
    doubled_rate: float = 0.27

    def encoders(self) -> dict[int, Callable[[np.ndarray, np.ndarray], np.ndarray]]:
        """The variant's encoders by input count: a net file is read by the encoder whose
        width matches it, so an older net (e.g. short nardy's v1) still plays and can be
        measured against a newer one."""
        raise NotImplementedError

    def encode(self, me: np.ndarray, opp: np.ndarray, n_in: int | None = None) -> np.ndarray:
        """Net inputs of a batch of after-states for a net of ``n_in`` inputs (default: the
        encoder new nets are trained on, :attr:`n_inputs`)."""
        encoders = self.encoders()
        try:
            return encoders[n_in or self.n_inputs](me, opp)
        except KeyError:
            raise ValueError(f"no {self.name} encoder with {n_in} inputs") from None

    def contact(self, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
        """Per row: whether the two armies can still meet."""
        raise NotImplementedError

    def phase(self, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
        """Per row: the index into :attr:`phases` (0 contact, 1 race)."""
        return np.where(self.contact(me, opp), 0, 1)

    def equity(self, probs: np.ndarray) -> np.ndarray:
        """Expected points at cube 1 from the cumulative outcome probabilities."""
        raise NotImplementedError

    def results(self, probs: np.ndarray) -> list[tuple[int, float]]:
        """(points at cube 1, probability) of each way one outcome vector can end."""
        raise NotImplementedError

    def match_table(self) -> MatchEquityTable:
        """The match equity table for this variant's rate of doubled results."""
        return _table(self.doubled_rate)

    def flip(self, probs: np.ndarray) -> np.ndarray:
        """The same outcome distribution seen by the other player."""
        out = probs[..., self.flip_index].copy()
        out[..., 0] = 1.0 - probs[..., 0]
        return out

    def outcome(self, winner: Board, loser: Board) -> np.ndarray:
        """The finished game as an output vector, from the winner's side."""
        return self.outcomes(np.asarray([winner]), np.asarray([loser]))[0]

    def outcomes(self, winner: np.ndarray, loser: np.ndarray) -> np.ndarray:
        """:meth:`outcome` for a batch of (N, 26) boards."""
        raise NotImplementedError

    def from_race(self, race: np.ndarray) -> np.ndarray:
        """Output vectors from (N, 3) race chances: win, win by mars, lose by mars (a race
        with both sides home can end in mars but never in koks)."""
        raise NotImplementedError

    def result_points(self, winner: Board, loser: Board) -> int:
        """Points of a finished game at cube 1 under the default scoring."""
        return round(float(self.equity(self.outcome(winner, loser))))

    def heuristic_score(self, me: Board, opp: Board) -> float:
        raise NotImplementedError

    def opponent_first_turn(self, opp: Board) -> bool:
        """Whether the opponent has yet to make its first move (only long nardy's L-11
        cares; every long first turn moves a checker off the head)."""
        return False

    def training_start(self, rng: np.random.Generator) -> tuple[Board, Board]:
        """``(me, opp)``, ``opp`` to roll: a start for a self-play game in a family of
        positions the nets misjudge (the trainer's ``starts`` setting)."""
        raise ValueError(f"no generated training starts for {self.name} nardy")

    def no_contact(self, me: Board, opp: Board) -> bool:
        """Whether no checker can meet an opposing one again (a pure race)."""
        return not bool(self.contact(np.asarray([me]), np.asarray([opp]))[0])


class LongAI(VariantAI):
    name = "long"
    n_out = 3
    n_inputs = features.LONG_INPUTS
    flip_index = np.array([0, 2, 1])
    heuristic_scale = 25.0
    doubled_rate = 0.235  # mars in 47 of 200 games, medium against medium

    def encoders(self) -> dict[int, Callable[[np.ndarray, np.ndarray], np.ndarray]]:
        return {features.LONG_INPUTS: features.encode_long}

    def contact(self, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
        return features.long_contact(me, opp)

    def equity(self, probs: np.ndarray) -> np.ndarray:
        return 2.0 * probs[..., 0] - 1.0 + probs[..., 1] - probs[..., 2]

    def from_race(self, race: np.ndarray) -> np.ndarray:
        return race.astype(np.float32)

    def results(self, probs: np.ndarray) -> list[tuple[int, float]]:
        win, win2, lose2 = (float(x) for x in probs)
        return [(1, win - win2), (2, win2), (-1, 1.0 - win - lose2), (-2, lose2)]

    def outcomes(self, winner: np.ndarray, loser: np.ndarray) -> np.ndarray:
        out = np.zeros((len(winner), 3), np.float32)
        out[:, 0] = 1.0
        out[:, 1] = loser[:, 0] == 0
        return out

    def heuristic_score(self, me: Board, opp: Board) -> float:
        return heuristic.long_score(me, opp)

    def opponent_first_turn(self, opp: Board) -> bool:
        return opp[24] == 15


class ShortAI(VariantAI):
    name = "short"
    n_out = 5
    n_inputs = features.SHORT_PLUS_INPUTS
    flip_index = np.array([0, 3, 4, 1, 2])
    heuristic_scale = 20.0
    counts_blots = True
    doubled_rate = 0.30  # mars or koks in 505 of 1,682 games, hard against gnubg 0-ply
    # 2-ply for the best two 1-ply plays when within 0.05, at most 24,000 replies (a hard cap).
    # On the 1,000 positions hard meets against gnubg (judged by gnubg 2-ply, nets short9 gen.
    # 6,109) the loss per move was 0.0040 with a cap of 12,000 and 0.0032 with 24,000 (paired
    # -0.0008 [-0.0012, -0.0005]) at 89 -> 122 ms CPU median, 177 -> 282 ms p99; wider
    # settings (3 plays within 0.1 at 48,000: 0.0030, 233 ms median) crowd the 250 ms budget.
    net_search = SearchSettings(
        candidates=5, margin=0.2, budget=2500, deep=2, deep_margin=0.05, deep_budget=24000
    )

    def encoders(self) -> dict[int, Callable[[np.ndarray, np.ndarray], np.ndarray]]:
        return {
            features.SHORT_INPUTS: features.encode_short,
            features.SHORT_PLUS_INPUTS: features.encode_short_plus,
        }

    def contact(self, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
        return features.short_contact(me, opp)

    def equity(self, probs: np.ndarray) -> np.ndarray:
        eq = 2.0 * probs[..., 0] - 1.0
        return eq + probs[..., 1] + probs[..., 2] - probs[..., 3] - probs[..., 4]

    def from_race(self, race: np.ndarray) -> np.ndarray:
        out = np.zeros((len(race), 5), np.float32)
        out[:, 0:2] = race[:, 0:2]
        out[:, 3] = race[:, 2]
        return out

    def results(self, probs: np.ndarray) -> list[tuple[int, float]]:
        win, win2, win3, lose2, lose3 = (float(x) for x in probs)
        return [
            (1, win - win2),
            (2, win2 - win3),
            (3, win3),
            (-1, 1.0 - win - lose2),
            (-2, lose2 - lose3),
            (-3, lose3),
        ]

    def outcomes(self, winner: np.ndarray, loser: np.ndarray) -> np.ndarray:
        out = np.zeros((len(winner), 5), np.float32)
        none_off = loser[:, 0] == 0
        out[:, 0] = 1.0
        out[:, 1] = none_off
        out[:, 2] = none_off & ((loser[:, 25] > 0) | (loser[:, 19:25] > 0).any(axis=1))
        return out

    def heuristic_score(self, me: Board, opp: Board) -> float:
        return heuristic.short_score(me, opp)

    def training_start(self, rng: np.random.Generator) -> tuple[Board, Board]:
        from ai.training.starts import blind_spot_start  # training code, loaded on use

        return blind_spot_start(rng)


@cache
def _table(rate: float) -> MatchEquityTable:
    return MatchEquityTable(rate)


_REGISTRY: dict[str, VariantAI] = {v.name: v for v in (LongAI(), ShortAI())}


def variant_ai(name: str) -> VariantAI:
    """The computer player's object for a variant (``name`` as ``engine`` spells it)."""
    try:
        return _REGISTRY[str(name)]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}") from None
