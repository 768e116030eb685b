"""Inline challenges in the game layer: invitations reused while the sender types, never
after a card was posted; a card naming a username; a game that lives in an inline message
(it does not hold the sender's private chat, its match goes on in the same message)."""

from __future__ import annotations

import dataclasses

import pytest

import storage
from engine import Options
from gameplay import Actor, Refusal, Refused, Resign
from gameplay.inline import REUSE_SECONDS, InlineChallenges, Offer
from tests.gameplay.conftest import ANNA, BORIS, GROUP, World

CARD = "AgAAAHcard0000001"
CAROL = Actor(33, "Carol", "carol_x")
NAMED_BORIS = dataclasses.replace(BORIS, username="Boris_B")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_offers_are_reused_while_typing_and_never_after_posting(world: World) -> None:
    clock = Clock()
    challenges = InlineChallenges(world.lobby, clock=clock)
    short = Offer("short", 3, Options(cube=False))
    first = await challenges.offer(ANNA, short)
    again = await challenges.offer(ANNA, short)
    assert again.token == first.token and challenges.created == 1
    other = await challenges.offer(ANNA, Offer("short", 3))  # the cube by default: another
    assert other.token != first.token
    named = await challenges.offer(ANNA, short, invitee_username="boris_b")
    assert named.token != first.token and named.invitee_username == "boris_b"
    challenges.posted(ANNA.user_id, short, None)
    posted_again = await challenges.offer(ANNA, short)
    assert posted_again.token != first.token
    clock.now += REUSE_SECONDS + 1
    later = await challenges.offer(ANNA, short)
    assert later.token != posted_again.token
    assert later.dice_seed_id is not None and later.chat_id is None


async def test_a_named_card_is_accepted_only_by_that_username(world: World) -> None:
    challenges = InlineChallenges(world.lobby)
    inv = await challenges.offer(ANNA, Offer("long"), invitee_username="boris_b")
    with pytest.raises(Refused) as own:
        await world.lobby.accept(inv.token, ANNA, inline_message_id=CARD)
    assert own.value.refusal is Refusal.INVITE_OWN
    with pytest.raises(Refused) as stranger:
        await world.lobby.accept(inv.token, CAROL, inline_message_id=CARD)
    assert stranger.value.refusal is Refusal.INVITE_NOT_FOR_YOU
    snap = await world.lobby.accept(inv.token, NAMED_BORIS, inline_message_id=CARD)
    assert snap.row.inline_message_id == CARD
    assert snap.row.chat_id == ANNA.user_id  # its home: the sender's private chat
    assert (await world.games.find_inline(CARD)).game_id == snap.game_id


async def test_inline_games_leave_the_private_chat_free_and_are_listed(world: World) -> None:
    challenges = InlineChallenges(world.lobby)
    first = await challenges.offer(ANNA, Offer("long"))
    second = await challenges.offer(ANNA, Offer("short"))
    one = await world.lobby.accept(first.token, BORIS, inline_message_id=CARD)
    two = await world.lobby.accept(second.token, CAROL, inline_message_id="AgAAAHcard2")
    listed = await world.games.inline_games(ANNA.user_id)
    assert {s.game_id for s in listed} == {one.game_id, two.game_id}
    assert [s.game_id for s in await world.games.inline_games(BORIS.user_id)] == [one.game_id]
    # A group lobby's token cannot be turned into an inline game.
    lobby = await world.lobby.invite(ANNA, GROUP, variant="long")
    with pytest.raises(Refused):
        await world.lobby.accept(lobby.token, BORIS, inline_message_id="AgAAAHcard3")


async def test_a_lost_inline_message_is_reported_once(world: World) -> None:
    assert await world.games.inline_lost(CARD) is False
    assert await world.games.lose_inline(CARD) is True
    assert await world.games.lose_inline(CARD) is False
    assert await world.games.inline_lost(CARD) is True
    assert await world.store.inline_message_lost(CARD) is True


async def test_the_next_game_of_a_match_stays_in_the_inline_message(world: World) -> None:
    inv = await InlineChallenges(world.lobby).offer(ANNA, Offer("long", 3))
    snap = await world.lobby.accept(inv.token, BORIS, inline_message_id=CARD)
    decision = await world.games.decide(ANNA, Resign(), game_id=snap.game_id)
    outcome = await world.games.commit(decision)
    assert outcome.snap is not None and outcome.snap.next_game is not None
    nxt = outcome.snap.next_game
    assert nxt.row.inline_message_id == CARD
    assert nxt.row.status is storage.GameStatus.ACTIVE
    assert (await world.games.find_inline(CARD)).game_id == nxt.game_id
