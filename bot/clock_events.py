"""What the bot does when a move clock fires (:class:`gameplay.scheduler.ClockHandler`).

The scheduler has already marked the event in storage (exactly once, whichever process or
restart fires it); this only words and sends it: the half-time reminder to the player on the
clock, the timeout offer (Claim / Keep waiting) to the one waiting for them, the refreshed
boards (the clock line, the Claim button, an abandoned game's ending).
"""

from __future__ import annotations

import logging

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.boards import Target
from bot.callbacks import Act, GameCB
from bot.presenter import localized, mention, short_name
from bot.presenter.clock import reminder_text
from bot.showing import Shows
from bot.texts import h, t
from engine.scoring import score_game
from gameplay import GameService, Refused, Snapshot
from storage import Game, GameClock

log = logging.getLogger(__name__)


def claim_keyboard(lang: str, snap: Snapshot) -> InlineKeyboardMarkup:
    """Claim / Keep waiting, for the version whose time ran out (a move since makes both
    outdated)."""

    def button(key: str, act: Act) -> InlineKeyboardButton:
        data = GameCB(game=snap.game_id, v=snap.version, a=act).pack()
        return InlineKeyboardButton(text=t(lang, key), callback_data=data)

    return InlineKeyboardMarkup(
        inline_keyboard=[[button("btn_claim", Act.CLAIM), button("btn_wait", Act.WAIT)]]
    )


def timeout_text(lang: str, snap: Snapshot, waiting_seat: int) -> str:
    """The offer to the waiting player, with what the claim scores (M-19: a resignation of
    the player on the clock, V-10 applies) and whether the match goes on after it."""
    game, match = snap.game, snap.match
    winner = game.side_of(waiting_seat)
    result = score_game(game.pos, winner, game.options, game.cube_value, resigned=True)
    goes_on = match.length > 1 and match.score[waiting_seat] + result.points < match.length
    return t(
        lang,
        "timeout_offer",
        late=h(short_name(snap.names[1 - waiting_seat])),
        name=mention(snap, waiting_seat),
        kind=t(lang, f"kind_{result.kind}"),
        points=result.points,
        match=t(lang, "timeout_match") if goes_on else "",
    )


class ClockNotices:
    """The bot's side of the clock scheduler."""

    def __init__(self, games: GameService, shows: Shows) -> None:
        self.games = games
        self.shows = shows

    async def _current(self, game_id: int, clock: GameClock) -> Snapshot | None:
        """The game as stored, if it is still at the version the event was fired for."""
        try:
            snap = await self.games.load(game_id, fresh=True)
        except Refused:
            return None
        if not snap.active or snap.version != clock.game_version:
            return None
        return snap

    async def remind(self, game_id: int, clock: GameClock) -> None:
        snap = await self._current(game_id, clock)
        if snap is None or clock.on_clock_user_id is None:
            return
        await self.shows.refresh(snap)  # the boards count down to the time left now

        def words(lang: str, target: Target) -> tuple[str, None]:
            return reminder_text(lang, localized(snap, lang), group=not target.private), None

        await self.shows.tell_player(snap, clock.on_clock_user_id, words)

    async def timed_out(self, game_id: int, clock: GameClock) -> None:
        snap = await self._current(game_id, clock)
        if snap is None or clock.on_clock_user_id is None:
            return
        late = snap.seat_of_user(clock.on_clock_user_id)
        waiting = None if late is None else snap.user_ids.get(1 - late)
        if late is None or waiting is None:
            return
        await self.shows.refresh(snap)  # the caption says so; the Claim button appears

        def words(lang: str, target: Target) -> tuple[str, InlineKeyboardMarkup]:
            local = localized(snap, lang)
            return timeout_text(lang, local, 1 - late), claim_keyboard(lang, local)

        await self.shows.tell_player(snap, waiting, words)

    async def abandoned(self, game_id: int, game: Game) -> None:
        snap = await self.games.closed_inactive(game)
        log.info("game %s closed as abandoned after %s", game_id, self.games.abandon_after)
        await self.shows.refresh(snap)
        await self.shows.boards.clear_notices(game_id)
