"""Legal-play generation shared by every variant (RULES.md C-15 … C-31).

The method is the one of C-23: enumerate every sequence of single-die steps that is legal step
by step, keep the plays that use the most dice (a play that bears off the 15th checker counts as
using them all), then, for a non-double where only one die can be used, those that use the
larger die; deduplicate by final position. Single-step legality is the variant's: its class
(:mod:`engine.long_nardy`, :mod:`engine.short_nardy`) puts its step generator and per-turn
facts into the :class:`TurnContext` once, and the search here only reads them — whole-turn
enumeration, step-by-step input and validation are all built on that one generator.

Internals work on mutable lists and plain tuples ``(src, dst, die, hit)`` because this is the
hot path of the bot and of the computer opponent; the public API wraps them into values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.options import Options
from engine.position import BAR, CHECKERS, OFF

RawStep = tuple[int, int, int, bool]
Key = tuple
# A variant's single-step generator: (ctx, mover, opponent, dice left, highest source) -> steps.
StepGen = Callable[["TurnContext", list[int], list[int], tuple[int, ...], int], list[RawStep]]

NEVER = -1
ALWAYS = 99


def _unprepared(
    ctx: TurnContext, me: list[int], opp: list[int], dice: tuple[int, ...], max_src: int
) -> list[RawStep]:
    raise TypeError("a TurnContext must be prepared by its variant (Variant.turn_context)")


@dataclass(slots=True)
class TurnContext:
    """What stays fixed during one turn: the roll, options and facts about the start position.

    The variant's :meth:`~engine.variant.Variant.prepare` fills the fields after ``start_opp``:
    ``step_gen`` (its step generator), ``closed`` (truthy where one die may not land),
    ``keys_opponent`` (the opponent's board is part of a position's key: steps can hit),
    ``rejects_final`` (a final position that may not end the turn, or None), and its own facts
    (long nardy: ``head_limit``, ``block_*``, ``opp_at``; short nardy: ``blocked``).
    """

    variant: str
    dice: tuple[int, int]
    first_turn: bool
    options: Options
    start_me: tuple[int, ...]
    start_opp: tuple[int, ...]
    head_limit: int = 1
    block_threshold: int = NEVER
    block_per_step: bool = True
    bear_allowed_this_turn: bool = True
    opp_at: list[int] = field(default_factory=list)
    blocked: list[bool] = field(default_factory=list)
    block_seen: bool = False  # a step was refused for an order-dependent reason (re-search)
    step_gen: StepGen = _unprepared
    closed: list = field(default_factory=list)
    keys_opponent: bool = True
    rejects_final: Callable[[tuple[int, ...]], bool] | None = None

    @property
    def is_double(self) -> bool:
        return self.dice[0] == self.dice[1]

    @property
    def dice_count(self) -> int:
        return 4 if self.is_double else 2

    def all_dice(self) -> tuple[int, ...]:
        d1, d2 = self.dice
        return (d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2))


def make_context(
    variant: str,
    me: tuple[int, ...],
    opp: tuple[int, ...],
    dice: tuple[int, int],
    *,
    first_turn: bool = False,
    options: Options | None = None,
) -> TurnContext:
    """Compute the per-turn constants once (the variant's part by its class), so the search
    only reads lists."""
    from engine.variants import get_variant  # the variant modules import this one

    return get_variant(variant).turn_context(me, opp, dice, first_turn=first_turn, options=options)


# A hit (only a variant with ``can_hit`` makes one) sends the opponent's checker on the
# mover's point t — the opponent's point 25 - t, C-8 — to the bar.
def _apply(me: list[int], opp: list[int], step: RawStep) -> None:
    s, t, _, hit = step
    me[s] -= 1
    me[t] += 1
    if hit:
        opp[25 - t] -= 1
        opp[BAR] += 1


def _undo(me: list[int], opp: list[int], step: RawStep) -> None:
    s, t, _, hit = step
    me[s] += 1
    me[t] -= 1
    if hit:
        opp[25 - t] += 1
        opp[BAR] -= 1


def _remove_one(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    i = dice.index(die)
    return dice[:i] + dice[i + 1 :]


# --------------------------------------------------------------------------------------------
# Search.

# A node record: (dice used, steps, mover board, opponent board).
Node = tuple[int, tuple[RawStep, ...], tuple[int, ...], tuple[int, ...]]


def search(
    ctx: TurnContext,
    me: list[int],
    opp: list[int],
    dice: tuple[int, ...],
    prefix: tuple[RawStep, ...] = (),
    *,
    canonical: bool | None = None,
) -> dict[Key, Node]:
    """Every position reachable from the given state with some of ``dice``, by final position.

    Each record keeps the most dice used to reach it (counting a game-ending bear-off as all
    dice, C-23 item 5) and the first step sequence found. Under V-1 a position with an illegal
    block is expanded but not recorded, because it can never end a turn.
    """
    out: dict[Key, Node] = {}
    keys_opp = ctx.keys_opponent
    full = ctx.dice_count
    rejects = ctx.rejects_final
    gen = ctx.step_gen
    if canonical is None:
        canonical = ctx.is_double
    visited: set | None = None if canonical else set()
    steps: list[RawStep] = list(prefix)

    def record(depth: int) -> Key:
        me_t = tuple(me)
        if keys_opp:
            opp_t = tuple(opp)
            key: Key = (me_t, opp_t)
        else:
            key = me_t
            opp_t = ctx.start_opp
        if me_t[OFF] == CHECKERS:
            depth = full
        if rejects is not None and rejects(me_t):
            return key
        old = out.get(key)
        if old is None or old[0] < depth:
            out[key] = (depth, tuple(steps), me_t, opp_t)
        return key

    def rec(remaining: tuple[int, ...], max_src: int) -> None:
        key = record(len(steps))
        if not remaining or me[OFF] == CHECKERS:
            return
        if visited is not None:
            vkey = (key, remaining)
            if vkey in visited:
                return
            visited.add(vkey)
        for step in gen(ctx, me, opp, remaining, max_src):
            _apply(me, opp, step)
            steps.append(step)
            rec(_remove_one(remaining, step[2]), step[0] if canonical else 25)
            steps.pop()
            _undo(me, opp, step)

    rec(dice, 25)
    return out


def generate(ctx: TurnContext) -> list[Node]:
    """The legal plays of a whole turn (C-23), one per distinct final position."""
    dice = ctx.all_dice()
    me = list(ctx.start_me)
    opp = list(ctx.start_opp)
    nodes = search(ctx, me, opp, dice)
    if ctx.is_double and ctx.block_seen:
        # A per-step check (long nardy's block) makes the order of equal dice matter: search
        # every order.
        nodes = search(ctx, list(ctx.start_me), list(ctx.start_opp), dice, canonical=False)
    return select_legal(ctx, nodes)


def select_legal(ctx: TurnContext, nodes: dict[Key, Node]) -> list[Node]:
    """Apply the maximal-use filters of C-23 to every reachable position."""
    if not nodes:
        return []
    best = max(n[0] for n in nodes.values())
    kept = [n for n in nodes.values() if n[0] == best]
    if best == 1 and not ctx.is_double:
        high = max(ctx.dice)
        with_high = [n for n in kept if n[1][0][2] == high]
        if with_high:
            kept = with_high
    return kept


StepFilter = Callable[[RawStep], bool]


def legal_first_steps(
    ctx: TurnContext,
    legal_keys: set[Key],
    me: list[int],
    opp: list[int],
    remaining: tuple[int, ...],
    prefix: tuple[RawStep, ...],
) -> list[RawStep]:
    """Steps from a partly played turn that still lead to a legal final position (C-23 item 6)."""
    good: list[RawStep] = []
    for step in ctx.step_gen(ctx, me, opp, remaining, 25):
        _apply(me, opp, step)
        try:
            reach = search(
                ctx, me, opp, _remove_one(remaining, step[2]), (*prefix, step), canonical=False
            )
        finally:
            _undo(me, opp, step)
        if any(k in legal_keys for k in reach):
            good.append(step)
    return good


def raw_single_steps(
    ctx: TurnContext, me: list[int], opp: list[int], remaining: tuple[int, ...]
) -> list[RawStep]:
    """Single steps that are legal by themselves, ignoring the maximal-use rules."""
    return ctx.step_gen(ctx, me, opp, remaining, 25)


_MOVED = {
    "LONG_MAP": ("engine.long_nardy", "LONG_MAP"),
    "SHORT_MAP": ("engine.short_nardy", "SHORT_MAP"),
    "EXCEPTION_DOUBLES": ("engine.long_nardy", "EXCEPTION_DOUBLES"),
    "long_has_illegal_block": ("engine.long_nardy", "has_illegal_block"),
}


def __getattr__(name: str) -> object:
    """Names that moved into the variant modules, still readable here (PEP 562)."""
    if name in _MOVED:
        import importlib

        module, attr = _MOVED[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
