"""A game's history as turns, and a match as a Jellyfish / GNU Backgammon ``.mat`` record.

Pure text, no I/O. The history walker (:func:`game_turns`) is the one place that turns the
engine's :class:`~engine.game.Event` log back into positions and plays; the replay and the
review use it too, so the three never disagree about what happened.

The ``.mat`` layout (docs/records.md)::

     3 point match

     Game 1
     Alice : 0                      Bob : 0
      1) 31: 8/5 6/5                 64: 24/18 13/9
      2) 62: 24/18 13/11              Doubles => 2
      3)  Takes                      11: 8/7* 8/7 6/5 6/5
      4) 43: 25/21 25/22             ...
     ...
          Wins 2 points

Seat 0 is the left column. Each action takes the next slot, left and right in turn (a double,
its answer and the doubler's roll alternate like moves do), so a game whose first move is the
right player's starts with an empty left slot. Every checker's step is written on its own, in
the mover's own numbering (24 … 1, 25 = the bar, 0 = borne off), with ``*`` for a hit, as GNU
Backgammon itself exports. Long nardy uses the same layout with long-nardy points: each side
counts its own 24 (the head) down to 1, there is no bar and no hit.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine import positionid
from engine.game import Event, EventKind, Game, Match
from engine.options import Options
from engine.position import Position, Side
from engine.scoring import ResultKind
from engine.step import Play, Step
from engine.variants import get_variant

#: The action kinds a record shows (rolls are folded into their move, the lot is not a turn).
ACTIONS = (
    EventKind.MOVE,
    EventKind.PASS,
    EventKind.DOUBLE,
    EventKind.TAKE,
    EventKind.DROP,
    EventKind.RESIGN,
)


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One action of a game, with the board it was taken on.

    ``before`` has the acting side to move for moves, passes, doubles and resignations; for a
    take or a drop it is the doubler's position (the doubler is to roll). ``play`` is set for
    moves and passes (a pass is the empty play), ``dice`` for both. ``cube`` is the cube's
    value before the action, ``first_turn`` whether it is the side's first roll of the game
    (long nardy's head rule needs it).
    """

    kind: EventKind
    side: Side
    before: Position
    dice: tuple[int, int] | None = None
    play: Play | None = None
    first_turn: bool = False
    cube: int = 1

    @property
    def after(self) -> Position:
        """The board after a move or a pass, the turn passed on (the board itself otherwise)."""
        if self.play is None:
            return self.before
        return self.play.result.with_turn(self.side.other)


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game ended: the winner, the points won (cube included) and the kind of win."""

    winner: Side
    points: int
    kind: ResultKind


def game_turns(
    history: Sequence[Event], variant: str, options: Options | None = None
) -> tuple[list[TurnRecord], GameEnd | None]:
    """The actions of one game's ``history`` with their positions, and its end if it ended.

    Positions come from each move's stored position ID, so no move is searched for again; a
    move stored without its steps (older games) is matched against the legal plays.
    """
    var = get_variant(variant)
    opts = options or Options()
    first = _first_mover(history)
    position = var.start_position(first)
    turns: list[TurnRecord] = []
    moved = {Side.WHITE: False, Side.BLACK: False}
    cube = 1
    end: GameEnd | None = None
    for event in history:
        side = event.side
        if event.kind is EventKind.END:
            assert side is not None
            end = GameEnd(side, int(event.dice[0]) if event.dice else 0, ResultKind(event.notation))
            continue
        if event.kind not in ACTIONS or side is None:
            continue
        if event.kind in (EventKind.MOVE, EventKind.PASS):
            position = position.with_turn(side)
            dice = (int(event.dice[0]), int(event.dice[1]))
            play = _play_of(event, position, dice, moved[side], opts)
            turns.append(TurnRecord(event.kind, side, position, dice, play, not moved[side], cube))
            moved[side] = True
            position = play.result.with_turn(side.other)
        elif event.kind is EventKind.DOUBLE:
            position = position.with_turn(side)
            turns.append(TurnRecord(event.kind, side, position, cube=cube))
        elif event.kind is EventKind.TAKE:
            turns.append(TurnRecord(event.kind, side, position, cube=cube))
            cube = int(event.dice[0]) if event.dice else cube * 2
        else:  # DROP, RESIGN
            turns.append(TurnRecord(event.kind, side, position, cube=cube))
    return turns, end


def _first_mover(history: Sequence[Event]) -> Side:
    for event in history:
        if event.side is None:
            continue
        if event.kind in (EventKind.LOT, EventKind.ROLL, EventKind.MOVE, EventKind.PASS):
            return event.side
        if event.kind is EventKind.DOUBLE:
            return event.side
    return Side.WHITE


def _play_of(
    event: Event, before: Position, dice: tuple[int, int], moved: bool, options: Options
) -> Play:
    side = before.turn
    if event.kind is EventKind.PASS:
        return Play((), before)
    after = _after(event.position_id, before.variant, side)
    if event.steps or not event.notation:
        return Play(tuple(event.steps), after)
    plays = get_variant(before.variant).legal_plays(
        before, dice, first_turn=not moved, options=options
    )
    for play in plays:
        if play.result == after:
            return play
    raise ValueError(f"move {event.notation!r} does not lead to {event.position_id}")


def _after(position_id: str, variant: str, side: Side) -> Position:
    """The board after ``side``'s move, ``side`` to move. The game stores it with the turn
    passed on, except after the winning move (the winner "to move", RULES.md C-32): only
    then can the winner's own reading show 15 checkers off."""
    finished = positionid.decode(position_id, variant, side)
    if finished.borne_off(side) == 15:
        return finished
    return positionid.decode(position_id, variant, side.other).with_turn(side)


# ---- the .mat record ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameLog:
    """One game of a match for the record: its history, who played white (by seat) and the
    match score by seat before it."""

    history: Sequence[Event]
    white_seat: int = 0
    score: tuple[int, int] = (0, 0)


LEFT_WIDTH = 27  # the left player's action column (GNU Backgammon: 28 with the gap)
NAME_WIDTH = 31


def step_text(step: Step) -> str:
    """One checker's step in ``.mat`` style: ``13/10*``, ``25/22`` (from the bar), ``6/0``
    (borne off) — numbers, as Jellyfish and GNU Backgammon write them."""
    return f"{step.src}/{step.dst}{'*' if step.hit else ''}"


def action_text(turn: TurnRecord) -> str:
    """One slot of a move line: ``31: 8/5 6/5``, ``52:`` (no legal move), `` Doubles => 2``,
    `` Takes``, `` Drops``; a resignation leaves its slot empty (the "Wins" line says it)."""
    if turn.kind in (EventKind.MOVE, EventKind.PASS):
        assert turn.dice is not None and turn.play is not None
        steps = " ".join(step_text(s) for s in turn.play.steps)
        return f"{turn.dice[0]}{turn.dice[1]}: {steps}".rstrip()
    if turn.kind is EventKind.DOUBLE:
        return f" Doubles => {turn.cube * 2}"
    if turn.kind is EventKind.TAKE:
        return " Takes"
    if turn.kind is EventKind.DROP:
        return " Drops"
    return ""


def game_text(
    log: GameLog,
    variant: str,
    names: tuple[str, str],
    number: int,
    options: Options | None = None,
    *,
    match_won: bool = False,
) -> str:
    """One game of a ``.mat`` file: the ``Game N`` line, names with scores, the numbered move
    lines and, if the game ended, the ``Wins`` line in the winner's column."""
    turns, end = game_turns(log.history, variant, options)
    names = tuple(_clean_name(n) for n in names)  # type: ignore[assignment]
    left = f"{names[0]} : {log.score[0]}"
    lines = [f" Game {number}", f" {left:<{NAME_WIDTH}}{names[1]} : {log.score[1]}"]
    slots = [(_seat(turn.side, log.white_seat), action_text(turn)) for turn in turns]
    if turns and turns[-1].kind is EventKind.RESIGN:
        slots.pop()
    moves = list(_move_lines(slots))
    if end is not None:
        plural = "" if end.points == 1 else "s"
        tail = " and the match" if match_won else ""
        wins = f" Wins {end.points} point{plural}{tail}"
        right_half_free = bool(slots) and slots[-1][0] == 0
        if _seat(end.winner, log.white_seat) == 0:
            moves.append(f"{'':>4} {wins}")
        elif right_half_free:
            # GNU Backgammon reads a right-hand "Wins" under a line whose right half is free
            # (a drop or a resignation by the left player) as the start of another game: the
            # result goes on that line, as gnubg writes it.
            moves[-1] = f"{moves[-1]:<{5 + LEFT_WIDTH}} {wins}"
        else:
            moves.append(f"{'':>4} {'':<{LEFT_WIDTH}} {wins}")
    lines.extend(moves)
    return "\n".join(lines) + "\n"


def _move_lines(slots: list[tuple[int, str]]) -> Iterator[str]:
    """Numbered lines, two slots each; actions alternate between the seats."""
    number = 0
    i = 0
    while i < len(slots):
        number += 1
        left = right = ""
        if slots[i][0] == 0:
            left = slots[i][1]
            i += 1
        if i < len(slots) and slots[i][0] == 1:
            right = slots[i][1]
            i += 1
        line = f"{number:>3}) {left:<{LEFT_WIDTH}} {right}" if right else f"{number:>3}) {left}"
        yield line.rstrip()


def _seat(side: Side, white_seat: int) -> int:
    return white_seat if side is Side.WHITE else 1 - white_seat


def _clean_name(name: str) -> str:
    """A name as one word-safe token for the record: GNU Backgammon reads the name up to
    `` : ``, so colons and line breaks are replaced; empty names become ``Player``."""
    cleaned = " ".join(name.replace(":", " ").split())
    return cleaned or "Player"


def match_record(
    variant: str,
    length: int,
    names: tuple[str, str],
    games: Sequence[GameLog],
    options: Options | None = None,
    *,
    first_number: int = 1,
) -> str:
    """A whole match (``names`` by seat; one :class:`GameLog` per game played or started) as
    the text of a ``.mat`` file. A single game is written as a 1-point match; games are
    numbered from ``first_number`` (a record of a match's later games only)."""
    parts = [f" {length} point match", ""]
    for number, log in enumerate(games, start=first_number):
        _, end = game_turns(log.history, variant, options)
        won = False
        if end is not None:
            seat = _seat(end.winner, log.white_seat)
            won = log.score[seat] + end.points >= length
        parts.append(game_text(log, variant, names, number, options, match_won=won))
    return "\n".join(parts)


def current_game_log(match: Match) -> GameLog:
    """The :class:`GameLog` of a match's current game, with the score before it (from the
    results of the earlier games, capped at the match length as M-21 caps the score)."""
    game: Game = match.current
    score = [0, 0]
    for result in match.results:
        if int(result["game"]) < match.game_number:
            seat = int(result["winner_seat"])
            score[seat] = min(match.length, score[seat] + int(result["points"]))
    return GameLog(tuple(game.history), game.white_seat, (score[0], score[1]))


def match_file(match: Match, names: tuple[str, str], earlier: Sequence[GameLog] = ()) -> str:
    """The ``.mat`` text of ``match``: the ``earlier`` games (the match keeps only its
    current game's history; the caller keeps the others) and the current one, numbered so
    that the current game keeps its number in the match."""
    games = [*earlier, current_game_log(match)]
    first = max(1, match.game_number - len(earlier))
    return match_record(
        match.variant_name, match.length, names, games, match.options, first_number=first
    )


__all__ = [
    "GameEnd",
    "GameLog",
    "TurnRecord",
    "action_text",
    "current_game_log",
    "game_text",
    "game_turns",
    "match_file",
    "match_record",
    "step_text",
]
