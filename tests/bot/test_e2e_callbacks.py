"""Every tap is answered exactly once, in the tapping user's language: buttons nothing
understands (old, unknown, forged data) and taps whose handler failed, before or after it
answered. Real bot, real SQLite, fake Telegram over HTTP (which, like Telegram, refuses a
second answer to one query)."""

from __future__ import annotations

from pathlib import Path

from aiogram import F, Router
from aiogram.types import CallbackQuery

from bot.callbacks import Act, GameCB
from bot.texts import t
from tests.bot.harness import TOKEN, running_bot, type_and_wait
from tests.fake_telegram import FakeTelegram


def answers_to(tg: FakeTelegram, query_id: str) -> list[dict[str, object]]:
    """Every answerCallbackQuery the bot attempted for ``query_id`` (accepted or refused)."""
    return [
        c.params
        for c in tg.calls("answerCallbackQuery")
        if str(c.params.get("callback_query_id")) == query_id
    ]


async def tap_and_settle(tg: FakeTelegram, chat: object, message_id: int, user: object, data: str):
    query_id = await tg.tap(chat, message_id, user, data, check_button=False)  # type: ignore[arg-type]
    await tg.wait_for(
        lambda c: (
            c.method == "answerCallbackQuery" and str(c.params.get("callback_query_id")) == query_id
        ),
        timeout=30,
    )
    await tg.wait_idle(quiet=0.2, timeout=30)
    return query_id


async def test_unknown_and_forged_buttons_are_answered_once_in_the_users_language(
    tmp_path: Path,
) -> None:
    async with FakeTelegram(token=TOKEN) as tg, running_bot(tg, tmp_path / "b.sqlite3"):
        anna = tg.user(501, "Анна")
        grace = tg.user(502, "Grace", language_code="en")
        for user in (anna, grace):
            chat = tg.private_chat(user)
            await type_and_wait(tg, chat, user, "/start")
        forged_action = GameCB(game=1, v=0, a=Act.ROLL).pack().replace(":r:", ":?:")
        assert forged_action != GameCB(game=1, v=0, a=Act.ROLL).pack()
        for user, lang in ((anna, "ru"), (grace, "en")):
            chat = tg.private_chat(user)
            reply = max(m for m, s in tg.messages[chat.id].items() if s.from_bot)
            # Not ours at all; our prefix with a forged body; a forged action in a real shape.
            for data in ("zzz", "g:not:a:game", forged_action):
                query_id = await tap_and_settle(tg, chat, reply, user, data)
                answers = answers_to(tg, query_id)
                assert len(answers) == 1, (data, answers)
                assert tg.callback_answers[query_id].text == t(lang, "button_invalid"), data


def probe_router() -> Router:
    """Handlers that fail on purpose, before and after answering their tap."""
    router = Router(name="probe")

    @router.callback_query(F.data == "probe:answer-then-fail")
    async def answer_then_fail(query: CallbackQuery) -> None:
        await query.answer("ok")
        raise RuntimeError("a failure after the tap was answered")

    @router.callback_query(F.data == "probe:fail")
    async def fail(query: CallbackQuery) -> None:
        raise RuntimeError("a failure before the tap was answered")

    return router


async def test_a_failing_handler_gets_its_tap_answered_once_in_the_users_language(
    tmp_path: Path,
) -> None:
    async with FakeTelegram(token=TOKEN) as tg, running_bot(tg, tmp_path / "b.sqlite3") as run:
        dispatcher = run.app.dispatcher
        probe = dispatcher.include_router(probe_router())
        dispatcher.sub_routers.remove(probe)
        dispatcher.sub_routers.insert(0, probe)  # ahead of the bot's own routers
        grace = tg.user(502, "Grace", language_code="en")
        chat = tg.private_chat(grace)
        await type_and_wait(tg, chat, grace, "/start")
        reply = max(m for m, s in tg.messages[chat.id].items() if s.from_bot)

        query_id = await tap_and_settle(tg, chat, reply, grace, "probe:answer-then-fail")
        assert [a.get("text") for a in answers_to(tg, query_id)] == ["ok"]  # not a second time

        query_id = await tap_and_settle(tg, chat, reply, grace, "probe:fail")
        answers = answers_to(tg, query_id)
        assert len(answers) == 1
        assert tg.callback_answers[query_id].text == t("en", "internal_error")
        assert tg.callback_answers[query_id].show_alert
