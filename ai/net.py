"""Value networks (numpy): one small net per phase of the game, and the file format.

A net estimates the outcome of a position *after a play*: ``me`` has just moved and ``opp``
is about to roll (each board in its owner's numbering, RULES.md C-4). Outputs are cumulative
outcome probabilities for ``me`` (see :mod:`ai.variant_ai` for each variant's list), so the
position seen by the other player is the boards swapped and the outputs flipped.

Why one net per phase: the game changes character once the armies have passed each other (a
pure race, where only pips and wastage matter); gnubg's experience, and ours, is that one net
fitting both does each worse than two nets fitting one each.

File format (``np.savez_compressed``): ``variant``, ``phases`` (names, in order) and per phase
``<phase>/w1 b1 w2 b2 act``; anything else in the file (a training checkpoint's optimiser
state and counters) is ignored at run time. The older single-net format (``w1 b1 w2 b2``,
sigmoid hidden units) still loads: that net then serves every phase.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np


@dataclass(slots=True)
class Net:
    """One hidden layer (ReLU or sigmoid), sigmoid outputs: microseconds per position."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    act: str = "relu"

    @classmethod
    def fresh(cls, n_in: int, hidden: int, n_out: int, rng: np.random.Generator) -> Net:
        """He-initialised ReLU net with zero biases."""
        w1 = rng.normal(0.0, np.sqrt(2.0 / n_in), (n_in, hidden)).astype(np.float32)
        w2 = rng.normal(0.0, np.sqrt(1.0 / hidden), (hidden, n_out)).astype(np.float32)
        return cls(w1, np.zeros(hidden, np.float32), w2, np.zeros(n_out, np.float32))

    @property
    def n_in(self) -> int:
        return int(self.w1.shape[0])

    def hidden(self, x: np.ndarray) -> np.ndarray:
        z = x @ self.w1 + self.b1
        if self.act == "relu":
            return np.maximum(z, 0.0)
        return sigmoid(z)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hidden activations and output probabilities for a batch of encodings."""
        h = self.hidden(x)
        return h, sigmoid(h @ self.w2 + self.b2)

    def params(self) -> dict[str, np.ndarray]:
        return {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2}


@dataclass(slots=True)
class NetSet:
    """The nets of one variant, one per phase, with the function that picks the phase."""

    variant: str
    phases: tuple[str, ...]
    nets: dict[str, Net]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def n_in(self) -> int:
        """Input count of the nets (all phases share one encoding)."""
        return self.nets[self.phases[0]].n_in

    def probs(self, x: np.ndarray, phase: np.ndarray) -> np.ndarray:
        """Outcome probabilities of encoded rows ``x``; ``phase`` holds each row's phase
        index into :attr:`phases`."""
        if len(self.phases) == 1 or not len(x):
            return self.nets[self.phases[0]].forward(x)[1]
        out: np.ndarray | None = None
        for k, name in enumerate(self.phases):
            rows = np.flatnonzero(phase == k)
            if not len(rows):
                continue
            y = self.nets[name].forward(x[rows])[1]
            if out is None:
                out = np.empty((len(x), y.shape[1]), dtype=y.dtype)
            out[rows] = y
        assert out is not None
        return out

    def save(self, path: Path, **extra: np.ndarray) -> None:
        """Write the nets (and any extra arrays, e.g. a training state) atomically."""
        arrays: dict[str, np.ndarray] = {
            "variant": np.array(self.variant),
            "phases": np.array(self.phases),
        }
        for name, net in self.nets.items():
            for key, value in net.params().items():
                arrays[f"{name}/{key}"] = value.astype(np.float32)
            arrays[f"{name}/act"] = np.array(net.act)
        arrays.update(extra)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, **arrays)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, phases: tuple[str, ...] | None = None) -> NetSet:
        """Read a file written by :meth:`save` (or the older single-net format, which then
        serves every phase in ``phases``). Arrays that are not nets land in :attr:`extra`."""
        with np.load(path) as data:
            files = set(data.files)
            variant = str(data["variant"])
            if "phases" in files:
                names = tuple(str(p) for p in data["phases"])
                nets = {
                    n: Net(
                        *(data[f"{n}/{k}"].astype(np.float32) for k in ("w1", "b1", "w2", "b2")),
                        act=str(data[f"{n}/act"]),
                    )
                    for n in names
                }
                used = {"variant", "phases"} | {f"{n}/{k}" for n in names for k in _KEYS}
                extra = {k: data[k] for k in files - used}
                return cls(variant, names, nets, extra)
            single = Net(
                *(data[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2")), act="sigmoid"
            )
            names = phases or ("all",)
            return cls(variant, names, dict.fromkeys(names, single))


_KEYS = ("w1", "b1", "w2", "b2", "act")


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))


_CACHE: dict[str, NetSet | None] = {}


def shipped_nets(variant: str, phases: tuple[str, ...]) -> NetSet | None:
    """The trained weights packaged with ``ai`` (``ai/weights/<variant>.npz``), or None.

    Loaded lazily on first use and kept for the process: a player is created per game, and
    reading the file each time would cost more than a whole decision.
    """
    if variant not in _CACHE:
        ref = resources.files("ai").joinpath("weights", f"{variant}.npz")
        if ref.is_file():
            with resources.as_file(ref) as path:
                _CACHE[variant] = NetSet.load(path, phases)
        else:
            _CACHE[variant] = None
    return _CACHE[variant]
