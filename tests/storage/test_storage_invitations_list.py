"""Listing a user's own invitations (used by the bot's /cancel)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import storage
from storage import InvitationState, NewInvitation


async def test_list_invitations_filters_by_inviter_and_state(tmp_path: Path) -> None:
    async with await storage.open_storage(tmp_path / "db.sqlite3") as store:
        await store.upsert_user(1, "A")
        await store.upsert_user(2, "B")
        later = datetime.now(UTC) + timedelta(hours=1)
        first = await store.create_invitation(
            NewInvitation(inviter_id=1, variant="long", expires_at=later)
        )
        second = await store.create_invitation(
            NewInvitation(inviter_id=1, variant="short", expires_at=later)
        )
        await store.create_invitation(NewInvitation(inviter_id=2, variant="long", expires_at=later))
        await store.cancel_invitation(first.token, 1)
        everything = await store.list_invitations(1)
        assert {i.token for i in everything} == {first.token, second.token}
        pending = await store.list_invitations(1, state=InvitationState.PENDING)
        assert [i.token for i in pending] == [second.token]
        assert await store.list_invitations(3) == []
