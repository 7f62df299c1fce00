"""Grades of a set against the solver's best one, shared by the Practice and Play pages.

A grade depends on the chi lost against the best set (best EV minus yours, fast mode,
the table's rules and size): a foul is always "foul", the best set itself (or one
within 0.05 chi of it) is "best".  Pure Python, no Streamlit.
"""

from __future__ import annotations

from solver.scoring import Arrangement

#: Grades by chi lost against the best set (upper bounds, inclusive); a foul is graded "foul".
GRADES: tuple[tuple[str, float], ...] = (
    ("best", 0.05),
    ("good", 0.25),
    ("inaccuracy", 0.75),
    ("mistake", 2.0),
    ("blunder", float("inf")),
)
GRADE_COLOURS = {
    "best": "#2e7d32",
    "good": "#7cb342",
    "inaccuracy": "#fbc02d",
    "mistake": "#fb8c00",
    "blunder": "#e53935",
    "foul": "#6d4c41",
}
GRADE_ICONS = {"best": "🏆", "good": "✅", "inaccuracy": "🟡", "mistake": "🟠", "blunder": "🔴", "foul": "❌"}


def grade_for(lost: float, valid: bool, same_as_best: bool) -> str:
    if not valid:
        return "foul"
    if same_as_best:
        return "best"
    return next(name for name, limit in GRADES if lost <= limit)


def same_rows(a: Arrangement, b: Arrangement) -> bool:
    """True when both sets put the same cards in each row (order within a row aside)."""
    return all(set(x) == set(y) for x, y in zip(a.rows, b.rows))
