"""Several people on the Solve page at once, in real Chromium (issue 9, defect 1).

Each session types its own hand, leaves the box and presses Solve, all sessions in step, so
the Solve click reaches a server still busy with every session's reruns.  Every session must end with its
own hand in the box, its own hand in the address bar and the best set of its own cards
on screen.  Under this load the Solve click used to carry the card picker's stale state,
and the picker's callback overwrote the box before Solve read it: sessions solved their
previous hand, or an empty box.
"""

from __future__ import annotations

import random
import time
import urllib.parse
from pathlib import Path

import pytest
from playwright import sync_api

from solver import parse_cards
from solver.cards import full_deck
from tests.browser_support import DESKTOP, script_busy, wait_idle

pytestmark = pytest.mark.browser

SESSIONS = 6
ROUNDS = 3


def hands(seed: int) -> list[list[str]]:
    """ROUNDS hands for each of SESSIONS sessions, all different, reproducible."""
    rng = random.Random(seed)
    out = []
    for _ in range(SESSIONS):
        rounds = []
        for _ in range(ROUNDS):
            deck = full_deck()
            rng.shuffle(deck)
            rounds.append(" ".join(str(c) for c in deck[:13]))
        out.append(rounds)
    return out


def until_all_settled(
    pages: list[sync_api.Page], plan: list[str], clicked: list[float], timeout: float = 60.0
) -> list[float | None]:
    """Seconds from each page's Solve click until it shows its own hand's result and is idle
    (two checks in a row); None for a page that never did within the timeout.

    Streamlit shows its running icon only a moment after a click reaches a busy server, so
    "idle" alone can be read before the click's rerun has begun: a page counts as settled
    once its own result is on screen, and a page whose click was lost never settles.
    """
    calm = [0] * len(pages)
    done: list[float | None] = [None] * len(pages)
    deadline = time.monotonic() + timeout
    while None in done and time.monotonic() < deadline:
        for i, page in enumerate(pages):
            if done[i] is None:
                calm[i] = calm[i] + 1 if not script_busy(page) and shows_own_result(page, plan[i]) else 0
                if calm[i] == 2:
                    done[i] = time.monotonic() - clicked[i]
        pages[0].wait_for_timeout(250)
    return done


def shown_state(page: sync_api.Page) -> tuple[str, str, list[str], str]:
    """(text in the box, hand in the address bar, cards of the best set, error shown)."""
    box = page.get_by_label("Your 13 cards").input_value()
    query = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
    cards = page.locator(".st-key-solve_best_rows [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    errors = " ".join(e.inner_text() for e in page.locator("[data-testid=stAlertContentError]").all())
    return box, query.get("hand", [""])[0], cards, errors


def same_cards(a: str | list[str], b: str) -> bool:
    return sorted(parse_cards(a)) == sorted(parse_cards(b))


def shows_own_result(page: sync_api.Page, mine: str) -> bool:
    """The box, the address bar and the best set all hold this session's hand; no error."""
    box, linked, cards, errors = shown_state(page)
    return (
        same_cards(box, mine)
        and bool(linked)
        and same_cards(linked, mine)
        and len(cards) == 13
        and same_cards(" ".join(cards), mine)
        and not errors
    )


def test_concurrent_sessions_each_solve_their_own_hand(server: str, browser: sync_api.Browser, tmp_path: Path) -> None:
    plan = hands(2026)
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(SESSIONS)]
    pages = [c.new_page() for c in contexts]
    try:
        for page in pages:
            page.goto(server)
        for page in pages:
            page.get_by_label("Your 13 cards").wait_for(timeout=60_000)
            page.get_by_text("Pick cards on a grid").click()  # the picker on screen, as people use it
            wait_idle(page)
        wrong: list[str] = []
        latencies: list[float] = []
        started = time.monotonic()
        for round_ in range(ROUNDS):
            # every session types its hand, leaves the box (which sends it to the server)
            # and presses Solve while the server is still busy with everyone's reruns
            for page, mine in zip(pages, plan):
                box = page.get_by_label("Your 13 cards")
                box.fill(mine[round_])
                box.press("Tab")
            clicked = []
            for page in pages:
                page.get_by_role("button", name="Solve", exact=True).click()
                clicked.append(time.monotonic())
            settled = until_all_settled(pages, [mine[round_] for mine in plan], clicked)
            for number, (page, took) in enumerate(zip(pages, settled)):
                if took is not None:
                    latencies.append(took)
                    continue
                typed, linked, cards, errors = shown_state(page)
                page.screenshot(path=str(tmp_path / f"session{number}-round{round_}.png"))
                wrong.append(
                    f"session {number} round {round_}: box {typed!r}, link {linked!r}, "
                    f"best set {cards}, error {errors!r}"
                )
        elapsed = time.monotonic() - started
        latencies.sort()
        latencies = latencies or [float("nan")]
        p50, p95 = latencies[len(latencies) // 2], latencies[int(0.95 * (len(latencies) - 1))]
        print(
            f"{SESSIONS} sessions x {ROUNDS} rounds: {len(wrong)} wrong, {elapsed:.1f} s; "
            f"Solve click to own result p50 {p50:.2f} s, p95 {p95:.2f} s (poll step 0.25 s)"
        )
        assert not wrong, "\n".join(wrong)
    finally:
        for c in contexts:
            c.close()
