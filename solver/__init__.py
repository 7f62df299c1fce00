"""Mau Binh (13-card Chinese poker) rules, scoring and solver.

Public API (stable)::

    from solver import (Card, parse_cards, Arrangement, Rules, PRESETS, Table, hand_strength,
                        is_valid, special_hand, score_table, solve, evaluate, solve_many)

A ``Table`` (rules, players, field) is checked once and holds its model; ``solve``,
``evaluate`` and ``solve_many`` take it as ``table=`` (or the three as before).

``score_table`` itemises each pair's settlement (``TableResult.settlement(a, b)``, a
``PairSettlement`` of ``RowResult`` rows and ``SettlementItem`` extras).
"""

from __future__ import annotations

try:
    from . import _core  # type: ignore[attr-defined]  # noqa: F401  (compiled; never fall back to slow Python)
except ImportError as exc:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "solver._core (the compiled Cython core) is missing or stale. Build it with:\n"
        '    pip install -e ".[test]"\n'
        "(or `python setup.py build_ext --inplace`) from the project root."
    ) from exc

from .batch import SolutionBatch, solve_many
from .cards import BLACK_JOKER, RED_JOKER, Card, InvalidCardError, InvalidHandError, Rank, Suit, parse_card, parse_cards
from .context import Table
from .hands import hand_strength
from .rules import PRESETS, InvalidRulesError, Rules
from .scoring import (
    Arrangement,
    PairSettlement,
    RowResult,
    SettlementItem,
    TableResult,
    is_valid,
    score_table,
    special_hand,
)
from .strategy import Evaluation, Solution, evaluate, solve, strongest_back_first

__all__ = [
    "BLACK_JOKER",
    "PRESETS",
    "RED_JOKER",
    "Arrangement",
    "Card",
    "Evaluation",
    "InvalidCardError",
    "InvalidHandError",
    "InvalidRulesError",
    "PairSettlement",
    "Rank",
    "RowResult",
    "Rules",
    "SettlementItem",
    "Solution",
    "SolutionBatch",
    "Suit",
    "Table",
    "TableResult",
    "evaluate",
    "hand_strength",
    "is_valid",
    "parse_card",
    "parse_cards",
    "score_table",
    "solve",
    "solve_many",
    "special_hand",
    "strongest_back_first",
]
