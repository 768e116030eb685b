"""The game service end to end on real SQLite: who may act, decide → commit, refusals as an
enum, hints by one rule, current names, and a Telegram update that acts once."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path

import pytest

import storage
from engine import Options, Phase, Reason
from gameplay import (
    Actor,
    ChatKind,
    Commit,
    GameService,
    Place,
    PlayText,
    Refusal,
    Refused,
    RematchOffer,
    Resign,
    Roll,
    Step,
    Take,
    Undo,
)
from tests.gameplay.conftest import ANNA, BORIS, GROUP, World, mover, waiter

ROOT = Path(__file__).resolve().parents[2]


def first_step(world_snap) -> Step:
    step = world_snap.game.legal_steps()[0]
    return Step(step.src, step.dst)


def test_the_game_layer_imports_no_aiogram() -> None:
    """gameplay/ is importable where aiogram is not (it must never need Telegram)."""
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('aiogram', 'aiohttp', 'bot'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import pkgutil, importlib, gameplay\n"
        "for m in pkgutil.iter_modules(gameplay.__path__):\n"
        "    importlib.import_module('gameplay.' + m.name)\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


async def test_only_the_mover_acts_and_refusals_say_why(world: World) -> None:
    snap = await world.group_game()
    stranger = Actor(99, "Зевака")
    for who, version, refusal in (
        (stranger, snap.version, Refusal.NOT_A_PLAYER),
        (waiter(snap), snap.version, Refusal.NOT_YOUR_TURN),
        (mover(snap), snap.version - 1, Refusal.OUTDATED),
    ):
        with pytest.raises(Refused) as caught:
            await world.games.decide(who, first_step(snap), game_id=snap.game_id, version=version)
        assert caught.value.refusal is refusal
    # a rules refusal carries the engine's reason (and so the rule ids the bot cites)
    head = 24
    with pytest.raises(Refused) as caught:
        await world.games.act(mover(snap), Step(head, head - 30), game_id=snap.game_id)
    assert caught.value.refusal is Refusal.ILLEGAL
    assert caught.value.reason is not None and caught.value.rule_ids
    with pytest.raises(Refused) as caught:
        await world.games.act(mover(snap), PlayText("24/x"), game_id=snap.game_id)
    assert caught.value.refusal is Refusal.BAD_NOTATION
    with pytest.raises(Refused) as caught:
        await world.games.act(mover(snap), Undo(), game_id=snap.game_id)
    assert caught.value.refusal is Refusal.NOTHING_TO_UNDO
    # nothing above changed the game
    assert (await world.games.load(snap.game_id, fresh=True)).version == snap.version


async def test_a_decision_holds_the_game_until_it_is_committed(world: World) -> None:
    """A double tap: the second waits for the first's save, then its board is outdated."""
    snap = await world.group_game()
    first = await world.games.decide(
        mover(snap), first_step(snap), game_id=snap.game_id, version=snap.version
    )
    second = asyncio.ensure_future(
        world.games.decide(
            mover(snap), first_step(snap), game_id=snap.game_id, version=snap.version
        )
    )
    await asyncio.sleep(0)
    assert not second.done()
    outcome = await world.games.commit(first)
    assert outcome.snap is not None and outcome.snap.version == snap.version + 1
    with pytest.raises(Refused) as caught:
        await second
    assert caught.value.refusal is Refusal.OUTDATED
    with pytest.raises(RuntimeError):
        await world.games.commit(first)  # a decision is committed once


async def test_a_refused_decision_leaves_the_game_free(world: World) -> None:
    snap = await world.group_game()
    with pytest.raises(Refused):
        await world.games.decide(waiter(snap), first_step(snap), game_id=snap.game_id)
    assert not world.games.lock(snap.game_id).locked()
    outcome = await world.games.act(mover(snap), first_step(snap), game_id=snap.game_id)
    assert outcome.snap is not None


async def test_resigning_is_allowed_out_of_turn(world: World) -> None:
    snap = await world.group_game()
    outcome = await world.games.act(waiter(snap), Resign(), game_id=snap.game_id)
    assert outcome.snap is not None and not outcome.snap.active
    assert outcome.snap.finished is not None
    with pytest.raises(Refused) as caught:
        await world.games.act(mover(snap), Resign(), game_id=snap.game_id)
    assert caught.value.refusal is Refusal.GAME_OVER


async def test_a_whole_turn_by_steps_then_done(world: World) -> None:
    snap = await world.group_game()
    who = mover(snap)
    while snap.game.phase is Phase.MOVE and not snap.game.turn.is_complete():
        outcome = await world.games.act(who, first_step(snap), game_id=snap.game_id)
        assert outcome.snap is not None
        snap = outcome.snap
    outcome = await world.games.act(who, Commit(), game_id=snap.game_id)
    assert outcome.snap is not None
    assert mover(outcome.snap) != who
    moves = await world.store.get_moves(snap.game_id)
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))


async def test_a_renamed_player_is_shown_by_the_name_they_act_with(world: World) -> None:
    snap = await world.group_game()
    seat = snap.seat_of_user(mover(snap).user_id)
    assert seat is not None
    renamed = Actor(mover(snap).user_id, "Переименованный")
    outcome = await world.games.act(renamed, first_step(snap), game_id=snap.game_id)
    assert outcome.snap is not None
    assert outcome.snap.names[seat] == "Переименованный"
    assert (await world.store.get_user(renamed.user_id)).display_name == "Переименованный"
    # and a new service (a restart) reads the new name from storage
    again = GameService(world.store, rng=random.Random(1))
    assert (await again.load(snap.game_id)).names[seat] == "Переименованный"


async def test_hints_follow_one_rule_for_the_button_and_the_command(world: World) -> None:
    """A group's hints switch decides both ``snap.hints`` (the Hint button) and
    ``GameService.hints`` (the /hint command); games with the computer always allow them."""
    snap = await world.group_game()
    who = mover(snap)
    assert snap.game.phase is Phase.MOVE
    assert not snap.hints
    with pytest.raises(Refused) as caught:
        await world.games.hints(who, snap)
    assert caught.value.refusal is Refusal.HINTS_OFF

    defaults = await world.games.chats.defaults(GROUP.chat_id)
    from dataclasses import replace

    await world.games.chats.save_defaults(
        GROUP.chat_id, "supergroup", replace(defaults, hints=True)
    )
    snap = await world.games.load(snap.game_id)
    assert snap.hints
    hints = await world.games.hints(who, snap)
    assert hints.plays and hints.dice == snap.game.dice
    with pytest.raises(Refused) as caught:
        await world.games.hints(waiter(snap), snap)
    assert caught.value.refusal is Refusal.NO_HINT_NOW

    private = Place(ANNA.user_id, 0, ChatKind.PRIVATE)
    vs_ai = await world.games.start_vs_computer(ANNA, private, "short", "easy", Options())
    assert vs_ai.hints and vs_ai.ai_seat is not None
    assert vs_ai.ai_seat not in vs_ai.names  # the bot words the computer's name


async def test_a_redelivered_update_saves_once_even_after_a_restart(world: World) -> None:
    snap = await world.group_game()
    who = mover(snap)
    step = first_step(snap)
    outcome = await world.games.act(
        who, PlayText(f"{step.src}/{step.dst}"), game_id=snap.game_id, update_id=777
    )
    assert outcome.snap is not None
    saved = outcome.snap.version
    # a new process on the same file gets the same update again
    second = await storage.open_storage(world.path)
    try:
        again = GameService(second, rng=random.Random(2))
        replay = await again.load(snap.game_id)
        step2 = first_step(replay)
        outcome = await again.act(
            who, PlayText(f"{step2.src}/{step2.dst}"), game_id=snap.game_id, update_id=777
        )
        assert outcome.duplicate
        assert (await again.load(snap.game_id, fresh=True)).version == saved
        assert not await again.claim_update(777)
    finally:
        await second.close()


async def test_invitations_accept_once_and_only_by_whom_they_allow(world: World) -> None:
    lobby = world.lobby
    own = await lobby.invite(ANNA, GROUP, variant="short")
    with pytest.raises(Refused) as caught:
        await lobby.accept(own.token, ANNA)
    assert caught.value.refusal is Refusal.INVITE_OWN
    with pytest.raises(Refused) as caught:
        await lobby.cancel(own.token, BORIS)
    assert caught.value.refusal in (Refusal.CANCEL_ONLY_INVITER, Refusal.INVITE_NOT_FOR_YOU)
    assert await lobby.cancel_mine(ANNA, GROUP) == 1
    with pytest.raises(Refused) as caught:
        await lobby.accept(own.token, BORIS)
    assert caught.value.refusal is Refusal.INVITE_CLOSED
    with pytest.raises(Refused) as caught:
        await lobby.accept("no-such-token", BORIS)
    assert caught.value.refusal is Refusal.INVITE_UNKNOWN

    carol = Actor(33, "Carol")
    challenge = await lobby.invite(ANNA, GROUP, variant="long", invitee=BORIS)
    with pytest.raises(Refused) as caught:
        await lobby.accept(challenge.token, carol)
    assert caught.value.refusal is Refusal.INVITE_NOT_FOR_YOU
    snap = await lobby.accept(challenge.token, BORIS)
    assert set(snap.user_ids.values()) == {ANNA.user_id, BORIS.user_id}
    another = await lobby.invite(carol, GROUP, variant="long")
    with pytest.raises(Refused) as caught:
        await lobby.accept(another.token, BORIS)
    assert caught.value.refusal is Refusal.GAME_EXISTS


async def test_a_link_invitation_plays_in_the_inviters_private_chat(world: World) -> None:
    private = Place(ANNA.user_id, 0, ChatKind.PRIVATE)
    link = await world.lobby.invite(ANNA, private, variant="long")
    assert link.chat_id is None
    snap = await world.lobby.accept(link.token, BORIS)
    assert snap.row.chat_id == ANNA.user_id
    assert (await world.store.get_chat(ANNA.user_id)).chat_type is storage.ChatType.PRIVATE
    found = await world.games.find_for_chat(private, ANNA.user_id)
    assert found is not None and found.game_id == snap.game_id


async def test_rolling_and_the_cube_are_typed_actions(world: World) -> None:
    """With the cube on, a turn starts in ROLL: Roll is the mover's action, not the other's."""
    invitation = await world.lobby.invite(ANNA, GROUP, variant="short", options=Options(cube=True))
    snap = await world.lobby.accept(invitation.token, BORIS)
    # play the opening turn so that the next one starts with a roll (or a double)
    while snap.game.phase is Phase.MOVE:
        who = mover(snap)
        while not snap.game.turn.is_complete():
            outcome = await world.games.act(who, first_step(snap), game_id=snap.game_id)
            assert outcome.snap is not None
            snap = outcome.snap
        outcome = await world.games.act(who, Commit(), game_id=snap.game_id)
        assert outcome.snap is not None
        snap = outcome.snap
    assert snap.game.phase is Phase.ROLL
    with pytest.raises(Refused) as caught:
        await world.games.act(waiter(snap), Roll(), game_id=snap.game_id)
    assert caught.value.refusal is Refusal.NOT_YOUR_TURN
    # the engine's precise order-of-play reasons reach the bot as such, not as "not your turn"
    for action, refusal in (
        (Step(24, 18), Refusal.NO_DICE_YET),
        (PlayText("24/18"), Refusal.NO_DICE_YET),
        (Take(), Refusal.WRONG_PHASE),
    ):
        with pytest.raises(Refused) as caught:
            await world.games.act(mover(snap), action, game_id=snap.game_id)
        assert caught.value.refusal is refusal, action
    outcome = await world.games.act(mover(snap), Roll(), game_id=snap.game_id)
    assert outcome.snap is not None
    assert outcome.snap.events and outcome.snap.events[0].kind == "roll"


def test_reason_is_the_engines() -> None:
    """Refused keeps the engine's reason, so the bot can cite RULES.md ids."""
    refused = Refused(Refusal.ILLEGAL, reason=Reason.HEAD)
    assert refused.rule_ids == Reason.HEAD.rule_ids
    assert Refused(Refusal.OUTDATED).rule_ids == ()


async def test_a_rematch_between_people_waits_for_the_other_to_accept(world: World) -> None:
    snap = await world.group_game()
    done = await world.games.act(mover(snap), Resign(), game_id=snap.game_id)
    assert done.snap is not None and not done.snap.active
    offer = await world.lobby.rematch(ANNA, snap.game_id)
    assert isinstance(offer, RematchOffer)
    assert offer.invitee.user_id == BORIS.user_id and offer.place == GROUP
    assert await world.store.get_active_game(GROUP.chat_id) is None  # nothing started yet
    with pytest.raises(Refused) as caught:
        await world.lobby.accept(offer.invitation.token, Actor(33, "Carol"))
    assert caught.value.refusal is Refusal.INVITE_NOT_FOR_YOU
    again = await world.lobby.accept(offer.invitation.token, BORIS)
    assert again.active and again.match.variant_name == snap.match.variant_name
    with pytest.raises(Refused) as caught:
        await world.lobby.rematch(ANNA, again.game_id)
    assert caught.value.refusal is Refusal.GAME_EXISTS


async def test_a_rematch_of_a_link_game_is_asked_in_the_others_private_chat(world: World) -> None:
    link = await world.lobby.invite(ANNA, Place(ANNA.user_id, 0, ChatKind.PRIVATE), variant="long")
    snap = await world.lobby.accept(link.token, BORIS)
    await world.games.act(ANNA, Resign(), game_id=snap.game_id)
    offer = await world.lobby.rematch(ANNA, snap.game_id)
    assert isinstance(offer, RematchOffer)
    assert offer.place == Place(BORIS.user_id, 0, ChatKind.PRIVATE)
    assert offer.invitation.chat_id is None  # a link again: shown in both private chats
    declined = await world.lobby.decline(offer.invitation.token, BORIS)
    assert declined.state is storage.InvitationState.DECLINED


async def test_the_computer_accepts_a_rematch_at_once(world: World) -> None:
    private = Place(ANNA.user_id, 0, ChatKind.PRIVATE)
    snap = await world.games.start_vs_computer(ANNA, private, "long", "easy", Options())
    await world.games.act(ANNA, Resign(), game_id=snap.game_id)
    again = await world.lobby.rematch(ANNA, snap.game_id)
    assert not isinstance(again, RematchOffer)
    assert again.active and again.ai_seat is not None
