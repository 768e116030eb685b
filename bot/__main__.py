"""``python -m bot``: run the bot (settings from the environment or .env)."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from bot.config import SettingsError, load_settings
from bot.logs import configure


def event_loop_runner() -> Callable[[Coroutine[Any, Any, None]], None]:
    """uvloop where it is installed (Linux, macOS): measured under load, the bot spends a
    large share of its time in the event loop and socket I/O, which uvloop does in C."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run
    return uvloop.run


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as exc:
        sys.stderr.write(f"nardy bot: configuration error: {exc}\n")
        return 2
    configure(settings.log_level, settings.log_format)
    from bot.app import run

    with contextlib.suppress(KeyboardInterrupt):
        event_loop_runner()(run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
