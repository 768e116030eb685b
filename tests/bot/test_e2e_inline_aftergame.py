"""After an inline-mode game, end to end: the finished board in the inline message offers
Replay, Record, Review and Verify (no Rematch: its offer would be a new message in a chat the
bot may not be in). Their answers go to the tapping person's private chat with the bot: a
player gets the dice report there and it verifies with ``engine.fairness``, then her replay
and her review; a stranger may verify the dice too, but not ask for a replay; a player who
never started the bot is asked, in an alert in his language, to start it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.callbacks import Act
from bot.texts import t
from engine.fairness import verify_report
from gameplay import Actor, Resign
from tests.bot.harness import TOKEN, game_buttons, running_bot, until
from tests.bot.test_e2e_inline import WORDS, accept, post_challenge, tap_card
from tests.fake_telegram import FakeTelegram, StoredMessage


@pytest_asyncio.fixture
async def fake_telegram() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token=TOKEN) as server:
        yield server


def documents(tg: FakeTelegram, chat_id: int) -> list[StoredMessage]:
    return [m for m in tg.messages.get(chat_id, {}).values() if m.media_kind == "document"]


async def test_a_finished_inline_game_offers_its_after_game_buttons_in_private(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    tg = fake_telegram
    alice = tg.user(501, "Alice", username="alice_k", language_code="en")
    dima = tg.user(504, "Дима", username="dima_p", language_code="ru")  # never started the bot
    carol = tg.user(503, "Carol", username="carol_x", language_code="en")
    for person in (alice, carol):
        tg.private_chat(person)
    friends = tg.users_chat(alice, dima, carol, title="Alice, Dima, Carol")
    async with running_bot(tg, tmp_path / "after.sqlite3") as run:
        card = await post_challenge(tg, alice, friends, "@dima_p short", "c.short.1.d")
        await accept(tg, card, dima, WORDS["en"]["accept"])
        assert card.inline_message_id is not None
        snap = await run.app.games.find_inline(card.inline_message_id)
        assert snap is not None
        # Dima resigns (the typed /resign works in a chat with the bot, which Dima never
        # opened, so the game layer is asked directly; the board is shown as after any move).
        outcome = await run.app.games.act(
            Actor(dima.id, "Дима", "dima_p"), Resign(), game_id=snap.game_id
        )
        assert outcome.snap is not None and outcome.snap.match.is_over
        await run.app.shows.update(outcome.snap, actor_user_id=dima.id)
        await until(tg, friends.id, lambda: "🏆" in (card.caption or ""))
        # The card speaks its sender's language (en).
        labels = [label for row in card.button_labels() for label in row]
        for key in ("btn_replay", "btn_record", "btn_review", "btn_verify"):
            assert t("en", key) in labels, labels
        assert t("en", "btn_rematch") not in labels
        verify_data = next(d for _, cb, d in game_buttons(card) if cb.a is Act.VERIFY)
        replay_data = next(d for _, cb, d in game_buttons(card) if cb.a is Act.REPLAY)
        review_data = next(d for _, cb, d in game_buttons(card) if cb.a is Act.REVIEW)

        # A player taps Verify: the verdict and the report come to her private chat.
        answer = await tap_card(tg, card, alice, data=verify_data)
        assert answer == t("en", "inline_to_private")
        await until(tg, alice.id, lambda: len(documents(tg, alice.id)) == 1)
        verdicts = [m for m in tg.messages[alice.id].values() if m.text and "✅" in m.text]
        assert verdicts and "The dice were fair" in str(verdicts[-1].text)
        doc = documents(tg, alice.id)[0]
        assert doc.file is not None and str(doc.file.file_name).endswith(".json")
        report = json.loads(doc.file.data)
        verdict = verify_report(report)
        assert verdict.ok and verdict.rolls_checked > 0, verdict.problems
        assert not documents(tg, friends.id)  # nothing was posted into the shared chat

        # A stranger may check the dice (anyone may), but the replay is the players' own.
        assert await tap_card(tg, card, carol, data=replay_data) == t("en", "not_a_player")
        assert await tap_card(tg, card, carol, data=verify_data) == t("en", "inline_to_private")
        await until(tg, carol.id, lambda: len(documents(tg, carol.id)) == 1)
        assert not [m for m in tg.messages[carol.id].values() if m.media_kind == "animation"]

        # The player who never started the bot is asked to, in his language; nothing is sent.
        me = await run.app.bot.me()
        expected = t("ru", "inline_start_bot", bot=me.username)
        for data in (verify_data, replay_data):
            assert await tap_card(tg, card, dima, data=data) == expected
            assert list(tg.callback_answers.values())[-1].show_alert
        assert dima.id not in tg.messages or not tg.messages[dima.id]

        # Alice's replay comes to her private chat as an animation.
        answer = await tap_card(tg, card, alice, data=replay_data)
        assert answer == f"{t('en', 'replay_wait')} {t('en', 'inline_to_private')}"
        await until(
            tg,
            alice.id,
            lambda: any(m.media_kind == "animation" for m in tg.messages[alice.id].values()),
        )

        # And her review: the summary in her private chat, in her language.
        answer = await tap_card(tg, card, alice, data=review_data)
        assert answer == f"{t('en', 'review_wait')} {t('en', 'inline_to_private')}"
        await until(
            tg,
            alice.id,
            lambda: any("Game review" in (m.text or "") for m in tg.messages[alice.id].values()),
        )
        assert not [m for m in tg.messages[friends.id].values() if m.from_bot]
