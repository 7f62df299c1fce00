"""Server time of the Progress page with many recorded hands (issue 25: under 1 s with 10,000).

    PYTHONPATH=. python benchmarks/progress_page.py                 # 10,000 hands, 5 runs
    PYTHONPATH=. python benchmarks/progress_page.py --hands 2000 --runs 3

A temporary data folder (``MAU_BINH_DATA_DIR``) gets one profile filled with ``--hands``
seeded Practice records (spread over 180 days, every grade, a few themes each), 200 Play
hands and 100 Macao rounds, imported in one transaction.  The page is then opened in
Streamlit's AppTest as that profile and run ``--runs`` times (after one run that AppTest
spends scanning installed packages for components, which a server does once at start);
the median wall time of a run is printed beside the slowest.  The page reads nothing
cached between runs.  AppTest adds its own overhead (it hands the run to a thread and
parses the element tree afterwards), so the figures are an upper bound of the server's
time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GRADES = (("best", 0.45), ("good", 0.2), ("inaccuracy", 0.15), ("mistake", 0.1), ("blunder", 0.06), ("foul", 0.04))
LOST = {"best": (0.0, 0.0), "good": (0.05, 0.25), "inaccuracy": (0.25, 0.75), "mistake": (0.75, 2.0),
        "blunder": (2.0, 6.0), "foul": (3.0, 9.0)}  # fmt: skip
THEMES = ("broken-straight", "broken-flush", "split-two-pair", "pair-in-front", "trips-placement", "kicker",
          "weak-front", "weak-middle", "scoop-risk")  # fmt: skip


def seeded_export(hands: int, seed: int, now: datetime) -> dict[str, Any]:
    """An export document (store.transfer's format) of ``hands`` seeded Practice records."""
    from solver import strongest_back_first
    from solver.cards import full_deck
    from store.records import MacaoRoundRecord, PlayHandRecord, PlaySeat, PracticeRecord
    from store.transfer import ProfileExport, export_document

    rng = random.Random(seed)
    names, weights = zip(*GRADES)
    practice = []
    for i in range(hands):
        deck = full_deck()
        rng.shuffle(deck)
        cards = sorted(deck[:13])
        naive = str(strongest_back_first(cards, "vietnamese"))
        grade = rng.choices(names, weights)[0]
        low, high = LOST[grade]
        lost = round(rng.uniform(low, high), 3)
        best_ev = round(rng.uniform(-2, 3), 3)
        themes = () if grade == "best" else tuple(rng.sample(THEMES, rng.randint(1, 3)))
        practice.append(PracticeRecord(
            preset="vietnamese", players=4, field="mixed", hand=" ".join(map(str, cards)), played=naive,
            best=naive, ev=best_ev - lost, best_ev=best_ev, chi_lost=lost, grade=grade, seed=seed, number=i + 1,
            themes=themes, seconds=round(rng.uniform(5, 90), 1),
            created_at=now - timedelta(days=180) + timedelta(minutes=i * 180 * 24 * 60 / max(1, hands)),
        ))  # fmt: skip
    play = []
    for i in range(200):
        deck = full_deck()
        rng.shuffle(deck)
        seats = tuple(
            PlaySeat(name, " ".join(map(str, sorted(deck[13 * s : 13 * s + 13]))),
                     str(strongest_back_first(sorted(deck[13 * s : 13 * s + 13]), "vietnamese")))
            for s, name in enumerate(("You", "Club 1", "Club 2", "Club 3"))
        )  # fmt: skip
        net = rng.randint(-12, 12)
        play.append(PlayHandRecord(
            session=str(seed), hand_number=i + 1, preset="vietnamese", players=4, field="mixed", seats=seats,
            settlement={"totals": [net, -net, 0, 0]}, my_net=net, levels=("club", "club", "club"), seed=seed,
            number=i + 1, grade=rng.choices(names, weights)[0], chi_lost=0.0,
            created_at=now - timedelta(hours=200 - i),
        ))  # fmt: skip
    macao = [
        MacaoRoundRecord(options={"players": 2, "decks": 1}, seed=seed, players=2, result={"placings": [1, 2]},
                         levels=("normal",), my_place=rng.randint(1, 2), turns=rng.randint(10, 60),
                         created_at=now - timedelta(hours=100 - i))
        for i in range(100)
    ]  # fmt: skip
    return export_document(ProfileExport(page_states={}, practice=practice, play=play, macao=macao, review=[]), now)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as folder:
        os.environ["MAU_BINH_DATA_DIR"] = folder
        os.environ.pop("MAU_BINH_DATABASE_URL", None)
        from streamlit.testing.v1 import AppTest

        from store import get_store

        store = get_store()
        profile = store.create_profile()
        started = time.perf_counter()
        document = json.dumps(seeded_export(args.hands, args.seed, datetime.now(timezone.utc)))
        summary = store.import_profile(profile.id, document)
        print(f"filled {summary.practice} practice hands, {summary.play} play hands, {summary.macao} macao rounds "
              f"in {time.perf_counter() - started:.1f} s")  # fmt: skip

        def page(profile_id: str) -> AppTest:
            at = AppTest.from_file(str(ROOT / "app" / "pages" / "progress.py"), default_timeout=120)
            at.session_state["profile_id"] = profile_id
            return at

        def run(at: AppTest) -> float:
            started = time.perf_counter()
            at.run()
            elapsed = time.perf_counter() - started
            if at.exception:
                sys.exit(f"the page failed: {at.exception}")
            return elapsed

        # AppTest's first run of an instance scans the installed packages for components
        # (about 1 s here): a server does that once at start, so it is left out.
        at = page(profile.id)
        run(at)
        times = [run(at) for _ in range(args.runs)]
        print(f"Progress page, {args.hands} hands: median {statistics.median(times):.3f} s, "
              f"slowest {max(times):.3f} s over {args.runs} runs")  # fmt: skip


if __name__ == "__main__":
    main()
