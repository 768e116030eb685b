"""Copy a whole nardy database between backends, verified row by row.

    python -m storage.copy sqlite:///path/to/nardy.sqlite3 postgresql://user:pw@host/nardy

The migration path from the embedded SQLite file to PostgreSQL (and back: a PostgreSQL store's
:meth:`~storage.postgres.PostgresStorage.backup` writes a SQLite file with the same code).
Stop the bot first; the copy reads the source in one snapshot anyway.

* Both databases are first brought to the code's schema version (the source too, as the bot
  would on start), and their tables must have the same columns with the same kinds of value.
* Rows are inserted with ``ON CONFLICT DO NOTHING`` in **one destination transaction**, so a
  second run inserts nothing and changes nothing: the copy is idempotent.
* Before that transaction commits, every table is read back from the destination in primary
  key order and compared with the source: row count and a SHA-256 over the rows (values
  normalised by kind: integer, real, text, bytes).  Any difference (the destination already
  held other data) rolls the whole copy back and the command exits with status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import os
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import asyncpg

from storage.settings import is_postgres_url, redact

BATCH = 5_000


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    key: tuple[str, ...]


#: Every table of the schema except ``schema_version``, parents before children.  A migration
#: that adds a table adds it here (a test compares this list with both schemas).
TABLES: tuple[Table, ...] = (
    Table("users", ("user_id",)),
    Table("chats", ("chat_id",)),
    Table("dice_seeds", ("seed_id",)),
    Table("games", ("game_id",)),
    Table("moves", ("game_id", "seq")),
    Table("game_messages", ("game_id", "chat_id", "thread_id", "kind")),
    Table("invitations", ("token",)),
    Table("user_stats", ("user_id", "variant", "vs_ai")),
    Table("ratings", ("user_id", "variant")),
    Table("processed_updates", ("update_id",)),
    Table("game_clocks", ("game_id",)),
    Table("game_offers", ("game_id", "kind")),
    Table("inline_messages_lost", ("inline_message_id",)),
    Table("game_reviews", ("game_id",)),
    Table("player_settings", ("user_id",)),
    Table("picker_turns", ("game_id",)),
    Table("picker_messages", ("game_id", "kind", "user_id")),
    Table("board_claims", ("game_id",)),
)

#: Tables whose ids PostgreSQL generates: its sequence must move past the copied ids.
IDENTITIES = (("games", "game_id"), ("dice_seeds", "seed_id"))

Column = tuple[str, str]  # (name, kind) with kind "int", "real", "text" or "blob"
Row = tuple[Any, ...]


class CopyError(RuntimeError):
    """The databases do not match (schema, or rows after the copy); nothing was committed."""


@dataclass(slots=True)
class TableReport:
    table: str
    source_rows: int
    inserted: int
    destination_rows: int
    source_sha256: str
    destination_sha256: str

    @property
    def same(self) -> bool:
        return (self.source_rows, self.source_sha256) == (
            self.destination_rows,
            self.destination_sha256,
        )

    def line(self) -> str:
        verdict = "ok" if self.same else "DIFFERENT"
        return (
            f"{self.table:<18} rows {self.source_rows:>9} -> {self.destination_rows:>9}  "
            f"inserted {self.inserted:>9}  sha256 {self.source_sha256[:16]} "
            f"{'==' if self.same else '!='} {self.destination_sha256[:16]}  {verdict}"
        )


def _normalise(kinds: Sequence[str]) -> Callable[[Row], Row]:
    casts = [{"int": int, "real": float, "text": str, "blob": bytes}[kind] for kind in kinds]

    def normalise(row: Row) -> Row:
        return tuple(None if v is None else cast(v) for cast, v in zip(casts, row, strict=True))

    return normalise


class Digest:
    """Row count and SHA-256 of a table's rows in key order (``repr`` of normalised tuples,
    which is exact for integers, text, bytes and floats)."""

    def __init__(self, kinds: Sequence[str]) -> None:
        self.rows = 0
        self._hash = hashlib.sha256()
        self._normalise = _normalise(kinds)

    def add(self, batch: Sequence[Row]) -> list[Row]:
        normalised = [self._normalise(tuple(row)) for row in batch]
        for row in normalised:
            self._hash.update(repr(row).encode())
            self._hash.update(b"\n")
        self.rows += len(normalised)
        return normalised

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


class Side(Protocol):
    """One database as the copy sees it: read tables in key order, insert batches."""

    label: str

    async def version(self) -> int: ...
    async def tables(self) -> set[str]: ...
    async def columns(self, table: str) -> list[Column]: ...
    def rows(self, table: Table, columns: Sequence[str]) -> AsyncIterator[list[Row]]: ...
    async def insert(self, table: Table, columns: Sequence[Column], rows: list[Row]) -> int: ...
    async def merge(self, table: Table, columns: Sequence[Column]) -> int: ...
    async def finish(self) -> None: ...


# -- SQLite --------------------------------------------------------------------------------------


_SQLITE_KINDS = {"INTEGER": "int", "REAL": "real", "TEXT": "text", "BLOB": "blob"}


class SqliteSide:
    """A SQLite file through a plain ``sqlite3`` connection, used from worker threads one call
    at a time; everything happens in one transaction (a snapshot when reading)."""

    def __init__(self, path: Path) -> None:
        self.label = f"sqlite:///{path}"
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)

    async def _run(self, call: Callable[[], Any]) -> Any:
        return await asyncio.to_thread(call)

    async def begin(self, *, write: bool) -> None:
        await self._run(lambda: self._conn.execute("BEGIN IMMEDIATE" if write else "BEGIN"))
        # A deferred BEGIN takes its snapshot at the first read: take it now.
        await self._run(lambda: self._conn.execute("SELECT COUNT(*) FROM schema_version"))

    async def version(self) -> int:
        row = await self._run(
            lambda: self._conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        )
        return int(row[0] or 0)

    async def tables(self) -> set[str]:
        rows = await self._run(
            lambda: self._conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            ).fetchall()
        )
        return {row[0] for row in rows} - {"schema_version"}

    async def columns(self, table: str) -> list[Column]:
        rows = await self._run(lambda: self._conn.execute(f"PRAGMA table_info({table})").fetchall())
        return [(row[1], _SQLITE_KINDS[row[2].upper()]) for row in rows]

    async def rows(self, table: Table, columns: Sequence[str]) -> AsyncIterator[list[Row]]:
        cursor = await self._run(
            lambda: self._conn.execute(
                f"SELECT {', '.join(columns)} FROM {table.name} ORDER BY {', '.join(table.key)}"
            )
        )
        while batch := await self._run(lambda: cursor.fetchmany(BATCH)):
            yield batch

    async def insert(self, table: Table, columns: Sequence[Column], rows: list[Row]) -> int:
        names = [name for name, _ in columns]
        sql = (
            f"INSERT INTO {table.name} ({', '.join(names)}) "
            f"VALUES ({', '.join('?' * len(names))}) ON CONFLICT DO NOTHING"
        )

        def insert() -> int:
            before = self._conn.total_changes
            self._conn.executemany(sql, rows)
            return self._conn.total_changes - before

        return int(await self._run(insert))

    async def merge(self, table: Table, columns: Sequence[Column]) -> int:
        return 0  # inserted directly

    async def finish(self) -> None:
        pass

    async def end(self, *, commit: bool) -> None:
        if self._conn.in_transaction:
            await self._run(lambda: self._conn.execute("COMMIT" if commit else "ROLLBACK"))

    async def close(self) -> None:
        await self._run(self._conn.close)


# -- PostgreSQL ----------------------------------------------------------------------------------


_PG_KINDS = {
    "bigint": "int",
    "smallint": "int",
    "integer": "int",
    "double precision": "real",
    "text": "text",
    "bytea": "blob",
}


class PostgresSide:
    """A PostgreSQL database on one connection, in one transaction (REPEATABLE READ when
    reading, so every table comes from the same snapshot)."""

    def __init__(self, conn: asyncpg.Connection, label: str) -> None:
        self.label = label
        self._conn = conn
        self._transaction: Any = None
        self._staged: set[str] = set()

    async def begin(self, *, write: bool) -> None:
        self._transaction = self._conn.transaction(isolation="repeatable_read", readonly=not write)
        await self._transaction.start()

    async def version(self) -> int:
        return int(await self._conn.fetchval("SELECT MAX(version) FROM schema_version") or 0)

    async def tables(self) -> set[str]:
        rows = await self._conn.fetch(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
        return {row[0] for row in rows} - {"schema_version"}

    async def columns(self, table: str) -> list[Column]:
        rows = await self._conn.fetch(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            table,
        )
        return [(row[0], _PG_KINDS[row[1]]) for row in rows]

    async def rows(self, table: Table, columns: Sequence[str]) -> AsyncIterator[list[Row]]:
        kinds = dict(await self.columns(table.name))
        # Text keys in byte order, as SQLite sorts them, whatever the database's collation.
        order = ", ".join(
            f'{key} COLLATE "C"' if kinds[key] == "text" else key for key in table.key
        )
        sql = f"SELECT {', '.join(columns)} FROM {table.name} ORDER BY {order}"
        batch: list[Row] = []
        async for record in self._conn.cursor(sql, prefetch=BATCH):
            batch.append(tuple(record))
            if len(batch) == BATCH:
                yield batch
                batch = []
        if batch:
            yield batch

    async def insert(self, table: Table, columns: Sequence[Column], rows: list[Row]) -> int:
        """Stage the rows with COPY into a temporary table; :meth:`finish` merges them."""
        staging = f"copy_{table.name}"
        if staging not in self._staged:
            await self._conn.execute(
                f"CREATE TEMPORARY TABLE {staging} (LIKE {table.name}) ON COMMIT DROP"
            )
            self._staged.add(staging)
        await self._conn.copy_records_to_table(
            staging, records=rows, columns=[name for name, _ in columns]
        )
        return 0

    async def merge(self, table: Table, columns: Sequence[Column]) -> int:
        staging = f"copy_{table.name}"
        if staging not in self._staged:
            return 0
        names = ", ".join(name for name, _ in columns)
        status = await self._conn.execute(
            f"INSERT INTO {table.name} ({names}) SELECT {names} FROM {staging} "
            "ON CONFLICT DO NOTHING"
        )
        return int(status.split()[-1])  # "INSERT 0 <count>"

    async def finish(self) -> None:
        # Rows copied with their ids: new ones must be numbered after them.
        for table, column in IDENTITIES:
            await self._conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                f"COALESCE(MAX({column}), 0) + 1, false) FROM {table}"
            )

    async def end(self, *, commit: bool) -> None:
        if self._transaction is not None:
            await (self._transaction.commit() if commit else self._transaction.rollback())
            self._transaction = None


# -- the copy -------------------------------------------------------------------------------------


async def copy_between(source: Side, destination: Side) -> list[TableReport]:
    """Copy every table from ``source`` into ``destination`` inside their open transactions;
    raise :class:`CopyError` (the caller rolls back) unless the destination then matches."""
    versions = (await source.version(), await destination.version())
    if versions[0] != versions[1]:
        raise CopyError(f"schema versions differ: source {versions[0]}, destination {versions[1]}")
    known = {table.name for table in TABLES}
    for side in (source, destination):
        if await side.tables() != known:
            found = sorted(await side.tables())
            raise CopyError(f"{side.label}: tables {found} are not {sorted(known)}")
    reports = []
    for table in TABLES:
        columns = await source.columns(table.name)
        if columns != await destination.columns(table.name):
            raise CopyError(f"table {table.name}: columns differ between the two databases")
        names = [name for name, _ in columns]
        kinds = [kind for _, kind in columns]
        digest = Digest(kinds)
        inserted = 0
        async for batch in source.rows(table, names):
            inserted += await destination.insert(table, columns, digest.add(batch))
        inserted += await destination.merge(table, columns)
        check = Digest(kinds)
        async for batch in destination.rows(table, names):
            check.add(batch)
        reports.append(
            TableReport(
                table.name, digest.rows, inserted, check.rows, digest.hexdigest(), check.hexdigest()
            )
        )
    await destination.finish()
    return reports


async def _prepare(location: str) -> str:
    """Create or migrate the database at ``location`` to the code's schema; its label."""
    from storage import open_storage, sqlite_path

    store = await open_storage(location)
    await store.close()
    return redact(location) if is_postgres_url(location) else f"sqlite:///{sqlite_path(location)}"


@contextlib.asynccontextmanager
async def _side(location: str) -> AsyncIterator[Any]:
    from storage import sqlite_path

    label = await _prepare(location)
    if is_postgres_url(location):
        conn = await asyncpg.connect(location)
        try:
            yield PostgresSide(conn, label)
        finally:
            await conn.close()
    else:
        side = SqliteSide(sqlite_path(location))
        try:
            yield side
        finally:
            await side.close()


async def copy_database(source: str, destination: str) -> list[TableReport]:
    """Copy ``source`` into ``destination`` (each a ``sqlite:///`` path, a plain path or a
    ``postgresql://`` URL); committed only if every table then matches."""
    async with _side(source) as src, _side(destination) as dst:
        await src.begin(write=False)
        await dst.begin(write=True)
        committed = False
        try:
            reports = await copy_between(src, dst)
            if not all(report.same for report in reports):
                raise CopyError(_mismatch(reports))
            await dst.end(commit=True)
            committed = True
        finally:
            if not committed:
                await dst.end(commit=False)
            await src.end(commit=False)
    return reports


def _mismatch(reports: Sequence[TableReport]) -> str:
    lines = [report.line() for report in reports]
    return (
        "the destination does not match the source after the copy (it holds other rows?); "
        "nothing was committed:\n" + "\n".join(lines)
    )


async def copy_postgres_to_sqlite(pool: asyncpg.Pool, target: Path) -> list[TableReport]:
    """Write a fresh SQLite file at ``target`` holding a snapshot of the pool's database."""
    from storage.sqlite import SqliteStorage

    target = Path(target)
    scratch = target.with_name(target.name + ".partial")
    scratch.unlink(missing_ok=True)
    await (await SqliteStorage.open(scratch)).close()
    async with pool.acquire() as conn:
        source = PostgresSide(conn, "postgresql")
        destination = SqliteSide(scratch)
        try:
            await source.begin(write=False)
            await destination.begin(write=True)
            try:
                reports = await copy_between(source, destination)
                if not all(report.same for report in reports):
                    raise CopyError(_mismatch(reports))
                await destination.end(commit=True)
            finally:
                await destination.end(commit=False)
                await source.end(commit=False)
        finally:
            await destination.close()
    os.replace(scratch, target)
    return reports


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m storage.copy",
        description="Copy a nardy database (SQLite -> PostgreSQL, or the other way), "
        "idempotently, and verify it by row counts and SHA-256 checksums.",
    )
    parser.add_argument("source", help="sqlite:///path/to/nardy.sqlite3, a path, or a URL")
    parser.add_argument("destination", help="postgresql://user:password@host:port/database")
    args = parser.parse_args(argv)
    if args.source == args.destination:
        parser.error("source and destination are the same database")
    try:
        reports = asyncio.run(copy_database(args.source, args.destination))
    except CopyError as exc:
        print(f"copy failed: {exc}", file=sys.stderr)
        return 1
    print(f"copied {redact(args.source)} -> {redact(args.destination)}")
    for report in reports:
        print(report.line())
    total = sum(report.inserted for report in reports)
    unchanged = "" if total else " (nothing changed)"
    print(f"verified: every table matches; {total} rows inserted{unchanged}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
