"""Invitations: create, accept (with the game, atomically), decline, cancel, expire."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from storage import (
    ActiveGameExistsError,
    InvitationExpiredError,
    InvitationNotForYouError,
    InvitationNotPendingError,
    InvitationState,
    NewInvitation,
    NotFoundError,
    Storage,
)
from tests.storage.conftest import ALICE, BORIS, CARMEN, DMITRY, GROUP, FakeClock, new_game


def invite(clock: FakeClock, invitee: int | None = None, **kwargs: object) -> NewInvitation:
    return NewInvitation(
        inviter_id=ALICE,
        variant="long",
        expires_at=clock.now + timedelta(minutes=5),
        chat_id=GROUP,
        invitee_id=invitee,
        **kwargs,  # type: ignore[arg-type]
    )


async def test_accept_creates_the_game_in_the_same_transaction(
    people: Storage, clock: FakeClock
) -> None:
    invitation = await people.create_invitation(invite(clock, BORIS))
    clock.advance(minutes=1)
    accepted = await people.accept_invitation(invitation.token, BORIS, game=new_game(BORIS, ALICE))
    assert accepted.game is not None
    assert accepted.invitation.state is InvitationState.ACCEPTED
    assert accepted.invitation.accepted_by == BORIS
    assert accepted.invitation.game_id == accepted.game.game_id
    assert accepted.invitation.resolved_at == clock.now
    assert await people.get_active_game(GROUP) == accepted.game
    with pytest.raises(InvitationNotPendingError) as caught:
        await people.accept_invitation(invitation.token, BORIS)
    assert caught.value.state == "accepted"


async def test_accept_without_a_game(people: Storage, clock: FakeClock) -> None:
    invitation = await people.create_invitation(invite(clock))
    accepted = await people.accept_invitation(invitation.token, CARMEN)
    assert accepted.game is None and accepted.invitation.game_id is None


async def test_who_may_answer(people: Storage, clock: FakeClock) -> None:
    personal = await people.create_invitation(invite(clock, BORIS))
    with pytest.raises(InvitationNotForYouError):
        await people.accept_invitation(personal.token, CARMEN)
    with pytest.raises(InvitationNotForYouError):
        await people.accept_invitation(personal.token, ALICE)  # one's own
    with pytest.raises(InvitationNotForYouError):
        await people.decline_invitation(personal.token, CARMEN)
    with pytest.raises(InvitationNotForYouError):
        await people.cancel_invitation(personal.token, BORIS)  # only the inviter cancels
    with pytest.raises(ValueError):  # the game must seat the two of them
        await people.accept_invitation(personal.token, BORIS, game=new_game(BORIS, CARMEN))
    assert (await people.get_invitation(personal.token)).state is InvitationState.PENDING

    declined = await people.decline_invitation(personal.token, BORIS)
    assert declined.state is InvitationState.DECLINED and declined.accepted_by is None

    open_one = await people.create_invitation(invite(clock))
    cancelled = await people.cancel_invitation(open_one.token, ALICE)
    assert cancelled.state is InvitationState.CANCELLED
    with pytest.raises(InvitationNotPendingError):
        await people.decline_invitation(open_one.token, DMITRY)


async def test_expiry(people: Storage, clock: FakeClock) -> None:
    soon = await people.create_invitation(invite(clock))
    later = await people.create_invitation(
        NewInvitation(ALICE, "short", clock.now + timedelta(hours=1), chat_id=GROUP)
    )
    clock.advance(minutes=5)  # exactly at the expiry time: expired
    with pytest.raises(InvitationExpiredError):
        await people.accept_invitation(soon.token, BORIS)
    expired = await people.expire_invitations()
    assert [i.token for i in expired] == [soon.token]
    assert expired[0].state is InvitationState.EXPIRED and expired[0].resolved_at == clock.now
    assert await people.expire_invitations() == []
    assert (await people.get_invitation(later.token)).state is InvitationState.PENDING
    assert [i.token for i in await people.expire_invitations(clock.now + timedelta(hours=2))] == [
        later.token
    ]
    with pytest.raises(InvitationNotPendingError):
        await people.accept_invitation(soon.token, BORIS)


async def test_accept_fails_whole_when_the_chat_already_has_a_game(
    people: Storage, clock: FakeClock
) -> None:
    running = await people.create_game(new_game(CARMEN, DMITRY))
    invitation = await people.create_invitation(invite(clock, BORIS))
    with pytest.raises(ActiveGameExistsError) as caught:
        await people.accept_invitation(invitation.token, BORIS, game=new_game(ALICE, BORIS))
    assert caught.value.game_id == running.game_id
    assert (await people.get_invitation(invitation.token)).state is InvitationState.PENDING


async def test_two_people_accept_at_once(people: Storage, clock: FakeClock) -> None:
    invitation = await people.create_invitation(invite(clock))
    contenders = [BORIS, CARMEN, DMITRY]
    outcomes = await asyncio.gather(
        *(
            people.accept_invitation(invitation.token, who, game=new_game(ALICE, who))
            for who in contenders
        ),
        return_exceptions=True,
    )
    winners = [o for o in outcomes if not isinstance(o, BaseException)]
    losers = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(winners) == 1 and all(isinstance(e, InvitationNotPendingError) for e in losers)
    games = [await people.get_active_game(GROUP)]
    assert games[0] is not None and games[0] == winners[0].game


async def test_unknown_rows(people: Storage, clock: FakeClock) -> None:
    with pytest.raises(NotFoundError):
        await people.get_invitation("nope")
    with pytest.raises(NotFoundError):
        await people.accept_invitation("nope", BORIS)
    with pytest.raises(NotFoundError) as caught:
        await people.create_invitation(invite(clock, 999))
    assert caught.value.key == 999
    with pytest.raises(ValueError):
        await people.create_invitation(invite(clock, ALICE))
    invitation = await people.create_invitation(invite(clock))
    with pytest.raises(NotFoundError):  # an accepting user the bot never stored
        await people.accept_invitation(invitation.token, 999)
