"""Logging set-up: plain lines for a person at a terminal, or one JSON object per line for a
log collector (``LOG_FORMAT=json``: several workers' logs in one place, searchable by field).

A JSON line has ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``,
``message``, ``worker`` (``WORKER_NAME``, else host:pid, so the lines of one worker can be told
apart) and, for an exception, ``exc`` with the traceback; extra fields given with
``log.info(..., extra={...})`` are kept. Nothing secret is ever passed to a log call: the
token and the database and Redis passwords stay in the settings' secret values.
"""

from __future__ import annotations

import json
import logging
import os
import socket
from datetime import UTC, datetime
from typing import Any

#: Attributes every LogRecord has; anything else on a record came from ``extra``.
_STANDARD = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


def worker_name() -> str:
    return os.environ.get("WORKER_NAME") or f"{socket.gethostname()}:{os.getpid()}"


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def __init__(self, worker: str | None = None) -> None:
        super().__init__()
        self.worker = worker or worker_name()

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "worker": self.worker,
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                plain = isinstance(value, (int, float, bool, type(None)))
                entry[key] = value if plain else str(value)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure(level: str, fmt: str = "text") -> None:
    """Send the root logger's records to stderr in ``fmt`` ("text" or "json")."""
    handler = logging.StreamHandler()
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
