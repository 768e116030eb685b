"""The tap path through the real bot: claims, redeliveries across a restart, hints, current
names. Real aiogram dispatch, real SQLite, the fake Bot API server over HTTP.

Groups here play on the board's own buttons (``group_picker=False``, the fallback of
issue #12): these tests are about taps in place; the private picker has its own tests in
``test_e2e_picker.py``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot.callbacks import Act
from bot.presenter import dice_text
from bot.texts import t
from engine import Phase
from tests.bot.harness import (
    TOKEN,
    a_pick,
    active_match,
    current_board,
    game_buttons,
    running_bot,
    tap_and_wait,
    type_and_wait,
)
from tests.bot.test_e2e_robustness import mover_and_other, start_group_game
from tests.fake_telegram import FakeTelegram


async def test_a_pick_tap_claims_nothing_and_a_move_claims_in_its_save(tmp_path: Path) -> None:
    """The commonest taps write no separate claim: a pick changes nothing, a step claims its
    update in the same transaction as the save."""
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        group, alice, bob = await start_group_game(tg)
        mover, _ = await mover_and_other(run, group, alice, bob)
        board = current_board(tg, group)
        pick = a_pick(board)
        mark = max(tg._update_archive)
        await tap_and_wait(tg, group, board.message_id, mover, pick, check_button=False)
        pick_update = max(tg._update_archive)
        assert pick_update > mark
        assert await run.app.games.claim_update(pick_update)  # it was not claimed
        board = current_board(tg, group)
        move = next(data for _, cb, data in game_buttons(board) if cb.a is Act.MOVE)
        await tap_and_wait(tg, group, board.message_id, mover, move)
        move_update = max(tg._update_archive)
        assert not await run.app.games.claim_update(move_update)  # claimed by the save


async def test_redelivered_updates_after_a_restart_act_once(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite3"
    async with FakeTelegram(token=TOKEN) as tg:
        async with running_bot(tg, db, group_picker=False) as run:
            group, alice, bob = await start_group_game(tg)
            mover, _ = await mover_and_other(run, group, alice, bob)
            snap = await active_match(run.app, group.id, alice.id)
            step = snap.game.legal_steps()[0]
            await type_and_wait(tg, group, mover, f"/move {step.src}/{step.dst or 'off'}")
            typed = max(tg._update_archive)
            board = current_board(tg, group)
            pick = a_pick(board)
            await tap_and_wait(tg, group, board.message_id, mover, pick, check_button=False)
            picked = max(tg._update_archive)
            await type_and_wait(tg, group, alice, "/help")
            helped = max(tg._update_archive)
            version = (await active_match(run.app, group.id, alice.id)).row.version
            sent = len([m for m in tg.messages[group.id].values() if m.from_bot])
        # a new bot process on the same database gets the three updates again
        async with running_bot(tg, db, group_picker=False) as run:
            mark = tg.mark()
            for update_id in (typed, picked, helped):
                await tg.redeliver(update_id)
            await tg.wait_idle(quiet=0.1, timeout=30)  # every update confirmed, then quiet
            after = await active_match(run.app, group.id, alice.id)
            assert after.row.version == version  # the typed move did not apply twice
            # no second /help, no reply to the move: nothing new in the chat
            assert len([m for m in tg.messages[group.id].values() if m.from_bot]) == sent
            # the pick at most showed the same destinations again
            sends = [c for c in tg.calls() if c.seq > mark and c.method.startswith("send")]
            assert sends == []


async def test_a_group_with_hints_on_gets_the_button_and_the_command(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        alice = tg.user(301, "Алиса")
        bob = tg.user(302, "Боб")
        group = tg.group(-3001, "Клуб", admins=[alice])
        await tg.wait_idle()
        await type_and_wait(tg, group, alice, "/settings")
        screen = tg.last_bot_message(group)
        hint_switch = next(
            b["callback_data"]
            for row in screen.buttons()
            for b in row
            if "💡" in b["text"] or "одсказ" in b["text"]
        )
        await tap_and_wait(tg, group, screen.message_id, alice, hint_switch, visible=False)
        assert (await run.app.games.chats.defaults(group.id)).hints
        await type_and_wait(tg, group, alice, "/new long")
        mark = tg.mark()
        await tg.tap_button(group, bob, "✋ Присоединиться")
        await tg.wait_for("sendPhoto", chat_id=group, since=mark, timeout=30)
        await tg.wait_idle(quiet=0.1)
        snap = await active_match(run.app, group.id, alice.id)
        assert snap.game.phase is Phase.MOVE
        acts = {cb.a for _, cb, _ in game_buttons(current_board(tg, group))}
        assert Act.HINT in acts
        mover, other = await mover_and_other(run, group, alice, bob)
        await type_and_wait(tg, group, mover, "/hint")
        title = t("ru", "hint_title", dice=dice_text(snap.game.dice or ()))
        assert (tg.last_bot_message_seen_by(group, mover).text or "").startswith(title)
        await type_and_wait(tg, group, other, "/hint")  # not their turn: no hint to give
        assert tg.last_bot_message_seen_by(group, other).text == t("ru", "hint_none")


async def test_a_renamed_player_is_shown_renamed(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as tg,
        running_bot(tg, tmp_path / "b.sqlite3", group_picker=False) as run,
    ):
        group, alice, bob = await start_group_game(tg)
        mover, _ = await mover_and_other(run, group, alice, bob)
        renamed = tg.user(mover.id, "Новое Имя")
        assert renamed == replace(mover, first_name="Новое Имя")
        board = current_board(tg, group)
        pick = a_pick(board)
        await tap_and_wait(tg, group, board.message_id, renamed, pick, check_button=False)
        assert "Новое Имя" in (current_board(tg, group).caption or "")
