"""SQLite-style placeholders turned into PostgreSQL's, so shared statements are written once."""

from __future__ import annotations

import functools
import itertools
import re

_PLACEHOLDER = re.compile(r"\?(\d*)")


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """SQLite-style placeholders (``?`` in order, or ``?N``) as PostgreSQL's ``$N``.

    The shared reads are written once with ``?``; no statement of ours has a ``?`` inside a
    string literal.
    """
    counter = itertools.count(1)

    def dollar(match: re.Match[str]) -> str:
        return f"${match.group(1) or next(counter)}"

    return _PLACEHOLDER.sub(dollar, sql)
