"""/stats and /top."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from ai.review import label_for
from bot.handlers.util import parse_new_args
from bot.texts import h, t
from engine.variants import VARIANTS
from gameplay import Actor, GameService, Place
from gameplay.reviews import Reviews
from teacher.review_text import label_text, number_text


async def stats(
    message: Message, lang: str, actor: Actor, games: GameService, reviews: Reviews
) -> None:
    """The user's record per variant, against people and the computer, ratings, and the
    average error rate of their reviewed games per variant."""
    records = await games.records(actor.user_id)
    lines = [t(lang, "stats_title", name=h(actor.name))]
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
    for variant in VARIANTS:
        rating = await games.rating(actor.user_id, variant)
        if rating.games:
            lines.append(
                t(
                    lang,
                    "stats_rating",
                    variant=t(lang, f"variant_{variant}"),
                    rating=f"{rating.rating:.0f}",
                )
            )
    for rate in await reviews.error_rates(actor.user_id):
        if rate.decisions:
            lines.append(
                t(
                    lang,
                    "stats_error",
                    variant=t(lang, f"variant_{rate.variant}"),
                    rate=number_text(rate.error_rate, 1, lang),
                    label=label_text(str(label_for(rate.error_rate)), lang),
                    games=rate.games,
                )
            )
    await message.answer("\n".join(lines))


async def top(
    message: Message, command: CommandObject, lang: str, place: Place, games: GameService
) -> None:
    """The chat's leaderboard (in a private chat: the global one)."""
    defaults = await games.chats.defaults(place.chat_id)
    variant, _ = parse_new_args(command.args, defaults.variant, 1)
    entries = await games.leaderboard(variant, place)
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


def router() -> Router:
    r = Router(name="stats")
    r.message.register(stats, Command("stats"), flags={"answer": "private"})
    r.message.register(top, Command("top"))
    return r
