"""Dice anyone can verify, in the chat: the players' contributions taken from their updates,
the commitment shown before the first die, and the Verify button after the match
(docs/fairness.md has the protocol; gameplay/fair_dice.py the steps)."""

from __future__ import annotations

import json

from aiogram import Bot, F, Router
from aiogram.types import BufferedInputFile, CallbackQuery, InlineQuery, Message

from bot import refusals
from bot.callbacks import Act, GameCB
from bot.handlers.util import reply_chat
from bot.showing import Shows
from bot.texts import t
from engine.fairness import Verification, short_commitment, telegram_client_seed, verify_report
from gameplay import GameService, Refused
from gameplay.service import NoDiceReport


def client_seed_of(
    event: Message | CallbackQuery | InlineQuery, update_id: int | None
) -> str | None:
    """The acting player's contribution to the dice: the numbers Telegram gave the update
    that offered or joined the game (the bot cannot choose them). None without an update
    (nothing to take them from)."""
    if update_id is None or event.from_user is None:
        return None
    if isinstance(event, InlineQuery):  # an inline challenge: the query's own id
        return telegram_client_seed(
            user_id=event.from_user.id, update_id=update_id, date=0, callback_id=event.id
        )
    if isinstance(event, CallbackQuery):
        board = event.message if isinstance(event.message, Message) else None
        return telegram_client_seed(
            user_id=event.from_user.id,
            update_id=update_id,
            date=int(board.date.timestamp()) if board is not None else 0,
            message_id=board.message_id if board is not None else None,
            callback_id=event.id,
        )
    return telegram_client_seed(
        user_id=event.from_user.id,
        update_id=update_id,
        date=int(event.date.timestamp()),
        message_id=event.message_id,
    )


def verdict_text(lang: str, verdict: Verification, filename: str) -> str:
    """The verdict in plain words, in the reader's language."""
    if verdict.ok:
        return t(
            lang,
            "verify_ok",
            short=short_commitment(verdict.commitment),
            dice=verdict.rolls_checked,
            played=verdict.played_checked or 0,
            name=filename,
        )
    lines = []
    for problem in verdict.problems:
        line = "• " + t(lang, f"verify_problem_{problem.kind}", counter=problem.counter)
        if line not in lines:
            lines.append(line)
    return t(lang, "verify_failed", problems="\n".join(lines))


async def verify(
    query: CallbackQuery,
    callback_data: GameCB,
    lang: str,
    games: GameService,
    shows: Shows,
    bot: Bot,
) -> None:
    """Verify / Проверить кубики: the verdict in words, and the report as a JSON file that
    ``python -m engine.fairness verify`` accepts.

    Anyone who sees the finished board may ask, in an inline-mode message too (the answer then
    goes to their private chat with the bot): the secret is revealed once the match is over,
    and dice are only worth trusting if someone other than the players can check them."""
    try:
        report = await games.dice_report(callback_data.game)
    except Refused as refused:
        await refusals.answer_tap(query, lang, refused)
        return
    except NoDiceReport as why:
        await query.answer(t(lang, f"verify_{why.reason}"), show_alert=True)
        return
    to = await reply_chat(query, lang, bot, shows.outbox, action="upload_document")
    if to is None:
        return
    await query.answer(t(lang, "inline_to_private") if to.private else None)
    filename = f"nardy-dice-{callback_data.game}.json"
    data = json.dumps(report, ensure_ascii=False, indent=1).encode("utf-8")
    thread = to.thread_id
    chat_id = to.chat_id
    verdict = verdict_text(lang, verify_report(report), filename)
    await shows.outbox.run(
        chat_id, lambda: bot.send_message(chat_id, verdict, message_thread_id=thread)
    )
    await shows.outbox.run(
        chat_id,
        lambda: bot.send_document(
            chat_id,
            BufferedInputFile(data, filename=filename),
            caption=t(lang, "verify_report_caption", name=filename),
            message_thread_id=thread,
        ),
    )


def router() -> Router:
    r = Router(name="dice")
    r.callback_query.register(verify, GameCB.filter(F.a == Act.VERIFY), flags={"claim": "none"})
    return r
