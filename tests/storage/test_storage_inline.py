"""Inline mode in storage: games played in inline messages (they do not hold their chat), the
lost-message flag that tells players once, and challenges that name a username."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from storage import ActiveGameExistsError, GameResult, NewInvitation, Storage
from tests.storage.conftest import ALICE, BORIS, CARMEN, PRIVATE, FakeClock, new_game

INLINE = "AgAAAKZcAQBM1hMHmOdyMVUqYMQ"


def inline_game(inline_message_id: str = INLINE, white: int = ALICE, black: int = BORIS):
    """A game in an inline message: its chat is the inviter's private chat."""
    return dataclasses.replace(
        new_game(white, black, chat_id=PRIVATE), inline_message_id=inline_message_id
    )


async def test_inline_games_do_not_hold_the_inviters_private_chat(people: Storage) -> None:
    at_home = await people.create_game(new_game(ALICE, None, chat_id=PRIVATE))
    first = await people.create_game(inline_game())
    second = await people.create_game(inline_game("AgAAAother", ALICE, CARMEN))
    assert first.inline_message_id == INLINE and second.inline_message_id == "AgAAAother"
    # The private chat's own game is still the one /board and typed moves find there.
    assert await people.get_active_game(PRIVATE) == at_home
    assert at_home.inline_message_id is None
    with pytest.raises(ActiveGameExistsError):
        await people.create_game(new_game(ALICE, BORIS, chat_id=PRIVATE))
    assert await people.find_game_by_inline_message(INLINE) == first
    assert await people.find_game_by_inline_message("AgAAAnone") is None


async def test_a_matchs_next_game_in_the_same_inline_message_is_found(people: Storage) -> None:
    first = await people.create_game(inline_game())
    await people.finish_game(first.game_id, 1, "{}", GameResult("white", "oin", 1))
    second = await people.create_game(inline_game())
    found = await people.find_game_by_inline_message(INLINE)
    assert found is not None and found.game_id == second.game_id


async def test_a_lost_inline_message_is_marked_once(people: Storage) -> None:
    assert await people.inline_message_lost(INLINE) is False
    assert await people.mark_inline_message_lost(INLINE) is True
    assert await people.mark_inline_message_lost(INLINE) is False
    assert await people.inline_message_lost(INLINE) is True
    assert await people.inline_message_lost("AgAAAother") is False
    with pytest.raises(ValueError):
        await people.mark_inline_message_lost("")


async def test_an_invitation_names_a_username(people: Storage, clock: FakeClock) -> None:
    inv = await people.create_invitation(
        NewInvitation(
            inviter_id=ALICE,
            variant="short",
            expires_at=clock.now + timedelta(hours=1),
            invitee_username="Boris_K",
        )
    )
    assert inv.invitee_username == "Boris_K" and inv.invitee_id is None and inv.chat_id is None
    assert (await people.get_invitation(inv.token)).invitee_username == "Boris_K"
