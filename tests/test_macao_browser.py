"""Real-browser test of the Macao page (``streamlit run streamlit_app.py``, ``/macao``) on a loopback port,
driven by Playwright with Debian's headless Chromium.  A round is played to the end on a
390-pixel phone by tapping only lit cards (``data-playable="true"``) and the buttons the
page offers (Draw, Accept, Pass, Keep it, Macao!), and no move is ever refused.  It
prints how many taps a turn took; screenshots go under the test's tmp_path (part of the
default suite; ``-m browser`` selects only browser tests).
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright import sync_api

from tests.browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    page_errors,
    require_chromium,
    streamlit_server,
)

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
        page.wait_for_timeout(120)
        quiet = quiet + 1 if page.evaluate(_IDLE) else 0
        if time.monotonic() > deadline:
            raise AssertionError("streamlit kept running for 30 s")


def _button(page: Any, name: str) -> Any | None:
    """The enabled Streamlit button whose label starts with ``name``, or None."""
    button = page.locator("[data-testid=stButton] button, [data-testid=stBaseButton-primary]").filter(has_text=name)
    for i in range(button.count()):
        if button.nth(i).is_enabled() and button.nth(i).inner_text().startswith(name):
            return button.nth(i)
    return None


def _tap(target: Any) -> bool:
    """Click ``target``; False when it went away before the click landed (a bot's rerun
    redrew the page after it was found), so the caller looks at the page again."""
    try:
        target.click(timeout=5_000)
    except sync_api.TimeoutError:
        return False
    return True


def _choose(page: Any, label: str, option: str) -> None:
    """Pick an option of a select box.  The box is scrolled to mid-screen first: one
    clicked at the very bottom edge of the window (where the options now sit, below the
    How to play panel) closes its list again as the page scrolls to show it."""
    box = page.locator('[data-testid="stSelectbox"]').filter(has_text=label)
    box.evaluate("e => e.scrollIntoView({block: 'center'})")
    box.click()
    page.get_by_role("option", name=option).click()


def _no_refusal(page: Any) -> None:
    errors = page.locator("[data-testid=stAlertContentError]")
    assert errors.count() == 0, errors.first.inner_text()


def test_play_a_round_to_the_end_tapping_lit_cards(tmp_path):
    require_chromium()
    with streamlit_server("streamlit_app.py", tmp_path / "streamlit.log") as root, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=DESKTOP)  # the speed's drop-down list opens in place at this width
        script_errors = page_errors(page)
        page.goto(f"{root}/macao")
        page.get_by_role("button", name="New round").wait_for(timeout=30_000)
        _choose(page, "Game speed", "Instant")
        _settle(page)
        page.get_by_role("button", name="New round").click()
        page.locator("[data-playable]").first.wait_for(timeout=30_000)
        _settle(page)
        page.screenshot(path=str(tmp_path / "macao-start-1280.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(500)
        page.screenshot(path=str(tmp_path / "macao-start-390.png"), full_page=True)
        turns = taps = 0
        finished = False
        for _ in range(400):
            _settle(page)
            _no_refusal(page)
            if page.get_by_text("Placings:").count():
                finished = True
                break
            assert page.get_by_text("Moves", exact=True).count() == 1  # one move log, never a stale copy
            hand = page.locator("[data-playable]")
            lit = page.locator("[data-playable='true']")
            if lit.count():
                macao = _button(page, "Macao!")
                if hand.count() == 2 and macao is not None and macao.get_attribute("kind") != "primary":
                    if not _tap(macao):  # say Macao! with the play that leaves one card
                        continue
                    taps += 1
                    _settle(page)
                    lit = page.locator("[data-playable='true']")
                if not _tap(lit.first):
                    continue
                turns += 1
                taps += 1
                page.wait_for_timeout(150)
                suit = page.locator(".suit-btn")
                play = page.locator("button.play")
                if suit.count():  # an Ace: name the suit
                    taps += _tap(suit.first)
                elif play.count():  # a card that could go alone or with others: play it alone
                    taps += _tap(play.first)
                continue
            for name in ("Keep it", "Accept", "Draw", "Pass"):
                button = _button(page, name)
                if button is not None:
                    if _tap(button):
                        turns += name != "Keep it"  # keeping a drawn card ends the turn that drew it
                        taps += 1
                    break
        _settle(page)
        page.screenshot(path=str(tmp_path / "macao-end-390.png"), full_page=True)
        assert finished, f"the round did not end; screenshot in {tmp_path}"
        _no_refusal(page)
        text = page.inner_text("body")
        assert "Your statistics" in text and "Rounds" in text
        assert "Traceback" not in text and "(rule" not in text
        assert not script_errors, script_errors
        print(f"Macao round: {taps} taps over {turns} turns = {taps / max(turns, 1):.2f} taps a turn")
        browser.close()
    assert (tmp_path / "macao-end-390.png").stat().st_size > 0


def _one_move(page: Any) -> None:
    """Make one move of yours: the first lit card (alone, or the first suit for an Ace), else a button."""
    lit = page.locator("[data-playable='true']")
    if lit.count():
        if _tap(lit.first):
            page.wait_for_timeout(150)
            for extra in (".suit-btn", "button.play"):
                if page.locator(extra).count():
                    _tap(page.locator(extra).first)
                    break
        return
    for name in ("Keep it", "Accept", "Draw", "Pass"):
        button = _button(page, name)
        if button is not None:
            _tap(button)
            return


def test_seats_show_their_last_move_and_a_dim_card_says_why_on_a_phone(tmp_path):
    require_chromium()
    with streamlit_server("streamlit_app.py", tmp_path / "streamlit.log") as root, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=DESKTOP)
        script_errors = page_errors(page)
        page.goto(f"{root}/macao")
        page.get_by_role("button", name="New round").wait_for(timeout=30_000)
        _settle(page)  # a busy machine may still be drawing the options
        _choose(page, "Game speed", "Instant")
        _settle(page)
        page.set_viewport_size(PHONE)
        page.get_by_role("button", name="New round").click()
        page.locator("[data-playable]").first.wait_for(timeout=30_000)
        seat = page.locator("[data-seat='1']")
        moved = False
        for _ in range(40):
            _settle(page)
            if seat.get_attribute("data-last-move"):
                moved = True
                break
            _one_move(page)
        assert moved, "the opponent never moved"
        note = seat.get_attribute("data-last-move") or ""
        assert note.split()[0] in {"played", "drew", "waits", "sat", "passed", "caught"}, note
        assert note in seat.inner_text()  # the note is on the table, under the seat
        explained = False
        for _ in range(40):
            _settle(page)
            if page.get_by_text("Placings:").count():
                break
            dim = page.locator("[data-playable='false']")
            if page.get_by_text("Your turn").count() and dim.count():
                card = dim.first.get_attribute("data-card")
                assert _tap(dim.first)
                reason = page.locator(".reason")
                reason.wait_for(timeout=5_000)
                assert reason.get_attribute("data-reason-for") == card
                text = reason.inner_text()
                assert text and "rule" not in text
                page.screenshot(path=str(tmp_path / "macao-reason-390.png"), full_page=True)
                explained = True
                break
            _one_move(page)
        assert explained, f"no dim card to tap; screenshots in {tmp_path}"
        assert not script_errors, script_errors
        browser.close()
