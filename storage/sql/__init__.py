"""What the SQLite and PostgreSQL backends share: the write transactions (as bodies that
yield their statements, :mod:`storage.sql.steps`), the move clocks', dice seeds' and reviews'
steps, and the schema of the later migrations."""
