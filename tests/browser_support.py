"""Shared pieces of the real-browser tests: a `streamlit run` server on a free loopback
port and Debian's headless Chromium driven by Playwright (no browser download)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import ViewportSize

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The two widths every page is tried at: a phone's and a desktop's.
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def require_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")


class PortTaken(RuntimeError):
    """Another process took the port between ``free_port()`` and the server's own bind."""


def start_streamlit(
    script: str, log: Path, port: int, env: Mapping[str, str | None] | None = None, append: bool = False
) -> subprocess.Popen[bytes]:
    """Start ``streamlit run script`` on ``port`` (``env`` adds variables; None removes one)
    and return the process once it answers its health check.

    The answer counts only once the server's own log says it serves that address: a free
    port can be taken by another test process (another xdist worker, another engineer's
    run) before Streamlit binds it, and then the health check would reach that process's
    server. A server that loses the port this way raises ``PortTaken``."""
    command = [
        str(Path(sys.executable).with_name("streamlit")), "run", script,
        "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
    ]  # fmt: skip
    # unbuffered, so the log shows the address as soon as the server serves it
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    for name, value in (env or {}).items():
        if value is None:
            full_env.pop(name, None)
        else:
            full_env[name] = value
    offset = log.stat().st_size if append and log.exists() else 0
    with log.open("a" if append else "w") as out:
        proc = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=full_env)
    address = f"http://127.0.0.1:{port}"

    def own_output() -> str:
        with log.open(encoding="utf-8", errors="replace") as fh:
            fh.seek(offset)
            return fh.read()

    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{address}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok" and proc.poll() is None and address in own_output():
                    return proc
        except OSError:
            pass
        if proc.poll() is not None and f"Port {port} is not available" in own_output():
            raise PortTaken(f"port {port} was taken before streamlit could bind it")
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"streamlit did not start:\n{own_output()[-3000:]}")
        time.sleep(0.3)


@contextmanager
def streamlit_server(script: str, log: Path, port: int | None = None) -> Iterator[str]:
    """Run ``streamlit run script`` on a loopback port (a free one unless given; a restart
    on the same port is the same origin to the browser); yield its URL once healthy. A free
    port that another process takes first is replaced by another, up to five times."""
    for attempt in range(5):
        chosen = port or free_port()
        try:
            proc = start_streamlit(script, log, chosen, append=attempt > 0)
            break
        except PortTaken:
            if port is not None or attempt == 4:
                raise
    try:
        yield f"http://127.0.0.1:{chosen}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


#: True while Streamlit runs the script or still shows stale elements of the last run.
SCRIPT_BUSY = (
    "() => { const a = document.querySelector('[data-test-script-state]');"
    " return !a || a.getAttribute('data-test-script-state') !== 'notRunning'"
    " || !!document.querySelector('[data-stale=\"true\"]'); }"
)

#: Elements (shadow roots included, a folded sidebar left out) that stick out of the screen.
PAGE_TOO_WIDE = """() => {
    const width = document.documentElement.clientWidth;
    const sidebar = document.querySelector('[data-testid=stSidebar]');
    const hidden = sidebar && sidebar.getAttribute('data-collapsed') === 'true' ? sidebar : null;
    const out = [];
    const visit = (root) => {
        for (const e of root.querySelectorAll('*')) {
            if (e.shadowRoot) visit(e.shadowRoot);
            if (hidden && hidden.contains(e)) continue;
            const box = e.getBoundingClientRect();
            if (box.width === 0 || box.height === 0) continue;
            if (box.right > width + 1 || box.left < -1) {
                const name = e.tagName.toLowerCase() + '.' + String(e.className).slice(0, 40);
                out.push(`${name} ${Math.round(box.left)}..${Math.round(box.right)}`);
            }
        }
    };
    visit(document);
    return out;
}"""


def script_busy(page: Any) -> bool:
    """Whether the app is running its script (or still shows the last run's stale elements)."""
    return bool(page.evaluate(SCRIPT_BUSY))


def page_errors(page: Any) -> list[str]:
    """A list the page's uncaught script errors are added to from now on."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def wait_idle(page: Any) -> None:
    """Wait until Streamlit is idle on three polls in a row."""
    quiet = 0
    for _ in range(400):
        page.wait_for_timeout(120)
        quiet = 0 if script_busy(page) else quiet + 1
        if quiet >= 3:
            return
    raise AssertionError("streamlit kept running")


#: Choice buttons (segmented controls) that run past their own control's box: the page
#: fits the screen, but a column too narrow for the words cuts the last choice off.
CLIPPED_CHOICES = """() => {
    const out = [];
    for (const group of document.querySelectorAll('[data-testid=stButtonGroup]')) {
        const box = group.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        for (const button of group.querySelectorAll('button')) {
            const r = button.getBoundingClientRect();
            if (r.width && (r.right > box.right + 1 || button.scrollWidth > button.clientWidth + 1)) {
                out.push(button.innerText.slice(0, 30));
            }
        }
    }
    return out;
}"""


def assert_fits(page: Any, what: str) -> None:
    wide = page.evaluate(PAGE_TOO_WIDE)
    assert not wide, f"{what}: wider than the screen: {wide[:8]}"
    clipped = page.evaluate(CLIPPED_CHOICES)
    assert not clipped, f"{what}: choices cut off by their column: {clipped[:8]}"
