"""Pushed room updates through real browsers: how long until the other screens show an action.

Two app processes (``streamlit run``, one database: a fresh SQLite file, or the PostgreSQL
of ``--database-url``) and 4 Chromium contexts at phone width, two on each process, each a
person in one room.

* **Mau Binh**: on each hand three people press Reveal, then the fourth does; the figure is
  the time from that last click to the moment each of the *other three* screens shows the
  settlement (``[data-seat][data-chi]``), and the slowest of the three.
* **Macao**: 4 people take turns (each presses Keep it, Draw, Accept or Pass, whichever
  the page offers); the figure is the time from the click to the moment each other screen
  shows the table changed (whose turn, a seat's card count or last move).

With ``--one-screen`` only one person's screen is a browser and the others act through the
room's service (as the benchmark's own process): the same push, servers and drawing, but
one page drawing instead of four, so the machine's cores are not taken from the servers
by the other people's browsers (on phones they would not be).

Beside the times it reports where the machine's CPU went while each hand settled (from
``/proc``: the share of all cores busy, and CPU milliseconds of the Chromium pages, the
app servers and the rest), since on a small machine the four browsers and two servers
share its cores with each other.

Times are read in the pages (``Date.now()`` of one machine, checked every 20 ms), so the
figures are the full round trip: the click, the action's transaction, the push to the other
process, the other pages' rerun and drawing.  Seats are taken by putting each person's seat
token in their browser's cookie, as the page itself does after a person joins.

    python -m benchmarks.rooms_push --hands 10 --turns 30
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright import sync_api

from rooms import MacaoSettings, Rooms, SeatView, Settings
from store import Store
from tests.browser_support import CHROMIUM, CHROMIUM_ARGS, PHONE, free_port, start_streamlit, wait_idle

#: Installs window.__changed: a promise of the first Date.now() at which ``signature()``
#: differs from its value now (shadow roots searched), or null after 30 s.  It is checked
#: when the page's DOM changes (a MutationObserver on the document and on every shadow
#: root), not on a timer: a watcher polling every 20 ms took 30-60 ms of a page's main
#: thread a second, on the same cores as the pages and servers it measures.
WATCH = """(kind) => {
    const roots = (root, out = []) => {
        out.push(root);
        for (const e of root.querySelectorAll('*')) if (e.shadowRoot) roots(e.shadowRoot, out);
        return out;
    };
    const deep = (all, sel) => all.flatMap((root) => [...root.querySelectorAll(sel)]);
    const signature = kind === 'settled'
        ? (all) => deep(all, '[data-seat][data-chi]').length > 0 ? 'settled' : ''
        : (all) => deep(all, '.seat[data-seat]').map((s) => s.className + '|' + (s.dataset.lastMove || '') + '|'
              + ((s.querySelector('.seat-count') || {}).textContent || '')).join(';');
    const before = signature(roots(document));
    if (window.__watcher) window.__watcher.disconnect();
    window.__changed = new Promise((resolve) => {
        const watched = new Set();
        const observe = (all) => {  // the roots not yet observed (a component mounted since)
            for (const root of all) {
                if (watched.has(root)) continue;
                watched.add(root);
                observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
            }
        };
        const observer = new MutationObserver(() => {
            const all = roots(document);
            if (signature(all) !== before) { observer.disconnect(); clearTimeout(give_up); resolve(Date.now()); }
            else observe(all);
        });
        const give_up = setTimeout(() => { observer.disconnect(); resolve(null); }, 30000);
        window.__watcher = observer;
        observe(roots(document));
    });
}"""


#: The kinds of process the CPU accounting adds up, by what their command line holds.
PROCESS_KINDS = (("type=renderer", "Chromium pages"), ("streamlit", "app servers"))


def cpu_ticks() -> tuple[int, int, dict[str, int]]:
    """(busy, total) clock ticks of all cores so far, and CPU ticks of each live process
    (utime + stime), by ``/proc/<pid>``."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    per_process = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            command = stat.with_name("cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # the process ended
            continue
        fields = text[text.rindex(")") + 2 :].split()
        per_process[f"{stat.parent.name} {command}"] = int(fields[11]) + int(fields[12])
    return sum(values) - idle, sum(values), per_process


def cpu_spent(before: tuple[int, int, dict[str, int]], after: tuple[int, int, dict[str, int]]) -> dict[str, float]:
    """Between two :func:`cpu_ticks`: the share of all cores busy (%) and CPU ms by kind."""
    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    out = {"busy %": 100 * (after[0] - before[0]) / max(1, after[1] - before[1])}
    for process, ticks in after[2].items():
        kind = next((name for mark, name in PROCESS_KINDS if mark in process), "the rest")
        out[kind] = out.get(kind, 0.0) + (ticks - before[2].get(process, 0)) * tick_ms
    return out


SETTLE_CPU: list[dict[str, float]] = []  # one entry a hand
MOVE_CPU: list[dict[str, float]] = []  # one entry a Macao move


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def report(name: str, values: list[float]) -> None:
    if not values:
        print(f"| {name} | 0 | - | - | - |")
        return
    print(f"| {name} | {len(values)} | {statistics.median(values):.0f} ms | {percentile(values, 0.95):.0f} ms "
          f"| {max(values):.0f} ms |")  # fmt: skip


def seat_browsers(browser: sync_api.Browser, servers: list[str], code: str, tokens: list[str]) -> list[Any]:
    """One context per person, people alternating between the servers, each holding their seat."""
    pages = []
    for i, token in enumerate(tokens):
        server = servers[i % len(servers)]
        context = browser.new_context(viewport=PHONE)
        host = server.split("//")[1].split(":")[0]
        context.add_cookies([{"name": f"mau_binh_room_{code}", "value": token, "domain": host, "path": "/"}])
        page = context.new_page()
        page.goto(f"{server}/rooms?room={code}")
        page.locator("[data-room-code]").first.wait_for(timeout=60_000)
        pages.append(page)
    for page in pages:
        wait_idle(page)
    return pages


def started_room(service: Rooms, settings: Settings | MacaoSettings) -> tuple[str, list[str]]:
    """A room of 4 people, P1 (the host) to P4, started: its code and their seat tokens."""
    code, host = service.create(settings, "P1")
    tokens = [host] + [service.join(code, f"P{n}")[1] for n in (2, 3, 4)]
    service.start(code, host)
    return code, tokens


HEARD: list[float] = []  # click -> the push reached the page


def changed_after(pages: list[Any], clicked_ms: float) -> list[float]:
    """Each page's time from ``clicked_ms`` to the change its WATCH waited for."""
    out = []
    for page in pages:
        at = page.evaluate("() => window.__changed")
        if at is None:
            raise AssertionError("a screen did not change within 30 s")
        out.append(float(at) - clicked_ms)
        heard = page.evaluate("() => Math.max(...Object.values(window.__mauBinhRoomFeeds || {})"
                              ".map((f) => f.heardAt || 0))")  # fmt: skip
        HEARD.append(float(heard) - clicked_ms)
    return out


def click_now(page: Any, button: Any) -> float:
    clicked = float(page.evaluate("() => Date.now()"))
    button.click()
    return clicked


def mau_binh(service: Rooms, browser: sync_api.Browser, servers: list[str], hands: int) -> tuple[list[float], ...]:
    code, tokens = started_room(service, Settings(seats=4))
    pages = seat_browsers(browser, servers, code, tokens)
    each, slowest = [], []
    for number in range(1, hands + 1):
        for page in pages:
            page.locator('[data-row="back"] [data-card]').first.wait_for(timeout=60_000)
            wait_idle(page)
        for page in pages[:3]:
            page.get_by_role("button", name="Reveal", exact=True).click()
            page.get_by_text("Waiting for the others").wait_for(timeout=60_000)
            wait_idle(page)
        for page in pages[:3]:
            page.evaluate(WATCH, "settled")
        before = cpu_ticks()
        clicked = click_now(pages[3], pages[3].get_by_role("button", name="Reveal", exact=True))
        times = changed_after(pages[:3], clicked)
        SETTLE_CPU.append(cpu_spent(before, cpu_ticks()))
        each += times
        slowest.append(max(times))
        print(f"hand {number}: {', '.join(f'{t:.0f}' for t in times)} ms")
        if number < hands:
            wait_idle(pages[0])
            pages[0].get_by_role("button", name="Deal the next hand").click()
    return each, slowest


MOVES = ("Keep it", "Draw", "Accept", "Pass")


def macao(service: Rooms, browser: sync_api.Browser, servers: list[str], turns: int) -> list[float]:
    code, tokens = started_room(service, MacaoSettings(seats=4, turn_timer=None))
    pages = seat_browsers(browser, servers, code, tokens)
    out = []
    for turn in range(turns):
        mover = None
        for _attempt in range(300):
            for i, page in enumerate(pages):
                for name in MOVES:
                    button = page.get_by_role("button", name=name)
                    if button.count():
                        mover, move = i, button.first
                        break
                if mover is not None:
                    break
            if mover is not None:
                break
            time.sleep(0.1)
        if mover is None:
            raise AssertionError("nobody could move")
        others = [p for i, p in enumerate(pages) if i != mover]
        for page in pages:
            wait_idle(page)
        for page in others:
            page.evaluate(WATCH, "table")
        before = cpu_ticks()
        clicked = click_now(pages[mover], move)
        times = changed_after(others, clicked)
        MOVE_CPU.append(cpu_spent(before, cpu_ticks()))
        out += times
        print(f"turn {turn + 1} (seat {mover + 1}): {', '.join(f'{t:.0f}' for t in times)} ms")
        wait_idle(pages[mover])
    return out


def watched(page: Any, kind: str, act: Any, *args: object) -> float:
    """Milliseconds from ``act(*args)`` (an action through the service) to ``page`` showing its change."""
    page.evaluate(WATCH, kind)
    started = time.time() * 1000
    act(*args)
    return changed_after([page], started)[0]


def three_revealed(page: Any, service: Rooms, code: str, tokens: list[str], number: int) -> list[list[str]]:
    """Hand ``number`` dealt on ``page``; the first three people reveal their rows as dealt
    (through the service) and the page shows it is waiting: the fourth person's rows, for
    the last Reveal."""
    page.locator('[data-row="back"] [data-card]').first.wait_for(timeout=60_000)
    wait_idle(page)
    sets = []
    for token in tokens:
        view = service.view(code, token)[0]
        assert isinstance(view, SeatView)
        sets.append([list(r) for r in view.rows])
    for token, rows in zip(tokens[:3], sets[:3], strict=True):
        service.reveal(code, token, number, rows)
    page.get_by_text("Waiting for the others").wait_for(timeout=60_000)
    wait_idle(page)
    return sets[3]


def next_mover(service: Rooms, code: str, tokens: list[str]) -> tuple[int, int] | None:
    """The Macao seat (of ``tokens``) that has a move to make and the table's move number,
    or None once the round is over."""
    views = [service.view(code, t)[0] for t in tokens]
    mover = next((i for i, v in enumerate(views) if getattr(v, "legal", ())), None)
    return None if mover is None else (mover, views[mover].number)


def one_screen(service: Rooms, browser: sync_api.Browser, servers: list[str], hands: int, turns: int
               ) -> tuple[list[float], list[float]]:  # fmt: skip
    """The same games with one browser (seat 1's, on the last server) and every action
    taken through the service: the last Reveal of each hand, then each Macao move."""
    code, tokens = started_room(service, Settings(seats=4))
    page = seat_browsers(browser, servers[-1:], code, tokens[1:2])[0]
    settles = []
    for number in range(1, hands + 1):
        last = three_revealed(page, service, code, tokens, number)
        before = cpu_ticks()
        settles.append(watched(page, "settled", service.reveal, code, tokens[3], number, last))
        SETTLE_CPU.append(cpu_spent(before, cpu_ticks()))
        print(f"one screen, hand {number}: {settles[-1]:.0f} ms")
        wait_idle(page)
        if number < hands:
            service.next_hand(code, tokens[0], number)
    page.context.close()
    code, tokens = started_room(service, MacaoSettings(seats=4, turn_timer=None))
    page = seat_browsers(browser, servers[-1:], code, tokens[1:2])[0]
    moves = []
    for turn in range(turns):
        found = next_mover(service, code, tokens)
        if found is None:
            break
        mover, number = found
        wait_idle(page)
        moves.append(watched(page, "table", service.play, code, tokens[mover], number, 0))
        print(f"one screen, Macao turn {turn + 1} (seat {mover + 1}): {moves[-1]:.0f} ms")
    page.context.close()
    return settles, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10, help="Mau Binh hands (default 10)")
    parser.add_argument("--turns", type=int, default=30, help="Macao turns (default 30)")
    parser.add_argument("--database-url", help="a PostgreSQL URL (default: a fresh SQLite file)")
    parser.add_argument("--servers", help="app servers already running on --database-url (comma-separated, "
                        "e.g. the proxy of deploy/local-topology.sh) instead of two started here")  # fmt: skip
    parser.add_argument("--one-screen", action="store_true",
                        help="one browser only; the other people act through the service")  # fmt: skip
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="rooms-push-"))
    env = {"MAU_BINH_DATA_DIR": str(folder), "MAU_BINH_DATABASE_URL": args.database_url}
    os.environ.update({k: v for k, v in env.items() if v})
    store = Store(args.database_url or f"sqlite:///{folder / 'mau-binh.sqlite3'}")
    if args.servers:
        processes, servers = [], args.servers.split(",")
    else:
        ports = [free_port(), free_port()]
        processes = [start_streamlit("streamlit_app.py", folder / f"server{i}.log", port, env)
                     for i, port in enumerate(ports)]  # fmt: skip
        servers = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            service = Rooms(store)
            if args.one_screen:
                each, turns = one_screen(service, browser, servers, args.hands, args.turns)
            else:
                each, slowest = mau_binh(service, browser, servers, args.hands)
                turns = macao(service, browser, servers, args.turns)
            browser.close()
    finally:
        for p in processes:
            p.terminate()
        store.close()
    where = args.servers or "2 app processes"
    screens = "1 browser, the other people through the service" if args.one_screen else "4 browsers"
    print(f"\n{where}, {screens}, {'PostgreSQL' if args.database_url else 'SQLite'}, "
          f"load average {os.getloadavg()[0]:.1f}\n")  # fmt: skip
    print("| measure | n | p50 | p95 | max |\n|---|---|---|---|---|")
    report("Mau Binh: last Reveal → settlement on another screen", each)
    if not args.one_screen:
        report("Mau Binh: last Reveal → settlement on all 3 other screens", slowest)
    report("Macao: a move → shown on another screen", turns)
    report("the push reached another page (either game)", HEARD)
    kinds = [name for _mark, name in PROCESS_KINDS] + ["the rest"]
    for what, spans in (("a hand settled", SETTLE_CPU), ("a Macao move was shown", MOVE_CPU)):
        if spans:
            spent = {k: statistics.median(c.get(k, 0.0) for c in spans) for k in kinds}
            print(f"\nWhile {what} (median of {len(spans)}): "
                  f"{statistics.median(c['busy %'] for c in spans):.0f} % of all {os.cpu_count()} cores busy; CPU "
                  + ", ".join(f"{k} {v:.0f} ms" for k, v in spent.items()))  # fmt: skip


if __name__ == "__main__":
    main()
