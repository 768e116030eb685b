"""Challenges offered in inline mode (``@bot`` typed in any chat).

Each result the person is offered is a real invitation whose dice are committed before
anyone joins (docs/fairness.md), so its card can show the fingerprint. Telegram sends a query
for every pause in typing ("@bot @fr", "@bot @frie" …); offering again the same game within a
minute reuses the invitation made for it instead of writing a new one each time. A card that
was posted (Telegram's ``chosen_inline_result``, when inline feedback is on) is never offered
again, so two posted cards never share one invitation. The reuse memory is only a saving:
after a restart new invitations are made.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import storage
from engine import Options
from gameplay.actions import Actor, ChatKind, Place
from gameplay.lobby import Lobby
from storage.recent import Recent

#: How long an offered invitation is offered again to the same person for the same game.
REUSE_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Offer:
    """One game an inline result offers: the variant, the match length and the rules."""

    variant: str
    match_length: int = 1
    options: Options = field(default_factory=Options)
    link: bool = False  # the invitation link result (played in the private chats)

    def key(self) -> tuple[object, ...]:
        return (
            self.variant,
            self.match_length,
            tuple(sorted(self.options.to_dict().items())),
            self.link,
        )


class InlineChallenges:
    """Invitations for inline results, reused while the person is still typing."""

    def __init__(
        self,
        lobby: Lobby,
        *,
        clock: Callable[[], float] = time.monotonic,
        limit: int = 10_000,
    ) -> None:
        self.lobby = lobby
        self._clock = clock
        self._recent: Recent[tuple[object, ...], tuple[str, float]] = Recent(limit)
        self.created = 0  # invitations written (the rest of the offers were reused)

    async def offer(
        self,
        inviter: Actor,
        offer: Offer,
        *,
        invitee_username: str | None = None,
        client_seed: str | None = None,
    ) -> storage.Invitation:
        """The pending invitation for ``offer`` to show ``inviter`` now."""
        named = invitee_username.casefold() if invitee_username else None
        key = (inviter.user_id, named, *offer.key())
        known = self._recent.get(key)
        now = self._clock()
        if known is not None and now - known[1] < REUSE_SECONDS:
            try:
                inv = await self.lobby.store.get_invitation(known[0])
            except storage.NotFoundError:
                inv = None
            if inv is not None and inv.state is storage.InvitationState.PENDING:
                return inv
        inv = await self.lobby.invite(
            inviter,
            Place(inviter.user_id, 0, ChatKind.PRIVATE),
            variant=offer.variant,
            match_length=offer.match_length,
            options=offer.options,
            invitee_username=None if offer.link else invitee_username,
            client_seed=client_seed,
        )
        self.created += 1
        self._recent[key] = (inv.token, now)
        return inv

    def posted(self, inviter_id: int, offer: Offer, invitee_username: str | None) -> None:
        """The card of ``offer`` was posted: a later query gets a new invitation for it."""
        named = invitee_username.casefold() if invitee_username else None
        self._recent.pop((inviter_id, named, *offer.key()), None)
