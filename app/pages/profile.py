"""Profile page: this browser's anonymous profile, its code, and the player's data.

Shows the profile code (typed on another device to open the same profile), the
**Profile code** input with **Use this profile**, and export / import / delete of the
data (see :mod:`app.profile`).  The profile's id is never shown.
"""

from __future__ import annotations

import streamlit as st

from app.i18n import _
from app.profile import current_profile, profile_data_controls, store_down_message, use_profile_code_controls

st.title(_("Your profile"))
st.caption(
    _(
        "No sign-up: this browser keeps your profile, so a reload or a visit next week finds your hands, "
        "sessions and rounds as you left them."
    )
)

down = store_down_message()
if down:
    st.error(down)
    st.stop()

st.subheader(_("Your profile code"))
st.code(current_profile().code, language=None)
st.caption(
    _(
        "Type this code on another device to open the same profile there. Keep it to yourself: "
        "whoever has it can open your data."
    )
)

st.subheader(_("Open a profile from another device"))
use_profile_code_controls()

st.subheader(_("Your data"))
profile_data_controls()
