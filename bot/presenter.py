"""What a chat sees of a game: the caption, the inline keyboard and the picture.

Pure functions of a :class:`~bot.gameplay.Snapshot` and the chat's point of view; the picture
is drawn by the renderer off the event loop (``asyncio.to_thread``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import Act, GameCB
from bot.drawing import BOARD_WIDTH
from bot.gameplay import Snapshot
from bot.texts import h, localized_notation, t
from engine import BAR, OFF, Event, Game, Phase, Side
from engine.positionid import encode
from renderer.options import EN_LABELS, RU_LABELS, BoardOptions, GameOverInfo

DISC = {Side.WHITE: "⚪", Side.BLACK: "⚫"}
MAX_NAME = 32
CAPTION_LIMIT = 1024


@dataclass(frozen=True, slots=True)
class ChatView:
    """Who looks at a board message: ``owner`` is the player whose private chat it is (their
    side at the bottom, their keyboard only); ``None`` for a group (the mover's side)."""

    lang: str
    owner_user_id: int | None = None
    pick: int | None = None  # a source point chosen by the mover: show its destinations


@dataclass(frozen=True, slots=True)
class BoardView:
    caption: str
    keyboard: InlineKeyboardMarkup | None
    options: BoardOptions


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


def recent_play_events(game: Game) -> list[Event]:
    """The last play of each side, oldest first (at most two lines in a caption)."""
    out: list[Event] = []
    for event in reversed(game.history):
        if event.kind == "end" or event.kind == "lot":
            break
        if event.kind in ("move", "pass"):
            if out and out[0].side == event.side:
                break
            out.insert(0, event)
            if len(out) == 2:
                break
    return out


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
        if side is not None and game.variant_name == "short" and game.pos.on_bar(side):
            return "S-15"  # a checker on the bar could not enter, so nothing could move
        return "C-18"
    if event.dice[0] == event.dice[1]:
        return "C-21"
    return "C-20"


def event_line(lang: str, snap: Snapshot, event: Event) -> str:
    game = snap.game
    assert event.side is not None
    seat = game.seat_of(event.side)
    name = h(short_name(snap.names[seat]))
    dice = dice_text(event.dice)
    if event.kind == "pass" or not event.steps:
        return t(lang, "cap_pass", name=name, dice=dice, rule=forfeit_rule(event, game))
    burned = burned_dice(event)
    if burned and game.pos.board(event.side)[OFF] != 15:
        return t(
            lang,
            "cap_burn",
            name=name,
            dice=dice,
            play=h(localized_notation(lang, event.notation)),
            burned="-".join(str(d) for d in burned),
            rule=forfeit_rule(event, game),
        )
    return t(
        lang, "cap_last", name=name, dice=dice, play=h(localized_notation(lang, event.notation))
    )


def caption(snap: Snapshot, view: ChatView) -> str:
    lang = view.lang
    game, match = snap.game, snap.match
    lines: list[str] = []
    title = t(lang, f"title_{match.variant_name}")
    extra = ""
    if match.length > 1:
        white_seat = game.seat_of(Side.WHITE)
        extra = t(
            lang,
            "cap_match",
            game=match.game_number,
            a=match.score[white_seat],
            b=match.score[1 - white_seat],
            length=match.length,
        )
    lines.append(t(lang, "cap_header", title=title, match=extra))
    pos = game.current_position
    for side in (Side.WHITE, Side.BLACK):
        seat = game.seat_of(side)
        off = pos.borne_off(side)
        lines.append(
            t(
                lang,
                "cap_player",
                disc=DISC[side],
                name=h(short_name(snap.names[seat])),
                pips=pos.pip_count(side),
                off=t(lang, "cap_off", n=off) if off else "",
            )
        )
    lot = lot_line(lang, snap)
    if lot is not None:
        lines.append(lot)
    for event in recent_play_events(game):
        line = event_line(lang, snap, event)
        if (
            snap.forced
            and event.steps
            and event in snap.events
            and event.side is not None
            and snap.user_ids.get(game.seat_of(event.side)) is not None
        ):
            line += t(lang, "cap_forced")
        lines.append(line)
    if game.cube_enabled and (game.cube_value > 1 or game.cube_owner is not None):
        owner = ""
        if game.cube_owner is not None:
            owner = t(
                lang,
                "cap_cube_owner",
                name=h(short_name(snap.names[game.seat_of(game.cube_owner)])),
            )
        lines.append(t(lang, "cap_cube", value=game.cube_value, owner=owner))
    lines.append("")
    lines.extend(_status_lines(snap, view))
    lines.append(t(lang, "cap_id", pid=encode(pos)))
    text = "\n".join(lines)
    return text if len(text) <= CAPTION_LIMIT else text[: CAPTION_LIMIT - 1] + "…"


def _status_lines(snap: Snapshot, view: ChatView) -> list[str]:
    lang = view.lang
    game, match = snap.game, snap.match
    if game.phase is Phase.OVER and game.result is not None:
        res = game.result
        seat = game.seat_of(res.winner)
        out = []
        if res.resigned:
            out.append(t(lang, "cap_resigned", name=h(short_name(snap.names[1 - seat]))))
        if str(res.kind) == "drop":
            out.append(t(lang, "cap_dropped", name=h(short_name(snap.names[1 - seat]))))
        out.append(
            t(
                lang,
                "cap_over",
                name=h(short_name(snap.names[seat])),
                kind=t(lang, f"kind_{res.kind}"),
                points=res.points,
            )
        )
        if match.is_over and match.length > 1:
            win = match.winner_seat
            assert win is not None
            out.append(
                t(
                    lang,
                    "cap_match_over",
                    name=h(short_name(snap.names[win])),
                    a=match.score[win],
                    b=match.score[1 - win],
                )
            )
        if snap.finished is not None and snap.finished.rating_changes:
            parts = []
            for change in snap.finished.rating_changes:
                seat_c = snap.seat_of_user(change.user_id)
                name = short_name(snap.names[seat_c]) if seat_c is not None else "?"
                parts.append(f"{h(name)} {change.after:.0f} ({change.delta:+.0f})")
            out.append(t(lang, "cap_rating", changes=", ".join(parts)))
        if snap.next_row is not None:
            out.append(t(lang, "cap_next_game"))
        return out
    if game.phase is Phase.DOUBLE and game.double_offered_by is not None:
        offer = game.seat_of(game.double_offered_by)
        return [
            t(
                lang,
                "cap_double",
                name=mention(snap, offer),
                value=game.cube_value * 2,
                other=mention(snap, 1 - offer),
            )
        ]
    seat = game.seat_to_act
    assert seat is not None
    side = game.side_to_move
    line = t(lang, "cap_to_move", name=mention(snap, seat), disc=DISC[side])
    if game.phase is Phase.MOVE and game.dice is not None:
        line += t(lang, "cap_rolled", dice=dice_text(game.dice))
    elif game.phase is Phase.ROLL:
        line += t(lang, "cap_roll_or_double")
    out = [line]
    if game.phase is Phase.MOVE and game.steps:
        out.append(t(lang, "cap_steps", play=h(localized_notation(lang, game.turn.notation()))))
        if game.turn.is_complete():
            out.append(t(lang, "cap_done_hint"))
    if view.pick is not None:
        out.append(t(lang, "cap_pick", point=point_label(lang, view.pick)))
    return out


def keyboard(snap: Snapshot, view: ChatView, *, hints: bool = False) -> InlineKeyboardMarkup | None:
    """Buttons for the player who must act (only in their own chat, or in a group)."""
    lang = view.lang
    game = snap.game
    gid, v = snap.row.game_id, snap.version
    actor = game.seat_to_act
    rows: list[list[InlineKeyboardButton]] = []

    def btn(text: str, act: Act, s: int = 0, dst: int = 0) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            text=text, callback_data=GameCB(game=gid, v=v, a=act, s=s, t=dst).pack()
        )

    if game.phase is Phase.OVER:
        if snap.match.is_over:
            rows.append([btn(t(lang, "btn_rematch"), Act.REMATCH)])
        return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None
    if actor is None:
        return None
    if view.owner_user_id is not None and snap.user_ids.get(actor) != view.owner_user_id:
        return None
    if game.phase is Phase.DOUBLE:
        rows.append(
            [
                btn(t(lang, "btn_take", value=game.cube_value * 2), Act.TAKE),
                btn(t(lang, "btn_drop"), Act.DROP),
            ]
        )
    elif game.phase is Phase.ROLL:
        row = [btn(t(lang, "btn_roll"), Act.ROLL)]
        if game.can_double(actor):
            row.append(btn(t(lang, "btn_double"), Act.DOUBLE))
        rows.append(row)
    elif game.phase is Phase.MOVE:
        steps = game.legal_steps()
        if view.pick is not None:
            dests = [s for s in steps if s.src == view.pick]
            row: list[InlineKeyboardButton] = []
            for s in sorted(dests, key=lambda s: -s.dst if s.dst else 1):
                label = f"{point_label(lang, s.src)}→{point_label(lang, s.dst)} ({s.die})"
                row.append(btn(label, Act.MOVE, s.src, s.dst))
                if len(row) == 3:
                    rows.append(row)
                    row = []
            if row:
                rows.append(row)
            rows.append([btn(t(lang, "btn_back"), Act.BACK)])
        else:
            sources = sorted({s.src for s in steps}, reverse=True)
            row = []
            for src in sources:
                row.append(btn(point_label(lang, src), Act.PICK, src))
                if len(row) == 6:
                    rows.append(row)
                    row = []
            if row:
                rows.append(row)
            control = []
            if game.steps:
                control.append(btn(t(lang, "btn_undo"), Act.UNDO))
            if game.turn.is_complete():
                control.append(btn(t(lang, "btn_done"), Act.DONE))
            if control:
                rows.append(control)
    extra = []
    event = last_play_event(game)
    if (
        event is not None
        and game.phase is not Phase.DOUBLE
        and (event.kind == "pass" or burned_dice(event))
    ):
        extra.append(btn(t(lang, "btn_why"), Act.WHY))
    if hints and game.phase is Phase.MOVE and view.pick is None:
        extra.append(btn(t(lang, "btn_hint"), Act.HINT))
    if extra:
        rows.append(extra)
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


def board_options(snap: Snapshot, view: ChatView) -> BoardOptions:
    game = snap.game
    lang = view.lang
    side = viewer_side(snap, view)
    numbering = side
    dice: tuple[int, ...] | None = None
    used = 0
    highlight: frozenset[int] = frozenset()
    last_steps = None
    last_side = None
    if game.phase is Phase.MOVE and game.dice is not None:
        turn = game.turn
        # Used dice first: the renderer dims the first ``dice_used`` of them.
        dice = tuple(s.die for s in turn.steps) + turn.remaining_dice
        used = len(game.steps)
        numbering = game.side_to_move if view.owner_user_id is None else side
        steps = game.legal_steps()
        mover = game.side_to_move
        if numbering is mover:
            if view.pick is not None:
                highlight = frozenset(s.dst for s in steps if s.src == view.pick) | {view.pick}
            else:
                highlight = frozenset(s.src for s in steps)
        if game.steps:
            last_steps, last_side = game.steps, mover
    if last_steps is None:
        event = last_play_event(game)
        if event is not None and event.steps:
            last_steps, last_side = event.steps, event.side
    names_by_side = (
        short_name(snap.names[game.seat_of(Side.WHITE)]),
        short_name(snap.names[game.seat_of(Side.BLACK)]),
    )
    match = None
    if snap.match.length > 1:
        ws = game.seat_of(Side.WHITE)
        match = (snap.match.score[ws], snap.match.score[1 - ws], snap.match.length)
    result = None
    if game.result is not None:
        result = GameOverInfo.from_result(game.result)
    return BoardOptions(
        viewer=side,
        numbering=numbering,
        dice=dice,
        dice_used=used,
        last_play=tuple(last_steps) if last_steps else None,
        last_play_side=last_side,
        highlight_points=highlight,
        names=names_by_side,
        cube_enabled=game.cube_enabled,
        cube_value=min(game.cube_value, 64),
        cube_owner=game.cube_owner,
        match=match,
        result=result,
        labels=RU_LABELS if lang == "ru" else EN_LABELS,
        image_format="jpeg",
        width=BOARD_WIDTH,
        optimize_jpeg=False,
    )


def localized(snap: Snapshot, lang: str) -> Snapshot:
    """The snapshot with the computer's seat named in the chat's language."""
    seat = snap.ai_seat
    if seat is None:
        return snap
    level = snap.row.ai_level or "medium"
    names = dict(snap.names)
    names[seat] = t(lang, "ai_name", level=t(lang, f"level_{level}").lower())
    return replace(snap, names=names)


def board_view(snap: Snapshot, view: ChatView, *, hints: bool = False) -> BoardView:
    snap = localized(snap, view.lang)
    return BoardView(
        caption(snap, view), keyboard(snap, view, hints=hints), board_options(snap, view)
    )
