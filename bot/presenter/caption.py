"""A board's caption: who plays, the last plays, the cube, whose turn it is."""

from __future__ import annotations

from bot.presenter.clock import clock_line, ended_line, timed_out
from bot.presenter.common import (
    DISC,
    ChatView,
    dice_text,
    event_line,
    lot_line,
    mention,
    play_notation,
    point_label,
    recent_play_events,
    short_name,
    shown_position,
    viewer_side,
)
from bot.texts import h, localized_notation, t
from engine import Phase, Side
from gameplay import PickerWay, Snapshot, whole_plays

CAPTION_LIMIT = 1024


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
    pos = shown_position(snap, view)
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
    plays = _play_lines(snap, lang, viewer_side(snap, view))
    head = lines
    lines = []
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
    text = "\n".join([*head, *plays, *lines])
    while len(text) > CAPTION_LIMIT and len(plays) > 1:  # the oldest plays give way first
        plays = plays[1:]
        text = "\n".join([*head, "…", *plays, *lines])
    return text if len(text) <= CAPTION_LIMIT else text[: CAPTION_LIMIT - 1] + "…"


def _play_lines(snap: Snapshot, lang: str, numbering: Side) -> list[str]:
    """The plays the reader has not seen, one line each, in the points of the reader's
    picture (``numbering``); a play made for a player because it was their only one says so
    (briefly when a chain of them follows)."""
    events = recent_play_events(snap.game, snap.events)
    forced = [e for e in events if e.steps and e in snap.forced_plays]
    marker = t(lang, "cap_forced" if len(forced) <= 2 else "cap_forced_short")
    return [event_line(lang, snap, e, numbering) + (marker if e in forced else "") for e in events]


def _status_lines(snap: Snapshot, view: ChatView) -> list[str]:
    lang = view.lang
    game, match = snap.game, snap.match
    ended = ended_line(lang, snap)
    if ended is not None:
        return [ended]
    if game.phase is Phase.OVER and game.result is not None:
        res = game.result
        seat = game.seat_of(res.winner)
        out = []
        if res.resigned:
            key = "cap_timeout" if timed_out(snap) else "cap_resigned"
            out.append(t(lang, key, name=h(short_name(snap.names[1 - seat]))))
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
        # the finishing action's, or as stored with the finish (a board drawn again)
        changes = snap.row.rating_changes if snap.finished is None else snap.finished.rating_changes
        if changes:
            parts = []
            for change in changes:
                seat_c = snap.seat_of_user(change.user_id)
                name = short_name(snap.names[seat_c]) if seat_c is not None else "?"
                parts.append(f"{h(name)} {change.after:.0f} ({change.delta:+.0f})")
            out.append(t(lang, "cap_rating", changes=", ".join(parts)))
        if snap.next_game is not None:
            out.append(t(lang, "cap_next_game"))
        return out
    if game.phase is Phase.DOUBLE and game.double_offered_by is not None:
        offer = game.seat_of(game.double_offered_by)
        return _with_clock(
            lang,
            snap,
            [
                t(
                    lang,
                    "cap_double",
                    name=mention(snap, offer),
                    value=game.cube_value * 2,
                    other=mention(snap, 1 - offer),
                )
            ],
        )
    seat = game.seat_to_act
    assert seat is not None
    side = game.side_to_move
    line = t(lang, "cap_to_move", name=mention(snap, seat), disc=DISC[side])
    if game.phase is Phase.MOVE and game.dice is not None:
        line += t(lang, "cap_rolled", dice=dice_text(game.dice))
    elif game.phase is Phase.ROLL:
        line += t(lang, "cap_roll_or_double")
    out = [line]
    if view.public:
        if game.phase is Phase.MOVE and game.dice is not None:
            out.append(t(lang, "cap_picker_public"))
        return _with_clock(lang, snap, out)
    if view.picker and game.phase is Phase.MOVE and not game.steps and view.pick is None:
        offered = bool(whole_plays(game))  # else "or a whole play" would point at nothing
        if offered and view.way is PickerWay.PLAYS:
            out.append(t(lang, "cap_picker_plays"))
        else:
            out.append(t(lang, "cap_picker" if offered else "cap_picker_steps"))
    if game.phase is Phase.MOVE and game.steps:
        entered = play_notation(
            game, side, game.steps, game.turn.notation(), viewer_side(snap, view)
        )
        out.append(t(lang, "cap_steps", play=h(localized_notation(lang, entered))))
        if game.turn.is_complete() and _is_movers(snap, view):
            out.append(t(lang, "cap_done_hint"))
    if view.pick is not None:
        out.append(t(lang, "cap_pick", point=point_label(lang, view.pick)))
    return _with_clock(lang, snap, out)


def _with_clock(lang: str, snap: Snapshot, lines: list[str]) -> list[str]:
    line = clock_line(lang, snap)
    return lines if line is None else [*lines, line]


def _is_movers(snap: Snapshot, view: ChatView) -> bool:
    """Whether the mover reads this board: a group's board is, a private one is its owner's."""
    if view.owner_user_id is None:
        return True
    seat = snap.game.seat_to_act
    return seat is not None and snap.user_ids.get(seat) == view.owner_user_id
