"""Questions about the position on the table: «почему нельзя 13/7?», "why can't I bear off?".

Two pure steps, so that the bot only finds the game and words the result:

1. :func:`parse_intent` reads what a player's question asks about: a written move
   («13/7», «с 13 на 7», "6/off"), a point («куда можно с 24», «с головы», the bar), bearing
   off, or "what can I play at all". A question that names none of these is not a position
   question (``None``): the topic matcher answers it.
2. :func:`explain` answers the intent from the engine on the current turn (position, dice,
   steps already entered): the exact rule a move breaks (the engine's
   :class:`~engine.IllegalMoveError` reason and its RULES.md ID), or the legal plays it can
   be part of; for a point, the steps that are legal from it or, for each die, the rule that
   stops it. The engine is the only source of legality; nothing here re-implements a rule.

Points are the asker's own pips (24 … 1, 25 the bar, 0 off), as in typed moves.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum
from itertools import pairwise

from engine import BAR, OFF, IllegalMoveError, NotationError, Reason, Turn, format_steps
from engine.step import Play, Step

MAX_PLAYS = 4
"""How many legal plays an answer lists (a double can have dozens; the first few teach)."""


class Ask(Enum):
    """What a position question is about."""

    MOVE = "move"  # a written move: "13/7", "24/18 13/11", "с 13 на 7"
    FROM_POINT = "from_point"  # "куда можно пойти с 24", "why can't I move from the head"
    BEAR_OFF = "bear_off"  # "почему нельзя выбрасывать", "why can't I bear off"
    ANY = "any"  # "какие у меня ходы", "why can't I move at all"


@dataclass(frozen=True, slots=True)
class Intent:
    """A parsed position question: ``move`` for MOVE (engine notation), ``point`` for
    FROM_POINT (25 = the bar)."""

    ask: Ask
    move: str = ""
    point: int | None = None


class Verdict(Enum):
    """The kind of answer."""

    LEGAL = "legal"  # the move (or a step from the point, or a bear-off) can be played
    ILLEGAL = "illegal"  # the engine refuses it: ``reason`` names the rule
    NO_MOVES = "no_moves"  # the roll cannot be played at all: the turn passes (C-18, C-22)
    UNREADABLE = "unreadable"  # the move's text is not a move (NotationError)


@dataclass(frozen=True, slots=True)
class DieReason:
    """Why one die cannot be played from the asked point."""

    die: int
    reason: Reason


@dataclass(frozen=True, slots=True)
class PositionAnswer:
    """What the bot says about a position question, as data (the bot words it).

    ``plays`` are legal whole plays in notation, at most :data:`MAX_PLAYS` (``more`` says
    how many were left out); ``steps`` the legal single steps that answer a point or bear-off
    question; ``by_die`` the rule per die when nothing can move from the point; ``highlight``
    the points to mark on the picture.
    """

    intent: Intent
    verdict: Verdict
    reason: Reason | None = None
    plays: tuple[str, ...] = ()
    more: int = 0
    steps: tuple[str, ...] = ()
    by_die: tuple[DieReason, ...] = ()
    complete: bool = False  # MOVE: the written move is a whole legal play by itself
    highlight: tuple[int, ...] = ()
    passes: bool = False  # the roll has no legal play at all: the turn passes (C-18, C-22)

    @property
    def rule_id(self) -> str | None:
        """The main RULES.md ID the answer cites."""
        if self.reason is not None:
            return self.reason.rule_id
        if self.verdict is Verdict.NO_MOVES:
            return "C-22"  # the dice that cannot be played are lost
        return None


# ---- reading the question -------------------------------------------------------------------

_POINT_WORD = r"(?:\d{1,2}|bar|бар|off|выброс|оф)"
_MOVE_RE = re.compile(
    rf"(?<![\w/])({_POINT_WORD}\*?(?:\s*/\s*{_POINT_WORD}\*?)+(?:\(\d\))?)(?![\w/])", re.I
)
_DASH_MOVE_RE = re.compile(r"(?<![\w\-])(\d{1,2})\s*[-–—]\s*(\d{1,2}|off)(?![\w\-])", re.I)
_FROM_TO_RE = re.compile(
    r"(?:\bс|\bсо|\bfrom)\s+(\d{1,2}|бара|bar)\s*(?:-?(?:го|й|ого|ой))?\s+"
    r"(?:на|в|to|onto)\s+(\d{1,2})\b",
    re.I,
)
_BEAR_FROM_RE = re.compile(
    r"(?:выброс\w*|выкин\w*|выкид\w*|снять|снимать|bear\s*off|take\s+off)\s+"
    r"(?:шашк\w+\s+|фишк\w+\s+|a\s+checker\s+|checker\s+)?(?:с|со|from)\s+(\d{1,2})\b",
    re.I,
)
_FROM_POINT_RE = re.compile(
    r"(?:\bс|\bсо|\bиз|\bfrom|\boff|\bwith\s+the\s+checker\s+on)\s+(?:пункта\s+|point\s+)?(\d{1,2})\b",
    re.I,
)
_HEAD_RE = re.compile(r"голов\w*|\bстарт\w*|\bhead\b", re.I)
_BAR_RE = re.compile(r"\bбар\w*|\bbar\b|\bвойти\b|\bвв[её]ст\w*|\bвход\w*|\benter\w*", re.I)
_BEAR_RE = re.compile(
    r"выброс\w*|выбрас\w*|выкин\w*|выкид\w*|вывод\w*|вывест\w*|bear\w*\s*off|bearoff|"
    r"take\s+(?:\w+\s+)?off|снять\s+с\s+доски|снимать\s+с\s+доски",
    re.I,
)
_ANY_RE = re.compile(
    r"какие\s+(?:у\s+меня\s+)?ходы|что\s+(?:мне\s+)?(?:можно\s+)?(?:сыграть|сходить|походить)|"
    r"куда\s+(?:мне\s+)?(?:можно\s+)?(?:ходить|сходить|пойти|походить)|"
    r"(?:не\s+могу|нельзя)\s+(?:сходить|походить|ходить|никуда)|"
    r"what\s+can\s+i\s+(?:play|move)|which\s+moves|my\s+moves|legal\s+moves|"
    r"can'?t\s+i\s+move|cannot\s+move|can'?t\s+move",
    re.I,
)
_DICE_CONTEXT_RE = re.compile(r"выпал\w*|бросил\w*|зар\w*|кост\w*|кубик\w*|roll\w*|dice", re.I)


def _point(word: str) -> int:
    word = word.lower()
    if word.startswith(("bar", "бар")):
        return BAR
    if word in ("off", "выброс", "оф"):
        return OFF
    return int(word)


def _valid(*points: int) -> bool:
    return all(p in (BAR, OFF) or 1 <= p <= 24 for p in points)


def parse_intent(question: str) -> Intent | None:
    """What a position question asks about, or ``None`` when it names no move, point, bar,
    bear-off or "my moves" (then it is a question for the topic matcher).

    A dash pair such as "6-5" is read as a move only when its first number cannot be a die
    (above 6): "6-5" is what players write for a roll.
    """
    text = question.replace("ё", "е")
    found = _MOVE_RE.findall(text)
    if found:
        return Intent(Ask.MOVE, move=" ".join(_canonical_move(m) for m in found))
    for m in _FROM_TO_RE.finditer(text):
        src, dst = _point(m.group(1)), _point(m.group(2))
        if _valid(src, dst):
            return Intent(Ask.MOVE, move=f"{_text(src)}/{_text(dst)}")
    for m in _DASH_MOVE_RE.finditer(text):
        src, dst = int(m.group(1)), _point(m.group(2))
        if src > 6 and _valid(src, dst) and (dst == OFF or dst < src):
            return Intent(Ask.MOVE, move=f"{src}/{_text(dst)}")
    m = _BEAR_FROM_RE.search(text)
    if m and _valid(int(m.group(1))):
        return Intent(Ask.MOVE, move=f"{int(m.group(1))}/off")
    if _BEAR_RE.search(text):
        return Intent(Ask.BEAR_OFF)
    m = _FROM_POINT_RE.search(text)
    if m and 1 <= int(m.group(1)) <= 24 and not _DICE_CONTEXT_RE.search(text[: m.start()]):
        return Intent(Ask.FROM_POINT, point=int(m.group(1)))
    if _HEAD_RE.search(text):
        return Intent(Ask.FROM_POINT, point=24)
    if _BAR_RE.search(text):
        return Intent(Ask.FROM_POINT, point=BAR)
    if _ANY_RE.search(text):
        return Intent(Ask.ANY)
    return None


def _canonical_move(text: str) -> str:
    parts = re.split(r"\s*/\s*", text.strip().lower())
    return "/".join(
        {"бар": "bar", "выброс": "off", "оф": "off"}.get(p.rstrip("*"), p.rstrip("*"))
        + ("*" if p.endswith("*") else "")
        for p in parts
    )


def _text(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


# ---- answering from the engine --------------------------------------------------------------


def explain(turn: Turn, intent: Intent) -> PositionAnswer:
    """Answer ``intent`` on ``turn`` (the asker's turn: position, dice, steps entered).

    When the roll cannot be played at all, a question about a move or a point still gets
    the rule that stops that move (with ``passes`` set); "what can I play" gets NO_MOVES.
    """
    if intent.ask is Ask.MOVE:
        answer = _explain_move(turn, intent)
    elif intent.ask is Ask.BEAR_OFF:
        answer = _explain_bear_off(turn, intent)
    elif intent.ask is Ask.FROM_POINT and intent.point is not None:
        answer = _explain_point(turn, intent, intent.point)
    elif not turn.has_moves:
        return PositionAnswer(intent, Verdict.NO_MOVES, passes=True)
    else:
        plays, more = _plays_with(turn, ())
        return PositionAnswer(intent, Verdict.LEGAL, plays=plays, more=more)
    return replace(answer, passes=not turn.has_moves)


def _explain_move(turn: Turn, intent: Intent) -> PositionAnswer:
    try:
        after = turn.apply_text(intent.move)
    except NotationError:
        # The notation reader refuses a backward move before the engine sees it; the rule
        # is still the engine's (C-4), and the player asked exactly that.
        if _backwards(intent.move):
            return PositionAnswer(
                intent, Verdict.ILLEGAL, reason=Reason.BACKWARDS, highlight=_points_of(intent.move)
            )
        return PositionAnswer(intent, Verdict.UNREADABLE)
    except IllegalMoveError as error:
        points = _points_of(intent.move)
        return PositionAnswer(intent, Verdict.ILLEGAL, reason=error.reason, highlight=points)
    new = after.steps[len(turn.steps) :]
    plays, more = _plays_with(turn, after.steps)
    return PositionAnswer(
        intent,
        Verdict.LEGAL,
        plays=plays,
        more=more,
        complete=after.is_complete(),
        highlight=tuple(sorted({s.src for s in new} | {s.dst for s in new}, reverse=True)),
    )


def _explain_point(turn: Turn, intent: Intent, point: int) -> PositionAnswer:
    legal = [s for s in turn.legal_steps() if s.src == point]
    if legal:
        steps = tuple(dict.fromkeys(format_steps([s]) for s in legal))
        plays, more = _plays_from(turn, point)
        return PositionAnswer(
            intent, Verdict.LEGAL, steps=steps, plays=plays, more=more, highlight=(point,)
        )
    by_die = tuple(_die_reasons(turn, point))
    reason = by_die[0].reason if by_die else Reason.NO_CHECKER
    return PositionAnswer(intent, Verdict.ILLEGAL, reason=reason, by_die=by_die, highlight=(point,))


def _die_reasons(turn: Turn, point: int) -> Iterable[DieReason]:
    """For each unused die value (largest first), the rule that stops it from ``point``."""
    if turn.current.mover[point] == 0:
        yield DieReason(0, Reason.NO_CHECKER)
        return
    for die in sorted(set(turn.remaining_dice), reverse=True):
        dst = max(point - die, OFF)
        try:
            turn.step(point, dst, die)
        except IllegalMoveError as error:
            yield DieReason(die, error.reason)


def _explain_bear_off(turn: Turn, intent: Intent) -> PositionAnswer:
    legal = [s for s in turn.legal_steps() if s.dst == OFF]
    if legal:
        steps = tuple(dict.fromkeys(format_steps([s]) for s in legal))
        return PositionAnswer(intent, Verdict.LEGAL, steps=steps, highlight=(OFF,))
    mover = turn.current.mover
    home = [p for p in range(6, 0, -1) if mover[p]]
    sources = home or [p for p in range(BAR, 0, -1) if mover[p]]
    for src in sources:
        try:
            turn.step(src, OFF)
        except IllegalMoveError as error:
            return PositionAnswer(
                intent, Verdict.ILLEGAL, reason=error.reason, highlight=(src, OFF)
            )
    return PositionAnswer(intent, Verdict.ILLEGAL, reason=Reason.NO_CHECKER)  # nothing left


def _plays_with(turn: Turn, steps: tuple[Step, ...]) -> tuple[tuple[str, ...], int]:
    """Legal plays that contain ``steps`` (as moves from/to), in notation."""
    need = Counter((s.src, s.dst) for s in steps)
    return _listed(p for p in turn.legal_plays if not need - Counter(_moves(p)))


def _plays_from(turn: Turn, point: int) -> tuple[tuple[str, ...], int]:
    done = Counter((s.src, s.dst) for s in turn.steps)
    return _listed(
        p
        for p in turn.legal_plays
        if not done - Counter(_moves(p)) and any(src == point for src, _ in _moves(p))
    )


def _moves(play: Play) -> list[tuple[int, int]]:
    return [(s.src, s.dst) for s in play.steps]


def _listed(plays: Iterable[Play]) -> tuple[tuple[str, ...], int]:
    texts = list(dict.fromkeys(format_steps(p.steps) for p in plays if p.steps))
    return tuple(texts[:MAX_PLAYS]), max(0, len(texts) - MAX_PLAYS)


def _backwards(move: str) -> bool:
    """True if a segment of ``move`` goes from a lower point to a higher one ("7/13")."""
    for token in move.split():
        numbers = [int(p) for p in re.split(r"/", token.rstrip("*").split("(")[0]) if p.isdigit()]
        if any(b > a for a, b in pairwise(numbers)):
            return True
    return False


def _points_of(move: str) -> tuple[int, ...]:
    points: set[int] = set()
    for part in re.split(r"[\s/]+", move):
        word = part.rstrip("*").split("(")[0]
        if word.isdigit() or word in ("bar", "off"):
            points.add(_point(word))
    return tuple(sorted(points, reverse=True))
