"""The training loop: generations of self-play, Adam steps from the replay buffer, checkpoints.

A generation plays ``games_per_gen`` self-play games with the current nets, measures the nets
on those fresh positions *before* learning from them (the benchmark error: an out-of-sample
error against the 1-ply targets), adds them to the buffer, and takes enough minibatch steps
that each new position is seen about ``reuse`` times.

Checkpoints (``np.savez_compressed``):

* ``<state>/latest.npz``: nets, Adam moments, counters, the generator state and the buffer —
  resuming from it continues exactly where training stopped;
* ``<state>/weights.npz``: the same without the buffer (under 1 MB): the file to commit as
  ``ai/weights/<variant>.npz``; resuming from it refills the buffer by playing.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ai.bearoff import shipped_table
from ai.net import Net, NetSet
from ai.search import NetEvaluator
from ai.training.optim import Adam, gradients
from ai.training.selfplay import Game, ReplayBuffer, play_game
from ai.variant_ai import VariantAI, variant_ai


@dataclass(slots=True)
class Settings:
    """Hyper-parameters; stored in every checkpoint (later runs may override them)."""

    hidden: tuple[int, ...] = (128, 64)  # per phase, in the order of VariantAI.phases
    lr: float = 1e-3
    batch: int = 256
    reuse: float = 6.0
    games_per_gen: int = 8
    buffer: int = 200_000
    lam: float = 0.6
    lam_end: float = 0.1
    lam_generations: int = 400  # λ decays linearly to lam_end over this many generations
    explore: float = 0.08
    one_ply: float = 1.0  # share of games with 1-ply targets; the rest plain TD(λ)
    # Warm start by distillation: until generation ``teacher_until`` the games are played and
    # the targets computed by the nets of the file ``teacher`` (e.g. an older, weaker-input
    # net), so a new architecture starts from that net's 1-ply values instead of from noise.
    teacher: str = ""
    teacher_until: int = 0
    # Share of each generation's games started from a generated position the nets misjudge
    # (short nardy: ai.training.starts), and their λ (None: the run's λ); the start games
    # are played with 1-ply targets and measured apart (``starts_eq_rmse``).
    starts: float = 0.0
    starts_lam: float | None = None

    def lam_at(self, generation: int) -> float:
        frac = min(1.0, generation / max(1, self.lam_generations))
        return self.lam + (self.lam_end - self.lam) * frac


@dataclass(slots=True)
class Trainer:
    vai: VariantAI
    nets: NetSet
    settings: Settings
    rng: np.random.Generator
    buffer: ReplayBuffer
    opts: dict[str, Adam] = field(default_factory=dict)
    generation: int = 0
    games: int = 0
    positions: int = 0
    seconds: float = 0.0
    history: list[dict[str, float]] = field(default_factory=list)
    _teacher: NetEvaluator | None = None

    @classmethod
    def fresh(cls, variant: str, settings: Settings, seed: int) -> Trainer:
        vai = variant_ai(variant)
        rng = np.random.default_rng(seed)
        nets = {
            phase: Net.fresh(vai.n_inputs, hidden, vai.n_out, rng)
            for phase, hidden in zip(vai.phases, settings.hidden, strict=True)
        }
        net_set = NetSet(vai.name, vai.phases, nets)
        return cls(vai, net_set, settings, rng, ReplayBuffer(settings.buffer, vai.n_out))

    @classmethod
    def resume(cls, path: Path, overrides: dict[str, object] | None = None) -> Trainer:
        """Continue from a checkpoint (or from shipped weights without training state)."""
        loaded = NetSet.load(path)
        vai = variant_ai(loaded.variant)
        extra = loaded.extra
        meta = json.loads(str(extra["meta"])) if "meta" in extra else {}
        settings = Settings(**{**meta.get("settings", {}), **(overrides or {})})
        settings.hidden = tuple(settings.hidden)
        rng = np.random.default_rng()
        if "rng" in meta:
            rng.bit_generator.state = meta["rng"]
        nets = loaded
        if loaded.phases != vai.phases:  # an old single net: one copy per phase
            only = loaded.nets[loaded.phases[0]]
            copies = {
                p: Net(*(a.copy() for a in only.params().values()), act=only.act)
                for p in vai.phases
            }
            nets = NetSet(vai.name, vai.phases, copies)
        buffer = ReplayBuffer(settings.buffer, vai.n_out)
        buffer.load(extra)
        trainer = cls(vai, NetSet(vai.name, vai.phases, nets.nets), settings, rng, buffer)
        trainer.opts = {p: Adam.from_state(p, extra, settings.lr) for p in vai.phases}
        for key in ("generation", "games", "positions", "seconds"):
            setattr(trainer, key, type(getattr(trainer, key))(meta.get(key, 0)))
        trainer.history = meta.get("history", [])
        return trainer

    def evaluator(self) -> NetEvaluator:
        return NetEvaluator(self.vai, self.nets, shipped_table())

    def teacher_evaluator(self) -> NetEvaluator:
        """The distillation teacher's evaluator (loaded once)."""
        if self._teacher is None:
            teacher = NetSet.load(Path(self.settings.teacher), self.vai.phases)
            self._teacher = NetEvaluator(self.vai, teacher, shipped_table())
        return self._teacher

    def run_generation(self) -> dict[str, float]:
        """Play, measure, learn; returns the log record of the generation."""
        t0 = time.perf_counter()
        s = self.settings
        taught = bool(s.teacher) and self.generation < s.teacher_until
        ev = self.teacher_evaluator() if taught else self.evaluator()
        lam = s.lam_at(self.generation)
        n_starts = round(s.starts * s.games_per_gen)
        n_open = s.games_per_gen - n_starts
        full_games = min(n_open, round(s.one_ply * s.games_per_gen))
        games = [
            play_game(ev, self.vai, self.rng, lam=lam, explore=s.explore, full=k < full_games)
            for k in range(n_open)
        ]
        start_lam = lam if s.starts_lam is None else s.starts_lam
        started = [
            play_game(
                ev,
                self.vai,
                self.rng,
                lam=start_lam,
                explore=s.explore,
                start=self.vai.training_start(self.rng),
            )
            for _ in range(n_starts)
        ]
        every = games + started
        me = np.concatenate([g.me for g in every])
        opp = np.concatenate([g.opp for g in every])
        target = np.concatenate([g.target for g in every])
        t_play = time.perf_counter() - t0
        # The benchmark error is measured on the 1-ply games only (exact targets), those from
        # the opening apart from those from generated starts.
        fresh = self._errors_of(games[:full_games] or games)
        fresh_starts = self._errors_of(started) if started else None
        self.buffer.add(me, opp, target)
        steps = max(1, round(s.reuse * len(me) / s.batch))
        train_loss = [self._step() for _ in range(steps)]
        self.generation += 1
        self.games += len(every)
        self.positions += len(me)
        elapsed = time.perf_counter() - t0
        self.seconds += elapsed
        record = {
            "gen": self.generation,
            "games": self.games,
            "positions": self.positions,
            "hours": round(self.seconds / 3600.0, 3),
            "pos_per_s": round(len(me) / t_play, 1),
            "games_per_s": round(len(every) / elapsed, 3),
            "plies_per_game": round(len(me) / len(every), 1),
            "lam": round(lam, 3),
            "fresh_eq_rmse": round(fresh["eq_rmse"], 4),
            "fresh_ce": round(fresh["ce"], 4),
            "train_ce": round(float(np.mean(train_loss)), 4),
            "buffer": self.buffer.size,
            "taught": taught,
        }
        if fresh_starts is not None:
            record["starts_eq_rmse"] = round(fresh_starts["eq_rmse"], 4)
        self.history.append(record)
        return record

    def _errors_of(self, games: list[Game]) -> dict[str, float]:
        me = np.concatenate([g.me for g in games])
        opp = np.concatenate([g.opp for g in games])
        return self._errors(me, opp, np.concatenate([g.one_ply for g in games]))

    def _errors(self, me: np.ndarray, opp: np.ndarray, target: np.ndarray) -> dict[str, float]:
        """Error of the current nets against 1-ply targets they have not been trained on."""
        m = me.astype(np.int16)
        o = opp.astype(np.int16)
        probs = self.evaluator().probs(m, o)
        eq_err = self.vai.equity(probs) - self.vai.equity(target)
        eps = 1e-6
        ce = -(target * np.log(probs + eps) + (1 - target) * np.log(1 - probs + eps))
        return {"eq_rmse": float(np.sqrt(np.mean(eq_err**2))), "ce": float(ce.mean())}

    def _step(self) -> float:
        me, opp, target = self.buffer.sample(self.rng, self.settings.batch)
        m = me.astype(np.int16)
        o = opp.astype(np.int16)
        x = self.vai.encode(m, o, self.nets.n_in)
        phase = self.vai.phase(m, o)
        losses = []
        for k, name in enumerate(self.vai.phases):
            rows = np.flatnonzero(phase == k)
            if len(rows) < 8:
                continue
            net = self.nets.nets[name]
            grads, ce = gradients(net, x[rows], target[rows])
            opt = self.opts.setdefault(name, Adam(lr=self.settings.lr))
            opt.lr = self.settings.lr
            opt.step(net, grads)
            losses.append(ce)
        return float(np.mean(losses)) if losses else 0.0

    def save(self, state_dir: Path, *, with_buffer: bool = True) -> None:
        """Write ``weights.npz`` (no buffer) and, if asked, ``latest.npz`` (with it)."""
        meta = {
            "settings": {
                k: (list(v) if isinstance(v, tuple) else v)
                for k, v in ((f, getattr(self.settings, f)) for f in Settings.__slots__)
            },
            "rng": self.rng.bit_generator.state,
            "generation": self.generation,
            "games": self.games,
            "positions": self.positions,
            "seconds": self.seconds,
            "history": self.history[-2000:],
        }
        arrays = {"meta": np.array(json.dumps(meta))}
        for name, opt in self.opts.items():
            arrays.update(opt.state(name))
        self.nets.save(state_dir / "weights.npz", **arrays)
        if with_buffer:
            self.nets.save(state_dir / "latest.npz", **arrays, **self.buffer.state())
