"""Real-browser test of the Macao page: ``streamlit run app/macao.py`` on a loopback port,
driven by Playwright with Debian's headless Chromium; plays a round to the end and saves
screenshots under the test's tmp_path (part of the default suite; ``-m browser`` selects only browser tests).
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright import sync_api

from tests.browser_support import CHROMIUM, CHROMIUM_ARGS, require_chromium, streamlit_server

pytestmark = pytest.mark.browser


_IDLE = """() => {
    const app = document.querySelector('[data-test-script-state]');
    return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
        && !document.querySelector('[data-stale="true"]');
}"""


def _settle(page: Any) -> None:
    """Wait until Streamlit is idle on three polls in a row (bots move in a chain of reruns)."""
    quiet = 0
    deadline = time.monotonic() + 30
    while quiet < 3:
        page.wait_for_timeout(150)
        quiet = quiet + 1 if page.evaluate(_IDLE) else 0
        if time.monotonic() > deadline:
            raise AssertionError("streamlit kept running for 30 s")


def _click(page: Any, name: str) -> bool:
    """Click the enabled button whose label contains ``name``; False if there is none."""
    for _ in range(3):
        button = page.get_by_role("button", name=name)
        if not (button.count() and button.first.is_enabled()):
            return False
        try:
            button.first.click(timeout=3000)
        except Exception:  # the page re-rendered under the pointer: look again
            _settle(page)
            continue
        _settle(page)
        return True
    return False


def test_play_a_round_to_the_end_in_chromium(tmp_path):
    require_chromium()
    with streamlit_server("app/macao.py", tmp_path / "streamlit.log") as url, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 1400})
        page.goto(url)
        page.get_by_role("button", name="New round").wait_for(timeout=30_000)
        # game speed: Instant
        page.locator('[data-testid="stSelectbox"]').filter(has_text="Game speed").click()
        page.get_by_role("option", name="Instant").click()
        _settle(page)
        assert _click(page, "New round")
        page.get_by_text("Top card", exact=True).wait_for(timeout=30_000)
        page.screenshot(path=str(tmp_path / "macao_start.png"), full_page=True)
        # on a phone the hand is a wrapping line of cards and the moves a wrapping line of
        # buttons (the deal is random: an "Accept (draw 2)" can push Macao! onto a second line)
        page.set_viewport_size({"width": 390, "height": 844})
        _settle(page)
        tops = [page.locator(f".st-key-macao_card_{i} button").bounding_box()["y"] for i in range(2)]
        assert abs(tops[0] - tops[1]) < 4, f"the cards stack one per line on a phone: {tops}"
        moves = [page.get_by_role("button", name=n).first.bounding_box() for n in ("Play selected", "Draw")]
        assert abs(moves[0]["y"] - moves[1]["y"]) < 4, f"the move buttons stack on a phone: {moves}"
        for box in page.locator(".st-key-macao_moves button").all():
            edge = box.bounding_box()
            assert edge["x"] >= 0 and edge["x"] + edge["width"] <= 390, f"a move button leaves the screen: {edge}"
        page.screenshot(path=str(tmp_path / "macao_phone.png"), full_page=True)
        page.set_viewport_size({"width": 1100, "height": 1400})
        finished = False
        for turn in range(200):
            if page.get_by_text("Placings:").count():
                finished = True
                break
            if _click(page, "Play it") or _click(page, "Accept"):
                continue
            card = page.locator(f".st-key-macao_card_{turn % 3} button")
            if card.count() and card.first.is_enabled():
                card.first.click(timeout=3000)
                _settle(page)
                if _click(page, "Play selected") and not page.get_by_text("(rule ").count():
                    continue  # the card was played (an illegal one shows the rule broken)
            _click(page, "Draw") or _click(page, "Pass")
        page.screenshot(path=str(tmp_path / "macao_end.png"), full_page=True)
        assert finished, f"the round did not end; screenshot in {tmp_path}"
        text = page.inner_text("body")
        assert "Your statistics" in text and "Rounds" in text
        assert "Traceback" not in text
        browser.close()
    assert (tmp_path / "macao_end.png").stat().st_size > 0
