"""A board's buttons: the choices of the player who must act (only in their own chat, or in a
group), and for every reader the position ID to copy."""

from __future__ import annotations

from aiogram.types import CopyTextButton, InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import Act, GameCB
from bot.presenter.common import (
    ChatView,
    burned_dice,
    last_play_event,
    point_label,
    shown_position,
)
from bot.texts import localized_notation, t
from engine import Phase, format_steps
from engine.positionid import encode
from gameplay import PickerWay, Snapshot, one_tap_steps, whole_plays
from gameplay.clocks import ClockState


def keyboard(snap: Snapshot, view: ChatView) -> InlineKeyboardMarkup:
    """Buttons for the player who must act; Hint where the game allows hints; for everybody,
    the position ID one tap away (copied, not cluttering the caption)."""
    rows, extra = _play_rows(snap, view)
    pid = encode(shown_position(snap, view))
    extra.append(
        InlineKeyboardButton(
            text=t(view.lang, "btn_position_id"), copy_text=CopyTextButton(text=pid)
        )
    )
    rows.append(extra)
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _may_claim_here(snap: Snapshot, view: ChatView) -> bool:
    """The mover's time is up and this board is read by the waiting player: their own private
    chat, or a group (whoever taps there is checked)."""
    clock = snap.clock
    if clock is None or clock.state is not ClockState.EXPIRED or clock.on_clock_user_id is None:
        return False
    return view.owner_user_id is None or clock.may_claim(view.owner_user_id)


def _play_rows(
    snap: Snapshot, view: ChatView
) -> tuple[list[list[InlineKeyboardButton]], list[InlineKeyboardButton]]:
    """The rows of the mover's choices, and the last row's buttons (Why?, Hint)."""
    lang = view.lang
    game = snap.game
    gid, v = snap.row.game_id, snap.version
    actor = game.seat_to_act
    rows: list[list[InlineKeyboardButton]] = []

    def btn(text: str, act: Act, s: int = 0, dst: int = 0) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            text=text, callback_data=GameCB(game=gid, v=v, a=act, s=s, t=dst).pack()
        )

    if not snap.active and game.phase is not Phase.OVER:  # ended without a result
        return rows, []
    if _may_claim_here(snap, view):
        rows.append([btn(t(lang, "btn_claim"), Act.CLAIM)])
    if game.phase is Phase.OVER:
        rows.append(
            [
                btn(t(lang, "btn_replay"), Act.REPLAY),
                btn(t(lang, "btn_record"), Act.RECORD),
                btn(t(lang, "btn_review"), Act.REVIEW),
            ]
        )
        if snap.match.is_over and snap.match.game_number > 1:
            rows.append([btn(t(lang, "btn_match_review"), Act.MATCH_REVIEW)])
        if snap.match.is_over:
            # A rematch offer is a new message in the game's chat: an inline message has none.
            if not view.inline:
                rows.append([btn(t(lang, "btn_rematch"), Act.REMATCH)])
            if snap.row.dice_seed_id is not None:
                rows.append([btn(t(lang, "btn_verify"), Act.VERIFY)])
        return rows, []
    if actor is None:
        return rows, []
    if view.owner_user_id is not None and snap.user_ids.get(actor) != view.owner_user_id:
        return rows, []
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
    elif game.phase is Phase.MOVE and view.public:
        rows.append([btn(t(lang, "btn_open_picker"), Act.OPEN)])
    elif game.phase is Phase.MOVE:
        steps = game.legal_steps()
        plays = [] if game.steps or view.pick is not None else whole_plays(game)
        if plays and view.way is PickerWay.PLAYS:
            row = []
            for index, play in plays:
                text = localized_notation(lang, format_steps(play.steps))
                row.append(btn(text, Act.PLAY, index))
                if len(row) == 2:
                    rows.append(row)
                    row = []
            if row:
                rows.append(row)
            rows.append([btn(t(lang, "btn_way_steps"), Act.WAY, 0)])
            plays = []
        elif view.pick is not None:
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
            single = one_tap_steps(game)
            row = []
            for src in sources:
                one = single.get(src)
                if one is None:
                    row.append(btn(point_label(lang, src), Act.PICK, src))
                else:  # one destination: the point's button plays the step
                    label = f"{point_label(lang, src)}→{point_label(lang, one.dst)}"
                    row.append(btn(label, Act.MOVE, src, one.dst))
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
        if plays:
            rows.append([btn(t(lang, "btn_way_plays", n=len(plays)), Act.WAY, 1)])
    extra = []
    event = last_play_event(game)
    if (
        event is not None
        and not view.inline
        and game.phase is not Phase.DOUBLE
        and (event.kind == "pass" or burned_dice(event))
    ):
        extra.append(btn(t(lang, "btn_why"), Act.WHY))
    if snap.hints and game.phase is Phase.MOVE and view.pick is None and not view.public:
        extra.append(btn(t(lang, "btn_hint"), Act.HINT))
    return rows, extra
