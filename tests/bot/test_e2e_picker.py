"""Group play through private pickers (issue #12), end to end: the real bot (aiogram Bot and
Dispatcher, SQLite, the drawing process) against the fake Bot API server with ephemeral
messages.

What a group sees is checked after every single tap: a tap that enters part of a turn (open
the picker, pick a point, a step, undo, the way) makes no call the group can see, and a tap
that commits (Done, a whole play, a cube answer) edits the shared board exactly once. The
spectator's and the waiting player's transcripts never show a half-made play.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.callbacks import Act, GameCB
from bot.texts import localized_notation, t
from engine import Phase, format_steps
from gameplay import whole_plays
from tests.bot.harness import (
    TOKEN,
    a_group,
    active_match,
    current_board,
    game_buttons,
    live_picker,
    running_bot,
    start_group_game,
    surface,
    tap_and_wait,
    tap_message_and_wait,
    type_and_wait,
)
from tests.fake_telegram import Call, FakeChat, FakeTelegram, FakeUser

GROUP = -4242
COMMITS = frozenset({Act.DONE, Act.PLAY, Act.TAKE, Act.DROP, Act.DOUBLE})
HALF_MADE = (t("ru", "cap_steps", play=""), t("en", "cap_steps", play=""))


@dataclass
class World:
    tg: FakeTelegram
    group: FakeChat
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser  # watches, never plays

    @property
    def players(self) -> dict[int, FakeUser]:
        return {self.alice.id: self.alice, self.bob.id: self.bob}


@dataclass
class Tally:
    """What a scripted game cost: taps per turn by the kind of roll, and the group's calls."""

    taps: list[tuple[bool, int]] = field(default_factory=list)  # (doubles?, taps)
    commits: int = 0
    fallbacks: int = 0


def meet(tg: FakeTelegram) -> World:
    alice = tg.user(501, "Алиса", language_code="ru")
    bob = tg.user(502, "Bob", language_code="en")
    carol = tg.user(503, "Карина", language_code="ru")
    return World(tg, a_group(tg, GROUP, "Клуб", alice, bob, carol), alice, bob, carol)


async def start_game(w: World, variant: str) -> None:
    await start_group_game(w.tg, w.group, w.alice, w.bob, variant)


def public_calls(tg: FakeTelegram, mark: int) -> list[Call]:
    """Sends and edits since ``mark`` that the whole group sees (not ephemeral ones; deleting
    the previous "your move" notice shows nothing new)."""
    return [
        c
        for c in tg.calls(chat_id=GROUP)
        if c.seq >= mark and c.ok and not c.is_ephemeral and c.method.startswith(("send", "edit"))
    ]


async def play_out(
    w: World,
    run,
    rng: random.Random,
    *,
    strict: bool = True,
    max_actions: int = 4000,
    commits: int | None = None,
) -> Tally:
    """Play the group's game to its end (or until ``commits`` turns were committed) through
    the pickers (or, where Telegram does not deliver them, the board's buttons), checking
    after each tap what the group saw."""
    tg = w.tg
    tally = Tally()
    taps = 0
    board_id = current_board(tg, w.group).message_id
    for _ in range(max_actions):
        snap = await active_match(run.app, GROUP, w.alice.id)
        if snap is None or snap.game.phase is Phase.OVER:
            return tally
        if commits is not None and tally.commits >= commits:
            return tally
        game = snap.game
        uid = snap.user_ids[game.seat_to_act]
        user = w.players[uid]
        where = surface(tg, w.group, user)
        buttons = game_buttons(where)
        acts = {cb.a: d for _, cb, d in buttons}
        doubles = game.dice is not None and game.dice[0] == game.dice[1]
        if Act.TAKE in acts:
            choice = acts[Act.TAKE]
        elif Act.ROLL in acts:
            choice = acts[Act.ROLL]
        elif Act.OPEN in acts:
            choice = acts[Act.OPEN]
        else:
            steps = [d for _, cb, d in buttons if cb.a in (Act.PICK, Act.MOVE)]
            plays = [d for _, cb, d in buttons if cb.a is Act.PLAY]
            if Act.DONE in acts and (not steps or rng.random() < 0.7):
                choice = acts[Act.DONE]
            elif plays and (not steps or rng.random() < 0.8):
                choice = acts[Act.WAY] if rng.random() < 0.1 else rng.choice(plays)
            elif Act.WAY in acts and rng.random() < 0.3:
                choice = acts[Act.WAY]
            elif Act.UNDO in acts and rng.random() < 0.05:
                choice = acts[Act.UNDO]
            else:
                assert steps, f"nothing to tap: {where.button_labels()} / {where.caption}"
                choice = rng.choice(steps)
        act = GameCB.unpack(choice).a
        mark = tg.mark()
        commit = act in COMMITS
        qid = await tap_message_and_wait(tg, w.group, where, user, choice, visible=not commit)
        if commit:  # the shared board is drawn and edited after the tap is answered
            await tg.wait_for(
                lambda c: (
                    c.method.startswith("edit")
                    and c.params.get("message_id") == board_id
                    and not c.is_ephemeral
                ),
                chat_id=w.group,
                since=mark,
                timeout=30,
            )
            await tg.wait_idle(quiet=0.1, timeout=30)
        taps += 1
        answer = tg.callback_answers[qid].text or ""
        if answer in (t("ru", "picker_fallback"), t("en", "picker_fallback")):
            tally.fallbacks += 1
        seen = public_calls(tg, mark)
        board_edits = [
            c for c in seen if c.method.startswith("edit") and c.params["message_id"] == board_id
        ]
        if act in COMMITS:
            tally.commits += 1
            tally.taps.append((doubles, taps))
            taps = 0
            if strict:
                assert len(board_edits) == 1, (act, answer, [c.method for c in seen])
            assert len(seen) <= 2, [c.method for c in seen]  # the edit and a "your move"
        elif strict and act is not Act.ROLL:
            assert seen == [], f"{act} showed the group {[c.method for c in seen]}"
        if strict:
            caption = tg.messages[GROUP][board_id].caption or ""
            assert not any(h in caption for h in HALF_MADE), caption
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize(("variant", "seed"), [("long", 11), ("short", 12)])
async def test_a_whole_group_game_through_pickers(tmp_path: Path, variant: str, seed: int) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)
        async with running_bot(tg, tmp_path / "b.sqlite3", seed=seed) as run:
            await start_game(w, variant)
            tally = await play_out(w, run, random.Random(seed))
            final = current_board(tg, w.group)
            assert "🏆" in (final.caption or "")
            assert tally.commits > 10 and tally.fallbacks == 0
            # the spectator saw only the shared board: no picker, no half-made play
            assert all(not m.is_ephemeral for m in tg.visible_messages(GROUP, w.carol))
            assert tg.ephemerals[GROUP] and not tg.ephemeral_messages(GROUP, w.carol)
            for viewer in (w.carol, w.alice, w.bob):
                seen = tg.transcript(GROUP, viewer=viewer)
                others = {w.alice.first_name, w.bob.first_name} - {viewer.first_name}
                assert not any(f"→ {name} only" in seen for name in others)
            spectator = tg.transcript(GROUP, viewer=w.carol)
            assert not any(h in spectator for h in HALF_MADE)
            # every picker closed with its turn
            assert not tg.ephemeral_messages(GROUP, w.alice)
            assert not tg.ephemeral_messages(GROUP, w.bob)
            for user in (w.alice, w.bob):
                path = tmp_path / f"group_{variant}_{user.first_name}.txt"
                tg.save_transcript(path, GROUP)
            from tests.bot.test_e2e_games import TRANSCRIPTS

            for name, viewer in (("spectator", w.carol), ("alice", w.alice), ("bob", w.bob)):
                out = TRANSCRIPTS / f"group_picker_{variant}_{name}.txt"
                out.write_text(tg.transcript(GROUP, viewer=viewer), encoding="utf-8")


@pytest.mark.parametrize("trouble", ["refuse", "drop"])
async def test_the_game_goes_on_to_its_end_when_pickers_are_refused_or_dropped(
    tmp_path: Path, trouble: str
) -> None:
    """Alice's pickers refused (or silently dropped) by Telegram: her turns go to the board's
    own buttons, Bob's through his pickers. Refused: the game is played to its end; dropped:
    twenty turns, then she resigns on the board (the fallback after a drop is the same)."""
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)
        tg.set_ephemeral_delivery(w.alice, trouble)
        async with running_bot(tg, tmp_path / "b.sqlite3", seed=21) as run:
            await start_game(w, "long")
            turns = None if trouble == "refuse" else 20
            tally = await play_out(w, run, random.Random(21), strict=False, commits=turns)
            if turns is not None:
                assert tally.commits == turns
                await type_and_wait(tg, w.group, w.alice, "/resign")
                confirm = tg.last_bot_message(w.group)
                yes = next(d for _, cb, d in game_buttons(confirm) if cb.a is Act.RESIGN_YES)
                await tap_and_wait(tg, w.group, confirm.message_id, w.alice, yes)
            assert "🏆" in (current_board(tg, w.group).caption or "")
            if trouble == "refuse":  # the tap is answered first: the board's buttons appear
                refused = [
                    c
                    for c in tg.calls("sendPhoto", chat_id=GROUP)
                    if not c.ok
                    and c.params.get("ephemeral_message_parameters", {}).get("receiver_user_id")
                    == w.alice.id
                ]
                assert refused  # Alice's turns went to the board's own buttons
            else:
                assert tally.fallbacks > 0  # Alice's turns went to the board's own buttons
            assert tg.ephemeral_messages(GROUP, w.bob, live_only=False)  # Bob's pickers worked
            if trouble == "drop":  # a dropped picker is sent once more before falling back
                sends = [
                    c
                    for c in tg.calls("sendPhoto", chat_id=GROUP)
                    if c.ok
                    and c.params.get("ephemeral_message_parameters", {}).get("receiver_user_id")
                    == w.alice.id
                ]
                assert len(sends) == 2 * tally.fallbacks


async def open_picker(w: World, run) -> tuple[FakeUser, FakeUser]:
    """The mover opens their picker: (mover, the other player)."""
    snap = await active_match(run.app, GROUP, w.alice.id)
    assert snap is not None and snap.game.phase is Phase.MOVE
    mover = w.players[snap.user_ids[snap.game.seat_to_act]]
    other = w.bob if mover is w.alice else w.alice
    board = current_board(w.tg, w.group)
    opener = next(d for _, cb, d in game_buttons(board) if cb.a is Act.OPEN)
    await tap_and_wait(w.tg, w.group, board.message_id, mover, opener)
    assert live_picker(w.tg, w.group, mover) is not None
    return mover, other


async def one_step(w: World, mover: FakeUser) -> None:
    picker = surface(w.tg, w.group, mover)
    acts = {cb.a: d for _, cb, d in game_buttons(picker)}
    if Act.MOVE in acts:
        await tap_message_and_wait(w.tg, w.group, picker, mover, acts[Act.MOVE])
        return
    await tap_message_and_wait(w.tg, w.group, picker, mover, acts[Act.PICK])
    picker = surface(w.tg, w.group, mover)
    move = next(d for _, cb, d in game_buttons(picker) if cb.a is Act.MOVE)
    await tap_message_and_wait(w.tg, w.group, picker, mover, move)


def rest_of_turn(game) -> str:
    """The steps that complete the turn entered so far into one of its legal plays."""
    entered = [(s.src, s.dst, s.die) for s in game.steps]
    for play in game.turn.legal_plays:
        rest = list(play.steps)
        for src, dst, die in entered:
            match = [s for s in rest if (s.src, s.dst, s.die) == (src, dst, die)]
            if not match:
                break
            rest.remove(match[0])
        else:
            return format_steps(rest)
    raise AssertionError("no legal play continues the steps entered")


async def test_a_restart_with_an_open_picker_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite3"
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)
        async with running_bot(tg, db, seed=5) as run:
            await start_game(w, "long")
            mover, _ = await open_picker(w, run)
            await one_step(w, mover)
            before = await active_match(run.app, GROUP, w.alice.id)
            assert before is not None and len(before.game.steps) == 1
        board_id = current_board(tg, w.group).message_id
        edits_before = tg.messages[GROUP][board_id].edits
        async with running_bot(tg, db, seed=5) as run:
            # the same picker, still on the mover's screen, goes on where it was
            after = await active_match(run.app, GROUP, w.alice.id)
            assert after is not None and after.game.steps == before.game.steps
            for _ in range(6):
                picker = live_picker(tg, w.group, mover)
                assert picker is not None
                acts = {cb.a: d for _, cb, d in game_buttons(picker)}
                if Act.DONE in acts:
                    await tap_message_and_wait(tg, w.group, picker, mover, acts[Act.DONE])
                    break
                await one_step(w, mover)
            assert live_picker(tg, w.group, mover) is None  # closed with the turn
            assert tg.messages[GROUP][board_id].edits == edits_before + 1
            done = await active_match(run.app, GROUP, w.alice.id)
            assert done is not None and done.user_ids[done.game.seat_to_act] != mover.id


async def test_stale_picker_buttons_change_nothing(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)
        async with running_bot(tg, tmp_path / "b.sqlite3", seed=5) as run:
            await start_game(w, "long")
            mover, _ = await open_picker(w, run)
            picker = live_picker(tg, w.group, mover)
            assert picker is not None and picker.ephemeral_message_id is not None
            old = [d for _, cb, d in game_buttons(picker) if cb.a in (Act.MOVE, Act.PICK)]
            await one_step(w, mover)
            version = (await active_match(run.app, GROUP, w.alice.id)).row.version
            mark = tg.mark()
            qid = await tg.tap_ephemeral(
                GROUP,
                mover,
                old[-1],
                ephemeral_message_id=picker.ephemeral_message_id,
                check_button=False,
            )
            await tg.wait_idle(quiet=0.2)
            assert tg.callback_answers[qid].text == t("en" if mover is w.bob else "ru", "outdated")
            assert (await active_match(run.app, GROUP, w.alice.id)).row.version == version
            assert public_calls(tg, mark) == []
            # the turn ends (typed in the group): the open picker closes; a client that still
            # shows it gets "outdated" for its buttons and nothing changes
            snap = await active_match(run.app, GROUP, w.alice.id)
            await type_and_wait(tg, w.group, mover, "/move " + rest_of_turn(snap.game))
            await tg.wait_idle(quiet=0.2)
            assert live_picker(tg, w.group, mover) is None
            version = (await active_match(run.app, GROUP, w.alice.id)).row.version
            qid = await tg.tap_ephemeral(
                GROUP,
                mover,
                old[0],
                ephemeral_message_id=picker.ephemeral_message_id,
                check_button=False,
                stale_client=True,
            )
            await tg.wait_idle(quiet=0.2)
            assert tg.callback_answers[qid].text in (t("ru", "outdated"), t("en", "outdated"))
            assert (await active_match(run.app, GROUP, w.alice.id)).row.version == version


async def test_both_players_and_a_spectator_tapping_at_once(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)
        async with running_bot(tg, tmp_path / "b.sqlite3", seed=5) as run:
            await start_game(w, "long")
            mover, other = await open_picker(w, run)
            snap = await active_match(run.app, GROUP, w.alice.id)
            picker = live_picker(tg, w.group, mover)
            assert picker is not None
            step = next(d for _, cb, d in game_buttons(picker) if cb.a in (Act.MOVE, Act.PICK))
            board = current_board(tg, w.group)
            opener = next(d for _, cb, d in game_buttons(board) if cb.a is Act.OPEN)
            mark = tg.mark()
            queries = await asyncio.gather(
                tg.tap_ephemeral(
                    GROUP, mover, step, ephemeral_message_id=picker.ephemeral_message_id
                ),
                tg.tap(GROUP, board.message_id, other, opener),
                tg.tap(GROUP, board.message_id, w.carol, opener),
                tg.tap_ephemeral(
                    GROUP, mover, step, ephemeral_message_id=picker.ephemeral_message_id
                ),
            )
            await tg.wait_idle(quiet=0.3, timeout=30)
            assert all(q in tg.callback_answers for q in queries)
            other_lang = "en" if other is w.bob else "ru"
            assert tg.callback_answers[queries[1]].text == t(other_lang, "not_your_turn")
            name = mover.first_name
            assert tg.callback_answers[queries[2]].text == t("ru", "picker_spectator", name=name)
            after = await active_match(run.app, GROUP, w.alice.id)
            moved = GameCB.unpack(step).a is Act.MOVE
            assert after.row.version == snap.version + (1 if moved else 0)
            assert public_calls(tg, mark) == []  # nobody's tap showed the group anything
            for watcher in (other, w.carol):  # a private view at most, never a picker
                views = tg.ephemeral_messages(GROUP, watcher)
                assert len(views) <= 1
                for view in views:
                    assert game_buttons(view) == []  # no game buttons: the rules only
                    assert not any(h in (view.caption or "") for h in HALF_MADE)


async def test_whole_play_buttons_are_the_engines_legal_plays(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)
        async with running_bot(tg, tmp_path / "b.sqlite3", seed=5) as run:
            await start_game(w, "long")
            for _ in range(200):  # play on until a picker offers whole plays
                snap = await active_match(run.app, GROUP, w.alice.id)
                mover = w.players[snap.user_ids[snap.game.seat_to_act]]
                where = surface(tg, w.group, mover)
                acts = {cb.a: d for _, cb, d in game_buttons(where)}
                if Act.OPEN in acts:
                    await tap_and_wait(tg, w.group, where.message_id, mover, acts[Act.OPEN])
                    continue
                if Act.WAY in acts and not snap.game.steps:
                    break
                if Act.DONE in acts:
                    await tap_message_and_wait(tg, w.group, where, mover, acts[Act.DONE])
                    continue
                await one_step(w, mover)
            else:
                raise AssertionError("no roll with few plays came up")
            mark, shown = tg.mark(), where.file
            await tap_message_and_wait(tg, w.group, where, mover, acts[Act.WAY])
            picker = surface(tg, w.group, mover)
            # The way changes the buttons, not the picture: nothing is drawn or uploaded.
            assert [c.method for c in tg.calls(chat_id=w.group) if c.seq >= mark] == [
                "answerCallbackQuery",
                "editEphemeralMessageCaption",
            ]
            assert picker.file is shown and picker.photo_size == (800, 706)  # a picker's size
            lang = "en" if mover is w.bob else "ru"
            offered = {
                label: GameCB.unpack(d).s
                for label, cb, d in game_buttons(picker)
                if cb.a is Act.PLAY
            }
            game = snap.game
            legal = game.turn.legal_plays
            variant = game.variant
            distinct = {variant.position_key(p.result) for p in legal}
            assert 2 <= len(offered) == len(distinct) <= 6
            assert {variant.position_key(legal[i].result) for i in offered.values()} == distinct
            assert set(offered) == {
                localized_notation(lang, format_steps(p.steps)) for _, p in whole_plays(game)
            }
            assert await run.app.store.get_picker_way(mover.id) == "plays"  # remembered
            label, index = sorted(offered.items())[0]
            mark = tg.mark()
            await tap_message_and_wait(
                tg,
                w.group,
                picker,
                mover,
                next(d for text, cb, d in game_buttons(picker) if text == label),
            )
            after = await active_match(run.app, GROUP, w.alice.id)
            played = next(
                e
                for e in reversed(after.game.history)
                if e.kind == "move" and e.side is game.side_to_move
            )
            assert variant.position_key(legal[index].result) in distinct
            assert played.notation == format_steps(legal[index].steps)
            board_id = current_board(tg, w.group).message_id
            edits = [c for c in public_calls(tg, mark) if c.method.startswith("edit")]
            assert [c.params["message_id"] for c in edits] == [board_id]  # one tap, one edit


async def test_private_questions_in_a_group_are_answered_to_the_asker_only(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)
        async with running_bot(tg, tmp_path / "b.sqlite3"):
            await tg.wait_idle()
            in_groups = tg.commands[("all_group_chats", "ru")]
            marked = {c["command"] for c in in_groups if c.get("is_ephemeral")}
            assert marked == {"help", "hint", "stats", "rules", "why"}
            assert not any(c.get("is_ephemeral") for c in tg.commands[("default", "ru")])

            mark = tg.mark()
            await tg.send_text(w.group, w.carol, "/rules марс")
            await tg.wait_for(lambda c: c.method.startswith("send") and c.ok, since=mark)
            await tg.wait_idle(quiet=0.2)
            answer = tg.ephemeral(GROUP, w.carol)
            assert "арс" in (answer.caption or answer.text or "")
            assert public_calls(tg, mark) == []  # the group saw nothing
            for other in (w.alice, w.bob):
                assert not any(m.is_ephemeral for m in tg.visible_messages(GROUP, other))
            assert "арс" not in tg.transcript(GROUP, viewer=w.alice).split("/rules марс")[-1]

            # its buttons navigate the private answer itself, still privately
            button = next(b for row in answer.buttons() for b in row if "callback_data" in b)
            mark = tg.mark()
            await tg.tap_ephemeral(GROUP, w.carol, button["callback_data"])
            await tg.wait_for("answerCallbackQuery", since=mark)
            await tg.wait_idle(quiet=0.2)
            assert public_calls(tg, mark) == []
            assert all(c.ok for c in tg.calls(chat_id=GROUP) if c.seq >= mark)

            for command in ("/help", "/stats"):
                mark = tg.mark()
                await tg.send_text(w.group, w.alice, command)
                await tg.wait_for(lambda c: c.method.startswith("send") and c.ok, since=mark)
                await tg.wait_idle(quiet=0.1)
                assert public_calls(tg, mark) == [], command
            assert len(tg.ephemeral_messages(GROUP, w.alice)) == 2

            # an asker whose app cannot show it gets the answer in public instead
            tg.set_ephemeral_delivery(w.bob, "refuse")
            mark = tg.mark()
            await tg.send_text(w.group, w.bob, "/help")
            call = await tg.wait_for(
                lambda c: c.method == "sendMessage" and c.ok and not c.is_ephemeral, since=mark
            )
            assert call.params["text"].startswith(t("ru", "help")[:20])


async def test_an_expired_picker_is_opened_again_with_the_steps_made(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)
        async with running_bot(tg, tmp_path / "b.sqlite3", seed=5) as run:
            await start_game(w, "long")
            mover, _ = await open_picker(w, run)
            await one_step(w, mover)
            steps = (await active_match(run.app, GROUP, w.alice.id)).game.steps
            assert tg.expire_ephemeral(GROUP, mover) == 1
            assert live_picker(tg, w.group, mover) is None  # the board is back for them
            board = current_board(tg, w.group)
            opener = next(d for _, cb, d in game_buttons(board) if cb.a is Act.OPEN)
            mark = tg.mark()
            await tap_and_wait(tg, w.group, board.message_id, mover, opener)
            again = live_picker(tg, w.group, mover)
            assert again is not None
            lang = "en" if mover is w.bob else "ru"
            assert t(lang, "cap_steps", play="") in (again.caption or "")  # the step kept
            assert public_calls(tg, mark) == []
            after = await active_match(run.app, GROUP, w.alice.id)
            assert after.game.steps == steps


def _marks_forced(lang: str, caption: str) -> bool:
    return t(lang, "cap_forced") in caption or t(lang, "cap_forced_short") in caption


async def test_a_play_made_automatically_is_marked_in_the_picker_as_on_the_board(
    tmp_path: Path,
) -> None:
    """The group's board marks a play made for a player because it was their only one; the
    next mover's picker, opened from the stored game, shows that play marked too (and marks
    nothing the board does not). Plays are typed (/m), so the game reaches its bear-off,
    where forced plays are common, in few updates."""
    rng = random.Random(8)
    async with FakeTelegram(token=TOKEN) as tg:
        w = meet(tg)
        async with running_bot(tg, tmp_path / "b.sqlite3", seed=8) as run:
            await start_game(w, "long")
            marked = 0
            for _ in range(400):
                snap = await active_match(run.app, GROUP, w.alice.id)
                if snap is None or snap.game.phase is Phase.OVER:
                    break
                game = snap.game
                mover = w.players[snap.user_ids[game.seat_to_act]]
                board = current_board(tg, w.group)
                acts = {cb.a: d for _, cb, d in game_buttons(board)}
                await tap_and_wait(tg, w.group, board.message_id, mover, acts[Act.OPEN])
                picker = live_picker(tg, w.group, mover)
                assert picker is not None
                lang = "en" if mover is w.bob else "ru"
                on_board = _marks_forced("ru", board.caption or "")
                assert on_board == _marks_forced(lang, picker.caption or ""), (
                    board.caption,
                    picker.caption,
                )
                marked += on_board
                play = format_steps(rng.choice(game.turn.legal_plays).steps)
                await type_and_wait(tg, w.group, mover, f"/m {play}")
            else:
                raise AssertionError("the game did not finish")
            assert marked >= 2
