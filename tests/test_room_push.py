"""Pushed room updates: the version watch (in-process, by version check, by PostgreSQL
LISTEN) and the ``/room-events/<CODE>`` stream of a real server (who may open it, what it sends)."""

from __future__ import annotations

import http.client
import os
import queue
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from streamlit import config

from app import room_events
from app.room_push import OWN_WAIT_MS
from rooms import Rooms, Settings, notify
from rooms.notify import VersionWatch
from store import Store, get_store
from store.schema import rooms
from tests.browser_support import PHONE, wait_idle
from tests.test_rooms import mau_binh_view


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    yield s
    s.close()


def collect(watch: VersionWatch, code: str) -> tuple[queue.Queue[int], Callable[[], None]]:
    seen: queue.Queue[int] = queue.Queue()
    return seen, watch.subscribe(code, lambda version, _by: seen.put(version))


def test_an_action_in_this_process_reaches_the_watch_at_once(store: Store) -> None:
    watch = VersionWatch(store, interval=60.0)  # no version check in time: only the publish
    service = Rooms(store)
    code, host = service.create(Settings(seats=2), "Host")
    seen, stop = collect(watch, code)
    assert seen.get(timeout=1.0) == 1  # the watch's first version check; the next is a minute away
    service.join(code, "Guest")
    assert seen.get(timeout=1.0) == 2
    service.start(code, host)
    assert seen.get(timeout=1.0) == 3
    stop()
    service.rename(code, host, "Lan")
    with pytest.raises(queue.Empty):
        seen.get(timeout=0.3)
    watch.stop()


def test_a_change_from_another_process_is_found_by_the_version_check(store: Store) -> None:
    watch = VersionWatch(store, interval=0.05)
    code, _host = Rooms(store).create(Settings(seats=2), "Host")
    seen, _stop = collect(watch, code)
    assert seen.get(timeout=2.0) == 1  # the first check tells the version it found
    with store.write() as connection:  # as another process would: no publish in this one
        connection.execute(rooms.update().where(rooms.c.code == code).values(version=7))
    started = time.monotonic()
    assert seen.get(timeout=2.0) == 7
    assert time.monotonic() - started < 1.0
    watch.stop()


def test_the_watch_tells_which_seat_acted_and_none_for_a_version_check_or_a_join(store: Store) -> None:
    watch = VersionWatch(store, interval=60.0)
    service = Rooms(store)
    code, host = service.create(Settings(seats=3), "Host")
    told: queue.Queue[tuple[int, int | None]] = queue.Queue()
    watch.subscribe(code, lambda version, by: told.put((version, by)))
    assert told.get(timeout=1.0) == (1, None)  # the first version check knows no actor
    _seat, guest = service.join(code, "Guest")  # the joining page is not in the room yet
    assert told.get(timeout=1.0) == (2, None)
    service.rename(code, guest, "Minh")
    assert told.get(timeout=1.0) == (3, 1)
    service.start(code, host)
    assert told.get(timeout=1.0) == (4, 0)
    service.leave(code, guest)  # the seat is given up by the action: it is named from before
    assert told.get(timeout=1.0) == (5, 1)
    watch.stop()


def test_the_stream_marks_only_this_seat_s_own_changes() -> None:
    assert room_events.event(7, own=False) == "data: 7\n\n"
    assert room_events.event(8, own=True) == "event: own\ndata: 8\n\n"


def test_a_version_is_told_once_and_never_backwards(store: Store) -> None:
    watch = VersionWatch(store, interval=60.0)
    seen, _stop = collect(watch, "ROOMA")
    for version in (3, 3, 2, 5, 4):
        watch.saw("ROOMA", version)
    assert [seen.get_nowait() for _ in range(seen.qsize())] == [3, 5]
    watch.saw("OTHER", 9)  # nobody watches it
    assert seen.empty()


@pytest.mark.postgres
def test_on_postgresql_another_process_is_heard_by_listen() -> None:
    url = os.environ["MAU_BINH_TEST_POSTGRES_URL"]
    listening, writing = Store(url), Store(url)  # two engines: two processes as far as PostgreSQL knows
    try:
        watch = VersionWatch(listening, interval=30.0)  # a version check would come too late
        code, _host = Rooms(writing).create(Settings(seats=2), "Host")
        seen, _stop = collect(watch, code)
        time.sleep(0.5)  # the LISTEN takes hold
        while not seen.empty():
            seen.get_nowait()
        told: queue.Queue[tuple[int, int | None]] = queue.Queue()
        watch.subscribe(code, lambda version, by: told.put((version, by)))
        for version, by in ((2, None), (3, 1)):
            with writing.write() as connection:
                connection.execute(rooms.update().where(rooms.c.code == code).values(version=version))
                notify.announce(connection, code, version, by)
            assert seen.get(timeout=2.0) == version
            assert told.get(timeout=2.0) == (version, by)
        watch.stop()
    finally:
        listening.close()
        writing.close()


# --- the stream of a real server --------------------------------------------------------------


def open_stream(url: str, code: str, token: str | None) -> http.client.HTTPResponse:
    parts = urlsplit(url)
    assert parts.hostname is not None
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    headers = {} if token is None else {"Cookie": f"mau_binh_room_{code}={token}"}
    connection.request("GET", f"/room-events/{code}", headers=headers)
    return connection.getresponse()


def read_events(response: http.client.HTTPResponse, out: queue.Queue[tuple[float, str]]) -> None:
    while True:
        try:
            line = response.readline()
        except (OSError, ValueError, AttributeError):  # the test closed the stream
            return
        if not line:
            return
        out.put((time.monotonic(), line.decode().rstrip("\n")))


def test_the_stream_sends_only_versions_and_only_to_a_seat(server: str) -> None:
    service = Rooms(get_store())
    code, host = service.create(Settings(seats=2), "Host")
    _seat, guest = service.join(code, "Guest")
    _other, other_host = service.create(Settings(seats=2), "Elsewhere")
    for who, token in (("no cookie", None), ("forged", "x" * 43), ("another room's seat", other_host)):
        response = open_stream(server, code, token)
        assert response.status == 403, who
        assert response.read() == b"this browser holds no seat in this room"
    unknown = open_stream(server, "ZZZZZ-ZZZZZ", guest)
    malformed = open_stream(server, "not-a-code", guest)
    assert unknown.status == malformed.status == 403 and unknown.read() == malformed.read()

    response = open_stream(server, code, guest)
    assert response.status == 200 and response.getheader("Content-Type", "").startswith("text/event-stream")
    lines: queue.Queue[tuple[float, str]] = queue.Queue()
    threading.Thread(target=read_events, args=(response, lines), daemon=True).start()
    got: list[str] = []

    def next_version() -> tuple[float, int]:
        while True:
            at, line = lines.get(timeout=5)
            got.append(line)
            if line.startswith("data: "):
                return at, int(line.removeprefix("data: "))

    assert next_version()[1] == 2
    def host_reveals() -> None:
        view, _version = mau_binh_view(service, code, host)
        service.reveal(code, host, view.number, [list(r) for r in view.rows])

    delays = []
    for action in (lambda: service.start(code, host), host_reveals, lambda: service.rename(code, guest, "Minh")):
        before = time.monotonic()
        action()
        at, version = next_version()
        assert version == service.version(code)
        delays.append(at - before)
    assert max(delays) < 1.0, delays  # another process's write: found by the watch's version check
    room_cards = mau_binh_view(service, code, host)[0].cards
    assert all(re.fullmatch(r"(retry: \d+|event: own|data: \d+|: still here|)", line) for line in got), got
    assert not any(card in "\n".join(got) for card in room_cards)
    response.close()


def test_the_app_server_skips_streamlit_s_full_collection_after_every_run() -> None:
    """A pushed update reruns every seat's page at once; Streamlit's full garbage
    collection after each run (about 60 ms of the GIL apiece) queued them behind each other
    (.streamlit/config.toml says what it cost)."""
    assert config.get_option("runner.postScriptGC") is False
    assert config.get_where_defined("runner.postScriptGC").endswith(str(Path(".streamlit", "config.toml")))


@pytest.mark.browser
def test_a_page_reruns_once_for_its_own_action_and_another_tab_of_the_seat_still_follows(
    server: str, browser: Any
) -> None:
    """The acting page's own rerun draws what its action made: its stream calls that
    version its own, so the page does not ask for a second rerun of the same room (it did,
    for every Reveal and every Macao move).  A second tab of the same seat is told the same
    and, since no rerun of its own draws it, shows it after ``OWN_WAIT_MS``."""
    service = Rooms(get_store())
    code, host = service.create(Settings(seats=2), "Host")
    _seat, guest = service.join(code, "Guest")
    service.start(code, host)
    view, _version = mau_binh_view(service, code, guest)
    service.reveal(code, guest, view.number, [list(r) for r in view.rows])
    host_name = urlsplit(server).hostname or "127.0.0.1"
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": f"mau_binh_room_{code}", "value": host, "domain": host_name, "path": "/"}])
    acting, other_tab = context.new_page(), context.new_page()
    sent: list[bytes | str] = []
    acting.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    for page in (acting, other_tab):
        page.goto(f"{server}/rooms?room={code}")
        page.locator('[data-row="back"] [data-card]').first.wait_for(timeout=60_000)
        wait_idle(page)
    time.sleep(0.5)
    sent.clear()
    clicked = time.monotonic()
    acting.get_by_role("button", name="Reveal", exact=True).click()
    acting.locator("[data-seat][data-chi]").first.wait_for(timeout=30_000)
    wait_idle(acting)
    time.sleep(2 * OWN_WAIT_MS / 1000)  # a second rerun would have been asked for by now
    asked = [bytes(p) if isinstance(p, bytes) else p.encode() for p in sent]
    assert sum(b"rooms_reveal_" in p for p in asked) == 1
    assert not any(b'"event":"version"' in p for p in asked)  # no second rerun asked for the same room
    other_tab.locator("[data-seat][data-chi]").first.wait_for(timeout=10_000)
    assert time.monotonic() - clicked < 10
    context.close()
