"""Players' settings in storage (migration 10): how a player's move picker opens, kept across
restarts, checked by the schema as well as by the repository, on both backends."""

from __future__ import annotations

import pytest

from storage import NotFoundError, Storage
from tests.storage.conftest import ALICE, BORIS, Backend, FakeClock


async def test_the_picker_way_is_remembered_per_player(people: Storage) -> None:
    assert await people.get_picker_way(ALICE) is None  # never chosen
    await people.set_picker_way(ALICE, "plays")
    await people.set_picker_way(BORIS, "steps")
    await people.set_picker_way(ALICE, "plays")  # again: still one row
    assert await people.get_picker_way(ALICE) == "plays"
    await people.set_picker_way(ALICE, "steps")
    assert (await people.get_picker_way(ALICE), await people.get_picker_way(BORIS)) == (
        "steps",
        "steps",
    )


async def test_a_wrong_way_or_an_unknown_player_is_refused(
    people: Storage, backend: Backend
) -> None:
    with pytest.raises(ValueError):
        await people.set_picker_way(ALICE, "sideways")
    with pytest.raises(NotFoundError):
        await people.set_picker_way(424242, "plays")
    with pytest.raises(Exception, match=r"(?i)check|constraint"):  # the schema refuses it too
        await backend.execute(
            people,
            "INSERT INTO player_settings (user_id, picker_way, updated_at) VALUES (?, ?, ?)",
            (ALICE, "sideways", 0),
        )


async def test_the_way_survives_a_reopen(backend: Backend, clock: FakeClock) -> None:
    store = await backend.open(clock)
    try:
        await store.upsert_user(ALICE, "Alice")
        await store.set_picker_way(ALICE, "plays")
    finally:
        await store.close()
    again = await backend.open(clock)
    try:
        assert await again.get_picker_way(ALICE) == "plays"
    finally:
        await again.close()
