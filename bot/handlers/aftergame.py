"""After a game: the Replay and Record buttons of a finished game's board.

Replay sends the animated replay (drawn by the drawing process, ``Painter.replay``) with
``sendAnimation``; Record sends the game's ``.mat`` record (``engine.record``) with
``sendDocument``. Either works for anyone who can see the board (a finished game is public
in its chat) and changes nothing, so a redelivered tap only sends the file again.
"""

from __future__ import annotations

import logging

from aiogram import Bot, F, Router
from aiogram.types import BufferedInputFile, CallbackQuery

from bot.callbacks import Act, GameCB
from bot.presenter.common import localized, short_name
from bot.showing import Shows
from bot.texts import h, t
from engine import Side
from engine.game import EventKind
from engine.record import match_file
from gameplay import Snapshot
from renderer.options import EN_LABELS, RU_LABELS

log = logging.getLogger(__name__)


def _names_by_side(snap: Snapshot) -> tuple[str, str]:
    game = snap.game
    return (
        short_name(snap.names[game.seat_of(Side.WHITE)]),
        short_name(snap.names[game.seat_of(Side.BLACK)]),
    )


async def replay(
    query: CallbackQuery, callback_data: GameCB, lang: str, snap: Snapshot, shows: Shows, bot: Bot
) -> None:
    """Send the finished game's animated replay to the chat of the tapped board."""
    if snap.game.result is None or query.message is None:
        await query.answer(t(lang, "outdated"))
        return
    await query.answer(t(lang, "replay_wait"))
    snap = localized(snap, lang)
    game = snap.game
    chat_id = query.message.chat.id
    white, black = _names_by_side(snap)
    viewer = Side.WHITE
    seat = snap.seat_of_user(query.from_user.id)
    if seat is not None:
        viewer = game.side_of(seat)
    gif = await shows.boards.painter.replay(
        tuple(game.history),
        str(game.variant_name),
        options=game.options,
        names=(white, black),
        labels=RU_LABELS if lang == "ru" else EN_LABELS,
        viewer=viewer,
    )
    turns = sum(e.kind in (EventKind.MOVE, EventKind.PASS) for e in game.history)
    caption = t(
        lang,
        "replay_caption",
        white=h(white),
        black=h(black),
        variant=t(lang, f"variant_{game.variant_name}"),
        turns=turns,
    )
    upload = BufferedInputFile(gif, filename=f"nardy-{callback_data.game}.gif")
    await shows.outbox.run(
        chat_id, lambda: bot.send_animation(chat_id, upload, caption=caption, parse_mode="HTML")
    )


async def record(
    query: CallbackQuery, callback_data: GameCB, lang: str, snap: Snapshot, shows: Shows, bot: Bot
) -> None:
    """Send the finished game's record as a ``.mat`` document."""
    if snap.game.result is None or query.message is None:
        await query.answer(t(lang, "outdated"))
        return
    await query.answer(t(lang, "record_wait"))
    snap = localized(snap, lang)
    game = snap.game
    chat_id = query.message.chat.id
    names = (short_name(snap.names[0]), short_name(snap.names[1]))
    text = match_file(snap.match, names)
    note = t(lang, f"record_note_{game.variant_name}")
    upload = BufferedInputFile(text.encode("utf-8"), filename=f"nardy-{callback_data.game}.mat")
    caption = t(lang, "record_caption", note=note)
    await shows.outbox.run(chat_id, lambda: bot.send_document(chat_id, upload, caption=caption))


def router() -> Router:
    r = Router(name="aftergame")
    cbq = r.callback_query
    cbq.register(replay, GameCB.filter(F.a == Act.REPLAY), flags={"tap": "load", "claim": "none"})
    cbq.register(record, GameCB.filter(F.a == Act.RECORD), flags={"tap": "load", "claim": "none"})
    return r
