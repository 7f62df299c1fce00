"""The opponent-field selector in real Chromium: a phone link with ``?field=strong`` shows
that choice and the strong field's answer, a tap on another choice changes the answer and
the address, and Solve, Practice and Play with the selector fit a 390 px phone in every
language (screenshots at 390 and 1280 px under the test's temporary directory)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright import sync_api

from solver import solve
from tests.browser_support import DESKTOP, PHONE, assert_fits, page_errors, wait_idle
from tests.field_support import FIELD_HAND
from tests.test_browser_app import shoot

pytestmark = pytest.mark.browser

CHECKED = "[role=radio][aria-checked=true]"


def ev_text(field: str) -> str:
    """The EV the Solve page shows for the hand against ``field`` (English number format)."""
    return f"{solve(FIELD_HAND, 'vietnamese', 4, field=field, seed=2024).ev:+.2f} chi"


def test_a_phone_link_opens_solve_with_the_strong_field(server: str, browser: object, tmp_path: Path) -> None:
    page = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    errors = page_errors(page)
    page.goto(f"{server}/?field=strong&hand=" + FIELD_HAND.replace(" ", "+"))
    page.get_by_text("Top alternatives").wait_for(timeout=60_000)
    wait_idle(page)
    # the table settings are folded into their one-line summary, which names the field
    fold = page.locator(".st-key-solve_settings_open summary")
    sync_api.expect(fold).to_contain_text("opponents: Strong")
    fold.click()
    wait_idle(page)
    selector = page.get_by_role("radiogroup", name="Opponents")
    sync_api.expect(selector.locator(CHECKED)).to_have_text("Strong")
    sync_api.expect(page.get_by_test_id("stMetricValue").first).to_have_text(ev_text("strong"))
    assert_fits(page, "solve with the field selector")
    # the help names each choice in plain words, and fits the phone too
    page.get_by_role("button", name="Help for Opponents").hover()
    tooltip = page.get_by_test_id("stTooltipContent")
    tooltip.wait_for(timeout=10_000)
    sync_api.expect(tooltip).to_contain_text("Beginners")
    # Streamlit's tooltip wrapper reaches 8 px past the edge (on every help, not only this
    # one) while its text box stays on the screen: that text box is what must fit
    box = tooltip.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    shoot(page, tmp_path / "solve-strong-390.png")
    # a tap on another choice: its answer, and the address follows
    selector.get_by_role("radio", name="Beginners").click()
    wait_idle(page)
    sync_api.expect(page.get_by_test_id("stMetricValue").first).to_have_text(ev_text("beginners"))
    assert "field=beginners" in page.url
    selector.get_by_role("radio", name="Mixed").click()
    wait_idle(page)
    sync_api.expect(page.get_by_test_id("stMetricValue").first).to_have_text(ev_text("population"))
    assert "field=" not in page.url  # the default is left out of the link
    assert page.locator("[data-testid=stException]").count() == 0
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("lang", ["en", "vi", "km"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_the_selector_fits_on_every_page_and_language(
    server: str, browser: object, tmp_path: Path, viewport: dict[str, int], lang: str
) -> None:
    page = browser.new_page(viewport=viewport)  # type: ignore[attr-defined]
    errors = page_errors(page)
    width = viewport["width"]
    hand = FIELD_HAND.replace(" ", "+")
    for name, url, ready, key in (
        ("solve", f"/?field=strong&hand={hand}&lang={lang}", ".st-key-solve_best_rows [data-card]", "solve_field"),
        ("practice", f"/practice?seed=3&field=beginners&lang={lang}", "[data-row='back'] [data-card]",
         "practice_field"),
        ("play", f"/play?seed=5&players=4&field=strong&lang={lang}", "[data-row='back'] [data-card]", "play_field"),
    ):  # fmt: skip
        page.goto(server + url)  # type: ignore[attr-defined]
        page.locator(ready).first.wait_for(timeout=60_000)  # type: ignore[attr-defined]
        wait_idle(page)
        if name == "play":  # the settled hand shows the review against the field
            page.locator(".st-key-play_reveal_button button").click()  # type: ignore[attr-defined]
            page.locator("[data-seat='3']").wait_for(timeout=60_000)  # type: ignore[attr-defined]
            wait_idle(page)
        # the settings sit in the page's settings fold once a hand is dealt
        page.locator(f".st-key-{name}_settings_open summary").click()  # type: ignore[attr-defined]
        wait_idle(page)
        chosen = page.locator(f".st-key-{key} {CHECKED}")  # type: ignore[attr-defined]
        sync_api.expect(chosen).to_have_count(1)
        assert chosen.bounding_box()["width"] > 0
        shoot(page, tmp_path / f"{name}-{lang}-{width}.png")  # first, so a failure can be looked at
        assert_fits(page, f"{name} ({lang}, {width} px)")
    assert not errors, errors
    page.close()
