"""Wrong codes are counted in the database, so the lookup limit holds across app processes.

Until now each process counted the wrong profile and room codes it was given, so two
processes allowed twice as many guesses and a third three times.  ``code_failures`` keeps
one row per wrong code (its kind and time; nothing of what was typed), read by every
process (store/limits.py); rows older than a minute are deleted as new ones come.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "code_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_code_failures_kind_at", "code_failures", ["kind", "at_ms"])


def downgrade() -> None:
    op.drop_index("ix_code_failures_kind_at", "code_failures")
    op.drop_table("code_failures")
