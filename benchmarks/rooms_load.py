"""Load on rooms: many Mau Binh rooms playing at once, and how long a settlement takes to reach every screen.

Each room has 4 seats held by people; each person is a thread that behaves like the Rooms
page: it polls the room once every ``--poll`` seconds (``Rooms.tick``, as the page's
fragment does), reads its seat's view when the version changed (``Rooms.view``), saves a
draft, and reveals after a short think.  The figure measured per hand is the time from the
last person's Reveal to the moment the *last* of the room's 4 screens has read the
settlement; the table gives its p50, p95 and maximum over every hand of every room, with
the time a Reveal itself takes (one store transaction) and the machine's load.

With ``--push URL`` (an app server, or the proxy in front of several) each person instead
listens to the room's stream ``URL/room-events/<CODE>`` (with its seat cookie, as the
page's push element does) and reads its view when a new version comes, polling only every
5 s as the page does while its stream is open: the figure is then the push's.  Errors (an
action that failed, a stream refused) are counted, and every room must end with all its
hands settled and seen on all 4 screens.

Several processes (``--processes``) may share the database, as several app processes
would.  This drives the store and the room logic as the page does; it does not draw the
page (the browser test measures a real round trip on one room).

    python -m benchmarks.rooms_load --rooms 10 --hands 3
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import queue
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from rooms import Rooms, SeatView, Settings
from store import Store


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


#: Seconds between a page's polls while its push stream is open (app/room_push.py).
PUSHED_POLL = 5.0


def listen(push: str, code: str, token: str, news: queue.Queue[int], done: threading.Event) -> None:
    """Read room ``code``'s stream from ``push`` into ``news`` until ``done`` (reconnecting)."""
    parts = urlsplit(push)
    if parts.hostname is None:
        raise ValueError(f"the push address {push!r} names no host")
    while not done.is_set():
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=PUSHED_POLL * 4)
        try:
            connection.request("GET", f"{parts.path.rstrip('/')}/room-events/{code}",
                               headers={"Cookie": f"mau_binh_room_{code}={token}"})  # fmt: skip
            response = connection.getresponse()
            if response.status != 200:
                raise OSError(f"the stream answered {response.status}")
            while not done.is_set():
                line = response.readline()
                if not line:
                    break
                if line.startswith(b"data: "):
                    news.put(int(line[6:]))
        except OSError:
            news.put(-1)  # an error: counted, and the person polls until the stream is back
            time.sleep(1.0)
        finally:
            connection.close()


def play_room(url: str, hands: int, poll: float, seed: int, out: list[tuple[str, float]], push: str | None) -> None:
    """One room of 4 people playing ``hands`` hands; appends ("reveal"|"spread"|"error", seconds) to ``out``."""
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
        try:
            play(seat, token)
        except Exception:
            with lock:
                out.append(("error", 0.0))
            done.set()

    def play(seat: int, token: str) -> None:
        version = -1
        revealed: set[int] = set()
        settled: set[int] = set()
        news: queue.Queue[int] = queue.Queue()
        if push is not None:
            threading.Thread(target=listen, args=(push, code, token, news, done), daemon=True).start()
        while not done.is_set():
            current = service.tick(code)
            if current != version:
                view, version = service.view(code, token)
                assert isinstance(view, SeatView), "a Mau Binh room's seat sees a SeatView"
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
            if push is None:
                time.sleep(poll)
                continue
            try:
                if news.get(timeout=PUSHED_POLL) < 0:
                    with lock:
                        out.append(("error", 0.0))
            except queue.Empty:
                pass

    threads = [threading.Thread(target=person, args=(seat, token)) for seat, token in enumerate(tokens)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for number, stamps in seen.items():
        out.append(("spread", max(stamps) - last_reveal[number]))
    with store.read() as connection:
        settled_hands = len(service._row(connection, code)[0].records)  # type: ignore[union-attr]
    if settled_hands != hands or len(seen) != hands or any(len(s) != 4 for s in seen.values()):
        out.append(("lost", float(settled_hands)))
    store.close()


def _process(url: str, rooms: int, hands: int, poll: float, seed: int, push: str | None,
             results: multiprocessing.Queue) -> None:  # type: ignore[type-arg]  # fmt: skip
    out: list[tuple[str, float]] = []
    threads = [threading.Thread(target=play_room, args=(url, hands, poll, seed + i, out, push)) for i in range(rooms)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rooms_load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=10, help="rooms playing at once (4 people each)")
    parser.add_argument("--hands", type=int, default=3, help="hands each room plays")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between a screen's polls (the page: 1)")
    parser.add_argument("--processes", type=int, default=2, help="processes sharing the database")
    parser.add_argument("--url", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--push", help="an app server (or its proxy) whose /room-events/ streams the screens follow")
    args = parser.parse_args(argv)
    url = args.url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'rooms-load.sqlite3'}"
    Store(url).close()  # migrate once before the processes start
    results_queue: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    per = [args.rooms // args.processes + (i < args.rooms % args.processes) for i in range(args.processes)]
    started = time.perf_counter()
    procs = [
        multiprocessing.Process(
            target=_process, args=(url, n, args.hands, args.poll, 1000 * i, args.push, results_queue)
        )
        for i, n in enumerate(per)
        if n
    ]
    for p in procs:
        p.start()
    results: list[tuple[str, float]] = []
    for _p in procs:
        results += results_queue.get()
    for p in procs:
        p.join()
    wall = time.perf_counter() - started
    spread = [s for kind, s in results if kind == "spread"]
    reveal = [s for kind, s in results if kind == "reveal"]
    load = os.getloadavg()[0]
    errors = sum(1 for kind, _s in results if kind == "error")
    lost = sum(1 for kind, _s in results if kind == "lost")
    follow = f"push from {args.push}" if args.push else f"poll {args.poll:g} s"
    print(f"rooms {args.rooms} x 4 people, {args.hands} hands each, {follow}, "
          f"{args.processes} processes, {url.split(':')[0]}; wall {wall:.1f} s; load {load:.2f}; "
          f"errors {errors}; rooms with a hand lost or unseen {lost}")  # fmt: skip
    print(f"{'measure':<40} {'n':>4} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name, values in (("Reveal -> settlement on every screen", spread), ("Reveal (one transaction)", reveal)):
        print(f"{name:<40} {len(values):>4} {1000 * statistics.median(values):>8.0f} "
              f"{1000 * _percentile(values, 0.95):>8.0f} {1000 * max(values):>8.0f}")  # fmt: skip
    return 1 if errors or lost else 0


if __name__ == "__main__":
    raise SystemExit(main())
