"""A match's next game after a crash: the worker that finished game 1 died before showing
anything (the finish, with game 2 stored in its transaction, was saved); the tap is delivered
again to a new process, which sends game 2's first board. A long-nardy match to 3 (resigning
at the start is a mars, 2 points). Real bot, real SQLite, fake Telegram over HTTP; groups on
the board's own buttons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.callbacks import Act
from tests.bot.harness import TOKEN, active_match, board_messages, game_buttons, running_bot
from tests.bot.test_e2e_robustness import start_group_game
from tests.fake_telegram import FakeTelegram


class Killed(Exception):
    """The worker died after saving, before it showed the result."""


async def test_a_finish_redelivered_after_a_crash_shows_the_next_game(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite3"
    async with FakeTelegram(token=TOKEN) as tg:
        async with running_bot(tg, db, group_picker=False) as run:
            group, alice, _ = await start_group_game(tg, "long 3")
            first = await active_match(run.app, group.id, alice.id)
            assert first is not None and first.match.length == 3
            mark = tg.mark()
            await tg.send_text(group, alice, "/resign")
            await tg.wait_for("sendMessage", chat_id=group, since=mark, timeout=30)
            await tg.wait_settled(timeout=30)
            confirm = tg.last_bot_message_seen_by(group, alice)
            yes = next(d for _, cb, d in game_buttons(confirm) if cb.a is Act.RESIGN_YES)

            async def killed(*args: Any, **kwargs: Any) -> None:
                raise Killed

            run.app.shows.update = killed  # type: ignore[method-assign]
            await tg.tap(group, confirm.message_id, alice, yes, check_button=False)
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
