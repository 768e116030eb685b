"""Playing: board buttons, typed moves, /board, /undo, /resign, /hint, "why?".

A board button reaches its handler already checked (:class:`bot.middlewares.GameTap`: the
game loaded once, an outdated board or a tap out of turn answered). A change is decided by
the game layer, the tap is answered at once, then the change is committed (the computer's
reply, the save) and the boards are edited.
"""

from __future__ import annotations

import asyncio
import logging
import re

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot import refusals
from bot.boards import Picker, Target
from bot.callbacks import Act, GameCB
from bot.handlers.dice import client_seed_of
from bot.handlers.lobby import invitation_commitment, invitation_keyboard, with_commitment
from bot.languages import Languages
from bot.presenter import burned_dice, dice_text, forfeit_rule, last_play_event, short_name
from bot.showing import Shows, turn_goes_on, turn_of
from bot.texts import h, localized_notation, t
from engine import Phase, format_steps
from engine.scoring import score_game
from gameplay import (
    Action,
    Actor,
    Commit,
    Double,
    Drop,
    GameService,
    Lobby,
    PickerWay,
    Place,
    PlayText,
    Refused,
    Resign,
    Roll,
    Snapshot,
    Step,
    Take,
    Undo,
    WholePlay,
)

log = logging.getLogger(__name__)

# Text that looks like a move: "24/18 13/11", "bar/22", "6/off", "24-18", "бар/22", "8/2(2)".
NOTATION_RE = re.compile(
    r"^\s*((bar|бар|b|б|\d{1,2})\s*[/\-–]\s*(\d{1,2}|off|о|o|выброс|вых)\*?"
    r"([/\-–]\s*(\d{1,2}|off|выброс)\*?)*(\(\d\))?[\s,;]*)+$",
    re.IGNORECASE,
)

CHANGES = frozenset(
    {
        Act.MOVE,
        Act.UNDO,
        Act.DONE,
        Act.PLAY,
        Act.ROLL,
        Act.DOUBLE,
        Act.TAKE,
        Act.DROP,
        Act.RESIGN_YES,
    }
)
#: Buttons that enter the turn's play (in a picker, or on a board that fell back to them).
TURN_ENTRY = frozenset({Act.PICK, Act.BACK, Act.MOVE, Act.UNDO, Act.DONE, Act.PLAY, Act.WAY})


async def answer_quietly(query: CallbackQuery, text: str | None = None) -> None:
    """Answer a tap before the work it asks for; a refused answer (too late: a redelivered
    update whose first worker answered it and died) must not stop that work."""
    try:
        await query.answer(text)
    except TelegramBadRequest as exc:
        log.warning("could not answer a tap: %s", exc)


def button_action(cb: GameCB) -> Action:
    """The game action a board button asks for."""
    match cb.a:
        case Act.ROLL:
            return Roll()
        case Act.MOVE:
            return Step(cb.s, cb.t)
        case Act.UNDO:
            return Undo()
        case Act.DONE:
            return Commit()
        case Act.PLAY:
            return WholePlay(cb.s)
        case Act.DOUBLE:
            return Double()
        case Act.TAKE:
            return Take()
        case Act.DROP:
            return Drop()
        case Act.RESIGN_YES:
            return Resign()
    raise ValueError(f"button {cb.a!r} changes nothing")


# ---- buttons -----------------------------------------------------------------------------------


def picker_of(query: CallbackQuery) -> Picker | None:
    """The private picker the tap came from (an ephemeral message), if it did."""
    message = query.message
    if isinstance(message, Message) and message.ephemeral_message_id is not None:
        return Picker(message.chat.id, query.from_user.id, message.ephemeral_message_id)
    return None


def _on_shared_board(query: CallbackQuery, place: Place | None, callback_data: GameCB) -> bool:
    """A turn-entry button of a group's shared board: the turn is played on its buttons."""
    return (
        place is not None
        and not place.private
        and picker_of(query) is None
        and callback_data.a in TURN_ENTRY
    )


async def open_picker(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    actor: Actor,
    place: Place,
    snap: Snapshot,
    shows: Shows,
) -> None:
    """A group's shared board was tapped: the mover gets their private picker; anybody else
    a short answer (never a change to the game)."""
    game = snap.game
    seat = snap.seat_of_user(actor.user_id)
    mover = game.seat_to_act
    if not snap.active or mover is None or game.phase is not Phase.MOVE:
        await query.answer(t(lang, "outdated"))
        return
    target = Target(place.chat_id, place.thread_id)
    # The answer is seen by the tapper alone, with the private view or picker that follows
    # it: in their language, as those are (the group's board keeps the group's).
    own = await shows.langs.of_chat(actor.user_id)
    if seat is None or seat != mover:  # a short answer, then a private view of their own
        name = short_name(snap.names.get(mover, "?"))
        await answer_quietly(
            query,
            t(own, "picker_spectator", name=name) if seat is None else t(own, "not_your_turn"),
        )
        await shows.show_view(snap, target, actor.user_id, query.id)
        return
    # Answered first: drawing and sending the picker is the slow part of this tap. (If
    # Telegram then refuses the picker, the board's own buttons appear instead.)
    note = await shows.picker_note(snap)
    await answer_quietly(query, t(own, note) if note else None)
    await shows.open_picker(snap, target, actor.user_id, query.id)


async def choose_way(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    actor: Actor,
    snap: Snapshot,
    games: GameService,
    shows: Shows,
    place: Place | None = None,
) -> None:
    """Whole plays or step by step: remembered for the player, the picker redrawn."""
    way = PickerWay.PLAYS if callback_data.s else PickerWay.STEPS
    await games.players.set_picker_way(actor.user_id, way)
    await answer_quietly(query)
    if place is None:  # an inline message's board
        await shows.pick(snap, Target(0, inline_id=query.inline_message_id), 0, None)
        return
    target = Target(place.chat_id, place.thread_id)
    picker = picker_of(query)
    if picker is not None:
        await shows.picker_tapped(snap, picker, target, turn_of(snap), query_id=query.id)
    elif isinstance(query.message, Message):
        if _on_shared_board(query, place, callback_data):
            await shows.use_board_buttons(snap.game_id, turn_of(snap))
        await shows.pick(snap, target, query.message.message_id, None)


def point_of(snap: Snapshot, cb: GameCB) -> int | None:
    """The point a Pick button chose (None: Back); ValueError if the board has moved on and
    that point has no legal step any more."""
    game = snap.game
    point = cb.s if cb.a is Act.PICK else None
    if point is not None and (
        game.phase is not Phase.MOVE or all(s.src != point for s in game.legal_steps())
    ):
        raise ValueError(f"point {point} has no step now")
    return point


async def pick(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    place: Place,
    snap: Snapshot,
    shows: Shows,
) -> None:
    """Show the destinations of a point (or go back): changes nothing in the game."""
    message = query.message
    if not isinstance(message, Message):
        await query.answer(t(lang, "outdated"))
        return
    try:
        point = point_of(snap, callback_data)
    except ValueError:
        await query.answer(t(lang, "outdated"))
        return
    await answer_quietly(query)
    target = Target(place.chat_id, place.thread_id)
    picker = picker_of(query)
    if picker is not None:
        await shows.picker_tapped(
            snap, picker, target, turn_of(snap), query_id=query.id, pick=point
        )
        return
    if _on_shared_board(query, place, callback_data):
        await shows.use_board_buttons(snap.game_id, turn_of(snap))
    await shows.pick(snap, target, message.message_id, point)


async def act(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    actor: Actor,
    snap: Snapshot,
    games: GameService,
    shows: Shows,
    update_id: int | None = None,
    place: Place | None = None,
) -> None:
    """A button that changes the game: decide, answer the tap at once, commit, show (an
    inline message's tap has no ``place``: its board is the one message)."""
    turn_before = turn_of(snap)  # the engine changes ``snap``'s game in place
    try:
        decision = await games.decide(
            actor,
            button_action(callback_data),
            game_id=callback_data.game,
            version=callback_data.v,
            loaded=snap,
        )
    except Refused as refused:
        await refusals.answer_tap(query, lang, refused)
        return
    # Accepted: answer while the computer replies and the game is saved, not after.
    text = t(lang, "turn_done") if callback_data.a is Act.DONE else None
    answering = asyncio.ensure_future(query.answer(text))
    picker = picker_of(query) if place is not None else None
    if picker is not None and turn_goes_on(decision.snap, turn_before):
        await shows.draw_picker_soon(decision.snap, picker.receiver)  # drawn while it is saved
    outcome = None
    try:
        outcome = await games.commit(decision, update_id=update_id)
    except Refused as refused:  # accepted, then the save lost a race (another worker's)
        log.info("tap in game %s accepted but not saved: %s", callback_data.game, refused)
    finally:
        try:
            await answering
        except TelegramBadRequest as exc:  # e.g. too late: the board must still change
            log.warning("could not answer a tap in game %s: %s", callback_data.game, exc)
    if outcome is None:
        # The tap was answered as taken; what won is shown instead, so the player sees the
        # game as it is and taps again (nothing of theirs was saved, nothing doubled).
        picker = picker_of(query)
        if picker is not None:
            await shows.refresh_picker(callback_data.game, picker)
        else:
            await shows.show_stored(callback_data.game)
        return
    if outcome.snap is None:
        # Saved before: a redelivery, perhaps because the worker that saved it died before it
        # showed the result. Show the stored game (boards only; the notice went or is lost).
        await shows.show_stored(callback_data.game)
        return
    if callback_data.a is Act.RESIGN_YES and isinstance(query.message, Message):
        confirm = query.message
        await shows.outbox.run(confirm.chat.id, lambda: confirm.delete())
    after = outcome.snap
    if place is None:
        await shows.update(after, actor_user_id=actor.user_id)
        return
    target = Target(place.chat_id, place.thread_id)
    if picker is not None:
        await shows.picker_tapped(after, picker, target, turn_before, query_id=query.id)
        return
    if _on_shared_board(query, place, callback_data):
        await shows.use_board_buttons(after.game_id, turn_before)
    elif (
        callback_data.a is Act.ROLL
        and _must_move(after, actor)
        and await shows.public(after, target)
    ):
        # Rolled on the shared board: the play is chosen in private (or, if the picker
        # cannot be shown, on the board's buttons); the board shows the roll with the play.
        await shows.open_picker(after, target, actor.user_id, query.id)
        return
    await shows.update(after, actor_user_id=actor.user_id)


def _must_move(snap: Snapshot, actor: Actor) -> bool:
    """Whether ``actor`` now has a play to choose."""
    game = snap.game
    seat = game.seat_to_act
    return (
        snap.active
        and game.phase is Phase.MOVE
        and seat is not None
        and snap.user_ids.get(seat) == actor.user_id
    )


async def resign_no(query: CallbackQuery, lang: str, shows: Shows) -> None:
    await query.answer(t(lang, "resign_kept"))
    if isinstance(query.message, Message):
        confirm = query.message
        await shows.outbox.run(confirm.chat.id, lambda: confirm.delete())


async def rematch(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    actor: Actor,
    lobby: Lobby,
    shows: Shows,
    langs: Languages,
    bot: Bot,
    games: GameService,
    update_id: int | None = None,
) -> None:
    """A new match: against the computer at once; a person is asked to accept first."""
    try:
        result = await lobby.rematch(
            actor, callback_data.game, client_seed=client_seed_of(query, update_id)
        )
    except Refused as refused:
        await refusals.answer_tap(query, lang, refused)
        return
    if isinstance(result, Snapshot):
        await query.answer()
        await shows.show_new(result)
        return
    await query.answer(t(lang, "rematch_sent"))
    place = result.place
    their = await langs.of_chat(place.chat_id)
    inv = result.invitation
    invitee = f'<a href="tg://user?id={result.invitee.user_id}">{h(result.invitee.name)}</a>'
    text = t(
        their,
        "rematch_offer",
        inviter=h(actor.name),
        invitee=invitee,
        variant=t(their, f"variant_{inv.variant}"),
        length=t(their, "lobby_length", n=inv.match_length) if inv.match_length > 1 else "",
    )
    commitment = await invitation_commitment(games, inv.dice_seed_id)
    text = with_commitment(their, text, commitment)
    keyboard = invitation_keyboard(their, inv.token, personal=True, commitment=commitment)
    await shows.outbox.run(
        place.chat_id,
        lambda: bot.send_message(
            place.chat_id,
            text,
            reply_markup=keyboard,
            message_thread_id=place.thread_id or None,
        ),
    )


async def why(query: CallbackQuery, lang: str, snap: Snapshot, shows: Shows) -> None:
    """Explain the last pass or forfeited die with the rule and its topic (one explanation
    message per game in a chat, edited on later taps: ``send_topic_for_rule``)."""
    event = last_play_event(snap.game)
    if event is None or not (event.kind == "pass" or burned_dice(event)):
        await query.answer(t(lang, "outdated"))
        return
    rule = forfeit_rule(event, snap.game)
    await query.answer()
    if isinstance(query.message, Message):
        from bot.handlers.rules import send_topic_for_rule

        await send_topic_for_rule(query.message, lang, rule, snap, shows.boards)


async def hint_button(
    query: CallbackQuery, lang: str, actor: Actor, snap: Snapshot, games: GameService
) -> None:
    await query.answer(await hint_text(snap, actor, lang, games), show_alert=True)


async def hint_text(snap: Snapshot, actor: Actor, lang: str, games: GameService) -> str:
    """The hint (or why there is none) — the same for /hint and the Hint button."""
    try:
        hints = await games.hints(actor, snap)
    except Refused as refused:
        return refusals.refusal_text(lang, refused)
    lines = [t(lang, "hint_title", dice=dice_text(hints.dice))]
    for i, play in enumerate(hints.plays, 1):
        lines.append(f"{i}. {localized_notation(lang, format_steps(play.steps)) or '—'}")
    return "\n".join(lines)


# ---- commands ----------------------------------------------------------------------------------


async def typed(
    message: Message,
    lang: str,
    actor: Actor,
    place: Place,
    games: GameService,
    shows: Shows,
    command: CommandObject | None = None,
    update_id: int | None = None,
) -> None:
    """/move (/m) with a play, /undo, or a play typed in a private chat, on the game shown
    here: saved (claiming the update in the save), then the boards show it. An update that
    ends in a reply instead is claimed first, so a redelivery does not reply twice."""
    action: Action
    if command is None:
        action = PlayText(message.text or "")
    elif command.command == "undo":
        action = Undo()
    elif (command.args or "").strip():
        action = PlayText(command.args or "")
    else:
        await _reply_once(message, games, update_id, t(lang, "move_usage"))
        return
    snap = await games.find_for_chat(place, actor.user_id)
    if snap is None:
        await _reply_once(message, games, update_id, t(lang, "no_game"))
        return
    try:
        outcome = await games.act(actor, action, game_id=snap.game_id, update_id=update_id)
    except Refused as refused:
        if update_id is None or await games.claim_update(update_id):
            await refusals.reply(message, lang, refused)
        return
    if outcome.snap is not None:
        await shows.update(outcome.snap, actor_user_id=actor.user_id)
    else:
        await shows.show_stored(snap.game_id)  # saved before (a redelivery): show it, as a tap does


async def _reply_once(
    message: Message, games: GameService, update_id: int | None, text: str
) -> None:
    if update_id is None or await games.claim_update(update_id):
        await message.answer(text)


async def board(
    message: Message, lang: str, actor: Actor, place: Place, games: GameService, shows: Shows
) -> None:
    """The game shown here, again; in a private chat also the person's games that live in
    inline messages (their boards here are then kept up to date too)."""
    snap = await games.find_for_chat(place, actor.user_id)
    inline = await games.inline_games(actor.user_id) if place.private else []
    inline = [s for s in inline if snap is None or s.game_id != snap.game_id]
    if snap is None and not inline:
        await message.answer(t(lang, "no_game"))
        return
    here = Target(place.chat_id, place.thread_id)
    if snap is not None:
        await shows.resend(snap, here)
    if inline:
        await message.answer(t(lang, "board_inline_games"))
        for other in inline:
            await shows.resend(other, here)


async def resign(
    message: Message, lang: str, actor: Actor, place: Place, games: GameService
) -> None:
    """Ask for confirmation, showing what resigning costs (M-19, V-10)."""
    snap = await games.find_for_chat(place, actor.user_id)
    if snap is None:
        await message.answer(t(lang, "no_game"))
        return
    seat = snap.seat_of_user(actor.user_id)
    if seat is None:
        await message.answer(t(lang, "not_a_player"))
        return
    game = snap.game
    side = game.side_of(seat)
    result = score_game(game.pos, side.other, game.options, game.cube_value, resigned=True)
    gid, v = snap.game_id, snap.version

    def button(key: str, a: Act) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            text=t(lang, key), callback_data=GameCB(game=gid, v=v, a=a).pack()
        )

    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[
            [button("btn_resign_yes", Act.RESIGN_YES), button("btn_resign_no", Act.RESIGN_NO)]
        ]
    )
    await message.answer(
        t(lang, "resign_confirm", kind=t(lang, f"kind_{result.kind}"), points=result.points),
        reply_markup=keyboard,
    )


async def hint(message: Message, lang: str, actor: Actor, place: Place, games: GameService) -> None:
    snap = await games.find_for_chat(place, actor.user_id)
    if snap is None:
        await message.answer(t(lang, "no_game"))
        return
    await message.answer(h(await hint_text(snap, actor, lang, games)))


def router() -> Router:
    """The playing router. ``tap`` flags tell :class:`~bot.middlewares.GameTap` what a button
    needs; ``claim`` flags tell :class:`~bot.middlewares.Claim` how the update is claimed."""
    r = Router(name="play")
    cbq = r.callback_query
    cbq.register(
        pick, GameCB.filter(F.a.in_({Act.PICK, Act.BACK})), flags={"tap": "turn", "claim": "none"}
    )
    cbq.register(
        act,
        GameCB.filter(F.a.in_(CHANGES - {Act.RESIGN_YES})),
        flags={"tap": "turn", "claim": "save"},
    )
    cbq.register(
        act, GameCB.filter(F.a == Act.RESIGN_YES), flags={"tap": "anytime", "claim": "save"}
    )
    cbq.register(resign_no, GameCB.filter(F.a == Act.RESIGN_NO), flags={"claim": "none"})
    cbq.register(
        open_picker, GameCB.filter(F.a == Act.OPEN), flags={"tap": "load", "claim": "none"}
    )
    cbq.register(choose_way, GameCB.filter(F.a == Act.WAY), flags={"tap": "turn", "claim": "none"})
    cbq.register(rematch, GameCB.filter(F.a == Act.REMATCH))
    # The board's Why? stays public: one explanation per game in the chat, edited in place
    # for everyone who taps it (issue #18 item 12); a rule's Why? under a refusal is private.
    cbq.register(why, GameCB.filter(F.a == Act.WHY), flags={"tap": "load"})
    cbq.register(
        hint_button, GameCB.filter(F.a == Act.HINT), flags={"tap": "load", "claim": "none"}
    )
    msg = r.message
    msg.register(typed, Command("move", "m", "undo"), flags={"claim": "save"})
    msg.register(
        typed, F.chat.type == "private", F.text.regexp(NOTATION_RE), flags={"claim": "save"}
    )
    msg.register(board, Command("board"))
    msg.register(resign, Command("resign"))
    msg.register(hint, Command("hint"), flags={"answer": "private"})
    return r
