"""Pure rules engine for long and short nardy (RULES.md).

No I/O, no asyncio, no global randomness: the bot, renderer, storage and AI build on it.
"""
