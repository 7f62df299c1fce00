"""The page's end of the push: a Components v2 element that listens to the room's stream.

:func:`follow` mounts an invisible element (inline JS, no iframe) that opens an
``EventSource`` on ``/room-events/<CODE>`` (``app/room_events.py``; the browser sends the
seat's cookie, never a token in the URL) and keeps it open across reruns.  When the
stream says the room is at a version past the one this page drew, the element sends a
trigger and the page reruns at once; it sends each version once, so a rerun that is still
on its way is not asked for again.  Whether the stream is open is the element's state
``live``: while it is, the page polls the room only every :data:`LIVE_POLL_SECONDS`; when
it drops (a proxy that cuts streams, a server restart) the page polls every second again
until the browser has reconnected.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.room_events import stream_path

#: Seconds between the page's own polls while the push stream is open (presence, timers).
LIVE_POLL_SECONDS = 5.0

_FOLLOW_JS = """
const FEEDS = (window.__mauBinhRoomFeeds = window.__mauBinhRoomFeeds || {});

function open(feed) {
  const source = new EventSource(feed.url, { withCredentials: true });
  feed.source = source;
  source.onopen = () => { feed.live = true; feed.setState("live", true); };
  source.onerror = () => {
    if (feed.live) { feed.live = false; feed.setState("live", false); }
  };
  source.onmessage = (event) => {
    const version = parseInt(event.data, 10);
    if (!(version > feed.latest)) return;
    feed.latest = version;
    feed.heardAt = Date.now();  // when the news came (benchmarks/rooms_push.py reads it)
    ask(feed);
  };
}

function ask(feed) {
  if (feed.latest > feed.drawn && feed.latest > feed.asked) {
    feed.asked = feed.latest;
    feed.trigger("version", feed.latest);
  }
}

export default function ({ data, setTriggerValue, setStateValue }) {
  for (const code of Object.keys(FEEDS)) {  // one room at a time: close a room left behind
    if (code !== data.code) { FEEDS[code].source.close(); delete FEEDS[code]; }
  }
  let feed = FEEDS[data.code];
  if (!feed) {
    feed = FEEDS[data.code] = { url: data.url, latest: 0, drawn: 0, asked: 0, live: false };
    feed.trigger = setTriggerValue; feed.setState = setStateValue;
    open(feed);
  }
  feed.trigger = setTriggerValue; feed.setState = setStateValue;
  feed.drawn = Math.max(feed.drawn, data.version);
  ask(feed);
  return () => {
    const left = FEEDS[data.code];
    if (left === feed) { feed.source.close(); delete FEEDS[data.code]; }
  };
}
"""

_FOLLOW = st.components.v2.component("mau_binh_room_push", js=_FOLLOW_JS)


def follow(code: str, version: int) -> bool:
    """Listen to room ``code``'s stream (this page drew ``version``); returns whether the
    stream is open, so the page knows how often it still has to poll."""
    result: Any = _FOLLOW(
        key=f"room_push_{code}",
        data={"code": code, "url": stream_path(code), "version": version},
        height=0,
        on_version_change=lambda: None,
        on_live_change=lambda: None,
    )
    return bool(getattr(result, "live", False))
