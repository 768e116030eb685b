"""What several bot workers must share about sending: Telegram's budgets and "newest wins".

Telegram counts a bot's calls per bot, not per process: three workers each keeping "20 new
messages a minute in this group" would send 60. With ``REDIS_URL`` set, every worker takes its
sends from the same budgets in Redis (:class:`RedisShared`); without it the outbox keeps them in
the process (right for the one-process default).

Each budget is one small Lua script, so checking and counting a call is atomic across workers
and costs one round trip; the scripts use the Redis server's clock, so workers on machines whose
clocks differ still count the same minute. Besides budgets, Redis holds

* a chat's pause after a 429 (every worker waits it out, not only the one that got it);
* the newest requested state of each board message (an edit overtaken by a newer one, asked by
  any worker, is skipped instead of sent late and shown over the newer one);
* the newest version each game was shown at (a "your move" notice made for an older version is
  dropped, whichever worker made it).

All keys expire; nothing here is needed after a restart of Redis (budgets start full, which is
what an idle chat's would be). If Redis cannot be reached a call raises
:class:`SharedUnavailable` and the outbox falls back to its own per-process state for that call,
logging it: sending goes on, only less strictly limited.
"""

from __future__ import annotations

import itertools
import logging
import os
import secrets
import socket
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

#: How long the newest-state records of messages and games are kept (a day: far longer than
#: any edit or notice waits for its budget).
RECORD_SECONDS = 24 * 3600
#: A ticket is ``version * STRIDE + n`` (see :data:`_WANT`): room for a million wanted states
#: of one message at one version, and exact in Redis's Lua numbers (doubles) for versions
#: below 2**33.
STRIDE = 1 << 20


class SharedUnavailable(Exception):
    """Redis did not answer; the caller falls back to per-process state."""


@dataclass(frozen=True, slots=True)
class Spec:
    """A budget's shape: a sliding window (``limit`` calls in any ``seconds``) or a token
    bucket (``limit`` = burst, ``rate`` calls per second)."""

    kind: str  # "window" or "bucket"
    limit: float
    seconds: float = 0.0
    rate: float = 0.0


# Each script returns how many milliseconds to wait before asking again (0: taken, counted).
_WINDOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local paused = redis.call('PTTL', KEYS[2])
if paused > 0 then return paused end
local span = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - span)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], span)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + span - now)
"""

_BUCKET = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local paused = redis.call('PTTL', KEYS[2])
if paused > 0 then return paused end
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(state[1]) or burst
local stamp = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.max(1, math.ceil((1 - tokens) / rate * 1000))
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return wait
"""

# A message's record is the newest wanted state's ticket, ``version * STRIDE + n``: the game
# version the state shows, and the how-manieth state wanted at that version. A state of an
# older version is never newer than one of a newer version, whenever it was asked for (a slow
# worker showing version 7 after another asked for 8 must not win); within one version, the
# later asked wins. want(key, version, ttl) records a newly wanted state and returns its
# ticket — one already overtaken (smaller than the record) if a newer version is wanted.
_WANT = f"""
local function want(key, version, ttl)
  local base = tonumber(version) * {STRIDE}
  local known = tonumber(redis.call('GET', key) or '-1')
  if known >= base + {STRIDE} then
    return base
  end
  local ticket = math.max(known + 1, base + 1)
  redis.call('SET', key, string.format('%d', ticket), 'EX', ttl)
  return ticket
end
"""

# An edit of a message that shows its newest wanted state (a board): the message's ticket and
# the budget in one round trip. KEYS[3] is the message's record; the last three ARGV are this
# edit's ticket (0: none yet, want one now), the version it shows and how long the record is
# kept. Returns {ticket, wait}: wait -1 when a newer state was asked for (nothing is counted
# then), else the budget's answer. Appended to a budget script whose body is wrapped as take().
_NEWEST = """
local ticket = tonumber(ARGV[#ARGV - 2])
if ticket == 0 then
  ticket = want(KEYS[3], ARGV[#ARGV - 1], ARGV[#ARGV])
end
if tonumber(redis.call('GET', KEYS[3]) or '-1') > ticket then
  return {ticket, -1}
end
return {ticket, take()}
"""


def _newest(budget: str) -> str:
    """The budget script ``budget`` as the edit's script (:data:`_NEWEST`)."""
    return f"{_WANT}local function take()\n{budget}\nend\n{_NEWEST}"


_PAUSE = """
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 0
"""

_TICKET = _WANT + "return want(KEYS[1], ARGV[1], ARGV[2])"

_AT_LEAST = """
local known = tonumber(redis.call('GET', KEYS[1]) or '-1')
if tonumber(ARGV[1]) > known then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
end
return 0
"""


class RedisShared:
    """The shared half of the outbox, in Redis (``redis.asyncio``).

    ``namespace`` separates bots that share one Redis (the bot's id is a good one).
    """

    def __init__(self, url: str, namespace: str = "nardy") -> None:
        self.url = url
        self.prefix = f"{namespace}:"
        self._client: Any = None
        self._scripts: dict[str, Any] = {}
        # A member of a window must be unique across workers: host, process, this connection
        # and a counter.
        self._me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._seq = itertools.count()
        #: Round trips to Redis so far (what a tap costs here: /healthz reports it).
        self.calls = 0

    async def connect(self) -> RedisShared:
        """Connect and check that Redis answers (a wrong ``REDIS_URL`` stops the start)."""
        import redis.asyncio as redis

        self._client = redis.Redis.from_url(self.url, socket_timeout=2, socket_connect_timeout=2)
        for name, source in (
            ("window", _WINDOW),
            ("bucket", _BUCKET),
            ("newest window", _newest(_WINDOW)),
            ("newest bucket", _newest(_BUCKET)),
            ("pause", _PAUSE),
            ("ticket", _TICKET),
            ("at_least", _AT_LEAST),
        ):
            self._scripts[name] = self._client.register_script(source)
        await self.ping()
        return self

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def ping(self) -> bool:
        """True if Redis answers (the health endpoint asks)."""
        return bool(await self._call(lambda: self._client.ping()))

    async def _call(self, make: Any) -> Any:
        from redis.exceptions import RedisError

        if self._client is None:
            raise SharedUnavailable("not connected")
        self.calls += 1
        try:
            return await make()
        except (RedisError, OSError) as exc:
            raise SharedUnavailable(str(exc)) from exc

    async def _run(self, script: str, keys: list[str], args: list[Any]) -> int:
        return int(await self._call(lambda: self._scripts[script](keys=keys, args=args)))

    # ---- budgets ------------------------------------------------------------------------------

    def _pause_key(self, chat_id: int, family: str) -> str:
        return f"{self.prefix}pause:{chat_id}" + (f":{family}" if family else "")

    def _budget_call(
        self, chat_id: int, budget: str, spec: Spec, family: str
    ) -> tuple[str, list[str], list[Any]]:
        """The script (its budget kind), keys and arguments that take one call of a budget."""
        keys = [f"{self.prefix}budget:{chat_id}:{budget}", self._pause_key(chat_id, family)]
        if spec.kind == "window":
            member = f"{self._me}:{next(self._seq)}"
            return "window", keys, [int(spec.limit), int(spec.seconds * 1000), member]
        return "bucket", keys, [spec.limit, spec.rate]

    async def take(self, chat_id: int, budget: str, spec: Spec, family: str = "") -> float:
        """Count one call against chat ``chat_id``'s budget ``budget`` if it allows one now;
        otherwise how many seconds to wait before asking again (0.0: taken). ``family``: which
        of the chat's pauses holds this budget ("": the chat's own messages; a separate one
        for calls Telegram limits apart, such as ephemeral messages)."""
        return await self._run(*self._budget_call(chat_id, budget, spec, family)) / 1000

    async def take_newest(
        self,
        chat_id: int,
        budget: str,
        spec: Spec,
        family: str,
        message_id: Hashable,
        ticket: int | None,
        version: int = 0,
    ) -> tuple[int, float | None]:
        """:meth:`take` for an edit showing the newest wanted state of a message, in the same
        round trip as :meth:`ticket` (``ticket`` None: take one now, for a state of
        ``version``) or as the "overtaken?" check (``ticket`` given). ``(ticket, seconds to
        wait)``; the wait is None when a newer state was asked for after ``ticket`` (the edit
        is skipped; nothing is counted)."""
        script, keys, args = self._budget_call(chat_id, budget, spec, family)
        keys.append(self._edit_key(chat_id, message_id))
        args += [ticket or 0, version, RECORD_SECONDS]
        ticket_, wait = await self._call(
            lambda: self._scripts[f"newest {script}"](keys=keys, args=args)
        )
        return int(ticket_), None if int(wait) < 0 else int(wait) / 1000

    async def pause(self, chat_id: int, seconds: float, family: str = "") -> None:
        """Telegram answered 429 for this chat: every worker waits ``seconds`` before its next
        call there of the same ``family`` (a longer pause already in force is kept)."""
        key = self._pause_key(chat_id, family)
        await self._run("pause", [key], [max(1, int(seconds * 1000))])

    # ---- newest wins --------------------------------------------------------------------------

    def _edit_key(self, chat_id: int, message_id: Hashable) -> str:
        """A message's record: a board's id, or a private picker's key (a tuple of its parts)."""
        name = ":".join(map(str, message_id)) if isinstance(message_id, tuple) else message_id
        return f"{self.prefix}edit:{chat_id}:{name}"

    async def ticket(self, chat_id: int, message_id: Hashable, version: int = 0) -> int:
        """A number for a newly wanted state of a message showing game ``version``: larger
        than every earlier one of this or an older version; smaller than the record (so
        overtaken already) if a newer version is wanted."""
        key = self._edit_key(chat_id, message_id)
        return await self._run("ticket", [key], [version, RECORD_SECONDS])

    async def latest_ticket(self, chat_id: int, message_id: Hashable) -> int:
        key = self._edit_key(chat_id, message_id)
        value = await self._call(lambda: self._client.get(key))
        return int(value) if value is not None else -1

    async def shown(self, subject: Hashable, version: int) -> None:
        """``subject`` (a game) is being shown at ``version`` (an older one never undoes it)."""
        key = f"{self.prefix}shown:{subject}"
        await self._run("at_least", [key], [version, RECORD_SECONDS])

    async def shown_version(self, subject: Hashable) -> int | None:
        """The newest version ``subject`` was shown at, if any worker recorded one."""
        key = f"{self.prefix}shown:{subject}"
        value = await self._call(lambda: self._client.get(key))
        return int(value) if value is not None else None
