"""What every part of a board's presentation shares: the chat's point of view, names,
dice and the lines that describe plays."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.texts import h, localized_notation, t
from engine import BAR, OFF, Event, Game, Phase, Position, Side, Step, format_steps, get_variant
from gameplay import PickerWay, Snapshot

DISC = {Side.WHITE: "⚪", Side.BLACK: "⚫"}
MAX_NAME = 32


@dataclass(frozen=True, slots=True)
class ChatView:
    """Who looks at a board message: ``owner`` is the player whose private chat it is (their
    side at the bottom, their keyboard only); ``None`` for a group (the mover's side)."""

    lang: str
    owner_user_id: int | None = None
    pick: int | None = None  # a source point chosen by the mover: show its destinations
    # A group's shared board while the mover plays in a private picker: the turn as it
    # started (never a half-made play), drawn from ``side`` (one orientation all game).
    public: bool = False
    side: Side | None = None
    # The mover's own picker (an ephemeral message in a group): ``way`` is how it opens.
    picker: bool = False
    way: PickerWay = PickerWay.STEPS
    # An inline-mode message: shown like a group's board, but the bot may not be in that chat:
    # no Why? or Rematch (answered by a new message there); after the game, Replay, Record,
    # Review and Verify answer in the tapping player's private chat with the bot.
    inline: bool = False


def shown_position(snap: Snapshot, view: ChatView) -> Position:
    """The position a board shows: the shared group board keeps the turn's start until the
    play is committed; everyone else sees the steps entered so far."""
    return snap.game.pos if view.public else snap.game.current_position


def short_name(name: str) -> str:
    name = " ".join(name.split())
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


def point_label(lang: str, point: int) -> str:
    if point == BAR:
        return t(lang, "bar")
    if point == OFF:
        return t(lang, "off")
    return str(point)


def dice_text(dice: tuple[int, ...]) -> str:
    """A roll as players say it, larger die first: "6-5", "4-4"."""
    return "-".join(str(d) for d in sorted(dice[:2], reverse=True))


def mention(snap: Snapshot, seat: int) -> str:
    uid = snap.user_ids.get(seat)
    name = h(short_name(snap.names[seat]))
    if uid is None:
        return name
    return f'<a href="tg://user?id={uid}">{name}</a>'


def viewer_side(snap: Snapshot, view: ChatView) -> Side:
    game = snap.game
    if view.side is not None:
        return view.side
    if view.owner_user_id is not None:
        seat = snap.seat_of_user(view.owner_user_id)
        if seat is not None:
            return game.side_of(seat)
    if game.phase is Phase.DOUBLE and game.double_offered_by is not None:
        return game.double_offered_by.other
    return game.side_to_move


def last_play_event(game: Game) -> Event | None:
    for event in reversed(game.history):
        if event.kind in ("move", "pass"):
            return event
    return None


MAX_PLAYS = 12  # plays in one caption: chains of forced turns in a bear-off are shorter


def recent_play_events(game: Game, new: Sequence[Event] = ()) -> list[Event]:
    """The plays a reader has not seen yet, oldest first: every play of the last action
    (``new``: a Done followed by forced turns can be several, and may end the game), and at
    least the last play of each side; at most :data:`MAX_PLAYS`."""
    plays = [e for e in game.history if e.kind in ("move", "pass")]
    unseen = sum(1 for e in new if e.kind in ("move", "pass"))
    out: list[Event] = []
    sides: set[Side | None] = set()
    for event in reversed(plays):
        if len(out) >= max(unseen, 1) and (len(sides) == 2 or event.side in sides):
            break
        out.insert(0, event)
        sides.add(event.side)
    return out[-MAX_PLAYS:]


def lot_line(lang: str, snap: Snapshot) -> str | None:
    """The opening lot (C-12), shown until both sides have moved once."""
    game = snap.game
    if game.lot is None or sum(game.turns_played) >= 2:
        return None
    first = game.history[0].side if game.history and game.history[0].kind == "lot" else None
    if first is None:
        return None
    seat_first = game.seat_of(first)
    return t(
        lang,
        f"cap_lot_{game.variant_name}",
        a=h(short_name(snap.names[0])),
        da=game.lot[0],
        b=h(short_name(snap.names[1])),
        db=game.lot[1],
        first=h(short_name(snap.names[seat_first])),
    )


def burned_dice(event: Event) -> tuple[int, ...]:
    """The dice of ``event``'s roll that its play did not use (C-22)."""
    if len(event.dice) != 2:
        return ()
    rolled = [event.dice[0]] * 4 if event.dice[0] == event.dice[1] else list(event.dice)
    for step in event.steps:
        if step.die in rolled:
            rolled.remove(step.die)
    return tuple(rolled)


def forfeit_rule(event: Event, game: Game) -> str:
    """The rule that explains a pass or a forfeited die of ``event``."""
    if event.kind == "pass" or not event.steps:
        side = event.side
        if side is not None and get_variant(game.variant_name).has_bar and game.pos.on_bar(side):
            return "S-15"  # a checker on the bar could not enter, so nothing could move
        return "C-18"
    if event.dice[0] == event.dice[1]:
        return "C-21"
    return "C-20"


def play_notation(
    game: Game, side: Side, steps: Sequence[Step], notation: str, numbering: Side | None
) -> str:
    """A play of ``side`` as a caption writes it: in the mover's own numbers, as the engine,
    the move log and ``/move`` write it (RULES.md C-4: a checker's numbers only go down), and
    when the picture it goes with is numbered from the other side (``numbering``), that
    picture's numbers in brackets after it, as RULES.md §0.4 gives the other player's points:
    ``19/13/7 [7/1/19]``. Converted alone, a long-nardy play crossing the viewer's 1–24 seam
    read ``7/1/19``, numbers going up and down at once."""
    if numbering is None or numbering is side or not steps:
        return notation
    variant = get_variant(game.variant_name)

    def point(p: int) -> int:
        return p if p in (OFF, BAR) else variant.to_opponent_point(p)

    seen = format_steps([replace(s, src=point(s.src), dst=point(s.dst)) for s in steps])
    return f"{notation} [{seen}]"


def burned_text(burned: Sequence[int]) -> str:
    """The dice a play left unplayed: «6» or, of a double, «6×2» (two sixes — «6-6» would
    read as the whole roll)."""
    if len(burned) > 1 and len(set(burned)) == 1:
        return f"{burned[0]}×{len(burned)}"
    return ", ".join(str(d) for d in burned)


def event_line(lang: str, snap: Snapshot, event: Event, numbering: Side | None = None) -> str:
    """One play of the caption: who, the roll, the play in ``numbering``'s points."""
    game = snap.game
    assert event.side is not None
    seat = game.seat_of(event.side)
    name = h(short_name(snap.names[seat]))
    dice = dice_text(event.dice)
    if event.kind == "pass" or not event.steps:
        return t(lang, "cap_pass", name=name, dice=dice, rule=forfeit_rule(event, game))
    play = h(
        localized_notation(
            lang, play_notation(game, event.side, event.steps, event.notation, numbering)
        )
    )
    burned = burned_dice(event)
    if burned and game.pos.board(event.side)[OFF] != 15:
        return t(
            lang,
            "cap_burn",
            name=name,
            dice=dice,
            play=play,
            burned=burned_text(burned),
            rule=forfeit_rule(event, game),
        )
    return t(lang, "cap_last", name=name, dice=dice, play=play)


def localized(snap: Snapshot, lang: str) -> Snapshot:
    """The snapshot with the computer's seat named in the chat's language."""
    seat = snap.ai_seat
    if seat is None:
        return snap
    level = snap.row.ai_level or "medium"
    names = dict(snap.names)
    names[seat] = t(lang, "ai_name", level=t(lang, f"level_{level}").lower())
    return replace(snap, names=names)
