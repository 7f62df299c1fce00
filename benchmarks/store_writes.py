"""How fast the store writes a record and answers the Progress page's queries (issue 25's figures).

    PYTHONPATH=. python benchmarks/store_writes.py                # 2,000 writes, 10,000-hand profile
    PYTHONPATH=. python benchmarks/store_writes.py --quick        # 300 writes, 2,000-hand profile
    PYTHONPATH=. python benchmarks/store_writes.py --url postgresql+psycopg://...   # another database

(a) Writes: one profile in a fresh data folder (SQLite, WAL, synchronous=FULL: each write
    is one transaction synced to disk) records seeded Practice hands one by one, as the
    page does on submit (grades drawn evenly, so half of them are mistakes or worse and
    write the review queue too), then Play hands and page states.  Latency is the wall time of each call.
(b) Progress: a second profile gets 10,000 seeded hands (imported as one export file, which
    times the import too), then every query a Progress page needs is timed (the median of
    7 runs each): counts, totals, grades, per-day and per-theme aggregates, the newest 50 hands,
    the review queue's count and due hands.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from functools import partial
from typing import Any

from store import Store, data_dir
from tests.store_support import practice_record
from tests.test_store import play_record

SEED = 2026


def percentiles(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return f"{len(ms):>6} {q[49]:8.2f} {q[94]:8.2f} {q[98]:8.2f} {ms[-1]:8.2f}"


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def writes(store: Store, count: int) -> None:
    rng = random.Random(SEED)
    me = store.create_profile()
    base = datetime.now(timezone.utc)
    # each record is made before its write is timed: the figures are the writes' own
    practice = [timed(partial(store.record_practice, me.id, practice_record(rng, when=base + timedelta(seconds=i))))
                for i in range(count)]  # fmt: skip
    play = [timed(partial(store.record_play_hand, me.id, play_record(rng, hand_number=i)))
            for i in range(count // 4)]  # fmt: skip
    state = {"preset": "vietnamese", "players": 4, "rows": [["As", "Kd", "Qc"], ["2h"] * 5, ["3h"] * 5]}
    pages = [timed(partial(store.save_page_state, me.id, "practice", {**state, "i": i})) for i in range(count // 4)]
    print("(a) writes, one transaction each          calls   p50 ms   p95 ms   p99 ms   max ms")
    print(f"    record_practice                      {percentiles(practice)}")
    print(f"    record_play_hand                     {percentiles(play)}")
    print(f"    save_page_state                      {percentiles(pages)}")


def progress(store: Store, hands: int) -> None:
    rng = random.Random(SEED + 1)
    me = store.create_profile()
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    records = [practice_record(rng, when=start + timedelta(minutes=rng.randrange(60 * 24 * 180))) for _ in range(hands)]
    scratch = store.create_profile()  # the export of a real profile's review queue comes with the file
    document: dict[str, Any] = export_document_of(store, scratch.id, records)
    text = json.dumps(document)
    seconds = timed(lambda: store.import_profile(me.id, text))
    print(f"\n(b) a profile of {hands:,} practice hands (imported in {seconds:.2f} s, {len(text) / 2**20:.1f} MB)")
    now = start + timedelta(days=200)
    queries: list[tuple[str, Callable[[], object]]] = [
        ("practice_count", lambda: store.practice_count(me.id)),
        ("practice_summary", lambda: store.practice_summary(me.id)),
        ("practice_grades", lambda: store.practice_grades(me.id)),
        ("practice_by_day (UTC+7)", lambda: store.practice_by_day(me.id, utc_offset=timedelta(hours=7))),
        ("practice_by_theme", lambda: store.practice_by_theme(me.id)),
        ("practice_by_theme, last 30 days", lambda: store.practice_by_theme(me.id, since=now - timedelta(days=30))),
        ("practice_records(limit=50)", lambda: store.practice_records(me.id, limit=50)),
        ("review_count", lambda: store.review_count(me.id, now=now)),
        ("review_due(limit=20)", lambda: store.review_due(me.id, now=now, limit=20)),
    ]
    print("    query                                median ms   rows")
    total = 0.0
    for name, query in queries:
        result = query()
        median = statistics.median(timed(query) for _ in range(7))
        total += median
        rows = len(result) if isinstance(result, (list, dict)) else getattr(result, "hands", result)
        print(f"    {name:<36} {median * 1000:9.2f}   {rows}")
    print(f"    all of them                          {total * 1000:9.2f}")


def export_document_of(store: Store, scratch_id: str, records: list[Any]) -> dict[str, Any]:
    """An export file holding ``records`` (and the review queue their mistakes make), built in a scratch profile."""
    for chunk in range(0, len(records), 1000):  # grouped writes: this is setup, not what is measured
        with store.write() as connection:
            for r in records[chunk : chunk + 1000]:
                store._insert_practice(connection, scratch_id, r, None)
    document = store.export_profile(scratch_id)
    store.delete_profile(scratch_id)
    return document


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="300 writes and a 2,000-hand profile")
    parser.add_argument("--writes", type=int, default=2000)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--url", help="a database URL (default: SQLite in a fresh temporary data folder)")
    args = parser.parse_args()
    if args.quick:
        args.writes, args.hands = 300, 2000
    with tempfile.TemporaryDirectory() as folder:
        if not args.url:
            os.environ["MAU_BINH_DATA_DIR"] = folder
            os.environ.pop("MAU_BINH_DATABASE_URL", None)
        store = Store(args.url)
        print(f"database: {store.url if args.url else 'SQLite in ' + str(data_dir())}\n")
        writes(store, args.writes)
        progress(store, args.hands)
        store.close()


if __name__ == "__main__":
    main()
