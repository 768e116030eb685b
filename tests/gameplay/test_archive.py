"""Finished games looked up again (gameplay.archive): a match's record holds every game of it
up to the one asked for, rebuilt from the games' own rows (each game of a match is stored in
its own row; the rows share the match's dice seed), equal to the record written from the
match as it was played; /review finds only games of this chat or of the asker."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

import storage
from engine import Match
from engine.record import match_file, match_record
from gameplay import ChatKind, Place, Refusal, Refused
from gameplay.archive import Archive
from tests.matches import play_match

ALICE, BOB, CAROL = 11, 22, 33
GROUP = -100500


async def _stored_match(store: storage.Storage, variant: str, length: int, seed: int):
    states: list[str] = []
    _, logs = play_match(variant, length, seed, states=states)
    secret = bytes([seed]) * 32
    dice_seed = await store.create_dice_seed(hashlib.sha256(secret).hexdigest(), secret)
    ids = []
    for state in states:
        match = Match.from_json(state)
        game = match.current
        assert game.result is not None
        white = ALICE if game.white_seat == 0 else BOB
        row = await store.create_game(
            storage.NewGame(
                variant=variant,
                chat_id=GROUP,
                white_user_id=white,
                black_user_id=BOB if white == ALICE else ALICE,
                state=state,
                match_length=length,
                dice_seed_id=dice_seed.seed_id,
            )
        )
        winner = storage.Colour(game.result.winner.label)
        await store.finish_game(
            row.game_id, 1, state, storage.GameResult(winner, "oin", game.result.points)
        )
        ids.append(row.game_id)
    return ids, states, logs


@pytest.fixture
async def store(tmp_path: Path):
    s = await storage.SqliteStorage.open(tmp_path / "archive.sqlite3")
    for uid, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await s.upsert_user(uid, name)
    await s.upsert_chat(GROUP, "supergroup")
    yield s
    await s.close()


@pytest.mark.parametrize("variant", ["short", "long"])
async def test_the_record_of_a_match_holds_every_game_up_to_the_one_asked_for(
    store: storage.Storage, variant: str
) -> None:
    ids, states, logs = await _stored_match(store, variant, 5, seed=3)
    assert len(ids) >= 2, "the seed must give a match of several games"
    archive = Archive(store)
    names = ("Alice", "Bob")
    whole = match_file(Match.from_json(states[-1]), names, await archive.earlier_games(ids[-1]))
    assert whole == match_record(variant, 5, names, logs)
    assert whole.count(" Game ") == len(logs) and "and the match" in whole
    # a record asked for from the second game holds games 1 and 2 only
    two = match_file(Match.from_json(states[1]), names, await archive.earlier_games(ids[1]))
    assert two == match_record(variant, 5, names, logs[:2])
    assert await archive.earlier_games(ids[0]) == []


async def test_review_finds_games_of_this_chat_or_of_the_asker(store: storage.Storage) -> None:
    ids, _, _ = await _stored_match(store, "short", 1, seed=4)
    archive = Archive(store)
    group = Place(GROUP, 0, ChatKind.GROUP)
    assert (await archive.finished_game(group, CAROL, None)).game_id == ids[-1]
    alice_private = Place(ALICE, 0, ChatKind.PRIVATE)
    assert (await archive.finished_game(alice_private, ALICE, ids[0])).game_id == ids[0]
    carol_private = Place(CAROL, 0, ChatKind.PRIVATE)
    with pytest.raises(Refused) as refused:
        await archive.finished_game(carol_private, CAROL, ids[0])
    assert refused.value.refusal is Refusal.GAME_NOT_FOUND
    with pytest.raises(Refused):
        await archive.finished_game(carol_private, CAROL, None)
    assert [g.game_id for g in await archive.recent(alice_private, ALICE)] == ids[::-1]
