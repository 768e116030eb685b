"""PostgreSQL backend (asyncpg): for deployments with several bot workers on one database."""

from storage.postgres.migrations import LATEST_VERSION, MIGRATIONS, migrate
from storage.postgres.store import PostgresStorage

__all__ = [
    "LATEST_VERSION",
    "MIGRATIONS",
    "PostgresStorage",
    "is_postgres_url",
    "migrate",
    "redact",
]
