"""The shipped reverse proxy (``deploy/Caddyfile``) in front of two real webhook workers.

Caddy (Debian's ``caddy`` package; the test is skipped without it) runs the Caddyfile as
shipped, on loopback over plain HTTP, with one change: Docker's service discovery
(``dynamic a bot 8080``: every replica of the compose service "bot") is replaced by the two
workers' loopback addresses, as there is no DNS name for them here. The fake Bot API server
delivers its webhook to Caddy, as Telegram would. Checked:

* the webhook path reaches the workers, in turn (both handle updates), the secret header
  passes through;
* nothing else is routed: ``/healthz`` and any other path answer 404 from Caddy (a worker's
  health is for the orchestrator, on the worker's own port);
* a worker stopped with SIGTERM while it handles an update finishes it, exits 0, and the
  updates sent meanwhile reach the other worker without one failed delivery (Caddy skips a
  worker that refuses connections);
* Caddy itself stops on SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.bot.harness import TOKEN
from tests.bot.test_e2e_workers import ROOT, _free_port, _wait_for, workers
from tests.fake_telegram import FakeTelegram

CADDY = shutil.which("caddy")
pytestmark = pytest.mark.skipif(CADDY is None, reason="caddy is not installed")

#: The Caddyfile's upstreams: the compose service's replicas, found by DNS.
DISCOVERY = re.compile(r"dynamic a bot 8080 \{[^}]*\}")


#: The request buffer, which Caddy before 2.6.4 calls by its old name, without a size.
BUFFERS = re.compile(r"request_buffers \S+")


def caddy_version() -> tuple[int, ...]:
    assert CADDY is not None
    out = subprocess.run([CADDY, "version"], capture_output=True, text=True, timeout=30).stdout
    found = re.search(r"v?(\d+)\.(\d+)\.(\d+)", out)
    assert found, out
    return tuple(int(part) for part in found.groups())


def shipped_caddyfile() -> str:
    """deploy/Caddyfile, in the words of the Caddy installed here (the request buffer's old
    name before 2.6.4)."""
    shipped = (ROOT / "deploy" / "Caddyfile").read_text()
    assert len(BUFFERS.findall(shipped)) == 1, "the Caddyfile buffers no request"
    if caddy_version() < (2, 6, 4):
        shipped = BUFFERS.sub("buffer_requests", shipped)
    return shipped


def loopback_caddyfile(tmp: Path, upstreams: list[str]) -> Path:
    """deploy/Caddyfile with the two workers as its upstreams and Caddy's admin API off (a
    second Caddy on this machine would otherwise want its port)."""
    shipped = shipped_caddyfile()
    assert len(DISCOVERY.findall(shipped)) == 1, "the Caddyfile's upstreams changed"
    hosts = " ".join(u.removeprefix("http://") for u in upstreams)
    path = tmp / "Caddyfile"
    path.write_text("{\n\tadmin off\n}\n" + DISCOVERY.sub(f"to {hosts}", shipped))
    return path


@contextlib.contextmanager
def caddy(tmp: Path, config: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """Caddy serving ``config`` on ``http://127.0.0.1:port``; stopped with SIGTERM."""
    assert CADDY is not None
    home = tmp / "caddy-home"
    env = {
        **os.environ,
        "BOT_DOMAIN": f"http://127.0.0.1:{port}",
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    env.pop("WEBHOOK_PATH", None)  # the Caddyfile's default, which the workers use too
    log = open(tmp / "caddy.log", "wb")  # noqa: SIM115 - the child keeps it open
    process = subprocess.Popen(
        [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    log.close()
    try:
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(30)


async def _status(session: aiohttp.ClientSession, method: str, url: str) -> int:
    async with session.request(method, url) as answer:
        return answer.status


async def _until_up(url: str, log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            with contextlib.suppress(aiohttp.ClientError, OSError):
                await _status(session, "GET", url)
                return
            await asyncio.sleep(0.1)
    raise TimeoutError(f"caddy did not listen:\n{log.read_text(errors='replace')[-2000:]}")


async def _health(session: aiohttp.ClientSession, worker_url: str, what: str) -> int:
    """A count from a worker's own /healthz: updates ``handled`` or ``in_flight``."""
    async with session.get(f"{worker_url}/healthz") as answer:
        return int((await answer.json())[what])


def test_the_shipped_caddyfile_is_valid_as_compose_runs_it(tmp_path: Path) -> None:
    """``caddy adapt`` accepts deploy/Caddyfile with compose's environment (its upstreams
    are every replica of the service "bot", looked up again every 5 s)."""
    assert CADDY is not None
    env = {**os.environ, "BOT_DOMAIN": "nardy.example.org", "HOME": str(tmp_path)}
    config = tmp_path / "Caddyfile"
    config.write_text(shipped_caddyfile())
    adapted = subprocess.run(
        [CADDY, "adapt", "--config", str(config), "--adapter", "caddyfile"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert adapted.returncode == 0, adapted.stderr
    assert '"source":"a"' in adapted.stdout and '"name":"bot"' in adapted.stdout
    assert '"path":["/telegram/webhook"]' in adapted.stdout
    assert '"nardy.example.org"' in adapted.stdout
    assert (
        '"request_buffers":1048576' in adapted.stdout or '"buffer_requests":true' in adapted.stdout
    )


async def test_caddy_routes_the_webhook_to_two_workers_and_hides_a_stopping_one(
    postgres_url: str, redis_server, tmp_path: Path
) -> None:
    port = _free_port()
    proxy = f"http://127.0.0.1:{port}"
    async with (
        FakeTelegram(token=TOKEN) as tg,
        workers(tg, postgres_url, redis_server.url(db=3), tmp_path, count=2) as crew,
    ):
        config = loopback_caddyfile(tmp_path, [w.url for w in crew])
        with caddy(tmp_path, config, port) as process:
            await _until_up(proxy, tmp_path / "caddy.log")
            assert tg.webhook is not None
            tg.webhook_upstreams = [proxy]  # Telegram -> Caddy -> a worker
            async with aiohttp.ClientSession() as session:
                assert await _status(session, "GET", f"{proxy}/healthz") == 404
                assert await _status(session, "GET", f"{proxy}/") == 404
                assert await _status(session, "POST", f"{proxy}/telegram/webhook/x") == 404
                # Through Caddy without the secret header: the worker refuses it.
                assert await _status(session, "POST", f"{proxy}/telegram/webhook") == 401

                users = [tg.user(931 + i, f"U{i}", language_code="en") for i in range(6)]
                for user in users:
                    mark = tg.mark()
                    await tg.send_text(tg.private_chat(user), user, "/help")
                    await tg.wait_for("sendMessage", chat_id=user.id, since=mark, timeout=60)
                handled = [await _health(session, w.url, "handled") for w in crew]
                assert all(n >= 2 for n in handled), handled  # in turn, both served

                # A worker gets SIGTERM while its reply is slow; the rest goes on.
                tg.slow_next("sendMessage", 3.0)
                slow_user = tg.user(941, "Slow", language_code="en")
                mark = tg.mark()
                await tg.send_text(tg.private_chat(slow_user), slow_user, "/help")
                await _wait_for(lambda: tg._in_flight > 0, 30)
                (busy,) = [w for w in crew if await _health(session, w.url, "in_flight")]
                assert busy.process is not None
                busy.process.send_signal(signal.SIGTERM)
                await asyncio.sleep(0.5)
                others = [tg.user(951 + i, f"V{i}", language_code="en") for i in range(4)]
                for user in others:
                    other_mark = tg.mark()
                    await tg.send_text(tg.private_chat(user), user, "/help")
                    await tg.wait_for("sendMessage", chat_id=user.id, since=other_mark, timeout=60)
                await tg.wait_for("sendMessage", chat_id=slow_user.id, since=mark, timeout=30)
                await _wait_for(lambda: tg.pending_updates() == 0, 30)
                assert await asyncio.to_thread(busy.process.wait, 60) == 0, busy.log_tail()
                assert tg.webhook_failures == 0  # Caddy never passed a refusal on

            process.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(process.wait, 30) == 0
