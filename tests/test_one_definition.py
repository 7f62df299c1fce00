"""Each rule constant is defined once, in the solver, and the app imports it: the row
sizes, the solver's modes and the deal-seed rule that links Play sessions to Practice
drills (issue #29, item 5)."""

from __future__ import annotations

import re
from pathlib import Path

import app.cards
import app.widgets
from app import engine
from solver import scoring, strategy, table

APP = Path(__file__).resolve().parent.parent / "app"


def test_the_app_imports_the_row_sizes_and_modes() -> None:
    assert app.widgets.ROW_SIZES is scoring.ROW_SIZES
    assert app.cards.ROW_SIZES is scoring.ROW_SIZES
    assert engine.MODES is strategy.MODES


def test_a_drill_deals_as_the_play_session_of_the_same_seed() -> None:
    for seed, number in ((0, 1), (7, 3), (123_456, 1000), (999_999_999, 17)):
        assert engine.drill_seed(seed, number) == table.deal_seed(seed, number)
        assert table.seed_and_number(table.deal_seed(seed, number)) == (seed, number)
    # a drill may run past a session's last hand; the rule is the same
    assert engine.drill_seed(5, 1001) == table.deck_seed(5, 1001) == 6000


def test_no_second_definition_in_the_app() -> None:
    patterns = [r"ROW_SIZES\s*=", r"MODES\s*=\s*\(\s*\"fast\"", r"\*\s*1000\b", r"divmod\([^)]*,\s*1000\)"]
    found = [
        f"{path.relative_to(APP)}:{n}: {line.strip()}"
        for path in APP.rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if any(re.search(p, line) for p in patterns)
    ]
    assert found == []
