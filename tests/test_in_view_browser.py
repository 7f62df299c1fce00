"""Real-browser tests of issue #27's contract: what a player came for is in view on a phone.

At 390×844 with touch (and at 1280×900), with Debian's Chromium driven by Playwright:

* Practice (``/practice?seed=N``) and Play (``/play?seed=N&preset=vietnamese&players=3``):
  once the hand is dealt, the top of the first ``[data-row]`` card is inside the viewport
  without the test scrolling; after "Deal a hand" on a fresh Practice page too.
* Play: the rows as first shown are a valid set (the beginner's set).
* Play: Reveal on a foul shows **Reveal anyway** and reveals nothing (no ``data-seat`` with
  ``data-chi``) until it is pressed.
* Solve: the best set is inside ``[data-best-set]``; after **Solve**, the top of its first
  card is inside the viewport.

Screenshots of each page at both widths are saved under the test's temporary directory.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from playwright import sync_api
from playwright.sync_api import ViewportSize

from solver import is_valid, parse_cards, solve
from solver.scoring import Arrangement
from solver.table import TableConfig
from tests.browser_support import DESKTOP, PHONE, assert_fits, wait_idle
from tests.test_play_browser import row_cards, screenshot, tap_to

pytestmark = pytest.mark.browser
ROWS = ("front", "middle", "back")
HAND = "As Kd Qc Jh 10s 9d 8c 7h 6s 5d 4c 3h 3s"


@pytest.fixture
def phone(browser: sync_api.Browser) -> Iterator[sync_api.Page]:
    """A touch phone, 390×844."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    yield context.new_page()
    context.close()


def top_in_view(page: sync_api.Page, selector: str) -> float:
    """The top of the first element matching ``selector``, asserted inside the viewport."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    height = page.viewport_size["height"] if page.viewport_size else 0
    assert 0 <= box["y"] < height, f"{selector} starts at y={box['y']:.0f}, outside 0..{height}"
    return float(box["y"])


def shown_rows(page: sync_api.Page) -> Arrangement:
    return Arrangement(*(row_cards(page, row) for row in ROWS))


@pytest.mark.parametrize("seed", [3, 41])
def test_practice_link_shows_the_cards_without_scrolling(phone: sync_api.Page, server: str, seed: int) -> None:
    phone.goto(f"{server}/practice?seed={seed}")
    phone.locator("[data-row] [data-card]").first.wait_for(timeout=60_000)
    wait_idle(phone)
    top_in_view(phone, "[data-row] [data-card]")


def test_practice_first_deal_brings_the_cards_into_view(phone: sync_api.Page, server: str, tmp_path: Path) -> None:
    phone.goto(f"{server}/practice")
    phone.get_by_role("button", name="Deal a hand").wait_for(timeout=60_000)
    wait_idle(phone)
    phone.get_by_role("button", name="Deal a hand").click()
    phone.locator("[data-row] [data-card]").first.wait_for(timeout=60_000)
    wait_idle(phone)
    top_in_view(phone, "[data-row] [data-card]")
    assert_fits(phone, "practice, dealt")
    phone.screenshot(path=str(tmp_path / "practice-390-first-screen.png"))
    screenshot(phone, tmp_path / "practice-390.png", 390)


@pytest.mark.parametrize("seed", [163057, 2718, 9])
def test_play_shows_a_valid_set_in_view(phone: sync_api.Page, server: str, seed: int) -> None:
    phone.goto(f"{server}/play?seed={seed}&preset=vietnamese&players=3")
    phone.locator("[data-row] [data-card]").first.wait_for(timeout=60_000)
    wait_idle(phone)
    top_in_view(phone, "[data-row] [data-card]")
    rows = shown_rows(phone)
    hand = TableConfig(seed=seed, preset="vietnamese", levels=("club", "club")).deal(1)[0]
    assert sorted(rows.cards) == sorted(hand)
    assert is_valid(rows, "vietnamese"), str(rows)


def fouled(hand: Sequence[object]) -> Arrangement:
    """A foul of this hand: the best set with its middle and back swapped (or, when they
    are equal, its front and middle cut again)."""
    best = solve(parse_cards(" ".join(map(str, hand))), "vietnamese", players=3).best
    swapped = Arrangement(best.front, best.back, best.middle)
    if not is_valid(swapped, "vietnamese"):
        return swapped
    return Arrangement(best.back[:3], [*best.front, *best.back[3:]], best.middle)


def test_play_reveal_on_a_foul_asks_first(phone: sync_api.Page, server: str, tmp_path: Path) -> None:
    seed = 2718
    phone.goto(f"{server}/play?seed={seed}&preset=vietnamese&players=3")
    phone.locator("[data-row] [data-card]").first.wait_for(timeout=60_000)
    wait_idle(phone)
    hand = TableConfig(seed=seed, preset="vietnamese", levels=("club", "club")).deal(1)[0]
    foul = fouled(hand)
    assert not is_valid(foul, "vietnamese")
    tap_to(phone, foul)
    wait_idle(phone)
    phone.get_by_role("button", name="Reveal", exact=True).click()
    anyway = phone.get_by_role("button", name="Reveal anyway")
    anyway.wait_for(timeout=30_000)
    wait_idle(phone)
    assert phone.locator("[data-seat][data-chi]").count() == 0  # nothing revealed yet
    assert phone.get_by_role("button", name="Keep arranging").count() == 1
    top_in_view(phone, "text=Reveal anyway")
    phone.screenshot(path=str(tmp_path / "play-390-foul-question.png"))
    anyway.click()
    phone.locator('[data-seat="0"][data-chi]').wait_for(timeout=60_000)
    wait_idle(phone)
    top_in_view(phone, '[data-seat="0"] [data-card]')  # the result comes into view
    revealed = Arrangement.parse(str(phone.locator('[data-seat="0"]').get_attribute("data-rows")))
    assert all(set(a) == set(b) for a, b in zip(revealed.rows, foul.rows))
    assert_fits(phone, "play, foul revealed")
    phone.screenshot(path=str(tmp_path / "play-390-revealed-first-screen.png"))
    screenshot(phone, tmp_path / "play-390-revealed.png", 390)
    # read down to the history, then deal the next hand: its cards come back into view
    phone.get_by_role("button", name="Download CSV").scroll_into_view_if_needed()
    phone.get_by_role("button", name="Deal the next hand").click()
    phone.get_by_text("Hand 2", exact=True).wait_for(timeout=60_000)
    wait_idle(phone)
    top_in_view(phone, "[data-row] [data-card]")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1280"])
def test_solve_brings_the_best_set_into_view(
    browser: sync_api.Browser, server: str, size: ViewportSize, tmp_path: Path
) -> None:
    touch = size is PHONE
    context = browser.new_context(viewport=size, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    page.goto(server)
    box = page.get_by_label("Your 13 cards")
    box.wait_for(timeout=30_000)
    wait_idle(page)
    box.fill(HAND.replace(" ", ""))  # typed without separators: read all the same
    box.press("Control+Enter")
    wait_idle(page)
    page.get_by_role("button", name="Solve", exact=True).click()
    page.locator("[data-best-set] [data-card]").first.wait_for(timeout=60_000)
    wait_idle(page)
    top_in_view(page, "[data-best-set] [data-card]")
    best = solve(parse_cards(HAND), "vietnamese", players=4).best
    shown = Arrangement.parse(str(page.locator("[data-best-set]").get_attribute("data-best-set")))
    assert all(set(a) == set(b) for a, b in zip(shown.rows, best.rows))
    assert_fits(page, f"solve at {size['width']}")
    page.screenshot(path=str(tmp_path / f"solve-{size['width']}-first-screen.png"))
    screenshot(page, tmp_path / f"solve-{size['width']}.png", size["width"])
    print(f"screenshots in {tmp_path}")
    context.close()


def test_practice_settings_stay_open_while_changed_and_fold_after_a_deal(phone: sync_api.Page, server: str) -> None:
    phone.goto(f"{server}/practice?seed=3")
    phone.locator("[data-row] [data-card]").first.wait_for(timeout=60_000)
    wait_idle(phone)
    summary = phone.get_by_text("players · opponents")
    summary.click()
    wait_idle(phone)
    phone.locator("[data-testid=stButtonGroup] button", has_text="2").first.click()
    wait_idle(phone)
    assert phone.get_by_text("Kind of hand").is_visible()  # still open: the label did not change under it
    phone.get_by_role("button", name="Deal the next hand").click()
    phone.locator("[data-row] [data-card]").first.wait_for(timeout=60_000)
    wait_idle(phone)
    assert not phone.get_by_text("Kind of hand").is_visible()  # folded: the new hand comes first
    assert phone.get_by_text("2 players").count() == 1  # the summary names the new setting
    top_in_view(phone, "[data-row] [data-card]")
