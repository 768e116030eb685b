"""Games: one active game per chat topic, optimistic saves, the move log, board messages."""

from __future__ import annotations

from typing import Any

import pytest

from storage import (
    ActiveGameExistsError,
    ConstraintError,
    GameNotActiveError,
    GameResult,
    GameStatus,
    NewGame,
    NewMove,
    NextGame,
    NotFoundError,
    StaleVersionError,
    Storage,
    StorageError,
)
from storage.sql.steps import Body
from tests.storage.conftest import (
    ALICE,
    BORIS,
    CARMEN,
    DMITRY,
    GROUP,
    PRIVATE,
    Backend,
    FakeClock,
    new_game,
    sample_state,
)


def move(n: int, colour: str = "white") -> NewMove:
    return NewMove(colour, (n % 6 + 1, (n * 5) % 6 + 1), f"play-{n}", f"pos-{n}")


async def test_one_active_game_per_chat_topic(people: Storage) -> None:
    first = await people.create_game(new_game(ALICE, BORIS))
    with pytest.raises(ActiveGameExistsError) as caught:
        await people.create_game(new_game(CARMEN, DMITRY))
    assert (caught.value.chat_id, caught.value.thread_id, caught.value.game_id) == (
        GROUP,
        0,
        first.game_id,
    )
    # another forum topic of the same chat is a different place
    in_topic = await people.create_game(new_game(CARMEN, DMITRY, thread_id=5))
    assert (await people.get_active_game(GROUP)) == first
    assert (await people.get_active_game(GROUP, 5)) == in_topic
    assert await people.get_active_game(GROUP, 6) is None
    # once the game is over the chat is free again
    await people.finish_game(first.game_id, 1, "{}", GameResult("white", "oin", 1))
    second = await people.create_game(new_game(BORIS, ALICE))
    assert (await people.get_active_game(GROUP)) == second


async def test_the_database_itself_enforces_one_active_game(
    people: Storage, backend: Backend
) -> None:
    """Even a write that skips the repository's check is stopped by the partial unique index."""
    await people.create_game(new_game(ALICE, BORIS))
    with pytest.raises(ConstraintError, match=r"(?i)unique"):
        await backend.execute(
            people,
            "INSERT INTO games (variant, chat_id, white_user_id, black_user_id, state, "
            "created_at, updated_at) VALUES ('long', ?, ?, ?, '{}', 0, 0)",
            (GROUP, CARMEN, DMITRY),
        )


async def test_a_user_plays_several_games_in_different_chats(
    people: Storage, clock: FakeClock
) -> None:
    group_game = await people.create_game(new_game(ALICE, BORIS))
    clock.advance(seconds=1)
    private_game = await people.create_game(new_game(None, ALICE, chat_id=PRIVATE))
    clock.advance(seconds=1)
    topic_game = await people.create_game(new_game(CARMEN, ALICE, thread_id=9))
    clock.advance(seconds=1)
    await people.save_game(group_game.game_id, 1, "{}")  # most recently updated first
    games = await people.list_user_games(ALICE)
    assert [g.game_id for g in games] == [
        group_game.game_id,
        topic_game.game_id,
        private_game.game_id,
    ]
    await people.abandon_game(topic_game.game_id, 1)
    active = await people.list_user_games(ALICE, status="active")
    assert {g.game_id for g in active} == {group_game.game_id, private_game.game_id}
    assert [g.game_id for g in await people.list_user_games(CARMEN)] == [topic_game.game_id]
    assert len(await people.list_user_games(ALICE, limit=1)) == 1


async def test_save_bumps_the_version_and_appends_moves(people: Storage, clock: FakeClock) -> None:
    game = await people.create_game(new_game())
    assert (game.version, game.move_count) == (1, 0)
    clock.advance(seconds=1)
    v2 = await people.save_game(game.game_id, 1, sample_state(1), moves=[move(1)])
    v3 = await people.save_game(game.game_id, 2, sample_state(2))  # a partial turn: no move
    v4 = await people.save_game(
        game.game_id, 3, sample_state(4), moves=[move(2, "black"), move(3, "white")]
    )
    assert [g.version for g in (v2, v3, v4)] == [2, 3, 4]
    assert v4.move_count == 3 and v4.updated_at == clock.now
    log = await people.get_moves(game.game_id)
    assert [(m.seq, m.game_version, m.play) for m in log] == [
        (1, 2, "play-1"),
        (2, 4, "play-2"),
        (3, 4, "play-3"),
    ]
    assert await people.get_game(game.game_id) == v4


async def test_a_stale_save_fails_and_changes_nothing(people: Storage) -> None:
    game = await people.create_game(new_game())
    current = await people.save_game(game.game_id, 1, "mine", moves=[move(1)])
    with pytest.raises(StaleVersionError) as caught:
        await people.save_game(game.game_id, 1, "theirs", moves=[move(2)], score=(5, 5))
    assert (caught.value.expected_version, caught.value.actual_version) == (1, 2)
    assert isinstance(caught.value, StorageError)
    assert await people.get_game(game.game_id) == current
    assert len(await people.get_moves(game.game_id)) == 1


async def test_writes_to_a_game_that_is_over_are_refused(people: Storage) -> None:
    game = await people.create_game(new_game())
    abandoned = await people.abandon_game(game.game_id, 1, "final")
    assert abandoned.status is GameStatus.ABANDONED and abandoned.state == "final"
    assert abandoned.finished_at is not None and abandoned.result is None
    with pytest.raises(GameNotActiveError) as caught:
        await people.save_game(game.game_id, 2, "late")
    assert caught.value.status == "abandoned"
    with pytest.raises(GameNotActiveError):
        await people.finish_game(game.game_id, 2, "late", GameResult("white", "oin", 1))
    # an older version is reported as stale, which the bot shows as "outdated board"
    with pytest.raises(StaleVersionError):
        await people.save_game(game.game_id, 1, "late")
    # abandoning keeps the state when none is given, and writes no statistics
    other = await people.create_game(new_game())
    assert (await people.abandon_game(other.game_id, 1)).state == other.state
    assert (await people.get_user_stats(ALICE, "long")).games == 0


async def test_missing_rows_raise_not_found(people: Storage) -> None:
    with pytest.raises(NotFoundError):
        await people.get_game(404)
    with pytest.raises(NotFoundError):
        await people.save_game(404, 1, "{}")
    with pytest.raises(NotFoundError) as caught:
        await people.create_game(new_game(ALICE, 999))
    assert (caught.value.what, caught.value.key) == ("user", 999)
    with pytest.raises(NotFoundError) as caught:
        await people.create_game(new_game(ALICE, BORIS, chat_id=-42))
    assert (caught.value.what, caught.value.key) == ("chat", -42)
    with pytest.raises(NotFoundError):
        await people.set_game_message(404, GROUP, 1)


@pytest.mark.parametrize(
    ("white", "black", "ai_level"),
    [(None, None, "easy"), (ALICE, ALICE, None), (ALICE, None, None), (ALICE, BORIS, "hard")],
)
async def test_impossible_seatings_are_refused(
    people: Storage, white: int | None, black: int | None, ai_level: str | None
) -> None:
    with pytest.raises(ValueError):
        await people.create_game(NewGame("long", GROUP, white, black, "{}", ai_level=ai_level))


async def test_bad_arguments_are_refused_before_writing(people: Storage) -> None:
    game = await people.create_game(new_game())
    with pytest.raises(ValueError):
        await people.create_game(NewGame("chess", GROUP, ALICE, BORIS, "{}"))
    for bad in (
        NewMove("white", (0, 3), "x", "p"),
        NewMove("red", None, "x", "p"),
        NewMove("white", (1, 2, 3), "x", "p"),
    ):  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            await people.save_game(game.game_id, 1, "{}", moves=[bad])
    with pytest.raises(ValueError):
        await people.save_game(game.game_id, 1, "{}", score=(-1, 0))
    with pytest.raises(ValueError):
        await people.finish_game(game.game_id, 1, "{}", GameResult("white", "resign", 1))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await people.finish_game(game.game_id, 1, "{}", GameResult("white", "oin", 0))
    assert (await people.get_game(game.game_id)).version == 1


async def test_board_messages_in_several_chats(people: Storage, clock: FakeClock) -> None:
    game = await people.create_game(new_game())
    await people.set_game_message(game.game_id, GROUP, 10)
    await people.set_game_message(game.game_id, ALICE, 20)
    await people.set_game_message(game.game_id, BORIS, 30)
    await people.set_game_message(game.game_id, GROUP, 11, kind="status")
    clock.advance(seconds=2)
    # the bot had to send a fresh board in Alice's chat: the same slot, a new message id
    fresh = await people.set_game_message(game.game_id, ALICE, 21)
    assert fresh.message_id == 21 and fresh.updated_at == clock.now
    slots = {
        (m.chat_id, m.kind): m.message_id for m in await people.get_game_messages(game.game_id)
    }
    assert slots == {
        (GROUP, "board"): 10,
        (ALICE, "board"): 21,
        (BORIS, "board"): 30,
        (GROUP, "status"): 11,
    }
    assert await people.find_game_by_message(ALICE, 21) == game
    assert await people.find_game_by_message(ALICE, 20) is None
    assert await people.delete_game_message(game.game_id, BORIS)
    assert not await people.delete_game_message(game.game_id, BORIS)
    assert len(await people.get_game_messages(game.game_id)) == 3


async def test_a_save_failing_half_way_leaves_nothing(
    people: Storage, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state update and the move log are one transaction: if anything fails after the
    UPDATE (here: right after the moves were inserted), both are rolled back."""
    game = await people.create_game(new_game())
    if backend.name == "sqlite":
        from storage.sqlite import dialect

        real_append = dialect.append_moves

        def append_then_fail(*args: Any) -> Body[None]:
            yield from real_append(*args)
            raise RuntimeError("power cut in the middle of the save")

        monkeypatch.setattr(dialect, "append_moves", append_then_fail)
    else:  # the save is one statement there: the server itself fails after the insert
        await backend.execute(
            people,
            "CREATE FUNCTION power_cut() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'power cut in the middle of the save'; END $$",
        )
        await backend.execute(
            people,
            "CREATE TRIGGER power_cut AFTER INSERT ON moves "
            "FOR EACH ROW EXECUTE FUNCTION power_cut()",
        )
    with pytest.raises(Exception, match="power cut in the middle of the save"):
        await people.save_game(game.game_id, 1, "half", moves=[move(1)], update_id=9)
    monkeypatch.undo()
    if backend.name == "postgresql":
        await backend.execute(people, "DROP TRIGGER power_cut ON moves")

    assert await people.get_game(game.game_id) == game
    assert await people.get_moves(game.game_id) == []
    assert await people.mark_update_processed(9)  # the update was not consumed either
    saved = await people.save_game(game.game_id, 1, "whole", moves=[move(1)])
    assert saved.version == 2 and len(await people.get_moves(game.game_id)) == 1


async def test_a_finish_stores_the_next_game_of_its_match_with_it(people: Storage) -> None:
    first = await people.create_game(new_game(ALICE, BORIS, match_length=3))
    following = NextGame(new_game(BORIS, ALICE, match_length=3), moves=[move(1), move(2)])
    finished = await people.finish_game(
        first.game_id, 1, "{}", GameResult("white", "mars", 2), next_game=following
    )
    nxt = finished.next_game
    assert nxt is not None and nxt.status is GameStatus.ACTIVE
    assert finished.game.status is GameStatus.FINISHED
    assert (await people.get_active_game(GROUP)) == nxt
    # its opening move log was written with it (a second save of the new game, as before)
    assert nxt.version == 2 and nxt.move_count == 2
    assert [m.play for m in await people.get_moves(nxt.game_id)] == ["play-1", "play-2"]
    # a second finish of the same game (another worker, a redelivery) makes no second one
    with pytest.raises(StaleVersionError):
        await people.finish_game(
            first.game_id, 1, "{}", GameResult("white", "mars", 2), next_game=following
        )
    assert (await people.get_active_game(GROUP)) == nxt


async def test_a_finish_whose_next_game_fails_is_not_written(people: Storage) -> None:
    """The finish and the next game stand or fall together: a next game that cannot be
    written (here: a player unknown to the store) leaves the finished game active."""
    first = await people.create_game(new_game(ALICE, BORIS, match_length=3))
    with pytest.raises(NotFoundError):
        await people.finish_game(
            first.game_id,
            1,
            "{}",
            GameResult("white", "mars", 2),
            next_game=NextGame(new_game(BORIS, 999_999, match_length=3)),
        )
    assert (await people.get_active_game(GROUP)) == first
    assert (await people.get_game(first.game_id)).status is GameStatus.ACTIVE


async def test_a_next_game_started_late_is_started_once(people: Storage) -> None:
    """A match the code before session 8 left stuck (game 1 finished, no game 2): its next
    game is started with a write of the finished game's version, so a second start (another
    worker at the same moment) is refused and starts nothing."""
    first = await people.create_game(new_game(ALICE, BORIS, match_length=3))
    following = NextGame(new_game(BORIS, ALICE, match_length=3), moves=[move(1)])
    with pytest.raises(ValueError, match="not finished"):
        await people.start_next_game(first.game_id, 1, following)
    finished = await people.finish_game(first.game_id, 1, "{}", GameResult("white", "mars", 2))
    assert finished.next_game is None and finished.game.version == 2
    nxt = await people.start_next_game(first.game_id, 2, following)
    assert nxt is not None and nxt.status is GameStatus.ACTIVE and nxt.move_count == 1
    assert (await people.get_game(first.game_id)).version == 3
    with pytest.raises(StaleVersionError):
        await people.start_next_game(first.game_id, 2, following)
    assert (await people.get_active_game(GROUP)) == nxt
    with pytest.raises(NotFoundError):
        await people.start_next_game(999_999, 1, following)
