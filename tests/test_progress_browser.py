"""Real-browser test of the Progress contract, across a server restart and a ``kill -9``.

One browser (its cookies and storage kept throughout) submits Practice hands against a
``streamlit run`` server whose data folder (``MAU_BINH_DATA_DIR``) is the test's own.
The contract: a new browser starts a fresh profile with ``data-practice-hands="0"``;
every submission the page acknowledged (its result shown) is counted; reloading
``/practice?seed=N`` keeps the hand and the count; a restart of the server keeps
everything; a ``kill -9`` of the server during a loop of submissions loses no
acknowledged hand, and the SQLite file passes ``PRAGMA integrity_check`` afterwards
(three kills: at the click, 0.4 s and 1.2 s after it); the profile code typed in a new
browser opens the same hands.  A screenshot of the Progress page is saved under the
test's temporary directory.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright import sync_api

from tests.browser_support import DESKTOP, free_port, start_streamlit, wait_idle

pytestmark = pytest.mark.browser
SEED = 4242
DATABASE = "mau-binh.sqlite3"


class Server:
    """``streamlit run streamlit_app.py`` on a fixed port and data folder, started and stopped at will."""

    def __init__(self, data_dir: Path, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.data_dir = data_dir
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {"MAU_BINH_DATA_DIR": str(self.data_dir), "MAU_BINH_DATABASE_URL": None}
        self.proc = start_streamlit("streamlit_app.py", self.log, self.port, env, append=True)

    def stop(self) -> None:
        """A clean stop (SIGTERM), as a restart would do."""
        assert self.proc is not None
        self.proc.terminate()
        self.proc.wait(timeout=20)

    def kill(self) -> None:
        """``kill -9``: no chance to flush or close anything."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=20)


@contextmanager
def running(data_dir: Path, log: Path) -> Iterator[Server]:
    server = Server(data_dir, log)
    server.start()
    try:
        yield server
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait(timeout=20)


def progress_numbers(page: sync_api.Page, url: str) -> tuple[int, int, str]:
    """(practice hands, review queue, profile code) as the Progress page shows them."""
    page.goto(f"{url}/progress")
    summary = page.locator("[data-practice-hands]").first
    summary.wait_for(timeout=60_000)
    wait_idle(page)
    code = page.locator("[data-profile-code]").first.get_attribute("data-profile-code") or ""
    return (
        int(summary.get_attribute("data-practice-hands") or -1),
        int(summary.get_attribute("data-review-queue") or -1),
        code,
    )


def submit_hand(page: sync_api.Page) -> None:
    """Submit the hand on the screen as dealt and wait until the page shows its result."""
    page.locator('[data-row="back"] [data-card]').first.wait_for(timeout=60_000)
    wait_idle(page)
    page.get_by_role("button", name="Submit my set", exact=True).click()
    page.get_by_text("Chi lost", exact=True).first.wait_for(timeout=60_000)
    wait_idle(page)


def next_hand(page: sync_api.Page) -> None:
    page.get_by_role("button", name="Deal the next hand", exact=True).last.click()
    wait_idle(page)


def stored_hands(data_dir: Path) -> tuple[int, str]:
    """(Practice records in the SQLite file, its integrity check), read beside the server."""
    with sqlite3.connect(data_dir / DATABASE) as db:
        count = db.execute("SELECT COUNT(*) FROM practice_records").fetchone()[0]
        check = db.execute("PRAGMA integrity_check").fetchone()[0]
    return int(count), str(check)


def test_progress_survives_restart_and_kill(browser: sync_api.Browser, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    log = tmp_path / "server.log"
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    with running(data_dir, log) as server:
        hands, queue, code = progress_numbers(page, server.url)
        assert (hands, queue) == (0, 0)
        assert code

        # two hands, then a reload of the practice link: the hand stays, the count too
        page.goto(f"{server.url}/practice?seed={SEED}")
        submit_hand(page)
        next_hand(page)
        dealt = sorted(page.locator('[data-row] [data-card]').evaluate_all(
            "nodes => nodes.map(n => n.getAttribute('data-card'))"))  # fmt: skip
        page.reload()
        page.locator('[data-row="back"] [data-card]').first.wait_for(timeout=60_000)
        wait_idle(page)
        again = sorted(page.locator('[data-row] [data-card]').evaluate_all(
            "nodes => nodes.map(n => n.getAttribute('data-card'))"))  # fmt: skip
        assert again == dealt
        submit_hand(page)
        assert progress_numbers(page, server.url)[:1] == (2,)

        # a clean restart keeps the profile and its hands
        server.stop()
        server.start()
        hands, _queue, same_code = progress_numbers(page, server.url)
        assert hands == 2
        assert same_code == code

        # loops of submissions, the server killed (SIGKILL) in the middle of one: right after
        # the click, and once the server has had a moment with it
        count = acknowledged = 2
        for round_number, delay in enumerate((0.0, 0.4, 1.2), start=1):
            page.goto(f"{server.url}/practice?seed={SEED + round_number}")
            for _ in range(2):
                submit_hand(page)
                acknowledged += 1
                next_hand(page)
            page.locator('[data-row="back"] [data-card]').first.wait_for(timeout=60_000)
            wait_idle(page)
            page.get_by_role("button", name="Submit my set", exact=True).click()
            time.sleep(delay)
            server.kill()  # mid-submission: this hand may or may not have been written
            count, check = stored_hands(data_dir)
            assert check == "ok"
            assert acknowledged <= count <= acknowledged + 1, (round_number, acknowledged, count)
            acknowledged = count  # a hand written before the kill counts from now on
            server.start()
            hands, _queue, same_code = progress_numbers(page, server.url)
            assert same_code == code
            assert hands == count
        page.screenshot(path=str(tmp_path / "progress.png"), full_page=True)
    context.close()

    # a new browser (no cookies, no storage) is a new profile; the code opens the old one
    fresh = browser.new_context()
    with running(data_dir, log) as server:
        page = fresh.new_page()
        hands, queue, other = progress_numbers(page, server.url)
        assert (hands, queue) == (0, 0)
        assert other != code
        page.get_by_label("Profile code", exact=True).fill(code)
        page.get_by_role("button", name="Use this profile", exact=True).click()
        wait_idle(page)
        page.wait_for_selector(f'[data-profile-code="{code}"]', timeout=60_000)
        assert progress_numbers(page, server.url) == (count, _queue, code)
    fresh.close()
