"""The push endpoint: ``GET /room-events/<CODE>`` streams a room's version to a seated browser.

Served by the app's own server (``st.App`` with this route, see ``streamlit_app.py``) as
server-sent events: one ``data: <version>`` line when the stream opens and one each time
the room changes, and a comment every :data:`KEEPALIVE_SECONDS` so proxies keep the
connection.  A change this seat's own action made comes as an ``own`` event (``event:
own`` before its ``data:`` line): the rerun of that action is already drawing it.  That
is all it ever sends: no card, no seat, no name.  A page holding the room
(``app/room_push.py``) reruns when the version moves past the one it drew.

The request is authorised by the seat's cookie ``mau_binh_room_<CODE>`` (the token is never
in the URL): a token that holds no seat of the room, a malformed code and a room that does
not exist are all refused alike with 403, so the endpoint tells nobody which codes exist.
Versions come from :class:`rooms.notify.VersionWatch`: at once within this process, by
``LISTEN`` from other processes on PostgreSQL, and by a version check every 0.05 s on SQLite.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from app.room_seat import cookie_name
from rooms import InvalidRoomCode, RoomError, Rooms, parse_room_code
from rooms.notify import VersionWatch
from store import get_store

#: Seconds between keep-alive comments on a quiet stream.
KEEPALIVE_SECONDS = 15.0
#: How long (ms) a browser waits before opening a dropped stream again (the ``retry`` field).
RETRY_MS = 1000

def stream_path(code: str) -> str:
    """The path of room ``code``'s stream (the proxy must not buffer ``/room-events/``)."""
    return f"/room-events/{code}"


_watch_lock = threading.Lock()
_watches: dict[str, VersionWatch] = {}


def _watch() -> VersionWatch:
    store = get_store()
    with _watch_lock:
        found = _watches.get(store.url)
        if found is None:
            found = _watches[store.url] = VersionWatch(store)
        return found


def _seat_and_version(code: str, token: str | None) -> tuple[int, int] | None:
    """The seat ``token`` holds in the room and the room's version, or None if it holds none."""
    if not token:
        return None
    service = Rooms(get_store())
    try:
        return service.seat_of(code, token), service.version(code)
    except RoomError:
        return None


def event(version: int, own: bool) -> str:
    """One version on the stream; ``own`` when this seat's action made it."""
    return f"event: own\ndata: {version}\n\n" if own else f"data: {version}\n\n"


async def room_events(request: Request) -> Response:
    try:
        code = parse_room_code(request.path_params["code"])
    except InvalidRoomCode:
        code = ""
    seated = await anyio.to_thread.run_sync(_seat_and_version, code, request.cookies.get(cookie_name(code)))
    if not code or seated is None:
        return PlainTextResponse("this browser holds no seat in this room", status_code=403)
    seat, version = seated
    loop = asyncio.get_running_loop()
    news: asyncio.Queue[tuple[int, int | None]] = asyncio.Queue()

    def tell(latest: int, by: int | None) -> None:  # on the watch's thread: hand the news to this loop
        loop.call_soon_threadsafe(news.put_nowait, (latest, by))

    unsubscribe = _watch().subscribe(code, tell)

    async def stream() -> AsyncIterator[str]:
        sent = version
        try:
            yield f"retry: {RETRY_MS}\ndata: {sent}\n\n"
            while True:
                try:
                    latest = await asyncio.wait_for(news.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield ": still here\n\n"
                    continue
                while not news.empty():  # several changes at once: the latest is enough
                    latest = max(latest, news.get_nowait(), key=lambda told: told[0])
                if latest[0] > sent:
                    sent = latest[0]
                    yield event(sent, latest[1] == seat)
        finally:
            unsubscribe()

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def routes() -> list[BaseRoute]:
    return [Route(stream_path("{code}"), room_events, methods=["GET"])]
