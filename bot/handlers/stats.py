"""/stats and /top."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

import storage
from bot.handlers.util import parse_new_args
from bot.house_rules import chat_defaults
from bot.middlewares import display_name
from bot.texts import h, t

router = Router(name="stats")


@router.message(Command("stats"))
async def stats(message: Message, lang: str, store: storage.Storage) -> None:
    """The user's record per variant, against people and the computer, and ratings."""
    assert message.from_user is not None
    uid = message.from_user.id
    records = [r for r in await store.list_user_stats(uid) if r.games]
    lines = [t(lang, "stats_title", name=h(display_name(message.from_user)))]
    if not records:
        lines.append(t(lang, "stats_none"))
    for rec in sorted(records, key=lambda r: (str(r.variant), r.vs_ai)):
        lines.append(
            t(
                lang,
                "stats_line",
                variant=t(lang, f"title_{rec.variant}"),
                ai=t(lang, "stats_vs_ai") if rec.vs_ai else "",
                games=rec.games,
                wins=rec.wins,
                oin=rec.wins_oin,
                mars=rec.wins_mars,
                koks=rec.wins_koks,
                won=rec.points_won,
                lost=rec.points_lost,
            )
        )
    for variant in ("long", "short"):
        rating = await store.get_rating(uid, variant)
        if rating.games:
            lines.append(
                t(
                    lang,
                    "stats_rating",
                    variant=t(lang, f"variant_{variant}"),
                    rating=f"{rating.rating:.0f}",
                )
            )
    await message.answer("\n".join(lines))


@router.message(Command("top"))
async def top(message: Message, command: CommandObject, lang: str, store: storage.Storage) -> None:
    """The chat's leaderboard (in a private chat: the global one)."""
    defaults = await chat_defaults(store, message.chat.id)
    variant, _ = parse_new_args(command.args, defaults.variant, 1)
    chat_id = message.chat.id if message.chat.type != "private" else None
    entries = await store.leaderboard(variant, chat_id=chat_id, limit=10)
    name = t(lang, f"variant_{variant}")
    if not entries:
        await message.answer(t(lang, "top_empty", variant=name))
        return
    lines = [t(lang, "top_title", variant=name)]
    for e in entries:
        lines.append(
            t(
                lang,
                "top_line",
                rank=e.rank,
                name=h(e.display_name),
                rating=f"{e.rating:.0f}",
                games=e.games,
            )
        )
    await message.answer("\n".join(lines))
