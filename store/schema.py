"""The store's tables (SQLAlchemy Core), as the newest migration leaves them.

The migrations in ``store/migrations/versions`` create and change these tables; this
module describes the result for queries (a test checks that the two agree).  Every
profile-owned row carries ``profile_id`` with ``ON DELETE CASCADE``, so deleting a profile
deletes everything of it in one statement, and every query a page runs is on an index
that starts with ``profile_id``.  Times are integer milliseconds since the epoch (UTC);
JSON columns hold dicts and lists the records checked as JSON-ready.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()


def _owner() -> sa.Column[str]:
    return sa.Column("profile_id", sa.String(64), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False)


profiles = sa.Table(
    "profiles",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("code", sa.String(16), nullable=False, unique=True),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
)

page_states = sa.Table(
    "page_states",
    metadata,
    _owner(),
    sa.Column("page", sa.String(64), nullable=False),
    sa.Column("state", sa.JSON, nullable=False),
    sa.Column("updated_ms", sa.BigInteger, nullable=False),
    sa.PrimaryKeyConstraint("profile_id", "page"),
)

practice_records = sa.Table(
    "practice_records",
    metadata,
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
    sa.Index("ix_practice_records_profile_created", "profile_id", "created_ms"),
)

#: One row per (practice record, theme), so per-theme counts and costs are one GROUP BY.
practice_themes = sa.Table(
    "practice_themes",
    metadata,
    sa.Column("record_id", sa.Integer, sa.ForeignKey("practice_records.id", ondelete="CASCADE"), nullable=False),
    _owner(),
    sa.Column("theme", sa.String(64), nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("chi_lost", sa.Float, nullable=False),
    sa.Column("grade", sa.String(16), nullable=False),
    sa.PrimaryKeyConstraint("record_id", "theme"),
    sa.Index("ix_practice_themes_profile_theme", "profile_id", "theme", "created_ms"),
)

review_items = sa.Table(
    "review_items",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("uid", sa.String(36), nullable=False),
    _owner(),
    sa.Column("hand_key", sa.String(64), nullable=False),  # the 13 cards in code order
    sa.Column("hand", sa.String(64), nullable=False),
    sa.Column("preset", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("field", sa.String(64), nullable=False),
    sa.Column("mode", sa.String(64), nullable=False),
    sa.Column("played", sa.String(64), nullable=False),
    sa.Column("best", sa.String(64), nullable=False),
    sa.Column("grade", sa.String(16), nullable=False),
    sa.Column("chi_lost", sa.Float, nullable=False),
    sa.Column("card", sa.JSON, nullable=False),  # the FSRS card (fsrs.Card.to_dict)
    sa.Column("due_ms", sa.BigInteger, nullable=False),
    sa.Column("reviews", sa.Integer, nullable=False),
    sa.Column("last_grade", sa.String(16)),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("updated_ms", sa.BigInteger, nullable=False),
    sa.UniqueConstraint("profile_id", "uid", name="uq_review_items_profile_uid"),
    sa.UniqueConstraint("profile_id", "hand_key", "preset", "players", "field", name="uq_review_items_hand_table"),
    sa.Index("ix_review_items_profile_due", "profile_id", "due_ms"),
)

play_hands = sa.Table(
    "play_hands",
    metadata,
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
    sa.Column("seats", sa.JSON, nullable=False),  # [{"name", "hand", "played"}]
    sa.Column("me", sa.Integer, nullable=False),
    sa.Column("settlement", sa.JSON, nullable=False),
    sa.Column("my_net", sa.Float, nullable=False),
    sa.Column("grade", sa.String(16)),
    sa.Column("chi_lost", sa.Float),
    sa.Column("seconds", sa.Float, nullable=False),
    sa.Column("hints", sa.Integer, nullable=False),
    sa.UniqueConstraint("profile_id", "uid", name="uq_play_hands_profile_uid"),
    sa.Index("ix_play_hands_profile_created", "profile_id", "created_ms"),
)

macao_rounds = sa.Table(
    "macao_rounds",
    metadata,
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
    sa.Index("ix_macao_rounds_profile_created", "profile_id", "created_ms"),
)

#: A room's whole state (rooms/), rewritten by each action only at the version it read.
rooms = sa.Table(
    "rooms",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("state", sa.JSON, nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("updated_ms", sa.BigInteger, nullable=False),
    sa.Index("ix_rooms_updated", "updated_ms"),
)

#: The rows a seat of a room is arranging (saved on every move; read at the reveal).
room_drafts = sa.Table(
    "room_drafts",
    metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("hand", sa.Integer, nullable=False),
    sa.Column("rows", sa.JSON, nullable=False),
    sa.Column("updated_ms", sa.BigInteger, nullable=False),
    sa.PrimaryKeyConstraint("code", "seat"),
)

#: When each seat's page last polled its room (a quiet page's seat is marked away).
room_seen = sa.Table(
    "room_seen",
    metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("seen_ms", sa.BigInteger, nullable=False),
    sa.PrimaryKeyConstraint("code", "seat"),
)


#: Wrong codes tried (profile or room codes), for the lookup limit of every process (store/limits.py).
code_failures = sa.Table(
    "code_failures",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("at_ms", sa.BigInteger, nullable=False),
    sa.Index("ix_code_failures_kind_at", "kind", "at_ms"),
)
