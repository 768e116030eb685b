"""Assembly: one router per concern, dependencies injected by name, polling or webhook.

Nothing is built at import time. ``build(settings)`` makes the objects; ``run(settings)`` runs
them until stopped. Tests build the same objects against the fake Bot API server.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from dataclasses import dataclass
from datetime import timedelta

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeDefault,
    ErrorEvent,
)
from aiohttp import web

import storage
from bot.boards import Boards
from bot.clock_events import ClockNotices
from bot.config import Settings
from bot.drawing import Painter
from bot.handlers import routers
from bot.inline_boards import InlineBoards
from bot.languages import Languages
from bot.middlewares import Claim, Context, GameTap, Updates
from bot.outbox import Outbox
from bot.private import PrivateAnswers, PrivateScope
from bot.session import AnsweredQueries, ApiSession
from bot.showing import Shows
from bot.texts import DEFAULT_LANG, LANGS, t
from gameplay import ComputerPlayers, GameService, Lobby
from gameplay.archive import Archive
from gameplay.inline import InlineChallenges
from gameplay.reviews import Reviews
from gameplay.scheduler import ClockScheduler, SystemTime, TimeSource
from teacher import default_matcher

log = logging.getLogger(__name__)

COMMANDS = (
    "start",
    "help",
    "new",
    "challenge",
    "move",
    "board",
    "undo",
    "resign",
    "abandon",
    "hint",
    "stats",
    "top",
    "review",
    "history",
    "rules",
    "why",
    "settings",
    "lang",
    "cancel",
)


@dataclass(slots=True)
class App:
    """Everything a running bot is made of."""

    bot: Bot
    dispatcher: Dispatcher
    store: storage.Storage
    games: GameService
    lobby: Lobby
    shows: Shows
    outbox: Outbox
    settings: Settings
    clocks: ClockScheduler
    reviews: Reviews
    _clock_task: asyncio.Task[None] | None = None

    @property
    def boards(self) -> Boards:
        return self.shows.boards

    def start_clocks(self) -> None:
        """Run the move-clock scheduler (its first pass fires, once, whatever fell due while
        the bot was down). Safe in several processes on one database: storage marks every
        event before it is sent, and only the process that marked it sends it."""
        if self._clock_task is None:
            self._clock_task = asyncio.create_task(self.clocks.run(), name="move clocks")

    async def stop_clocks(self) -> None:
        """Stop the scheduler and wait for the event it is firing, if any."""
        task, self._clock_task = self._clock_task, None
        if task is None:
            return
        self.clocks.stop()
        try:
            await asyncio.wait_for(task, timeout=10)
        except TimeoutError:
            log.warning("the clock scheduler did not stop in time; cancelled")

    async def close(self) -> None:
        await self.stop_clocks()
        await self.reviews.close()
        await self.boards.painter.close()
        await self.store.close()
        await self.bot.session.close()


def make_bot(settings: Settings) -> Bot:
    session = ApiSession()
    if settings.telegram_api_base:
        session.api = TelegramAPIServer.from_base(settings.telegram_api_base.rstrip("/"))
    return Bot(
        token=settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML, link_preview_is_disabled=True),
    )


def make_dispatcher(
    games: GameService,
    lobby: Lobby,
    shows: Shows,
    langs: Languages,
    settings: Settings,
    reviews: Reviews | None = None,
) -> Dispatcher:
    """The dispatcher with the objects handlers ask for by name, the middlewares (see
    :mod:`bot.middlewares`) and the routers."""
    dp = Dispatcher(
        games=games,
        lobby=lobby,
        shows=shows,
        langs=langs,
        outbox=shows.outbox,
        settings=settings,
        challenges=InlineChallenges(lobby),
        archive=Archive(games.store),
        reviews=reviews or Reviews(games.store),
    )
    dp.update.outer_middleware(Updates())
    context = Context(games, langs)
    claim = Claim(games)
    private = PrivateScope()
    for observer in (dp.message, dp.callback_query):
        observer.outer_middleware(context)
        observer.middleware(claim)
        observer.middleware(private)
    dp.callback_query.middleware(GameTap(games))
    dp.include_routers(*routers())
    dp.errors.register(_on_error)
    return dp


async def _on_error(event: ErrorEvent, langs: Languages, answered: AnsweredQueries) -> bool:
    """Log the failure and tell the user, briefly, in their language; the game is unchanged
    because every state change is one storage transaction.

    A tap is answered only if its handler had not answered it yet (Telegram takes one answer),
    in the tapping user's language; a message is replied to in the chat's language."""
    log.error("unhandled error in a handler", exc_info=event.exception)
    update = event.update
    with contextlib.suppress(Exception):
        if update.callback_query is not None:
            query = update.callback_query
            if query.id not in answered:
                lang = await _language(langs, query.from_user.id)
                await query.answer(t(lang, "internal_error"), show_alert=True)
        elif update.message is not None:
            lang = await _language(langs, update.message.chat.id)
            await update.message.answer(t(lang, "internal_error"))
    return True


async def _language(langs: Languages, chat_id: int) -> str:
    """The chat's language, or the default when even that cannot be read (the failure being
    handled may be the database's)."""
    try:
        return await langs.of_chat(chat_id)
    except Exception:
        return DEFAULT_LANG


async def build(
    settings: Settings,
    *,
    bot: Bot | None = None,
    rng: object | None = None,
    ai_seed: int | None = None,
    outbox: Outbox | None = None,
    time: TimeSource | None = None,
) -> App:
    """The bot's objects; ``time`` is the one clock of the store, the games and the move-clock
    scheduler (tests pass one they advance)."""
    time = time or SystemTime()
    store = await storage.open_storage(settings.database, clock=time.now)
    bot = bot or make_bot(settings)
    outbox = outbox or Outbox()
    games = GameService(
        store,
        rng=rng,  # type: ignore[arg-type]
        ai=ComputerPlayers(seed=ai_seed),
        clock=time.now,
        abandon_after=timedelta(days=settings.abandon_after_days),
    )
    lobby = Lobby(games, invitation_ttl=timedelta(hours=settings.invitation_ttl_hours))
    langs = Languages(games.players, games.chats)
    painter = Painter(settings.render_processes)
    await painter.start()
    inline = InlineBoards(bot, outbox, painter, media_chat_id=settings.media_chat_id)
    shows = Shows(
        Boards(bot, store, outbox, painter), games, langs, inline, pickers=settings.group_picker
    )
    reviews = Reviews(store)
    dp = make_dispatcher(games, lobby, shows, langs, settings, reviews)
    answered = AnsweredQueries()
    bot.session.middleware(answered)
    bot.session.middleware(PrivateAnswers())
    dp["answered"] = answered
    scheduler = ClockScheduler(store, ClockNotices(games, shows), time=time)
    games.on_clock_written = scheduler.wake_by
    return App(bot, dp, store, games, lobby, shows, outbox, settings, scheduler, reviews)


#: Commands answered to the asker only in a group (an ephemeral message, bot.private).
PRIVATE_IN_GROUPS = frozenset({"help", "hint", "stats", "rules", "why"})


async def register_commands(bot: Bot) -> None:
    """The command menu in both languages (Russian is also the default for other languages);
    in groups the commands answered privately are marked ``is_ephemeral``."""
    for lang in LANGS:
        commands = [BotCommand(command=c, description=t(lang, f"cmd_{c}")) for c in COMMANDS]
        await bot.set_my_commands(commands, scope=BotCommandScopeDefault(), language_code=lang)
        in_groups = [
            BotCommand(
                command=c,
                description=t(lang, f"cmd_{c}"),
                is_ephemeral=True if c in PRIVATE_IN_GROUPS else None,
            )
            for c in COMMANDS
        ]
        await bot.set_my_commands(
            in_groups, scope=BotCommandScopeAllGroupChats(), language_code=lang
        )
    commands = [BotCommand(command=c, description=t("ru", f"cmd_{c}")) for c in COMMANDS]
    await bot.set_my_commands(commands, scope=BotCommandScopeDefault())


async def check_inline_mode(bot: Bot) -> bool:
    """Say in the log, with the BotFather steps, when inline mode is off (challenges typed as
    ``@bot`` in any chat then do nothing); True when it is on."""
    me = await bot.me()
    if not me.supports_inline_queries:
        log.warning(
            "inline mode is off: @%s cannot be challenged from other chats. Turn it on in "
            "@BotFather: /setinline, choose the bot, send a placeholder such as 'game'; and "
            "/setinlinefeedback -> Enabled (100%%) so posted challenges are never reused",
            me.username,
        )
    return bool(me.supports_inline_queries)


def settle_memory() -> None:
    """Put everything alive at start-up out of the garbage collector's reach.

    The imports, aiogram's and pydantic's machinery, fonts and caches are ~180,000 objects
    that live as long as the process. Every full collection walked all of them: measured
    under load, 100–200 ms with the event loop stopped — the slowest taps' answers. Frozen,
    they are never walked again; a full collection then looks only at what came later.
    """
    gc.collect()
    gc.freeze()


async def housekeeping(app: App, every: float = 3600) -> None:
    """Expire old invitations and forget old processed update ids, hourly."""
    while True:
        try:
            await app.games.housekeeping()
        except storage.StorageError:
            log.exception("housekeeping failed")
        await asyncio.sleep(every)


async def run(settings: Settings) -> None:
    """Run until stopped: long polling, or the webhook server if WEBHOOK_URL is set."""
    app = await build(settings)
    try:
        await register_commands(app.bot)
        await check_inline_mode(app.bot)
        await asyncio.to_thread(default_matcher)  # the rules matcher's index, ~0.15 s, once
        settle_memory()
        keeper = asyncio.create_task(housekeeping(app))
        app.start_clocks()
        try:
            if settings.use_webhook:
                await _run_webhook(app)
            else:
                await app.bot.delete_webhook(drop_pending_updates=False)
                await app.dispatcher.start_polling(app.bot, handle_signals=True)
        finally:
            keeper.cancel()
    finally:
        await app.close()


def webhook_app(app: App) -> web.Application:
    """The aiohttp application that receives updates at ``WEBHOOK_PATH``; requests without the
    right ``X-Telegram-Bot-Api-Secret-Token`` are refused."""
    from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application

    settings = app.settings
    assert settings.webhook_secret is not None
    web_app = web.Application()
    SimpleRequestHandler(
        dispatcher=app.dispatcher,
        bot=app.bot,
        secret_token=settings.webhook_secret.get_secret_value(),
    ).register(web_app, path=settings.webhook_path)
    setup_application(web_app, app.dispatcher, bot=app.bot)
    return web_app


async def _run_webhook(app: App) -> None:
    settings = app.settings
    assert settings.webhook_url and settings.webhook_secret
    await app.bot.set_webhook(
        settings.webhook_url.rstrip("/") + settings.webhook_path,
        secret_token=settings.webhook_secret.get_secret_value(),
    )
    runner = web.AppRunner(webhook_app(app))
    await runner.setup()
    site = web.TCPSite(runner, settings.webhook_host, settings.webhook_port)
    await site.start()
    log.info("webhook server listening on %s:%s", settings.webhook_host, settings.webhook_port)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
