"""End-to-end harness: the real bot (aiogram Bot + Dispatcher + SQLite + renderer) polling the
project's fake Bot API server over HTTP, and a small "player" that reads boards and taps.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app import App, build, register_commands
from bot.callbacks import Act, GameCB
from bot.config import Settings
from bot.outbox import Outbox
from gameplay import ChatKind, Place
from gameplay.scheduler import TimeSource
from tests.fake_telegram import FakeChat, FakeTelegram, FakeUser, StoredMessage

TOKEN = "123456789:AAHfakeTokenForTheNardyBotTests_x9"


@dataclass
class Running:
    tg: FakeTelegram
    app: App
    task: asyncio.Task[None]


@contextlib.asynccontextmanager
async def running_bot(
    tg: FakeTelegram,
    db: Path | str,
    *,
    seed: int = 1,
    ai_seed: int = 7,
    outbox: Outbox | None = None,
    real_client_seeds: bool = False,
    group_picker: bool = True,
    env: dict[str, str] | None = None,
    time: TimeSource | None = None,
) -> AsyncIterator[Running]:
    """Build the bot against ``tg`` with database ``db`` (a SQLite path, or a
    ``postgresql://`` URL) and poll until the block exits.

    Players' dice contributions normally come from their updates (ids and dates), so the dice
    would change from run to run; unless ``real_client_seeds``, each contribution is fixed per
    user, and the game's dice follow from ``seed`` alone (as they did before fair dice).
    ``env`` adds settings by their environment names (``{"MEDIA_CHAT_ID": "-100…"}``).

    ``time`` is the bot's one clock (store, games, move-clock scheduler): a test passes a
    :class:`tests.fake_time.FakeTime` and advances it instead of sleeping. The scheduler runs
    as in production, started with the polling."""
    where = (
        {"DATABASE_URL": db} if str(db).startswith("postgresql://") else {"DATABASE_PATH": str(db)}
    )
    patched = {} if real_client_seeds else _fix_client_seeds()
    settings = Settings(  # type: ignore[call-arg]
        BOT_TOKEN=TOKEN,
        TELEGRAM_API_BASE=tg.base_url,
        GROUP_PICKER=group_picker,
        **where,
        **(env or {}),
    )
    fast = Outbox(private=(1000, 1000), group_send=(1000, 1.0), group_edit=(1000, 1000))
    app = await build(
        settings, rng=random.Random(seed), ai_seed=ai_seed, outbox=outbox or fast, time=time
    )
    await register_commands(app.bot)
    app.start_clocks()
    task = asyncio.create_task(
        app.dispatcher.start_polling(app.bot, handle_signals=False, polling_timeout=1)
    )
    tg.bot_busy = lambda: app.in_flight.count > 0
    try:
        yield Running(tg, app, task)
    finally:
        tg.bot_busy = None
        with contextlib.suppress(Exception):
            await app.dispatcher.stop_polling()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, 5)
        await app.close()
        for (module, name), original in patched.items():
            setattr(module, name, original)


def _fixed_client_seed(event: Any, update_id: int | None) -> str:
    return f"test:user={event.from_user.id}"


def _fix_client_seeds() -> dict[tuple[Any, str], Any]:
    """Replace ``client_seed_of`` in every handler module that imported it; the originals."""
    import bot.handlers.common
    import bot.handlers.inline
    import bot.handlers.lobby
    import bot.handlers.play

    originals: dict[tuple[Any, str], Any] = {}
    modules = (bot.handlers.common, bot.handlers.inline, bot.handlers.lobby, bot.handlers.play)
    for module in modules:
        originals[(module, "client_seed_of")] = module.client_seed_of
        module.client_seed_of = _fixed_client_seed  # type: ignore[attr-defined]
    return originals


def parse_cb(data: str) -> GameCB | None:
    if not data.startswith("g:"):
        return None
    return GameCB.unpack(data)


def board_messages(tg: FakeTelegram, chat: FakeChat | int) -> list[StoredMessage]:
    chat_id = chat.id if isinstance(chat, FakeChat) else chat
    return [
        m
        for m in tg.messages[chat_id].values()
        if m.from_bot and not m.deleted and m.photo is not None
    ]


def current_board(tg: FakeTelegram, chat: FakeChat | int) -> StoredMessage:
    boards = board_messages(tg, chat)
    assert boards, "no board in chat"
    return boards[-1]


def game_buttons(message: StoredMessage) -> list[tuple[str, GameCB, str]]:
    out = []
    for row in message.buttons():
        for button in row:
            data = button.get("callback_data")
            if data:
                cb = parse_cb(data)
                if cb is not None:
                    out.append((button["text"], cb, data))
    return out


CAPTION_MOVER = re.compile(r"👉 .*?: (?P<name>.+?) [⚪⚫]")


async def settle(tg: FakeTelegram) -> None:
    await tg.wait_idle(quiet=0.15, timeout=30)


async def play_turn_by_buttons(
    tg: FakeTelegram,
    chat: FakeChat,
    players: dict[str, FakeUser],
    rng: random.Random,
    *,
    board_chat: dict[int, FakeChat] | None = None,
) -> bool:
    """Play one decision of whoever must act, by tapping buttons; False when nothing to tap."""
    chats = [chat] if board_chat is None else list(board_chat.values())
    for c in chats:
        message = current_board(tg, c)
        buttons = game_buttons(message)
        if not buttons:
            continue
        user = players_by_chat(c, players, message)
        picker = live_picker(tg, c, user)
        if picker is not None:  # a group's mover plays in their private picker
            message, buttons = picker, game_buttons(picker)
        acts = {cb.a for _, cb, _ in buttons}
        if Act.REMATCH in acts and len(acts) == 1:
            continue
        if Act.OPEN in acts:
            choice = next(d for _, cb, d in buttons if cb.a is Act.OPEN)
        elif Act.TAKE in acts:
            choice = next(d for _, cb, d in buttons if cb.a is Act.TAKE)
        elif Act.ROLL in acts:
            choice = next(d for _, cb, d in buttons if cb.a is Act.ROLL)
        elif Act.DONE in acts:
            choice = next(d for _, cb, d in buttons if cb.a is Act.DONE)
        elif Act.PICK in acts:
            picks = [d for _, cb, d in buttons if cb.a is Act.PICK]
            choice = rng.choice(picks)
        elif Act.MOVE in acts:
            moves = [d for _, cb, d in buttons if cb.a is Act.MOVE]
            choice = rng.choice(moves)
        elif Act.PLAY in acts:
            choice = rng.choice([d for _, cb, d in buttons if cb.a is Act.PLAY])
        else:
            continue
        if message.is_ephemeral:
            await tg.tap_ephemeral(
                c, user, choice, ephemeral_message_id=message.ephemeral_message_id
            )
        else:
            await tg.tap(c, message.message_id, user, choice)
        await settle(tg)
        return True
    return False


def live_picker(tg: FakeTelegram, chat: FakeChat, user: FakeUser) -> StoredMessage | None:
    """The private picker ``user`` sees in a group now, if any."""
    if chat.type == "private":
        return None
    seen = [m for m in tg.ephemeral_messages(chat, user) if not m.dropped]
    return seen[-1] if seen else None


def a_pick(message: StoredMessage) -> str:
    """The data of a "pick this point" tap on ``message``: a point button with several
    destinations, or else the pick of a one-tap point (whose button moves at once; the bot
    still answers a pick of it with its destination, as an older board would ask)."""
    buttons = game_buttons(message)
    for _, cb, data in buttons:
        if cb.a is Act.PICK:
            return data
    cb = next(cb for _, cb, _ in buttons if cb.a is Act.MOVE)
    return GameCB(game=cb.game, v=cb.v, a=Act.PICK, s=cb.s).pack()


def players_by_chat(
    chat: FakeChat, players: dict[str, FakeUser], message: StoredMessage
) -> FakeUser:
    """Who should tap on this board: the private chat's owner, or the mover named in a group."""
    if chat.type == "private":
        return next(p for p in players.values() if p.id == chat.id)
    caption = message.caption or ""
    match = CAPTION_MOVER.search(caption)
    double = re.search(r"⚖️ .*?\. (?P<name>.+?):", caption)
    name = None
    if double:
        name = double.group("name")
    elif match:
        name = match.group("name")
    for player in players.values():
        if name and player.first_name in name:
            return player
    raise AssertionError(f"cannot tell who moves from caption: {caption!r}")


async def active_match(app: App, chat_id: int, user_id: int):
    """The bot's stored state of the game shown in ``chat_id`` (the test player's knowledge
    of the rules: it picks legal plays with the engine, as a player knows the rules)."""
    kind = ChatKind.PRIVATE if chat_id > 0 else ChatKind.GROUP
    return await app.games.find_for_chat(Place(chat_id, 0, kind), user_id)


VISIBLE = (
    "editMessageMedia",
    "editMessageCaption",
    "sendPhoto",
    "sendMessage",
    "editMessageText",
    "editEphemeralMessageMedia",
    "editEphemeralMessageCaption",
)  # closing a picker (deleteEphemeralMessage) comes before the board's edit: not a reaction


async def caught_up(
    tg: FakeTelegram, chat_id: int, message: StoredMessage, version: int, mark: int
) -> bool:
    """Whether ``message`` already shows the game at ``version`` (its buttons carry it); if
    not, wait for the bot's next visible change in the chat after ``mark`` (take the mark
    before reading the game) and say False, so the caller reads the game again.

    Waiting only for quiet is not enough: under load drawing the next board can take longer
    than any quiet period, and a player would read (and tap) a board one version old."""
    if any(cb.v == version for _, cb, _ in game_buttons(message)):
        return True
    await tg.wait_for(
        lambda c: c.method in VISIBLE and c.ok, chat_id=chat_id, since=mark, timeout=30
    )
    return False


async def until(tg: FakeTelegram, chat_id: int, check: Callable[[], bool]) -> None:
    """Wait until ``check()`` holds (what a player would see: a caption, a button), re-checking
    after each of the bot's calls in the chat. A tap's answer may come before the edit it
    causes, and under load that edit can come later than any quiet period."""
    while True:
        mark = tg.mark()
        if check():
            return
        await tg.wait_for(lambda c: c.ok, chat_id=chat_id, since=mark, timeout=30)


async def _visible_reaction(tg: FakeTelegram, chat: FakeChat, mark: int) -> None:
    """Wait until the bot changed something the player sees in ``chat``, then until it is
    quiet (a picture is drawn between calls, so plain idleness is not enough)."""
    await tg.wait_for(lambda c: c.method in VISIBLE and c.ok, chat_id=chat, since=mark, timeout=30)
    await tg.wait_settled(quiet=0.05, timeout=30)


async def _answered(
    tg: FakeTelegram, chat: FakeChat, mark: int, qid: str, *, visible: bool
) -> None:
    """Wait for the answer to tap ``qid``, then for what the player sees change in ``chat``
    (``visible``) or only for the bot to be quiet."""
    await tg.wait_for(
        lambda c: c.method == "answerCallbackQuery" and c.params.get("callback_query_id") == qid,
        since=mark,
        timeout=30,
    )
    if visible:
        await _visible_reaction(tg, chat, mark)
    else:
        await tg.wait_settled(quiet=0.05, timeout=30)


async def tap_and_wait(
    tg: FakeTelegram,
    chat: FakeChat,
    message_id: int,
    user: FakeUser,
    data: str,
    *,
    visible: bool = True,
    check_button: bool = True,
) -> str:
    mark = tg.mark()
    qid = await tg.tap(chat, message_id, user, data, check_button=check_button)
    await _answered(tg, chat, mark, qid, visible=visible)
    return qid


async def tap_message_and_wait(
    tg: FakeTelegram,
    chat: FakeChat,
    message: StoredMessage,
    user: FakeUser,
    data: str,
    *,
    visible: bool = True,
) -> str:
    """Tap a button of ``message``: the shared board, or the user's private picker."""
    if not message.is_ephemeral:
        return await tap_and_wait(tg, chat, message.message_id, user, data, visible=visible)
    mark = tg.mark()
    qid = await tg.tap_ephemeral(
        chat, user, data, ephemeral_message_id=message.ephemeral_message_id
    )
    await _answered(tg, chat, mark, qid, visible=visible)
    return qid


def surface(tg: FakeTelegram, chat: FakeChat, user: FakeUser) -> StoredMessage:
    """What ``user`` plays on: their private picker in a group, else the chat's board."""
    return live_picker(tg, chat, user) or current_board(tg, chat)


async def make_a_step(tg: FakeTelegram, chat: FakeChat, user: FakeUser) -> None:
    """``user`` (the mover) plays one step by buttons: the picker opened first in a group,
    then a point with one destination, or a point and its first destination."""
    where = surface(tg, chat, user)
    acts = {cb.a: d for _, cb, d in game_buttons(where)}
    if Act.OPEN in acts:
        await tap_message_and_wait(tg, chat, where, user, acts[Act.OPEN])
        where = surface(tg, chat, user)
        acts = {cb.a: d for _, cb, d in game_buttons(where)}
    if Act.MOVE in acts:
        await tap_message_and_wait(tg, chat, where, user, acts[Act.MOVE])
        return
    await tap_message_and_wait(tg, chat, where, user, acts[Act.PICK])
    where = surface(tg, chat, user)
    step = next(d for _, cb, d in game_buttons(where) if cb.a is Act.MOVE)
    await tap_message_and_wait(tg, chat, where, user, step)


async def type_and_wait(tg: FakeTelegram, chat: FakeChat, user: FakeUser, text: str) -> None:
    mark = tg.mark()
    await tg.send_text(chat, user, text)
    await _visible_reaction(tg, chat, mark)
