"""Real-browser test of the anonymous profile: a moved card survives a reload and a server
restart, a new browser gets a fresh profile, the profile code opens the same state elsewhere,
and the profile id never appears in a URL or in the page (only in its cookie and storage).

The server runs with ``MAU_BINH_DATA_DIR`` set to a folder of the test's own, and is started
twice on that folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    free_port,
    page_errors,
    require_chromium,
    streamlit_server,
    wait_idle,
)

ROWS = ("front", "middle", "back")
COOKIE = "mau_binh_profile"
PATH = "/practice?seed=424242"

pytestmark = pytest.mark.browser


def shown_rows(page: Any) -> list[list[str]]:
    return [
        page.locator(f"[data-row='{row}'] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
        for row in ROWS
    ]


def open_practice(page: Any, url: str) -> list[list[str]]:
    page.goto(url + PATH)
    page.locator("[data-row='back'] [data-card]").first.wait_for(timeout=60_000)
    wait_idle(page)
    return shown_rows(page)


def profile_id(context: Any) -> str:
    found = [c for c in context.cookies() if c["name"] == COOKIE]
    assert len(found) == 1, context.cookies()
    cookie = found[0]
    assert cookie["sameSite"] == "Strict" and cookie["expires"] > 0
    return str(cookie["value"])


def wait_for_cookie(page: Any, context: Any) -> str:
    for _ in range(100):
        if any(c["name"] == COOKIE for c in context.cookies()):
            return profile_id(context)
        page.wait_for_timeout(100)
    raise AssertionError("the app set no profile cookie")


def nowhere_but_the_cookie(page: Any, secret: str) -> None:
    """The id is in no URL the page shows or links to, and nowhere in its HTML."""
    assert secret not in page.url
    assert secret not in page.content()
    links = page.locator("a[href]").evaluate_all("els => els.map(e => e.href)")
    assert not [link for link in links if secret in link]
    assert page.evaluate(f"() => window.localStorage.getItem('{COOKIE}')") == secret


def test_a_moved_card_survives_reload_and_restart_and_the_code_opens_it_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright import sync_api

    require_chromium()
    data = tmp_path / "data"
    port = free_port()  # both servers listen here: one origin, so the browser keeps its cookie and storage
    monkeypatch.setenv("MAU_BINH_DATA_DIR", str(data))
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        home = browser.new_context(viewport=DESKTOP)
        page = home.new_page()
        errors = page_errors(page)

        with streamlit_server("streamlit_app.py", tmp_path / "first.log", port) as url:
            dealt = open_practice(page, url)
            secret = wait_for_cookie(page, home)
            assert len(secret) >= 22  # at least 128 random bits
            # tap a front card, then a back card: the two swap
            front, back = dealt[0][0], dealt[2][0]
            page.locator(f"[data-card='{front}']").click()
            page.locator(f"[data-card='{back}']").click()
            wait_idle(page)
            moved = shown_rows(page)
            assert moved != dealt and back in moved[0] and front in moved[2]
            page.wait_for_timeout(500)  # the move's rerun has saved it

            page.reload()
            page.locator("[data-row='back'] [data-card]").first.wait_for(timeout=60_000)
            wait_idle(page)
            assert shown_rows(page) == moved
            assert profile_id(home) == secret
            nowhere_but_the_cookie(page, secret)
            assert "data" in str(data) and any(data.iterdir())  # the store writes under MAU_BINH_DATA_DIR

        with streamlit_server("streamlit_app.py", tmp_path / "second.log", port) as url:  # the same folder
            assert open_practice(page, url) == moved
            assert profile_id(home) == secret

            # a browser that lost its cookie but kept its storage gets its profile back
            home.clear_cookies()
            page.reload()
            wait_for_cookie(page, home)
            for _ in range(100):
                if profile_id(home) == secret:
                    break
                page.wait_for_timeout(100)
            assert profile_id(home) == secret
            page.locator("[data-row='back'] [data-card]").first.wait_for(timeout=60_000)
            wait_idle(page)
            assert shown_rows(page) == moved

            # a new browser (no cookie, no storage) starts a profile of its own: the hand as dealt
            away = browser.new_context(viewport=DESKTOP)
            other = away.new_page()
            assert open_practice(other, url) == dealt
            assert wait_for_cookie(other, away) != secret

            # the profile code from home, typed on the other browser, opens the same state there
            page.goto(url + "/profile")
            page.get_by_text("Your profile code").wait_for(timeout=60_000)
            wait_idle(page)
            code = page.locator("[data-testid=stCode] code").first.inner_text().strip()
            assert len(code) == 19 and code.count("-") == 3
            nowhere_but_the_cookie(page, secret)

            other.goto(url + "/profile")
            other.get_by_role("textbox", name="Profile code").wait_for(timeout=60_000)
            wait_idle(other)
            other.get_by_role("textbox", name="Profile code").fill("0000-0000-0000-0000")
            other.get_by_role("textbox", name="Profile code").press("Enter")
            wait_idle(other)
            other.get_by_role("button", name="Use this profile").click()
            other.get_by_text("No profile has the code").wait_for(timeout=30_000)
            other.get_by_role("textbox", name="Profile code").fill(code)
            other.get_by_role("textbox", name="Profile code").press("Enter")
            wait_idle(other)
            other.get_by_role("button", name="Use this profile").click()
            wait_idle(other)
            for _ in range(100):  # the keeper writes the new id into the cookie
                if profile_id(away) == secret:
                    break
                other.wait_for_timeout(100)
            assert profile_id(away) == secret
            assert open_practice(other, url) == moved
            nowhere_but_the_cookie(other, secret)

            # export: a JSON file with the hand as it was left, and without the id
            other.goto(url + "/profile")
            other.get_by_text("Export my data").click()
            with other.expect_download(timeout=60_000) as download:
                other.get_by_role("button", name="Download my data (JSON)").click()
            exported = Path(download.value.path()).read_text(encoding="utf-8")
            assert secret not in exported
            assert json.loads(exported)["page_states"]["practice"]["practice_rows"] == moved
            # a bad file is refused with a reason and changes nothing
            bad = tmp_path / "bad.json"
            bad.write_text('{"format": "something else"}', encoding="utf-8")
            other.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files(str(bad))
            other.get_by_role("button", name="Yes, import this file").click()
            other.get_by_text("That file cannot be imported").wait_for(timeout=30_000)
            assert open_practice(other, url) == moved
            # the exported file imports (into a fresh profile: the hand comes with it)
            fresh = browser.new_context(viewport=DESKTOP)
            third = fresh.new_page()
            third.goto(url + "/profile")
            third.locator("[data-testid=stFileUploaderDropzoneInput]").wait_for(state="attached", timeout=60_000)
            wait_idle(third)
            assert wait_for_cookie(third, fresh) != secret
            saved = tmp_path / "mau-binh-profile.json"  # the uploader takes .json files only
            saved.write_text(exported, encoding="utf-8")
            third.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files(str(saved))
            third.get_by_role("button", name="Yes, import this file").click()
            third.get_by_text("Imported: every page now shows the data from the file.").wait_for(timeout=30_000)
            assert open_practice(third, url) == moved
            fresh.close()
            away.close()

        assert not errors, errors
        home.close()
        browser.close()
