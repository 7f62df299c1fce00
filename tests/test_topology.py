"""The hosted topology without Docker: nginx (deploy/nginx.conf) in front of 3 app processes
on one PostgreSQL, started by deploy/local-topology.sh, checked from outside.

Through nginx: the health check and the page answer; a seat's push stream opens with the
seat cookie, is refused without it, and carries a room's new version within a second
whichever process the action ran on; the load benchmark's 52 players in 13 rooms finish
with no error and nothing lost.  Needs nginx and the PostgreSQL server binaries, so it is
``slow`` (run by hand: ``python -m pytest -m slow tests/test_topology.py``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow

CHECK = r"""
import http.client, os, sys, threading, time, urllib.request
from urllib.parse import urlsplit
from rooms import Rooms, Settings
from store import Store

proxy = os.environ["MAU_BINH_PROXY_URL"]
assert urllib.request.urlopen(proxy + "/_stcore/health", timeout=10).read() == b"ok"
assert b"<html" in urllib.request.urlopen(proxy + "/rooms", timeout=10).read().lower()
service = Rooms(Store(os.environ["MAU_BINH_DATABASE_URL"]))
code, host = service.create(Settings(seats=2), "Host")
_seat, guest = service.join(code, "Guest")
parts = urlsplit(proxy)

def stream(token):
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=20)
    cookie = {"Cookie": f"mau_binh_room_{code}={token}"} if token else {}
    connection.request("GET", f"/room-events/{code}", headers=cookie)
    return connection.getresponse()

assert stream(None).status == 403
response = stream(guest)
assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
versions = []
def read():
    while True:
        line = response.readline()
        if not line:
            return
        if line.startswith(b"data: "):
            versions.append((time.monotonic(), int(line[6:])))
threading.Thread(target=read, daemon=True).start()
deadline = time.monotonic() + 10
while not versions and time.monotonic() < deadline:
    time.sleep(0.05)
assert versions and versions[0][1] == 2, versions
started = time.monotonic()
service.start(code, host)
while len(versions) < 2 and time.monotonic() < started + 5:
    time.sleep(0.02)
assert len(versions) >= 2 and versions[1][1] == 3, versions
assert versions[1][0] - started < 1.0, versions[1][0] - started
print("topology ok; push through nginx in", round(1000 * (versions[1][0] - started)), "ms")
"""


def test_nginx_three_processes_and_postgresql_serve_rooms_with_push(tmp_path: Path) -> None:
    missing = [tool for tool in ("nginx",) if shutil.which(tool) is None]
    pg = Path("/usr/lib/postgresql/15/bin/initdb")
    if missing or not pg.exists():
        pytest.fail(f"this check needs nginx and PostgreSQL 15's server: missing {missing or [str(pg)]}")
    python = str(ROOT / ".venv" / "bin" / "python")
    check = tmp_path / "check.py"
    check.write_text(CHECK)
    command = (
        f"{python} {check} && {python} -m benchmarks.rooms_load --rooms 13 --hands 3 --processes 2 "
        '--url "$MAU_BINH_DATABASE_URL" --push "$MAU_BINH_PROXY_URL"'
    )
    done = subprocess.run(["bash", "deploy/local-topology.sh", "--", "sh", "-c", command], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "topology ok" in done.stdout
    assert "errors 0; rooms with a hand lost or unseen 0" in done.stdout
