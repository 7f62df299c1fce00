"""The store under concurrent writers and a killed process: nothing acknowledged is lost or corrupted."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import sqlalchemy as sa

from store import Store
from tests.store_support import practice_record

ROOT = Path(__file__).resolve().parent.parent


def writer(url: str, profile_id: str, count: int, seed: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.store_support", url, profile_id, str(count), str(seed)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


def integrity(url: str) -> str:
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        result = connection.exec_driver_sql("PRAGMA integrity_check").scalar()
    engine.dispose()
    return str(result)


def test_threads_of_one_process_write_one_profile_at_once(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'threads.sqlite3'}")
    me = store.create_profile()
    errors: list[BaseException] = []
    ids: list[int] = []

    def tab(seed: int) -> None:  # a browser tab: page state and records, interleaved
        rng = random.Random(seed)
        try:
            for i in range(40):
                ids.append(store.record_practice(me.id, practice_record(rng, grade="mistake")))
                store.save_page_state(me.id, "practice", {"tab": seed, "i": i})
                store.review_count(me.id)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=tab, args=(seed,)) for seed in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(set(ids)) == 240 and store.practice_count(me.id) == 240
    assert store.review_count(me.id)[1] == 240
    assert store.load_page_state(me.id, "practice") in [{"tab": s, "i": 39} for s in range(6)]
    assert integrity(store.url) == "ok"


def test_processes_write_one_profile_at_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'processes.sqlite3'}"
    store = Store(url)
    me = store.create_profile()
    procs = [writer(url, me.id, 150, seed) for seed in range(3)]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err for _, err in outputs]
    ids = [int(line) for out, _ in outputs for line in out.split()]
    assert len(ids) == len(set(ids)) == 450
    assert store.practice_count(me.id) == 450
    assert integrity(url) == "ok"


def test_a_killed_writer_loses_nothing_it_acknowledged(tmp_path: Path) -> None:
    """kill -9 in the middle of a loop of writes: every printed id is there, the file is sound."""
    url = f"sqlite:///{tmp_path / 'killed.sqlite3'}"
    store = Store(url)
    me = store.create_profile()
    store.close()
    for seed, wait in ((1, 0.5), (2, 1.3), (3, 2.1)):
        before = Store(url).practice_count(me.id)
        proc = writer(url, me.id, 100_000, seed)
        acknowledged: list[int] = []
        deadline = time.monotonic() + wait
        assert proc.stdout is not None
        while len(acknowledged) < 20 or time.monotonic() < deadline:  # kill it well into its loop
            acknowledged.append(int(proc.stdout.readline()))
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
        acknowledged += [int(line) for line in out.split()]  # printed before the kill, read after
        assert proc.returncode == -signal.SIGKILL
        assert integrity(url) == "ok"
        reopened = Store(url)
        with reopened.read() as connection:
            table = sa.table("practice_records", sa.column("id"))
            present = set(connection.execute(sa.select(table.c.id)).scalars())
        assert set(acknowledged) <= present
        # at most the one write in flight went through without being acknowledged
        assert reopened.practice_count(me.id) - before - len(acknowledged) in (0, 1)
        reopened.close()


def test_an_import_killed_mid_write_leaves_all_or_nothing(tmp_path: Path) -> None:
    """kill -9 inside the import's write transaction: none of the file is there, the file is sound;
    an import that finished before the kill is all there."""
    url = f"sqlite:///{tmp_path / 'import.sqlite3'}"
    store = Store(url)
    source = store.create_profile()
    rng = random.Random(30)
    with store.write() as connection:
        for _ in range(3000):
            store._insert_practice(connection, source.id, practice_record(rng), None)
    export = tmp_path / "export.json"
    export.write_text(json.dumps(store.export_profile(source.id)))
    outcomes = []
    for delay in (0.0, 0.05, 0.2, 30.0):
        target = store.create_profile()
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.store_support", "import", url, target.id, str(export)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "writing"
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate()
        finished = "done" in out
        assert finished or proc.returncode == -signal.SIGKILL, err  # it never fails by itself
        assert integrity(url) == "ok"
        count = Store(url).practice_count(target.id)
        # all or nothing; a kill that lands after the commit but before "done" is printed
        # finds the whole file there, and one that finished always does
        assert count in (0, 3000)
        assert finished <= (count == 3000)
        outcomes.append((finished, count))
    # killed inside the write (nothing there), and let finish (all there)
    assert outcomes[0] == (False, 0) and outcomes[-1] == (True, 3000)
