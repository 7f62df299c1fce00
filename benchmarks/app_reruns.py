"""Server-side time of one rerun of each app page (issue 9: many users share the server).

    PYTHONPATH=. python benchmarks/app_reruns.py              # 30 reruns a page
    PYTHONPATH=. python benchmarks/app_reruns.py --reruns 10  # quicker

Each page is opened in Streamlit's AppTest (the real script run, no browser) and put in a
typical state: Solve with a hand solved, Practice with a deal, Compare with its sets,
Rules, Macao with a game started.  Then the page is rerun ``--reruns`` times with nothing
changed (what every widget interaction of any user costs at least) and the median wall
and CPU times are printed.  For Solve two more lines: a Solve click on a new hand (the
solver runs: cache miss) and a Solve click on a hand solved before (cache hit).

AppTest adds its own overhead (it parses the page's element tree after every run), so
the figures are an upper bound of what the server spends per rerun.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from streamlit.testing.v1 import AppTest

from solver.cards import full_deck

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")
HAND = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"
PAGES = (
    "app/pages/solve.py",
    "app/pages/practice.py",
    "app/pages/compare.py",
    "app/pages/rules.py",
    "app/pages/macao_round.py",
)


def timed(action: Callable[[], object], reruns: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``action`` over ``reruns`` calls."""
    walls, cpus = [], []
    for _ in range(reruns):
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def open_page(page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    if page == PAGES[0]:
        at.text_area(key="solve_text").input(HAND).run()
        at.button(key="solve_go").click().run()
    else:
        at.switch_page(page).run()
    if at.exception:
        raise SystemExit(f"{page} failed: {at.exception}")
    return at


def box(at: AppTest) -> object:
    (found,) = [t for t in at.text_area if t.label == "Your 13 cards"]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reruns", type=int, default=30)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {args.reruns} reruns a page, median (ms)")
    print(f"{'page / action':<34} {'wall':>8} {'cpu':>8}")
    for page in PAGES:
        at = open_page(page)
        at.run()  # warm: tables loaded, caches filled
        wall, cpu = timed(at.run, args.reruns)
        print(f"{page + ' rerun':<34} {wall * 1000:8.1f} {cpu * 1000:8.1f}")
    at = open_page(PAGES[0])
    rng = random.Random(9)
    deck = full_deck()

    def solve_new_hand() -> None:
        rng.shuffle(deck)
        box(at).input(" ".join(str(c) for c in deck[:13]))  # type: ignore[attr-defined]
        at.button(key="solve_go").click().run()

    def solve_same_hand() -> None:
        box(at).input(HAND)  # type: ignore[attr-defined]
        at.button(key="solve_go").click().run()

    for name, action in (("Solve click, new hand", solve_new_hand), ("Solve click, cached hand", solve_same_hand)):
        wall, cpu = timed(action, args.reruns)
        print(f"{name:<34} {wall * 1000:8.1f} {cpu * 1000:8.1f}")


if __name__ == "__main__":
    main()
