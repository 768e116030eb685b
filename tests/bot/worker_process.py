"""``python -m tests.bot.worker_process``: one bot worker exactly as ``python -m bot`` runs it
(settings from the environment, webhook server, health endpoint, signals), except that its send
budgets are generous, so that end-to-end tests with real worker processes play whole games in
seconds instead of at Telegram's pace. The budgets are still shared through Redis when
``REDIS_URL`` is set: the code path is production's."""

from __future__ import annotations

import sys

from bot.__main__ import event_loop_runner
from bot.config import load_settings
from bot.logs import configure
from bot.outbox import Outbox


def main() -> int:
    settings = load_settings()
    configure(settings.log_level, settings.log_format)
    from bot.app import run

    fast = Outbox(
        private=(1000, 1000),
        group_send=(1000, 1.0),
        group_edit=(1000, 1000),
        ephemeral=(1000, 1000),
    )
    event_loop_runner()(run(settings, outbox=fast))
    return 0


if __name__ == "__main__":
    sys.exit(main())
