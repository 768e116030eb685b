"""A small value network (numpy) and the board encoding it reads.

The network estimates the outcome of a position *after a play*: ``me`` has just moved and
``opp`` is about to roll. Both boards are given in their owner's own numbering (RULES.md C-4),
so the same encoding serves both sides and a position seen by the other player is just the
two boards swapped.

Outputs are cumulative outcome probabilities for ``me``:

* long nardy (3): win, win by mars, lose by mars;
* short nardy (5): win, win by mars (gammon) or better, win by koks (backgammon),
  lose by mars or worse, lose by koks.

Equity, in points per game at cube 1, is ``2·win − 1 + the gammon and koks terms``.
The encoding is vectorised over a batch of positions because a turn is decided by scoring all
its legal plays at once, and numpy per-call overhead dominates a single small forward pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

N_OUT = {"long": 3, "short": 5}
_FLIP = {"long": np.array([0, 2, 1]), "short": np.array([0, 3, 4, 1, 2])}


def n_inputs(variant: str) -> int:
    """Width of the encoding: 24 points × 4 units per side plus a few global units."""
    per_side = 96 + (4 if variant == "short" else 3)
    return 2 * per_side + 1


def encode(variant: str, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Encode a batch of positions; ``me`` and ``opp`` are (N, 26) int arrays.

    Each point gets the classic four units (≥1, ≥2, ≥3 checkers, and the excess over three,
    scaled), which lets a small net see blots, made points and stacks without learning
    thresholds. Global units: checkers borne off, pip count, and (long) checkers left on the
    head or (short) checkers on the bar; the last unit says whether contact remains.
    """
    parts: list[np.ndarray] = []
    me_f = me.astype(np.float32)
    opp_f = opp.astype(np.float32)
    contact = _contact(variant, me, opp)
    for side in (me_f, opp_f):
        pts = side[:, 1:25]
        parts.append((pts >= 1).astype(np.float32))
        parts.append((pts >= 2).astype(np.float32))
        parts.append((pts >= 3).astype(np.float32))
        parts.append(np.maximum(pts - 3.0, 0.0) * 0.25)
        pips = side[:, 1:26] @ _PIP_WEIGHTS
        if variant == "short":
            parts.append(side[:, 25:26] * 0.5)
            parts.append(side[:, 0:1] / 15.0)
            parts.append(pips[:, None] / 160.0)
            parts.append((side[:, 0:1] > 0).astype(np.float32))
        else:
            parts.append(side[:, 24:25] / 15.0)
            parts.append(side[:, 0:1] / 15.0)
            parts.append(pips[:, None] / 360.0)
    parts.append(contact[:, None].astype(np.float32))
    return np.concatenate(parts, axis=1)


_PIP_WEIGHTS = np.arange(1, 26, dtype=np.float32)
_LONG_MAP = np.array([0, *(((p + 11) % 24) + 1 for p in range(1, 25)), 25])


def _contact(variant: str, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Whether some checker still has an opposing checker in front of it on its route.

    Without contact the game is a pure race, which the net should value very differently.
    Short: some ``me`` checker is behind ``opp``'s rearmost one. Long (no hitting, one shared
    direction): some checker of either side has an opposing checker between it and home.
    """
    idx = np.arange(26)
    me_back = np.where(me[:, 1:26] > 0, idx[1:26], 0).max(axis=1)
    opp_back = np.where(opp[:, 1:26] > 0, idx[1:26], 0).max(axis=1)
    if variant == "short":
        return (me_back + opp_back) > 25
    pts = idx[1:25]
    opp_in_me = opp[:, _LONG_MAP[1:25]] > 0  # column k: my point k + 1
    me_in_opp = me[:, _LONG_MAP[1:25]] > 0
    opp_front = np.where(opp_in_me, pts, 99).min(axis=1)
    me_front = np.where(me_in_opp, pts, 99).min(axis=1)
    return (opp_front < me_back) | (me_front < opp_back)


def flip(variant: str, probs: np.ndarray) -> np.ndarray:
    """The same outcome distribution seen by the other player."""
    out = probs[..., _FLIP[variant]].copy()
    out[..., 0] = 1.0 - probs[..., 0]
    return out


def equity(variant: str, probs: np.ndarray) -> np.ndarray:
    """Expected points at cube 1 from the cumulative outcome probabilities."""
    eq = 2.0 * probs[..., 0] - 1.0
    if variant == "long":
        return eq + probs[..., 1] - probs[..., 2]
    return eq + probs[..., 1] + probs[..., 2] - probs[..., 3] - probs[..., 4]


@dataclass(slots=True)
class Net:
    """One hidden layer (sigmoid), sigmoid outputs; small enough to evaluate in microseconds."""

    variant: str
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    @classmethod
    def fresh(cls, variant: str, hidden: int, seed: int) -> Net:
        rng = np.random.default_rng(seed)
        n_in = n_inputs(variant)
        w1 = rng.normal(0.0, 1.0 / np.sqrt(n_in), (n_in, hidden)).astype(np.float32)
        w2 = rng.normal(0.0, 1.0 / np.sqrt(hidden), (hidden, N_OUT[variant])).astype(np.float32)
        return cls(
            variant,
            w1,
            np.zeros(hidden, np.float32),
            w2,
            np.zeros(N_OUT[variant], np.float32),
        )

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hidden activations and output probabilities for a batch of encodings."""
        h = _sigmoid(x @ self.w1 + self.b1)
        return h, _sigmoid(h @ self.w2 + self.b2)

    def probs(self, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
        """Outcome probabilities for a batch of positions (see the module docstring)."""
        return self.forward(encode(self.variant, me, opp))[1]

    def train_step(self, x: np.ndarray, target: np.ndarray, lr: float) -> float:
        """One gradient step of cross-entropy towards ``target``; returns the mean loss.

        Cross-entropy on sigmoid outputs gives an output error of simply ``y − target``,
        which keeps learning fast when the net is confidently wrong.
        """
        h, y = self.forward(x)
        err = y - target
        gw2 = h.T @ err
        gb2 = err.sum(axis=0)
        dh = (err @ self.w2.T) * h * (1.0 - h)
        gw1 = x.T @ dh
        gb1 = dh.sum(axis=0)
        self.w2 -= lr * gw2
        self.b2 -= lr * gb2
        self.w1 -= lr * gw1
        self.b1 -= lr * gb1
        eps = 1e-6
        loss = -(target * np.log(y + eps) + (1 - target) * np.log(1 - y + eps))
        return float(loss.mean())

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            variant=np.array(self.variant),
            w1=self.w1.astype(np.float32),
            b1=self.b1,
            w2=self.w2,
            b2=self.b2,
        )

    @classmethod
    def load(cls, path: Path) -> Net:
        with np.load(path) as data:
            return cls(
                str(data["variant"]),
                data["w1"].astype(np.float32),
                data["b1"].astype(np.float32),
                data["w2"].astype(np.float32),
                data["b2"].astype(np.float32),
            )


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))


_CACHE: dict[str, Net | None] = {}


def shipped_net(variant: str) -> Net | None:
    """The trained weights packaged with ``ai`` (``ai/weights/<variant>.npz``), or None.

    Loaded lazily on first use and kept for the process: a player is created per game, and
    reading the file each time would cost more than a whole decision.
    """
    if variant not in _CACHE:
        ref = resources.files("ai").joinpath("weights", f"{variant}.npz")
        if ref.is_file():
            with resources.as_file(ref) as path:
                _CACHE[variant] = Net.load(path)
        else:
            _CACHE[variant] = None
    return _CACHE[variant]
