"""The game layer over a real SQLite file: two people, a group, a service and its lobby."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import storage
from gameplay import Actor, ChatKind, GameService, Lobby, Place, Snapshot

GROUP = Place(-100_500, 0, ChatKind.GROUP)
ANNA = Actor(11, "Анна")
BORIS = Actor(22, "Boris")
PEOPLE = {ANNA.user_id: ANNA, BORIS.user_id: BORIS}


@dataclass
class World:
    path: Path
    store: storage.Storage
    games: GameService
    lobby: Lobby

    async def group_game(self, variant: str = "long") -> Snapshot:
        invitation = await self.lobby.invite(ANNA, GROUP, variant=variant)
        return await self.lobby.accept(invitation.token, BORIS)


def mover(snap: Snapshot) -> Actor:
    seat = snap.game.seat_to_act
    assert seat is not None
    uid = snap.user_ids[seat]
    assert uid is not None
    return PEOPLE[uid]


def waiter(snap: Snapshot) -> Actor:
    return ANNA if mover(snap) == BORIS else BORIS


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    path = tmp_path / "nardy.sqlite3"
    store = await storage.open_storage(path)
    try:
        await store.upsert_chat(GROUP.chat_id, storage.ChatType.SUPERGROUP, title="Нарды")
        games = GameService(store, rng=random.Random(5))
        yield World(path, store, games, Lobby(games))
    finally:
        await store.close()
