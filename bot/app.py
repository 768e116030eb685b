"""Assembly: one router per concern, dependencies injected by name, polling or webhook.

Nothing is built at import time. ``build(settings)`` makes the objects; ``run(settings)`` runs
them until stopped. Tests build the same objects against the fake Bot API server.

Webhook mode is made for several workers behind a load balancer (docs/deployment.md): each
update is answered only once its handling is over, so a worker that dies mid-update leaves it
unconfirmed and Telegram delivers it again (to another worker), where the update's claim in
the database makes it act once. ``GET /healthz`` says whether this worker can serve; SIGTERM
stops taking updates, lets the ones in flight finish (``SHUTDOWN_TIMEOUT``), then exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeDefault,
    ErrorEvent,
    TelegramObject,
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
from bot.memory import settle_memory
from bot.middlewares import Claim, Context, GameTap, Updates
from bot.outbox import Outbox
from bot.private import PrivateAnswers, PrivateScope
from bot.session import AnsweredQueries, ApiSession
from bot.shared import RedisShared, SharedUnavailable
from bot.showing import Shows
from bot.texts import DEFAULT_LANG, LANGS, t
from gameplay import ComputerPlayers, GameService, Lobby
from gameplay.archive import Archive
from gameplay.inline import InlineChallenges
from gameplay.reviews import Reviews
from gameplay.scheduler import ClockScheduler, SystemTime, TimeSource
from gameplay.service import SHARED_MAX_AGE
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


class InFlight:
    """Counts the updates being handled (the outermost middleware), so that stopping can wait
    for them and the health endpoint can report them."""

    def __init__(self) -> None:
        self.count = 0
        self.handled = 0
        self._idle = asyncio.Event()
        self._idle.set()

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        self.count += 1
        self._idle.clear()
        try:
            return await handler(event, data)
        finally:
            self.count -= 1
            self.handled += 1
            if self.count == 0:
                self._idle.set()

    async def drained(self, timeout: float) -> bool:
        """Wait until no update is being handled (at most ``timeout`` s); False on timeout."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True


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
    in_flight: InFlight = field(default_factory=InFlight)
    shared: RedisShared | None = None
    stopping: bool = False
    started: float = field(default_factory=time.monotonic)
    _clock_task: asyncio.Task[None] | None = None

    @property
    def boards(self) -> Boards:
        return self.shows.boards

    async def health(self) -> tuple[bool, dict[str, Any]]:
        """Whether this worker can serve updates now, and what was checked."""
        report: dict[str, Any] = {
            "status": "ok",
            "in_flight": self.in_flight.count,
            "handled": self.in_flight.handled,
            "uptime_s": round(time.monotonic() - self.started, 1),
        }
        healthy = True
        try:
            await asyncio.wait_for(self.store.ping(), 5)
            report["database"] = "ok"
        except Exception as exc:  # any failure to answer is "unhealthy", said by its type
            report["database"] = f"error: {type(exc).__name__}"
            healthy = False
        if self.shared is not None:
            try:
                await asyncio.wait_for(self.shared.ping(), 5)
                report["redis"] = "ok"
                report["redis_calls"] = self.shared.calls
            except (SharedUnavailable, TimeoutError) as exc:
                # Sending goes on with this worker's own budgets: degraded, still serving.
                report["redis"] = f"error: {type(exc).__name__}"
        if self.stopping:
            report["status"] = "stopping"
            healthy = False
        elif not healthy:
            report["status"] = "unhealthy"
        return healthy, report

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
        if self.shared is not None:
            await self.shared.close()
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
    # No handler keeps conversation state (a game's state is in storage): aiogram's FSM
    # middleware would look a state up for every update for nobody to read.
    dp = Dispatcher(
        disable_fsm=True,
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
    dp["in_flight"] = in_flight = InFlight()
    dp.update.outer_middleware(in_flight)
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
    shared = None
    if settings.redis_url is not None:
        # Budgets are per bot: the bot's id keeps two bots on one Redis apart.
        namespace = f"nardy:{settings.bot_token.get_secret_value().split(':', 1)[0]}"
        shared = await RedisShared(settings.redis_url.get_secret_value(), namespace).connect()
    elif not settings.sole_writer and settings.use_webhook:
        log.warning(
            "several workers may share this database but REDIS_URL is not set: each worker "
            "keeps its own send budgets, so together they may exceed Telegram's limits"
        )
    if outbox is None:
        outbox = Outbox(shared=shared)
    elif shared is not None and outbox.shared is None:
        outbox.shared = shared
    sole = settings.sole_writer
    games = GameService(
        store,
        rng=rng,  # type: ignore[arg-type]
        ai=ComputerPlayers(seed=ai_seed),
        clock=time.now,
        abandon_after=timedelta(days=settings.abandon_after_days),
        sole_writer=sole,
    )
    lobby = Lobby(games, invitation_ttl=timedelta(hours=settings.invitation_ttl_hours))
    langs = Languages(games.players, games.chats, max_age=None if sole else SHARED_MAX_AGE)
    painter = Painter(settings.render_processes)
    await painter.start()
    inline = InlineBoards(bot, outbox, painter, media_chat_id=settings.media_chat_id)
    shows = Shows(
        Boards(bot, store, outbox, painter, sole_writer=sole),
        games,
        langs,
        inline,
        pickers=settings.group_picker,
    )
    reviews = Reviews(store)
    dp = make_dispatcher(games, lobby, shows, langs, settings, reviews)
    answered = AnsweredQueries()
    bot.session.middleware(answered)
    bot.session.middleware(PrivateAnswers())
    dp["answered"] = answered
    scheduler = ClockScheduler(store, ClockNotices(games, shows), time=time)
    games.on_clock_written = scheduler.wake_by
    return App(
        bot,
        dp,
        store,
        games,
        lobby,
        shows,
        outbox,
        settings,
        scheduler,
        reviews,
        dp["in_flight"],
        shared=shared,
    )


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


async def housekeeping(app: App, every: float = 3600) -> None:
    """Expire old invitations and forget old processed update ids, hourly."""
    while True:
        try:
            await app.games.housekeeping()
        except storage.StorageError:
            log.exception("housekeeping failed")
        await asyncio.sleep(every)


async def run(settings: Settings, *, outbox: Outbox | None = None) -> None:
    """Run until stopped (SIGTERM, SIGINT): long polling, or the webhook server if WEBHOOK_URL
    is set. Stopping finishes the updates in flight first (at most ``SHUTDOWN_TIMEOUT`` s).
    ``outbox``: other send budgets than Telegram's (the end-to-end tests' workers)."""
    app = await build(settings, outbox=outbox)
    try:
        await register_commands(app.bot)
        await check_inline_mode(app.bot)
        await asyncio.to_thread(default_matcher)  # the rules matcher's index, ~0.15 s, once
        settle_memory()
        # Expiring invitations and pruning old update ids are idempotent statements: every
        # worker may run them (two at once do the work once).
        keeper = asyncio.create_task(housekeeping(app))
        app.start_clocks()
        try:
            if settings.use_webhook:
                await _run_webhook(app)
            else:
                await app.bot.delete_webhook(drop_pending_updates=False)
                await app.dispatcher.start_polling(
                    app.bot, handle_signals=True, close_bot_session=False
                )
                app.stopping = True
                await _finish_in_flight(app)
        finally:
            keeper.cancel()
    finally:
        await app.close()
        log.info("stopped")


async def _finish_in_flight(app: App, timeout: float | None = None) -> None:
    if timeout is None:
        timeout = app.settings.shutdown_timeout
    if not await app.in_flight.drained(timeout):
        log.warning(
            "stopping with %d updates still being handled after %.0f s",
            app.in_flight.count,
            app.settings.shutdown_timeout,
        )


def webhook_app(app: App) -> web.Application:
    """The aiohttp application that receives updates at ``WEBHOOK_PATH`` (requests without the
    right ``X-Telegram-Bot-Api-Secret-Token`` are refused) and answers ``GET /healthz``.

    An update is answered once it has been handled (not at once, in the background): until
    then Telegram holds it, so a worker killed in the middle loses nothing."""
    from aiogram.webhook.aiohttp_server import SimpleRequestHandler

    settings = app.settings
    assert settings.webhook_secret is not None
    web_app = web.Application()
    receiver = SimpleRequestHandler(
        dispatcher=app.dispatcher,
        bot=app.bot,
        secret_token=settings.webhook_secret.get_secret_value(),
        handle_in_background=False,
    )
    # The route only: aiogram's register() and setup_application() would also close the bot's
    # session in the server's shutdown signal, which aiohttp sends *before* it waits for the
    # requests in flight, and those are exactly the updates a graceful stop must finish.
    # The session is closed by App.close once they are done.
    web_app.router.add_post(settings.webhook_path, receiver.handle)

    async def healthz(request: web.Request) -> web.Response:
        healthy, report = await app.health()
        return web.json_response(report, status=200 if healthy else 503)

    web_app.router.add_get(HEALTH_PATH, healthz)
    return web_app


#: The health endpoint's path, on the webhook server's port.
HEALTH_PATH = "/healthz"


async def _run_webhook(app: App) -> None:
    settings = app.settings
    assert settings.webhook_url and settings.webhook_secret
    await app.bot.set_webhook(
        settings.webhook_url.rstrip("/") + settings.webhook_path,
        secret_token=settings.webhook_secret.get_secret_value(),
        drop_pending_updates=False,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    runner = web.AppRunner(
        webhook_app(app), handle_signals=False, shutdown_timeout=settings.shutdown_timeout
    )
    await runner.setup()
    site = web.TCPSite(runner, settings.webhook_host, settings.webhook_port)
    await site.start()
    log.info("webhook server listening on %s:%s", settings.webhook_host, settings.webhook_port)
    try:
        await stop.wait()
        log.info("stopping: finishing %d updates in flight", app.in_flight.count)
    finally:
        app.stopping = True
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
        # Closes the listening socket at once, then waits for the requests being handled; the
        # whole stop stays within one SHUTDOWN_TIMEOUT.
        deadline = loop.time() + settings.shutdown_timeout
        await runner.cleanup()
        await _finish_in_flight(app, max(0.0, deadline - loop.time()))
