"""Game and match flow: the opening lot, turns, passes, the cube, resignation, results and the
next game of a match (RULES.md C-12, C-13, C-18, C-32, L-4, L-5, S-3, S-4, M-1 … M-21, V-3,
V-10, V-12, V-16).

Players are *seats* 0 and 1 (the people), colours are per game (long nardy swaps them between
games, M-17). Every action names the seat that performs it, so the engine — not the bot —
decides whether it is that player's turn. Randomness comes in as an object with
``randint(a, b)`` (the bot passes a cryptographically secure one; tests pass seeded ones).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

from engine import positionid
from engine.notation import format_steps
from engine.options import Options
from engine.position import Position, Side, VariantName, variant_name
from engine.rules import IllegalActionError, IllegalMoveError, Reason
from engine.scoring import GameResult, ResultKind, score_game
from engine.step import Play, Step
from engine.turn import Turn
from engine.variants import Variant, get_variant

FORMAT_VERSION = 1
MAX_CUBE = 64  # M-12 allows a cap at the cube's highest face; physical cubes stop there


class Rng(Protocol):
    def randint(self, a: int, b: int) -> int: ...


class Phase(StrEnum):
    OPENING = "opening"  # the lot has not been rolled yet
    ROLL = "roll"  # the side to move rolls (or, with the cube, may double first)
    MOVE = "move"  # the dice are rolled; steps are being entered
    DOUBLE = "double"  # a double was offered; the other side takes or drops
    OVER = "over"  # the game has a result


class EventKind(StrEnum):
    """What a history line records. A ``StrEnum``: stored as (and equal to) these strings."""

    LOT = "lot"  # the opening lot was decided; ``dice`` are (seat 0's die, seat 1's die)
    ROLL = "roll"  # the side rolled ``dice``
    MOVE = "move"  # the side played ``steps`` (``notation``); ``position_id`` after it
    PASS = "pass"  # the roll could not be played (C-18)
    DOUBLE = "double"  # the side offered the cube at ``dice[0]``
    TAKE = "take"  # the side took; the cube is now ``dice[0]``
    DROP = "drop"  # the side dropped at a cube of ``dice[0]``
    RESIGN = "resign"  # the side resigned
    END = "end"  # ``side`` won ``dice[0]`` points; ``notation`` is the result kind


@dataclass(frozen=True, slots=True)
class Event:
    """One line of a game's history, for the move log, replays and the bot's captions."""

    kind: EventKind
    side: Side | None
    dice: tuple[int, ...] = ()
    notation: str = ""
    position_id: str = ""
    steps: tuple[Step, ...] = ()

    def __post_init__(self) -> None:
        if self.kind.__class__ is not EventKind:
            object.__setattr__(self, "kind", EventKind(self.kind))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": str(self.kind)}
        if self.side is not None:
            data["side"] = self.side.label
        if self.dice:
            data["dice"] = list(self.dice)
        if self.notation:
            data["notation"] = self.notation
        if self.position_id:
            data["position_id"] = self.position_id
        if self.steps:
            data["steps"] = [[s.src, s.dst, s.die, int(s.hit)] for s in self.steps]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        side = data.get("side")
        return cls(
            kind=EventKind(data["kind"]),
            side=None if side is None else _side(side),
            dice=tuple(data.get("dice", ())),
            notation=data.get("notation", ""),
            position_id=data.get("position_id", ""),
            steps=tuple(Step(a, b, c, bool(d)) for a, b, c, d in data.get("steps", ())),
        )


def _side(label: str) -> Side:
    if label == "white":
        return Side.WHITE
    if label == "black":
        return Side.BLACK
    raise ValueError(f"unknown side {label!r}")


def _roll_die(rng: Rng) -> int:
    value = rng.randint(1, 6)
    if not 1 <= value <= 6:
        raise ValueError(f"a die shows 1..6, the generator gave {value}")
    return value


@dataclass(slots=True)
class Game:
    """One game of nardy between seats 0 and 1 (``variant_name`` may be given as a string)."""

    variant_name: VariantName
    options: Options = field(default_factory=Options)
    white_seat: int = 0
    position: Position | None = None
    phase: Phase = Phase.OPENING
    dice: tuple[int, int] | None = None
    steps: tuple[Step, ...] = ()
    turns_played: list[int] = field(default_factory=lambda: [0, 0])
    cube_value: int = 1
    cube_owner: Side | None = None
    crawford: bool = False
    double_offered_by: Side | None = None
    result: GameResult | None = None
    history: list[Event] = field(default_factory=list)
    lot: tuple[int, int] | None = None  # (seat 0's die, seat 1's die) of the deciding roll
    colours_fixed: bool = False  # short nardy keeps a match's colours after game 1 (S-3, M-18)
    _turn: Turn | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.variant_name = variant_name(self.variant_name)
        if self.position is None:
            self.position = self.variant.start_position(Side.WHITE)

    # ---- facts --------------------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return get_variant(self.variant_name)

    @property
    def pos(self) -> Position:
        assert self.position is not None
        return self.position

    @property
    def side_to_move(self) -> Side:
        return self.pos.turn

    def seat_of(self, side: Side) -> int:
        return self.white_seat if side is Side.WHITE else 1 - self.white_seat

    def side_of(self, seat: int) -> Side:
        return Side.WHITE if seat == self.white_seat else Side.BLACK

    @property
    def seat_to_act(self) -> int | None:
        """The seat that must act now (roll, move, or answer a double)."""
        if self.phase in (Phase.ROLL, Phase.MOVE):
            return self.seat_of(self.side_to_move)
        if self.phase is Phase.DOUBLE:
            assert self.double_offered_by is not None
            return self.seat_of(self.double_offered_by.other)
        return None

    @property
    def cube_enabled(self) -> bool:
        return self.options.cube_enabled(self.variant_name)

    def first_turn(self, side: Side) -> bool:
        return self.turns_played[side] == 0

    @property
    def turn(self) -> Turn:
        """The turn being played (phase MOVE)."""
        if self.phase is not Phase.MOVE or self.dice is None:
            raise self._refusal(Phase.MOVE)
        if self._turn is None or self._turn.steps != self.steps:
            base = self._turn
            if base is None or base.start != self.pos or base.dice != self.dice:
                base = Turn(
                    self.pos,
                    self.dice,
                    first_turn=self.first_turn(self.side_to_move),
                    options=self.options,
                )
            turn = base.reset()
            for s in self.steps:
                turn = turn.with_step(s)
            self._turn = turn
        return self._turn

    @property
    def current_position(self) -> Position:
        """The board as the players see it now, with any steps of a partial turn applied."""
        if self.phase is Phase.MOVE and self.steps:
            return self.turn.current
        return self.pos

    def can_double(self, seat: int) -> bool:
        side = self.side_of(seat)
        return (
            self.phase is Phase.ROLL
            and self.cube_enabled
            and not self.crawford
            and side is self.side_to_move
            and self.cube_owner in (None, side)
            and self.cube_value < MAX_CUBE
        )

    # ---- opening ----------------------------------------------------------------------------

    def roll_lot(self, rng: Rng) -> tuple[int, int]:
        """Roll the opening lot (C-12): one die each, equal numbers are rolled again."""
        while True:
            a, b = _roll_die(rng), _roll_die(rng)
            if a != b:
                self.set_lot(a, b)
                return a, b

    def set_lot(self, seat0_die: int, seat1_die: int) -> None:
        """Apply a decided lot: in long nardy the winner takes white and moves first (L-4) and
        rolls again (L-5; V-3 plays the lot); in short nardy the winner plays the lot (S-4)."""
        self._require(Phase.OPENING)
        if seat0_die == seat1_die or not all(1 <= d <= 6 for d in (seat0_die, seat1_die)):
            raise ValueError("a deciding lot has two different dice 1..6")
        winner_seat = 0 if seat0_die > seat1_die else 1
        self.lot = (seat0_die, seat1_die)
        high, low = max(seat0_die, seat1_die), min(seat0_die, seat1_die)
        if not self.colours_fixed:
            # L-4: the lot's winner takes white. Short nardy has no such rule (S-3); the bot
            # gives white to the lot's winner too in a match's first game, then keeps colours.
            self.white_seat = winner_seat
        first = self.side_of(winner_seat)
        self.position = self.pos.with_turn(first)
        self.history.append(Event(EventKind.LOT, first, (seat0_die, seat1_die)))
        if self.variant.lot_is_first_roll(self.options):
            self._start_move((high, low))
        else:
            self.phase = Phase.ROLL

    def start_without_lot(self, first_seat: int, white_seat: int) -> None:
        """Start a later game of a match whose first mover is decided by the match rules."""
        self._require(Phase.OPENING)
        self.white_seat = white_seat
        self.position = self.pos.with_turn(self.side_of(first_seat))
        self.phase = Phase.ROLL

    # ---- rolling and the cube -------------------------------------------------------------

    def roll(
        self,
        rng: Rng | None = None,
        *,
        dice: tuple[int, int] | None = None,
        seat: int | None = None,
    ) -> Turn | None:
        """Roll for the side to move. Returns the turn, or None if it passed (C-18)."""
        self._require(Phase.ROLL, seat)
        if dice is None:
            if rng is None:
                raise ValueError("roll needs an rng or dice")
            dice = (_roll_die(rng), _roll_die(rng))
        elif len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            # Refuse before anything changes: a bad roll must not leave the game in MOVE.
            raise ValueError(f"dice must be two values 1..6, got {dice!r}")
        self.history.append(Event(EventKind.ROLL, self.side_to_move, dice))
        return self._start_move(dice)

    def _start_move(self, dice: tuple[int, int]) -> Turn | None:
        self.dice = (int(dice[0]), int(dice[1]))
        self.steps = ()
        self.phase = Phase.MOVE
        self._turn = None
        turn = self.turn
        if not turn.has_moves:
            self._end_turn(Play((), self.pos), kind=EventKind.PASS)
            return None
        return turn

    def offer_double(self, seat: int) -> None:
        """Offer the cube before rolling (M-9); only the owner or anyone while centred (M-10)."""
        side = self.side_of(seat)
        if not self.cube_enabled:
            raise IllegalActionError(Reason.CUBE_DISABLED, "the cube is off in this game")
        if self.phase is not Phase.ROLL or side is not self.side_to_move:
            raise IllegalActionError(Reason.CUBE_TIMING, "double only before your own roll")
        if self.crawford:
            raise IllegalActionError(Reason.CRAWFORD, "no doubling in the Crawford game")
        if self.cube_owner not in (None, side):
            raise IllegalActionError(Reason.CUBE_OWNER, "the opponent owns the cube")
        if self.cube_value >= MAX_CUBE:
            raise IllegalActionError(Reason.CUBE_MAX, f"the cube is at {MAX_CUBE}, its top face")
        self.phase = Phase.DOUBLE
        self.double_offered_by = side
        self.history.append(Event(EventKind.DOUBLE, side, (self.cube_value * 2,)))

    def take(self, seat: int) -> None:
        """Accept: the stake doubles and the acceptor owns the cube (M-10)."""
        self._require(Phase.DOUBLE, seat)
        side = self.side_of(seat)
        self.cube_value *= 2
        self.cube_owner = side
        self.double_offered_by = None
        self.phase = Phase.ROLL
        self.history.append(Event(EventKind.TAKE, side, (self.cube_value,)))

    def drop(self, seat: int) -> GameResult:
        """Decline: the game ends at once for the current stake, no multiplier (M-11)."""
        self._require(Phase.DOUBLE, seat)
        assert self.double_offered_by is not None
        winner = self.double_offered_by
        self.history.append(Event(EventKind.DROP, winner.other, (self.cube_value,)))
        result = GameResult(winner, ResultKind.DROP, self.cube_value, self.cube_value)
        self._finish(result)
        return result

    def resign(self, seat: int) -> GameResult:
        """Resign (M-19): the opponent wins what the board shows, times the cube (V-10: oin)."""
        if self.phase is Phase.OVER:
            raise IllegalActionError(Reason.GAME_OVER, "the game is already over")
        side = self.side_of(seat)
        self.history.append(Event(EventKind.RESIGN, side))
        result = score_game(self.pos, side.other, self.options, self.cube_value, resigned=True)
        self._finish(result)
        return result

    # ---- moving -----------------------------------------------------------------------------

    def legal_steps(self) -> list[Step]:
        return self.turn.legal_steps()

    def step(self, src: int, dst: int, *, seat: int | None = None) -> Step:
        """Enter one step of the turn; raises IllegalMoveError naming the broken rule."""
        self._require(Phase.MOVE, seat)
        turn = self.turn.step(src, dst)
        self.steps = turn.steps
        self._turn = turn
        return turn.steps[-1]

    def undo(self, *, seat: int | None = None) -> bool:
        """Take back the last step of the turn being entered; False if there was none."""
        self._require(Phase.MOVE, seat)
        if not self.steps:
            return False
        turn = self.turn.undo()
        self.steps = turn.steps
        self._turn = turn
        return True

    def apply_text(self, text: str, *, seat: int | None = None) -> Turn:
        """Enter a whole play or part of one in notation, on top of the steps entered so far."""
        self._require(Phase.MOVE, seat)
        turn = self.turn.apply_text(text)
        self.steps = turn.steps
        self._turn = turn
        return turn

    def commit(self, *, seat: int | None = None) -> Play:
        """Confirm the turn (C-33); raises IllegalMoveError(INCOMPLETE) if it is not complete."""
        self._require(Phase.MOVE, seat)
        play = self.turn.finish()
        self._end_turn(play, kind=EventKind.MOVE)
        return play

    def play(self, play: Play, *, seat: int | None = None) -> None:
        """Play a whole legal play at once (used for forced turns and the computer)."""
        self._require(Phase.MOVE, seat)
        if play not in self.turn.legal_plays:
            raise IllegalMoveError(Reason.NOT_MAXIMAL, "not a legal play of this turn")
        self.steps = ()
        self._end_turn(play, kind=EventKind.MOVE)

    def _end_turn(self, play: Play, *, kind: EventKind) -> None:
        side = self.side_to_move
        dice = self.dice or ()
        after = play.result
        self.turns_played[side] += 1
        self.dice = None
        self.steps = ()
        self._turn = None
        if after.board(side)[0] == 15:
            self.position = after
            self.history.append(
                Event(
                    kind, side, dice, format_steps(play.steps), positionid.encode(after), play.steps
                )
            )
            self._finish(score_game(after, side, self.options, self.cube_value))
            return
        self.position = after.with_turn(side.other)
        self.history.append(
            Event(
                kind, side, dice, format_steps(play.steps), positionid.encode(self.pos), play.steps
            )
        )
        self.phase = Phase.ROLL

    def _finish(self, result: GameResult) -> None:
        self.result = result
        self.phase = Phase.OVER
        self.dice = None
        self.steps = ()
        self._turn = None
        self.double_offered_by = None
        self.history.append(Event(EventKind.END, result.winner, (result.points,), str(result.kind)))

    def _require(self, phase: Phase, seat: int | None = None) -> None:
        """Refuse an action of ``phase`` by ``seat`` (None: whoever must act), most telling
        reason first: the game is over, then it is not that seat's turn, then the phase."""
        if self.phase is Phase.OVER:
            raise IllegalActionError(Reason.GAME_OVER, "the game is over")
        self._require_seat(seat)
        if self.phase is not phase:
            raise self._refusal(phase)

    def _refusal(self, wanted: Phase) -> IllegalActionError:
        """Why an action of phase ``wanted`` is refused now: the game is over (GAME_OVER), the
        dice are not rolled yet (NO_DICE), or the game is in another phase (WRONG_PHASE)."""
        if self.phase is Phase.OVER:
            return IllegalActionError(Reason.GAME_OVER, "the game is over")
        if wanted is Phase.MOVE and self.phase is Phase.ROLL:
            return IllegalActionError(Reason.NO_DICE, "no dice have been rolled")
        return IllegalActionError(Reason.WRONG_PHASE, f"not now: the game is in {self.phase}")

    def _require_seat(self, seat: int | None) -> None:
        if seat is not None and seat != self.seat_to_act:
            raise IllegalActionError(Reason.NOT_YOUR_TURN, "it is the other player's turn")

    # ---- serialisation ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        pos = self.pos
        return {
            "variant": str(self.variant_name),
            "options": self.options.to_dict(),
            "white_seat": self.white_seat,
            "position": {
                "white": list(pos.white),
                "black": list(pos.black),
                "turn": pos.turn.label,
            },
            "phase": str(self.phase),
            "dice": list(self.dice) if self.dice else None,
            "steps": [[s.src, s.dst, s.die, int(s.hit)] for s in self.steps],
            "turns_played": list(self.turns_played),
            "cube": {
                "value": self.cube_value,
                "owner": None if self.cube_owner is None else self.cube_owner.label,
            },
            "crawford": self.crawford,
            "double_offered_by": None
            if self.double_offered_by is None
            else self.double_offered_by.label,
            "result": None if self.result is None else self.result.to_dict(),
            "lot": list(self.lot) if self.lot else None,
            "colours_fixed": self.colours_fixed,
            "history": [e.to_dict() for e in self.history],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        variant = get_variant(data["variant"])
        p = data["position"]
        position = Position(variant.name, tuple(p["white"]), tuple(p["black"]), _side(p["turn"]))
        variant.check_position(position)
        cube = data.get("cube") or {}
        owner = cube.get("owner")
        offered = data.get("double_offered_by")
        game = cls(
            variant_name=variant.name,
            options=Options.from_dict(data.get("options")),
            white_seat=int(data.get("white_seat", 0)),
            position=position,
            phase=Phase(data["phase"]),
            dice=tuple(data["dice"]) if data.get("dice") else None,  # type: ignore[arg-type]
            steps=tuple(Step(a, b, c, bool(d)) for a, b, c, d in data.get("steps", ())),
            turns_played=list(data.get("turns_played", [0, 0])),
            cube_value=int(cube.get("value", 1)),
            cube_owner=None if owner is None else _side(owner),
            crawford=bool(data.get("crawford", False)),
            double_offered_by=None if offered is None else _side(offered),
            result=None if data.get("result") is None else GameResult.from_dict(data["result"]),
            history=[Event.from_dict(e) for e in data.get("history", ())],
            lot=tuple(data["lot"]) if data.get("lot") else None,  # type: ignore[arg-type]
            colours_fixed=bool(data.get("colours_fixed", False)),
        )
        if game.phase is Phase.MOVE:
            _ = game.turn  # re-validates the stored partial steps
        return game


@dataclass(slots=True)
class Match:
    """A match to ``length`` points (M-15); a single game is a 1-point match."""

    variant_name: VariantName
    length: int = 1
    options: Options = field(default_factory=Options)
    score: list[int] = field(default_factory=lambda: [0, 0])  # by seat
    game: Game | None = None
    game_number: int = 1
    crawford_done: bool = False
    results: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.length < 1:
            raise ValueError("a match is played to at least 1 point")
        self.variant_name = get_variant(self.variant_name).name
        if self.game is None:
            self.game = Game(self.variant_name, self.options)

    @property
    def current(self) -> Game:
        assert self.game is not None
        return self.game

    @property
    def winner_seat(self) -> int | None:
        for seat in (0, 1):
            if self.score[seat] >= self.length:
                return seat
        return None

    @property
    def is_over(self) -> bool:
        return self.winner_seat is not None

    def record_result(self) -> GameResult:
        """Add the finished game's points to the match score (M-15, M-21: capped at N)."""
        game = self.current
        if game.result is None:
            raise IllegalActionError(Reason.GAME_NOT_OVER, "the game is not over")
        if len(self.results) >= self.game_number:
            return game.result
        seat = game.seat_of(game.result.winner)
        self.score[seat] = min(self.length, self.score[seat] + game.result.points)
        self.results.append(
            {"game": self.game_number, "winner_seat": seat, **game.result.to_dict()}
        )
        return game.result

    def next_game(self) -> Game:
        """Start the next game by the variant's match rules: long — colours swap and last
        game's black starts as white (M-17), or the winner starts (V-12); short — a new lot
        with the colours kept (M-18)."""
        previous = self.current
        if previous.result is None:
            raise IllegalActionError(Reason.GAME_NOT_OVER, "the game is not over")
        self.record_result()
        if self.is_over:
            raise IllegalActionError(Reason.MATCH_OVER, "the match is over")
        crawford = False
        if (
            self.options.crawford
            and not self.crawford_done
            and self.options.cube_enabled(self.variant_name)
            and self.length - 1 in self.score
        ):
            crawford = True
            self.crawford_done = True
        game = Game(self.variant_name, self.options, white_seat=previous.white_seat)
        game.crawford = crawford
        variant = get_variant(self.variant_name)
        game.colours_fixed = variant.keeps_colours
        self.game_number += 1
        self.game = game
        starter = variant.next_game_starter(
            previous.seat_of(previous.result.winner), previous.seat_of(Side.BLACK), self.options
        )
        if starter is not None:
            game.start_without_lot(first_seat=starter, white_seat=starter)
        return game

    def copy(self) -> Match:
        """An independent copy (positions, steps and events are values and are shared)."""
        game = self.current
        game_copy = replace(game, turns_played=list(game.turns_played), history=list(game.history))
        return replace(
            self, score=list(self.score), game=game_copy, results=[dict(r) for r in self.results]
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "variant": str(self.variant_name),
            "length": self.length,
            "options": self.options.to_dict(),
            "score": list(self.score),
            "game_number": self.game_number,
            "crawford_done": self.crawford_done,
            "results": list(self.results),
            "game": self.current.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        version = data.get("format")
        if version != FORMAT_VERSION:
            raise ValueError(
                f"unsupported game format {version!r}; this code reads {FORMAT_VERSION}"
            )
        return cls(
            variant_name=data["variant"],
            length=int(data["length"]),
            options=Options.from_dict(data.get("options")),
            score=[int(x) for x in data["score"]],
            game=Game.from_dict(data["game"]),
            game_number=int(data.get("game_number", 1)),
            crawford_done=bool(data.get("crawford_done", False)),
            results=list(data.get("results", ())),
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Match:
        return cls.from_dict(json.loads(text))


__all__ = ["Event", "EventKind", "Game", "IllegalMoveError", "Match", "Phase", "Rng"]
