"""Profiles, page state and practice records (with their themes).

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _owner() -> sa.Column[str]:
    return sa.Column("profile_id", sa.String(64), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False)


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "page_states",
        _owner(),
        sa.Column("page", sa.String(64), nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("profile_id", "page"),
    )
    op.create_table(
        "practice_records",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("uid", sa.String(36), nullable=False),
        _owner(),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("field", sa.String(64), nullable=False),
        sa.Column("mode", sa.String(64), nullable=False),
        sa.Column("hand", sa.String(64), nullable=False),
        sa.Column("seed", sa.BigInteger),
        sa.Column("number", sa.Integer),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("played", sa.String(64), nullable=False),
        sa.Column("best", sa.String(64), nullable=False),
        sa.Column("ev", sa.Float, nullable=False),
        sa.Column("best_ev", sa.Float, nullable=False),
        sa.Column("chi_lost", sa.Float, nullable=False),
        sa.Column("grade", sa.String(16), nullable=False),
        sa.Column("themes", sa.JSON, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("hints", sa.Integer, nullable=False),
        sa.UniqueConstraint("profile_id", "uid", name="uq_practice_records_profile_uid"),
    )
    op.create_index("ix_practice_records_profile_created", "practice_records", ["profile_id", "created_ms"])
    op.create_table(
        "practice_themes",
        sa.Column("record_id", sa.Integer, sa.ForeignKey("practice_records.id", ondelete="CASCADE"), nullable=False),
        _owner(),
        sa.Column("theme", sa.String(64), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("chi_lost", sa.Float, nullable=False),
        sa.Column("grade", sa.String(16), nullable=False),
        sa.PrimaryKeyConstraint("record_id", "theme"),
    )
    op.create_index("ix_practice_themes_profile_theme", "practice_themes", ["profile_id", "theme", "created_ms"])


def downgrade() -> None:
    op.drop_table("practice_themes")
    op.drop_table("practice_records")
    op.drop_table("page_states")
    op.drop_table("profiles")
