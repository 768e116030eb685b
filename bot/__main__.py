"""``python -m bot``: run the bot (settings from the environment or .env)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys

from bot.config import SettingsError, load_settings


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as exc:
        sys.stderr.write(f"nardy bot: configuration error: {exc}\n")
        return 2
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from bot.app import run

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
