"""What a picker tap waits for (issue #12, latency): the tap is answered before anything is
drawn, and the next mover's picker picture is drawn while they are still thinking, so their
first tap only sends it."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import Act
from engine import Phase
from tests.bot.harness import (
    TOKEN,
    active_match,
    current_board,
    game_buttons,
    live_picker,
    running_bot,
    surface,
    tap_and_wait,
    tap_message_and_wait,
)
from tests.bot.test_e2e_picker import GROUP, meet, rest_of_turn, start_game
from tests.fake_telegram import FakeTelegram


def counting_draws(painter) -> list[object]:
    """Count the boards the drawing process is asked for (the real drawing still runs)."""
    drawn: list[object] = []
    draw = painter.draw

    async def counted(position, options):
        drawn.append(options)
        return await draw(position, options)

    painter.draw = counted
    return drawn


async def test_the_move_tap_is_answered_before_its_picker_is_drawn(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)
        async with running_bot(tg, tmp_path / "a.sqlite3", seed=5) as run:
            await start_game(w, "long")
            snap = await active_match(run.app, GROUP, w.alice.id)
            assert snap is not None and snap.game.phase is Phase.MOVE
            mover = w.players[snap.user_ids[snap.game.seat_to_act]]
            board = current_board(tg, w.group)
            opener = next(d for _, cb, d in game_buttons(board) if cb.a is Act.OPEN)
            mark = tg.mark()
            qid = await tap_and_wait(tg, w.group, board.message_id, mover, opener)
            calls = [c for c in tg.calls(chat_id=GROUP) if c.seq >= mark]
            answer = next(
                c.seq
                for c in calls
                if c.method == "answerCallbackQuery" and c.params["callback_query_id"] == qid
            )
            picker = next(c.seq for c in calls if c.method == "sendPhoto" and c.is_ephemeral)
            assert answer < picker
            assert live_picker(tg, w.group, mover) is not None


async def test_the_next_movers_picker_is_drawn_while_they_think(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)
        async with running_bot(tg, tmp_path / "b.sqlite3", seed=5) as run:
            await start_game(w, "long")
            drawn = counting_draws(run.app.shows.boards.painter)
            snap = await active_match(run.app, GROUP, w.alice.id)
            assert snap is not None
            mover = w.players[snap.user_ids[snap.game.seat_to_act]]
            board = current_board(tg, w.group)
            opener = next(d for _, cb, d in game_buttons(board) if cb.a is Act.OPEN)
            await tap_and_wait(tg, w.group, board.message_id, mover, opener)
            picker = surface(tg, w.group, mover)
            # The whole play typed as steps would take several taps; Done after them commits.
            snap = await active_match(run.app, GROUP, w.alice.id)
            assert snap is not None
            await tg.send_text(w.group, mover, f"/m {rest_of_turn(snap.game)}")
            await tg.wait_idle(quiet=0.2, timeout=30)
            picker = live_picker(tg, w.group, mover)
            if picker is not None:  # typed steps wait for Done
                done = next(d for _, cb, d in game_buttons(picker) if cb.a is Act.DONE)
                await tap_message_and_wait(tg, w.group, picker, mover, done, visible=False)
                await tg.wait_idle(quiet=0.2, timeout=30)
            after = await active_match(run.app, GROUP, w.alice.id)
            assert after is not None and after.game.phase is Phase.MOVE
            nxt = w.players[after.user_ids[after.game.seat_to_act]]
            assert nxt is not mover
            before = len(drawn)
            board = current_board(tg, w.group)
            opener = next(d for _, cb, d in game_buttons(board) if cb.a is Act.OPEN)
            await tap_and_wait(tg, w.group, board.message_id, nxt, opener)
            assert live_picker(tg, w.group, nxt) is not None
            assert len(drawn) == before  # drawn already, after the previous play
