"""Gradients and Adam for :class:`ai.net.Net` (cross-entropy on each sigmoid output)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ai.net import Net, sigmoid

_EPS = 1e-6


def loss(net: Net, x: np.ndarray, target: np.ndarray) -> float:
    """Mean binary cross-entropy of the outputs against (soft) targets."""
    y = net.forward(x)[1]
    ce = -(target * np.log(y + _EPS) + (1.0 - target) * np.log(1.0 - y + _EPS))
    return float(ce.mean())


def gradients(net: Net, x: np.ndarray, target: np.ndarray) -> tuple[dict[str, np.ndarray], float]:
    """Gradients of the mean cross-entropy (summed over outputs, averaged over rows).

    With sigmoid outputs the error at the logits is simply ``y − target``, which keeps
    learning fast where the net is confidently wrong.
    """
    z1 = x @ net.w1 + net.b1
    if net.act == "relu":
        h = np.maximum(z1, 0.0)
        dact = (z1 > 0).astype(np.float32)
    else:
        h = sigmoid(z1)
        dact = h * (1.0 - h)
    y = sigmoid(h @ net.w2 + net.b2)
    err = (y - target) / len(x)
    dh = (err @ net.w2.T) * dact
    grads = {"w1": x.T @ dh, "b1": dh.sum(axis=0), "w2": h.T @ err, "b2": err.sum(axis=0)}
    ce = -(target * np.log(y + _EPS) + (1.0 - target) * np.log(1.0 - y + _EPS))
    return grads, float(ce.mean())


@dataclass(slots=True)
class Adam:
    """Adam (Kingma & Ba) with bias correction; its moments are part of a checkpoint."""

    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    steps: int = 0
    m: dict[str, np.ndarray] = field(default_factory=dict)
    v: dict[str, np.ndarray] = field(default_factory=dict)

    def step(self, net: Net, grads: dict[str, np.ndarray]) -> None:
        self.steps += 1
        c1 = 1.0 - self.beta1**self.steps
        c2 = 1.0 - self.beta2**self.steps
        params = net.params()
        for key, g in grads.items():
            if key not in self.m:
                self.m[key] = np.zeros_like(g, dtype=np.float32)
                self.v[key] = np.zeros_like(g, dtype=np.float32)
            m, v = self.m[key], self.v[key]
            m *= self.beta1
            m += (1.0 - self.beta1) * g
            v *= self.beta2
            v += (1.0 - self.beta2) * g * g
            params[key] -= (self.lr * (m / c1) / (np.sqrt(v / c2) + 1e-8)).astype(np.float32)

    def state(self, prefix: str) -> dict[str, np.ndarray]:
        out = {f"{prefix}/adam_steps": np.array(self.steps)}
        for key in self.m:
            out[f"{prefix}/adam_m_{key}"] = self.m[key]
            out[f"{prefix}/adam_v_{key}"] = self.v[key]
        return out

    @classmethod
    def from_state(cls, prefix: str, arrays: dict[str, np.ndarray], lr: float) -> Adam:
        opt = cls(lr=lr)
        if f"{prefix}/adam_steps" in arrays:
            opt.steps = int(arrays[f"{prefix}/adam_steps"])
            for key in ("w1", "b1", "w2", "b2"):
                opt.m[key] = arrays[f"{prefix}/adam_m_{key}"].astype(np.float32)
                opt.v[key] = arrays[f"{prefix}/adam_v_{key}"].astype(np.float32)
        return opt
