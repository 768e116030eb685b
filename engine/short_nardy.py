"""Короткие нарды (backgammon): hitting, the bar, entering (RULES.md §3).

The step generator here is the single source of short nardy's step legality (S-5 … S-22);
the shared search in :mod:`engine.movegen` calls it through ``TurnContext.step_gen``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.movegen import RawStep, TurnContext
from engine.options import Options
from engine.position import BAR, OFF, Position, Side, VariantName
from engine.result import ResultKind
from engine.rules import Reason
from engine.variant import Variant

if TYPE_CHECKING:
    from engine.turn import Turn

# X's point p is O's point 25 - p (C-8).
SHORT_MAP: tuple[int, ...] = (0, *(25 - p for p in range(1, 25)), 25)


def short_steps(
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


class ShortNardy(Variant):
    """Короткие нарды (backgammon): hitting, the bar, entering (RULES.md §3)."""

    name = VariantName.SHORT
    title_ru = "Короткие нарды"
    title_en = "Short nardy"
    aliases = ("короткие", "backgammon")
    has_bar = True
    can_hit = True
    point_map = SHORT_MAP
    cube_by_default = True  # M-14
    keeps_colours = True  # S-3, M-18: a match keeps its first game's colours
    blocked_reason = Reason.BLOCKED_SHORT

    def start_board(self) -> tuple[int, ...]:
        return Position.board_from_mapping({24: 2, 13: 5, 8: 3, 6: 5})

    def prepare(self, ctx: TurnContext) -> None:
        opp = ctx.start_opp
        ctx.step_gen = short_steps
        ctx.blocked = [False] * 26
        for p in range(1, 25):
            ctx.blocked[p] = opp[25 - p] >= 2
        ctx.closed = ctx.blocked

    # ---- diagnosis ----------------------------------------------------------------------------

    def precheck(self, turn: Turn, src: int, dst: int) -> Reason | None:
        """A checker on the bar enters first (S-11) and blocks bearing off (S-19, S-20)."""
        if not turn.current.mover[BAR]:
            return None
        if dst == OFF:
            return Reason.BEAROFF_FROM_BAR
        return Reason.BAR_FIRST if src != BAR else None

    def closed_reason(self, src: int) -> Reason:
        return Reason.ENTRY_CLOSED if src == BAR else Reason.BLOCKED_SHORT

    # ---- scoring ----------------------------------------------------------------------------

    def board_result_kind(self, position: Position, winner: Side, options: Options) -> ResultKind:
        """Koks with a loser's checker on the bar or in the winner's home (M-6), else mars."""
        loser = position.board(winner.other)
        if loser[BAR] or any(loser[19:25]):
            return ResultKind.KOKS
        return ResultKind.MARS

    # ---- game flow ----------------------------------------------------------------------------

    def lot_is_first_roll(self, options: Options) -> bool:
        """S-4: the lot's winner plays the two numbers of the lot."""
        return True

    def next_game_starter(self, winner_seat: int, black_seat: int, options: Options) -> int | None:
        """M-18: every game of a match opens with a new lot."""
        return None
