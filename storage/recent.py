"""A small bounded mapping for in-memory caches of stored things (game layer and bot)."""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(OrderedDict[K, V]):
    """A dict that keeps only its ``limit`` most recently used entries.

    Names, languages, chats and board messages are remembered so that a tap reads nothing from the
    database; every one of those can be read again, so forgetting the least recently used is
    always safe, and it keeps a bot that runs for months with many chats at a steady size.

    ``max_age`` (seconds) bounds how long an entry is believed: when several bot processes
    share one database, another process may change what an entry says, so such a cache
    re-reads after ``max_age`` (0: every time, i.e. no caching at all).
    """

    def __init__(self, limit: int, max_age: float | None = None) -> None:
        super().__init__()
        self.limit = limit
        self.max_age = max_age
        self._born: dict[K, float] = {}

    def get(self, key: K, default: V | None = None) -> V | None:  # type: ignore[override]
        if key not in self:
            return default
        if self.max_age is not None and time.monotonic() - self._born[key] >= self.max_age:
            del self[key]
            self._born.pop(key, None)
            return default
        self.move_to_end(key)
        return self[key]

    def __setitem__(self, key: K, value: V) -> None:
        if self.max_age == 0:
            return  # nothing is believed: do not keep it
        super().__setitem__(key, value)
        self.move_to_end(key)
        if self.max_age is not None:
            self._born[key] = time.monotonic()
        while len(self) > self.limit:
            old, _ = self.popitem(last=False)
            self._born.pop(old, None)
