"""Alembic's environment for the table's schema: it runs on the connection the store hands it
(``config.attributes["connection"]``), or on ``sqlalchemy.url`` when run by the ``alembic`` command."""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlalchemy import create_engine

from diceengine.table.schema import VERSION_TABLE, metadata

config = context.config


def run(connection: Any) -> None:
    context.configure(connection=connection, target_metadata=metadata, version_table=VERSION_TABLE,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


given = config.attributes.get("connection")
if given is not None:
    run(given)
else:  # the alembic command line: alembic -x url=... or sqlalchemy.url in its ini
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url") or ""
    with create_engine(url).begin() as conn:
        run(conn)
