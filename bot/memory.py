"""How the bot's (and its load generator's) process treats the garbage collector.

Kept apart from :mod:`bot.app` so a process that does not run the bot (the load benchmark's
fake server and players, which share the machine with it) can settle its memory the same way
without importing the bot.
"""

from __future__ import annotations

import gc

#: The garbage collector's thresholds under load (Python's default is 700, 10, 10). Measured
#: in the bot under 200 picker groups (docs/bot.md): with the default, collections took about
#: a tenth of the event loop's CPU, most of it in the second and full ones (1,166 / 106 / 9
#: in 40 s; a full one 17–66 ms with the loop stopped). A tap's objects in flight (its update,
#: requests, replies) outlive 700 allocations and are walked again in the second generation;
#: with a young generation of 3,000 most are gone before that, and a full collection waits
#: for 100 second ones.
GC_THRESHOLDS = (3000, 20, 100)


def settle_memory() -> None:
    """Put everything alive at start-up out of the garbage collector's reach, and collect
    the rest less often (:data:`GC_THRESHOLDS`).

    The imports, aiogram's and pydantic's machinery, fonts and caches are ~180,000 objects
    that live as long as the process. Every full collection walked all of them: measured
    under load, 100–200 ms with the event loop stopped — the slowest taps' answers. Frozen,
    they are never walked again; a full collection then looks only at what came later.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
