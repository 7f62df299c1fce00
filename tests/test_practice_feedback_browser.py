"""The Practice feedback in a real browser: a losing set submitted as dealt shows one
``data-theme`` element per theme the result records (issue 25's DOM contract)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser_support import DESKTOP, page_errors, wait_idle
from trainer.themes import THEME_IDS

pytestmark = pytest.mark.browser


def test_a_losing_submission_shows_data_theme_elements(server: str, browser: object, tmp_path: Path) -> None:
    page = browser.new_page(viewport=DESKTOP)  # type: ignore[attr-defined]
    errors = page_errors(page)
    page.goto(f"{server}/practice?seed=31&players=4&preset=vietnamese")
    page.locator("[data-row='back'] [data-card]").first.wait_for(timeout=30_000)
    wait_idle(page)
    page.get_by_role("button", name="Submit my set").click()  # the deal as laid out: not the best set
    page.get_by_text("Your EV", exact=True).wait_for(timeout=30_000)
    wait_idle(page)
    chips = page.locator("[data-theme]")
    ids = [chips.nth(i).get_attribute("data-theme") for i in range(chips.count())]
    assert ids, page.inner_text("body")[:2000]
    assert set(ids) <= set(THEME_IDS) and len(ids) == len(set(ids))
    body = page.inner_text("body")
    assert "Worth " in body and " chi" in body
    page.screenshot(path=str(tmp_path / "practice-feedback-1280.png"), full_page=True)
    assert not errors, errors
    page.close()
