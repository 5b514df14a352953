"""The tables and their steps: one row per table (its version and its state of play as JSON), one row per
step of its log.

Revision ID: 0001
Revises:
Create Date: 2026-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dice_tables",
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("system", sa.String(100), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("format", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
    )
    op.create_table(
        "dice_steps",
        sa.Column("table_id", sa.String(200), sa.ForeignKey("dice_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("member", sa.String(100), nullable=False),
        sa.Column("secret", sa.Boolean, nullable=False),
        sa.Column("entry", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("dice_steps")
    op.drop_table("dice_tables")
