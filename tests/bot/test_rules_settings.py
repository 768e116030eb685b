"""/rules, questions, "why?" and /settings end to end: the real bot (aiogram, SQLite, renderer)
polling the fake Bot API server, the test acting as the players.

What a player must get: a menu navigated in place, topics as pictures of their example
position with the text (and its rule IDs) as caption, answers to questions typed in their
own words, the reason for a rejected move or a burnt die one tap away, and house rules that
admins switch and the engine then enforces in the next game.
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.callbacks import Act, RulesCB
from bot.handlers.rules import diagram_picture, topic_caption, topic_label, visible_length
from bot.house_rules import (
    F_CLOCK,
    FIELDS,
    ChatDefaults,
    SettingError,
    apply_setting,
    describe,
    next_value,
)
from bot.texts import t
from engine import Options, Phase, format_steps
from gameplay.clocks import DEFAULT_GROUP
from teacher import all_topics, get_topic, match, suggest
from tests.bot.harness import (
    TOKEN,
    active_match,
    current_board,
    game_buttons,
    running_bot,
    tap_and_wait,
    tap_message_and_wait,
    type_and_wait,
)
from tests.fake_telegram import FakeChat, FakeTelegram, FakeUser, StoredMessage
from tests.teacher.test_knowledge import cited_ids

TRANSCRIPTS = Path(os.environ.get("NARDY_TRANSCRIPTS", tempfile.gettempdir()))

# running_bot(seed=6), with the fixed contributions of fixed_client_seed: the lot and the first
# rolls of the first game the bot creates (its fair dice, docs/fairness.md) give the
# joiner (Bob) 6-6 on his very first turn of a long game. Two checkers leave the head
# (24/18(2), the first-move exception) and the other two sixes are forfeited: a single legal
# play, played automatically. Found by find_forfeit_seed() below, which replays what accepting
# a lobby does; if the game service starts using its RNG differently, run it again:
#   python -c "from tests.bot.test_rules_settings import find_forfeit_seed as f; print(f())"
FORFEIT_SEED = 6


def fixed_client_seed(event: Any, update_id: int | None) -> str:
    """A player's contribution that does not depend on the clock or the update numbers, so
    the game's dice follow from the bot's seeded rng alone (the server seed is its first
    32 random bytes)."""
    return f"test:user={event.from_user.id}"


def find_forfeit_seed(limit: int = 200) -> int | None:
    """The first seed whose first long game has the joiner's (seat 1's) first play forfeit
    dice and be the last play before a human must act, so the board offers "Why?"."""
    import random

    from bot.presenter import burned_dice
    from engine.fairness import FairDice
    from gameplay import GameService

    for seed in range(1, limit):
        games = GameService(None, rng=random.Random(seed))  # type: ignore[arg-type]
        match = games.new_match("long", 1, Options())
        secret = random.Random(seed).randbytes(32)
        dice = FairDice(secret, ["test:user=711", "test:user=712"])
        games.advance(match, {0: 1, 1: 2}, None, dice)
        game = match.current
        plays = [e for e in game.history if e.kind in ("move", "pass") and e.side is not None]
        joiner = [e for e in plays if e.side is not None and game.seat_of(e.side) == 1]
        if joiner and joiner[0] is plays[-1] and burned_dice(joiner[0]):
            return seed
    return None


# The fake server reads uploads with aiohttp's multipart reader, which calls the deprecated
# StreamReader.unread_data() when a chunk of the photo happens to end inside the boundary; with
# warnings as errors that turns a good upload into a 500. Data-dependent (board photos have
# been lucky so far); to be fixed in tests/fake_telegram.py, not here.
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


def bot_messages(tg: FakeTelegram, chat: FakeChat) -> list[object]:
    """The bot's messages in a chat that are still there: public ones by id, and the private
    answers (ephemeral, in a group: /rules answers the asker only) by receiver and id."""
    public = [m.message_id for m in tg.messages[chat.id].values() if m.from_bot and not m.deleted]
    private = [
        (receiver, number)
        for (receiver, number), m in tg.ephemerals.get(chat.id, {}).items()
        if m.live
    ]
    return [*public, *private]


def shown(tg: FakeTelegram, chat: FakeChat, message: StoredMessage) -> StoredMessage:
    """What ``message`` shows now, after the edits that navigating made to it."""
    if message.is_ephemeral:
        key = (message.receiver_id, message.ephemeral_message_id)
        current = tg.ephemerals[chat.id][key]  # type: ignore[index]
        assert current.live
        return current
    current = tg.messages[chat.id][message.message_id]
    assert not current.deleted
    return current


def labels(message: StoredMessage) -> list[str]:
    return [label for row in message.button_labels() for label in row]


def rules_data(message: StoredMessage) -> list[RulesCB]:
    return [
        RulesCB.unpack(button["callback_data"])
        for row in message.buttons()
        for button in row
        if button.get("callback_data", "").startswith("k:")
    ]


def decoded_photo(message: StoredMessage) -> Image.Image:
    assert message.photo is not None, f"not a photo: {message.text!r}"
    image = Image.open(io.BytesIO(message.photo))
    image.load()
    assert max(image.size) <= 1280
    return image


async def tap_label(
    tg: FakeTelegram, chat: FakeChat, user: FakeUser, message: StoredMessage, label: str
) -> str:
    button = message.button_by_label(label)
    assert button is not None, f"no button {label!r} in {message.button_labels()}"
    return await tap_message_and_wait(tg, chat, message, user, button["callback_data"])


async def tap_data(
    tg: FakeTelegram, chat: FakeChat, user: FakeUser, message: StoredMessage, data: str
) -> str:
    """A tap (not waited for) on ``message``, public or the user's private answer."""
    if message.is_ephemeral:
        return await tg.tap_ephemeral(
            chat, user, data, ephemeral_message_id=message.ephemeral_message_id
        )
    return await tg.tap(chat, message.message_id, user, data)


def assert_topic(message: StoredMessage, topic_id: str, lang: str, *, photo: bool) -> None:
    """The message shows the topic: its title, every rule ID it explains, the menu button."""
    topic = get_topic(topic_id)
    text = (message.caption if photo else message.text) or ""
    assert topic.title.get(lang) in text, text  # type: ignore[arg-type]
    assert set(topic.rule_ids) <= cited_ids(text)
    if photo:
        decoded_photo(message)
    else:
        assert message.photo is None
    assert ("☰ Меню" if lang == "ru" else "☰ Menu") in labels(message)
    for data in rules_data(message):
        assert len(data.pack().encode()) <= 64


async def test_rules_menu_questions_and_topics_in_russian(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(701, "Алиса", language_code="ru")
        group = tg.group(-7001, "Нарды клуб", admins=[alice])
        private = tg.private_chat(alice)
        async with running_bot(tg, tmp_path / "bot.sqlite3"):
            await tg.wait_idle()
            # menu -> variant -> topic -> related -> menu -> ..., all in ONE message
            await type_and_wait(tg, group, alice, "/rules")
            menu = tg.last_bot_message_seen_by(group, alice)  # in a group: Alice's only
            assert menu.is_ephemeral
            assert "Правила нард" in (menu.caption or "")
            assert "стандартным правилам" in (menu.caption or "")
            decoded_photo(menu)  # the starting position
            assert labels(menu) == ["🎲 Длинные", "🎯 Короткие", "📚 Общее"]
            sent = bot_messages(tg, group)
            await tap_label(tg, group, alice, menu, "🎲 Длинные")
            listing = shown(tg, group, menu)
            assert "Длинные нарды" in (listing.caption or "")
            assert {"Правило головы", "Блок из шести", "Расстановка", "⬅️ Назад"} <= set(
                labels(listing)
            )
            assert "Бой и блоты" not in labels(listing)  # short nardy only

            await tap_label(tg, group, alice, listing, "Правило головы")
            head = shown(tg, group, menu)
            assert_topic(head, "head_rule", "ru", photo=True)
            assert "<b>" not in (head.caption or "")  # HTML parsed, not shown
            head_picture = head.photo or b""
            (tmp_path / "head_rule.jpg").write_bytes(head_picture)

            # a related topic, tapped twice before the first tap's edit arrived (a double tap,
            # a slow phone): the message shows it, and still nothing new is posted
            button = head.button_by_label("Первый ход: 2 с головы")
            assert button is not None
            await tap_data(tg, group, alice, menu, button["callback_data"])
            await tap_data(tg, group, alice, menu, button["callback_data"])
            await tg.wait_idle(quiet=0.3)
            related = shown(tg, group, menu)
            assert_topic(related, "first_move_exception", "ru", photo=True)
            assert related.photo != head_picture  # its own example position
            assert bot_messages(tg, group) == sent

            await tap_label(tg, group, alice, related, "☰ Меню")
            assert labels(shown(tg, group, menu)) == ["🎲 Длинные", "🎯 Короткие", "📚 Общее"]
            await tap_label(tg, group, alice, menu, "🎲 Длинные")
            await tap_label(tg, group, alice, listing, "⬅️ Назад")
            assert "Правила нард" in (shown(tg, group, menu).caption or "")

            await tap_label(tg, group, alice, menu, "📚 Общее")
            general = shown(tg, group, menu)
            assert "Правило головы" not in labels(general)
            await tap_label(tg, group, alice, general, "Кто ходит первым")
            # a topic without an example position is drawn over the starting position
            assert_topic(shown(tg, group, menu), "first_player", "ru", photo=True)
            assert bot_messages(tg, group) == sent  # nothing new was posted, nothing piled up

            # a question after the command, in a group
            await type_and_wait(tg, group, alice, "/rules что такое марс")
            assert_topic(tg.last_bot_message_seen_by(group, alice), "game_end", "ru", photo=True)

            # plain text in a group is people talking: not answered
            mark = tg.mark()
            await tg.send_text(group, alice, "можно ли снять две шашки с головы")
            await tg.wait_idle(quiet=0.3)
            assert not [c for c in tg.calls(chat_id=group) if c.seq > mark]

            # ... but in a private chat it is a question
            await type_and_wait(tg, private, alice, "можно ли снять две шашки с головы")
            answer = tg.last_bot_message(private)
            # the head rule and the first-move exception are nearly as likely (which comes
            # first moved with v10 in training): the answer is one, the other is named in the
            # lead and is a 🔎 button
            first, second = (r.topic for r in match("можно ли снять две шашки с головы")[:2])
            assert {first.id, second.id} == {"head_rule", "first_move_exception"}
            assert_topic(answer, first.id, "ru", photo=True)
            assert second.title.ru in (answer.caption or "")
            assert "🔎 " + topic_label("ru", second) in labels(answer)  # the runner-up

            await type_and_wait(tg, private, alice, "абырвалг кукарямба")
            unknown = tg.last_bot_message(private)
            assert "не знаю" in (unknown.text or "")
            assert labels(unknown) == ["🎲 Длинные", "🎯 Короткие", "📚 Общее"]
            # "I don't know" is text, which cannot become a photo: the section comes as a new
            # message and the text loses its buttons (a second tap cannot post it again)
            await tap_label(tg, private, alice, unknown, "🎯 Короткие")
            section = tg.last_bot_message(private)
            assert section.message_id != unknown.message_id
            assert "Бой и блоты" in labels(section)
            assert labels(shown(tg, private, unknown)) == []

            # a vague question one topic is close to: "did you mean", not "don't know" (round 16
            # answers «пучбара это нарды?», round 17 «ахтерман это что», the examples until then:
            # the model is sure enough of the variants topic; round 20 declines «можно ли
            # договориться» outright, v20 having brought «договор» to first_player too)
            vague = "а шесть-один есть в боте"
            maybe = suggest(vague, lang_hint="ru")
            assert maybe and match(vague, lang_hint="ru") == []
            await type_and_wait(tg, private, alice, vague)
            guess = tg.last_bot_message(private)
            assert "Может быть" in (guess.text or "") and "не знаю" not in (guess.text or "")
            assert maybe[0].topic.title.ru in (guess.text or "")
            assert labels(guess)[: len(maybe)] == [
                "🔎 " + topic_label("ru", r.topic) for r in maybe
            ]
            assert labels(guess)[len(maybe) :] == ["🎲 Длинные", "🎯 Короткие", "📚 Общее"]
            await tap_label(tg, private, alice, guess, "🔎 " + topic_label("ru", maybe[0].topic))
            assert_topic(tg.last_bot_message(private), maybe[0].topic.id, "ru", photo=True)

            await type_and_wait(tg, private, alice, "/rules")
            assert "написать вопрос" in (tg.last_bot_message(private).caption or "")
        TRANSCRIPTS.mkdir(exist_ok=True)
        tg.save_transcript(TRANSCRIPTS / "rules_group_ru.txt", group)
        tg.save_transcript(TRANSCRIPTS / "rules_private_ru.txt", private)


async def test_rules_in_english(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        bob = tg.user(702, "Bob", language_code="en")
        chat = tg.private_chat(bob)
        async with running_bot(tg, tmp_path / "bot.sqlite3"):
            await tg.wait_idle()
            await type_and_wait(tg, chat, bob, "/rules")
            menu = tg.last_bot_message(chat)
            assert "Nardy rules" in (menu.caption or "")
            assert "standard rules" in (menu.caption or "")
            sent = bot_messages(tg, chat)
            await tap_label(tg, chat, bob, menu, "🎯 Short")
            listing = shown(tg, chat, menu)
            assert "Short nardy" in (listing.caption or "")
            await tap_label(tg, chat, bob, listing, "Hitting & blots")
            hitting = shown(tg, chat, menu)
            assert_topic(hitting, "hitting", "en", photo=True)
            (tmp_path / "hitting.jpg").write_bytes(hitting.photo or b"")
            await tap_label(tg, chat, bob, hitting, "Bar & entering")
            assert_topic(shown(tg, chat, menu), "bar_entry", "en", photo=True)
            await tap_label(tg, chat, bob, shown(tg, chat, menu), "☰ Menu")
            assert labels(shown(tg, chat, menu)) == ["🎲 Long", "🎯 Short", "📚 General"]
            assert bot_messages(tg, chat) == sent
            await tap_label(tg, chat, bob, menu, "🎯 Short")
            await tap_label(tg, chat, bob, listing, "⬅️ Back")
            assert "Nardy rules" in (shown(tg, chat, menu).caption or "")

            await type_and_wait(tg, chat, bob, "/rules what is mars")
            assert_topic(tg.last_bot_message(chat), "game_end", "en", photo=True)
            await type_and_wait(tg, chat, bob, "on my first move can I take two from the head")
            assert_topic(tg.last_bot_message(chat), "first_move_exception", "en", photo=True)
            await type_and_wait(tg, chat, bob, "purple elephants sing")
            unknown = tg.last_bot_message(chat)
            assert "I don't know" in (unknown.text or "")
            assert labels(unknown) == ["🎲 Long", "🎯 Short", "📚 General"]
            # Round 13's training data made "nardy crest, what is it?" a plain "don't know";
            # a strategy word alone still gets "did you mean" (round 16 answers "what does it
            # mean to make your 5 point early", round 17 "what does the star in 13/10* mean" —
            # the hit, rightly — the examples until then).
            vague = "springboard"
            maybe = suggest(vague, lang_hint="en")
            assert maybe and match(vague, lang_hint="en") == []
            await type_and_wait(tg, chat, bob, vague)
            guess = tg.last_bot_message(chat)
            assert "did you mean" in (guess.text or "")
            assert maybe[0].topic.title.en in (guess.text or "")
            assert labels(guess)[0] == "🔎 " + topic_label("en", maybe[0].topic)
            await type_and_wait(tg, chat, bob, "how do I start a game with this bot?")
            usage = tg.last_bot_message(chat)
            assert "/new" in (usage.text or "") and "/help" in (usage.text or "")
            assert "I don't know" not in (usage.text or "")
            assert labels(usage) == ["🎲 Long", "🎯 Short", "📚 General"]
        TRANSCRIPTS.mkdir(exist_ok=True)
        tg.save_transcript(TRANSCRIPTS / "rules_private_en.txt", chat)


async def test_forfeit_and_rejected_move_explained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.handlers.lobby.client_seed_of", fixed_client_seed)
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(711, "Алиса", language_code="ru")
        bob = tg.user(712, "Боб", language_code="ru")
        group = tg.group(-7101, "Клуб", admins=[alice])
        async with running_bot(tg, tmp_path / "bot.sqlite3", seed=FORFEIT_SEED) as run:
            await tg.wait_idle()
            await type_and_wait(tg, group, alice, "/new long")
            mark = tg.mark()
            await tg.tap_button(group, bob, "✋ Присоединиться")
            await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)

            # Bob's forced 6-6 burnt two sixes: the caption says so with the rule, in Bob's
            # numbers and then the picture's (drawn from Alice's side: she moves next) ...
            board = current_board(tg, group)
            assert "Боб: 6-6 · 24/18(2) [12/6(2)] — сгорело 6×2 (C-21)" in (board.caption or "")
            why = next(data for _, cb, data in game_buttons(board) if cb.a is Act.WHY)
            # ... and "Why?" answers with the topic, drawn on the game's own position
            await tap_and_wait(tg, group, board.message_id, alice, why)
            answer = tg.last_bot_message(group)
            assert answer.message_id != board.message_id
            assert_topic(answer, "forced_move", "ru", photo=True)
            assert (answer.caption or "").startswith("❓ Боб: 6-6 · 24/18(2) — сгорело 6×2")
            (tmp_path / "why_forfeit.jpg").write_bytes(answer.photo or b"")

            # "Why?" again: the same explanation, edited in place — no copy (#18 item 12)
            sent = bot_messages(tg, group)
            await tap_and_wait(tg, group, board.message_id, alice, why, visible=False)
            assert bot_messages(tg, group) == sent
            assert_topic(shown(tg, group, answer), "forced_move", "ru", photo=True)
            # browsing from it is in place as well, and "Why?" brings the explanation back
            await tap_label(tg, group, alice, shown(tg, group, answer), "☰ Меню")
            assert labels(shown(tg, group, answer)) == ["🎲 Длинные", "🎯 Короткие", "📚 Общее"]
            await tap_and_wait(tg, group, board.message_id, bob, why)
            assert (shown(tg, group, answer).caption or "").startswith("❓ Боб: 6-6")
            assert bot_messages(tg, group) == sent

            # Alice plays any legal play; then Bob, not on his first turn, takes two off the head
            snap = await active_match(run.app, group.id, alice.id)
            assert snap is not None and snap.game.phase is Phase.MOVE
            assert snap.user_ids[snap.game.seat_to_act] == alice.id
            play = format_steps(snap.game.turn.legal_plays[0].steps)
            await type_and_wait(tg, group, alice, f"/move {play}")
            snap = await active_match(run.app, group.id, alice.id)
            assert snap is not None and snap.game.dice is not None
            assert snap.user_ids[snap.game.seat_to_act] == bob.id
            d1, d2 = snap.game.dice
            await type_and_wait(tg, group, bob, f"/move 24/{24 - d1} 24/{24 - d2}")
            rejected = tg.last_bot_message(group)
            assert "L-8" in (rejected.text or "")
            assert [cb.view for cb in rules_data(rejected)] == ["topic"]
            await tap_label(tg, group, bob, rejected, "❓ Почему?")
            topic = tg.last_bot_message_seen_by(group, bob)  # to Bob only
            assert topic.is_ephemeral
            assert_topic(topic, "head_rule", "ru", photo=True)
            # the rejection is text (it cannot become the topic's photo): its button is
            # spent, so the topic cannot be posted twice
            assert labels(shown(tg, group, rejected)) == []
            after = await active_match(run.app, group.id, alice.id)
            assert after is not None and after.version == snap.version  # nothing was played
        TRANSCRIPTS.mkdir(exist_ok=True)
        tg.save_transcript(TRANSCRIPTS / "rules_why_group_ru.txt", group)


async def test_settings_by_admins_change_the_next_game(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(721, "Алиса", language_code="ru")
        bob = tg.user(722, "Боб", language_code="ru")
        carol = tg.user(723, "Carol", language_code="en")
        group = tg.group(-7201, "Клуб", admins=[alice])
        private = tg.private_chat(carol)
        async with running_bot(tg, tmp_path / "bot.sqlite3") as run:
            await tg.wait_idle()
            await type_and_wait(tg, group, bob, "/settings")
            assert "администраторы" in (tg.last_bot_message(group).text or "")
            assert not tg.last_bot_message(group).buttons()

            await type_and_wait(tg, group, alice, "/settings")
            screen = tg.last_bot_message(group)
            assert "Правила этого чата" in (screen.text or "")
            assert "▫️ Блок из 6 «на проходе» (V-1)" in labels(screen)
            assert any("(V-4)" in label for label in labels(screen))
            assert any("(V-5)" in label for label in labels(screen))

            # a member who is not an admin taps the admin's screen: refused, nothing saved
            qid = await tap_and_wait(
                tg,
                group,
                screen.message_id,
                bob,
                screen.button_by_label("▫️ Блок из 6 «на проходе» (V-1)")["callback_data"],
                visible=False,
            )
            assert "администраторы" in (tg.callback_answers[qid].text or "")
            assert not (await run.app.games.chats.defaults(group.id)).options.block_in_passing

            await tap_label(tg, group, alice, screen, "▫️ Блок из 6 «на проходе» (V-1)")
            screen = tg.messages[group.id][screen.message_id]
            assert "✅ Блок из 6 «на проходе» (V-1)" in labels(screen)
            assert "«на проходе» (V-1)" in (screen.text or "")
            await tap_label(tg, group, alice, screen, "🎲 Куб: в коротких ✅ в длинных ✖️")
            screen = tg.messages[group.id][screen.message_id]
            assert "🎲 Куб: в обеих играх ✅" in labels(screen)
            await tap_label(tg, group, alice, screen, "🏁 одна партия")
            assert "🏁 матч до 3 очков" in labels(tg.messages[group.id][screen.message_id])

            # the next lobby names the new rules, and the game is created with them
            await type_and_wait(tg, group, alice, "/new long")
            lobby = tg.last_bot_message(group).text or ""
            assert "блок из 6 можно строить «на проходе» (V-1)" in lobby
            assert "куб удвоения включён" in lobby
            assert "матч до 3" in lobby
            mark = tg.mark()
            await tg.tap_button(group, bob, "✋ Присоединиться")
            await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            snap = await active_match(run.app, group.id, alice.id)
            assert snap is not None
            assert snap.match.options.block_in_passing
            assert snap.match.options.cube is True
            assert snap.match.length == 3
            assert snap.game.options.block_in_passing  # what the engine's move generator reads
            assert snap.game.cube_enabled  # long nardy with the cube: the engine allows doubling
            board = current_board(tg, group)
            assert Act.DOUBLE in {cb.a for _, cb, _ in game_buttons(board)}

            # /rules shows the running game's rules
            await type_and_wait(tg, group, alice, "/rules")
            menu = tg.last_bot_message_seen_by(group, alice)
            assert "В текущей игре (длинные нарды)" in (menu.caption or "")

            # a private chat: the user edits their own defaults (no admin check)
            await type_and_wait(tg, private, carol, "/settings")
            mine = tg.last_bot_message(private)
            assert "Your rules" in (mine.text or "")
            await tap_label(tg, private, carol, mine, "▫️ First move: lot dice (V-3)")
            mine = tg.messages[private.id][mine.message_id]
            assert "✅ First move: lot dice (V-3)" in labels(mine)
            assert (await run.app.games.chats.defaults(carol.id)).options.first_move_lot_dice
            await type_and_wait(tg, private, carol, "/rules")
            assert "first move plays the lot numbers (V-3)" in (
                tg.last_bot_message(private).caption or ""
            )
            # a topic about both games is drawn for the chat's game: short nardy's setup
            await tap_label(tg, private, carol, mine, "🎲 Game: long")
            await type_and_wait(tg, private, carol, "/rules starting position")
            setup = tg.last_bot_message(private)
            assert_topic(setup, "setup", "en", photo=True)
            assert setup.photo == diagram_picture("setup_short", "en")
        TRANSCRIPTS.mkdir(exist_ok=True)
        tg.save_transcript(TRANSCRIPTS / "settings_group_ru.txt", group)
        tg.save_transcript(TRANSCRIPTS / "settings_private_en.txt", private)


# ---- the pure parts, without a bot ----------------------------------------------------------


def test_every_setting_cycles_through_its_values_and_back() -> None:
    """A button carries the value it sets; tapping each one repeatedly visits every offered
    value and returns to the start, and what is stored reads back as the same defaults."""
    for name in sorted(FIELDS):
        # The move clock of a chat that never chose one is "the default" (None); cycling
        # visits the explicit choices, so it returns to the group's default chosen outright.
        start = ChatDefaults(move_clock=DEFAULT_GROUP) if name == F_CLOCK else ChatDefaults()
        seen = [start]
        current = start
        for _ in range(6):
            current = apply_setting(current, name, next_value(current, name))
            if current == start:
                break
            seen.append(current)
        assert current == start, name
        assert len(seen) >= 2, name
        for state in seen:  # all of it reads back as stored, the board's side too
            stored = state.stored_options()
            assert ChatDefaults.from_stored(state.variant, state.match_length, stored) == state


def test_stale_or_forged_setting_values_are_refused() -> None:
    for name, value in [
        ("variant", "backgammon"),
        ("length", "2"),
        ("cube", "maybe"),
        ("scoring", "koks"),
        ("crawford", "yes"),
        ("no_such", "1"),
    ]:
        with pytest.raises(SettingError):
            apply_setting(ChatDefaults(), name, value)


def test_describe_names_every_switch_and_the_cube_only_when_unusual() -> None:
    everything = Options(
        block_in_passing=True,
        block_needs_home=True,
        first_move_lot_dice=True,
        first_turn_any_double=True,
        no_obstacle_clause=True,
        bearoff_next_turn=True,
        resign_as_oin=True,
        winner_starts_next=True,
        crawford=True,
        cube=True,
    )
    long_line = describe("ru", "long", everything)
    for vid in ("V-1", "V-2", "V-3", "V-4", "V-5", "V-7", "V-10", "V-12", "V-16"):
        assert f"({vid})" in long_line
    assert "куб удвоения включён" in long_line
    assert describe("en", "short", Options()) == "standard (the bot's defaults)"
    assert "no doubling cube" in describe("en", "short", Options(cube=False))
    assert "V-16" not in describe("en", "long", Options(crawford=True))  # no cube, no Crawford


def test_every_topic_fits_a_caption_and_a_button() -> None:
    for topic in all_topics():
        for lang in ("ru", "en"):
            assert visible_length(topic_caption(lang, topic)) <= 1024
            assert t(lang, f"rt_{topic.id}") != topic.id
            assert len(t(lang, f"rt_{topic.id}")) <= 24
        assert len(RulesCB(view="topic", key=topic.id).pack().encode()) <= 64
    long_lead = "❓ " + "ж" * 600
    assert visible_length(topic_caption("ru", get_topic("bearoff_details"), long_lead)) <= 1024


def test_every_game_has_the_menu_picture() -> None:
    """Every rules message is a photo: the menu, and topics without an example position, are
    drawn over the starting position, which must exist for both games."""
    from bot.handlers.rules import START_DIAGRAM
    from teacher import get_diagram

    for variant in ("long", "short"):
        diagram = get_diagram(START_DIAGRAM, variant)
        assert diagram is not None and diagram.variant == variant
