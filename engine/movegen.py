"""Legal-play generation for both variants (RULES.md C-15 … C-31, L-6 … L-24, S-5 … S-22).

The method is the one of C-23: enumerate every sequence of single-die steps that is legal step
by step, keep the plays that use the most dice (a play that bears off the 15th checker counts as
using them all), then, for a non-double where only one die can be used, those that use the
larger die; deduplicate by final position. One step generator (:func:`_long_steps`,
:func:`_short_steps`) is the single source of step legality; everything else — whole-turn
enumeration, step-by-step input, validation — is built on it.

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

# Long nardy: X's point p is O's point ((p + 11) mod 24) + 1 (C-7); the map is its own inverse.
LONG_MAP: tuple[int, ...] = (0, *(((p + 11) % 24) + 1 for p in range(1, 25)), 25)
SHORT_MAP: tuple[int, ...] = (0, *(25 - p for p in range(1, 25)), 25)

EXCEPTION_DOUBLES = (6, 4, 3)  # L-11
NEVER = -1
ALWAYS = 99


@dataclass(slots=True)
class TurnContext:
    """What stays fixed during one turn: the roll, options and facts about the start position."""

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
    block_seen: bool = False

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
    """Compute the per-turn constants once, so the search only reads lists."""
    opts = options or Options()
    ctx = TurnContext(variant, (dice[0], dice[1]), first_turn, opts, me, opp)
    if variant == "long":
        ctx.opp_at = [0] * 26
        for p in range(1, 25):
            ctx.opp_at[p] = opp[LONG_MAP[p]]
        ctx.head_limit = _head_limit(ctx)
        ctx.block_per_step = not opts.block_in_passing
        if opts.block_needs_home:
            ctx.block_threshold = NEVER if any(opp[0:7]) else ALWAYS
        else:
            ctx.block_threshold = next(i for i in range(0, 25) if opp[i])
        if opts.bearoff_next_turn:
            ctx.bear_allowed_this_turn = not any(me[7:26])
    else:
        ctx.blocked = [False] * 26
        for p in range(1, 25):
            ctx.blocked[p] = opp[25 - p] >= 2
    return ctx


def _head_limit(ctx: TurnContext) -> int:
    """How many checkers may leave the head this turn (L-8, L-11 … L-14, V-4, V-5)."""
    d1, d2 = ctx.dice
    if not ctx.first_turn or d1 != d2:
        return 1
    opts = ctx.options
    if opts.first_turn_any_double:
        return 2
    if d1 not in EXCEPTION_DOUBLES:
        return 1
    if opts.no_obstacle_clause:
        return 2
    return 2 if _obstacle_is_head(ctx.opp_at, d1) else 1


def _obstacle_is_head(opp_at: list[int], die: int) -> bool:
    """L-12: walk a lone checker from 24 by ``die``; the first O point met must be X-12."""
    point = 24 - die
    while point > 0:
        if opp_at[point]:
            return point == 12
        point -= die
    return False


# --------------------------------------------------------------------------------------------
# Step generators: the one place where single-step legality lives.


def _long_run_illegal(me: list[int], landed: int, threshold: int) -> bool:
    """Whether X now holds 6+ consecutive points on O's route around ``landed`` (L-15) that
    no O checker has passed (L-16): a run [lo..hi] in O's pips is illegal iff lo <= threshold.
    """
    q = LONG_MAP[landed]
    if q - 5 > threshold:
        return False
    lo = q
    while lo > 1 and me[LONG_MAP[lo - 1]]:
        lo -= 1
    hi = q
    while hi < 24 and me[LONG_MAP[hi + 1]]:
        hi += 1
    return hi - lo >= 5 and lo <= threshold


def long_has_illegal_block(me: tuple[int, ...] | list[int], threshold: int) -> bool:
    """Whole-board check used by V-1 (block judged only at the end of the turn)."""
    if threshold < 1:
        return False
    run = 0
    for q in range(1, 25):
        if me[LONG_MAP[q]]:
            run += 1
            if run >= 6 and q - run + 1 <= threshold:
                return True
        else:
            run = 0
    return False


def _long_steps(
    ctx: TurnContext, me: list[int], dice: tuple[int, ...], heads: int, max_src: int
) -> list[RawStep]:
    """Legal single steps for long nardy from the current state (no hitting, L-6)."""
    out: list[RawStep] = []
    opp_at = ctx.opp_at
    can_bear = ctx.bear_allowed_this_turn and not any(me[7:25])
    per_step = ctx.block_per_step
    threshold = ctx.block_threshold
    seen_die = 0
    for d in dice:
        if d == seen_die:
            continue
        seen_die = d
        for s in range(min(max_src, 24), 0, -1):
            if not me[s]:
                continue
            if s == 24 and heads >= ctx.head_limit:
                continue
            t = s - d
            if t > 0:
                if opp_at[t]:
                    continue
                if per_step and not me[t] and threshold >= 1:
                    me[s] -= 1
                    me[t] += 1
                    bad = _long_run_illegal(me, t, threshold)
                    me[s] += 1
                    me[t] -= 1
                    if bad:
                        ctx.block_seen = True
                        continue
                out.append((s, t, d, False))
            elif can_bear and (t == 0 or not any(me[s + 1 : 7])):
                out.append((s, OFF, d, False))
    return out


def _short_steps(
    ctx: TurnContext, me: list[int], opp: list[int], dice: tuple[int, ...], max_src: int
) -> list[RawStep]:
    """Legal single steps for short nardy: bar first (S-11), open points (S-5), hits (S-7)."""
    out: list[RawStep] = []
    blocked = ctx.blocked
    seen_die = 0
    if me[BAR]:
        for d in dice:
            if d == seen_die:
                continue
            seen_die = d
            t = BAR - d
            if not blocked[t]:
                out.append((BAR, t, d, opp[BAR - t] == 1))
        return out
    can_bear = not any(me[7:25])
    for d in dice:
        if d == seen_die:
            continue
        seen_die = d
        for s in range(min(max_src, 24), 0, -1):
            if not me[s]:
                continue
            t = s - d
            if t > 0:
                if blocked[t]:
                    continue
                out.append((s, t, d, opp[25 - t] == 1))
            elif can_bear and (t == 0 or not any(me[s + 1 : 7])):
                out.append((s, OFF, d, False))
    return out


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
    long = ctx.variant == "long"
    full = ctx.dice_count
    end_check = long and not ctx.block_per_step and ctx.block_threshold >= 1
    threshold = ctx.block_threshold
    if canonical is None:
        canonical = ctx.is_double
    visited: set | None = None if canonical else set()
    start24 = ctx.start_me[24]
    steps: list[RawStep] = list(prefix)

    def record(depth: int) -> Key:
        me_t = tuple(me)
        if long:
            key: Key = me_t
            opp_t = ctx.start_opp
        else:
            opp_t = tuple(opp)
            key = (me_t, opp_t)
        if me_t[OFF] == CHECKERS:
            depth = full
        if end_check and long_has_illegal_block(me_t, threshold):
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
        if long:
            cand = _long_steps(ctx, me, remaining, start24 - me[24], max_src)
        else:
            cand = _short_steps(ctx, me, opp, remaining, max_src)
        for step in cand:
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
    if ctx.is_double and ctx.variant == "long" and ctx.block_seen:
        # A per-step block check makes the order of equal dice matter; search every order.
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
    long = ctx.variant == "long"
    start24 = ctx.start_me[24]
    if long:
        cand = _long_steps(ctx, me, remaining, start24 - me[24], 25)
    else:
        cand = _short_steps(ctx, me, opp, remaining, 25)
    good: list[RawStep] = []
    for step in cand:
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
    if ctx.variant == "long":
        return _long_steps(ctx, me, remaining, ctx.start_me[24] - me[24], 25)
    return _short_steps(ctx, me, opp, remaining, 25)
