"""A match's next game after a crash: the worker that finished game 1 died before showing
anything (the finish, with game 2 stored in its transaction, was saved); the tap is delivered
again to a new process, which sends game 2's first board. Taps on game 1's board bring game 2's
first board, once: in one process (the sole writer) when it was never sent, and with several
workers (PostgreSQL) not a second time while it is being sent. A long-nardy match to 3 (resigning
at the start is a mars, 2 points). Real bot, real SQLite, fake Telegram over HTTP; groups on
the board's own buttons."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import App, build
from bot.callbacks import Act
from bot.config import Settings
from bot.outbox import Outbox
from gameplay.service import stored_result
from tests.bot.harness import (
    TOKEN,
    Running,
    active_match,
    board_messages,
    current_board,
    game_buttons,
    live_picker,
    running_bot,
    tap_message_and_wait,
)
from tests.bot.test_e2e_robustness import start_group_game
from tests.fake_telegram import FakeChat, FakeTelegram, FakeUser


class Killed(Exception):
    """The worker died after saving, before it showed the result."""


async def resign_button(tg: FakeTelegram, group: FakeChat, user: FakeUser) -> tuple[int, str]:
    """``user`` sends /resign: the confirmation's message id and its "yes" (the tap that
    finishes the game)."""
    mark = tg.mark()
    await tg.send_text(group, user, "/resign")
    await tg.wait_for("sendMessage", chat_id=group, since=mark, timeout=30)
    await tg.wait_settled(timeout=30)
    confirm = tg.last_bot_message_seen_by(group, user)
    yes = next(d for _, cb, d in game_buttons(confirm) if cb.a is Act.RESIGN_YES)
    return confirm.message_id, yes


async def test_a_finish_redelivered_after_a_crash_shows_the_next_game(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite3"
    async with FakeTelegram(token=TOKEN) as tg:
        async with running_bot(tg, db, group_picker=False) as run:
            group, alice, _ = await start_group_game(tg, "long 3")
            first = await active_match(run.app, group.id, alice.id)
            assert first is not None and first.match.length == 3
            confirm, yes = await resign_button(tg, group, alice)

            async def killed(*args: Any, **kwargs: Any) -> None:
                raise Killed

            run.app.shows.update = killed  # type: ignore[method-assign]
            await tg.tap(group, confirm, alice, yes, check_button=False)
            await tg.wait_settled(timeout=30)
            tapped = max(tg._update_archive)
            second = await active_match(run.app, group.id, alice.id)
            assert second is not None and second.game_id != first.game_id
            assert second.match.game_number == 2
            assert not await run.app.shows.boards.targets(second.game_id)  # never shown
            boards_before = len(board_messages(tg, group))
        async with running_bot(tg, db, group_picker=False) as run:
            mark = tg.mark()
            await tg.redeliver(tapped)
            await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
            await tg.wait_settled(timeout=30)
            # game 2's first board was sent to the group, once, and is its stored board
            photos = [c for c in tg.calls("sendPhoto", group) if c.seq > mark]
            assert len(photos) == 1
            assert len(board_messages(tg, group)) == boards_before + 1
            targets = await run.app.shows.boards.targets(second.game_id)
            assert [t.chat_id for t, _ in targets] == [group.id]
            # a second redelivery sends nothing more
            mark = tg.mark()
            await tg.redeliver(tapped)
            await tg.wait_settled(timeout=30)
            assert [c for c in tg.calls("sendPhoto", group) if c.seq > mark] == []
            assert (await active_match(run.app, group.id, alice.id)).game_id == second.game_id


async def _stale_tap(run: Running, group: FakeChat, alice: FakeUser, bob: FakeUser):
    """Who moves first, and the data of a button of theirs on game 1's first board (which a
    client that has not yet received the board's later edits still shows)."""
    snap = await active_match(run.app, group.id, alice.id)
    assert snap is not None
    mover = alice if snap.user_ids[snap.game.seat_to_act] == alice.id else bob
    board = current_board(run.tg, group)
    (_, _, data), *_ = game_buttons(board)
    return snap, mover, board.message_id, data


async def _until_game(run: Running, group: FakeChat, alice: FakeUser, number: int) -> Any:
    for _ in range(500):  # bounded: 10 s
        snap = await active_match(run.app, group.id, alice.id)
        if snap is not None and snap.match.game_number == number:
            return snap
        await asyncio.sleep(0.02)
    raise AssertionError(f"game {number} of the match was never stored")


@pytest.mark.parametrize("slow_part", ["next board", "finish board"])
async def test_a_stale_tap_while_the_next_game_is_being_sent_sends_it_once(
    postgres_url: str, slow_part: str
) -> None:
    """Several-worker mode: a stale tap on game 1 shows the game as stored, game 2 included.
    Bob taps his old button just as Alice's resignation is being shown — game 2's first board
    being drawn and uploaded, or still game 1's finished board before it (a loaded machine):
    the tap must not send game 2's board a second time."""
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, postgres_url, group_picker=False) as run,
    ):
        assert not run.app.shows.boards.sole_writer
        group, alice, bob = await start_group_game(tg, "long 3")
        first, mover, board_id, stale = await _stale_tap(run, group, alice, bob)
        shows = run.app.shows
        if slow_part == "next board":
            show_new = shows.show_new

            async def slow_new(*args: Any, **kwargs: Any) -> None:
                await asyncio.sleep(0.5)  # drawing and uploading game 2's first board
                await show_new(*args, **kwargs)

            shows.show_new = slow_new  # type: ignore[method-assign]
        else:
            board = shows.board
            finish_drawn: list[bool] = []

            async def slow_board(snap: Any, *args: Any, **kwargs: Any) -> Any:
                if snap.game_id == first.game_id and not snap.active and not finish_drawn:
                    finish_drawn.append(True)
                    await asyncio.sleep(1.0)  # the finishing update's own board of game 1
                return await board(snap, *args, **kwargs)

            shows.board = slow_board  # type: ignore[method-assign]
        resigner = bob if mover is alice else alice
        mark = tg.mark()
        confirm, yes = await resign_button(tg, group, resigner)
        await tg.tap(group, confirm, resigner, yes, check_button=False)
        second = await _until_game(run, group, alice, 2)
        await tg.tap(group, board_id, mover, stale, check_button=False)
        await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
        await tg.wait_settled(timeout=30)
        photos = [c for c in tg.calls("sendPhoto", group) if c.seq > mark]
        assert len(photos) == 1, [c.seq for c in photos]
        targets = await shows.boards.targets(second.game_id)
        assert [t.chat_id for t, _ in targets] == [group.id]
        assert second.game_id != first.game_id


async def test_a_tap_on_game_ones_board_brings_a_next_board_never_sent(tmp_path: Path) -> None:
    """One process (SQLite): showing the finish failed after it was saved (game 2 stored with
    it) and the update is not delivered again (a poller confirms updates as it fetches the
    next ones). A player taps game 1's board, still showing the game in play: refused as over,
    and game 2's first board is sent — else the match waits for a board nobody has."""
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        assert run.app.shows.boards.sole_writer
        group, alice, bob = await start_group_game(tg, "long 3")
        first, mover, board_id, stale = await _stale_tap(run, group, alice, bob)
        shows = run.app.shows
        update = shows.update

        async def failed(*args: Any, **kwargs: Any) -> None:
            raise Killed

        shows.update = failed  # type: ignore[method-assign]
        confirm, yes = await resign_button(tg, group, alice)
        await tg.tap(group, confirm, alice, yes, check_button=False)
        await tg.wait_settled(timeout=30)
        second = await _until_game(run, group, alice, 2)
        assert not await shows.boards.targets(second.game_id)  # never shown
        shows.update = update  # type: ignore[method-assign]
        mark = tg.mark()
        await tg.tap(group, board_id, mover, stale)
        await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
        await tg.wait_settled(timeout=30)
        assert len([c for c in tg.calls("sendPhoto", group) if c.seq > mark]) == 1
        targets = await shows.boards.targets(second.game_id)
        assert [t.chat_id for t, _ in targets] == [group.id]
        assert second.game_id != first.game_id
        # a second tap on it sends nothing more
        mark = tg.mark()
        await tg.tap(group, board_id, mover, stale, check_button=False)
        await tg.wait_settled(timeout=30)
        assert [c for c in tg.calls("sendPhoto", group) if c.seq > mark] == []


async def test_a_tap_in_a_picker_of_a_game_found_over_brings_a_next_board(
    tmp_path: Path,
) -> None:
    """As above with the mover's private picker open (the group plays by pickers): showing
    the finish failed, so the picker was never closed; the mover's tap in it is refused as
    over, the picker closes and game 2's first board is sent to the group."""
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3") as run,
    ):
        group, alice, bob = await start_group_game(tg, "long 3")
        _, mover, _, _ = await _stale_tap(run, group, alice, bob)
        board = current_board(tg, group)
        opening = next(d for _, cb, d in game_buttons(board) if cb.a is Act.OPEN)
        await tap_message_and_wait(tg, group, board, mover, opening)
        picker = live_picker(tg, group, mover)
        assert picker is not None
        step = next(d for _, cb, d in game_buttons(picker) if cb.a in (Act.MOVE, Act.PICK))
        shows = run.app.shows
        update = shows.update

        async def failed(*args: Any, **kwargs: Any) -> None:
            raise Killed

        shows.update = failed  # type: ignore[method-assign]
        resigner = bob if mover is alice else alice
        confirm, yes = await resign_button(tg, group, resigner)
        await tg.tap(group, confirm, resigner, yes, check_button=False)
        await tg.wait_settled(timeout=30)
        second = await _until_game(run, group, alice, 2)
        assert not await shows.boards.targets(second.game_id)
        shows.update = update  # type: ignore[method-assign]
        mark = tg.mark()
        await tg.tap_ephemeral(group, mover, step)
        await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
        await tg.wait_settled(timeout=30)
        assert len([c for c in tg.calls("sendPhoto", group) if c.seq > mark]) == 1
        assert [t.chat_id for t, _ in await shows.boards.targets(second.game_id)] == [group.id]
        assert live_picker(tg, group, mover) is None


async def _resigned_with_a_stale_button(
    run: Running, group: FakeChat, alice: FakeUser, bob: FakeUser
) -> tuple[Any, FakeUser, int, str, str]:
    """The player not to move resigns a one-game match: game 1, the mover, the board's id,
    the mover's old button on it, and the finished board's caption (with the ratings)."""
    tg = run.tg
    first, mover, board_id, stale = await _stale_tap(run, group, alice, bob)
    resigner = bob if mover is alice else alice
    mark = tg.mark()
    confirm, yes = await resign_button(tg, group, resigner)
    await tg.tap(group, confirm, resigner, yes, check_button=False)
    await tg.wait_for("editMessageMedia", chat_id=group, since=mark, timeout=30)
    await tg.wait_settled(timeout=30)
    final = tg.messages[group.id][board_id].caption
    assert final is not None and "Рейтинг:" in final
    return first, mover, board_id, stale, final


async def test_a_stale_tap_leaves_the_finish_as_its_tap_showed_it(tmp_path: Path) -> None:
    """One process: after a game ends (the board says the rating changes), the other
    player's tap on his old button is refused as over and changes no board: this process
    showed every change it saved."""
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        group, alice, bob = await start_group_game(tg, "long")
        _, mover, board_id, stale, final = await _resigned_with_a_stale_button(
            run, group, alice, bob
        )
        mark = tg.mark()
        await tg.tap(group, board_id, mover, stale, check_button=False)
        await tg.wait_settled(timeout=30)
        assert [c.method for c in tg.calls(None, group) if c.seq > mark] == ["answerCallbackQuery"]
        assert tg.messages[group.id][board_id].caption == final


async def test_a_match_the_old_code_left_stuck_goes_on_at_a_tap(tmp_path: Path) -> None:
    """A match stuck by the code before session 8 (game 1's finish written, the worker dead
    before its second write, game 2): the players' tap on game 1's board, refused as over,
    starts game 2 and sends its first board."""
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        group, alice, bob = await start_group_game(tg, "long 3")
        first, mover, board_id, stale = await _stale_tap(run, group, alice, bob)
        match = first.match.copy()
        match.current.resign(first.game.seat_to_act)
        match.record_result()
        await run.app.store.finish_game(  # the old code's first write, and nothing after it
            first.game_id, first.version, match.to_json(), stored_result(match.current)
        )
        run.app.games.cache.forget(first.game_id)
        assert await active_match(run.app, group.id, alice.id) is None
        mark = tg.mark()
        await tg.tap(group, board_id, mover, stale)
        await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
        await tg.wait_settled(timeout=30)
        second = await active_match(run.app, group.id, alice.id)
        assert second is not None and second.match.game_number == 2
        assert [t.chat_id for t, _ in await run.app.shows.boards.targets(second.game_id)] == [
            group.id
        ]
        assert len([c for c in tg.calls("sendPhoto", group) if c.seq > mark]) == 1


@pytest.mark.parametrize("where", ["sqlite", "postgresql"])
async def test_a_finish_drawn_again_from_storage_keeps_its_ratings_line(
    tmp_path: Path, postgres_url: str, where: str
) -> None:
    """A board drawn again from the stored game after the finish — the finishing tap
    delivered again to another process (its worker may have died before showing it), or
    with several workers a stale tap (which brings the board up to date as stored) — says
    the rating changes as the finishing tap did: they are stored with the finish. Until
    session 10 such a board lost the ratings line."""
    db = postgres_url if where == "postgresql" else tmp_path / "b.sqlite3"
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, db, group_picker=False) as run,
    ):
        group, alice, bob = await start_group_game(tg, "long")
        first, mover, board_id, stale, final = await _resigned_with_a_stale_button(
            run, group, alice, bob
        )
        # what the finishing tap's redelivery to a new process does (its worker died)
        await run.app.shows.show_stored(first.game_id)
        await tg.wait_settled(timeout=30)
        assert tg.messages[group.id][board_id].caption == final
        if where == "postgresql":
            assert not run.app.shows.boards.sole_writer
            await tg.tap(group, board_id, mover, stale, check_button=False)
            await tg.wait_settled(timeout=30)
            assert tg.messages[group.id][board_id].caption == final


@contextlib.asynccontextmanager
async def second_worker(tg: FakeTelegram, url: str) -> AsyncIterator[App]:
    """Another worker of the deployment on the same database, not polling: the test hands
    it what a balancer would (here: showing a game as stored, as a stale tap makes it)."""
    settings = Settings(  # type: ignore[call-arg]
        BOT_TOKEN=TOKEN, TELEGRAM_API_BASE=tg.base_url, GROUP_PICKER=False, DATABASE_URL=url
    )
    fast = Outbox(private=(1000, 1000), group_send=(1000, 1.0), group_edit=(1000, 1000))
    app = await build(settings, rng=random.Random(2), outbox=fast)
    try:
        yield app
    finally:
        await app.close()


@pytest.mark.parametrize("first", ["finishing worker", "other worker"])
async def test_two_workers_showing_one_finish_send_the_next_board_once(
    postgres_url: str, first: str
) -> None:
    """Several workers: one saves the finish of game 1 and shows it; at the same moment
    another shows game 1 as stored (a stale tap on its board reached it). Whichever gets to
    game 2's first board first sends it, and the other sends none — else the group gets an
    extra picture (until session 10: one process kept the other from it, not two)."""
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, postgres_url, group_picker=False) as run,
        second_worker(tg, postgres_url) as other,
    ):
        group, alice, bob = await start_group_game(tg, "long 3")
        game1, mover, _, _ = await _stale_tap(run, group, alice, bob)
        shows = run.app.shows
        reached, go_on = asyncio.Event(), asyncio.Event()
        if first == "finishing worker":  # it is sending game 2's board when the other shows
            show_new = shows.show_new

            async def paused_new(*args: Any, **kwargs: Any) -> None:
                reached.set()
                await go_on.wait()
                await show_new(*args, **kwargs)

            shows.show_new = paused_new  # type: ignore[method-assign]
        else:  # it is still drawing game 1's finished board when the other shows
            board = shows.board

            async def paused_board(snap: Any, *args: Any, **kwargs: Any) -> Any:
                if snap.game_id == game1.game_id and not snap.active and not reached.is_set():
                    reached.set()
                    await go_on.wait()
                return await board(snap, *args, **kwargs)

            shows.board = paused_board  # type: ignore[method-assign]
        resigner = bob if mover is alice else alice
        mark = tg.mark()
        confirm, yes = await resign_button(tg, group, resigner)
        await tg.tap(group, confirm, resigner, yes, check_button=False)
        await asyncio.wait_for(reached.wait(), 30)
        await other.shows.show_stored(game1.game_id)
        go_on.set()
        await tg.wait_settled(timeout=30)
        game2 = await _until_game(run, group, alice, 2)
        photos = [c for c in tg.calls("sendPhoto", group) if c.seq > mark]
        assert len(photos) == 1, [c.seq for c in photos]
        targets = await shows.boards.targets(game2.game_id)
        assert [t.chat_id for t, _ in targets] == [group.id]
        assert current_board(tg, group).message_id == targets[0][1]
