"""What only the PostgreSQL backend has: its migrations, writers in parallel on one row, several
processes' stores on one database, and a server that dies in the middle of a transaction.

Everything else is the shared suite (tests/storage/test_storage_*.py run against both backends).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Iterator

import asyncpg
import pytest

from storage import (
    DatabaseError,
    DatabaseTooNewError,
    DuplicateUpdateError,
    ForeignDatabaseError,
    Game,
    GameResult,
    NewMove,
    StaleVersionError,
    open_storage,
)
from storage.postgres import MIGRATIONS, PostgresStorage
from storage.postgres.migrations import MIGRATION_LOCK, migrate, schema_version
from storage.sqlite.migrations import MIGRATIONS as SQLITE_MIGRATIONS
from storage.sqlite.migrations import Migration
from tests.pg_server import DURABLE_SETTINGS, PostgresServer
from tests.storage.conftest import ALICE, BORIS, CARMEN, DMITRY, GROUP, FakeClock, new_game

US = 1_700_000_000_000_000


async def people_on(store: PostgresStorage) -> None:
    for user_id, name in ((ALICE, "Alice"), (BORIS, "Boris"), (CARMEN, "C"), (DMITRY, "D")):
        await store.upsert_user(user_id, name)
    await store.upsert_chat(GROUP, "supergroup")


# -- migrations ------------------------------------------------------------------------------------


def test_both_backends_have_the_same_migrations() -> None:
    assert [(m.version, m.description) for m in MIGRATIONS] == [
        (m.version, m.description) for m in SQLITE_MIGRATIONS
    ]


async def test_an_empty_database_is_migrated_once_by_stores_opening_at_once(
    postgres_url: str,
) -> None:
    stores = await asyncio.gather(*(PostgresStorage.open(postgres_url) for _ in range(4)))
    for store in stores:
        await store.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        rows = await conn.fetch("SELECT version, description FROM schema_version ORDER BY 1")
    finally:
        await conn.close()
    assert [(r["version"], r["description"]) for r in rows] == [
        (m.version, m.description) for m in MIGRATIONS
    ]


async def test_a_store_opening_while_another_migrates_judges_the_schema_after_it(
    postgres_url: str,
) -> None:
    """Another worker holds the migration lock and its database looks half made (a table of
    its first step visible, ``schema_version`` not yet: what a catalog lookup racing its
    commit can see). A store opening then waits for the lock and judges the finished schema;
    looked at before the lock, the database seemed foreign and the worker refused to start."""
    other = await asyncpg.connect(postgres_url)
    try:
        await other.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
        await other.execute("CREATE TABLE half_made (n INTEGER)")
        opening = asyncio.ensure_future(PostgresStorage.open(postgres_url))
        await asyncio.sleep(0.3)
        assert not opening.done() or opening.exception() is None, opening.exception()
        await other.execute("DROP TABLE half_made")
        assert await migrate(other) == len(MIGRATIONS)  # its lock is taken again: reentrant
        await other.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        store = await asyncio.wait_for(opening, 30)
        await store.close()
    finally:
        await other.close()


@pytest.mark.parametrize("start", range(1, len(MIGRATIONS)))
async def test_upgrade_from_every_earlier_version_keeps_data(postgres_url: str, start: int) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await migrate(conn, target=start) == start
        await conn.execute(
            "INSERT INTO users (user_id, display_name, created_at, updated_at) "
            "VALUES (7, 'Алия', $1, $1), (8, 'Ben', $1, $1)",
            US,
        )
        await conn.execute(
            "INSERT INTO chats (chat_id, chat_type, created_at, updated_at) "
            "VALUES (-5, 'group', $1, $1)",
            US,
        )
        await conn.execute(
            "INSERT INTO games (game_id, variant, chat_id, white_user_id, black_user_id, state, "
            "version, move_count, created_at, updated_at) "
            "VALUES (1, 'short', -5, 7, 8, '{\"old\":true}', 4, 0, $1, $1)",
            US,
        )
    finally:
        await conn.close()
    async with await PostgresStorage.open(postgres_url) as store:
        game = await store.get_game(1)
        assert (game.state, game.version, game.white_user_id) == ('{"old":true}', 4, 7)
        saved = await store.save_game(1, 4, "new", moves=[NewMove("white", (1, 2), "x", "p")])
        assert saved.version == 5
        assert (await store.get_user(7)).display_name == "Алия"
        assert await store.mark_update_processed(1)


async def test_a_newer_database_is_refused_and_left_untouched(postgres_url: str) -> None:
    await (await PostgresStorage.open(postgres_url)).close()
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute(
            "INSERT INTO schema_version (version, description, applied_at) "
            "VALUES (99, 'from the future', 0)"
        )
        with_password = postgres_url.replace("postgres@", "postgres:secret-pw@")
        with pytest.raises(DatabaseTooNewError) as caught:
            await PostgresStorage.open(with_password)
        assert caught.value.database_version == 99
        assert "secret-pw" not in str(caught.value) and "***" in str(caught.value)
        assert await conn.fetchval("SELECT MAX(version) FROM schema_version") == 99
    finally:
        await conn.close()


async def test_a_foreign_database_is_refused(postgres_url: str) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("CREATE TABLE invoices (id BIGINT PRIMARY KEY)")
        with pytest.raises(ForeignDatabaseError):
            await PostgresStorage.open(postgres_url)
        assert await conn.fetchval("SELECT to_regclass('schema_version')") is None
    finally:
        await conn.close()


async def test_a_failing_migration_leaves_the_previous_version(postgres_url: str) -> None:
    broken = (
        MIGRATIONS[0],
        Migration(2, "half done", ("CREATE TABLE half (a BIGINT)", "SELECT * FROM nowhere")),
    )
    conn = await asyncpg.connect(postgres_url)
    try:
        with pytest.raises(asyncpg.UndefinedTableError):
            await migrate(conn, migrations=broken)
        assert await schema_version(conn) == 1
        assert await conn.fetchval("SELECT to_regclass('half')") is None
        assert not conn.is_in_transaction()
    finally:
        await conn.close()


async def test_open_storage_picks_the_backend_from_the_url(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    async with await open_storage() as store:
        assert isinstance(store, PostgresStorage)
        await store.upsert_user(1, "x")
    async with await open_storage(postgres_url, pool_size=2) as store:
        assert (await store.get_user(1)).display_name == "x"


async def test_an_unreachable_server_is_a_database_error(
    postgres_server: PostgresServer,
) -> None:
    with pytest.raises(DatabaseError):
        await PostgresStorage.open("postgresql://nobody@127.0.0.1:1/none")


# -- writers in parallel ------------------------------------------------------------------------


async def test_a_save_racing_an_open_transaction_on_the_row_loses_cleanly(
    postgres_url: str,
) -> None:
    """Another worker has updated the game row and not committed yet: our save waits on the
    row lock, then finds the version moved and changes nothing."""
    async with await PostgresStorage.open(postgres_url) as store:
        await people_on(store)
        game = await store.create_game(new_game())
        other = await asyncpg.connect(postgres_url)
        try:
            transaction = other.transaction()
            await transaction.start()
            await other.execute(
                "UPDATE games SET version = version + 1, state = 'theirs' WHERE game_id = $1",
                game.game_id,
            )
            ours = asyncio.create_task(
                store.save_game(game.game_id, 1, "ours", moves=[NewMove("white", None, "x", "p")])
            )
            await asyncio.sleep(0.2)
            assert not ours.done()  # waiting for the row lock, not guessing
            await transaction.commit()
            with pytest.raises(StaleVersionError) as caught:
                await ours
            assert caught.value.actual_version == 2
        finally:
            await other.close()
        assert (await store.get_game(game.game_id)).state == "theirs"
        assert await store.get_moves(game.game_id) == []


async def test_one_redelivered_update_in_two_workers_acts_once(postgres_url: str) -> None:
    """The same update id reaches two workers; each tries its save in a different game."""
    first = await PostgresStorage.open(postgres_url)
    second = await PostgresStorage.open(postgres_url)
    try:
        await people_on(first)
        one = await first.create_game(new_game(ALICE, BORIS))
        two = await first.create_game(new_game(CARMEN, DMITRY, thread_id=1))
        for update_id in range(100, 120):
            outcomes = await asyncio.gather(
                first.save_game(
                    one.game_id,
                    (await first.get_game(one.game_id)).version,
                    "a",
                    update_id=update_id,
                ),
                second.save_game(
                    two.game_id,
                    (await second.get_game(two.game_id)).version,
                    "b",
                    update_id=update_id,
                ),
                return_exceptions=True,
            )
            assert sum(isinstance(o, Game) for o in outcomes) == 1
            assert sum(isinstance(o, DuplicateUpdateError) for o in outcomes) == 1
        versions = [(await first.get_game(g.game_id)).version for g in (one, two)]
        assert sum(versions) == 2 + 20
    finally:
        await first.close()
        await second.close()


async def test_games_of_the_same_players_finishing_at_once_all_count(postgres_url: str) -> None:
    """Rating rows are locked before they are read: no finished game's change is lost, and
    overlapping pairs (A-B, B-C, C-A) do not deadlock."""
    stores = [await PostgresStorage.open(postgres_url, pool_size=4) for _ in range(3)]
    try:
        await people_on(stores[0])
        pairs = [(ALICE, BORIS), (BORIS, CARMEN), (CARMEN, ALICE), (DMITRY, ALICE)]
        games = []
        for thread, (white, black) in zip(itertools.count(1), pairs * 5, strict=False):
            games.append(await stores[0].create_game(new_game(white, black, thread_id=thread)))
        await asyncio.gather(
            *(
                stores[n % 3].finish_game(g.game_id, 1, "end", GameResult("white", "oin", 1))
                for n, g in enumerate(games)
            )
        )
        store = stores[0]
        for user in (ALICE, BORIS, CARMEN, DMITRY):
            played = sum(user in pair for pair in pairs) * 5
            stats = await store.get_user_stats(user, "long")
            rating = await store.get_rating(user, "long")
            assert stats.games == rating.games == played
        total = sum([(await store.get_rating(u, "long")).rating for u in (ALICE, BORIS)])
        assert total > 0
    finally:
        for store in stores:
            await store.close()


# -- the server dies ------------------------------------------------------------------------------


@pytest.fixture
def own_server(postgres_server: PostgresServer) -> Iterator[PostgresServer]:
    """A server of this test's own, to be killed (durable settings, as in production)."""
    server = PostgresServer(DURABLE_SETTINGS).start()
    try:
        yield server
    finally:
        server.stop()


async def test_a_server_killed_mid_transaction_keeps_nothing_of_it(
    own_server: PostgresServer, clock: FakeClock
) -> None:
    url = own_server.url()
    store = await PostgresStorage.open(url, clock=clock)
    await people_on(store)
    game = await store.create_game(new_game())
    done = await store.save_game(
        game.game_id, 1, "committed", moves=[NewMove("white", None, "a", "p")]
    )

    half = await asyncpg.connect(url)
    transaction = half.transaction()
    await transaction.start()
    await half.execute(
        "UPDATE games SET version = 3, state = 'half' WHERE game_id = $1", game.game_id
    )
    await half.execute(
        "INSERT INTO moves (game_id, seq, colour, play, position_id, game_version, created_at) "
        "VALUES ($1, 2, 'black', 'half', 'p', 3, 0)",
        game.game_id,
    )
    await half.execute("INSERT INTO processed_updates VALUES (77, 0)")

    # saves keep coming from the bot while the server dies
    async def keep_saving() -> list[int]:
        committed = []
        with contextlib.suppress(DatabaseError):
            for n in range(10_000):
                current = await store.get_game(game.game_id)
                saved = await store.save_game(
                    game.game_id,
                    current.version,
                    f"s{n}",
                    moves=[NewMove("white", None, f"m{n}", "p")],
                )
                committed.append(saved.version)
        return committed

    saver = asyncio.create_task(keep_saving())
    await asyncio.sleep(0.1)  # the loop above waits on the row lock of the half transaction
    own_server.kill()
    assert await saver == []  # blocked behind the lock: nothing of it committed
    with contextlib.suppress(Exception):
        half.terminate()

    own_server.restart_after_crash()
    # the same store (its pool) reconnects by itself once the server is back
    for _ in range(50):
        try:
            after = await store.get_game(game.game_id)
            break
        except DatabaseError:
            await asyncio.sleep(0.1)
    assert after == done  # the half transaction left nothing
    assert [m.play for m in await store.get_moves(game.game_id)] == ["a"]
    assert await store.mark_update_processed(77)
    again = await store.save_game(game.game_id, 2, "after the crash")
    assert again.version == 3
    await store.close()


async def test_saves_acknowledged_before_a_crash_survive_it(own_server: PostgresServer) -> None:
    url = own_server.url()
    store = await PostgresStorage.open(url)
    await people_on(store)
    game = await store.create_game(new_game())
    acknowledged: list[int] = []

    async def keep_saving() -> None:
        with contextlib.suppress(DatabaseError):
            version = game.version
            for n in range(100_000):
                saved = await store.save_game(
                    game.game_id, version, f"s{n}", moves=[NewMove("white", (1, 1), f"m{n}", "p")]
                )
                version = saved.version
                acknowledged.append(version)

    saver = asyncio.create_task(keep_saving())
    await asyncio.sleep(0.5)
    own_server.kill()
    await saver
    assert len(acknowledged) > 10
    await store.close()

    own_server.restart_after_crash()
    async with await PostgresStorage.open(url) as store:
        final = await store.get_game(game.game_id)
        log = await store.get_moves(game.game_id)
    # every acknowledged save is there, the log is whole, and at most the one save in flight
    # at the kill committed without its answer
    assert final.version in (acknowledged[-1], acknowledged[-1] + 1)
    assert [m.seq for m in log] == list(range(1, final.move_count + 1))
    assert final.version == final.move_count + 1
