"""Load test: the real bot process against the fake Bot API server, many games at once.

Usage: python benchmarks/bot_load.py [--games 200] [--seconds 60] [--warmup 10] [--think 1.0]
       [--mode board|picker] [--workers N] [--database sqlite|postgresql|postgresql://...]
       [--redis redis://...|none] [--delivery auto|polling|webhook]

Starts the fake server in this process and ``python -m bot`` as a child process (a fresh
SQLite file, production settings: real send budgets, JPEG boards, one drawing process). With
``--workers N`` (or ``--database postgresql``) it runs N ``python -m bot`` workers in webhook
mode instead, the fake server delivering updates to them in turn (a round-robin load
balancer), on PostgreSQL (``postgresql``: a throw-away server with PostgreSQL's durable
defaults started here; or the URL of an empty database) with their send budgets in Redis (a
throw-away ``redis-server`` unless ``--redis`` names one). Each
game is a group with two players who play by buttons only (point → destination → Done, Roll,
Take); before each tap a player waits ``--think`` seconds on average (0, the default: as fast as
the bot answers, which measures capacity). Reports turns per second, the latency from a button
update to its answerCallbackQuery and to the board edit (median, p99), the CPU time per tap of
the bot, its drawing process and this process, and the peak memory of the bot and its drawing
process (with several workers: summed over the workers, plus the PostgreSQL and Redis servers'
CPU). Figures and what they mean: docs/bot.md, docs/deployment.md.

``--mode board`` (the default) plays on the group board's own buttons (``GROUP_PICKER=false``,
as before issue #12); ``--mode picker`` plays as groups do now: the mover opens a private
picker (an ephemeral message) and plays in it, taking the fewest taps it offers (a whole play
when there are few, else one tap per step where a point has one destination). It adds, per
turn: the calls the whole group sees (sends and edits of public messages), all Bot API calls,
taps by variant for non-doubles and doubles (median, p90), and CPU-ms of the bot and its
drawing process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.callbacks import Act, GameCB, LobbyAct, LobbyCB  # noqa: E402
from bot.memory import settle_memory  # noqa: E402
from bot.texts import CATALOGS  # noqa: E402
from tests.fake_telegram import FakeChat, FakeTelegram, FakeUser  # noqa: E402

WEBHOOK_SECRET = "bot_load_secret"

TOKEN = "123456789:AAHfakeTokenForTheNardyBotLoadTest_x9"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The bot's worker processes (the board-drawing pool)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


class Stats:
    def __init__(self) -> None:
        self.answer_ms: list[float] = []
        self.edit_ms: list[float] = []
        self.board_ms: list[float] = []  # a committing tap -> the group board's edit
        self.turns = 0
        self.games_finished = 0
        self.errors = 0
        self.measure_from = 0.0
        self.public_per_turn: list[int] = []
        self.calls_per_turn: list[int] = []
        self.taps: dict[tuple[str, bool], list[int]] = {}  # (variant, doubles) -> per turn
        #: Measured taps by the button's act, and those answered "this board is outdated".
        self.acts: dict[str, int] = {}
        self.outdated = 0
        #: Taps of each turn ended by Done, by the turn's number in its game (0: the first),
        #: whether measured or not: a game's early turns take other taps than its later ones.
        self.by_turn: dict[int, list[int]] = {}
        self.measured_turns: list[int] = []  # the numbers of the measured turns
        self.measured_taps: list[int] = []  # and all their taps, some maybe before the window


#: The answer to a tap on a board another tap has replaced, in every language.
OUTDATED = frozenset(catalog["outdated"] for catalog in CATALOGS.values())


class CountingTelegram(FakeTelegram):
    """The fake server, counting each chat's calls: all of them, and those the whole group
    sees (sends and edits of public messages)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.all_calls: dict[int, int] = {}
        self.public_calls: dict[int, int] = {}

    def _record(self, method: str, params: dict, body: dict) -> None:  # type: ignore[override]
        super()._record(method, params, body)
        call = self._calls[-1]
        if call.chat_id is None or method == "getUpdates":
            return
        self.all_calls[call.chat_id] = self.all_calls.get(call.chat_id, 0) + 1
        if call.ok and not call.is_ephemeral and method.startswith(("send", "edit")):
            self.public_calls[call.chat_id] = self.public_calls.get(call.chat_id, 0) + 1


def actor_name(caption: str) -> str:
    """Who must act, from the caption: the double's addressee or the player to move."""
    if "⚖️" in caption:
        return caption.split("⚖️", 1)[1].split(". ", 1)[1].split(":", 1)[0].strip()
    return caption.split("👉", 1)[1].split(":", 1)[1].split()[0]


async def play_game(
    tg: FakeTelegram, index: int, stats: Stats, stop: float, think: float = 0.0
) -> None:
    """One group: A opens a lobby, B joins, then both tap through turns until time is up."""
    rng = random.Random(index)
    chat_id = -100_000 - index
    a = tg.user(10_000 + 2 * index, f"A{index}")
    b = tg.user(10_001 + 2 * index, f"B{index}")
    group = tg.group(chat_id, f"Load {index}")
    players = {a.first_name: a, b.first_name: b}
    mark = tg.mark()
    await tg.send_text(group, a, "/new long" if index % 2 else "/new short")
    await tg.wait_for("sendMessage", chat_id=group, since=mark, timeout=60)
    lobby = tg.last_bot_message(group)
    mark = tg.mark()
    await tg.tap(group, lobby.message_id, b, lobby.buttons()[0][0]["callback_data"])
    await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=60)
    taps, turn_taps = 0, []  # this turn's taps so far, and the game's earlier turns'
    while time.monotonic() < stop:
        boards = [
            m
            for m in tg.messages[chat_id].values()
            if m.from_bot and not m.deleted and m.media_kind == "photo"
        ]
        board = boards[-1]
        options = {}
        for row in board.buttons():
            for button in row:
                data = button.get("callback_data", "")
                if data.startswith("g:"):
                    options.setdefault(GameCB.unpack(data).a, []).append(data)
        caption = board.caption or ""
        if Act.REMATCH in options:
            stats.games_finished += 1
            await rematch(tg, group, board.message_id, options[Act.REMATCH][0], a, b)
            continue
        act = next(
            (x for x in (Act.TAKE, Act.ROLL, Act.DONE, Act.MOVE, Act.PICK) if x in options),
            None,
        )
        if act is None:
            await asyncio.sleep(0.05)
            continue
        data, who = rng.choice(options[act]), players[actor_name(caption)]
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        mark = tg.mark()
        sent = time.monotonic() - tg._started_at
        qid = await tg.tap(group, board.message_id, who, data)
        try:
            answer = await tg.wait_for(
                lambda c, qid=qid: (
                    c.method == "answerCallbackQuery" and c.params.get("callback_query_id") == qid
                ),
                since=mark,
                timeout=60,
            )
            if time.monotonic() >= stats.measure_from:
                stats.answer_ms.append((answer.time - sent) * 1000)
                act_name = GameCB.unpack(data).a.name
                stats.acts[act_name] = stats.acts.get(act_name, 0) + 1
                stats.outdated += answer.params.get("text") in OUTDATED
            edit = await tg.wait_for(
                lambda c: (
                    c.method in ("editMessageMedia", "editMessageCaption", "sendPhoto") and c.ok
                ),
                chat_id=group,
                since=mark,
                timeout=60,
            )
            if time.monotonic() >= stats.measure_from:
                stats.edit_ms.append((edit.time - sent) * 1000)
        except TimeoutError:
            stats.errors += 1
            continue
        taps += 1
        if GameCB.unpack(data).a is Act.DONE:
            stats.by_turn.setdefault(len(turn_taps), []).append(taps)
            turn_taps.append(taps)
            taps = 0
            if time.monotonic() >= stats.measure_from:
                stats.turns += 1
                stats.measured_turns.append(len(turn_taps))
                stats.measured_taps.append(turn_taps[-1])


REACTIONS = (
    "sendPhoto",
    "editEphemeralMessageMedia",
    "editEphemeralMessageCaption",
    "editMessageMedia",
    "editMessageCaption",
)
COMMITS = (Act.DONE, Act.PLAY)


async def play_picker_game(
    tg: CountingTelegram, index: int, stats: Stats, stop: float, think: float = 0.0
) -> None:
    """One group played through private pickers, with the fewest taps each picker offers."""
    rng = random.Random(index)
    chat_id = -100_000 - index
    variant = "long" if index % 2 else "short"
    a = tg.user(10_000 + 2 * index, f"A{index}")
    b = tg.user(10_001 + 2 * index, f"B{index}")
    group = tg.group(chat_id, f"Load {index}")
    group.members.update({a.id, b.id})
    players = {a.first_name: a, b.first_name: b}
    mark = tg.mark()
    await tg.send_text(group, a, f"/new {variant}")
    await tg.wait_for("sendMessage", chat_id=group, since=mark, timeout=60)
    lobby = tg.last_bot_message(group)
    mark = tg.mark()
    await tg.tap(group, lobby.message_id, b, lobby.buttons()[0][0]["callback_data"])
    await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=60)
    taps, turn_public, turn_all = 0, tg.public_calls.get(chat_id, 0), tg.all_calls.get(chat_id, 0)
    while time.monotonic() < stop:
        boards = [
            m
            for m in tg.messages[chat_id].values()
            if m.from_bot and not m.deleted and m.media_kind == "photo"
        ]
        board = boards[-1]
        caption = board.caption or ""
        if "👉" not in caption and "⚖️" not in caption:  # over: a rematch
            rematch_data = next(
                (
                    d
                    for row in board.buttons()
                    for btn in row
                    if (d := btn.get("callback_data", "")).startswith("g:")
                    and GameCB.unpack(d).a is Act.REMATCH
                ),
                None,
            )
            if rematch_data is None:
                await asyncio.sleep(0.05)
                continue
            stats.games_finished += 1
            await rematch(tg, group, board.message_id, rematch_data, a, b)
            taps = 0
            continue
        who = players[actor_name(caption)]
        mine = [m for m in tg.ephemeral_messages(group, who) if not m.dropped]
        surface = mine[-1] if mine else board
        options: dict[Act, list[str]] = {}
        for row in surface.buttons():
            for button in row:
                data = button.get("callback_data", "")
                if data.startswith("g:"):
                    cb = GameCB.unpack(data)
                    if cb.a is Act.WAY and cb.s == 0:
                        continue  # never back to step by step: the fewest taps
                    options.setdefault(cb.a, []).append(data)
        order = (Act.TAKE, Act.ROLL, Act.OPEN, Act.PLAY, Act.WAY, Act.DONE, Act.MOVE, Act.PICK)
        act = next((x for x in order if x in options), None)
        if act is None:
            await asyncio.sleep(0.05)
            continue
        data = rng.choice(options[act])
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        doubles = _doubles(surface.caption or "")
        mark = tg.mark()
        sent = time.monotonic() - tg._started_at
        if surface.is_ephemeral:
            qid = await tg.tap_ephemeral(
                group, who, data, ephemeral_message_id=surface.ephemeral_message_id
            )
        else:
            qid = await tg.tap(group, surface.message_id, who, data)
        taps += 1
        measured = time.monotonic() >= stats.measure_from
        try:
            answer = await tg.wait_for(
                lambda c, qid=qid: (
                    c.method == "answerCallbackQuery" and c.params.get("callback_query_id") == qid
                ),
                since=mark,
                timeout=60,
            )
            if measured:
                stats.answer_ms.append((answer.time - sent) * 1000)
            board_id = board.message_id
            if act in COMMITS:
                edit = await tg.wait_for(
                    lambda c, board_id=board_id: (
                        c.method in ("editMessageMedia", "editMessageCaption")
                        and c.ok
                        and c.params.get("message_id") == board_id
                    ),
                    chat_id=group,
                    since=mark,
                    timeout=60,
                )
                if measured:
                    stats.board_ms.append((edit.time - sent) * 1000)
            else:
                edit = await tg.wait_for(
                    lambda c: c.method in REACTIONS and c.ok, chat_id=group, since=mark, timeout=60
                )
            if measured:
                stats.edit_ms.append((edit.time - sent) * 1000)
        except TimeoutError:
            stats.errors += 1
            continue
        if act in COMMITS:
            await asyncio.sleep(0.05)  # let the turn's "your move" notice go out
            if measured:
                stats.turns += 1
                stats.taps.setdefault((variant, doubles), []).append(taps)
                stats.public_per_turn.append(tg.public_calls.get(chat_id, 0) - turn_public)
                stats.calls_per_turn.append(tg.all_calls.get(chat_id, 0) - turn_all)
            taps = 0
            turn_public = tg.public_calls.get(chat_id, 0)
            turn_all = tg.all_calls.get(chat_id, 0)


def _doubles(caption: str) -> bool:
    """Whether the roll on a caption's "👉 … · rolled 4-4" line is a double."""
    line = next((x for x in caption.splitlines() if "👉" in x and "·" in x), "")
    digits = [ch for ch in line.rsplit("·", 1)[-1] if ch.isdigit()]
    return len(digits) >= 2 and digits[0] == digits[1]


async def rematch(
    tg: FakeTelegram, group: FakeChat, board_id: int, data: str, a: FakeUser, b: FakeUser
) -> None:
    """``a`` offers a rematch; ``b`` accepts the offer (a game between people never
    restarts on one player's tap); returns when the new board is sent."""
    mark = tg.mark()
    await tg.tap(group, board_id, a, data)
    await tg.wait_for("sendMessage", chat_id=group, since=mark, timeout=60)
    offer = tg.last_bot_message(group)
    accept = next(
        button["callback_data"]
        for row in offer.buttons()
        for button in row
        if button.get("callback_data", "").startswith("l:")
        and LobbyCB.unpack(button["callback_data"]).a is LobbyAct.ACCEPT
    )
    mark = tg.mark()
    await tg.tap(group, offer.message_id, b, accept)
    await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=60)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _database(
    choice: str, tmp: Path, servers: contextlib.ExitStack
) -> tuple[dict[str, str], list[int]]:
    """The bot's database settings, and the server processes to count the CPU of."""
    if choice == "sqlite":
        return {"DATABASE_PATH": str(tmp / "load.sqlite3")}, []
    if choice.startswith(("postgresql://", "postgres://")):
        return {"DATABASE_URL": choice}, []
    if choice != "postgresql":
        raise SystemExit(f"--database: sqlite, postgresql or a postgresql:// URL, not {choice!r}")
    from tests.pg_server import DURABLE_SETTINGS, PostgresServer

    server = servers.enter_context(PostgresServer(DURABLE_SETTINGS))
    assert server.process is not None
    return {"DATABASE_URL": server.url()}, [server.process.pid]


def _redis(url: str | None, servers: contextlib.ExitStack) -> tuple[str, int | None]:
    if url is not None:
        return url, None
    from tests.redis_server import RedisServer

    server = servers.enter_context(RedisServer())
    assert server.process is not None
    return server.url(), server.process.pid


async def _redis_calls(ports: list[int]) -> int:
    """Round trips to Redis the workers made so far (their /healthz counts them)."""
    import aiohttp

    total = 0
    async with aiohttp.ClientSession() as session:
        for port in ports:
            async with session.get(f"http://127.0.0.1:{port}/healthz") as answer:
                total += int((await answer.json()).get("redis_calls", 0))
    return total


async def _healthy(port: int, timeout: float = 120.0) -> None:
    import aiohttp

    deadline = time.monotonic() + timeout
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            with contextlib.suppress(aiohttp.ClientError, OSError):
                async with session.get(f"http://127.0.0.1:{port}/healthz") as answer:
                    if answer.status == 200:
                        return
            await asyncio.sleep(0.2)
    raise TimeoutError(f"the worker on port {port} did not become healthy")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument(
        "--warmup",
        type=float,
        default=10,
        help="seconds at the start (every game opening at once) that are not measured",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a player waits before each tap (0: as fast as "
        "the bot answers, which saturates it)",
    )
    parser.add_argument(
        "--mode",
        choices=("board", "picker"),
        default="board",
        help="board: the group board's own buttons; picker: private pickers (issue #12)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="bot workers; more than one (or --database postgresql) runs them in webhook mode",
    )
    parser.add_argument(
        "--database",
        default="sqlite",
        help="sqlite (a fresh file), postgresql (a throw-away server), or a postgresql:// URL",
    )
    parser.add_argument(
        "--redis",
        default=None,
        help="redis:// URL (default with webhooks: a throw-away one), or none: no Redis",
    )
    parser.add_argument(
        "--delivery",
        choices=("auto", "polling", "webhook"),
        default="auto",
        help="how updates reach the bot (auto: webhooks with several workers or PostgreSQL, "
        "else long polling); to tell the cost of webhooks from the database's",
    )
    parser.add_argument(
        "--strict-fake",
        action="store_true",
        help="hash every upload's bytes for its file_unique_id, as the tests' fake does "
        "(by default this benchmark's fake skips it: the bot never reads the id)",
    )
    args = parser.parse_args()
    picker = args.mode == "picker"
    tmp = Path(tempfile.mkdtemp(prefix="nardy-load-"))
    webhook = args.workers > 1 or args.database != "sqlite"
    if args.delivery != "auto":
        webhook = args.delivery == "webhook"
    if args.workers > 1 and not webhook:
        raise SystemExit("several workers need --delivery webhook (one polling process a token)")
    with contextlib.ExitStack() as servers:
        database, server_pids = _database(args.database, tmp, servers)
        redis_url = None
        if webhook and args.redis != "none":
            redis_url, redis_pid = _redis(args.redis, servers)
            server_pids += [redis_pid] if redis_pid else []
        async with CountingTelegram(
            token=TOKEN,
            store_file_bytes=False,
            decode_images=False,
            hash_uploads=not args.strict_fake,
            history_limit=5000,
            clock=time.monotonic,
        ) as tg:
            env = dict(os.environ, BOT_TOKEN=TOKEN, TELEGRAM_API_BASE=tg.base_url)
            env.update(
                database,
                LOG_LEVEL="WARNING",
                GROUP_PICKER="true" if picker else "false",
            )
            ports = [_free_port() for _ in range(args.workers)] if webhook else [0]
            if redis_url is not None:
                env.update(REDIS_URL=redis_url)
            if webhook:
                env.update(
                    WEBHOOK_URL="https://bot.example.org",
                    WEBHOOK_SECRET=WEBHOOK_SECRET,
                    WEBHOOK_HOST="127.0.0.1",
                )
                tg.webhook_upstreams = [f"http://127.0.0.1:{port}" for port in ports]
            procs = [
                subprocess.Popen(
                    [sys.executable, "-m", "bot"],
                    cwd=ROOT,
                    env={**env, "WEBHOOK_PORT": str(port), "WORKER_NAME": f"w{n}"},
                )
                for n, port in enumerate(ports, start=1)
            ]
            try:
                if webhook:
                    for port in ports:
                        await _healthy(port)
                else:
                    await tg.wait_for("getUpdates", since=0, timeout=120)
                # The fake server and players share the two cores with the bot: their
                # imports (aiogram's schemas among them) frozen out of the garbage
                # collector's walks, as the bot's are.
                settle_memory()
                stats = Stats()
                stats.measure_from = time.monotonic() + args.warmup
                start = stats.measure_from
                stop = start + args.seconds
                cpu: dict[str, float] = {}

                def bots() -> float:
                    return sum(cpu_seconds(p.pid) for p in procs)

                def drawing() -> float:
                    return sum(cpu_seconds(c) for p in procs for c in children(p.pid))

                def servers_cpu() -> float:
                    return sum(
                        cpu_seconds(pid) + sum(cpu_seconds(c) for c in children(pid))
                        for pid in server_pids
                    )

                async def sample_cpu() -> None:
                    await asyncio.sleep(max(0.0, start - time.monotonic()))
                    cpu["bot"], cpu["workers"] = -bots(), -drawing()
                    cpu["servers"], cpu["here"] = -servers_cpu(), -time.process_time()
                    if redis_url is not None:
                        cpu["redis_calls"] = -await _redis_calls(ports)
                    print(f"warm-up over, measuring {args.seconds:.0f} s", flush=True)
                    await asyncio.sleep(max(0.0, stop - time.monotonic()))
                    cpu["bot"] += bots()
                    cpu["workers"] += drawing()
                    cpu["servers"] += servers_cpu()
                    cpu["here"] += time.process_time()
                    if redis_url is not None:
                        cpu["redis_calls"] += await _redis_calls(ports)

                play = play_picker_game if picker else play_game
                await asyncio.gather(
                    sample_cpu(),
                    *(play(tg, i, stats, stop, args.think) for i in range(args.games)),  # type: ignore[arg-type]
                )
                elapsed = time.monotonic() - start
                memory = max(peak_rss_mb(p.pid) for p in procs)
                workers = [peak_rss_mb(c) for p in procs for c in children(p.pid)]
            finally:
                for proc in procs:
                    proc.terminate()  # each finishes its updates in flight (SHUTDOWN_TIMEOUT)
                for proc in procs:
                    try:
                        proc.wait(90)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait(30)
    where = f"{args.workers} webhook workers" if webhook else "1 process, long polling"
    print(f"bot: {where}; database {args.database}; redis {'yes' if redis_url else 'no'}")
    print(
        f"games: {args.games} concurrent, think {args.think} s, {elapsed:.1f} s measured after "
        f"{args.warmup:.0f} s of warm-up; {stats.games_finished} finished, "
        f"{stats.errors} timeouts"
    )
    print(
        f"turns: {stats.turns} ({stats.turns / elapsed:.1f} turns/s), "
        f"button taps: {len(stats.answer_ms)} ({len(stats.answer_ms) / elapsed:.1f} taps/s)"
    )
    if stats.answer_ms:
        print(
            f"tap -> answerCallbackQuery: median {statistics.median(stats.answer_ms):.0f} ms, "
            f"p99 {percentile(stats.answer_ms, 0.99):.0f} ms"
        )
        print(
            f"tap -> board edit: median {statistics.median(stats.edit_ms):.0f} ms, "
            f"p99 {percentile(stats.edit_ms, 0.99):.0f} ms"
        )
    taps = max(1, len(stats.answer_ms))
    if stats.measured_taps:
        # Counted per finished turn: taps in the window over turns in it would count the taps
        # of turns still going on when it ends, which with 200 games a turn or two long each
        # (a slow set-up) makes a large and varying share.
        acts = ", ".join(f"{name} {n}" for name, n in sorted(stats.acts.items()))
        print(
            f"taps per turn: {statistics.mean(stats.measured_taps):.2f} (taps in the window: "
            f"{acts}); answered outdated: {stats.outdated}"
        )
    if stats.by_turn and stats.measured_turns:
        spans = ((0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 14), (15, 29), (30, 10_000))
        print(
            "taps per turn by the turn's number in its game (all turns, warm-up too): "
            + ", ".join(
                f"{lo + 1}{'' if lo == hi else '–'}{'' if lo == hi or hi >= 10_000 else hi + 1}: "
                f"{statistics.mean(counts):.2f} "
                f"({len(counts)})"
                for lo, hi in spans
                if (counts := [n for t, ns in stats.by_turn.items() if lo <= t <= hi for n in ns])
            )
            + f"; the measured turns were the games' turns {min(stats.measured_turns)}–"
            f"{max(stats.measured_turns)}, {statistics.median(stats.measured_turns):.0f} at the "
            "median"
        )
    if "redis_calls" in cpu:
        print(f"Redis round trips per tap: {cpu['redis_calls'] / taps:.2f}")
    print(
        "CPU per button tap: bot process "
        + ", ".join(
            f"{name} {cpu[key] / taps * 1000:.2f} ms ({cpu[key] / args.seconds:.0%} of a core)"
            for name, key in (
                ("bot process", "bot"),
                ("drawing workers", "workers"),
                ("database + redis servers", "servers"),
                ("fake server + players", "here"),
            )
        ).removeprefix("bot process ")
    )
    print(
        f"bot process peak memory (VmHWM): {memory:.0f} MB; drawing workers: "
        + (", ".join(f"{w:.0f} MB" for w in workers) or "none")
    )
    if picker and stats.turns:
        print(
            f"per turn: CPU bot {cpu['bot'] / stats.turns * 1000:.1f} ms + drawing "
            f"{cpu['workers'] / stats.turns * 1000:.1f} ms (and this process, the fake server "
            f"and players, {cpu['here'] / stats.turns * 1000:.1f} ms); public calls (group sees) "
            f"median "
            f"{statistics.median(stats.public_per_turn):.0f}, p90 "
            f"{percentile(stats.public_per_turn, 0.9):.0f}, mean "
            f"{statistics.mean(stats.public_per_turn):.2f}; all Bot API calls median "
            f"{statistics.median(stats.calls_per_turn):.0f}, mean "
            f"{statistics.mean(stats.calls_per_turn):.1f}"
        )
        if stats.board_ms:
            print(
                f"committing tap -> group board edit: median "
                f"{statistics.median(stats.board_ms):.0f} ms, p99 "
                f"{percentile(stats.board_ms, 0.99):.0f} ms"
            )
        for (variant, doubles), counts in sorted(stats.taps.items()):
            kind = "doubles" if doubles else "non-doubles"
            print(
                f"taps per turn, {variant} {kind}: median {statistics.median(counts):.0f}, "
                f"p90 {percentile(counts, 0.9):.0f} ({len(counts)} turns)"
            )


if __name__ == "__main__":
    # The fake server and the players share the 2 cores with the bot: on uvloop (as the bot
    # runs) they cost less of the machine they are measuring.
    from bot.__main__ import event_loop_runner

    event_loop_runner()(main())
