"""The Telegram side of the nardy bot (aiogram 3).

aiogram is imported here first, with its type schemas deferred (see :mod:`bot.lazy_schemas`):
every way into the bot — ``python -m bot``, the tests, the benchmarks — passes through this file.
"""

from bot.lazy_schemas import defer_type_schemas

defer_type_schemas()
