"""/rules and questions (filled in with the rules explanations)."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import Message

router = Router(name="rules")


async def send_topic_for_rule(
    message: Message, lang: str, rule_id: str, snap: object = None
) -> None:
    from bot.knowledge import topics_for_rule

    topics = topics_for_rule(rule_id)
    if topics:
        await message.answer(topics[0].caption(lang))  # type: ignore[arg-type]
