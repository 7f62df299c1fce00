"""Each rule constant is defined once, in the solver, and the app imports it: the row
sizes, the solver's modes and the deal-seed rule that links Play sessions to Practice
drills (issue #29, item 5)."""

from __future__ import annotations

import re
from pathlib import Path

import app.cards
from app import engine, terms
from solver import scoring, strategy, table

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"


def test_the_app_imports_the_row_sizes_and_modes() -> None:
    assert vars(app.cards)["ROW_SIZES"] is scoring.ROW_SIZES
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


def test_the_levels_strengths_are_stated_from_one_place() -> None:
    """The Play page's figures for how strong each computer level plays live in
    ``app.terms`` only (no copy in a page's text or a message), and the docs state the same."""
    figures = [f"{terms.CLUB_OVER_BEGINNER} chi a hand", f"{terms.EXPERT_OVER_CLUB} chi a hand"]
    sources = [p for p in APP.rglob("*.py") if p.name != "terms.py"] + [APP / "locale" / "messages.pot"]
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sources
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if any(re.search(rf"(?<![\d.]){re.escape(figure)}", line) for figure in figures)
    ]
    assert found == []
    docs = " ".join((ROOT / "docs" / "web-app.md").read_text(encoding="utf-8").split())
    for figure in figures:
        assert f"about {figure}" in docs
