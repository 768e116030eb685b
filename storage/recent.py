"""A small bounded mapping for in-memory caches of stored things (game layer and bot)."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(OrderedDict[K, V]):
    """A dict that keeps only its ``limit`` most recently used entries.

    Names, languages, chats and board messages are remembered so that a tap reads nothing from the
    database; every one of those can be read again, so forgetting the least recently used is
    always safe, and it keeps a bot that runs for months with many chats at a steady size.
    """

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def get(self, key: K, default: V | None = None) -> V | None:  # type: ignore[override]
        if key not in self:
            return default
        self.move_to_end(key)
        return self[key]

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)
