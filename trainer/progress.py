"""What the Progress page shows about a player's recorded hands beyond the store's sums:
weeks folded from days, and streaks.  Pure Python over plain values, no Streamlit.

The store sums Practice hands per day in the player's time zone
(:meth:`store.Store.practice_by_day`); :func:`weeks` folds those days into ISO weeks
(Monday first).  :func:`streaks` counts days in a row with a hand and best plays in a row.

>>> from datetime import date
>>> from store import DayStats
>>> days = [DayStats(date(2026, 3, 1), 2, 1.0, 0.5, 1), DayStats(date(2026, 3, 2), 1, 3.0, 3.0, 0),
...         DayStats(date(2026, 3, 3), 1, 0.0, 0.0, 1)]
>>> [(w.day.isoformat(), w.hands, w.chi_lost, w.good) for w in weeks(days)]
[('2026-02-23', 2, 1.0, 1), ('2026-03-02', 2, 3.0, 1)]
>>> streaks([d.day for d in days], ["best", "mistake", "best", "best"], date(2026, 3, 4))
Streaks(days=3, longest_days=3, best=2, longest_best=2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from store import DayStats

#: The grade that counts as a best play.
BEST = "best"


@dataclass(frozen=True)
class Streaks:
    """Days in a row with a hand (the current run and the longest), best plays in a row (the same)."""

    days: int
    longest_days: int
    best: int
    longest_best: int


def week_start(day: date) -> date:
    """The Monday of ``day``'s week."""
    return day - timedelta(days=day.weekday())


def weeks(days: Iterable[DayStats]) -> list[DayStats]:
    """The days' sums folded into weeks, each named by its Monday (oldest first)."""
    folded: dict[date, tuple[int, float, int]] = {}
    for d in days:
        hands, lost, good = folded.get(week_start(d.day), (0, 0.0, 0))
        folded[week_start(d.day)] = (hands + d.hands, lost + d.chi_lost, good + d.good)
    return [DayStats(monday, n, lost, lost / n, good) for monday, (n, lost, good) in sorted(folded.items())]


def streaks(days: Sequence[date], grades: Sequence[str], today: date) -> Streaks:
    """Days in a row with a hand (``days`` with at least one hand; the current run counts
    while it reaches today or yesterday) and best plays in a row (``grades`` oldest first)."""
    longest_days = run = 0
    previous: date | None = None
    for day in sorted(set(days)):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        longest_days = max(longest_days, run)
        previous = day
    current = run if previous is not None and today - previous <= timedelta(days=1) else 0
    longest_best = best = 0
    for grade in grades:
        best = best + 1 if grade == BEST else 0
        longest_best = max(longest_best, best)
    return Streaks(current, longest_days, best, longest_best)
