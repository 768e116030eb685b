"""Длинные нарды: no hitting, a head, the six-point block rule (RULES.md §2).

The step generator here is the single source of long nardy's step legality (L-6 … L-24); the
shared search in :mod:`engine.movegen` calls it through ``TurnContext.step_gen``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.movegen import ALWAYS, NEVER, RawStep, TurnContext
from engine.options import LongScoring, Options
from engine.position import CHECKERS, OFF, Position, Side, VariantName
from engine.result import MULTIPLIER, ResultKind
from engine.rules import Reason
from engine.variant import Variant

if TYPE_CHECKING:
    from engine.turn import Turn

# X's point p is O's point ((p + 11) mod 24) + 1 (C-7); the map is its own inverse.
LONG_MAP: tuple[int, ...] = (0, *(((p + 11) % 24) + 1 for p in range(1, 25)), 25)
HEAD = 24  # L-2: every checker starts on the head
EXCEPTION_DOUBLES = (6, 4, 3)  # L-11


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
    point = HEAD - die
    while point > 0:
        if opp_at[point]:
            return point == 12
        point -= die
    return False


def _run_illegal(me: list[int], landed: int, threshold: int) -> bool:
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


def has_illegal_block(me: tuple[int, ...] | list[int], threshold: int) -> bool:
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


def long_steps(
    ctx: TurnContext, me: list[int], opp: list[int], dice: tuple[int, ...], max_src: int
) -> list[RawStep]:
    """Legal single steps for long nardy from the current state (no hitting, L-6)."""
    out: list[RawStep] = []
    opp_at = ctx.opp_at
    heads = ctx.start_me[HEAD] - me[HEAD]
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
            if s == HEAD and heads >= ctx.head_limit:
                continue
            t = s - d
            if t > 0:
                if opp_at[t]:
                    continue
                if per_step and not me[t] and threshold >= 1:
                    me[s] -= 1
                    me[t] += 1
                    bad = _run_illegal(me, t, threshold)
                    me[s] += 1
                    me[t] -= 1
                    if bad:
                        ctx.block_seen = True
                        continue
                out.append((s, t, d, False))
            elif can_bear and (t == 0 or not any(me[s + 1 : 7])):
                out.append((s, OFF, d, False))
    return out


class LongNardy(Variant):
    """Длинные нарды: no hitting, a head, the six-point block rule (RULES.md §2)."""

    name = VariantName.LONG
    title_ru = "Длинные нарды"
    title_en = "Long nardy"
    aliases = ("длинные",)
    has_bar = False
    can_hit = False
    point_map = LONG_MAP
    cube_by_default = False  # M-14
    keeps_colours = False  # M-17: colours swap between games
    blocked_reason = Reason.BLOCKED_LONG

    def start_board(self) -> tuple[int, ...]:
        return Position.board_from_mapping({HEAD: CHECKERS})

    def prepare(self, ctx: TurnContext) -> None:
        opp, me, opts = ctx.start_opp, ctx.start_me, ctx.options
        ctx.step_gen = long_steps
        ctx.opp_at = [0] * 26
        for p in range(1, 25):
            ctx.opp_at[p] = opp[LONG_MAP[p]]
        ctx.closed = ctx.opp_at
        ctx.head_limit = _head_limit(ctx)
        ctx.block_per_step = not opts.block_in_passing
        if opts.block_needs_home:
            ctx.block_threshold = NEVER if any(opp[0:7]) else ALWAYS
        else:
            ctx.block_threshold = next(i for i in range(0, 25) if opp[i])
        if opts.bearoff_next_turn:
            ctx.bear_allowed_this_turn = not any(me[7:26])
        if not ctx.block_per_step and ctx.block_threshold >= 1:
            threshold = ctx.block_threshold
            ctx.rejects_final = lambda board: has_illegal_block(board, threshold)

    # ---- diagnosis ----------------------------------------------------------------------------

    def step_rule(self, turn: Turn, src: int, dst: int) -> Reason | None:
        """The head (L-8 … L-14) and the six-point block (L-16, L-17, V-1, V-2)."""
        ctx = turn.ctx
        me = turn.current.mover
        if src == HEAD and ctx.start_me[HEAD] - me[HEAD] >= ctx.head_limit:
            return _head_reason(turn)
        raw = long_steps(ctx, list(me), list(turn.current.opponent), turn.remaining_dice, 25)
        if not any(r[0] == src and r[1] == dst for r in raw):
            return Reason.SIX_BLOCK_HOME if ctx.options.block_needs_home else Reason.SIX_BLOCK
        if not ctx.block_per_step:
            after = list(me)
            after[src] -= 1
            after[dst] += 1
            if has_illegal_block(after, ctx.block_threshold):
                return Reason.SIX_BLOCK_END
        return None

    # ---- scoring ----------------------------------------------------------------------------

    def board_result_kind(self, position: Position, winner: Side, options: Options) -> ResultKind:
        """Mars (M-2); V-8 counts all fifteen still at home as a home mars."""
        loser = position.board(winner.other)
        if options.long_scoring is LongScoring.HOME_MARS and sum(loser[1:7]) == CHECKERS:
            return ResultKind.HOME_MARS
        return ResultKind.MARS

    def result_points(
        self, position: Position, kind: ResultKind, winner: Side, options: Options
    ) -> int:
        """V-9: an ordinary win counts the loser's checkers left instead of 1 or 2."""
        if options.long_scoring is LongScoring.CHECKERS_LEFT and kind in (
            ResultKind.OIN,
            ResultKind.MARS,
        ):
            return CHECKERS - position.board(winner.other)[OFF]
        return MULTIPLIER[kind]

    # ---- game flow ----------------------------------------------------------------------------

    def lot_is_first_roll(self, options: Options) -> bool:
        """L-5: the lot's winner rolls again, unless V-3 plays the lot's numbers."""
        return options.first_move_lot_dice

    def next_game_starter(self, winner_seat: int, black_seat: int, options: Options) -> int | None:
        """M-17: last game's black starts as white; V-12: the winner starts."""
        return winner_seat if options.winner_starts_next else black_seat


def _head_reason(turn: Turn) -> Reason:
    if turn.ctx.head_limit > 1:
        return Reason.HEAD_FIRST_TURN  # L-11: even the exception frees only a second checker
    d1, d2 = turn.dice
    if turn.first_turn and d1 == d2:
        if d1 in EXCEPTION_DOUBLES:
            return Reason.HEAD_OBSTACLE
        return Reason.HEAD_FIRST_TURN
    return Reason.HEAD
