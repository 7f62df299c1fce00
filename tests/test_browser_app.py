"""Real-browser test: `streamlit run` on a loopback port, driven by Playwright.

Playwright drives Debian's Chromium (``/usr/bin/chromium``, headless); no browser is
downloaded.  The viewport is a 390-pixel-wide phone.  Screenshots are saved under the
test's temporary directory (printed on failure and with ``pytest -s``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright import sync_api

from tests.browser_support import CHROMIUM, CHROMIUM_ARGS, require_chromium, streamlit_server

PHONE = {"width": 390, "height": 844}
HAND = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s 10c Jh"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    existing = os.environ.get("MAU_BINH_APP_URL")  # point the test at a server you already run
    if existing:
        yield existing.rstrip("/")
        return
    with streamlit_server("streamlit_app.py", tmp_path_factory.mktemp("streamlit") / "server.log") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    require_chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def shoot(page: object, path: Path) -> None:
    """Screenshot the whole app at phone width (Streamlit scrolls an inner element, so grow the viewport)."""
    height = page.evaluate(  # type: ignore[attr-defined]
        "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain], section, div')]"
        ".map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": PHONE["width"], "height": min(max(int(height), PHONE["height"]), 6000)})  # type: ignore[attr-defined]
    page.evaluate("() => { for (const e of document.querySelectorAll('*')) if (e.scrollTop) e.scrollTop = 0; }")  # type: ignore[attr-defined]
    page.wait_for_timeout(1500)  # type: ignore[attr-defined]
    page.screenshot(path=str(path))  # type: ignore[attr-defined]
    page.set_viewport_size(PHONE)  # type: ignore[attr-defined]
    print(f"screenshot: {path}")


def settle(page: object) -> None:
    """Wait until Streamlit has finished the current run."""
    page.wait_for_timeout(300)  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        "() => !document.querySelector('[data-testid=stStatusWidget] [data-testid=stStatusWidgetRunningIcon]')"
        " && !document.querySelector('[data-testid=stSpinner]')",
        timeout=30_000,
    )


def test_paste_and_solve_on_a_phone(server: str, browser: object, tmp_path: Path) -> None:
    page = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    box = page.get_by_label("Your 13 cards")
    box.wait_for(timeout=30_000)
    box.fill(HAND)
    box.press("Control+Enter")
    settle(page)
    page.get_by_role("button", name="Solve", exact=True).click()
    page.get_by_text("Best set").wait_for(timeout=30_000)
    settle(page)
    assert page.locator(".mb-card").count() >= 13
    assert page.get_by_text("EV per hand").count() >= 1
    assert page.locator("[data-testid=stException]").count() == 0
    # the hand is in the URL, and the link reopens the same result
    assert "hand=" in page.url
    shoot(page, tmp_path / "solve.png")
    link = page.url
    again = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    again.goto(link)
    again.get_by_text("Best set").wait_for(timeout=30_000)
    # the link's hand fills the box on the page's first rerun: wait for it, up to 30 s
    sync_api.expect(again.get_by_label("Your 13 cards")).to_have_value(re.compile(r"^Ah Ad Kd"), timeout=30_000)
    again.close()
    # hostile text is shown as text, never run
    box.fill("<img src=x onerror=alert(1)><script>alert(2)</script>")
    box.press("Control+Enter")
    settle(page)
    page.get_by_role("button", name="Solve", exact=True).click()
    page.locator("[data-testid=stAlertContentError]").first.wait_for(timeout=30_000)
    assert page.locator("img[src=x]").count() == 0
    assert page.locator("[data-testid=stException]").count() == 0
    shoot(page, tmp_path / "solve-error.png")
    assert not errors, errors
    page.close()


def test_one_full_practice_hand_on_a_phone(server: str, browser: object, tmp_path: Path) -> None:
    page = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    page.goto(f"{server}/practice")
    page.get_by_role("button", name="Deal a hand").wait_for(timeout=30_000)
    seed = page.get_by_role("textbox", name="Seed (optional")
    seed.fill("2024")
    seed.press("Enter")
    settle(page)
    page.get_by_role("button", name="Deal a hand").click()
    page.get_by_role("button", name="Submit my set").wait_for(timeout=30_000)
    settle(page)
    shoot(page, tmp_path / "practice-dealt.png")
    # tick the top card of the back and the top card of the front, then swap them
    back = page.locator(".st-key-practice_row_2 [data-testid=stButtonGroup] button").first
    front = page.locator(".st-key-practice_row_0 [data-testid=stButtonGroup] button").first
    back.click()
    settle(page)
    front.click()
    settle(page)
    page.get_by_role("button", name="Swap the two ticked cards").click()
    settle(page)
    # move one card front -> middle and back again through the row buttons
    page.locator(".st-key-practice_row_0 [data-testid=stButtonGroup] button").last.click()
    settle(page)
    page.locator(".st-key-practice_row_1").get_by_role("button", name="Move here").click()
    settle(page)
    page.get_by_text("Rows need 3, 5 and 5 cards").wait_for(timeout=15_000)
    shoot(page, tmp_path / "practice-moving.png")
    page.locator(".st-key-practice_row_1 [data-testid=stButtonGroup] button").last.click()
    settle(page)
    page.locator(".st-key-practice_row_0").get_by_role("button", name="Move here").click()
    settle(page)
    page.get_by_role("button", name="Submit my set").click()
    page.get_by_text("Your EV", exact=True).wait_for(timeout=30_000)
    settle(page)
    body = page.inner_text("body")
    assert any(g in body for g in ("Best", "Good", "Inaccuracy", "Mistake", "Blunder", "Foul"))
    assert "Your set" in body and "Best set" in body
    assert "This session" in body
    assert page.locator("[data-testid=stException]").count() == 0
    shoot(page, tmp_path / "practice-result.png")
    page.close()
