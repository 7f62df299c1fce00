"""Settings that fold into a one-line summary once chosen, with the summary as the way back in.

A page puts its settings in an ``st.expander`` whose label is the summary ("Vietnamese
rules · 4 players · ... · change") and whose open state lives under a key.  Streamlit
treats an expander with another label as another element (closed again), so the label
must not change while the player is inside changing things: :func:`summary_label` keeps
the summary of the moment the expander was last closed, and takes the new one when it is
closed again.
"""

from __future__ import annotations

import streamlit as st


def summary_label(open_key: str, summary: str) -> str:
    """The expander's label: ``summary`` while it is closed, the last closed one while open."""
    kept = f"{open_key}__label"
    if not st.session_state.get(open_key) or kept not in st.session_state:
        st.session_state[kept] = summary
    return str(st.session_state[kept])
