"""Shared pytest fixtures.  Each block below belongs to one part of the test suite; keep blocks
self-contained (own imports inside the block) so they can be edited independently."""

from __future__ import annotations

# ============================================================================================
# BEGIN fake Telegram fixtures (owner: tests/fake_telegram.py, docs/testing.md)
# ============================================================================================
from collections.abc import AsyncIterator

import pytest_asyncio
from aiogram import Bot

from tests.fake_telegram import FakeTelegram


@pytest_asyncio.fixture
async def fake_telegram() -> AsyncIterator[FakeTelegram]:
    """A running fake Bot API server on 127.0.0.1, fresh for each test."""
    async with FakeTelegram() as server:
        yield server


@pytest_asyncio.fixture
async def fake_bot(fake_telegram: FakeTelegram) -> AsyncIterator[Bot]:
    """A real aiogram ``Bot`` talking HTTP to ``fake_telegram``; its session is closed after."""
    bot = fake_telegram.make_bot()
    try:
        yield bot
    finally:
        await bot.session.close()


# ============================================================================================
# END fake Telegram fixtures
# ============================================================================================
