"""The review queue, Play hands and Macao rounds.

Practice records already graded mistake, blunder or foul enter the new review queue (one
item per hand and table, from its latest such record), so an older database keeps the
hands its player got wrong.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from store.records import REVIEW_GRADES, from_ms, hand_key, new_uid
from store.review import card_to_json, first_card

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _owner() -> sa.Column[str]:
    return sa.Column("profile_id", sa.String(64), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False)


def upgrade() -> None:
    review = op.create_table(
        "review_items",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("uid", sa.String(36), nullable=False),
        _owner(),
        sa.Column("hand_key", sa.String(64), nullable=False),
        sa.Column("hand", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("field", sa.String(64), nullable=False),
        sa.Column("mode", sa.String(64), nullable=False),
        sa.Column("played", sa.String(64), nullable=False),
        sa.Column("best", sa.String(64), nullable=False),
        sa.Column("grade", sa.String(16), nullable=False),
        sa.Column("chi_lost", sa.Float, nullable=False),
        sa.Column("card", sa.JSON, nullable=False),
        sa.Column("due_ms", sa.BigInteger, nullable=False),
        sa.Column("reviews", sa.Integer, nullable=False),
        sa.Column("last_grade", sa.String(16)),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("profile_id", "uid", name="uq_review_items_profile_uid"),
        sa.UniqueConstraint("profile_id", "hand_key", "preset", "players", "field", name="uq_review_items_hand_table"),
    )
    op.create_index("ix_review_items_profile_due", "review_items", ["profile_id", "due_ms"])
    op.create_table(
        "play_hands",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("uid", sa.String(36), nullable=False),
        _owner(),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("session", sa.String(64), nullable=False),
        sa.Column("hand_number", sa.Integer, nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("field", sa.String(64), nullable=False),
        sa.Column("levels", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger),
        sa.Column("number", sa.Integer),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("me", sa.Integer, nullable=False),
        sa.Column("settlement", sa.JSON, nullable=False),
        sa.Column("my_net", sa.Float, nullable=False),
        sa.Column("grade", sa.String(16)),
        sa.Column("chi_lost", sa.Float),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("hints", sa.Integer, nullable=False),
        sa.UniqueConstraint("profile_id", "uid", name="uq_play_hands_profile_uid"),
    )
    op.create_index("ix_play_hands_profile_created", "play_hands", ["profile_id", "created_ms"])
    op.create_table(
        "macao_rounds",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("uid", sa.String(36), nullable=False),
        _owner(),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("levels", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=False),
        sa.Column("my_place", sa.Integer),
        sa.Column("turns", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.UniqueConstraint("profile_id", "uid", name="uq_macao_rounds_profile_uid"),
    )
    op.create_index("ix_macao_rounds_profile_created", "macao_rounds", ["profile_id", "created_ms"])
    _queue_old_mistakes(review)


def _queue_old_mistakes(review: sa.Table) -> None:
    practice = sa.table(
        "practice_records",
        *(sa.column(name) for name in ("profile_id", "created_ms", "hand", "preset", "players", "field", "mode")),
        *(sa.column(name) for name in ("played", "best", "grade", "chi_lost")),
    )
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(practice).where(practice.c.grade.in_(sorted(REVIEW_GRADES))).order_by(practice.c.created_ms)
    ).mappings()
    latest: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in rows:  # oldest first, so the latest record of a hand and table wins
        key = (row["profile_id"], hand_key(row["hand"]), row["preset"], row["players"], row["field"])
        latest[key] = {**row, "hand_key": key[1]}
    items = []
    for item in latest.values():
        card = first_card(from_ms(item["created_ms"]))
        item.update(uid=new_uid(), card=card_to_json(card), due_ms=round(card.due.timestamp() * 1000), reviews=0,
                    last_grade=None, updated_ms=item["created_ms"])  # fmt: skip
        items.append(item)
    if items:
        op.bulk_insert(review, items)


def downgrade() -> None:
    op.drop_table("macao_rounds")
    op.drop_table("play_hands")
    op.drop_table("review_items")
