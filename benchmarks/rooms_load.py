"""Load on rooms: many Mau Binh rooms playing at once, and how long a settlement takes to reach every screen.

Each room has 4 seats held by people; each person is a thread that behaves like the Rooms
page: it polls the room once every ``--poll`` seconds (``Rooms.tick``, as the page's
fragment does), reads its seat's view when the version changed (``Rooms.view``), saves a
draft, and reveals after a short think.  The figure measured per hand is the time from the
last person's Reveal to the moment the *last* of the room's 4 screens has read the
settlement; the table gives its p50, p95 and maximum over every hand of every room, with
the time a Reveal itself takes (one store transaction) and the machine's load.

Several processes (``--processes``) may share the database, as several app processes
would.  This drives the store and the room logic as the page does; it does not draw the
page (the browser test measures a real round trip on one room).

    python -m benchmarks.rooms_load --rooms 10 --hands 3
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from rooms import Rooms, Settings
from store import Store


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def play_room(url: str, hands: int, poll: float, seed: int, out: list[tuple[str, float]]) -> None:
    """One room of 4 people playing ``hands`` hands; appends ("reveal"|"spread", seconds) to ``out``."""
    store = Store(url)
    service = Rooms(store)
    rng = random.Random(seed)
    code, host = service.create(Settings(seats=4), "P1")
    tokens = [host] + [service.join(code, f"P{n}")[1] for n in (2, 3, 4)]
    service.start(code, host)
    seen: dict[int, list[float]] = {}  # hand number -> when each screen saw it settled
    last_reveal: dict[int, float] = {}
    lock = threading.Lock()
    done = threading.Event()

    def person(seat: int, token: str) -> None:
        version = -1
        revealed: set[int] = set()
        settled: set[int] = set()
        while not done.is_set():
            current = service.tick(code)
            if current != version:
                view, version = service.view(code, token)
                if view.phase == "settled" and view.last is not None and view.last.number not in settled:
                    number = view.last.number
                    settled.add(number)
                    with lock:
                        seen.setdefault(number, []).append(time.perf_counter())
                        if all(len(seen.get(n, [])) == 4 for n in range(1, hands + 1)):
                            done.set()
                    if seat == 0 and number < hands:
                        # the host deals on once every screen has shown the settlement
                        while len(seen.get(number, [])) < 4 and not done.is_set():
                            time.sleep(0.05)
                        time.sleep(rng.uniform(0.1, 0.5))
                        service.next_hand(code, token, number)
                elif view.phase == "arranging" and not view.revealed and view.number not in revealed:
                    rows = [list(r) for r in view.rows]
                    rows[1], rows[2] = rows[2], rows[1]
                    service.save_draft(code, token, view.number, rows)
                    time.sleep(rng.uniform(0.2, 1.5))  # thinking
                    started = time.perf_counter()
                    service.reveal(code, token, view.number, rows)
                    finished = time.perf_counter()
                    revealed.add(view.number)
                    with lock:
                        out.append(("reveal", finished - started))
                        last_reveal[view.number] = max(last_reveal.get(view.number, 0.0), finished)
                    continue
            time.sleep(poll)

    threads = [threading.Thread(target=person, args=(seat, token)) for seat, token in enumerate(tokens)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for number, stamps in seen.items():
        out.append(("spread", max(stamps) - last_reveal[number]))
    store.close()


def _process(url: str, rooms: int, hands: int, poll: float, seed: int, queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    out: list[tuple[str, float]] = []
    threads = [threading.Thread(target=play_room, args=(url, hands, poll, seed + i, out)) for i in range(rooms)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    queue.put(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rooms_load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=10, help="rooms playing at once (4 people each)")
    parser.add_argument("--hands", type=int, default=3, help="hands each room plays")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between a screen's polls (the page: 1)")
    parser.add_argument("--processes", type=int, default=2, help="processes sharing the database")
    parser.add_argument("--url", help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args(argv)
    url = args.url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'rooms-load.sqlite3'}"
    Store(url).close()  # migrate once before the processes start
    queue: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    per = [args.rooms // args.processes + (i < args.rooms % args.processes) for i in range(args.processes)]
    started = time.perf_counter()
    procs = [
        multiprocessing.Process(target=_process, args=(url, n, args.hands, args.poll, 1000 * i, queue))
        for i, n in enumerate(per)
        if n
    ]
    for p in procs:
        p.start()
    results: list[tuple[str, float]] = []
    for _p in procs:
        results += queue.get()
    for p in procs:
        p.join()
    wall = time.perf_counter() - started
    spread = [s for kind, s in results if kind == "spread"]
    reveal = [s for kind, s in results if kind == "reveal"]
    load = os.getloadavg()[0]
    print(f"rooms {args.rooms} x 4 people, {args.hands} hands each, poll {args.poll:g} s, "
          f"{args.processes} processes, {url.split(':')[0]}; wall {wall:.1f} s; load {load:.2f}")  # fmt: skip
    print(f"{'measure':<40} {'n':>4} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name, values in (("Reveal -> settlement on every screen", spread), ("Reveal (one transaction)", reveal)):
        print(f"{name:<40} {len(values):>4} {1000 * statistics.median(values):>8.0f} "
              f"{1000 * _percentile(values, 0.95):>8.0f} {1000 * max(values):>8.0f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
