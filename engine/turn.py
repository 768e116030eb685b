"""A turn being played: legal plays, step-by-step input with undo, and validation that explains.

One source of legality (STYLE habit 5): the whole-turn plays come from :mod:`engine.movegen`;
a step is accepted iff it leads on to one of those plays' final positions, and a whole play iff
its final position is one of them. Only when something is rejected does :func:`diagnose`
look for the first rule it breaks, to tell the player why.
"""

from __future__ import annotations

from itertools import pairwise, permutations

from engine import movegen
from engine.notation import Segment, format_steps, parse_segments
from engine.options import Options
from engine.position import OFF, Position
from engine.rules import IllegalMoveError, Reason
from engine.step import Play, Step
from engine.variants import Variant, get_variant


class Turn:
    """The state of one turn: start position, roll, and the steps entered so far.

    Immutable in use: :meth:`step`, :meth:`undo` and :meth:`apply_text` return new turns that
    share the (expensive) legal-play list of the turn.
    """

    __slots__ = (
        "_legal",
        "_legal_keys",
        "_next_steps",
        "ctx",
        "current",
        "dice",
        "first_turn",
        "options",
        "start",
        "steps",
        "variant",
    )

    def __init__(
        self,
        start: Position,
        dice: tuple[int, int],
        *,
        first_turn: bool = False,
        options: Options | None = None,
        steps: tuple[Step, ...] = (),
        _shared: tuple[movegen.TurnContext, list[Play], set] | None = None,
    ) -> None:
        self.variant: Variant = get_variant(start.variant)
        self.start = start
        self.dice = (int(dice[0]), int(dice[1]))
        self.first_turn = first_turn
        self.options = options or Options()
        if _shared is None:
            ctx = self.variant.context(
                start, self.dice, first_turn=first_turn, options=self.options
            )
            nodes = movegen.generate(ctx)
            legal = [self.variant.node_to_play(start, n) for n in nodes]
            if not legal:
                legal = [Play((), start)]
            keys = {self.variant.position_key(p.result) for p in legal}
            _shared = (ctx, legal, keys)
        self.ctx, self._legal, self._legal_keys = _shared
        self.steps = steps
        self.current = _replay(start, steps)
        self._next_steps: list[Step] | None = None

    # ---- facts --------------------------------------------------------------------------

    @property
    def legal_plays(self) -> list[Play]:
        return self._legal

    @property
    def has_moves(self) -> bool:
        """False when the roll cannot be played at all (C-18: the turn passes)."""
        return bool(self._legal[0].steps)

    @property
    def single_play(self) -> Play | None:
        """The only legal play, when there is exactly one (the bot plays it automatically)."""
        return self._legal[0] if len(self._legal) == 1 else None

    @property
    def remaining_dice(self) -> tuple[int, ...]:
        left = list(self.ctx.all_dice())
        for s in self.steps:
            left.remove(s.die)
        return tuple(left)

    @property
    def max_dice(self) -> int:
        """How many dice a legal play of this turn uses (0 for a pass)."""
        return max(len(p.steps) for p in self._legal)

    def is_complete(self) -> bool:
        """Whether the steps entered so far form a complete legal play (C-23 item 6)."""
        return self.variant.position_key(self.current) in self._legal_keys

    def legal_steps(self) -> list[Step]:
        """Steps that can be played next and still complete into a legal play."""
        if self._next_steps is not None:
            return list(self._next_steps)
        if self.current.is_finished():
            self._next_steps = []
            return []
        me, opp = list(self.current.mover), list(self.current.opponent)
        raw_prefix = tuple((s.src, s.dst, s.die, s.hit) for s in self.steps)
        raw = movegen.legal_first_steps(
            self.ctx, self._legal_keys, me, opp, self.remaining_dice, raw_prefix
        )
        self._next_steps = [Step(*r) for r in raw]
        return list(self._next_steps)

    # ---- input ----------------------------------------------------------------------------

    def with_step(self, step: Step) -> Turn:
        return Turn(
            self.start,
            self.dice,
            first_turn=self.first_turn,
            options=self.options,
            steps=(*self.steps, step),
            _shared=(self.ctx, self._legal, self._legal_keys),
        )

    def step(self, src: int, dst: int, die: int | None = None) -> Turn:
        """Play one checker from ``src`` to ``dst`` (one die); raises IllegalMoveError."""
        options = [s for s in self.legal_steps() if s.src == src and s.dst == dst]
        if die is not None:
            options = [s for s in options if s.die == die]
        if not options:
            raise IllegalMoveError(diagnose(self, src, dst), step=(src, dst))
        # Prefer the exact die; for a bear-off with a larger die, the smallest that works.
        options.sort(key=lambda s: (s.src - s.dst != s.die, s.die))
        return self.with_step(options[0])

    def undo(self) -> Turn:
        """Take back the last step (C-33: steps may be undone until the turn is confirmed)."""
        if not self.steps:
            return self
        return Turn(
            self.start,
            self.dice,
            first_turn=self.first_turn,
            options=self.options,
            steps=self.steps[:-1],
            _shared=(self.ctx, self._legal, self._legal_keys),
        )

    def reset(self) -> Turn:
        return Turn(
            self.start,
            self.dice,
            first_turn=self.first_turn,
            options=self.options,
            _shared=(self.ctx, self._legal, self._legal_keys),
        )

    def finish(self) -> Play:
        """The completed play; raises IllegalMoveError(INCOMPLETE) if more must be played."""
        if not self.is_complete():
            raise IllegalMoveError(Reason.INCOMPLETE, "the play is not complete yet")
        for play in self._legal:
            if play.result == self.current:
                return Play(self.steps, self.current) if self.steps else play
        raise AssertionError("complete turn without a matching play")  # pragma: no cover

    def apply_text(self, text: str) -> Turn:
        """Play the steps written in ``text`` (RULES.md notation) on top of this turn.

        The text may be a whole play or a part of it. Segments may come in any order and one
        segment may span several dice (``24/13`` with 6-5). Raises NotationError for bad
        syntax and IllegalMoveError, naming the first broken rule, for an illegal move.
        """
        segments = parse_segments(text)
        if not segments:
            if self.steps or self.has_moves:
                raise IllegalMoveError(Reason.MUST_MOVE, "there is a legal move")
            return self
        try:
            return self._apply_segments(segments)
        except IllegalMoveError as error:
            # With a double, stops are fixed: retry with each multi-die segment split, so that
            # other segments' steps can come in between (``bar/21(2)`` with 2-2 enters both
            # checkers before either moves on, S-11). The first error stays the explanation.
            if self.dice[0] != self.dice[1]:
                raise
            split = _split_double_segments(segments, self.dice[0])
            if split == segments or len(split) > len(self.remaining_dice):
                raise
            try:
                return self._apply_segments(split)
            except IllegalMoveError:
                raise error from None

    def _apply_segments(self, segments: list[Segment]) -> Turn:
        best_error: IllegalMoveError | None = None
        best_depth = -1
        tried: set[tuple[Segment, ...]] = set()
        for order in permutations(segments):
            if order in tried:
                continue
            tried.add(order)
            result, depth, error = _resolve(self, list(order))
            if result is not None:
                return result
            if error is not None and depth > best_depth:
                best_error, best_depth = error, depth
        assert best_error is not None
        raise best_error

    def play_text(self, text: str) -> Play:
        """Validate a whole play written in notation and return it."""
        return self.apply_text(text).finish()

    def notation(self) -> str:
        return format_steps(self.steps)


def _replay(start: Position, steps: tuple[Step, ...]) -> Position:
    if not steps:
        return start
    me, opp = list(start.mover), list(start.opponent)
    for s in steps:
        movegen._apply(me, opp, (s.src, s.dst, s.die, s.hit))
    return start.with_boards(tuple(me), tuple(opp))


def _resolve(
    turn: Turn, segments: list[Segment]
) -> tuple[Turn | None, int, IllegalMoveError | None]:
    """Depth-first: try to realise the segments in order as legal steps (a segment may take
    several dice of one checker). Returns (turn, -, None) or (None, depth reached, error)."""
    if not segments:
        return turn, 0, None
    seg = segments[0]
    best: tuple[int, IllegalMoveError | None] = (-1, None)
    paths = _segment_paths(turn, seg.src, seg.dst)
    # A written '*' asks for the hitting route, its absence for a quiet one, where both exist.
    paths.sort(key=lambda t: _path_hits(t, len(turn.steps)) != seg.hit)
    if not paths:
        err = IllegalMoveError(diagnose(turn, seg.src, seg.dst), step=(seg.src, seg.dst))
        return None, 0, err
    for path in paths:
        result, depth, error = _resolve(path, segments[1:])
        if result is not None:
            return result, depth, None
        if depth + 1 > best[0]:
            best = (depth + 1, error)
    return None, best[0], best[1]


def _split_double_segments(segments: list[Segment], die: int) -> list[Segment]:
    """Each segment over several dice of a double, cut at its fixed stops (``bar/21`` with
    2-2 becomes bar/23 and 23/21)."""
    out: list[Segment] = []
    for seg in segments:
        end = 0 if seg.dst == OFF else seg.dst
        distance = seg.src - end
        if distance > die and distance % die == 0:
            stops = list(range(seg.src - die, end, -die))
            out.extend(Segment(a, b) for a, b in pairwise([seg.src, *stops]))
            out.append(Segment(stops[-1], seg.dst, seg.hit))
        else:
            out.append(seg)
    return out


def _path_hits(turn: Turn, since: int) -> bool:
    return any(s.hit for s in turn.steps[since:])


def _segment_paths(turn: Turn, src: int, dst: int) -> list[Turn]:
    """All ways to bring one checker from ``src`` to ``dst`` with legal steps of this turn."""
    found: list[Turn] = []
    seen: set[tuple] = set()

    def walk(t: Turn, at: int) -> None:
        for s in t.legal_steps():
            if s.src != at:
                continue
            if s.dst == dst:
                nt = t.with_step(s)
                k = (nt.variant.position_key(nt.current), nt.remaining_dice)
                if k not in seen:
                    seen.add(k)
                    found.append(nt)
            elif (dst != OFF and s.dst > dst) or (dst == OFF and s.dst != OFF):
                walk(t.with_step(s), s.dst)

    walk(turn, src)
    return found


# --------------------------------------------------------------------------------------------
# Diagnosis: which rule does a rejected step break?


def diagnose(turn: Turn, src: int, dst: int) -> Reason:
    """The first rule (RULES.md §8.1) broken by moving ``src`` -> ``dst`` now.

    The order of the checks is shared; the variant answers its own questions (the bar, closed
    points, the head and the block) through :class:`engine.variant.Variant`'s hooks.
    """
    ctx = turn.ctx
    variant = turn.variant
    pos = turn.current
    me = pos.mover
    remaining = turn.remaining_dice
    if pos.is_finished():
        return Reason.GAME_OVER
    if src == OFF or not 1 <= src <= 25 or me[src] == 0:
        return Reason.NO_CHECKER
    if dst != OFF and dst >= src:
        return Reason.BACKWARDS
    reason = variant.precheck(turn, src, dst)  # before bearing off: S-19/S-20 cite the bar
    if reason is not None:
        return reason
    if dst == OFF:
        return _diagnose_bearoff(turn, src)
    distance = src - dst
    if distance not in remaining:
        routes = _combined_routes(distance, remaining)
        if routes:
            return _diagnose_combined(turn, src, dst, routes)
        return Reason.WRONG_DISTANCE
    if ctx.closed[dst]:
        return variant.closed_reason(src)
    reason = variant.step_rule(turn, src, dst)
    if reason is not None:
        return reason
    return _not_maximal_reason(turn, src, dst)


def _combined_routes(distance: int, remaining: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Orders of two or more unused dice that add up to ``distance`` (one checker, C-16)."""
    routes = {
        order
        for n in range(2, len(remaining) + 1)
        for order in permutations(remaining, n)
        if sum(order) == distance
    }
    return sorted(routes)


def _diagnose_combined(turn: Turn, src: int, dst: int, routes: list[tuple[int, ...]]) -> Reason:
    """Why one checker cannot travel ``src`` -> ``dst`` over several dice (C-17).

    A closed destination is L-6/S-5; if every order of the dice stops on a closed point on
    the way, the intermediate stop is the reason (C-17; entering, S-13); otherwise the first
    refused step of an open route names the rule (head, block, maximal use …).
    """
    closed = turn.ctx.closed
    if closed[dst]:
        return turn.variant.blocked_reason
    open_routes = []
    for route in routes:
        stops = [src - sum(route[:i]) for i in range(1, len(route))]
        if not any(closed[p] for p in stops):
            open_routes.append(route)
    if not open_routes:
        return Reason.INTERMEDIATE_BLOCKED
    for route in open_routes:
        t, point = turn, src
        try:
            for die in route:
                t = t.step(point, point - die, die)
                point -= die
        except IllegalMoveError as exc:
            return exc.reason
    return _not_maximal_reason(turn)  # pragma: no cover - a path would have been found


def _diagnose_bearoff(turn: Turn, src: int) -> Reason:
    ctx = turn.ctx
    me = turn.current.mover
    if any(me[7:25]):
        return Reason.BEAROFF_NOT_HOME
    if not ctx.bear_allowed_this_turn:
        return Reason.BEAROFF_NEXT_TURN
    remaining = turn.remaining_dice
    if src in remaining:
        return _not_maximal_reason(turn, src, OFF)
    if any(d > src for d in remaining):
        if any(me[src + 1 : 7]):
            return Reason.BEAROFF_HIGHER_OCCUPIED
        return _not_maximal_reason(turn, src, OFF)
    return Reason.BEAROFF_SMALLER_DIE


def _not_maximal_reason(turn: Turn, src: int | None = None, dst: int | None = None) -> Reason:
    """The step is legal by itself but cannot be part of a maximal play (C-19 … C-21)."""
    if turn.dice[0] == turn.dice[1]:
        return Reason.NOT_MAXIMAL_DOUBLE
    if turn.max_dice == 1 and src is not None and dst is not None:
        die = src - dst if dst != OFF else None
        if die is not None and die == min(turn.dice):
            return Reason.LARGER_DIE
        if dst == OFF and src <= min(turn.dice) < max(turn.dice):
            return Reason.LARGER_DIE
    if turn.max_dice == 1:
        return Reason.LARGER_DIE
    return Reason.NOT_MAXIMAL
