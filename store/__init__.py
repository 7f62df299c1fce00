"""The store: a player's profile, page state and records, kept in a database that survives restarts.

SQLite under the data folder by default, any SQLAlchemy PostgreSQL URL by
``MAU_BINH_DATABASE_URL``; the schema is migrated with Alembic when a :class:`Store` opens.
No Streamlit here: the app's pages call this API.

    from store import get_store, PracticeRecord
    store = get_store()
    me = store.create_profile()
    store.record_practice(me.id, PracticeRecord(...))

See docs/operations.md for the data folder, backups, PostgreSQL and the export format.
"""

from __future__ import annotations

from .codes import InvalidProfileCode, format_code, parse_code
from .engine import DatabaseUnavailable, UnsupportedDatabase
from .paths import data_dir, database_url
from .records import (
    GRADES,
    REVIEW_GRADES,
    DayStats,
    ImportSummary,
    InvalidRecord,
    MacaoRoundRecord,
    PlayHandRecord,
    PlaySeat,
    PracticeRecord,
    PracticeSummary,
    Profile,
    ReviewItem,
    ThemeStats,
)
from .review import RATING_OF_GRADE
from .store import PAGE_STATE_BYTES, Store, TooManyCodeAttempts, UnknownProfile, get_store
from .transfer import MAX_IMPORT_BYTES, ImportRefused

__all__ = [
    "GRADES",
    "MAX_IMPORT_BYTES",
    "PAGE_STATE_BYTES",
    "RATING_OF_GRADE",
    "REVIEW_GRADES",
    "DatabaseUnavailable",
    "DayStats",
    "ImportRefused",
    "ImportSummary",
    "InvalidProfileCode",
    "InvalidRecord",
    "MacaoRoundRecord",
    "PlayHandRecord",
    "PlaySeat",
    "PracticeRecord",
    "PracticeSummary",
    "Profile",
    "ReviewItem",
    "Store",
    "ThemeStats",
    "TooManyCodeAttempts",
    "UnknownProfile",
    "UnsupportedDatabase",
    "data_dir",
    "database_url",
    "format_code",
    "get_store",
    "parse_code",
]
