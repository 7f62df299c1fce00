"""What one room page spends drawing a pushed update (issue 41): its main thread's time.

One app process, one Chromium page at phone width (seat 2 of a 4-person room); the other
three people act through the room's service, as in ``rooms_push --one-screen``.

* **Mau Binh** (``--hands``): for each hand the three others reveal, then the fourth does,
  and the page shows the settlement; measured around that last reveal.
* **Macao** (``--turns``): the three others' moves (the first move each is offered), each
  measured until the page shows the table changed.  The page's own moves are taken through
  the service too and not measured.

Around each update the page's own counters (Chrome DevTools ``Performance.getMetrics``)
give its main thread's task time and, within it, script, layout and style time.  The
websocket frames the page received give the bytes pushed for the rerun.

The first hand and the first three moves are left out (the page's first drawing of them
loads their code).  Figures are medians over the others.

    python -m benchmarks.room_page_cost --hands 10 --turns 30
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

from benchmarks.rooms_push import next_mover, seat_browsers, started_room, three_revealed, watched
from rooms import MacaoSettings, Rooms, Settings
from store import Store
from tests.browser_support import CHROMIUM, CHROMIUM_ARGS, free_port, start_streamlit, wait_idle

#: The page's counters read around each settlement, and what the report calls them.
COUNTERS = {
    "TaskDuration": "main thread, all tasks",
    "ScriptDuration": "script",
    "LayoutDuration": "layout",
    "RecalcStyleDuration": "style",
}


def counters(cdp: Any) -> dict[str, float]:
    return {m["name"]: float(m["value"]) for m in cdp.send("Performance.getMetrics")["metrics"]}


class Meter:
    """The page's counters and the bytes its websocket received, read around one update."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Performance.enable")
        self.received: list[int] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: self.received.append(len(payload))))
        page.reload()  # the listener sees the page's own websocket from its start
        page.locator("[data-room-code]").first.wait_for(timeout=60_000)

    def measure(self, kind: str, act: Any, *args: object) -> dict[str, float]:
        """``act(*args)`` (an action through the service), and what showing it cost the page."""
        time.sleep(0.5)
        before, self.received[:] = counters(self.cdp), []
        shown = watched(self.page, kind, act, *args)
        wait_idle(self.page)
        time.sleep(0.3)
        after = counters(self.cdp)
        cost = {name: (after[name] - before[name]) * 1000 for name in COUNTERS}
        print(f"{kind}: shown in {shown:.0f} ms, main thread {cost['TaskDuration']:.0f} ms", flush=True)
        return {**cost, "kB received": sum(self.received) / 1000, "shown": shown}


def settle_costs(meter: Meter, service: Rooms, code: str, tokens: list[str], hands: int) -> list[dict[str, float]]:
    """Per hand: each counter's milliseconds, the bytes received and the time to show it."""
    out = []
    for number in range(1, hands + 1):
        last = three_revealed(meter.page, service, code, tokens, number)
        out.append(meter.measure("settled", service.reveal, code, tokens[3], number, last))
        if number < hands:
            service.next_hand(code, tokens[0], number)
    return out


def move_costs(meter: Meter, service: Rooms, code: str, tokens: list[str], turns: int) -> list[dict[str, float]]:
    """Per move of another seat (up to ``turns`` moves in all): the same figures."""
    out = []
    for _turn in range(turns):
        found = next_mover(service, code, tokens)
        if found is None:
            break  # the round is over
        mover, number = found
        if mover == 1:  # the page's own seat: moved, not measured
            service.play(code, tokens[mover], number, 0)
            wait_idle(meter.page)
            continue
        out.append(meter.measure("table", service.play, code, tokens[mover], number, 0))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10, help="Mau Binh hands (default 10; the first is left out)")
    parser.add_argument("--turns", type=int, default=0,
                        help="Macao moves after the hands (default 0: none; the first three are left out)")  # fmt: skip
    args = parser.parse_args()
    if args.hands < 2:
        parser.error("--hands must be at least 2: the first hand is left out")
    if args.turns and args.turns < 8:
        parser.error("--turns must be 0 or at least 8: the first three moves shown are left out")
    folder = Path(tempfile.mkdtemp(prefix="room-page-cost-"))
    env = {"MAU_BINH_DATA_DIR": str(folder)}
    os.environ.update(env)
    store = Store(f"sqlite:///{folder / 'mau-binh.sqlite3'}")
    port = free_port()
    process = start_streamlit("streamlit_app.py", folder / "server.log", port, env)
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            service = Rooms(store)
            server = f"http://127.0.0.1:{port}"
            code, tokens = started_room(service, Settings(seats=4))
            meter = Meter(seat_browsers(browser, [server], code, tokens[1:2])[0])
            report("a pushed settlement", "hands", settle_costs(meter, service, code, tokens, args.hands)[1:])
            meter.page.context.close()
            if args.turns:
                code, tokens = started_room(service, MacaoSettings(seats=4, turn_timer=None))
                meter = Meter(seat_browsers(browser, [server], code, tokens[1:2])[0])
                report("another seat's Macao move", "moves", move_costs(meter, service, code, tokens, args.turns)[3:])
            browser.close()
    finally:
        process.terminate()
        store.close()


def report(what: str, unit: str, costs: list[dict[str, float]]) -> None:
    print(f"\nOne page at 390 px drawing {what}, median of {len(costs)} {unit} "
          f"(load average {os.getloadavg()[0]:.1f}):\n")  # fmt: skip
    print("| measure | median | min | max |\n|---|---|---|---|")
    for key, label in [*COUNTERS.items(), ("kB received", "pushed rerun received (kB)"), ("shown", "shown after")]:
        values = [c[key] for c in costs]
        unit = "" if key == "kB received" else " ms"
        cells = [f"{v:.0f}{unit}" for v in (statistics.median(values), min(values), max(values))]
        print(f"| {label} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
