"""Every stored type reads back equal to what was written (Habit 3: stored forms round-trip)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from storage import (
    ChatType,
    Colour,
    GameResult,
    GameStatus,
    InvitationState,
    NewInvitation,
    NewMove,
    NotFoundError,
    ResultKind,
    SqliteStorage,
    Storage,
    Variant,
)
from tests.storage.conftest import (
    ALICE,
    BORIS,
    GROUP,
    PRIVATE,
    Backend,
    FakeClock,
    new_game,
    sample_state,
)

BIG_USER = 7_999_999_999  # Telegram ids exceed 32 bits
BIG_CHAT = -1_009_999_999_999


async def reopen(backend: Backend, store: Storage, clock: FakeClock) -> Storage:
    """Close and open the same database, so values come from disk, not from a cache."""
    await store.close()
    return await backend.open(clock)


async def test_user_round_trip(store: Storage, backend: Backend, clock: FakeClock) -> None:
    written = await store.upsert_user(
        BIG_USER, "Ёжик 🦔 «в тумане»", username="ezhik", language="ru"
    )
    store = await reopen(backend, store, clock)
    try:
        assert await store.get_user(BIG_USER) == written
        assert written.created_at == clock.now  # microseconds survive
        clock.advance(minutes=5)
        renamed = await store.upsert_user(BIG_USER, "Ёжик", username=None)
        assert renamed.language == "ru"  # None keeps the stored language
        assert renamed.created_at == written.created_at
        assert renamed.updated_at == clock.now
        with pytest.raises(NotFoundError):
            await store.get_user(1)
    finally:
        await store.close()


async def test_chat_round_trip(store: Storage, backend: Backend, clock: FakeClock) -> None:
    created = await store.upsert_chat(BIG_CHAT, ChatType.SUPERGROUP, title="Клуб")
    assert created.default_variant is Variant.LONG
    assert created.match_length == 1 and created.options == {}
    options = {"starting_rule": "dice", "cube": True, "limits": [1, 2, 3], "name": "нарды"}
    changed = await store.update_chat_settings(
        BIG_CHAT, language="ru", default_variant="short", match_length=5, options=options
    )
    # refreshing title and type from Telegram keeps the settings
    await store.upsert_chat(BIG_CHAT, "supergroup", title="Клуб 2")
    store = await reopen(backend, store, clock)
    try:
        loaded = await store.get_chat(BIG_CHAT)
        assert loaded.options == options and loaded.title == "Клуб 2"
        assert (loaded.language, loaded.default_variant, loaded.match_length) == (
            changed.language,
            Variant.SHORT,
            5,
        )
        only_language = await store.update_chat_settings(BIG_CHAT, language=None)
        assert only_language.language is None and only_language.match_length == 5
        with pytest.raises(ValueError):
            await store.update_chat_settings(BIG_CHAT, default_variant="chess")
        with pytest.raises(NotFoundError):
            await store.update_chat_settings(42, language="en")
    finally:
        await store.close()


async def test_game_move_message_round_trip(
    people: Storage, backend: Backend, clock: FakeClock
) -> None:
    store = people
    game = await store.create_game(new_game(ALICE, BORIS, thread_id=17, variant="short"))
    clock.advance(seconds=3)
    moves = [
        NewMove(Colour.WHITE, (6, 5), "24/18 18/13", "4HPwATDgc/ABMA"),
        NewMove("black", None, "double", "4HPwATDgc/ABMA:cube2"),
        NewMove("white", (2, 2), "", "sJ/gATDgc/ABMA"),  # no legal move: empty play
    ]
    saved = await store.save_game(
        game.game_id, 1, sample_state(3, "short"), moves=moves, score=(1, 2)
    )
    await store.set_game_message(game.game_id, GROUP, 1001, thread_id=17)
    await store.set_game_message(game.game_id, PRIVATE, 5, kind="board")
    store = await reopen(backend, store, clock)
    try:
        loaded = await store.get_game(game.game_id)
        assert loaded == saved
        assert loaded.variant is Variant.SHORT and loaded.status is GameStatus.ACTIVE
        assert (loaded.thread_id, loaded.score_white, loaded.score_black) == (17, 1, 2)
        assert json.loads(loaded.state)["turn"] == 3 and "Длинные" in loaded.state
        assert loaded.options == {"doubling_cube": True}
        assert loaded.created_at == game.created_at and loaded.updated_at == clock.now

        log = await store.get_moves(game.game_id)
        assert [
            (m.seq, m.colour, m.player_user_id, m.dice, m.play, m.position_id) for m in log
        ] == [
            (1, Colour.WHITE, ALICE, (6, 5), "24/18 18/13", "4HPwATDgc/ABMA"),
            (2, Colour.BLACK, BORIS, None, "double", "4HPwATDgc/ABMA:cube2"),
            (3, Colour.WHITE, ALICE, (2, 2), "", "sJ/gATDgc/ABMA"),
        ]
        assert {m.game_version for m in log} == {2}
        assert await store.get_moves(game.game_id, after_seq=1, limit=1) == log[1:2]

        messages = await store.get_game_messages(game.game_id)
        assert [(m.chat_id, m.thread_id, m.kind, m.message_id) for m in messages] == [
            (GROUP, 17, "board", 1001),
            (PRIVATE, 0, "board", 5),
        ]
    finally:
        await store.close()


async def test_finished_game_round_trip(
    people: Storage, backend: Backend, clock: FakeClock
) -> None:
    game = await people.create_game(new_game(ALICE, BORIS))
    finished = await people.finish_game(
        game.game_id, 1, sample_state(9), GameResult(Colour.BLACK, ResultKind.KOKS, 3)
    )
    store = await reopen(backend, people, clock)
    try:
        loaded = await store.get_game(game.game_id)
        assert loaded == finished.game
        assert loaded.result == GameResult(Colour.BLACK, ResultKind.KOKS, 3)
        assert loaded.finished_at == clock.now and loaded.winner_user_id == BORIS
        assert loaded.white_rating_change == pytest.approx(-16.0)
        assert isinstance(loaded.black_rating_change, float)
        # the ratings after it too: the finish's changes, as finish_game returned them
        assert loaded.white_rating_after == pytest.approx(1484.0)
        assert loaded.rating_changes == finished.rating_changes
        assert [c.user_id for c in loaded.rating_changes] == [BORIS, ALICE]
    finally:
        await store.close()


async def test_game_against_the_computer_round_trip(
    people: Storage, backend: Backend, clock: FakeClock
) -> None:
    game = await people.create_game(new_game(None, ALICE, chat_id=PRIVATE))
    store = await reopen(backend, people, clock)
    try:
        loaded = await store.get_game(game.game_id)
        assert loaded == game
        assert loaded.vs_ai and loaded.ai_level == "easy"
        assert loaded.user_id_of("white") is None and loaded.colour_of(ALICE) is Colour.BLACK
    finally:
        await store.close()


async def test_invitation_round_trip(people: Storage, backend: Backend, clock: FakeClock) -> None:
    expires = clock.now + timedelta(minutes=10)
    created = await people.create_invitation(
        NewInvitation(
            inviter_id=ALICE,
            variant="short",
            expires_at=expires,
            chat_id=GROUP,
            thread_id=4,
            invitee_id=BORIS,
            match_length=7,
            options={"cube": True},
        )
    )
    open_one = await people.create_invitation(
        NewInvitation(inviter_id=BORIS, variant=Variant.LONG, expires_at=expires, token="deep-1")
    )
    store = await reopen(backend, people, clock)
    try:
        assert await store.get_invitation(created.token) == created
        assert created.state is InvitationState.PENDING and created.expires_at == expires
        assert (created.match_length, created.options, created.thread_id) == (7, {"cube": True}, 4)
        assert len(created.token) == 16
        loaded = await store.get_invitation("deep-1")
        assert loaded == open_one and loaded.chat_id is None and loaded.invitee_id is None
    finally:
        await store.close()


async def test_stats_and_rating_round_trip(
    people: Storage, backend: Backend, clock: FakeClock
) -> None:
    game = await people.create_game(new_game(ALICE, BORIS, variant="short"))
    await people.finish_game(game.game_id, 1, "{}", GameResult("white", "drop", 4))
    store = await reopen(backend, people, clock)
    try:
        stats = await store.get_user_stats(ALICE, "short")
        assert (stats.games, stats.wins, stats.wins_drop, stats.points_won) == (1, 1, 1, 4)
        assert await store.list_user_stats(ALICE) == [stats]
        rating = await store.get_rating(ALICE, "short")
        assert rating.rating == pytest.approx(1516.0) and rating.peak == rating.rating
        assert rating.updated_at == clock.now and rating.games == 1
        # untouched variant: defaults, not errors
        assert (await store.get_rating(ALICE, "long")).rating == 1500.0
        assert (await store.get_user_stats(ALICE, "long", vs_ai=True)).games == 0
    finally:
        await store.close()


async def test_timestamps_need_a_timezone(
    people: Storage, backend: Backend, clock: FakeClock
) -> None:
    naive = clock.now.replace(tzinfo=None)
    with pytest.raises(ValueError, match="naive"):
        await people.create_invitation(NewInvitation(ALICE, "long", expires_at=naive))


def test_database_path_setting(tmp_path: Path) -> None:
    from storage import database_path

    assert database_path({}) == Path("nardy.sqlite3")
    assert database_path({"DATABASE_PATH": "  "}) == Path("nardy.sqlite3")
    assert database_path({"DATABASE_PATH": str(tmp_path / "x.db")}) == tmp_path / "x.db"
    assert database_path({"DATABASE_PATH": "~/n.sqlite3"}) == Path.home() / "n.sqlite3"


async def test_open_uses_the_database_path_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from storage import open_storage

    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "sub" / "from-env.sqlite3"))
    async with await open_storage() as store:
        assert store.path == tmp_path / "sub" / "from-env.sqlite3"
        await store.upsert_user(1, "x")
    assert (tmp_path / "sub" / "from-env.sqlite3").exists()

    monkeypatch.delenv("DATABASE_PATH")
    monkeypatch.chdir(tmp_path)
    async with await open_storage() as store:
        assert store.path == tmp_path / "nardy.sqlite3"


async def test_memory_database_is_refused() -> None:
    with pytest.raises(ValueError):
        await SqliteStorage.open(":memory:")
