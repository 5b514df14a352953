"""The request buckets of the web service, kept where every server process sees them: one row per bucket (a
member's key, by its hash, or a client's address), its tokens and when it was last taken from.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dice_buckets",
        sa.Column("who", sa.String(200), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("stamp", sa.Float, nullable=False),
        sa.Column("granted", sa.Boolean, nullable=False),
    )
    op.create_index("dice_buckets_stamp", "dice_buckets", ["stamp"])


def downgrade() -> None:
    op.drop_index("dice_buckets_stamp", "dice_buckets")
    op.drop_table("dice_buckets")
