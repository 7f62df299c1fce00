"""What one room page spends drawing a pushed settlement (issue 41): its main thread's time.

One app process, one Chromium page at phone width (seat 2 of a 4-person room); the other
three people act through the room's service, as in ``rooms_push --one-screen``.  For each
hand the three others reveal, then the fourth does, and the page shows the settlement.
Around that last reveal the page's own counters (Chrome DevTools ``Performance.getMetrics``)
give its main thread's task time and, within it, script, layout and style time.  The
websocket frames the page received give the bytes pushed for the rerun.

The first hand is left out (the page's first settlement loads its code).  Figures are
medians over the other hands.

    python -m benchmarks.room_page_cost --hands 10
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

from benchmarks.rooms_push import seat_browsers, started_room, three_revealed, watched
from rooms import Rooms, Settings
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


def settle_costs(page: Any, service: Rooms, code: str, tokens: list[str], hands: int) -> list[dict[str, float]]:
    """Per hand: each counter's milliseconds, the bytes received and the time to show it."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    received: list[int] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(len(payload))))
    page.reload()  # the listener sees the page's own websocket from its start
    page.locator("[data-room-code]").first.wait_for(timeout=60_000)
    out = []
    for number in range(1, hands + 1):
        last = three_revealed(page, service, code, tokens, number)
        time.sleep(0.5)
        before, received[:] = counters(cdp), []
        shown = watched(page, "settled", service.reveal, code, tokens[3], number, last)
        wait_idle(page)
        time.sleep(0.3)
        after = counters(cdp)
        cost = {name: (after[name] - before[name]) * 1000 for name in COUNTERS}
        out.append({**cost, "kB received": sum(received) / 1000, "shown": shown})
        print(f"hand {number}: shown in {shown:.0f} ms, main thread {cost['TaskDuration']:.0f} ms", flush=True)
        if number < hands:
            service.next_hand(code, tokens[0], number)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10, help="hands (default 10; the first is left out)")
    args = parser.parse_args()
    if args.hands < 2:
        parser.error("--hands must be at least 2: the first hand is left out")
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
            code, tokens = started_room(service, Settings(seats=4))
            page = seat_browsers(browser, [f"http://127.0.0.1:{port}"], code, tokens[1:2])[0]
            costs = settle_costs(page, service, code, tokens, args.hands)[1:]
            browser.close()
    finally:
        process.terminate()
        store.close()
    print(f"\nOne page at 390 px drawing a pushed settlement, median of {len(costs)} hands "
          f"(load average {os.getloadavg()[0]:.1f}):\n")  # fmt: skip
    print("| measure | median | min | max |\n|---|---|---|---|")
    for key, label in [*COUNTERS.items(), ("kB received", "pushed rerun received (kB)"), ("shown", "shown after")]:
        values = [c[key] for c in costs]
        unit = "" if key == "kB received" else " ms"
        cells = [f"{v:.0f}{unit}" for v in (statistics.median(values), min(values), max(values))]
        print(f"| {label} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
