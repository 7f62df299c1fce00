"""The card design setting: which face and back the card component draws, on every page.

The choice lives in one session key, :data:`app.cards.SKIN_KEY` (``card_skin``), as a
plain dict ``{"face": ..., "back": ...}``, so it can be saved with a profile later; the
card component reads it on every call, so every page that draws cards shows it without
passing anything.  :func:`skin_picker` is the setting's two select boxes, keyed per page
like the four-colour switch (Streamlit resets a widget whose key moves to another page)
and writing the shared key.
"""

from __future__ import annotations

import streamlit as st

from app.cards import BACKS, FACES, SKIN_KEY, current_skin
from app.i18n import _, labels_now, pgettext


def face_label(face: str) -> str:
    labels = {
        "classic": pgettext("card face", "Classic"),
        "jumbo": _("Big corners"),
        "night": _("Night"),
    }
    return labels.get(face, face)


def back_label(back: str) -> str:
    labels = {
        "green": _("Green stripes"),
        "blue": _("Blue lattice"),
        "red": _("Red dots"),
        "gold": _("Black and gold"),
    }
    return labels.get(back, back)


def skin_picker(page: str) -> None:
    """The card face and back choices of one page; every page's boxes show the shared choice."""
    skin = current_skin()
    face_key, back_key = f"{page}_card_face", f"{page}_card_back"
    st.session_state[face_key] = skin["face"]
    st.session_state[back_key] = skin["back"]

    def chosen() -> None:
        st.session_state[SKIN_KEY] = {"face": st.session_state[face_key], "back": st.session_state[back_key]}

    choose = _("Choose an option")  # Streamlit's own placeholder is English
    c1, c2 = st.columns(2)
    c1.selectbox(_("Card faces"), FACES, format_func=labels_now(face_label, FACES), key=face_key, on_change=chosen,
                 placeholder=choose)  # fmt: skip
    c2.selectbox(_("Card backs"), BACKS, format_func=labels_now(back_label, BACKS), key=back_key, on_change=chosen,
                 placeholder=choose)  # fmt: skip
