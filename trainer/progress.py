"""What the Progress page shows about a player's recorded hands beyond the store's sums:
weeks folded from days, streaks and leaks.  Pure Python over plain values, no Streamlit.

The store sums Practice hands per day in the player's time zone
(:meth:`store.Store.practice_by_day`); :func:`weeks` folds those days into ISO weeks
(Monday first).  :func:`streaks` counts days in a row with a hand and best plays in a row;
:func:`leaks` ranks the themes of the player's hands by the chi they cost, with the share
of those hands set best.  A leak is one theme: a hand with two themes counts in both.

>>> from datetime import date, datetime, timezone
>>> from store import DayStats
>>> days = [DayStats(date(2026, 3, 1), 2, 1.0, 0.5, 1), DayStats(date(2026, 3, 2), 1, 3.0, 3.0, 0),
...         DayStats(date(2026, 3, 3), 1, 0.0, 0.0, 1)]
>>> [(w.day.isoformat(), w.hands, w.chi_lost, w.good) for w in weeks(days)]
[('2026-02-23', 2, 1.0, 1), ('2026-03-02', 2, 3.0, 1)]
>>> streaks([d.day for d in days], ["best", "mistake", "best", "best"], date(2026, 3, 4))
Streaks(days=3, longest_days=3, best=2, longest_best=2)
>>> t = datetime(2026, 3, 3, tzinfo=timezone.utc)
>>> lines = [HandLine(t, 0.0, "best", ("kicker",)), HandLine(t, 1.5, "mistake", ("kicker", "pair-in-front"))]
>>> [(leak.theme, leak.hands, leak.best_share, leak.chi_lost) for leak in leaks(lines)]
[('kicker', 2, 0.5, 1.5), ('pair-in-front', 1, 0.0, 1.5)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from store import DayStats

#: The grade that counts as a best play (streaks, the leaks' best-play share).
BEST = "best"


@dataclass(frozen=True)
class HandLine:
    """One recorded Practice hand as the Progress page sums it up."""

    at: datetime
    chi_lost: float
    grade: str
    themes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Streaks:
    """Days in a row with a hand (the current run and the longest), best plays in a row (the same)."""

    days: int
    longest_days: int
    best: int
    longest_best: int


@dataclass(frozen=True)
class Leak:
    """One theme: the hands that had it, the share of them set best, and the chi they cost."""

    theme: str
    hands: int
    best_share: float
    chi_lost: float


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


def leaks(lines: Iterable[HandLine]) -> list[Leak]:
    """Each theme with its hands, best-play share and chi lost, the costliest first."""
    hands: dict[str, int] = {}
    best: dict[str, int] = {}
    cost: dict[str, float] = {}
    for line in lines:
        for theme in dict.fromkeys(line.themes):  # a theme named twice counts once
            hands[theme] = hands.get(theme, 0) + 1
            best[theme] = best.get(theme, 0) + (line.grade == BEST)
            cost[theme] = cost.get(theme, 0.0) + line.chi_lost
    found = [Leak(theme, n, best[theme] / n, cost[theme]) for theme, n in hands.items()]
    return sorted(found, key=lambda leak: (-leak.chi_lost, -leak.hands, leak.theme))
