"""Rooms: private tables for 2-4 people on their own phones (see rooms/ and docs/rooms.md).

One row per room holds its whole state as JSON with a version number (every action is one
transaction that rewrites the row only if the version is still the one it read), and one
row per seat holds the cards a person is arranging, so a reload finds them where they were
and a move does not make the other seats' pages redraw; one row per seat says when its page
last polled (a person whose page went quiet is played by a computer until they come back).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_rooms_updated", "rooms", ["updated_ms"])
    op.create_table(
        "room_drafts",
        sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("rows", sa.JSON, nullable=False),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("code", "seat"),
    )
    op.create_table(
        "room_seen",
        sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("seen_ms", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("code", "seat"),
    )


def downgrade() -> None:
    op.drop_table("room_seen")
    op.drop_table("room_drafts")
    op.drop_index("ix_rooms_updated", "rooms")
    op.drop_table("rooms")
