"""Inline mode end to end: a challenge posted with ``@bot`` in two friends' own chat (which the
bot is not in), accepted there, and played to the end inside that message — pictures by
file_id, only the mover's taps acting; a stranger's query and taps; the sender tapping Accept;
the message deleted mid-game (the game goes on in both private chats, told once); inline mode
off; /board in private listing the inline games."""

from __future__ import annotations

import os
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

import storage
from bot.app import App, check_inline_mode
from bot.callbacks import Act
from engine import Phase
from tests.bot.harness import (
    TOKEN,
    caught_up,
    game_buttons,
    running_bot,
    settle,
    tap_and_wait,
    type_and_wait,
    until,
)
from tests.fake_telegram import FakeChat, FakeTelegram, FakeUser, StoredMessage
from tests.fake_time import FakeTime

TRANSCRIPTS = os.environ.get("NARDY_TRANSCRIPTS")


@pytest_asyncio.fixture
async def fake_telegram() -> AsyncIterator[FakeTelegram]:
    """The fake Bot API server with the token the harness's bot uses."""
    async with FakeTelegram(token=TOKEN) as server:
        yield server


def people(tg: FakeTelegram) -> tuple[FakeUser, FakeUser, FakeUser]:
    alice = tg.user(501, "Alice", username="alice_k", language_code="en")
    boris = tg.user(502, "Борис", username="boris_n", language_code="ru")
    carol = tg.user(503, "Carol", username="carol_x", language_code="en")
    for person in (alice, boris, carol):
        tg.private_chat(person)  # each has started the bot
    return alice, boris, carol


# Waiting is for what the player would see, never for quiet alone: under load drawing a board
# (and uploading it) takes longer than any quiet period.


async def ask(tg: FakeTelegram, user: FakeUser, text: str, chat: FakeChat) -> str:
    """``user`` types ``@bot text`` in ``chat``; returns the query id once it is answered."""
    mark = tg.mark()
    query_id = await tg.inline_query(user, text, chat=chat)
    await tg.wait_for(
        lambda c: c.method == "answerInlineQuery" and c.params.get("inline_query_id") == query_id,
        since=mark,
        timeout=30,
    )
    return query_id


async def tap_card(
    tg: FakeTelegram,
    card: StoredMessage,
    user: FakeUser,
    *,
    label: str | None = None,
    data: str | None = None,
) -> str | None:
    """Tap a button of the inline message; the text the bot answered the tap with."""
    assert card.inline_message_id is not None
    mark = tg.mark()
    qid = await tg.tap_inline(card.inline_message_id, user, data, label=label)
    await tg.wait_for(
        lambda c: c.method == "answerCallbackQuery" and c.params.get("callback_query_id") == qid,
        since=mark,
        timeout=30,
    )
    await tg.wait_settled(quiet=0.05, timeout=30)
    return tg.callback_answers[qid].text


async def accept(tg: FakeTelegram, card: StoredMessage, user: FakeUser, label: str) -> None:
    """``user`` taps Accept and the card becomes the board (the bot edits it)."""
    mark = tg.mark()
    await tap_card(tg, card, user, label=label)
    await tg.wait_for(
        lambda c: (
            c.ok
            and c.method.startswith("editMessage")
            and c.params.get("inline_message_id") == card.inline_message_id
        ),
        since=mark,
        timeout=30,
    )
    await tg.wait_settled(quiet=0.05, timeout=30)


async def post_challenge(
    tg: FakeTelegram, sender: FakeUser, chat: FakeChat, text: str, result: str
) -> StoredMessage:
    query_id = await ask(tg, sender, text, chat)
    card = await tg.choose_inline_result(query_id, result)
    await settle(tg)
    assert card.inline_message_id is not None
    return card


async def start_game(
    tg: FakeTelegram, sender: FakeUser, friend: FakeUser, chat: FakeChat, result: str
) -> StoredMessage:
    """``sender`` posts the card of ``result`` in ``chat``; ``friend`` accepts it there."""
    card = await post_challenge(tg, sender, chat, "", result)
    await accept(tg, card, friend, "✅ Accept")
    return card


def private_boards(tg: FakeTelegram, person: FakeUser) -> list[StoredMessage]:
    """The boards in the person's private chat: pictures with buttons (a picture uploaded for
    an inline message has none, and is deleted at once)."""
    return [
        m
        for m in tg.messages[person.id].values()
        if m.photo and not m.deleted and m.reply_markup is not None
    ]


def texts_with(tg: FakeTelegram, person: FakeUser, mark: str) -> list[StoredMessage]:
    """The bot's texts in the person's private chat that contain ``mark``."""
    return [m for m in tg.messages[person.id].values() if m.text and mark in m.text]


async def drive_inline(
    tg: FakeTelegram,
    app: App,
    card: StoredMessage,
    players: dict[int, FakeUser],
    rng: random.Random,
    *,
    actions: int = 3000,
    finish: bool = True,
) -> None:
    """Play the game in the inline message to its end, tapping as the player to act (who
    is read from the stored game, as a player knows whose turn it is)."""
    assert card.inline_message_id is not None
    for _ in range(actions):
        mark = tg.mark()
        snap = await app.games.find_inline(card.inline_message_id)
        assert snap is not None
        game = snap.game
        if game.phase is Phase.OVER:
            return
        if not await caught_up(tg, card.chat_id, card, snap.version, mark):
            continue
        seat = game.seat_to_act
        assert seat is not None
        user = players[snap.user_ids[seat]]
        acts: dict[Act, list[str]] = {}
        for _, cb, data in game_buttons(card):
            acts.setdefault(cb.a, []).append(data)
        for act in (Act.TAKE, Act.ROLL, Act.MOVE):
            if act in acts:
                await tap_card(tg, card, user, data=rng.choice(acts[act]))
                break
        else:
            if Act.DONE in acts and (Act.PICK not in acts or rng.random() < 0.7):
                await tap_card(tg, card, user, data=acts[Act.DONE][0])
            else:
                assert Act.PICK in acts, f"nothing to tap: {card.button_labels()} {card.caption}"
                await tap_card(tg, card, user, data=rng.choice(acts[Act.PICK]))
    if finish:
        raise AssertionError("the game did not finish")


#: What each side reads, by the challenger's language (the card speaks it).
WORDS = {
    "en": {"accept": "✅ Accept", "card": "challenges @", "own": "your own", "not": "another"},
    "ru": {
        "accept": "✅ Принять",
        "card": "вызывает @",
        "own": "ваше приглашение",
        "not": "другому",
    },
}


@pytest.mark.parametrize(("variant", "lang"), [("short", "ru"), ("long", "en")])
async def test_friends_play_a_whole_game_inside_the_inline_message(
    fake_telegram: FakeTelegram, tmp_path: Path, variant: str, lang: str
) -> None:
    tg = fake_telegram
    alice, boris, carol = people(tg)
    # Boris (ru) challenges Alice in their private chat; Alice (en) challenges Boris in a
    # group of three, where Carol is the stranger.
    sender, friend = (alice, boris) if lang == "en" else (boris, alice)
    words = WORDS[lang]
    stranger = carol if lang == "en" else None
    if stranger is None:
        friends = tg.users_chat(alice, boris)
    else:
        friends = tg.users_chat(alice, boris, carol, title="Alice, Boris, Carol")
    async with running_bot(tg, tmp_path / "inline.sqlite3") as run:
        if stranger is not None:  # a stranger's query gets her own results
            carol_query = await ask(tg, carol, "", friends)
            assert tg.inline_answers[carol_query].is_personal
            for result in tg.inline_answers[carol_query].results:
                body = result.get("caption") or result["input_message_content"]["message_text"]
                assert "Carol" in body and sender.first_name not in body
        # The sender names the friend; the results are in the sender's language.
        query_id = await ask(tg, sender, f"@{friend.username} {variant}", friends)
        answer = tg.inline_answers[query_id]
        assert answer.is_personal and answer.cache_time > 0
        ids = [r["id"] for r in answer.results]
        assert ids[-1].startswith("k.")  # the invitation link is offered too
        card_result = answer.result(ids[0])
        assert card_result["type"] == "photo"  # a preview picture, uploaded by file id
        assert words["card"] + str(friend.username) in card_result["caption"]
        card = await tg.choose_inline_result(query_id, ids[0])
        await settle(tg)
        inline_id = card.inline_message_id
        assert inline_id is not None and card.button_labels()[0] == [words["accept"]]

        # The sender cannot accept; a stranger is not the one named.
        assert words["own"] in str(await tap_card(tg, card, sender, label=words["accept"]))
        if stranger is not None:
            answer = await tap_card(tg, card, stranger, label=words["accept"])
            assert "another player" in str(answer)

        await accept(tg, card, friend, words["accept"])
        assert card.media_kind == "photo" and card.text is None
        row = await run.app.store.find_game_by_inline_message(inline_id)
        assert row is not None and row.status is storage.GameStatus.ACTIVE
        assert str(row.variant) == variant

        # The waiting player's tap and a stranger's change nothing.
        snap = await run.app.games.find_inline(inline_id)
        assert snap is not None and snap.game.seat_to_act is not None
        mover = snap.user_ids[snap.game.seat_to_act]
        waiting = alice if mover == boris.id else boris
        refusals = {alice.id: "It is not your turn.", boris.id: "Сейчас не ваш ход."}
        taps = [(waiting, refusals[waiting.id])]
        if stranger is not None:
            taps.append((stranger, "You are not playing in this game."))
        before = card.edits
        for person, refusal in taps:
            assert await tap_card(tg, card, person, data=game_buttons(card)[0][2]) == refusal
        assert card.edits == before

        await drive_inline(tg, run.app, card, {alice.id: alice, boris.id: boris}, random.Random(5))
        final = await run.app.store.get_game(row.game_id)
        assert final.status is storage.GameStatus.FINISHED, card.caption
        for person in (alice, boris):  # statistics and ratings as for any game
            assert (await run.app.store.get_user_stats(person.id, variant)).games == 1
            assert (await run.app.store.get_rating(person.id, variant)).games == 1

        # The final board, then: every picture went in by file id, none uploaded into the
        # inline message; the uploads to the players' private chats were deleted there.
        await until(tg, friends.id, lambda: "🏆" in (card.caption or ""))
        await tg.wait_idle(quiet=0.3, timeout=30)
        edits = [c for c in tg.calls("editMessageMedia") if c.params.get("inline_message_id")]
        assert edits and all(c.ok for c in edits)
        assert all(not str(c.params["media"]["media"]).startswith("attach://") for c in edits)
        for person in (alice, boris):
            kept = [m for m in tg.messages[person.id].values() if m.photo and not m.deleted]
            assert kept == []
        if TRANSCRIPTS:
            tg.save_transcript(Path(TRANSCRIPTS) / f"inline-{variant}-{lang}.txt")


@pytest.mark.parametrize("how", ["deleted", "too old", "edit failed"])
async def test_a_lost_inline_message_moves_the_game_to_private_chats(
    fake_telegram: FakeTelegram, tmp_path: Path, how: str
) -> None:
    tg = fake_telegram
    alice, boris, _ = people(tg)
    friends = tg.users_chat(alice, boris)
    async with running_bot(tg, tmp_path / "lost.sqlite3") as run:
        card = await start_game(tg, alice, boris, friends, "c.long.1.d")
        inline_id = card.inline_message_id
        assert inline_id is not None
        players = {alice.id: alice, boris.id: boris}
        await drive_inline(tg, run.app, card, players, random.Random(3), actions=4, finish=False)
        # A tap reaches the bot just as someone deletes the message.
        snap = await run.app.games.find_inline(inline_id)
        assert snap is not None and snap.game.seat_to_act is not None
        version = snap.version
        await until(tg, friends.id, lambda: any(cb.v == version for _, cb, _ in game_buttons(card)))
        mover = players[snap.user_ids[snap.game.seat_to_act]]
        _, tapped, data = game_buttons(card)[0]
        await tg.tap_inline(inline_id, mover, data)
        if how == "deleted":
            tg.delete_inline_message(inline_id)
        elif how == "too old":
            tg.expire_inline_message(inline_id)
        else:  # the one edit this tap causes fails
            method = (
                "editMessageCaption" if tapped.a in (Act.PICK, Act.BACK) else "editMessageMedia"
            )
            tg.fail_next(method, error_code=400, description="Bad Request: MEDIA_EMPTY")
        row = await run.app.store.find_game_by_inline_message(inline_id)
        assert row is not None and row.status is storage.GameStatus.ACTIVE
        for person, words in ((alice, "goes on here"), (boris, "продолжается здесь")):
            await until(tg, person.id, lambda p=person: len(private_boards(tg, p)) == 1)
            assert len(texts_with(tg, person, words)) == 1, tg.transcript(person.id)
        # The game goes on in the private chats, and nobody is told again.
        for _ in range(6):
            for person in (alice, boris):
                board = private_boards(tg, person)[0]
                buttons = game_buttons(board)
                if buttons:  # (a board one version old is answered "outdated")
                    await tap_and_wait(
                        tg, tg.chats[person.id], board.message_id, person, buttons[0][2]
                    )
        after = await run.app.store.get_game(row.game_id)
        assert after.version > row.version
        for person, words in ((alice, "goes on here"), (boris, "продолжается здесь")):
            told = [m for m in tg.messages[person.id].values() if m.text and words in m.text]
            assert len(told) == 1


async def test_board_in_private_lists_inline_games(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    tg = fake_telegram
    alice, boris, _ = people(tg)
    friends = tg.users_chat(alice, boris)
    async with running_bot(tg, tmp_path / "board.sqlite3") as run:
        card = await start_game(tg, alice, boris, friends, "c.short.1.d")
        await tg.send_text(alice.id, alice, "/board")
        await until(tg, alice.id, lambda: len(private_boards(tg, alice)) == 1)
        texts = [m.text for m in tg.messages[alice.id].values() if m.text]
        assert any("inline messages" in (text or "") for text in texts)
        boards = private_boards(tg, alice)
        # That board is now kept up to date with the inline one.
        before = boards[0].edits
        players = {alice.id: alice, boris.id: boris}
        await drive_inline(tg, run.app, card, players, random.Random(1), actions=3, finish=False)
        await until(tg, alice.id, lambda: boards[0].edits > before)
        # It does not hold the private chat: a new game can still be started there.
        await type_and_wait(tg, tg.chats[alice.id], alice, "/new")
        assert tg.last_bot_message(alice.id).text == "What shall we play?"


async def test_inline_mode_off_is_said(fake_telegram: FakeTelegram, tmp_path: Path) -> None:
    tg = fake_telegram
    tg.inline_mode = False
    alice, _, _ = people(tg)
    async with running_bot(tg, tmp_path / "off.sqlite3") as run:
        assert await check_inline_mode(run.app.bot) is False
        await type_and_wait(tg, tg.chats[alice.id], alice, "/new")
        await tg.tap_button(alice.id, alice, "👥 Friend · long")
        await until(
            tg, alice.id, lambda: "/setinline" in (tg.last_bot_message(alice.id).text or "")
        )


async def test_uploads_go_to_the_media_chat_when_one_is_set(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    tg = fake_telegram
    alice, boris, _ = people(tg)
    media = tg.group(-1009000, "nardy pictures", bot_is_admin=True)
    friends = tg.users_chat(alice, boris)
    env = {"MEDIA_CHAT_ID": str(media.id)}
    async with running_bot(tg, tmp_path / "media.sqlite3", env=env) as run:
        card = await post_challenge(tg, alice, friends, "5", "c.long.5.d")
        assert card.inline_message_id is not None and "a match to 5" in (card.caption or "")
        await accept(tg, card, boris, "✅ Accept")
        players = {alice.id: alice, boris.id: boris}
        await drive_inline(tg, run.app, card, players, random.Random(2), actions=8, finish=False)
        await tg.wait_idle(quiet=0.5, timeout=30)
        pictures = [m for m in tg.messages[media.id].values() if m.photo and not m.deleted]
        assert len(pictures) == run.app.shows.inline.uploads >= 2
        for person in (alice, boris):  # nothing was uploaded to the players' chats
            assert not [m for m in tg.messages[person.id].values() if m.photo]


async def test_without_a_chat_to_upload_to_the_game_is_played_in_text(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    """Neither player has started the bot and no media chat is set: the card and the board
    are text (no picture can be uploaded), and the game still works."""
    tg = fake_telegram
    alice = tg.user(601, "Alice", username="alice_t", language_code="en")
    boris = tg.user(602, "Борис", username="boris_t", language_code="ru")
    friends = tg.users_chat(alice, boris)
    async with running_bot(tg, tmp_path / "text.sqlite3") as run:
        query_id = await ask(tg, alice, "", friends)
        answer = tg.inline_answers[query_id]
        assert {r["type"] for r in answer.results} == {"article"}
        assert answer.button is not None and answer.button["start_parameter"] == "inline"
        card = await tg.choose_inline_result(query_id, "c.short.1.d")
        await settle(tg)
        assert card.inline_message_id is not None
        await accept(tg, card, boris, "✅ Accept")
        assert card.text is not None and "Short nardy" in card.text and card.photo is None
        players = {alice.id: alice, boris.id: boris}
        await drive_inline(tg, run.app, card, players, random.Random(4), actions=6, finish=False)
        snap = await run.app.games.find_inline(card.inline_message_id)
        assert snap is not None and snap.version > 1


async def test_the_invitation_link_result_starts_a_game_in_the_private_chats(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    tg = fake_telegram
    alice, boris, _ = people(tg)
    friends = tg.users_chat(alice, boris)
    async with running_bot(tg, tmp_path / "link.sqlite3") as run:
        card = await post_challenge(tg, alice, friends, "short", "k.short.1.d")
        assert card.text is not None and "t.me/" in card.text
        assert card.button_labels() == [["🎲 Play in a private chat"]]
        token = card.buttons()[0][0]["url"].split("start=", 1)[1]
        await tg.send_text(boris.id, boris, f"/start {token}")
        for person in (alice, boris):
            await until(tg, person.id, lambda p=person: bool(private_boards(tg, p)))
        games = await run.app.store.list_user_games(boris.id, status=storage.GameStatus.ACTIVE)
        assert [g.inline_message_id for g in games] == [None]  # a game of the private chats


async def test_an_inline_games_clock_reminds_and_offers_the_claim_in_private(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    """72 hours a move (an inline challenge's default): the inline board counts down, the
    reminder reaches the mover's private chat and the claim the waiting player's; the claim
    ends the game in the inline message."""
    tg = fake_telegram
    alice, boris, _ = people(tg)
    friends = tg.users_chat(alice, boris)
    time = FakeTime()
    async with running_bot(tg, tmp_path / "clock.sqlite3", time=time) as run:
        card = await start_game(tg, alice, boris, friends, "c.long.1.d")
        assert card.inline_message_id is not None
        assert "3 d left for this move" in (card.caption or "")
        snap = await run.app.games.find_inline(card.inline_message_id)
        assert snap is not None and snap.game.seat_to_act is not None
        late = alice if snap.user_ids[snap.game.seat_to_act] == alice.id else boris
        waiting = boris if late is alice else alice
        await time.advance(hours=36, seconds=1)
        await until(tg, late.id, lambda: bool(texts_with(tg, late, "⏰")))
        await time.advance(hours=36)
        await until(tg, waiting.id, lambda: bool(texts_with(tg, waiting, "⌛")))
        offer = texts_with(tg, waiting, "⌛")[-1]
        claim = next(b for row in offer.buttons() for b in row if "callback_data" in b)
        await tg.tap(waiting.id, offer.message_id, waiting, claim["callback_data"])
        await until(tg, friends.id, lambda: "🏆" in (card.caption or ""))
        final = await run.app.store.get_game(snap.game_id)
        assert final.status is storage.GameStatus.FINISHED
        assert "M-19" in (card.caption or "")


async def test_the_next_game_of_an_inline_match_is_shown_in_the_same_message(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    """A match to 3 in an inline message: the first game ends with a dropped double, and the
    same message shows the second game (a new stored game, whose versions start again from
    1) and keeps following it, though the first game's edits showed larger versions."""
    tg = fake_telegram
    alice, boris, _ = people(tg)
    friends = tg.users_chat(alice, boris)
    players = {alice.id: alice, boris.id: boris}
    async with running_bot(tg, tmp_path / "match.sqlite3") as run:
        card = await post_challenge(tg, alice, friends, "short 3", "c.short.3.d")
        await accept(tg, card, boris, "✅ Accept")
        assert card.inline_message_id is not None
        first = await run.app.games.find_inline(card.inline_message_id)
        assert first is not None
        rng = random.Random(3)
        for _ in range(200):  # play until the player to roll may double instead
            mark = tg.mark()
            snap = await run.app.games.find_inline(card.inline_message_id)
            assert snap is not None and snap.game_id == first.game_id
            if not await caught_up(tg, card.chat_id, card, snap.version, mark):
                continue
            seat = snap.game.seat_to_act
            assert seat is not None
            acts = {cb.a: data for _, cb, data in game_buttons(card)}
            if Act.DOUBLE in acts:
                await tap_card(tg, card, players[snap.user_ids[seat]], data=acts[Act.DOUBLE])
                break
            await drive_inline(tg, run.app, card, players, rng, actions=1, finish=False)
        else:
            raise AssertionError("no double was offered")
        mark = tg.mark()
        snap = await run.app.games.find_inline(card.inline_message_id)
        assert snap is not None and snap.game.phase is Phase.DOUBLE
        await caught_up(tg, card.chat_id, card, snap.version, mark)
        taker = players[snap.user_ids[snap.game.seat_to_act]]
        drop = {cb.a: data for _, cb, data in game_buttons(card)}[Act.DROP]
        ended_at = snap.version
        await tap_card(tg, card, taker, data=drop)
        second = await run.app.games.find_inline(card.inline_message_id)
        assert second is not None and second.game_id != first.game_id
        assert second.version < ended_at  # the second game counts its versions anew
        await until(
            tg,
            card.chat_id,
            lambda: {cb.game for _, cb, _ in game_buttons(card)} == {second.game_id},
        )
        # ... and the message follows the second game's turns.
        await drive_inline(tg, run.app, card, players, rng, actions=6, finish=False)
        now = await run.app.games.find_inline(card.inline_message_id)
        assert now is not None and now.game_id == second.game_id and now.version > second.version
        await until(
            tg, card.chat_id, lambda: any(cb.v == now.version for _, cb, _ in game_buttons(card))
        )


async def test_a_redelivered_tap_saved_before_shows_the_inline_message_as_stored(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    """The bot saved a tap in an inline game and died before editing the message; started
    again, it gets the tap once more. It is not played twice, and the message is brought to
    the stored game — else it would keep the old version's buttons, each tap on them
    answered "outdated" and nothing ever editing the message again."""
    tg = fake_telegram
    alice, boris, _ = people(tg)
    friends = tg.users_chat(alice, boris)
    players = {alice.id: alice, boris.id: boris}
    database = tmp_path / "redelivered.sqlite3"
    async with running_bot(tg, database) as run:
        card = await start_game(tg, alice, boris, friends, "c.long.1.d")
        assert card.inline_message_id is not None
        snap = await run.app.games.find_inline(card.inline_message_id)
        assert snap is not None and snap.game.seat_to_act is not None
        mover = players[snap.user_ids[snap.game.seat_to_act]]
        acts = {cb.a: d for _, cb, d in game_buttons(card)}
        if Act.MOVE not in acts:  # a point first: its destinations are offered
            await tap_card(tg, card, mover, data=acts[Act.PICK])
            acts = {cb.a: d for _, cb, d in game_buttons(card)}

        async def died_before_showing(*args: object, **kwargs: object) -> None:
            return None

        run.app.shows.update = died_before_showing  # type: ignore[method-assign]
        mark = tg.mark()
        query_id = await tg.tap_inline(card.inline_message_id, mover, acts[Act.MOVE])
        await tg.wait_for(
            lambda c: (
                c.method == "answerCallbackQuery" and c.params.get("callback_query_id") == query_id
            ),
            since=mark,
            timeout=30,
        )
        await tg.wait_settled(quiet=0.1, timeout=30)
        saved = await run.app.games.find_inline(card.inline_message_id)
        assert saved is not None and saved.version == snap.version + 1
    assert not any(cb.v == saved.version for _, cb, _ in game_buttons(card))
    async with running_bot(tg, database) as run:
        await tg.redeliver(tg.update_id_of(query_id))
        await until(
            tg, card.chat_id, lambda: any(cb.v == saved.version for _, cb, _ in game_buttons(card))
        )
        after = await run.app.games.find_inline(card.inline_message_id)
        assert after is not None and after.version == saved.version  # played once
