"""A second, deliberately naive legal-play generator, written straight from RULES.md.

It shares no code with :mod:`engine.movegen` (only the :class:`Position` and :class:`Options`
value types): every step is checked against the rules as worded in RULES.md, every order of the
dice is tried, and C-23 is applied literally. It is far too slow for the bot, which is the
point: it is simple enough to read next to the rules, and the engine must agree with it on a
corpus of random positions (``test_reference.py``).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine import Options, Position

OFF, BAR = 0, 25
Board = tuple[int, ...]
Outcome = tuple[Board, Board]  # (mover, opponent), each in its own pips


def long_opp_point(p: int) -> int:
    """C-7: X's point p is O's point p + 12 (p <= 12) or p - 12 (p >= 13); an involution."""
    return p + 12 if p <= 12 else p - 12


def short_opp_point(p: int) -> int:
    """C-8: X's point p is O's point 25 - p."""
    return 25 - p


def illegal_block(me: Board, opp: Board, options: Options) -> bool:
    """L-15 … L-17 (and V-2): X holds six points in a row on O's route, O-24 … O-1 without
    wrapping, and no O checker is ahead of them (V-2: no O checker home or borne off)."""
    held = [False] * 25
    for q in range(1, 25):
        held[q] = me[long_opp_point(q)] > 0
    for lo in range(1, 20):
        if all(held[lo : lo + 6]):
            if options.block_needs_home:
                if not any(opp[0:7]):
                    return True
            elif not any(opp[0:lo]):
                return True
    return False


def head_limit(opp: Board, dice: tuple[int, int], first_turn: bool, options: Options) -> int:
    """L-8, L-11 … L-14, V-4, V-5: how many checkers may leave the head (X-24) this turn."""
    d1, d2 = dice
    if not first_turn or d1 != d2:
        return 1
    if options.first_turn_any_double:
        return 2
    if d1 not in (6, 4, 3):
        return 1
    if options.no_obstacle_clause:
        return 2
    point = 24 - d1  # L-12: the first O point on a lone checker's walk must be O's head, X-12
    while point >= 1:
        if opp[long_opp_point(point)]:
            return 2 if point == 12 else 1
        point -= d1
    return 1


def _all_home(me: Board) -> bool:
    """C-24 / S-19: every remaining checker on points 1-6 (and none on the bar)."""
    return sum(me[0:7]) == 15


def _bear_off_ok(me: Board, src: int, die: int) -> bool:
    """C-25 exact; C-26 a higher die only from the highest occupied point; C-27 otherwise no."""
    if src == die:
        return True
    return die > src and not any(me[src + 1 : 7])


def _moved(board: Board, src: int, dst: int) -> Board:
    out = list(board)
    out[src] -= 1
    out[dst] += 1
    return tuple(out)


def steps(
    variant: str,
    me: Board,
    opp: Board,
    die: int,
    *,
    heads_left: int,
    may_bear: bool,
    options: Options,
) -> Iterator[tuple[Board, Board, bool]]:
    """Every legal single step with ``die``: (mover, opponent, left the head)."""
    if variant == "short" and me[BAR]:  # S-11: enter first; S-12 entry on O's point d
        dst = BAR - die
        o = short_opp_point(dst)
        if opp[o] < 2:  # S-5
            new_opp = opp if opp[o] == 0 else _moved(opp, o, BAR)  # S-7
            yield _moved(me, BAR, dst), new_opp, False
        return
    for src in range(1, 25):
        if not me[src]:
            continue
        if variant == "long" and src == 24 and heads_left == 0:
            continue
        dst = src - die
        if dst >= 1:
            if variant == "long":
                if opp[long_opp_point(dst)]:  # L-6
                    continue
                new_me = _moved(me, src, dst)
                if not options.block_in_passing and illegal_block(new_me, opp, options):
                    continue  # L-17: checked after every step
                yield new_me, opp, src == 24
            else:
                o = short_opp_point(dst)
                if opp[o] >= 2:  # S-5
                    continue
                new_opp = opp if opp[o] == 0 else _moved(opp, o, BAR)
                yield _moved(me, src, dst), new_opp, False
        elif may_bear and _all_home(me) and _bear_off_ok(me, src, die):
            yield _moved(me, src, OFF), opp, src == 24


def outcomes(
    position: Position,
    dice: tuple[int, int],
    *,
    first_turn: bool = False,
    options: Options | None = None,
) -> set[Outcome]:
    """The legal outcomes of C-23 (final (mover, opponent) boards), by brute force."""
    opts = options or Options()
    variant = position.variant
    me0, opp0 = position.mover, position.opponent
    d1, d2 = dice
    roll = (d1,) * 4 if d1 == d2 else (d1, d2)
    full = len(roll)
    limit = head_limit(opp0, dice, first_turn, opts) if variant == "long" else 0
    # V-7: bearing off only on a turn that starts with all 15 checkers home.
    start_home = _all_home(me0)
    # final position -> (most dice used, set of single dice that reach it with one die)
    best: dict[Outcome, tuple[int, set[int]]] = {}
    seen: set[tuple[Board, Board, tuple[int, ...], int]] = set()

    def note(me: Board, opp: Board, used: tuple[int, ...]) -> None:
        count = full if me[OFF] == 15 else len(used)  # C-23 item 5
        if variant == "long" and opts.block_in_passing and illegal_block(me, opp, opts):
            return  # V-1: a play may not end with an illegal block
        key = (me, opp)
        old_count, singles = best.get(key, (-1, set()))
        if count > old_count:
            best[key] = (count, {used[0]} if len(used) == 1 else set())
        elif count == old_count and len(used) == 1:
            singles.add(used[0])

    def walk(me: Board, opp: Board, left: tuple[int, ...], used: tuple[int, ...], heads: int):
        note(me, opp, used)
        state = (me, opp, left, heads)
        if state in seen or me[OFF] == 15:
            return
        seen.add(state)
        for i, die in enumerate(left):
            if die in left[:i]:
                continue
            rest = left[:i] + left[i + 1 :]
            may_bear = start_home or not opts.bearoff_next_turn or variant == "short"
            for new_me, new_opp, from_head in steps(
                variant,
                me,
                opp,
                die,
                heads_left=limit - heads,
                may_bear=may_bear,
                options=opts,
            ):
                walk(new_me, new_opp, rest, (*used, die), heads + from_head)

    walk(me0, opp0, roll, (), 0)
    m = max(count for count, _ in best.values())
    kept = {key: singles for key, (count, singles) in best.items() if count == m}
    if d1 != d2 and m == 1:
        larger = max(dice)
        with_larger = {key for key, singles in kept.items() if larger in singles}
        if with_larger:  # C-20
            return with_larger
    return set(kept)
