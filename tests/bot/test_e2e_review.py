"""The game review end to end on the fake Bot API server: a game against the computer played
to its end, then «Разбор»: one review however often it is tapped while it is prepared (the
computation runs in a worker process while the bot keeps answering), each player's error rate
with its label and the biggest mistakes as pictures in one album; asked again, it comes at once from
storage; `/review`, `/history` and `/stats` show it too, in Russian and in English. A review a
dead worker had claimed is taken over once its lease ends (a restart in the middle)."""

from __future__ import annotations

import asyncio
import io
import random
import time
from datetime import timedelta
from pathlib import Path

from PIL import Image

import storage
from bot.texts import t
from tests.bot.harness import active_match, current_board, running_bot, type_and_wait
from tests.bot.test_e2e_aftergame import finish_a_game_against_the_computer
from tests.bot.test_e2e_games import drive_game
from tests.fake_telegram import FakeTelegram

TOKEN = "123456789:AAHfakeTokenForTheNardyBotTests_x9"


def _texts_since(tg: FakeTelegram, chat, mark: int, method: str) -> list[str]:
    return [
        str(c.params.get("text") or c.params.get("caption") or "")
        for c in tg.calls(method, chat)
        if c.seq > mark and c.ok
    ]


def _pictures_since(tg: FakeTelegram, chat, mark: int) -> list[str]:
    """The captions of the mistakes' pictures sent since ``mark``: the album's items (or a
    lone photo), as the chat shows them."""
    captions = []
    for call in tg.calls(None, chat):
        if call.seq <= mark or not call.ok:
            continue
        if call.method == "sendMediaGroup":
            captions.extend(str(m.get("caption") or "") for m in call.result)
        elif call.method == "sendPhoto":
            captions.append(str(call.params.get("caption") or ""))
    return captions


async def _wait_for_review(tg: FakeTelegram, chat, mark: int, title: str, pictures: int) -> None:
    await tg.wait_for(
        lambda c: c.method == "sendMessage" and title in str(c.params.get("text", "")),
        chat_id=chat,
        since=mark,
        timeout=120,
    )
    deadline = time.monotonic() + 60
    while len(_pictures_since(tg, chat, mark)) < pictures:
        assert time.monotonic() < deadline, tg.transcript(chat)[-3000:]
        await asyncio.sleep(0.1)
    await tg.wait_idle(quiet=0.2, timeout=30)


def _one_album(tg: FakeTelegram, chat, mark: int, pictures: int) -> None:
    """Two or more pictures come as one album (one group id), a lone one as a photo."""
    albums = [c for c in tg.calls("sendMediaGroup", chat) if c.seq > mark and c.ok]
    photos = [c for c in tg.calls("sendPhoto", chat) if c.seq > mark and c.ok]
    if pictures >= 2:
        assert len(albums) == 1 and not photos
        (album,) = albums
        assert len(album.result) == pictures
        assert len({m["media_group_id"] for m in album.result}) == 1
    else:
        assert len(photos) == pictures and not albums


async def test_review_of_a_game_against_the_computer(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        vera = tg.user(501, "Вера")
        chat = tg.private_chat(vera)
        async with running_bot(tg, tmp_path / "bot.sqlite3", seed=21) as run:
            game_id = await finish_a_game_against_the_computer(tg, run, vera, chat)
            final = current_board(tg, chat)
            assert t("ru", "btn_review") in [x for row in final.button_labels() for x in row]

            # Two taps at once: one review; the second tap is told it is on its way. The
            # event loop keeps running meanwhile (the review is computed in another process).
            lags: list[float] = []

            async def ticker() -> None:
                while True:
                    before = time.perf_counter()
                    await asyncio.sleep(0.01)
                    lags.append(time.perf_counter() - before - 0.01)

            ticking = asyncio.create_task(ticker())
            mark = tg.mark()
            label = t("ru", "btn_review")
            await tg.tap_button(chat, vera, label, message_id=final.message_id)
            second = await tg.tap_button(chat, vera, label, message_id=final.message_id)
            title = "Разбор партии"
            await tg.wait_for(
                lambda c: c.method == "sendMessage" and title in str(c.params.get("text", "")),
                chat_id=chat,
                since=mark,
                timeout=120,
            )
            ticking.cancel()
            review = await run.app.reviews.stored(game_id)
            assert review is not None and run.app.reviews.computed == 1
            pictures = sum(len(p.mistakes) for p in review.players.values())
            assert 1 <= pictures <= 6
            await _wait_for_review(tg, chat, mark, title, pictures)
            summaries = [x for x in _texts_since(tg, chat, mark, "sendMessage") if title in x]
            assert len(summaries) == 1
            answers = [
                c.params.get("text")
                for c in tg.calls("answerCallbackQuery")
                if c.params.get("callback_query_id") == second
            ]
            assert answers == [t("ru", "review_running")]
            summary = summaries[0]
            assert "Вера" in summary and "Компьютер" in summary
            assert "решени" in summary and ("новичок" in summary or "средняя игра" in summary)
            captions = _pictures_since(tg, chat, mark)
            assert len(captions) == pictures
            assert all("ошибка" in c and "ход" in c and "−" in c for c in captions)
            _one_album(tg, chat, mark, pictures)
            photo = tg.last_bot_message(chat)
            assert photo.photo is not None
            with Image.open(io.BytesIO(photo.photo)) as image:
                assert image.format == "JPEG" and image.size[0] >= 800
            # The event loop never stopped for the computation: computed on the loop, the
            # review would have stalled it for at least its CPU time (the fake server shares
            # this loop and the machine is shared, hence no tighter bound).
            (cpu,) = run.app.reviews.cpu_seconds
            assert cpu > 0.2 and lags and max(lags) < 0.8 * cpu, (max(lags), cpu)

            # Asked again: from storage, at once, not computed again.
            mark = tg.mark()
            started = time.monotonic()
            await tg.tap_button(chat, vera, label, message_id=final.message_id)
            await _wait_for_review(tg, chat, mark, title, pictures)
            assert time.monotonic() - started < 10
            assert run.app.reviews.computed == 1

            # /stats: the average error rate of the reviewed games
            await type_and_wait(tg, chat, vera, "/stats")
            stats = tg.last_bot_message(chat).text or ""
            assert "Ошибка (короткие нарды)" in stats and "разобрано партий: 1" in stats

            # /history lists the game with its three buttons; its review button works
            await type_and_wait(tg, chat, vera, "/history")
            listing = tg.last_bot_message(chat)
            assert f"№{game_id}" in (listing.text or "")
            labels = [x for row in listing.button_labels() for x in row]
            assert f"🎞 {game_id}" in labels and f"📄 {game_id}" in labels
            mark = tg.mark()
            await tg.tap_button(chat, vera, f"🧑‍🏫 {game_id}", message_id=listing.message_id)
            await _wait_for_review(tg, chat, mark, title, pictures)

            # In English: /review names the same game
            await type_and_wait(tg, chat, vera, "/lang en")
            mark = tg.mark()
            await tg.send_text(chat, vera, "/review")
            await _wait_for_review(tg, chat, mark, "Game review", pictures)
            english = [x for x in _texts_since(tg, chat, mark, "sendMessage") if "Game review" in x]
            assert len(english) == 1 and "decisions" in english[0]
            assert all("mistake" in c for c in _pictures_since(tg, chat, mark))
            assert run.app.reviews.computed == 1
            tg.save_transcript(tmp_path / "review-transcript.txt", chat)


async def test_a_review_claimed_by_a_dead_worker_is_taken_over(tmp_path: Path) -> None:
    """The bot restarted while computing a review: its claim stays in storage until its
    lease ends; asked again, the review is computed and sent."""
    async with FakeTelegram(token=TOKEN) as tg:
        vera = tg.user(502, "Вера")
        chat = tg.private_chat(vera)
        async with running_bot(tg, tmp_path / "bot.sqlite3", seed=22) as run:
            game_id = await finish_a_game_against_the_computer(tg, run, vera, chat)
            await run.app.store.claim_review(game_id, "the-process-that-died", timedelta(seconds=1))
            mark = tg.mark()
            await tg.send_text(chat, vera, "/review")
            await tg.wait_for(
                lambda c: c.method == "sendMessage" and "Разбор партии" in str(c.params["text"]),
                chat_id=chat,
                since=mark,
                timeout=120,
            )
            row = await run.app.store.get_review(game_id)
            assert row is not None and row.done and run.app.reviews.computed == 1


async def test_review_of_a_game_still_being_played_is_refused(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        vera = tg.user(503, "Вера")
        chat = tg.private_chat(vera)
        async with running_bot(tg, tmp_path / "bot.sqlite3", seed=23):
            await tg.wait_idle()
            await type_and_wait(tg, chat, vera, "/review")
            assert tg.last_bot_message(chat).text == t("ru", "review_none")
            await type_and_wait(tg, chat, vera, "/review abc")
            assert tg.last_bot_message(chat).text == t("ru", "review_usage")
            await type_and_wait(tg, chat, vera, "/review 99999")
            assert tg.last_bot_message(chat).text == t("ru", "review_not_here", game="99999")
            await type_and_wait(tg, chat, vera, "/history")
            assert tg.last_bot_message(chat).text == t("ru", "history_empty")


async def test_review_of_a_long_game_in_a_group_tapped_by_both_players(tmp_path: Path) -> None:
    """A long-nardy game between two people in a group: both tap «Разбор» at once and the
    group gets one review of both (long nardy's reasons, pictures from each mover's side)."""
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(101, "Алиса", language_code="ru")
        bob = tg.user(102, "Bob", language_code="en")
        group = tg.group(-1001, "Нарды клуб", admins=[alice])
        async with running_bot(tg, tmp_path / "bot.sqlite3", seed=3) as run:
            await tg.wait_idle()
            await type_and_wait(tg, group, alice, "/new long")
            mark = tg.mark()
            await tg.tap_button(group, bob, "✋ Присоединиться")
            await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            players = {101: alice, 102: bob}
            snap = await active_match(run.app, group.id, alice.id)
            await drive_game(
                tg,
                run.app,
                {-1001: group},
                players,
                game_chat=-1001,
                rng=random.Random(5),
                typed_every=1,
            )
            final = current_board(tg, group)
            label = t("ru", "btn_review")
            mark = tg.mark()
            await tg.tap_button(group, alice, label, message_id=final.message_id)
            bobs = await tg.tap_button(group, bob, label, message_id=final.message_id)
            review = None
            deadline = time.monotonic() + 120
            while review is None:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.2)
                review = await run.app.reviews.stored(snap.game_id)
            pictures = sum(len(p.mistakes) for p in review.players.values())
            await _wait_for_review(tg, group, mark, "Разбор партии", pictures)
            summaries = [x for x in _texts_since(tg, group, mark, "sendMessage") if "Разбор" in x]
            assert len(summaries) == 1 and run.app.reviews.computed == 1
            assert "Алиса" in summaries[0] and "Bob" in summaries[0]
            assert "длинные нарды" in summaries[0]
            answers = [
                c.params.get("text")
                for c in tg.calls("answerCallbackQuery")
                if c.params.get("callback_query_id") == bobs
            ]
            assert answers == [t("ru", "review_running")]
            assert len(_pictures_since(tg, group, mark)) == pictures
            _one_album(tg, group, mark, pictures)
            tg.save_transcript(tmp_path / "group-review-transcript.txt", group)


async def test_review_of_a_whole_match_in_a_group(tmp_path: Path) -> None:
    """A 3-point short match between two people in a group, played to its end: its last
    board offers «Разбор матча», which reviews every game once and answers with each player's
    rate over the match and each game's line; `/review матч` gives it again from storage.
    A name with HTML in it is shown as typed."""
    async with FakeTelegram(token=TOKEN) as tg:
        alice = tg.user(111, "Алиса <b>&</b>", language_code="ru")
        bob = tg.user(112, "Bob", language_code="en")
        group = tg.group(-1002, "Матчи", admins=[alice])
        async with running_bot(tg, tmp_path / "bot.sqlite3", seed=8) as run:
            await tg.wait_idle()
            await type_and_wait(tg, group, alice, "/new short 3")
            mark = tg.mark()
            await tg.tap_button(group, bob, "✋ Присоединиться")
            await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            rng = random.Random(2)
            asked_early = False
            for _ in range(8):
                await drive_game(
                    tg,
                    run.app,
                    {-1002: group},
                    {111: alice, 112: bob},
                    game_chat=-1002,
                    rng=rng,
                    typed_every=1,  # buttons are the picker tests' subject; this one's is review
                )
                await tg.wait_idle(quiet=0.3)
                snap = await active_match(run.app, group.id, alice.id)
                if snap is None or snap.match.is_over:  # no next game: the match is over
                    break
                if not asked_early:  # mid-match: refused at once, no "reviewing…" first
                    asked_early = True
                    (first,) = await run.app.store.list_chat_games(
                        group.id, status=storage.GameStatus.FINISHED, limit=1
                    )
                    mark = tg.mark()
                    await type_and_wait(tg, group, alice, f"/review матч {first.game_id}")
                    said = _texts_since(tg, group, mark, "sendMessage")
                    assert said == [t("ru", "match_not_over")], said
            (last,) = await run.app.store.list_chat_games(
                group.id, status=storage.GameStatus.FINISHED, limit=1
            )
            assert last.match_length == 3
            games = await run.app.store.match_games(last.game_id)
            final = current_board(tg, group)
            label = t("ru", "btn_match_review")
            if len(games) == 1:  # the seed must give a match of several games
                raise AssertionError("one game decided the match")
            assert label in [x for row in final.button_labels() for x in row]
            mark = tg.mark()
            await tg.tap_button(group, bob, label, message_id=final.message_id)
            call = await tg.wait_for(
                lambda c: c.method == "sendMessage" and "Разбор матча" in str(c.params["text"]),
                chat_id=group,
                since=mark,
                timeout=180,
            )
            text = tg.messages[group.id][call.result["message_id"]].text or ""
            assert run.app.reviews.computed == len(games)
            assert "Алиса <b>&</b>" in text and "Bob" in text and "счёт" in text
            assert "за матч" in text and "По партиям:" in text
            for n, row in enumerate(games, start=1):
                assert f"{n}. №{row.game_id}:" in text
            mark = tg.mark()
            await type_and_wait(tg, group, alice, f"/review матч {games[0].game_id}")
            again = [x for x in _texts_since(tg, group, mark, "sendMessage") if "Разбор матча" in x]
            assert again == [call.params["text"]] and run.app.reviews.computed == len(games)
            tg.save_transcript(tmp_path / "match-review-transcript.txt", group)
