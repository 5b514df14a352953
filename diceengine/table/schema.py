"""The table's schema (SQLAlchemy Core): the one the migrations (``migrations/``, Alembic) build."""

from __future__ import annotations

import sqlalchemy as sa

__all__ = ["VERSION_TABLE", "buckets", "metadata", "steps", "tables"]

#: Alembic's version table, named apart from an application's own in a shared database
VERSION_TABLE = "dice_alembic_version"

metadata = sa.MetaData()

#: one row per table: its version (the number of steps in its log) and its state without the log, as JSON
tables = sa.Table(
    "dice_tables", metadata,
    sa.Column("id", sa.String(200), primary_key=True),
    sa.Column("system", sa.String(100), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("format", sa.Integer, nullable=False),
    sa.Column("state", sa.Text, nullable=False),
)

#: one row per step of a table's log, numbered 1 to the table's version: the key refuses a doubled step
steps = sa.Table(
    "dice_steps", metadata,
    sa.Column("table_id", sa.String(200), sa.ForeignKey("dice_tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("member", sa.String(100), nullable=False),
    sa.Column("secret", sa.Boolean, nullable=False),
    sa.Column("entry", sa.Text, nullable=False),
)

#: the web service's request buckets, one row each (a key's hash or a client's address): the tokens left after the
#: last request, its time (seconds since the epoch), and whether that request got a token
buckets = sa.Table(
    "dice_buckets", metadata,
    sa.Column("who", sa.String(200), primary_key=True),
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("stamp", sa.Float, nullable=False),
    sa.Column("granted", sa.Boolean, nullable=False),
    sa.Index("dice_buckets_stamp", "stamp"),
)
