"""The store: profiles, page state, and every Practice, Play and Macao record, in one database.

One :class:`Store` per database and process (:func:`get_store`), shared by every Streamlit
session thread.  Every public method is one transaction: a write is committed (and, on
SQLite, synced to disk) before it returns, and a failed write changes nothing.

A profile's data is reached only through its id (kept in the browser) or its code (typed
by the player): nothing here lists profiles.  Looking a code up is rate limited
(:mod:`store.limits`): past ``code_failures_per_minute`` wrong codes in the last minute,
every app process on the database refuses code lookups with :class:`TooManyCodeAttempts`
until the minute has passed.  A code has 80 random bits, so even without the limit guessing one is hopeless;
the limit keeps a script from trying.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from . import review, transfer
from .codes import format_code, is_profile_id, new_code, new_profile_id, parse_code
from .engine import WRITE, create_engine, head_revision, migrate, schema_version
from .limits import FailureLimit, TooManyAttempts, now_ms
from .paths import database_url
from .records import (
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
    check_macao_round,
    check_play_hand,
    check_practice,
    from_ms,
    hand_key,
    new_uid,
    plain_values,
    to_ms,
    utc_now,
)
from .schema import macao_rounds, page_states, play_hands, practice_records, practice_themes, profiles, review_items
from .transfer import ImportRefused, ProfileExport, ReviewExport

#: Largest page state, as JSON text (a page keeps its settings and the hand in play, not history).
PAGE_STATE_BYTES = 256 * 1024
#: Wrong profile codes this process accepts per minute before it refuses code lookups.
CODE_FAILURES_PER_MINUTE = 20
_DAY_MS = 86_400_000
#: One update of a review item (the columns set are the keys of the parameters given).
_UPDATE_ITEM = review_items.update().where(review_items.c.id == sa.bindparam("row_id"))


class UnknownProfile(ValueError):
    """A profile id that names no profile (deleted, or never created)."""


class TooManyCodeAttempts(TooManyAttempts):
    """Profile code lookups refused for a while: too many wrong codes were tried."""


def _check_page_state(page: str, state: dict[str, Any]) -> None:
    """Raise ValueError unless ``state`` is a JSON-ready dict within the size limit."""
    if not isinstance(page, str) or not 0 < len(page) <= 64:
        raise ValueError(f"a page name is 1-64 characters, got {page!r}")
    if not isinstance(state, dict):
        raise ValueError(f"the state of page {page!r} must be a dict, got {type(state).__name__}")
    try:
        size = len(json.dumps(state, allow_nan=False).encode())
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the state of page {page!r} must be JSON-ready: {exc}") from None
    if size > PAGE_STATE_BYTES:
        raise ValueError(f"the state of page {page!r} is {size} bytes as JSON; the limit is {PAGE_STATE_BYTES}")


def _theme_rows(record_id: int, profile_id: str, record: PracticeRecord) -> list[dict[str, Any]]:
    """The practice_themes rows of a record: one per distinct theme."""
    return [
        {"record_id": record_id, "profile_id": profile_id, "theme": theme, "created_ms": to_ms(record.created_at),
         "chi_lost": record.chi_lost, "grade": record.grade}
        for theme in dict.fromkeys(record.themes)
    ]  # fmt: skip


def _page_row(profile_id: str, page: str, state: dict[str, Any]) -> dict[str, Any]:
    return {"profile_id": profile_id, "page": page, "state": state, "updated_ms": to_ms(utc_now())}


class Store:
    """Profiles and records in one database (``url``, else :func:`store.paths.database_url`).

    Opening brings the schema to the newest version (see :mod:`store.engine`).
    """

    def __init__(
        self,
        url: str | None = None,
        code_failures_per_minute: int = CODE_FAILURES_PER_MINUTE,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.url = url or database_url()
        self.engine: Engine = create_engine(self.url)
        self.version = migrate(self.engine)
        self.codes = FailureLimit(self, "profile", code_failures_per_minute, clock, refusal=TooManyCodeAttempts,
                                  what="profile codes")  # fmt: skip
        insert = postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        self._insert_theme = insert(practice_themes)
        self._insert_new = {
            table.name: insert(table).on_conflict_do_nothing(index_elements=["profile_id", "uid"]).returning(table.c.id)
            for table in (practice_records, play_hands, macao_rounds)
        }
        self._queue_new = (
            insert(review_items)
            .on_conflict_do_nothing(index_elements=["profile_id", "hand_key", "preset", "players", "field"])
            .returning(review_items.c.id)
        )
        upsert = insert(page_states)
        self._page_upsert = upsert.on_conflict_do_update(
            index_elements=["profile_id", "page"],
            set_={"state": upsert.excluded.state, "updated_ms": upsert.excluded.updated_ms},
        )

    def close(self) -> None:
        self.engine.dispose()

    # --- transactions ----------------------------------------------------------------------

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One write transaction (committed when the block ends, rolled back on an error)."""
        with self.engine.connect() as connection:
            connection.execution_options(**{WRITE: True})
            with connection.begin():
                yield connection

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """One read transaction: a consistent snapshot."""
        with self.engine.connect() as connection, connection.begin():
            yield connection

    def schema_version(self) -> str | None:
        """The schema version recorded in the database."""
        with self.read() as connection:
            return schema_version(connection)

    @staticmethod
    def head_version() -> str:
        return head_revision()

    # --- profiles --------------------------------------------------------------------------

    def create_profile(self) -> Profile:
        """A new anonymous profile with a fresh id and code."""
        now = utc_now()
        for _ in range(5):  # a repeated code (1 in 2**80 per profile) gets another draw
            profile = Profile(new_profile_id(), new_code(), from_ms(to_ms(now)))
            try:
                with self.write() as connection:
                    connection.execute(
                        profiles.insert(), {"id": profile.id, "code": profile.code, "created_ms": to_ms(now)}
                    )
            except sa.exc.IntegrityError:
                continue
            return replace(profile, code=format_code(profile.code))
        raise RuntimeError("could not draw an unused profile code")  # pragma: no cover

    def profile(self, profile_id: str) -> Profile | None:
        """The profile with this id, or None."""
        if not is_profile_id(profile_id):
            return None
        with self.read() as connection:
            row = connection.execute(sa.select(profiles).where(profiles.c.id == profile_id)).first()
        return None if row is None else Profile(row.id, format_code(row.code), from_ms(row.created_ms))

    def profile_by_code(self, code: str) -> Profile | None:
        """The profile with this code, or None (a wrong code counts against the rate limit).

        Raises :class:`store.codes.InvalidProfileCode` for text that cannot be a code and
        :class:`TooManyCodeAttempts` while lookups are refused.
        """
        wanted = parse_code(code)
        self.codes.check()
        with self.read() as connection:
            row = connection.execute(sa.select(profiles).where(profiles.c.code == wanted)).first()
        if row is None:
            self.codes.fail()
            return None
        return Profile(row.id, format_code(row.code), from_ms(row.created_ms))

    def delete_profile(self, profile_id: str) -> bool:
        """Delete the profile and everything of it; False when there was none."""
        with self.write() as connection:
            deleted = connection.execute(profiles.delete().where(profiles.c.id == profile_id)).rowcount
        return bool(deleted)

    def _require(self, connection: Connection, profile_id: str) -> None:
        found = connection.execute(sa.select(profiles.c.id).where(profiles.c.id == profile_id)).first()
        if found is None:
            raise UnknownProfile("no such profile (it may have been deleted); a new one must be created")

    # --- export, import ------------------------------------------------------------------

    def export_profile(self, profile_id: str) -> dict[str, Any]:
        """Everything of the profile as a JSON-ready document (see :mod:`store.transfer`)."""

        def oldest(table: sa.Table) -> sa.Select[Any]:
            return sa.select(table).where(table.c.profile_id == profile_id).order_by(table.c.created_ms, table.c.id)

        with self.read() as connection:
            self._require(connection, profile_id)
            pages = connection.execute(
                sa.select(page_states.c.page, page_states.c.state)
                .where(page_states.c.profile_id == profile_id)
                .order_by(page_states.c.page)
            )
            content = ProfileExport(
                page_states={page: dict(state) for page, state in pages},
                practice=[_practice_of(r) for r in connection.execute(oldest(practice_records)).mappings()],
                play=[_play_of(r) for r in connection.execute(oldest(play_hands)).mappings()],
                macao=[_macao_of(r) for r in connection.execute(oldest(macao_rounds)).mappings()],
                review=[_review_export_of(r) for r in connection.execute(oldest(review_items)).mappings()],
            )
        return transfer.export_document(content, utc_now())

    def import_profile(self, profile_id: str, data: bytes | str) -> ImportSummary:
        """Add an export's records to the profile, all or nothing.

        The whole file is checked first (:func:`store.transfer.read_export`); a bad one raises
        :class:`store.transfer.ImportRefused` and changes nothing.  Records already present
        (the same uid; for the review queue, the same hand and table) are skipped, so a
        second import of one file adds nothing.  The file's page states replace the
        profile's.
        """
        content = transfer.read_export(data)
        for page, state in content.page_states.items():
            try:
                _check_page_state(page, state)
            except ValueError as exc:
                raise ImportRefused(f"page state {page!r}: {exc}") from None
        counts = dict.fromkeys(("practice", "play", "macao", "review", "page_states", "skipped"), 0)
        with self.write() as connection:
            self._require(connection, profile_id)
            item = review_items.c
            present = connection.execute(
                sa.select(item.uid, item.hand_key, item.preset, item.players, item.field).where(
                    item.profile_id == profile_id
                )
            ).all()
            uids = {row.uid for row in present}
            tables = {(row.hand_key, row.preset, row.players, row.field) for row in present}
            items = []
            for queued in content.review:
                key = (queued.hand_key, queued.preset, queued.players, queued.field)
                if queued.uid in uids or key in tables:
                    continue
                uids.add(queued.uid)
                tables.add(key)
                row = plain_values(queued) | {"profile_id": profile_id, "hand_key": queued.hand_key}
                row |= {"created_ms": to_ms(row.pop("created_at")), "updated_ms": to_ms(row.pop("updated_at"))}
                items.append(row | {"due_ms": to_ms(review.card_from_json(queued.card).due)})
            if items:
                connection.execute(review_items.insert(), items)
            counts["review"] = len(items)
            sections: list[tuple[str, sa.Table, Sequence[PracticeRecord | PlayHandRecord | MacaoRoundRecord]]] = [
                ("practice", practice_records, content.practice),
                ("play", play_hands, content.play),
                ("macao", macao_rounds, content.macao),
            ]
            for name, table, records in sections:
                known = set(
                    connection.execute(sa.select(table.c.uid).where(table.c.profile_id == profile_id)).scalars()
                )
                rows = []
                for r in records:
                    if r.uid not in known:
                        known.add(r.uid)
                        rows.append(_columns(r, profile_id=profile_id))
                if rows:
                    connection.execute(table.insert(), rows)
                counts[name] = len(rows)
            themed = {r.uid: r for r in content.practice if r.themes}
            if themed:
                ids = connection.execute(
                    sa.select(practice_records.c.uid, practice_records.c.id).where(
                        practice_records.c.profile_id == profile_id, practice_records.c.uid.in_(themed)
                    )
                )
                theme_rows = [row for uid, record_id in ids for row in _theme_rows(record_id, profile_id, themed[uid])]
                # a record already present keeps its theme rows: only the new ones are added
                connection.execute(
                    self._insert_theme.on_conflict_do_nothing(index_elements=["record_id", "theme"]), theme_rows
                )
            counts["skipped"] = (
                len(content.review)
                + sum(len(records) for _, _, records in sections)
                - sum(counts[name] for name in ("review", "practice", "play", "macao"))
            )
            for page, state in content.page_states.items():
                connection.execute(self._page_upsert, _page_row(profile_id, page, state))
                counts["page_states"] += 1
        return ImportSummary(**counts)

    # --- page state ------------------------------------------------------------------------

    def save_page_state(self, profile_id: str, page: str, state: dict[str, Any]) -> None:
        """Keep a page's state for this profile (the last write wins)."""
        _check_page_state(page, state)
        with self.write() as connection:
            self._require(connection, profile_id)
            connection.execute(self._page_upsert, _page_row(profile_id, page, state))

    def load_page_state(self, profile_id: str, page: str) -> dict[str, Any] | None:
        """A page's saved state for this profile, or None."""
        with self.read() as connection:
            state = connection.execute(
                sa.select(page_states.c.state).where(page_states.c.profile_id == profile_id, page_states.c.page == page)
            ).scalar()
        return None if state is None else dict(state)

    # --- practice --------------------------------------------------------------------------

    def record_practice(self, profile_id: str, record: PracticeRecord, review_item: int | None = None) -> int:
        """Record a submitted Practice hand; return its row id.

        A hand graded mistake, blunder or foul enters the review queue (a repeat of a hand
        already queued for the same table updates its item and counts as a lapse).  When the
        hand was dealt from the queue, pass ``review_item``: the same transaction answers that
        item with this grade (see :mod:`store.review`); do not call :meth:`review_answer` too.
        Recording the same ``uid`` twice (a double submit) keeps the first and returns its id.
        """
        record = check_practice(record)
        with self.write() as connection:
            self._require(connection, profile_id)
            return self._insert_practice(connection, profile_id, record, review_item)

    def _insert_practice(
        self,
        connection: Connection,
        profile_id: str,
        record: PracticeRecord,
        review_item: int | None,
    ) -> int:
        row_id, new = self._insert_once(connection, practice_records, _columns(record, profile_id=profile_id))
        if not new:
            return row_id
        if record.themes:
            connection.execute(practice_themes.insert(), _theme_rows(row_id, profile_id, record))
        if review_item is not None:
            self._answer(connection, profile_id, review_item, record.grade, record.created_at, record.hand)
        elif record.grade in REVIEW_GRADES:
            self._enqueue(connection, profile_id, record)
        return row_id

    def practice_count(self, profile_id: str, since: datetime | None = None) -> int:
        """How many Practice hands the profile recorded (since ``since``)."""
        with self.read() as connection:
            return int(
                connection.execute(
                    sa.select(sa.func.count()).where(*self._practice_where(profile_id, since))
                ).scalar_one()
            )

    @staticmethod
    def _practice_where(profile_id: str, since: datetime | None, table: sa.Table = practice_records) -> list[Any]:
        where = [table.c.profile_id == profile_id]
        if since is not None:
            where.append(table.c.created_ms >= to_ms(since))
        return where

    def practice_records(
        self, profile_id: str, limit: int | None = None, before: datetime | None = None
    ) -> list[PracticeRecord]:
        """The profile's Practice records, newest first (``before``: only older ones)."""
        query = sa.select(practice_records).where(practice_records.c.profile_id == profile_id)
        if before is not None:
            query = query.where(practice_records.c.created_ms < to_ms(before))
        query = query.order_by(practice_records.c.created_ms.desc(), practice_records.c.id.desc()).limit(limit)
        with self.read() as connection:
            return [_practice_of(row) for row in connection.execute(query).mappings()]

    def practice_summary(self, profile_id: str, since: datetime | None = None) -> PracticeSummary:
        """Totals of the profile's Practice hands: count, chi lost, best-or-good, mistakes or worse, time, hints."""
        p = practice_records.c
        count = sa.func.count()
        query = sa.select(
            count,
            sa.func.coalesce(sa.func.sum(p.chi_lost), 0.0),
            sa.func.coalesce(sa.func.sum(sa.case((p.grade.in_(("best", "good")), 1), else_=0)), 0),
            sa.func.coalesce(sa.func.sum(sa.case((p.grade.in_(sorted(REVIEW_GRADES)), 1), else_=0)), 0),
            sa.func.coalesce(sa.func.sum(p.seconds), 0.0),
            sa.func.coalesce(sa.func.sum(p.hints), 0),
            sa.func.min(p.created_ms),
            sa.func.max(p.created_ms),
        ).where(*self._practice_where(profile_id, since))
        with self.read() as connection:
            hands, lost, good, bad, seconds, hints, first, last = connection.execute(query).one()
        per = max(int(hands), 1)
        return PracticeSummary(
            hands=int(hands), chi_lost=float(lost), mean_chi_lost=float(lost) / per, good=int(good), mistakes=int(bad),
            mean_seconds=float(seconds) / per, hints=int(hints),
            first=None if first is None else from_ms(first), last=None if last is None else from_ms(last),
        )  # fmt: skip

    def practice_grades(self, profile_id: str, since: datetime | None = None) -> dict[str, int]:
        """How many Practice hands got each grade."""
        query = (
            sa.select(practice_records.c.grade, sa.func.count())
            .where(*self._practice_where(profile_id, since))
            .group_by(practice_records.c.grade)
        )
        with self.read() as connection:
            return {grade: int(n) for grade, n in connection.execute(query)}

    def practice_by_day(
        self, profile_id: str, utc_offset: timedelta = timedelta(0), since: datetime | None = None
    ) -> list[DayStats]:
        """Practice per day (days in the timezone ``utc_offset`` from UTC), oldest first."""
        offset = round(utc_offset.total_seconds() * 1000)
        day = ((practice_records.c.created_ms + offset) // _DAY_MS).label("day")
        good = sa.func.sum(sa.case((practice_records.c.grade.in_(("best", "good")), 1), else_=0))
        query = (
            sa.select(day, sa.func.count(), sa.func.sum(practice_records.c.chi_lost), good)
            .where(*self._practice_where(profile_id, since))
            .group_by(day)
            .order_by(day)
        )
        epoch = date(1970, 1, 1)
        with self.read() as connection:
            return [
                DayStats(epoch + timedelta(days=int(d)), int(n), float(lost), float(lost) / int(n), int(g))
                for d, n, lost, g in connection.execute(query)
            ]

    def practice_by_theme(self, profile_id: str, since: datetime | None = None) -> list[ThemeStats]:
        """Practice per theme, the costliest first."""
        t = practice_themes
        lost = sa.func.sum(t.c.chi_lost)
        bad = sa.func.sum(sa.case((t.c.grade.in_(sorted(REVIEW_GRADES)), 1), else_=0))
        query = (
            sa.select(t.c.theme, sa.func.count(), lost, bad)
            .where(*self._practice_where(profile_id, since, t))
            .group_by(t.c.theme)
            .order_by(lost.desc(), t.c.theme)
        )
        with self.read() as connection:
            return [
                ThemeStats(theme, int(n), float(total), float(total) / int(n), int(b))
                for theme, n, total, b in connection.execute(query)
            ]

    # --- review queue ----------------------------------------------------------------------

    def _enqueue(self, connection: Connection, profile_id: str, record: PracticeRecord) -> None:
        key = hand_key(record.hand)
        item = review_items.c
        now = to_ms(record.created_at)
        latest = {"played": record.played, "best": record.best, "grade": record.grade, "chi_lost": record.chi_lost,
                  "mode": record.mode, "hand": record.hand, "updated_ms": now}  # fmt: skip
        card = review.first_card(record.created_at)
        first = {"uid": new_uid(), "profile_id": profile_id, "hand_key": key, "preset": record.preset,
                 "players": record.players, "field": record.field, "card": review.card_to_json(card),
                 "due_ms": to_ms(card.due), "reviews": 0, "last_grade": None, "created_ms": now}  # fmt: skip
        if connection.execute(self._queue_new, first | latest).scalar() is not None:
            return
        found = connection.execute(  # queued already: this is a lapse of it
            sa.select(item.id, item.card)
            .where(item.profile_id == profile_id, item.hand_key == key, item.preset == record.preset,
                   item.players == record.players, item.field == record.field)
            .with_for_update()
        ).one()  # fmt: skip
        card = review.answer(review.card_from_json(found.card), record.grade, record.created_at)
        connection.execute(
            _UPDATE_ITEM, {"row_id": found.id, "card": review.card_to_json(card), "due_ms": to_ms(card.due), **latest}
        )

    def _answer(
        self, connection: Connection, profile_id: str, item_id: int, grade: str, when: datetime, hand: str | None
    ) -> ReviewItem:
        item = review_items.c
        row = (
            connection.execute(
                sa.select(review_items).where(item.id == item_id, item.profile_id == profile_id).with_for_update()
            )
            .mappings()
            .first()
        )
        if row is None:
            raise InvalidRecord(f"review item {item_id!r} is not in this profile's queue")
        if hand is not None and hand_key(hand) != row["hand_key"]:
            raise InvalidRecord(f"review item {item_id} is the hand {row['hand']}, not {hand}")
        card = review.answer(review.card_from_json(row["card"]), grade, when)
        values = {"card": review.card_to_json(card), "due_ms": to_ms(card.due), "reviews": row["reviews"] + 1,
                  "last_grade": grade, "updated_ms": to_ms(when)}  # fmt: skip
        connection.execute(_UPDATE_ITEM, {"row_id": item_id, **values})
        return _review_of({**row, **values})

    def review_answer(self, profile_id: str, item_id: int, grade: str, now: datetime | None = None) -> ReviewItem:
        """Reschedule a queued hand set again with ``grade`` (the FSRS rating of :mod:`store.review`)."""
        if grade not in review.RATING_OF_GRADE:
            raise InvalidRecord(f"grade must be one of {', '.join(review.RATING_OF_GRADE)}, got {grade!r}")
        with self.write() as connection:
            return self._answer(connection, profile_id, item_id, grade, now or utc_now(), None)

    def review_due(self, profile_id: str, now: datetime | None = None, limit: int | None = None) -> list[ReviewItem]:
        """The queued hands due now, the longest overdue first."""
        item = review_items.c
        query = (
            sa.select(review_items)
            .where(item.profile_id == profile_id, item.due_ms <= to_ms(now or utc_now()))
            .order_by(item.due_ms, item.id)
            .limit(limit)
        )
        with self.read() as connection:
            return [_review_of(row) for row in connection.execute(query).mappings()]

    def review_count(self, profile_id: str, now: datetime | None = None) -> tuple[int, int]:
        """(hands due now, hands in the queue)."""
        item = review_items.c
        due = sa.func.sum(sa.case((item.due_ms <= to_ms(now or utc_now()), 1), else_=0))
        with self.read() as connection:
            n_due, total = connection.execute(
                sa.select(due, sa.func.count()).where(item.profile_id == profile_id)
            ).one()
        return int(n_due or 0), int(total)

    # --- play and macao --------------------------------------------------------------------

    def record_play_hand(self, profile_id: str, record: PlayHandRecord) -> int:
        """Record a hand of a Play session when it is settled; return its row id (a repeated uid keeps the first)."""
        record = check_play_hand(record)
        with self.write() as connection:
            self._require(connection, profile_id)
            return self._insert_play(connection, profile_id, record)

    def _insert_play(self, connection: Connection, profile_id: str, record: PlayHandRecord) -> int:
        return self._insert_once(connection, play_hands, _columns(record, profile_id=profile_id))[0]

    def record_macao_round(self, profile_id: str, record: MacaoRoundRecord) -> int:
        """Record a finished Macao round; return its row id (a repeated uid keeps the first)."""
        record = check_macao_round(record)
        with self.write() as connection:
            self._require(connection, profile_id)
            return self._insert_macao(connection, profile_id, record)

    def _insert_macao(self, connection: Connection, profile_id: str, record: MacaoRoundRecord) -> int:
        return self._insert_once(connection, macao_rounds, _columns(record, profile_id=profile_id))[0]

    def _insert_once(self, connection: Connection, table: sa.Table, row: dict[str, Any]) -> tuple[int, bool]:
        """Insert a record unless its uid is there already: (row id, whether it is new).

        ``ON CONFLICT DO NOTHING`` rather than a look first, so two writers of one uid at once
        (a double submit from two processes on PostgreSQL) end with one row and no error.
        """
        new = connection.execute(self._insert_new[table.name], row).scalar()
        if new is not None:
            return int(new), True
        found = connection.execute(
            sa.select(table.c.id).where(table.c.profile_id == row["profile_id"], table.c.uid == row["uid"])
        ).scalar_one()
        return int(found), False

    def play_records(
        self, profile_id: str, limit: int | None = None, before: datetime | None = None
    ) -> list[PlayHandRecord]:
        """The profile's Play hands, newest first."""
        with self.read() as connection:
            rows = connection.execute(_newest(play_hands, profile_id, limit, before)).mappings()
            return [_play_of(row) for row in rows]

    def macao_records(
        self, profile_id: str, limit: int | None = None, before: datetime | None = None
    ) -> list[MacaoRoundRecord]:
        """The profile's Macao rounds, newest first."""
        with self.read() as connection:
            rows = connection.execute(_newest(macao_rounds, profile_id, limit, before)).mappings()
            return [_macao_of(row) for row in rows]

    def play_count(self, profile_id: str) -> int:
        with self.read() as connection:
            return int(
                connection.execute(sa.select(sa.func.count()).where(play_hands.c.profile_id == profile_id)).scalar_one()
            )

    def macao_count(self, profile_id: str) -> int:
        with self.read() as connection:
            return int(
                connection.execute(
                    sa.select(sa.func.count()).where(macao_rounds.c.profile_id == profile_id)
                ).scalar_one()
            )


def _columns(record: PracticeRecord | PlayHandRecord | MacaoRoundRecord, **extra: Any) -> dict[str, Any]:
    """The row of a record: its plain values, its time in milliseconds."""
    values = plain_values(record)
    values["created_ms"] = to_ms(values.pop("created_at"))
    return values | extra


def _review_export_of(row: Any) -> ReviewExport:
    return ReviewExport(
        uid=row["uid"],
        created_at=from_ms(row["created_ms"]),
        updated_at=from_ms(row["updated_ms"]),
        hand=row["hand"],
        preset=row["preset"],
        players=row["players"],
        field=row["field"],
        mode=row["mode"],
        played=row["played"],
        best=row["best"],
        grade=row["grade"],
        chi_lost=row["chi_lost"],
        reviews=row["reviews"],
        last_grade=row["last_grade"],
        card=dict(row["card"]),
    )


def _newest(table: sa.Table, profile_id: str, limit: int | None, before: datetime | None) -> sa.Select[Any]:
    query = sa.select(table).where(table.c.profile_id == profile_id)
    if before is not None:
        query = query.where(table.c.created_ms < to_ms(before))
    return query.order_by(table.c.created_ms.desc(), table.c.id.desc()).limit(limit)


def _practice_of(row: Any) -> PracticeRecord:
    return PracticeRecord(
        preset=row["preset"], players=row["players"], field=row["field"], hand=row["hand"], played=row["played"],
        best=row["best"], ev=row["ev"], best_ev=row["best_ev"], chi_lost=row["chi_lost"], grade=row["grade"],
        mode=row["mode"], seed=row["seed"], number=row["number"], kind=row["kind"], themes=tuple(row["themes"]),
        seconds=row["seconds"], hints=row["hints"], created_at=from_ms(row["created_ms"]), uid=row["uid"],
    )  # fmt: skip


def _play_of(row: Any) -> PlayHandRecord:
    return PlayHandRecord(
        session=row["session"], hand_number=row["hand_number"], preset=row["preset"], players=row["players"],
        field=row["field"], seats=tuple(PlaySeat(**seat) for seat in row["seats"]), settlement=row["settlement"],
        my_net=row["my_net"], me=row["me"], levels=tuple(row["levels"]), seed=row["seed"], number=row["number"],
        grade=row["grade"], chi_lost=row["chi_lost"], seconds=row["seconds"], hints=row["hints"],
        created_at=from_ms(row["created_ms"]), uid=row["uid"],
    )  # fmt: skip


def _macao_of(row: Any) -> MacaoRoundRecord:
    return MacaoRoundRecord(
        options=row["options"], seed=row["seed"], players=row["players"], result=row["result"],
        levels=tuple(row["levels"]), my_place=row["my_place"], turns=row["turns"], seconds=row["seconds"],
        created_at=from_ms(row["created_ms"]), uid=row["uid"],
    )  # fmt: skip


def _review_of(row: Any) -> ReviewItem:
    return ReviewItem(
        id=row["id"], hand=row["hand"], preset=row["preset"], players=row["players"], field=row["field"],
        mode=row["mode"], played=row["played"], best=row["best"], grade=row["grade"], chi_lost=row["chi_lost"],
        due=from_ms(row["due_ms"]), reviews=row["reviews"], last_grade=row["last_grade"],
        created_at=from_ms(row["created_ms"]),
    )  # fmt: skip


_STORES: dict[str, Store] = {}
_STORES_LOCK = threading.Lock()


def get_store(url: str | None = None) -> Store:
    """The process's one :class:`Store` for ``url`` (default :func:`store.paths.database_url`)."""
    key = url or database_url()
    with _STORES_LOCK:
        found = _STORES.get(key)
        if found is None:
            found = _STORES[key] = Store(key)
        return found
