"""Real-browser test of the Play page: three hands at 390 px, arranged by tapping only.

Each hand is set to the fast solver's best set by tapping a card and then the card of
another row it swaps with (the card component's tap path), then revealed with the
"Reveal" button.  The revealed seats must carry the contract (``data-seat``,
``data-rows``, ``data-chi``), and the chi shown must be ``score_table``'s for the rows
shown.  Screenshots at 390 and 1280 px are saved under the test's temporary directory.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright import sync_api

from solver import score_table, solve
from solver.scoring import Arrangement
from solver.table import TableConfig
from tests.browser_support import PHONE, assert_fits, wait_idle

pytestmark = pytest.mark.browser
SEED = 2718
LEVELS = ("beginner", "expert")
ROWS = ("front", "middle", "back")


def row_cards(page: sync_api.Page, row: str) -> list[str]:
    return [str(c) for c in page.locator(f'[data-row="{row}"] [data-card]').evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('data-card'))"
    )]  # fmt: skip


def screenshot(page: sync_api.Page, path: Path, width: int) -> None:
    """The whole page: the app scrolls inside its own pane, so grow the window instead."""
    height = int(page.evaluate("document.querySelector('[data-testid=\"stMain\"]')?.scrollHeight || 900"))
    page.set_viewport_size({"width": width, "height": max(height + 100, 844)})
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))
    page.set_viewport_size({"width": width, "height": 844})


def tap_to(page: sync_api.Page, target: Arrangement) -> int:
    """Tap cards until every row holds its cards of ``target``; returns the taps made."""
    taps = 0
    want = [[str(c) for c in row] for row in target.rows]
    for r, row in enumerate(ROWS):
        for card in want[r]:
            current = row_cards(page, row)
            if card in current:
                continue
            # swap it with a card of this row that belongs elsewhere
            out = next(c for c in current if c not in want[r])
            page.locator(f'[data-card="{card}"]').first.click()
            page.locator(f'[data-row="{row}"] [data-card="{out}"]').click()
            taps += 2
            for _ in range(100):  # the move shows in the browser before any server round trip
                if card in row_cards(page, row):
                    break
                page.wait_for_timeout(100)
    for r, row in enumerate(ROWS):
        assert sorted(row_cards(page, row)) == sorted(want[r])
    return taps


def test_three_hands_by_tapping_at_390_px(server: str, browser: sync_api.Browser, tmp_path: Path) -> None:
    table = TableConfig(seed=SEED, preset="vietnamese", levels=LEVELS)
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server}/play?seed={SEED}&preset=vietnamese&players=3&levels={','.join(LEVELS)}")
    for number in (1, 2, 3):
        page.locator('[data-row="back"] [data-card]').first.wait_for(timeout=60_000)
        wait_idle(page)
        hand = table.deal(number)[0]
        shown = sorted(c for row in ROWS for c in row_cards(page, row))
        assert shown == sorted(str(c) for c in hand)
        best = solve(hand, table.rules, players=3).best
        tap_to(page, best)
        wait_idle(page)
        page.get_by_role("button", name="Reveal", exact=True).click()
        seat = page.locator('[data-seat="0"]')
        seat.wait_for(timeout=60_000)
        wait_idle(page)
        screenshot(page, tmp_path / f"play-390-hand{number}.png", 390)
        sets, chis = [], []
        for s in range(3):
            element = page.locator(f'[data-seat="{s}"]')
            sets.append(Arrangement.parse(str(element.get_attribute("data-rows"))))
            chis.append(int(str(element.get_attribute("data-chi"))))
        assert all(set(a) == set(b) for a, b in zip(sets[0].rows, best.rows)), (str(sets[0]), str(best), number)
        assert sets[1:] == [Arrangement.parse(str(a)) for a in table.computer_sets(table.deal(number), number)]
        assert chis == score_table(sets, table.rules).totals
        assert sum(chis) == 0
        assert page.get_by_role("link", name="Open on Solve").count() == 1
        if number == 1:  # the review's Practice link deals this very hand there
            href = str(page.get_by_role("link", name="Open on Practice").get_attribute("href"))
            practice = browser.new_page(viewport=PHONE)
            practice.goto(f"{server}/{href.lstrip('./')}")
            practice.locator('[data-row="back"] [data-card]').first.wait_for(timeout=60_000)
            assert sorted(c for row in ROWS for c in row_cards(practice, row)) == sorted(str(c) for c in hand)
            practice.close()
        assert_fits(page, f"play, hand {number} revealed")
        page.get_by_role("button", name="Deal the next hand").click()
    page.locator('[data-row="back"] [data-card]').first.wait_for(timeout=60_000)
    assert page.get_by_text("Hand 4", exact=True).count() == 1
    wait_idle(page)
    assert page.get_by_text("History (3 hands)").count() == 1
    assert page.locator("[data-card]").count() >= 13 + 3 * 13  # the hand, and each past hand drawn as cards
    assert_fits(page, "play, next hand dealt, history shown")
    screenshot(page, tmp_path / "play-390-hand4.png", 390)
    screenshot(page, tmp_path / "play-1280.png", 1280)
    print(f"screenshots in {tmp_path}")
    page.close()


@pytest.mark.slow
def test_timer_runs_out_and_plays_the_set_as_it_stands(server: str, browser: sync_api.Browser, tmp_path: Path) -> None:
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server}/play?seed=99&preset=plain&players=2&levels=club")
    page.locator('[data-row="back"] [data-card]').first.wait_for(timeout=60_000)
    wait_idle(page)
    page.get_by_text("· change").click()  # the folded settings: their one-line summary
    page.locator('[data-testid="stButtonGroup"] button', has_text="60 s").click()
    wait_idle(page)
    page.get_by_role("button", name="Start a new session").click()
    page.get_by_text("s left").first.wait_for(timeout=30_000)
    # one swap by tapping, then let the clock run out
    front, back = row_cards(page, "front"), row_cards(page, "back")
    page.locator(f'[data-row="front"] [data-card="{front[0]}"]').click()
    page.locator(f'[data-row="back"] [data-card="{back[0]}"]').click()
    page.wait_for_timeout(1500)
    played = [row_cards(page, row) for row in ROWS]
    page.locator('[data-seat="0"]').wait_for(timeout=90_000)
    wait_idle(page)
    screenshot(page, tmp_path / "play-390-timer.png", 390)
    shown = Arrangement.parse(str(page.locator('[data-seat="0"]').get_attribute("data-rows")))
    assert [sorted(str(c) for c in row) for row in shown.rows] == [sorted(r) for r in played]
    assert page.get_by_text("time ran out").count() == 1
    page.close()
