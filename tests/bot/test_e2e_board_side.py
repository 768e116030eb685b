"""The group's shared board keeps one orientation all game, and which one is the chat's
setting (issue #18 item 10): White at the bottom unless an administrator chose Black in
/settings; each player's picker is still drawn from their own side."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import Act
from bot.texts import t
from engine import Phase, Side
from tests.bot.harness import (
    TOKEN,
    active_match,
    current_board,
    game_buttons,
    running_bot,
    tap_and_wait,
    type_and_wait,
)
from tests.bot.test_e2e_picker import GROUP, meet, start_game
from tests.bot.test_e2e_picker_speed import counting_draws
from tests.fake_telegram import FakeTelegram


async def test_an_admin_puts_black_at_the_bottom_of_the_group_board(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)  # Alice is the group's administrator
        async with running_bot(tg, tmp_path / "s.sqlite3", seed=5) as run:
            await tg.wait_idle()
            await type_and_wait(tg, w.group, w.alice, "/settings")
            screen = tg.last_bot_message(w.group)
            white = t("ru", "set_btn_board", side=t("ru", "set_board_white"))
            black = t("ru", "set_btn_board", side=t("ru", "set_board_black"))
            assert white in [b["text"] for row in screen.buttons() for b in row]
            data = screen.button_by_label(white)["callback_data"]
            await tap_and_wait(tg, w.group, screen.message_id, w.alice, data)
            screen = tg.messages[GROUP][screen.message_id]
            assert black in [b["text"] for row in screen.buttons() for b in row]
            assert t("ru", "set_board_line", side=t("ru", "set_board_black")) in (screen.text or "")
            drawn = counting_draws(run.app.shows.boards.painter)
            await start_game(w, "long")
            assert [o.viewer for o in drawn] == [Side.BLACK]  # the group's first board
            snap = await active_match(run.app, GROUP, w.alice.id)
            assert snap is not None and snap.game.phase is Phase.MOVE
            seat = snap.game.seat_to_act
            mover = w.players[snap.user_ids[seat]]
            board = current_board(tg, w.group)
            opener = next(d for _, cb, d in game_buttons(board) if cb.a is Act.OPEN)
            await tap_and_wait(tg, w.group, board.message_id, mover, opener)
            assert drawn[-1].viewer == snap.game.side_of(seat)  # the picker: the mover's side
