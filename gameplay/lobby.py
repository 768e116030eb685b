"""Invitations: a group's lobby (anyone may join), a challenge (one member), a link (from a
private chat; the game is then shown in both players' private chats)."""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass
from datetime import timedelta

import storage
from engine import Options
from gameplay import clocks
from gameplay.actions import Actor, ChatKind, Place
from gameplay.clocks import MoveClock
from gameplay.refusals import Refusal, Refused
from gameplay.service import GameService
from gameplay.snapshot import Snapshot


@dataclass(frozen=True, slots=True)
class RematchOffer:
    """A rematch waiting for the other player's answer: an invitation only they may accept,
    to be shown in ``place`` (the game's group, or the invitee's private chat)."""

    invitation: storage.Invitation
    invitee: Actor
    place: Place


class Lobby:
    """Opening, accepting, declining and cancelling invitations."""

    def __init__(
        self, games: GameService, *, invitation_ttl: timedelta = timedelta(hours=24)
    ) -> None:
        self.games = games
        self.store = games.store
        self.invitation_ttl = invitation_ttl
        # One acceptance of an invitation at a time: a second joiner's seed must not be added
        # after the first one's dice were drawn without it (the report would not verify).
        self._accepting: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    async def invite(
        self,
        inviter: Actor,
        place: Place,
        *,
        variant: str,
        match_length: int = 1,
        options: Options | None = None,
        invitee: Actor | None = None,
        invitee_username: str | None = None,
        client_seed: str | None = None,
        move_clock: MoveClock | None = None,
    ) -> storage.Invitation:
        """An invitation to a game here: in a group the game is played in the group (and
        ``invitee``, when given, is the only one who may accept); from a private chat it is
        a link, and the game is shown in each player's private chat (or, accepted from an
        inline-mode card, in that message; ``invitee_username`` then names who may accept).

        It commits to the game's dice seed now, before anyone joins (docs/fairness.md);
        ``client_seed`` is the inviter's contribution, from the update that invited.
        ``move_clock`` is the game's time per move (None: the default for the place); it is
        kept beside the engine's options and shown in the lobby."""
        await self.games.players.seen(inviter)
        if invitee is not None:
            await self.games.players.seen(invitee)
        link = place.kind is ChatKind.PRIVATE
        if move_clock is None:
            move_clock = clocks.default_clock(group=not link)
        seed = await self.games.commit_dice(() if client_seed is None else (client_seed,))
        return await self.store.create_invitation(
            storage.NewInvitation(
                inviter_id=inviter.user_id,
                variant=variant,
                expires_at=self.games.clock() + self.invitation_ttl,
                chat_id=None if link else place.chat_id,
                thread_id=0 if link else place.thread_id,
                invitee_id=invitee.user_id if invitee is not None else None,
                match_length=match_length,
                options={**(options or Options()).to_dict(), clocks.OPTION_KEY: str(move_clock)},
                dice_seed_id=seed.seed_id,
                invitee_username=invitee_username,
            )
        )

    async def accept(
        self,
        token: str,
        actor: Actor,
        *,
        client_seed: str | None = None,
        inline_message_id: str | None = None,
    ) -> Snapshot:
        """Accept: seat both players (the inviter is seat 0), add the acceptor's
        ``client_seed`` to the invitation's dice seed, roll the lot, create the game — in
        the inline-mode message ``inline_message_id`` when it was accepted there."""
        lock = self._accepting.get(token)
        if lock is None:
            lock = self._accepting[token] = asyncio.Lock()
        async with lock:
            return await self._accept(token, actor, client_seed, inline_message_id)

    async def _accept(
        self, token: str, actor: Actor, client_seed: str | None, inline_message_id: str | None
    ) -> Snapshot:
        try:
            inv = await self.store.get_invitation(token)
        except storage.NotFoundError:
            raise Refused(Refusal.INVITE_UNKNOWN) from None
        if inv.inviter_id == actor.user_id:
            raise Refused(Refusal.INVITE_OWN)
        if inv.state is not storage.InvitationState.PENDING:
            raise Refused(Refusal.INVITE_CLOSED)
        named = inv.invitee_username
        if named is not None and (actor.username or "").casefold() != named.casefold():
            raise Refused(Refusal.INVITE_NOT_FOR_YOU)
        if inline_message_id is not None and inv.chat_id is not None:
            raise Refused(Refusal.INVITE_UNKNOWN)  # a group's lobby is not an inline card
        await self.games.players.seen(actor)
        engine_options, move_clock = clocks.split_options(inv.options)
        if move_clock is None:  # an invitation from before move clocks
            move_clock = clocks.default_clock(group=inv.chat_id is not None)
        match = self.games.new_match(
            str(inv.variant), inv.match_length, Options.from_dict(engine_options)
        )
        if inv.chat_id is not None:
            place = Place(inv.chat_id, inv.thread_id, ChatKind.GROUP)
        else:  # a link or an inline card: the game's home is the inviter's private chat
            place = Place(inv.inviter_id, 0, ChatKind.PRIVATE, inline_message_id)
            await self.games.chats.seen(inv.inviter_id, storage.ChatType.PRIVATE)
        seats: dict[int, int | None] = {0: inv.inviter_id, 1: actor.user_id}
        try:
            return await self.games.create(
                match,
                place,
                seats,
                invitation=(token, actor.user_id),
                seed_id=inv.dice_seed_id,
                client_seeds=() if client_seed is None else (client_seed,),
                move_clock=move_clock,
            )
        except storage.InvitationExpiredError:
            raise Refused(Refusal.INVITE_EXPIRED) from None
        except storage.InvitationNotForYouError:
            raise Refused(Refusal.INVITE_NOT_FOR_YOU) from None
        except (storage.InvitationNotPendingError, storage.DiceSeedFrozenError):
            raise Refused(Refusal.INVITE_CLOSED) from None

    async def cancel(self, token: str, actor: Actor) -> storage.Invitation:
        """The inviter withdraws their invitation."""
        return await self._close(token, actor, cancel=True)

    async def decline(self, token: str, actor: Actor) -> storage.Invitation:
        """The invitee (anyone but the inviter, for an open lobby) declines."""
        return await self._close(token, actor, cancel=False)

    async def _close(self, token: str, actor: Actor, *, cancel: bool) -> storage.Invitation:
        try:
            if cancel:
                return await self.store.cancel_invitation(token, actor.user_id)
            return await self.store.decline_invitation(token, actor.user_id)
        except storage.InvitationNotForYouError:
            raise Refused(Refusal.INVITE_NOT_FOR_YOU) from None
        except storage.InvitationError:
            raise Refused(
                Refusal.CANCEL_ONLY_INVITER if cancel else Refusal.INVITE_CLOSED
            ) from None
        except storage.NotFoundError:
            raise Refused(Refusal.INVITE_UNKNOWN) from None

    async def cancel_mine(self, actor: Actor, place: Place) -> int:
        """Cancel the person's open invitations: a group's lobbies here, or (from a private
        chat) all of them; returns how many."""
        pending = await self.store.list_invitations(
            actor.user_id, state=storage.InvitationState.PENDING
        )
        cancelled = 0
        for inv in pending:
            if not place.private and inv.chat_id != place.chat_id:
                continue
            try:
                await self.store.cancel_invitation(inv.token, actor.user_id)
            except storage.InvitationError:
                continue
            cancelled += 1
        return cancelled

    async def rematch(
        self, actor: Actor, game_id: int, *, client_seed: str | None = None
    ) -> Snapshot | RematchOffer:
        """A new match with the same players and settings after a finished one. The computer
        agrees at once (the new game is returned); a person is asked (#18: a rated game never
        starts on one player's tap), by an invitation only they may accept."""
        snap = await self.games.load(game_id)
        if snap.active:
            raise Refused(Refusal.GAME_EXISTS)
        seat = snap.seat_of_user(actor.user_id)
        if seat is None:
            raise Refused(Refusal.NOT_A_PLAYER)
        if snap.ai_seat is not None:
            return await self.games.rematch(actor, game_id, client_seed=client_seed)
        other = snap.user_ids[1 - seat]
        assert other is not None
        invitee = Actor(other, snap.names[1 - seat])
        row = snap.row
        if await self.games.chats.is_private(row.chat_id):  # played by a link: ask privately
            here = Place(actor.user_id, 0, ChatKind.PRIVATE)
            shown = Place(other, 0, ChatKind.PRIVATE)
        else:
            here = shown = Place(row.chat_id, row.thread_id, ChatKind.GROUP)
        match = snap.match
        invitation = await self.invite(
            actor,
            here,
            variant=match.variant_name,
            match_length=match.length,
            options=match.options,
            invitee=invitee,
            client_seed=client_seed,
            move_clock=snap.move_clock,
        )
        return RematchOffer(invitation, invitee, shown)
