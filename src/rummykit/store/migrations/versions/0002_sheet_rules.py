"""Score sheets: more settings (how the game ends…) in ``rules``; no limit needed; a read-only
link, stored as the hash of its token (``view_hash``), made for every sheet already stored.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 04:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rummykit.store.sheets import view_hash

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("score_sheets", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rules", sa.JSON(), nullable=True))
        batch_op.alter_column("point_limit", existing_type=sa.Integer(), nullable=True)
        batch_op.add_column(sa.Column("view_hash", sa.String(length=64), nullable=True))
        batch_op.create_index("ix_score_sheets_view_hash", ["view_hash"], unique=True)
    sheets = sa.table("score_sheets", sa.column("id", sa.String), sa.column("view_hash", sa.String))
    connection = op.get_bind()
    for (sheet_id,) in connection.execute(sa.select(sheets.c.id)).all():
        connection.execute(
            sheets.update().where(sheets.c.id == sheet_id).values(view_hash=view_hash(sheet_id))
        )


def downgrade() -> None:
    with op.batch_alter_table("score_sheets", schema=None) as batch_op:
        batch_op.drop_index("ix_score_sheets_view_hash")
        batch_op.drop_column("view_hash")
        batch_op.alter_column("point_limit", existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column("rules")
