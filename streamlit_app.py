"""Mau Binh solver and trainer: the Streamlit entry point.

Run with ``streamlit run streamlit_app.py``.  Streamlit imports this file to find ``app``,
an ``st.App`` that serves the pages and the rooms' push endpoint (``app/room_events.py``),
then runs it as the page script on every rerun.  As the page script it only sets the page
up (the profile's preferences, language and navigation, the profile kept in the browser);
every page is its own file under ``app/``.
"""

from __future__ import annotations

import logging

import streamlit as st

from app.controls import PREFERENCES
from app.i18n import _, choose_language, language_picker, pgettext
from app.phone import close_sidebar_after_navigation
from app.profile import keep_in_browser
from app.room_events import routes


def main() -> None:
    PREFERENCES.begin()  # the profile's language and card choices, before the language is settled
    choose_language()
    st.set_page_config(page_title=_("Mau Binh solver"), page_icon="🃏", layout="centered")

    pages = [
        st.Page("app/pages/solve.py", title=_("Solve"), icon="🧮", default=True),
        st.Page("app/pages/practice.py", title=_("Practice"), icon="🎯"),
        st.Page("app/pages/play.py", title=pgettext("page", "Play"), icon="🃏"),
        st.Page("app/pages/compare.py", title=_("Compare"), icon="⚖️"),
        st.Page("app/pages/progress.py", title=_("Progress"), icon="📈"),
        st.Page("app/pages/rooms.py", title=_("Rooms"), icon="🚪", url_path="rooms"),
        st.Page("app/pages/rules.py", title=_("Rules"), icon="📖"),
        st.Page("app/pages/macao_round.py", title="Macao", icon="🎴", url_path="macao"),
        st.Page("app/pages/profile.py", title=_("Profile"), icon="👤", url_path="profile"),
    ]

    page = st.navigation(pages, position="top")
    language_picker(beside=keep_in_browser)
    try:
        page.run()
    except Exception as exc:  # last line of defence: never show a traceback to a player
        logging.getLogger("mau_binh.app").exception("page %s failed", page.title)
        st.error(
            _("Something went wrong on this page ({kind}). Your input is kept; please try again.").format(
                kind=type(exc).__name__
            )
        )
    PREFERENCES.end()
    close_sidebar_after_navigation()


if __name__ == "__main__":  # a run of the page script
    main()
else:  # imported by `streamlit run` (or uvicorn): the server, with the rooms' push endpoint
    app = st.App(__file__, routes=routes())
