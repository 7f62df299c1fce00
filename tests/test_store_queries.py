"""The Progress page's queries: each on an index, and all of them fast on a profile of 10,000 hands."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import event

from store import Store
from tests.store_support import practice_record

START = datetime(2026, 1, 1, tzinfo=timezone.utc)
NOW = START + timedelta(days=200)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, str]]:
    """A profile of 10,000 seeded hands over 180 days, beside another profile's 500."""
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('queries') / 'big.sqlite3'}")
    rng = random.Random(25)
    me, other = store.create_profile(), store.create_profile()
    for profile_id, hands in ((me.id, 10_000), (other.id, 500)):
        for chunk in range(0, hands, 2000):  # grouped writes: setup, not what is measured
            with store.write() as connection:
                for _ in range(min(2000, hands - chunk)):
                    when = START + timedelta(minutes=rng.randrange(60 * 24 * 180))
                    store._insert_practice(connection, profile_id, practice_record(rng, when=when), None)
    yield store, me.id
    store.close()


def progress_queries(store: Store, profile_id: str) -> list[tuple[str, Callable[[], object]]]:
    return [
        ("practice_count", lambda: store.practice_count(profile_id)),
        ("practice_summary", lambda: store.practice_summary(profile_id)),
        ("practice_grades", lambda: store.practice_grades(profile_id)),
        ("practice_by_day", lambda: store.practice_by_day(profile_id, utc_offset=timedelta(hours=7))),
        ("practice_by_theme", lambda: store.practice_by_theme(profile_id)),
        ("practice_by_theme since", lambda: store.practice_by_theme(profile_id, since=NOW - timedelta(days=30))),
        ("practice_records", lambda: store.practice_records(profile_id, limit=50)),
        ("practice_records before", lambda: store.practice_records(profile_id, limit=50, before=NOW)),
        ("review_count", lambda: store.review_count(profile_id, now=NOW)),
        ("review_due", lambda: store.review_due(profile_id, now=NOW, limit=20)),
        ("play_records", lambda: store.play_records(profile_id, limit=50)),
        ("macao_records", lambda: store.macao_records(profile_id, limit=50)),
    ]


def test_every_progress_query_searches_an_index(big: tuple[Store, str]) -> None:
    store, me = big
    statements: list[tuple[str, Any]] = []

    def capture(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append((statement, parameters))

    event.listen(store.engine, "before_cursor_execute", capture)
    try:
        for _, query in progress_queries(store, me):
            query()
    finally:
        event.remove(store.engine, "before_cursor_execute", capture)
    assert len(statements) >= 12
    with store.engine.connect() as connection:
        for statement, parameters in statements:
            plan = [row[3] for row in connection.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters)]
            scans = [step for step in plan if step.startswith("SCAN") and "USING" not in step]
            assert not scans, (statement, plan)
            assert any("USING" in step and "INDEX" in step for step in plan), (statement, plan)


def test_the_progress_queries_of_10000_hands_take_well_under_a_second(big: tuple[Store, str]) -> None:
    store, me = big
    assert store.practice_count(me) == 10_000
    assert sum(d.hands for d in store.practice_by_day(me)) == 10_000
    start = time.perf_counter()
    for _, query in progress_queries(store, me):
        query()
    assert time.perf_counter() - start < 0.5
