"""The Telegram side of the nardy bot (aiogram 3): assembly (:mod:`bot.app`), handlers,
the board publisher, the outbox and the text catalogs."""
