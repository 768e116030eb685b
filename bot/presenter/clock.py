"""The move clock as people read it: the choice ("24 h"), the time left ("23 h left"), a game
that timed out or ended without play. Relative times only: a deadline "by 21:40" means nothing
to a player in another time zone."""

from __future__ import annotations

from datetime import timedelta

from bot.presenter.common import mention, short_name
from bot.texts import h, t
from gameplay import Snapshot
from gameplay.clocks import ClockState, MoveClock, remaining_words


def clock_name(lang: str, choice: MoveClock) -> str:
    """A move-clock choice in words: «24 ч», "no limit"."""
    return t(lang, f"clock_{choice}")


def left_text(lang: str, left: timedelta) -> str:
    """Time left in one unit, rounded down: «23 ч», "5 min"."""
    amount, unit = remaining_words(left)
    return t(lang, f"unit_{unit}", n=amount)


def waiting_seat(snap: Snapshot) -> int | None:
    """The seat of the player who is waiting for the one on the clock."""
    uid = snap.clock.on_clock_user_id if snap.clock is not None else None
    seat = None if uid is None else snap.seat_of_user(uid)
    return None if seat is None else 1 - seat


def clock_line(lang: str, snap: Snapshot) -> str | None:
    """The caption's clock line while the game runs (None: no clock on this move)."""
    view = snap.clock
    if view is None or view.state is ClockState.OFF:
        return None
    if view.state is ClockState.EXPIRED:
        seat = waiting_seat(snap)
        name = h(short_name(snap.names[seat])) if seat is not None else "?"
        return t(lang, "cap_clock_expired", name=name)
    assert view.remaining is not None
    return t(lang, "cap_clock_left", left=left_text(lang, view.remaining))


END_KEYS = {
    "admin": "cap_end_admin",
    "agreement": "cap_end_agreement",
    "inactive": "cap_end_inactive",
}


def ended_line(lang: str, snap: Snapshot) -> str | None:
    """Why a game without a result ended (None while it runs or if it has a result)."""
    if not snap.abandoned:
        return None
    return t(lang, END_KEYS.get(snap.end_reason or "", "cap_end_stopped"))


def timed_out(snap: Snapshot) -> bool:
    """Whether the game was won by a timeout claim (its resignation line says so instead)."""
    return snap.end_reason == "timeout"


def reminder_text(lang: str, snap: Snapshot, *, group: bool) -> str:
    """Half the move's time is gone: a group mentions the player; a private chat names the
    opponent."""
    view = snap.clock
    left = left_text(lang, view.remaining) if view and view.remaining else "—"
    seat = snap.game.seat_to_act
    assert seat is not None
    if group:
        return t(lang, "remind_group", name=mention(snap, seat), left=left)
    return t(lang, "remind_private", opponent=h(short_name(snap.names[1 - seat])), left=left)
