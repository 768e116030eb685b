"""A private game between two people, read as each of them: what the mover's board says and
what the waiting player's board says (#18). Real bot, real SQLite, fake Telegram over HTTP."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path

from bot.callbacks import Act
from bot.texts import localized_notation, t
from engine import Phase, format_steps, get_variant
from engine.positionid import encode
from gameplay import Snapshot
from tests.bot.harness import (
    TOKEN,
    Running,
    active_match,
    current_board,
    game_buttons,
    make_a_step,
    running_bot,
    tap_and_wait,
    type_and_wait,
)
from tests.fake_telegram import FakeChat, FakeTelegram, FakeUser


@dataclass
class Pair:
    run: Running
    chats: dict[int, FakeChat]
    users: dict[int, FakeUser]

    async def snap(self) -> Snapshot:
        snap = await active_match(self.run.app, next(iter(self.chats)), next(iter(self.users)))
        assert snap is not None
        return snap

    async def mover(self) -> tuple[FakeUser, FakeChat, FakeChat]:
        """Who acts now, their chat and the waiting player's chat."""
        snap = await self.snap()
        seat = snap.game.seat_to_act
        assert seat is not None
        uid = snap.user_ids[seat]
        assert uid is not None
        other = next(u for u in self.users if u != uid)
        return self.users[uid], self.chats[uid], self.chats[other]


@contextlib.asynccontextmanager
async def private_game(tg: FakeTelegram, db: Path, *, seed: int = 1) -> AsyncIterator[Pair]:
    """Борис invites Вера by link to long nardy; both see the game in their private chats."""
    boris = tg.user(801, "Борис", language_code="ru")
    vera = tg.user(802, "Вера", language_code="ru")
    b_chat, v_chat = tg.private_chat(boris), tg.private_chat(vera)
    async with running_bot(tg, db, seed=seed) as run:
        await tg.wait_idle()
        await type_and_wait(tg, b_chat, boris, "/new")
        menu = tg.last_bot_message(b_chat)
        friend = menu.button_by_label(t("ru", "btn_invite_long"))
        assert friend is not None
        await tap_and_wait(tg, b_chat, menu.message_id, boris, friend["callback_data"])
        link = next(w for w in (tg.last_bot_message(b_chat).text or "").split() if "start=" in w)
        mark = tg.mark()
        await tg.send_text(v_chat, vera, f"/start {link.split('start=', 1)[1]}")
        await tg.wait_for("sendPhoto", chat_id=b_chat, since=mark, timeout=30)
        await tg.wait_for("sendPhoto", chat_id=v_chat, since=mark, timeout=30)
        await tg.wait_idle(quiet=0.1)
        yield Pair(run, {801: b_chat, 802: v_chat}, {801: boris, 802: vera})


async def roll_if_asked(tg: FakeTelegram, pair: Pair) -> None:
    snap = await pair.snap()
    if snap.game.phase is Phase.ROLL:
        user, chat, _ = await pair.mover()
        board = current_board(tg, chat)
        roll = next(d for _, cb, d in game_buttons(board) if cb.a is Act.ROLL)
        await tap_and_wait(tg, chat, board.message_id, user, roll)


async def enter_whole_turn_by_buttons(tg: FakeTelegram, pair: Pair) -> None:
    """The mover taps a source and a destination until the turn is complete (not Done)."""
    await roll_if_asked(tg, pair)
    user, chat, _ = await pair.mover()
    for _ in range(8):
        snap = await pair.snap()
        if snap.game.phase is not Phase.MOVE or snap.game.turn.is_complete():
            return
        await make_a_step(tg, chat, user)  # a point and its destination, or a one-tap point
    raise AssertionError("the turn did not complete")


async def play_whole_turn(tg: FakeTelegram, pair: Pair) -> tuple[FakeChat, FakeChat]:
    """The mover enters a whole turn and taps Done: (their chat, the other player's)."""
    await enter_whole_turn_by_buttons(tg, pair)
    user, mine, theirs = await pair.mover()
    board = current_board(tg, mine)
    done = next(d for _, cb, d in game_buttons(board) if cb.a is Act.DONE)
    await tap_and_wait(tg, mine, board.message_id, user, done)
    return mine, theirs


async def test_the_done_instruction_is_shown_to_the_mover_only(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as tg,
        private_game(tg, tmp_path / "bot.sqlite3") as pair,
    ):
        hint = t("ru", "cap_done_hint")
        for _ in range(2):  # two turns: each player is the mover once
            await enter_whole_turn_by_buttons(tg, pair)
            user, mine, theirs = await pair.mover()
            assert hint in (current_board(tg, mine).caption or "")
            assert hint not in (current_board(tg, theirs).caption or "")
            board = current_board(tg, mine)
            done = next(d for _, cb, d in game_buttons(board) if cb.a is Act.DONE)
            await tap_and_wait(tg, mine, board.message_id, user, done)


async def test_the_position_id_is_one_tap_away_not_in_the_caption(tmp_path: Path) -> None:
    """Each board, the waiting player's too, carries a button that copies the position ID;
    the caption no longer spells it out; the move log keeps it."""
    async with (
        FakeTelegram(token=TOKEN) as tg,
        private_game(tg, tmp_path / "bot.sqlite3") as pair,
    ):
        mine, theirs = await play_whole_turn(tg, pair)
        snap = await pair.snap()
        pid = encode(snap.game.current_position)
        for chat in (mine, theirs):
            board = current_board(tg, chat)
            assert pid not in (board.caption or "")
            copies = [
                button["copy_text"]["text"]
                for row in board.buttons()
                for button in row
                if "copy_text" in button
            ]
            assert copies == [pid], board.button_labels()
            assert t("ru", "btn_position_id") in board.button_labels()[-1]
        moves = await pair.run.app.games.store.get_moves(snap.game_id)
        assert moves and all(m.position_id for m in moves)


async def test_each_caption_writes_plays_in_its_pictures_numbers(tmp_path: Path) -> None:
    """Long nardy numbers each side's points from its own start: the waiting player's
    picture is drawn from their side, so the mover's play (in the mover's numbers, as the
    move log has it) is followed by the same play in that picture's numbers."""
    async with (
        FakeTelegram(token=TOKEN) as tg,
        private_game(tg, tmp_path / "bot.sqlite3") as pair,
    ):
        mine, theirs = await play_whole_turn(tg, pair)
        snap = await pair.snap()
        played = next(
            e for e in reversed(snap.game.history) if e.kind == "move" and e.side is not None
        )
        long = get_variant("long")
        theirs_steps = [
            replace(s, src=long.to_opponent_point(s.src), dst=long.to_opponent_point(s.dst))
            for s in played.steps
            if s.dst != 0
        ]
        assert len(theirs_steps) == len(played.steps)  # no bearing off on the first turn
        own = localized_notation("ru", played.notation)
        other = localized_notation("ru", format_steps(theirs_steps))
        assert own != other
        played_by = current_board(tg, mine).caption or ""  # the player who just played
        next_up = current_board(tg, theirs).caption or ""  # drawn from the other side
        assert f"· {own}" in played_by and f"{own} [" not in played_by, played_by
        # The mover's own numbers first (as the move log writes them), the picture's after.
        assert f"· {own} [{other}]" in next_up, next_up
        help_text = t("ru", "help")
        assert "в квадратных скобках" in help_text
