"""Mau Binh solver and trainer: the Streamlit entry point.

Run with ``streamlit run streamlit_app.py``.  This file only sets the page up and
declares the navigation; every page is its own file under ``app/``.
"""

from __future__ import annotations

import logging

import streamlit as st

from app.phone import close_sidebar_after_navigation

st.set_page_config(page_title="Mau Binh solver", page_icon="🃏", layout="centered")

pages = [
    st.Page("app/solve.py", title="Solve", icon="🧮", default=True),
    st.Page("app/practice.py", title="Practice", icon="🎯"),
    st.Page("app/play.py", title="Play", icon="🃏"),
    st.Page("app/compare.py", title="Compare", icon="⚖️"),
    st.Page("app/rules.py", title="Rules", icon="📖"),
    st.Page("app/macao.py", title="Macao", icon="🎴"),
]

page = st.navigation(pages, position="top")
try:
    page.run()
except Exception as exc:  # last line of defence: never show a traceback to a player
    logging.getLogger("mau_binh.app").exception("page %s failed", page.title)
    st.error(f"Something went wrong on this page ({type(exc).__name__}). Your input is kept; please try again.")
close_sidebar_after_navigation()
