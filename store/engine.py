"""Opening a database: the engine, its connection settings, and the schema migrations.

Kept apart from the records so that other modules (rooms, later) can share one engine
and add their own tables through the same migration history.

SQLite (the default) is opened so that a committed write is a durable one:

* ``journal_mode=WAL``: readers never block the writer nor the writer the readers, so two
  tabs (two Streamlit threads) or two processes can use one file at once;
* ``synchronous=FULL``: every commit syncs the write-ahead log to disk before it returns.
  ``NORMAL`` would already survive a killed process (the OS holds what was written), but
  could lose the last commits on a power cut or an OS crash; FULL costs one ``fsync`` per
  commit (a few milliseconds) and makes "committed" mean "on disk";
* ``busy_timeout``: a writer waits up to 30 s for another one instead of failing at once;
* ``foreign_keys=ON``: deleting a profile cascades to everything it owns;
* writes start with ``BEGIN IMMEDIATE``: the write lock is taken at the start, so two
  writers queue up on the busy timeout instead of one failing on a lock upgrade
  (SQLite's ``SQLITE_BUSY`` deadlock of two deferred transactions).

PostgreSQL needs none of this: its transactions are durable and its rows locked.  Any
other database is refused with a clear message.

The migrations (Alembic, in ``store/migrations``) run at open, inside one transaction that
holds the migration lock (SQLite: the write lock; PostgreSQL: an advisory lock), so
several processes opening a fresh database at once apply each migration exactly once.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

#: The dialects the store is written and tested for.
SUPPORTED = ("sqlite", "postgresql")
#: Seconds a writer waits for another one's lock (SQLite busy timeout).
BUSY_SECONDS = 30
#: Execution option that marks a connection about to write (SQLite: BEGIN IMMEDIATE).
WRITE = "store_write"
#: PostgreSQL advisory lock key held while migrating ("MAUBINH" in ASCII, fits in 64 bits).
_PG_MIGRATION_LOCK = 0x4D4155_42494E48


class UnsupportedDatabase(ValueError):
    """A database URL the store cannot use."""


class DatabaseUnavailable(RuntimeError):
    """A database the store cannot open: unreadable, or at a schema version newer than this code."""


def create_engine(url: str) -> Engine:
    """An engine for ``url`` set up as the module docstring says."""
    parsed = sa.make_url(url)
    dialect = parsed.get_backend_name()
    if dialect not in SUPPORTED:
        raise UnsupportedDatabase(
            f"the store runs on SQLite or PostgreSQL; MAU_BINH_DATABASE_URL names {dialect!r} ({parsed!r})"
        )
    if dialect != "sqlite":
        return sa.create_engine(parsed, pool_pre_ping=True)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(parsed, connect_args={"timeout": BUSY_SECONDS, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the store says when transactions begin (below)
        cursor = dbapi_connection.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE" if connection.get_execution_options().get(WRITE) else "BEGIN")

    return engine


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(resources.files("store") / "migrations"))
    return config


def head_revision() -> str:
    """The newest schema version this code knows."""
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def schema_version(connection: Connection) -> str | None:
    """The schema version of the database (None for an empty one)."""
    return MigrationContext.configure(connection).get_current_revision()


def migrate(engine: Engine) -> str:
    """Bring the database to the newest schema version (never dropping data); return it.

    Raises :class:`DatabaseUnavailable` when the database cannot be read (not a database, no
    access) or was written by a newer version of the app.
    """
    scripts = ScriptDirectory.from_config(_config())
    head = scripts.get_current_head()
    assert head is not None
    try:
        with engine.connect() as probe:
            current = schema_version(probe)
        if current == head:
            return head
        known = {script.revision for script in scripts.walk_revisions()}
        if current is not None and current not in known:
            raise DatabaseUnavailable(
                f"the database {engine.url!r} is at schema version {current!r}, which this version of the app "
                f"does not know (its newest is {head!r}): a newer app wrote it; run that version, or restore "
                f"a backup"
            )
        with engine.connect() as connection:
            connection.execution_options(**{WRITE: True})
            with connection.begin():
                if engine.dialect.name == "postgresql":
                    connection.execute(sa.select(sa.func.pg_advisory_xact_lock(_PG_MIGRATION_LOCK)))
                config = _config()
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
                version = schema_version(connection)
    except sa.exc.DBAPIError as exc:
        raise DatabaseUnavailable(f"the database {engine.url!r} cannot be opened: {exc.orig}") from exc
    assert version == head, (version, head)
    return head
