"""The page's live end of a room: a Components v2 element that follows the room's stream and keeps time.

:func:`follow` mounts an element (inline JS, no iframe) that opens an ``EventSource`` on
``/room-events/<CODE>`` (``app/room_events.py``; the browser sends the seat's cookie, never
a token in the URL) and keeps it open across reruns.  When the stream says the room is at
a version past the one this page drew, the element sends a trigger and the room reruns at
once; it sends each version once, so a rerun that is still on its way is not asked for
again.  A version the stream calls this seat's own (its action made it) is not asked for:
the rerun of that action is drawing it, and asking again would draw the same room twice.
Only if no rerun has drawn it after :data:`OWN_WAIT_MS` (the action came from another tab
of the same seat) does the element ask.

The element is also the room's clock, so that the room is the page's only fragment: it asks
for a rerun (trigger ``poll``) every second while the stream is down, every
:data:`LIVE_POLL_MS` while it is open (each rerun says the page is open and lets the
room move on: a timer run out, a seat gone quiet), and once just after the hand's or
turn's deadline; it shows the seconds left of that deadline.  A rerun drawn for any reason
restarts the count.  (Until issue 42 a timed fragment inside the room polled instead; a
timed fragment running just as the room's fragment ends can keep the room's old elements
on screen, streamlit#16708: here the last settlement shown as the hand in play beside the
next hand's cards.)
"""

from __future__ import annotations

import streamlit as st

from app.room_events import stream_path

#: Milliseconds between the page's own reruns while the push stream is open (presence, timers).
LIVE_POLL_MS = 5000
#: Milliseconds between them while it is down.
DOWN_POLL_MS = 1000
#: Milliseconds after a deadline before the page asks the room to act on it.
DEADLINE_GRACE_MS = 250
#: Milliseconds the page waits for its own action's rerun to draw the version that action
#: made before asking for a rerun itself.  [measured, issue 41: asking at once reran the
#: acting page twice for each of its moves, benchmarks/rooms_push.py]
OWN_WAIT_MS = 1500

_FOLLOW_JS = """
const FEEDS = (window.__mauBinhRoomFeeds = window.__mauBinhRoomFeeds || {});

function open(feed) {
  const source = new EventSource(feed.url, { withCredentials: true });
  feed.source = source;
  source.onopen = () => { feed.live = true; };
  source.onerror = () => { feed.live = false; };
  const heard = (own) => (event) => {
    const version = parseInt(event.data, 10);
    if (!(version > feed.latest)) return;
    feed.latest = version;
    feed.heardAt = Date.now();  // when the news came (benchmarks/rooms_push.py reads it)
    if (own) { feed.own = version; feed.ownAt = feed.heardAt; }
    ask(feed);
  };
  source.onmessage = heard(false);
  source.addEventListener("own", heard(true));
  feed.clock = setInterval(() => tick(feed), 200);
}

function ask(feed) {
  if (feed.latest > feed.drawn && feed.latest > feed.asked) {
    if (feed.latest === feed.own && Date.now() - feed.ownAt < feed.data.own_wait_ms) return;  // drawing it
    feed.asked = feed.latest;
    feed.trigger("version", feed.latest);
  }
}

function tick(feed) {
  const now = Date.now(), d = feed.data;
  ask(feed);  // an own version no rerun drew in time
  if (feed.shown && d.deadline !== null) {
    const left = Math.max(0, Math.round((d.deadline - now) / 1000));
    feed.shown.textContent = d.countdown.replace("{seconds}", String(left));
  }
  if (feed.asked > feed.drawn) return;  // a rerun is on its way
  const every = (feed.live ? d.live_poll_ms : d.down_poll_ms);
  const due = d.deadline !== null && now >= d.deadline + d.grace_ms && feed.dueAsked !== d.deadline;
  if (due || now - Math.max(feed.drawnAt, feed.polledAt) >= every) {
    if (due) feed.dueAsked = d.deadline;
    feed.polledAt = now;
    feed.trigger("poll", now);
  }
}

export default function ({ data, parentElement, setTriggerValue }) {
  for (const code of Object.keys(FEEDS)) {  // one room at a time: close a room left behind
    if (code !== data.code) { close(FEEDS[code]); delete FEEDS[code]; }
  }
  let feed = FEEDS[data.code];
  if (!feed) {
    feed = FEEDS[data.code] = { url: data.url, latest: 0, drawn: 0, asked: 0, own: 0, ownAt: 0, live: false,
                                polledAt: 0 };
    open(feed);
  }
  feed.trigger = setTriggerValue;
  feed.data = data;
  feed.drawn = Math.max(feed.drawn, data.version);
  feed.drawnAt = Date.now();
  let shown = parentElement.querySelector(".room-countdown");
  if (!shown) {
    shown = document.createElement("div");
    shown.className = "room-countdown";
    parentElement.append(shown);
  }
  shown.hidden = data.deadline === null;
  if (data.deadline === null) shown.textContent = "";
  feed.shown = shown;
  tick(feed);
  ask(feed);
  return () => {
    const left = FEEDS[data.code];
    if (left === feed) { close(feed); delete FEEDS[data.code]; }
  };
}

function close(feed) {
  feed.source.close();
  clearInterval(feed.clock);
}
"""

_FOLLOW_CSS = ".room-countdown { font-size: .875rem; opacity: .75; }"

_FOLLOW = st.components.v2.component("mau_binh_room_push", js=_FOLLOW_JS, css=_FOLLOW_CSS)


def follow(code: str, version: int, deadline_ms: int | None, countdown: str) -> None:
    """Listen to room ``code``'s stream and keep its time (this page drew ``version``; the
    hand's or turn's deadline ``deadline_ms`` is shown with ``countdown``, whose
    ``{seconds}`` the element fills in)."""
    _FOLLOW(
        key=f"room_push_{code}",
        data={
            "code": code,
            "url": stream_path(code),
            "version": version,
            "deadline": deadline_ms,
            "countdown": countdown,
            "live_poll_ms": LIVE_POLL_MS,
            "down_poll_ms": DOWN_POLL_MS,
            "grace_ms": DEADLINE_GRACE_MS,
            "own_wait_ms": OWN_WAIT_MS,
        },
        on_version_change=lambda: None,
        on_poll_change=lambda: None,
    )
