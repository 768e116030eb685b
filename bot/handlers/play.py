"""Playing: board buttons, typed moves, /board, /undo, /resign, /hint, "why?".

Every callback is answered as soon as the action is decided, before the (slower) drawing and
editing of the boards.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re

from aiogram import F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

import storage
from bot.boards import Boards, Target
from bot.callbacks import Act, GameCB, RulesCB
from bot.gameplay import GameplayError, GameService, NotationRejection, RuleRejection, Snapshot
from bot.handlers.util import thread_of
from bot.presenter import burned_dice, dice_text, forfeit_rule, last_play_event
from bot.texts import h, localized_notation, t
from engine import Game, NotationError, Phase, Reason, format_steps
from engine.scoring import score_game

router = Router(name="play")
log = logging.getLogger(__name__)

# Text that looks like a move: "24/18 13/11", "bar/22", "6/off", "24-18", "бар/22", "8/2(2)".
NOTATION_RE = re.compile(
    r"^\s*((bar|бар|b|б|\d{1,2})\s*[/\-–]\s*(\d{1,2}|off|о|o|выброс|вых)\*?"
    r"([/\-–]\s*(\d{1,2}|off|выброс)\*?)*(\(\d\))?[\s,;]*)+$",
    re.IGNORECASE,
)


def rule_text(lang: str, reason: Reason) -> str:
    """The one-line explanation of a rejection, with its rule IDs (e.g. "… (L-8)")."""
    from teacher import get_rejection

    ids = ", ".join(reason.rule_ids)
    for rule_id in reason.rule_ids:
        rejection = get_rejection(rule_id)
        if rejection is not None:
            return f"{rejection.text.get(lang)} ({ids})"
    return f"{t(lang, 'rejected_generic')} ({ids})"


def why_keyboard(lang: str, rule_ids: tuple[str, ...]) -> InlineKeyboardMarkup | None:
    from teacher import topics_for_rule

    for rule_id in rule_ids:
        topics = topics_for_rule(rule_id)
        if topics:
            return InlineKeyboardMarkup(
                inline_keyboard=[
                    [
                        InlineKeyboardButton(
                            text=t(lang, "btn_why"),
                            callback_data=RulesCB(view="topic", key=topics[0].id).pack(),
                        )
                    ]
                ]
            )
    return None


def notation_text(lang: str, error: NotationError) -> str:
    """Why typed text is not a move, in ``lang``: the catalog's ``notation.<code>`` entry
    with the error's parameters, the user's own text in them HTML-escaped."""
    params = {key: h(value) for key, value in error.params.items()}
    return t(lang, f"notation.{error.code}", **params)


async def explain_error(target: Message, lang: str, err: GameplayError) -> None:
    if isinstance(err, RuleRejection):
        await target.answer(
            t(lang, "rejected", rule=rule_text(lang, err.reason)),
            reply_markup=why_keyboard(lang, err.reason.rule_ids),
        )
    elif isinstance(err, NotationRejection):
        await target.answer(t(lang, "bad_notation", detail=notation_text(lang, err.error)))
    else:
        await target.answer(t(lang, err.key, **err.params))


# ---- buttons -----------------------------------------------------------------------------------


def _action(act: Act, s: int, dst: int, rng: random.Random):
    def run(game: Game, seat: int) -> None:
        if act is Act.ROLL:
            game.roll(rng, seat=seat)
        elif act is Act.MOVE:
            game.step(s, dst, seat=seat)
        elif act is Act.UNDO:
            game.undo(seat=seat)
        elif act is Act.DONE:
            game.commit(seat=seat)
        elif act is Act.DOUBLE:
            game.offer_double(seat)
        elif act is Act.TAKE:
            game.take(seat)
        elif act is Act.DROP:
            game.drop(seat)
        elif act is Act.RESIGN_YES:
            game.resign(seat)

    return run


@router.callback_query(GameCB.filter(F.a.in_({Act.PICK, Act.BACK})))
async def pick(
    query: CallbackQuery, callback_data: GameCB, lang: str, games: GameService, boards: Boards
) -> None:
    """Show the destinations of a point (or go back): changes nothing in the game."""
    message = query.message
    if not isinstance(message, Message):
        await query.answer(t(lang, "outdated"))
        return
    try:
        snap = await games.load(callback_data.game)
    except GameplayError as err:
        await query.answer(t(lang, err.key), show_alert=True)
        return
    error = _check_actor(snap, query.from_user.id, callback_data.v)
    if error is not None:
        await query.answer(t(lang, error))
        return
    game = snap.game
    point = callback_data.s if callback_data.a is Act.PICK else None
    if point is not None and (
        game.phase is not Phase.MOVE or all(s.src != point for s in game.legal_steps())
    ):
        await query.answer(t(lang, "outdated"))
        return
    await query.answer()
    target = Target(message.chat.id, thread_of(message))
    await boards.edit_one(snap, target, message.message_id, point)


def _check_actor(snap: Snapshot, user_id: int, version: int) -> str | None:
    if snap.row.status is not storage.GameStatus.ACTIVE:
        return "game_over_already"
    if version != snap.version:
        return "outdated"
    seat = snap.seat_of_user(user_id)
    if seat is None:
        return "not_a_player"
    if snap.game.seat_to_act != seat:
        return "not_your_turn"
    return None


@router.callback_query(
    GameCB.filter(
        F.a.in_(
            {
                Act.MOVE,
                Act.UNDO,
                Act.DONE,
                Act.ROLL,
                Act.DOUBLE,
                Act.TAKE,
                Act.DROP,
                Act.RESIGN_YES,
            }
        )
    )
)
async def act(
    query: CallbackQuery, callback_data: GameCB, lang: str, games: GameService, boards: Boards
) -> None:
    a = callback_data.a
    answering: list[asyncio.Task[object]] = []

    def answer_now() -> None:
        # The engine has accepted the tap: answer it while the game is saved (see
        # GameService.act), not after.
        text = t(lang, "turn_done") if a is Act.DONE else None
        answering.append(asyncio.ensure_future(query.answer(text)))

    try:
        snap = await games.act(
            callback_data.game,
            query.from_user.id,
            _action(a, callback_data.s, callback_data.t, games.rng),
            version=callback_data.v,
            anyone=a is Act.RESIGN_YES,
            decided=answer_now,
        )
    except RuleRejection as err:
        await query.answer(t(lang, "rejected", rule=rule_text(lang, err.reason)), show_alert=True)
        return
    except GameplayError as err:
        if answering:  # accepted, then the save lost a race: the board stays as it was
            log.info("tap in game %s accepted but not saved: %s", callback_data.game, err.key)
            return
        await query.answer(t(lang, err.key, **err.params), show_alert=err.key != "outdated")
        return
    finally:
        if answering:
            try:
                await answering[0]
            except TelegramBadRequest as exc:  # e.g. too late: the board must still change
                log.warning("could not answer a tap in game %s: %s", callback_data.game, exc)
    if a is Act.RESIGN_YES and isinstance(query.message, Message):
        await boards.outbox.run(query.message.chat.id, lambda: query.message.delete())
    await boards.update(snap, actor_user_id=query.from_user.id)


@router.callback_query(GameCB.filter(F.a == Act.RESIGN_NO))
async def resign_no(query: CallbackQuery, lang: str, boards: Boards) -> None:
    await query.answer(t(lang, "resign_kept"))
    if isinstance(query.message, Message):
        await boards.outbox.run(query.message.chat.id, lambda: query.message.delete())


@router.callback_query(GameCB.filter(F.a == Act.REMATCH))
async def rematch(
    query: CallbackQuery, callback_data: GameCB, lang: str, games: GameService, boards: Boards
) -> None:
    try:
        snap = await games.rematch(callback_data.game, query.from_user.id)
    except GameplayError as err:
        await query.answer(t(lang, err.key, **err.params), show_alert=True)
        return
    await query.answer()
    await boards.show_new(snap)


@router.callback_query(GameCB.filter(F.a == Act.WHY))
async def why(query: CallbackQuery, callback_data: GameCB, lang: str, games: GameService) -> None:
    """Explain the last pass or forfeited die with the rule and its topic."""
    try:
        snap = await games.load(callback_data.game)
    except GameplayError as err:
        await query.answer(t(lang, err.key), show_alert=True)
        return
    event = last_play_event(snap.game)
    if event is None or not (event.kind == "pass" or burned_dice(event)):
        await query.answer(t(lang, "outdated"))
        return
    rule = forfeit_rule(event, snap.game)
    await query.answer()
    if isinstance(query.message, Message):
        from bot.handlers.rules import send_topic_for_rule

        await send_topic_for_rule(query.message, lang, rule, snap=snap)


@router.callback_query(GameCB.filter(F.a == Act.HINT))
async def hint_button(
    query: CallbackQuery, callback_data: GameCB, lang: str, games: GameService
) -> None:
    try:
        snap = await games.load(callback_data.game)
    except GameplayError as err:
        await query.answer(t(lang, err.key), show_alert=True)
        return
    await query.answer(await hint_text(snap, query.from_user.id, lang, games), show_alert=True)


async def hint_text(snap: Snapshot, user_id: int, lang: str, games: GameService) -> str:
    game = snap.game
    seat = snap.seat_of_user(user_id)
    if seat is None:
        return t(lang, "not_a_player")
    if not await games.hints_allowed(snap):
        return t(lang, "hint_off")
    if game.phase is not Phase.MOVE or game.seat_to_act != seat or game.dice is None:
        return t(lang, "hint_none")
    plays = await asyncio.to_thread(games.hints, game)
    lines = [t(lang, "hint_title", dice=dice_text(game.dice))]
    for i, (play, _score) in enumerate(plays, 1):
        lines.append(f"{i}. {localized_notation(lang, format_steps(play.steps)) or '—'}")
    return "\n".join(lines)


# ---- commands ----------------------------------------------------------------------------------


async def _game_here(message: Message, games: GameService) -> Snapshot | None:
    assert message.from_user is not None
    return await games.find_for_chat(
        message.chat.id,
        thread_of(message),
        message.from_user.id,
        private=message.chat.type == "private",
    )


async def play_text(
    message: Message, text: str, lang: str, games: GameService, boards: Boards
) -> None:
    """Apply a typed (part of a) play; a play that completes the turn is confirmed at once."""
    assert message.from_user is not None
    snap = await _game_here(message, games)
    if snap is None:
        await message.answer(t(lang, "no_game"))
        return

    def run(game: Game, seat: int) -> None:
        if game.phase is not Phase.MOVE:
            raise GameplayError("no_dice_yet")
        turn = game.apply_text(text, seat=seat)
        if turn.is_complete() and not turn.legal_steps():
            game.commit(seat=seat)

    try:
        snap = await games.act(snap.row.game_id, message.from_user.id, run)
    except GameplayError as err:
        await explain_error(message, lang, err)
        return
    await boards.update(snap, actor_user_id=message.from_user.id)


@router.message(Command("move", "m"))
async def move_command(
    message: Message, command: CommandObject, lang: str, games: GameService, boards: Boards
) -> None:
    if not (command.args or "").strip():
        await message.answer(t(lang, "move_usage"))
        return
    await play_text(message, command.args or "", lang, games, boards)


@router.message(F.chat.type == "private", F.text.regexp(NOTATION_RE))
async def private_notation(message: Message, lang: str, games: GameService, boards: Boards) -> None:
    await play_text(message, message.text or "", lang, games, boards)


@router.message(Command("board"))
async def board(message: Message, lang: str, games: GameService, boards: Boards) -> None:
    snap = await _game_here(message, games)
    if snap is None:
        await message.answer(t(lang, "no_game"))
        return
    await boards.resend(snap, Target(message.chat.id, thread_of(message)))


@router.message(Command("undo"))
async def undo(message: Message, lang: str, games: GameService, boards: Boards) -> None:
    assert message.from_user is not None
    snap = await _game_here(message, games)
    if snap is None:
        await message.answer(t(lang, "no_game"))
        return

    def run(game: Game, seat: int) -> None:
        if game.phase is not Phase.MOVE or not game.undo(seat=seat):
            raise GameplayError("nothing_to_undo")

    try:
        snap = await games.act(snap.row.game_id, message.from_user.id, run)
    except GameplayError as err:
        await explain_error(message, lang, err)
        return
    await boards.update(snap, actor_user_id=message.from_user.id)


@router.message(Command("resign"))
async def resign(message: Message, lang: str, games: GameService) -> None:
    """Ask for confirmation, showing what resigning costs (M-19, V-10)."""
    assert message.from_user is not None
    snap = await _game_here(message, games)
    if snap is None:
        await message.answer(t(lang, "no_game"))
        return
    seat = snap.seat_of_user(message.from_user.id)
    if seat is None:
        await message.answer(t(lang, "not_a_player"))
        return
    game = snap.game
    side = game.side_of(seat)
    result = score_game(game.pos, side.other, game.options, game.cube_value, resigned=True)
    gid, v = snap.row.game_id, snap.version
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=t(lang, "btn_resign_yes"),
                    callback_data=GameCB(game=gid, v=v, a=Act.RESIGN_YES).pack(),
                ),
                InlineKeyboardButton(
                    text=t(lang, "btn_resign_no"),
                    callback_data=GameCB(game=gid, v=v, a=Act.RESIGN_NO).pack(),
                ),
            ]
        ]
    )
    await message.answer(
        t(lang, "resign_confirm", kind=t(lang, f"kind_{result.kind}"), points=result.points),
        reply_markup=keyboard,
    )


@router.message(Command("hint"))
async def hint(message: Message, lang: str, games: GameService) -> None:
    assert message.from_user is not None
    snap = await _game_here(message, games)
    if snap is None:
        await message.answer(t(lang, "no_game"))
        return
    await message.answer(h(await hint_text(snap, message.from_user.id, lang, games)))
