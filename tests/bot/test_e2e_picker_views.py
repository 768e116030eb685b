"""Someone who is not moving taps the group's board (issue #12 item 2): a short answer, and a
private view of their own — the board from their side (the waiting player) or as the mover
sees it (a spectator), with the rules one tap away — never a change to the game, never a
half-made play, and closed once the move is made."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import Act
from bot.texts import t
from engine import Phase
from tests.bot.harness import (
    TOKEN,
    active_match,
    current_board,
    game_buttons,
    running_bot,
    surface,
    tap_and_wait,
    tap_message_and_wait,
)
from tests.bot.test_e2e_games import TRANSCRIPTS
from tests.bot.test_e2e_picker import GROUP, HALF_MADE, meet, one_step, public_calls, start_game
from tests.bot.test_e2e_picker_speed import counting_draws
from tests.fake_telegram import FakeTelegram


async def test_the_waiting_player_and_a_spectator_get_a_private_view(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)
        async with running_bot(tg, tmp_path / "v.sqlite3", seed=5) as run:
            await start_game(w, "long")
            snap = await active_match(run.app, GROUP, w.alice.id)
            assert snap is not None and snap.game.phase is Phase.MOVE
            mover = w.players[snap.user_ids[snap.game.seat_to_act]]
            waiting = w.bob if mover is w.alice else w.alice
            board = current_board(tg, w.group)
            opener = next(d for _, cb, d in game_buttons(board) if cb.a is Act.OPEN)
            await tap_and_wait(tg, w.group, board.message_id, mover, opener)
            await one_step(w, mover)  # a half-made play that nobody else may see
            drawn = counting_draws(run.app.shows.boards.painter)
            mark = tg.mark()
            version = snap.version
            qids = [
                await tap_and_wait(tg, w.group, board.message_id, who, opener, visible=False)
                for who in (waiting, w.carol, waiting)  # the waiting player twice
            ]
            for who in (waiting, w.carol):  # each view is drawn and sent after the answer
                await tg.wait_for(
                    lambda c, who=who: (
                        c.method == "sendPhoto"
                        and c.is_ephemeral
                        and c.params["ephemeral_message_parameters"]["receiver_user_id"] == who.id
                    ),
                    chat_id=w.group,
                    since=mark,
                    timeout=30,
                )
            await tg.wait_idle(quiet=0.2, timeout=30)
            assert public_calls(tg, mark) == []
            game = snap.game
            assert [o.viewer for o in drawn] == [  # the waiting player's side, the mover's
                game.side_of(snap.seat_of_user(waiting.id)),
                game.side_of(game.seat_to_act),
            ]
            answers = [tg.callback_answers[q].text for q in qids]
            assert t(waiting.language_code, "not_your_turn") in answers
            mover_name = mover.first_name
            assert t("ru", "picker_spectator", name=mover_name) in answers
            views = {u.id: tg.ephemeral_messages(GROUP, u) for u in (waiting, w.carol)}
            assert len(views[waiting.id]) == 1  # one view a turn, however often tapped
            assert len(views[w.carol.id]) == 1
            for user, (view,) in ((waiting, views[waiting.id]), (w.carol, views[w.carol.id])):
                caption = view.caption or ""
                assert view.media_kind == "photo" and view.replaces is None
                assert not any(h in caption for h in HALF_MADE), caption
                lang = user.language_code
                assert (
                    t(
                        lang,
                        "view_waiting" if user is waiting else "view_spectator",
                        name=mover_name,
                    )
                    in caption
                )
                labels = [b["text"] for row in view.buttons() for b in row]
                assert labels == [t(lang, "btn_view_rules")]
            after = await active_match(run.app, GROUP, w.alice.id)
            assert after is not None and len(after.game.steps) == 1  # nothing changed
            # The spectator opens the rules from the view: the view becomes the menu, privately.
            mark = tg.mark()
            (view,) = views[w.carol.id]
            menu = next(b["callback_data"] for row in view.buttons() for b in row)
            await tap_message_and_wait(tg, w.group, view, w.carol, menu, visible=False)
            await tg.wait_for("sendPhoto", chat_id=w.group, since=mark, timeout=30)
            await tg.wait_idle(quiet=0.2, timeout=30)
            assert public_calls(tg, mark) == []
            same, rules = tg.ephemeral_messages(GROUP, w.carol)  # the view, and the rules apart
            assert same.ephemeral_message_id == view.ephemeral_message_id
            assert t("ru", "rules_btn_general") in str(rules.buttons())
            # The move is made: the waiting player's view closes (it would be outdated).
            picker = surface(tg, w.group, mover)
            while True:
                acts = {cb.a: d for _, cb, d in game_buttons(picker)}
                if Act.DONE in acts:
                    await tap_message_and_wait(
                        tg, w.group, picker, mover, acts[Act.DONE], visible=False
                    )
                    break
                await one_step(w, mover)
                picker = surface(tg, w.group, mover)
            await tg.wait_for(
                lambda c: (
                    c.method == "deleteEphemeralMessage"
                    and c.params.get("receiver_user_id") == waiting.id
                ),
                chat_id=w.group,
                since=mark,
                timeout=30,
            )
            await tg.wait_idle(quiet=0.2, timeout=30)
            assert tg.ephemeral_messages(GROUP, waiting) == []
            assert tg.ephemeral_messages(GROUP, w.carol) == [rules]  # the rules stay
            done = await active_match(run.app, GROUP, w.alice.id)
            assert done is not None and done.version > version
        for name, viewer in (("waiting", waiting), ("spectator", w.carol), ("mover", mover)):
            out = TRANSCRIPTS / f"group_picker_views_{name}.txt"
            out.write_text(tg.transcript(GROUP, viewer=viewer), encoding="utf-8")
