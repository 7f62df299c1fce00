"""The store on PostgreSQL: the same tests as on SQLite, and writers racing on one profile.

Run against a server you name (the tests work in a schema of their own, dropped afterwards)::

    MAU_BINH_TEST_POSTGRES_URL="postgresql+psycopg://user@localhost/test" python -m pytest -m postgres

Without MAU_BINH_TEST_POSTGRES_URL these tests are deselected (tests/conftest.py).
"""

from __future__ import annotations

import os
import random
import secrets
import threading
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from store import Store
from tests.store_support import practice_record
from tests.test_store import (  # noqa: F401  (collected here again, with this module's `store`)
    HAND,
    check_an_old_database_is_migrated,
    test_a_bad_practice_record_is_refused_and_writes_nothing,
    test_a_double_submit_is_recorded_once,
    test_a_review_hand_is_recorded_and_answered_in_one_write,
    test_an_empty_database_is_migrated_to_head_and_matches_the_schema,
    test_deleting_a_profile_deletes_everything_of_it_and_nothing_else,
    test_mistakes_enter_the_review_queue_once_per_hand_and_table,
    test_page_state_last_write_wins_and_is_per_page_and_profile,
    test_page_state_refusals,
    test_play_and_macao_records_round_trip,
    test_practice_records_come_back_newest_first_and_canonical,
    test_profile_ids_are_long_random_and_codes_round_trip,
    test_progress_aggregates_agree_with_the_records,
    test_review_answers_reschedule_by_grade,
)
from tests.test_store_transfer import (  # noqa: F401
    test_a_bad_file_is_refused_with_its_reason_and_changes_nothing,
    test_a_uid_twice_in_one_file_is_imported_once,
    test_a_write_failing_late_rolls_back_the_whole_import,
    test_export_delete_import_round_trip,
)

pytestmark = pytest.mark.postgres
SERVER = os.environ.get("MAU_BINH_TEST_POSTGRES_URL", "")


@pytest.fixture
def url() -> Iterator[str]:
    """The server's URL, its connections confined to a fresh schema that is dropped afterwards."""
    schema = f"mau_binh_test_{secrets.token_hex(6)}"
    admin = sa.create_engine(SERVER)
    with admin.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    parsed = sa.make_url(SERVER)
    yield parsed.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    with admin.begin() as connection:
        connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    admin.dispose()


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    s = Store(url)
    assert s.engine.dialect.name == "postgresql"
    yield s
    s.close()


def test_an_old_postgres_database_is_migrated_and_keeps_its_data(url: str) -> None:
    check_an_old_database_is_migrated(url)


def test_writers_racing_on_one_profile_and_one_hand(store: Store) -> None:
    """Threads (each its own connection) record the same mistaken hand and their own hands at once:
    one review item for the shared hand, every record present, no error."""
    me = store.create_profile()
    errors: list[BaseException] = []
    barrier = threading.Barrier(6)

    def tab(seed: int) -> None:
        rng = random.Random(seed)
        try:
            barrier.wait()
            for i in range(25):
                shared = practice_record(rng, grade="mistake", hand=HAND, played=SHARED, best=SHARED,
                                         preset="plain", players=4)  # fmt: skip
                store.record_practice(me.id, shared)
                store.record_practice(me.id, practice_record(rng, grade="good"))
                store.save_page_state(me.id, "practice", {"tab": seed, "i": i})
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=tab, args=(seed,)) for seed in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.practice_count(me.id) == 300
    items = store.review_due(me.id, now=practice_record(random.Random(0)).created_at.replace(year=2100))
    assert len([i for i in items if (i.hand, i.preset, i.players) == (HAND, "plain", 4)]) == 1


SHARED = "4d 3d 2d | As Ks Qs Js Ts | 9h 8h 7h 6h 5h"


def test_a_double_submit_racing_is_one_row(store: Store) -> None:
    me = store.create_profile()
    record = practice_record(random.Random(3), grade="foul")
    ids: list[int] = []
    barrier = threading.Barrier(4)

    def submit() -> None:
        barrier.wait()
        ids.append(store.record_practice(me.id, record))

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(ids)) == 1 and len(ids) == 4 and store.practice_count(me.id) == 1
