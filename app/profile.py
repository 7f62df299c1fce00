"""Stand-in for the profile module of the ``pagestate`` branch (replaced when it is merged).

The session's profile lives only in ``st.session_state["profile_id"]`` here (no cookie, no
browser storage), which is what ``AppTest`` sets; the Progress page and the recording of
hands use the three functions below, whose names and behaviour the real module keeps.
"""

from __future__ import annotations

import streamlit as st

from app.i18n import _
from store import Profile, get_store

PROFILE_ID = "profile_id"
CODE_INPUT = "profile_code_input"


def current_profile() -> Profile:
    """This session's profile (created on the first call)."""
    store = get_store()
    wanted = st.session_state.get(PROFILE_ID)
    found = store.profile(wanted) if isinstance(wanted, str) else None
    if found is None:
        found = store.create_profile()
        st.session_state[PROFILE_ID] = found.id
    return found


def use_profile_code_controls() -> None:
    """The **Profile code** box and **Use this profile** button."""
    st.text_input(_("Profile code"), key=CODE_INPUT)
    if st.button(_("Use this profile"), key="profile_use"):
        found = get_store().profile_by_code(st.session_state[CODE_INPUT])
        if found is not None:
            st.session_state[PROFILE_ID] = found.id
            st.rerun()


def profile_data_controls() -> None:
    """Export, import and delete (in the real module)."""
