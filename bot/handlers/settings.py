"""/settings: house rules per chat (filled in with the rules explanations)."""

from __future__ import annotations

from aiogram import Router

router = Router(name="settings")
