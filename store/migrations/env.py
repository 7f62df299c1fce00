"""Alembic's environment for the store's migrations.

The store runs these itself when it opens a database (``store.engine.migrate``): it passes
its own connection, already inside the transaction that holds the migration lock, in
``config.attributes["connection"]``.  Run from the command line (``alembic -c
store/migrations/alembic.ini revision --autogenerate -m ...``, for a developer writing the
next migration) it connects to :func:`store.paths.database_url`.  Batch mode is on so
that a later migration can alter a column on SQLite too.
"""

from __future__ import annotations

from alembic import context

from store.schema import metadata

config = context.config
connection = config.attributes.get("connection")


def run(conn: object) -> None:
    context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)  # type: ignore[arg-type]
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    run(connection)
else:
    from store.engine import create_engine
    from store.paths import database_url

    with create_engine(config.get_main_option("sqlalchemy.url") or database_url()).connect() as own:
        run(own)
        own.commit()
