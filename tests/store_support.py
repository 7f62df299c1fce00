"""Seeded records for the store tests, and a writer process for the crash and concurrency tests.

``python -m tests.store_support URL PROFILE_ID COUNT SEED`` records COUNT practice hands,
printing each row id (flushed) only after its write returned, so a test that kills the
process knows which writes were acknowledged.  ``python -m tests.store_support import URL
PROFILE_ID FILE`` imports an export file, printing ``writing`` when its write transaction
begins and ``done`` when the import returned.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy.engine import Connection

from solver.cards import format_cards, full_deck
from store import GRADES, PracticeRecord, Store

THEMES = ("pairs", "flush-back", "split-two-pair", "ace-front", "straight-middle", "foul-risk")


def practice_record(rng: random.Random, when: datetime | None = None, **changes: object) -> PracticeRecord:
    """A valid practice record of a random hand, its set the cards in dealt order."""
    cards = rng.sample(full_deck(), 13)
    hand = format_cards(cards)
    played = f"{format_cards(cards[:3])} | {format_cards(cards[3:8])} | {format_cards(cards[8:])}"
    best = f"{format_cards(cards[10:])} | {format_cards(cards[5:10])} | {format_cards(cards[:5])}"
    lost = round(rng.random() * 4, 3)
    values: dict[str, object] = dict(
        preset=rng.choice(("vietnamese", "plain", "four-two")),
        players=rng.randint(2, 4),
        field="population",
        hand=hand,
        played=played,
        best=best,
        ev=round(1.5 - lost, 3),
        best_ev=1.5,
        chi_lost=lost,
        grade=rng.choice(GRADES),
        seed=rng.randrange(10**12),
        number=rng.randint(1, 50),
        kind=rng.choice(("Random", "Hard", "Drill:pairs")),
        themes=tuple(rng.sample(THEMES, rng.randint(0, 3))),
        seconds=round(rng.uniform(2, 90), 2),
        hints=rng.randint(0, 2),
        created_at=when or datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(minutes=rng.randrange(10**6)),
    )
    values.update(changes)
    return PracticeRecord(**values)  # type: ignore[arg-type]


class AnnouncingStore(Store):
    """A store that says when a write transaction begins (so a test can kill it inside one)."""

    @contextmanager
    def write(self) -> Iterator[Connection]:
        with super().write() as connection:
            print("writing", flush=True)
            yield connection


def import_file(url: str, profile_id: str, path: str) -> None:
    AnnouncingStore(url).import_profile(profile_id, Path(path).read_bytes())
    print("done", flush=True)


def main(url: str, profile_id: str, count: int, seed: int) -> None:
    store = Store(url)
    rng = random.Random(seed)
    for _ in range(count):
        row = store.record_practice(profile_id, practice_record(rng))
        print(row, flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "import":
        import_file(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
