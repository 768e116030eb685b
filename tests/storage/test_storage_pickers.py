"""Group pickers in storage (migration 11): the private pickers and views a group game shows,
and how its turn is played, shared by every worker — on both backends."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import datetime

import pytest

from storage import NotFoundError, PickerMessage, Storage
from tests.storage.conftest import ALICE, BORIS, CARMEN, GROUP, Backend, FakeClock, new_game

TURN = (1, 4)
NEXT = (1, 5)


def shown(game_id: int, kind: str, user: int, ephemeral_id: int, turn=TURN) -> PickerMessage:
    return PickerMessage(game_id, kind, user, GROUP, ephemeral_id, *turn, datetime.min)


async def test_sends_are_counted_per_turn_and_a_new_turn_starts_on_the_picker(
    people: Storage,
) -> None:
    game = await people.create_game(new_game(ALICE, BORIS))
    gid = game.game_id
    assert await people.get_picker_turn(gid) is None
    assert (await people.count_picker_send(gid, TURN)).sends == 1
    assert (await people.count_picker_send(gid, TURN)).sends == 2
    fell = await people.put_turn_on_board(gid, TURN)
    assert (fell.sends, fell.on_board, fell.turn) == (2, True, TURN)
    assert (await people.get_picker_turn(gid)) == fell
    after = await people.count_picker_send(gid, NEXT)  # the next turn: counted afresh
    assert (after.sends, after.on_board, after.turn) == (1, False, NEXT)
    later = await people.put_turn_on_board(gid, (2, 0))  # a new game of the match, at once
    assert (later.sends, later.on_board) == (0, True)


async def test_two_workers_counting_at_once_get_different_counts(people: Storage) -> None:
    gid = (await people.create_game(new_game(ALICE, BORIS))).game_id
    counts = await asyncio.gather(*(people.count_picker_send(gid, TURN) for _ in range(6)))
    assert sorted(c.sends for c in counts) == [1, 2, 3, 4, 5, 6]


async def test_a_shown_message_is_replaced_and_closed_by_one_taker(people: Storage) -> None:
    gid = (await people.create_game(new_game(ALICE, BORIS))).game_id
    first = shown(gid, "picker", ALICE, 10)
    assert await people.keep_picker_message(first) is None
    assert await people.keep_picker_message(first) is None  # the same message again
    replaced = await people.keep_picker_message(shown(gid, "picker", ALICE, 11))
    assert replaced is not None and replaced.ephemeral_id == 10  # the caller closes it
    await people.keep_picker_message(shown(gid, "view", BORIS, 12))
    await people.keep_picker_message(shown(gid, "view", CARMEN, 13))
    kept = await people.get_picker_messages(gid)
    assert [(m.kind, m.user_id, m.ephemeral_id) for m in kept] == [
        ("picker", ALICE, 11),
        ("view", BORIS, 12),
        ("view", CARMEN, 13),
    ]
    # Two workers closing the views at once: each view is handed to one of them.
    a, b = await asyncio.gather(
        people.take_picker_messages(gid, "view"), people.take_picker_messages(gid, "view")
    )
    assert sorted(m.ephemeral_id for m in a + b) == [12, 13]
    # The picker of this turn stays when the stale ones are taken; the next turn takes it.
    assert await people.take_picker_messages(gid, "picker", keep_turn=TURN) == []
    (taken,) = await people.take_picker_messages(gid, "picker", keep_turn=NEXT)
    assert taken.ephemeral_id == 11
    assert await people.get_picker_messages(gid) == []


async def test_forgetting_keeps_a_newer_message(people: Storage) -> None:
    gid = (await people.create_game(new_game(ALICE, BORIS))).game_id
    old, new = shown(gid, "picker", ALICE, 20), shown(gid, "picker", ALICE, 21)
    await people.keep_picker_message(old)
    await people.keep_picker_message(new)
    assert not await people.forget_picker_message(old)  # replaced meanwhile: kept
    assert await people.forget_picker_message(new)
    assert await people.get_picker_messages(gid) == []


async def test_bad_pickers_are_refused(people: Storage, backend: Backend) -> None:
    gid = (await people.create_game(new_game(ALICE, BORIS))).game_id
    with pytest.raises(NotFoundError):
        await people.count_picker_send(9999, TURN)
    with pytest.raises(NotFoundError):
        await people.keep_picker_message(shown(9999, "view", ALICE, 1))
    with pytest.raises(ValueError):
        await people.keep_picker_message(shown(gid, "board", ALICE, 1))
    with pytest.raises(ValueError):
        await people.keep_picker_message(shown(gid, "view", ALICE, 0))
    with pytest.raises(ValueError):
        await people.take_picker_messages(gid, "notice")
    with pytest.raises(ValueError):
        await people.count_picker_send(gid, (1, -1))
    with pytest.raises(Exception, match=r"(?i)check|constraint"):  # the schema refuses it too
        await backend.execute(
            people,
            "INSERT INTO picker_turns (game_id, game_number, move_number, sends, on_board, "
            "updated_at) VALUES (?, 1, 0, 0, 2, 0)",
            (gid,),
        )


async def test_pickers_survive_a_reopen(backend: Backend, clock: FakeClock) -> None:
    store = await backend.open(clock)
    try:
        await store.upsert_user(ALICE, "Alice")
        await store.upsert_user(BORIS, "Boris")
        await store.upsert_chat(GROUP, "supergroup", title="Нарды")
        gid = (await store.create_game(new_game(ALICE, BORIS))).game_id
        await store.count_picker_send(gid, TURN)
        await store.keep_picker_message(shown(gid, "picker", ALICE, 30))
    finally:
        await store.close()
    again = await backend.open(clock)
    try:
        turn = await again.get_picker_turn(gid)
        assert turn is not None and (turn.sends, turn.on_board) == (1, False)
        (message,) = await again.get_picker_messages(gid)
        assert replace(message, updated_at=datetime.min) == shown(gid, "picker", ALICE, 30)
    finally:
        await again.close()


async def test_of_two_pickers_sent_at_once_the_newer_stays(people: Storage) -> None:
    """Two taps on Move reached two workers, each sent a picker: whichever keeps it last,
    the older one is handed back to be closed, once, and the newer is stored."""
    gid = (await people.create_game(new_game(ALICE, BORIS))).game_id
    older, newer = shown(gid, "picker", ALICE, 40), shown(gid, "picker", ALICE, 41)
    losers = await asyncio.gather(
        people.keep_picker_message(newer), people.keep_picker_message(older)
    )
    assert [m.ephemeral_id for m in losers if m is not None] == [40]
    (stored,) = await people.get_picker_messages(gid)
    assert stored.ephemeral_id == 41
    # The player taps the older one (it is what their app shows): that one stays then.
    back = await people.keep_picker_message(older, newest_wins=False)
    assert back is not None and back.ephemeral_id == 41
    assert [m.ephemeral_id for m in await people.get_picker_messages(gid)] == [40]
