"""The bot on PostgreSQL (``DATABASE_URL``): a group game played by buttons to its end, through
the real Dispatcher and the fake Bot API server, with the move log and statistics checked in the
database afterwards."""

from __future__ import annotations

import random

from storage import GameStatus
from tests.bot.harness import current_board, running_bot, type_and_wait
from tests.bot.test_e2e_games import drive_game
from tests.fake_telegram import FakeTelegram


async def test_a_group_game_to_the_end_on_postgresql(postgres_url: str) -> None:
    async with FakeTelegram(token="123456789:AAHfakeTokenForTheNardyBotTests_x9") as tg:
        alice = tg.user(101, "Алиса", language_code="ru")
        bob = tg.user(102, "Bob", language_code="en")
        group = tg.group(-1001, "Нарды клуб", admins=[alice])
        async with running_bot(tg, postgres_url, seed=3) as run:
            await tg.wait_idle()
            await type_and_wait(tg, group, alice, "/new long")
            mark = tg.mark()
            await tg.tap_button(group, bob, "✋ Присоединиться")
            await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.1)
            await drive_game(
                tg,
                run.app,
                {-1001: group},
                {101: alice, 102: bob},
                game_chat=-1001,
                rng=random.Random(5),
            )
            assert "🏆" in (current_board(tg, group).caption or "")
            store = run.app.store
            assert type(store).__name__ == "PostgresStorage"
            (game,) = await store.list_user_games(101)
            assert game.status is GameStatus.FINISHED and game.result is not None
            log = await store.get_moves(game.game_id)
            assert [m.seq for m in log] == list(range(1, game.move_count + 1))
            assert game.move_count > 20
            winner, loser = (101, 102) if game.winner_user_id == 101 else (102, 101)
            assert (await store.get_user_stats(winner, "long")).wins == 1
            assert (await store.get_user_stats(loser, "long")).losses == 1
            assert (await store.get_rating(winner, "long")).games == 1
