"""Score sheets: more settings (how the game ends) in a ``rules`` column; no limit needed.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 04:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("score_sheets", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rules", sa.JSON(), nullable=True))
        batch_op.alter_column("point_limit", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    with op.batch_alter_table("score_sheets", schema=None) as batch_op:
        batch_op.alter_column("point_limit", existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column("rules")
