"""Export, delete and import a profile: the round trip, and every refusal of a bad file."""

from __future__ import annotations

import copy
import json
import random
import re
import uuid
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from store import MAX_IMPORT_BYTES, ImportRefused, ImportSummary, Store
from tests.store_support import practice_record
from tests.test_store import macao_record, play_record

T0 = datetime(2026, 4, 1, 8, tzinfo=timezone.utc)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'transfer.sqlite3'}")
    yield s
    s.close()


def fill(store: Store, profile_id: str, seed: int = 1) -> None:
    """A profile with some of everything: practice (some mistakes, one reviewed), play, macao, page states."""
    rng = random.Random(seed)
    for i in range(40):
        store.record_practice(profile_id, practice_record(rng, when=T0 + timedelta(minutes=i)))
    due = store.review_due(profile_id, now=T0 + timedelta(days=1))
    assert due, "the seeded records include mistakes"
    store.review_answer(profile_id, due[0].id, "good", now=T0 + timedelta(days=1))
    for i in range(3):
        store.record_play_hand(profile_id, play_record(rng, hand_number=i, created_at=T0 + timedelta(hours=i)))
        store.record_macao_round(profile_id, macao_record(seed=i, created_at=T0 + timedelta(hours=i)))
    store.save_page_state(profile_id, "practice", {"preset": "plain", "players": 3})
    store.save_page_state(profile_id, "play", {"levels": ["strong", "naive"]})


def without_time(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "exported_at"}


def test_export_delete_import_round_trip(store: Store) -> None:
    me = store.create_profile()
    fill(store, me.id)
    exported = store.export_profile(me.id)
    text = json.dumps(exported)
    themes, days = store.practice_by_theme(me.id), store.practice_by_day(me.id)
    assert themes
    assert me.id not in text and me.code not in text and me.code.replace("-", "") not in text
    uids = [r["uid"] for section in ("practice", "play", "macao", "review") for r in exported[section]]
    assert len(set(uids)) == len(uids) and all(uuid.UUID(u) for u in uids)
    assert (len(exported["practice"]), len(exported["play"]), len(exported["macao"])) == (40, 3, 3)

    store.delete_profile(me.id)
    again = store.create_profile()
    summary = store.import_profile(again.id, text.encode())
    assert summary == ImportSummary(
        practice=40, play=3, macao=3, review=len(exported["review"]), page_states=2, skipped=0
    )
    assert without_time(store.export_profile(again.id)) == without_time(exported)
    assert store.review_count(again.id, T0 + timedelta(days=1))[1] == len(exported["review"])
    assert (store.practice_by_theme(again.id), store.practice_by_day(again.id)) == (themes, days)
    assert store.import_profile(again.id, text) == ImportSummary(page_states=2, skipped=len(uids))
    assert without_time(store.export_profile(again.id)) == without_time(exported)  # nothing added
    assert store.practice_by_theme(again.id) == themes


def test_importing_into_a_profile_with_data_adds_the_new_records(store: Store) -> None:
    mine, theirs = store.create_profile(), store.create_profile()
    fill(store, mine.id, seed=1)
    fill(store, theirs.id, seed=2)
    summary = store.import_profile(mine.id, json.dumps(store.export_profile(theirs.id)))
    assert summary.practice == 40 and store.practice_count(mine.id) == 80
    assert store.load_page_state(mine.id, "practice") == {"preset": "plain", "players": 3}


def good_document(store: Store) -> dict[str, Any]:
    source = store.create_profile()
    fill(store, source.id, seed=3)
    return store.export_profile(source.id)


def edit(change: Callable[[dict[str, Any]], object]) -> Callable[[dict[str, Any]], str]:
    def make(document: dict[str, Any]) -> str:
        document = copy.deepcopy(document)
        change(document)
        return json.dumps(document)

    return make


def practice(n: int, **values: object) -> Callable[[dict[str, Any]], str]:
    return edit(lambda d: d["practice"][n - 1].update(values))


HAND = "As Ks Qs Js Ts 9h 8h 7h 6h 5h 4d 3d 2d"
SET = "4d 3d 2d | As Ks Qs Js Ts | 9h 8h 7h 6h 5h"
REFUSALS: list[tuple[str, Callable[[dict[str, Any]], str | bytes], str]] = [
    ("too big", lambda d: b" " * (MAX_IMPORT_BYTES + 1), "the file is 16.0 MB; an import reads at most 16.0 MB"),
    ("not JSON", lambda d: "{'format': 'mau-binh-profile'}", "the file is not JSON: Expecting property name"),
    ("not UTF-8", lambda d: b'{"a": "\xff"}', "the file is not UTF-8 text (byte 7 is 0xff)"),
    ("another JSON", lambda d: "[1, 2]", "not a Mau Binh profile export"),
    ("a newer version", edit(lambda d: d.update(version=2)), "version 2; this app reads version 1 (a newer"),
    ("a version as text", edit(lambda d: d.update(version="1")), "version '1'; this app reads version 1"),
    ("an unknown key", edit(lambda d: d.update(extra=1)), "keys an export never has: 'extra'"),
    ("a missing section", edit(lambda d: d.pop("play")), "lacks its 'play' section"),
    ("a section not a list", edit(lambda d: d.update(macao={})), "'macao' must be a list of records, got dict"),
    ("a bad card", practice(2, hand=HAND.replace("2d", "1x")), "practice record 2: the hand: unknown card '1x'"),
    ("a duplicate card", practice(3, hand=HAND.replace("2d", "As")), "practice record 3: the hand: a Mau Binh hand "
     "repeats 'As'"),
    ("a short hand", practice(1, hand=HAND[:-3]), "practice record 1: the hand: a Mau Binh hand needs 13 cards"),
    ("a set of other cards", practice(4, hand=HAND, played=SET.replace("2d", "2c"), best=SET),
     "practice record 4: the played set uses 2c, not in the hand"),
    ("a set short of a card", practice(4, hand=HAND, played=SET, best=SET.replace(" 2d", "")),
     "practice record 4: the best set: the front row has 2 cards, expected 3"),
    ("rows of 5/3/5", practice(5, hand=HAND, best=SET, played="As Ks Qs Js Ts | 4d 3d 2d | 9h 8h 7h 6h 5h"),
     "practice record 5: the played set: the front row has 5 cards, expected 3"),
    ("two rows", practice(5, hand=HAND, best=SET, played="4d 3d 2d As Ks Qs Js Ts | 9h 8h 7h 6h 5h"),
     "practice record 5: the played set needs 3 rows separated by '|' (front | middle | back), got 2"),
    ("a bad grade", practice(6, grade="superb"), "practice record 6: grade must be one of best, good"),
    ("a missing key", edit(lambda d: d["practice"][6].pop("grade")), "practice record 7: missing 'grade'"),
    ("an unknown record key", practice(7, colour="red"), "practice record 7: unknown 'colour'"),
    ("a time without offset", practice(8, created_at="2026-01-01T10:00:00"),
     "practice record 8: created_at must be an ISO 8601 time with its UTC offset, got '2026-01-01T10:00:00'"),
    ("a record not an object", edit(lambda d: d["practice"].append(3)), "practice record 41: expected an object"),
    ("a bad play seat", edit(lambda d: d["play"][1]["seats"][2].update(played=SET)),
     "play hand 2: seat 3's set uses"),
    ("a bad macao place", edit(lambda d: d["macao"][0].update(my_place=9)),
     "macao round 1: my_place must be a whole number from 1 to 3, got 9"),
    ("a bad FSRS card", edit(lambda d: d["review"][0]["card"].update(state=7)),
     "review item 1: the card's state must be 1, 2 or 3"),
    ("a review set of other cards", edit(lambda d: d["review"][0].update(hand=HAND)),
     "review item 1: the played set uses"),
    ("a page state not an object", edit(lambda d: d["page_states"].update(practice=[1])),
     "page state 'practice': a page name of 1-64 characters and an object"),
    ("a page state too big", edit(lambda d: d["page_states"].update(solve={"x": "y" * 300_000})),
     "page state 'solve': the state of page 'solve' is 300009 bytes as JSON; the limit is 262144"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "make", "message"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_bad_file_is_refused_with_its_reason_and_changes_nothing(
    store: Store, name: str, make: Callable[[dict[str, Any]], str | bytes], message: str
) -> None:
    document = good_document(store)
    target = store.create_profile()
    fill(store, target.id, seed=4)
    before = store.export_profile(target.id)
    with pytest.raises(ImportRefused, match=re.escape(message)):
        store.import_profile(target.id, make(document))
    assert without_time(store.export_profile(target.id)) == without_time(before)


def test_a_uid_twice_in_one_file_is_imported_once(store: Store) -> None:
    document = good_document(store)
    target = store.create_profile()
    document["practice"][-1]["uid"] = document["practice"][0]["uid"]
    summary = store.import_profile(target.id, json.dumps(document))
    assert summary.practice == 39 and summary.skipped == 1 and store.practice_count(target.id) == 39


def test_a_write_failing_late_rolls_back_the_whole_import(store: Store) -> None:
    """The review items, practice, play and macao records are written, then the page states fail."""
    document = good_document(store)
    target = store.create_profile()
    before = store.export_profile(target.id)
    store._page_upsert = sa.text("INSERT INTO no_such_table VALUES (:page)")  # type: ignore[assignment]
    with pytest.raises(sa.exc.DBAPIError, match="no_such_table"):
        store.import_profile(target.id, json.dumps(document))
    assert without_time(store.export_profile(target.id)) == without_time(before)
    assert store.practice_count(target.id) == 0 and store.review_count(target.id) == (0, 0)
