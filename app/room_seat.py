"""Which seats of which rooms this browser holds: the seat tokens, kept in the session and a cookie.

A room's seat token (:mod:`rooms.codes`) is the browser's proof that a seat is its own.
It is kept in the session (``st.session_state``) and, so that a reload or a dropped
connection finds the seat again, in a cookie ``mau_binh_room_<CODE>`` (``SameSite=Strict``,
``Path=/``, ``Secure`` over HTTPS, kept as long as an idle room lives) and a
``localStorage`` copy, written by a tiny Components v2 script with inline JS.  The cookie
comes with the request that opens the app's connection, so a new session reads it from
``st.context.cookies`` on its first run.  A token is never put in a URL or shown.
"""

from __future__ import annotations

import streamlit as st

from rooms import IDLE_SECONDS

#: Session key: {room code: seat token}.
TOKENS = "rooms_tokens"

_KEEPER_JS = """
export default function ({ data }) {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  const value = encodeURIComponent(data.token);
  document.cookie = `${data.name}=${value}; Path=/; Max-Age=${data.max_age}; SameSite=Strict${secure}`;
  try { window.localStorage.setItem(data.name, data.token); } catch (e) { /* the cookie is enough */ }
}
"""

_KEEPER = st.components.v2.component("mau_binh_room_seat", js=_KEEPER_JS)


def cookie_name(code: str) -> str:
    return f"mau_binh_room_{code}"


def seat_token(code: str) -> str | None:
    """The token this browser holds for room ``code`` (session first, then the cookie)."""
    held = st.session_state.get(TOKENS, {}).get(code)
    if isinstance(held, str) and held:
        return held
    try:
        from_cookie = st.context.cookies.get(cookie_name(code))
    except Exception:  # no request (a test's bare run): no cookie
        from_cookie = None
    return from_cookie if isinstance(from_cookie, str) and from_cookie else None


def hold(code: str, token: str) -> None:
    """Keep ``token`` as this browser's seat in room ``code`` (session now; cookie on the next draw)."""
    st.session_state.setdefault(TOKENS, {})[code] = token


def keep_in_browser(code: str) -> None:
    """Write the seat's cookie (every run until the browser sends it: a new session then reads it)."""
    token = seat_token(code)
    if token is None:
        return
    try:
        sent = st.context.cookies.get(cookie_name(code))
    except Exception:
        sent = None
    if sent == token:
        return
    _KEEPER(key=f"room_seat_keeper_{code}", data={"name": cookie_name(code), "token": token, "max_age": IDLE_SECONDS})
