"""Real-browser tests: `streamlit run` on a loopback port, driven by Playwright.

Playwright drives Debian's Chromium (``/usr/bin/chromium``, headless); no browser is
downloaded.  Phones are 390 pixels wide, desktops 1280.  The card component's DOM
contract is what these tests touch: ``data-card``, ``data-row``.  A practice hand is
arranged once only by dragging and once only by tapping, each into the solver's best
set, and graded "Best"; every page is checked for anything wider than a phone's screen
and photographed at both widths.  Screenshots are saved under the test's temporary
directory (printed on failure and with ``pytest -s``).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from playwright import sync_api

import solver
from solver.hands import key3, key5
from tests.browser_support import DESKTOP, PHONE, ROOT, assert_fits, page_errors, wait_idle

ROWS = ("front", "middle", "back")
HAND = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s 10c Jh"

pytestmark = pytest.mark.browser


def shoot(page: object, path: Path) -> None:
    """Screenshot the whole app at the page's width (Streamlit scrolls an inner element, so grow the viewport)."""
    size = page.viewport_size  # type: ignore[attr-defined]
    height = page.evaluate(  # type: ignore[attr-defined]
        "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain], section, div')]"
        ".map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": size["width"], "height": min(max(int(height), size["height"]), 6000)})  # type: ignore[attr-defined]
    page.evaluate("() => { for (const e of document.querySelectorAll('*')) if (e.scrollTop) e.scrollTop = 0; }")  # type: ignore[attr-defined]
    page.wait_for_timeout(1000)  # type: ignore[attr-defined]
    page.screenshot(path=str(path))  # type: ignore[attr-defined]
    page.set_viewport_size(size)  # type: ignore[attr-defined]
    print(f"screenshot: {path}")


#: Every element of the page, shadow roots included, that reaches past the screen's edge.
def test_paste_and_solve_on_a_phone(server: str, browser: object, tmp_path: Path) -> None:
    page = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    errors = page_errors(page)
    page.goto(server)
    box = page.get_by_label("Your 13 cards")
    box.wait_for(timeout=30_000)
    wait_idle(page)
    box.fill(HAND)
    box.press("Control+Enter")
    wait_idle(page)
    page.get_by_role("button", name="Solve", exact=True).click()
    page.get_by_text("Best set").wait_for(timeout=30_000)
    wait_idle(page)
    assert page.locator("[data-card]").count() >= 13 + 52  # the best set, the alternatives and the grid
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
    wait_idle(page)
    page.get_by_role("button", name="Solve", exact=True).click()
    page.locator("[data-testid=stAlertContentError]").first.wait_for(timeout=30_000)
    assert page.locator("img[src=x]").count() == 0
    assert page.locator("[data-testid=stException]").count() == 0
    shoot(page, tmp_path / "solve-error.png")
    assert not errors, errors
    page.close()


def shown_rows(page: object) -> list[list[str]]:
    """The editor's rows as the player sees them (codes in DOM order)."""
    return [
        page.locator(f"[data-row='{row}'] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")  # type: ignore[attr-defined]
        for row in ROWS
    ]


def centre(page: object, code: str) -> tuple[float, float]:
    """The middle of a card on screen (waiting out a redraw of the component)."""
    card = page.locator(f"[data-card='{code}']")  # type: ignore[attr-defined]
    for _ in range(50):
        box = card.bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.wait_for_timeout(100)  # type: ignore[attr-defined]
    raise AssertionError(f"card {code} is not on screen")


def next_swap(rows: list[list[str]], target: list[set[str]]) -> tuple[str, str] | None:
    """A card in the wrong row and a card in its target row that does not belong there
    (preferring one that belongs where the first card is, so one swap fixes both)."""
    where = {c: i for i, row in enumerate(target) for c in row}
    for i, row in enumerate(rows):
        for card in row:
            goal = where[card]
            if goal == i:
                continue
            strays = [d for d in rows[goal] if where[d] != goal]
            strays.sort(key=lambda d: where[d] != i)
            return card, strays[0]
    return None


def deal_seeded(page: object, server: str, seed: int) -> Arranged:
    page.goto(f"{server}/practice?seed={seed}&players=4&preset=vietnamese")  # type: ignore[attr-defined]
    page.locator("[data-row='back'] [data-card]").first.wait_for(timeout=30_000)  # type: ignore[attr-defined]
    wait_idle(page)
    rows = shown_rows(page)
    hand = " ".join(c for row in rows for c in row)
    best = solver.solve(hand, players=4, seed=2024).best
    return rows, [{str(c) for c in row} for row in best.rows]


Arranged = tuple[list[list[str]], list[set[str]]]


def grade_best(page: object, path: Path) -> None:
    wait_idle(page)
    page.get_by_role("button", name="Submit my set").click()  # type: ignore[attr-defined]
    page.get_by_text("Your EV", exact=True).wait_for(timeout=30_000)  # type: ignore[attr-defined]
    wait_idle(page)
    body = page.inner_text("body")  # type: ignore[attr-defined]
    assert "Best" in body and "you found the best set" in body
    shoot(page, path)


def test_practice_hand_arranged_only_by_dragging(server: str, browser: object, tmp_path: Path) -> None:
    page = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    errors = page_errors(page)
    rows, target = deal_seeded(page, server, 2024)
    shoot(page, tmp_path / "practice-dealt-390.png")
    drags = 0
    while (swap := next_swap(rows, target)) is not None:
        card, onto = swap
        start, end = centre(page, card), centre(page, onto)
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(start[0] + 8, start[1] - 8, steps=3)
        page.mouse.move(*end, steps=8)
        page.mouse.up()
        drags += 1
        after = shown_rows(page)  # the move shows at once, before any server round trip
        assert after != rows, f"dragging {card} onto {onto} changed nothing"
        rows = after
        assert drags <= 13
    assert [set(r) for r in rows] == target
    print(f"practice hand by dragging: {drags} drags + 1 submit")
    grade_best(page, tmp_path / "practice-dragged-390.png")
    assert not errors, errors
    page.close()


def test_practice_hand_arranged_only_by_tapping(server: str, browser: object, tmp_path: Path) -> None:
    page = browser.new_page(viewport=DESKTOP)  # type: ignore[attr-defined]
    errors = page_errors(page)
    rows, target = deal_seeded(page, server, 77)
    taps = 0
    # a card tapped, then a row: it moves there (the contract); back again the same way
    card = rows[0][0]
    page.locator(f"[data-card='{card}']").click()
    page.locator("[data-row='middle'] .row-head").click()
    assert card in shown_rows(page)[1] and [len(r) for r in shown_rows(page)] == [2, 6, 5]
    page.locator(f"[data-card='{card}']").click()
    page.locator("[data-row='front']").click(position={"x": 8, "y": 8})
    rows = shown_rows(page)
    assert card in rows[0]
    page.get_by_text("Undo").click()  # undo puts the card back in the middle, redo by hand
    assert card in shown_rows(page)[1]
    page.get_by_text("Reset to the deal").click()
    rows = shown_rows(page)
    assert [len(r) for r in rows] == [3, 5, 5]
    while (swap := next_swap(rows, target)) is not None:
        first, second = swap
        page.locator(f"[data-card='{first}']").click()
        page.locator(f"[data-card='{second}']").click()
        taps += 2
        rows = shown_rows(page)
        assert taps <= 26
    assert [set(r) for r in rows] == target
    print(f"practice hand by tapping: {taps} taps + 1 submit")
    shoot(page, tmp_path / "practice-tapped-1280.png")
    grade_best(page, tmp_path / "practice-graded-1280.png")
    assert not errors, errors
    page.close()


def test_a_finger_drags_a_card_too(server: str, browser: object) -> None:
    """Touch input (a phone's finger) drags like the mouse: the card must not scroll the page."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)  # type: ignore[attr-defined]
    page = context.new_page()
    rows, target = deal_seeded(page, server, 2024)
    card, onto = next_swap(rows, target)  # type: ignore[misc]
    (x0, y0), (x1, y1) = centre(page, card), centre(page, onto)
    touch = context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for step in range(1, 11):
        x, y = x0 + (x1 - x0) * step / 10, y0 + (y1 - y0) * step / 10
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        page.wait_for_timeout(20)
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(200)
    after = shown_rows(page)
    where = {c: i for i, row in enumerate(rows) for c in row}
    assert card in after[where[onto]] and onto in after[where[card]]  # swapped
    context.close()


def test_the_same_seed_deals_the_same_hand(server: str, browser: object) -> None:
    page = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    first, _ = deal_seeded(page, server, 99)
    again, _ = deal_seeded(page, server, 99)
    other, _ = deal_seeded(page, server, 100)
    assert first == again and first != other
    page.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_every_page_fits_the_screen(server: str, browser: object, tmp_path: Path, viewport: dict[str, int]) -> None:
    page = browser.new_page(viewport=viewport)  # type: ignore[attr-defined]
    errors = page_errors(page)
    width = viewport["width"]
    page.goto(f"{server}/?hand=" + HAND.replace(" ", "+"))  # type: ignore[attr-defined]
    page.get_by_text("Top alternatives").wait_for(timeout=30_000)  # type: ignore[attr-defined]
    page.get_by_text("Pick cards on a grid").click()  # type: ignore[attr-defined]
    wait_idle(page)
    # a tap on the grid takes a card out of the text box, and the box keeps the rest as typed
    page.locator("[data-card='Ah']").first.click()  # type: ignore[attr-defined]
    wait_idle(page)
    sync_api.expect(page.get_by_label("Your 13 cards")).to_have_value(re.compile(r"^Ad 7c"), timeout=10_000)
    page.locator("[data-card='Ah']").first.click()  # type: ignore[attr-defined]
    wait_idle(page)
    sync_api.expect(page.get_by_label("Your 13 cards")).to_have_value(re.compile(r" Ah$"), timeout=10_000)
    checks = {"solve": "Top alternatives"}
    if width < 500:
        assert_fits(page, "solve")
    shoot(page, tmp_path / f"solve-{width}.png")
    page.get_by_role("button", name="Compare the top three side by side").click()  # type: ignore[attr-defined]
    page.get_by_text("Side by side").wait_for(timeout=30_000)  # type: ignore[attr-defined]
    wait_idle(page)
    checks["compare"] = "Side by side"
    if width < 500:
        assert_fits(page, "compare")
    else:  # three sets side by side keep each 5-card row on one line
        for letter in "AB":
            tops = page.locator(f".st-key-compare_set_rows_{letter} [data-card]").evaluate_all(
                "els => els.map(e => Math.round(e.getBoundingClientRect().top))"
            )
            assert len(set(tops[3:8])) == 1 and len(set(tops[8:13])) == 1, tops
    shoot(page, tmp_path / f"compare-{width}.png")
    for name, url, ready in (
        ("practice", "/practice?seed=3", "[data-row='back'] [data-card]"),
        ("rules", "/rules", "h1"),
        ("macao", "/macao", "button"),
        ("play", "/play?seed=5&preset=vietnamese&players=4", "[data-row='back'] [data-card]"),
    ):
        page.goto(server + url)  # type: ignore[attr-defined]
        page.locator(ready).first.wait_for(timeout=30_000)  # type: ignore[attr-defined]
        wait_idle(page)
        if name == "macao":
            page.get_by_role("button", name="New round").click()  # type: ignore[attr-defined]
            page.locator("[data-playable]").first.wait_for(timeout=30_000)  # type: ignore[attr-defined]
            wait_idle(page)
        if name == "play":  # the settled hand: four seats' rows and the settlement table
            page.get_by_role("button", name="Reveal", exact=True).click()  # type: ignore[attr-defined]
            page.locator("[data-seat='3']").wait_for(timeout=60_000)  # type: ignore[attr-defined]
            wait_idle(page)
        if width < 500:
            assert_fits(page, name)
        shoot(page, tmp_path / f"{name}-{width}.png")
    if width < 500:  # the page list sits behind "»" on a phone, and closes after a tap
        page.locator("[data-testid=stExpandSidebarButton]").click()  # type: ignore[attr-defined]
        page.locator("[data-testid=stSidebarNavLink]", has_text="Practice").click()  # type: ignore[attr-defined]
        # the profile dealt a Practice hand above, and the page shows it again: "Deal the next hand"
        page.get_by_role("button", name=re.compile(r"^Deal (a|the next) hand$")).first.wait_for(timeout=30_000)  # type: ignore[attr-defined]
        sync_api.expect(page.locator("[data-testid=stSidebar]")).to_have_attribute(
            "data-collapsed", "true", timeout=5_000
        )
    assert not errors, errors
    page.close()


def test_row_strength_in_the_browser_matches_the_solver(browser: object) -> None:
    """The editor's live categories and foul check come from cards.js: same keys as solver.hands."""
    page = browser.new_page()  # type: ignore[attr-defined]
    js = (ROOT / "app" / "cards" / "cards.js").read_text(encoding="utf-8")
    page.add_script_tag(content=js + "\nwindow.cardsForTest = { rowKey, categoryOf };", type="module")
    page.wait_for_function("() => !!window.cardsForTest")
    rng = random.Random(10)
    deck = [str(c) for c in solver.cards.full_deck()]
    rows = [rng.sample(deck, 5) for _ in range(1500)] + [rng.sample(deck, 3) for _ in range(500)]
    rows += [["As", "2d", "3c", "4h", "5s"], ["Ah", "2h", "3h", "4h", "5h"], ["Tc", "Jc", "Qc", "Kc", "Ac"]]
    for wheel in ("second", "lowest"):
        got = page.evaluate(
            "([rows, wheel]) => rows.map(r => [window.cardsForTest.rowKey(r, wheel), "
            "window.cardsForTest.categoryOf(window.cardsForTest.rowKey(r, wheel))])",
            [rows, wheel],
        )
        for row, (key, category) in zip(rows, got):
            cards = solver.parse_cards(" ".join(row))
            expected = key3(cards) if len(cards) == 3 else key5(cards, wheel)
            assert key == expected and category == expected >> 25, (row, wheel, key, expected)
    page.close()
