"""After a game: the Replay, Record and Review buttons of a finished game's board, and the
``/review`` and ``/history`` commands.

Replay sends the animated replay (drawn by the drawing process, ``Painter.replay``) with
``sendAnimation``; Record sends the whole match's ``.mat`` record up to this game
(``engine.record``) with ``sendDocument``; Review sends the computer's review
(``gameplay.reviews``: computed once in a worker process, then kept) as a message and an
album of the mistakes' pictures; the last board of a match of several games also has Match
review (the review of each game and each player's totals over the match, ``/review match``).
Each works for anyone who can see the board (a finished game is public in its chat); a
redelivered tap only sends the same thing again, and a tap on Review while that review is
being prepared is answered without a second one.

A board in an inline-mode message cannot carry files and its chat may not have the bot, so
there the answer goes to the tapping player's private chat with the bot, and only the game's
two players may ask: the bot cannot see who else reads that message, and each answer costs
a drawing or a review (:func:`bot.handlers.util.reply_chat`).
"""

from __future__ import annotations

import asyncio
import logging

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
)

from bot import refusals
from bot.callbacks import Act, GameCB
from bot.handlers.util import ReplyChat, reply_chat
from bot.presenter.common import localized, short_name
from bot.presenter.review import match_review_text, mistake_pictures, review_text
from bot.showing import Shows
from bot.texts import h, t
from engine import Side
from engine.game import EventKind
from engine.record import match_file
from gameplay import Actor, GameService, Place, Refusal, Refused, Snapshot
from gameplay.archive import Archive
from gameplay.reviews import Reviews, ReviewStart
from renderer.options import EN_LABELS, RU_LABELS

log = logging.getLogger(__name__)

#: Items of one album (Telegram's sendMediaGroup takes 2-10).
ALBUM_MAX = 10
#: ``/review match``: the first word that asks for the whole match.
MATCH_WORDS = frozenset({"match", "матч", "m", "м"})


def _wait_text(lang: str, key: str, to: ReplyChat) -> str:
    """The tap's answer: what is coming, and where when it is not this chat."""
    text = t(lang, key)
    return f"{text} {t(lang, 'inline_to_private')}" if to.private else text


def _names_by_side(snap: Snapshot) -> tuple[str, str]:
    game = snap.game
    return (
        short_name(snap.names[game.seat_of(Side.WHITE)]),
        short_name(snap.names[game.seat_of(Side.BLACK)]),
    )


async def _finished_tap(
    query: CallbackQuery,
    lang: str,
    snap: Snapshot,
    shows: Shows,
    bot: Bot,
    *,
    action: str = "typing",
    wait: str | None = None,
) -> ReplyChat | None:
    """What every button of a finished game's board does first: a board whose game is not
    over (an old message) is answered "outdated"; then the chat that gets the answer
    (:func:`bot.handlers.util.reply_chat`, which shows ``action``) and, with ``wait``, the
    tap answered with that text (and where the answer goes). None: the tap was answered and
    there is nothing to send. The game itself is loaded by the middleware (``snap``)."""
    if snap.game.result is None:
        await query.answer(t(lang, "outdated"))
        return None
    to = await reply_chat(query, lang, bot, shows.outbox, players=snap, action=action)
    if to is not None and wait is not None:
        await query.answer(_wait_text(lang, wait, to))
    return to


async def replay(
    query: CallbackQuery, callback_data: GameCB, lang: str, snap: Snapshot, shows: Shows, bot: Bot
) -> None:
    """Send the finished game's animated replay to the chat of the tapped board."""
    to = await _finished_tap(
        query, lang, snap, shows, bot, action="upload_video", wait="replay_wait"
    )
    if to is None:
        return
    snap = localized(snap, lang)
    game = snap.game
    chat_id = to.chat_id
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
        chat_id,
        lambda: bot.send_animation(
            chat_id, upload, caption=caption, parse_mode="HTML", message_thread_id=to.thread_id
        ),
    )


async def record(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    snap: Snapshot,
    shows: Shows,
    bot: Bot,
    archive: Archive,
) -> None:
    """Send the match's record up to this game (every game of it) as a ``.mat`` document."""
    to = await _finished_tap(
        query, lang, snap, shows, bot, action="upload_document", wait="record_wait"
    )
    if to is None:
        return
    snap = localized(snap, lang)
    game = snap.game
    chat_id = to.chat_id
    names = (short_name(snap.names[0]), short_name(snap.names[1]))
    earlier = await archive.earlier_games(snap.game_id)
    text = match_file(snap.match, names, earlier)
    note = t(lang, f"record_note_{game.variant_name}")
    upload = BufferedInputFile(text.encode("utf-8"), filename=f"nardy-{callback_data.game}.mat")
    caption = t(lang, "record_caption", note=note)
    await shows.outbox.run(
        chat_id,
        lambda: bot.send_document(chat_id, upload, caption=caption, message_thread_id=to.thread_id),
    )


# ---- the review ---------------------------------------------------------------------------


async def review(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    snap: Snapshot,
    shows: Shows,
    bot: Bot,
    reviews: Reviews,
) -> None:
    """Review the finished game of the tapped board in its chat, or with Match review (the
    last board of a match) the whole match."""
    whole_match = callback_data.a is Act.MATCH_REVIEW
    to = await _finished_tap(query, lang, snap, shows, bot)
    if to is None:
        return
    key = "match_review" if whole_match else "review"
    request = reviews.request_match if whole_match else reviews.request
    start, task = request(snap.game_id)
    if start is ReviewStart.RUNNING and not to.private:  # it will be answered in this chat
        await query.answer(t(lang, f"{key}_running"))
        return
    # From an inline message a running request is for the other player's private chat (or
    # this player's earlier tap): this chat gets the review too when it is ready.
    await query.answer(_wait_text(lang, f"{key}_wait", to))
    await _deliver(task, snap, lang, to.chat_id, to.thread_id, shows, bot, whole_match=whole_match)


async def review_command(
    message: Message,
    command: CommandObject,
    lang: str,
    actor: Actor,
    place: Place,
    games: GameService,
    archive: Archive,
    shows: Shows,
    bot: Bot,
    reviews: Reviews,
) -> None:
    """``/review`` — the last finished game here (a private chat: the user's last game);
    ``/review 123`` — game No. 123 if it was played here or by the user; ``/review match``
    (``матч``) with or without a number — that game's whole match."""
    words = (command.args or "").split()
    whole_match = bool(words) and words[0].lower() in MATCH_WORDS
    args = " ".join(words[1:] if whole_match else words).lstrip("#№")
    if args and not args.isdigit():
        await message.answer(t(lang, "review_usage"))
        return
    try:
        row = await archive.finished_game(place, actor.user_id, int(args) if args else None)
        snap = await games.load(row.game_id)
    except Refused as refused:
        if refused.refusal is Refusal.GAME_NOT_FOUND:
            key = "review_not_here" if args else "review_none"
            await message.answer(t(lang, key, game=h(args)))
        else:
            await refusals.reply(message, lang, refused)
        return
    whole = whole_match and snap.match.length > 1  # a single game's match is the game
    if whole:
        try:  # refused before "reviewing…" is said: a match still being played
            await reviews.check_match(snap.game_id)
        except Refused as refused:
            await refusals.reply(message, lang, refused)
            return
    key = "match_review" if whole else "review"
    request = reviews.request_match if whole else reviews.request
    start, task = request(snap.game_id)
    if start is ReviewStart.RUNNING:
        await message.answer(t(lang, f"{key}_running"))
        return
    if whole:
        ready = await reviews.match_stored(snap.game_id)
    else:
        ready = await reviews.stored(snap.game_id) is not None
    if not ready:
        await message.answer(t(lang, f"{key}_wait"))
    await _deliver(
        task, snap, lang, place.chat_id, place.thread_id or None, shows, bot, whole_match=whole
    )


async def _deliver(
    task: asyncio.Task,
    snap: Snapshot,
    lang: str,
    chat_id: int,
    thread_id: int | None,
    shows: Shows,
    bot: Bot,
    *,
    whole_match: bool = False,
) -> None:
    """Wait for the review and send it: the summary, then the mistakes' pictures (drawn by
    the drawing process); a match's review (``whole_match``) is one message, each game's own
    review has the pictures. Nothing is sent when another bot process computed it for its
    own request (that one sends it)."""
    try:
        result = await asyncio.shield(task)
    except Refused as refused:
        await _say(refusals.refusal_text(lang, refused), chat_id, thread_id, shows, bot)
        return
    except Exception:
        log.exception("the review of game %s failed", snap.game_id)
        await _say(t(lang, "review_failed"), chat_id, thread_id, shows, bot)
        return
    if result is None:
        return
    snap = localized(snap, lang)
    if whole_match:
        text = match_review_text(result, (snap.names[0], snap.names[1]), lang)
        await _say(text, chat_id, thread_id, shows, bot)
        return
    game = snap.game
    names = {side: snap.names[game.seat_of(side)] for side in Side}
    await _say(review_text(result, names, lang), chat_id, thread_id, shows, bot)
    painter = shows.boards.painter
    album = []
    for n, picture in enumerate(mistake_pictures(result, names, lang), start=1):
        image = await painter.mistake(
            picture.position, picture.played, picture.best, picture.options
        )
        upload = BufferedInputFile(image, filename=f"review-{snap.game_id}-{n}.jpg")
        album.append(InputMediaPhoto(media=upload, caption=picture.caption))
    await _send_album(album, chat_id, thread_id, shows, bot)


async def _say(text: str, chat_id: int, thread_id: int | None, shows: Shows, bot: Bot) -> None:
    await shows.outbox.run(
        chat_id, lambda: bot.send_message(chat_id, text, message_thread_id=thread_id)
    )


async def _send_album(
    album: list[InputMediaPhoto], chat_id: int, thread_id: int | None, shows: Shows, bot: Bot
) -> None:
    """The mistakes' pictures as one album (``sendMediaGroup``: one message, each picture
    with its own caption; at most :data:`ALBUM_MAX` a group), a lone picture as a photo."""
    for start in range(0, len(album), ALBUM_MAX):
        part = album[start : start + ALBUM_MAX]
        if len(part) == 1:
            (photo,) = part
            await shows.outbox.run(
                chat_id,
                lambda photo=photo: bot.send_photo(
                    chat_id, photo.media, caption=photo.caption, message_thread_id=thread_id
                ),
            )
            continue
        await shows.outbox.run(
            chat_id,
            lambda part=part: bot.send_media_group(chat_id, part, message_thread_id=thread_id),
            messages=len(part),
        )


# ---- history ------------------------------------------------------------------------------


async def history(
    message: Message, lang: str, actor: Actor, place: Place, games: GameService, archive: Archive
) -> None:
    """The recent finished games (a group's, or in a private chat the user's own), each with
    buttons for its replay, record and review."""
    rows = await archive.recent(place, actor.user_id)
    if not rows:
        await message.answer(t(lang, "history_empty"))
        return
    lines = [t(lang, "history_title", whose=t(lang, "history_mine") if place.private else "")]
    keyboard = []
    for n, row in enumerate(rows, start=1):
        snap = localized(await games.load(row.game_id), lang)
        game = snap.game
        white, black = _names_by_side(snap)
        result = t(lang, "history_none_result")
        if row.result is not None:
            winner = white if str(row.result.winner) == "white" else black
            result = t(lang, "history_result", winner=h(winner), points=row.result.points)
        when = (row.finished_at or row.updated_at).strftime("%d.%m.%Y")
        lines.append(
            t(
                lang,
                "history_line",
                n=n,
                game=row.game_id,
                variant=t(lang, f"variant_{game.variant_name}"),
                white=h(white),
                black=h(black),
                result=result,
                date=when,
            )
        )

        def btn(text: str, act: Act, gid: int = row.game_id, v: int = row.version):
            return InlineKeyboardButton(
                text=f"{text} {gid}", callback_data=GameCB(game=gid, v=v, a=act).pack()
            )

        keyboard.append([btn("🎞", Act.REPLAY), btn("📄", Act.RECORD), btn("🧑‍🏫", Act.REVIEW)])
    lines.extend(["", t(lang, "history_hint")])
    markup = InlineKeyboardMarkup(inline_keyboard=keyboard)
    await message.answer("\n".join(lines), reply_markup=markup)


def router() -> Router:
    r = Router(name="aftergame")
    cbq = r.callback_query
    quiet = {"tap": "load", "claim": "none"}
    cbq.register(replay, GameCB.filter(F.a == Act.REPLAY), flags=quiet)
    cbq.register(record, GameCB.filter(F.a == Act.RECORD), flags=quiet)
    cbq.register(review, GameCB.filter(F.a.in_({Act.REVIEW, Act.MATCH_REVIEW})), flags=quiet)
    r.message.register(review_command, Command("review"))
    r.message.register(history, Command("history"))
    return r
