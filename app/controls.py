"""The settings controls several pages share: rules, players, opponents, the four-colour deck.

Each control writes its value to the session key the page names; the page's
:class:`app.page_state.PageState` keeps that key across page switches and reloads.
"""

from __future__ import annotations

import streamlit as st

from app.i18n import LANG_KEY, _, labels_now
from app.page_state import PageState
from app.terms import field_blurbs, field_label, preset_label
from solver import PRESETS
from solver.fields import FIELDS

#: Session key of the four-colour deck choice (♦ blue, ♣ green), shared by every page.
FOUR_COLOUR = "cards_four_colour"
#: Session key of the card skin the Macao page offers, shared by every page.
CARD_SKIN = "card_skin"
#: The choices that belong to the player rather than to a page: the deck's colours, the
#: card skin and the language, kept for the profile (the entry point runs it).
PREFERENCES = PageState("prefs", kept=(FOUR_COLOUR, CARD_SKIN, LANG_KEY))


def four_colour() -> bool:
    """Whether cards are drawn in four colours."""
    return bool(st.session_state.get(FOUR_COLOUR, False))


def four_colour_toggle(page: str) -> None:
    """The four-colour deck switch of one page; every page's switch shows the shared choice.

    Each page has its own widget key (Streamlit resets a widget whose key moves to another
    page), and the switch writes the shared plain key.
    """
    key = f"{page}_four_colour"
    st.session_state[key] = four_colour()

    def chosen() -> None:
        st.session_state[FOUR_COLOUR] = bool(st.session_state[key])

    st.toggle(_("Four-colour deck (♦ blue, ♣ green)"), key=key, on_change=chosen)


def rules_select(key: str, help: str | None = None) -> None:
    """The rule-preset box every page shows (its value, a preset name, in ``key``)."""
    st.selectbox(
        _("Rules"),
        list(PRESETS),
        key=key,
        format_func=labels_now(preset_label, PRESETS),
        placeholder=_("Choose an option"),
        help=help,
    )


def players_select(key: str) -> None:
    """How many players sit at the table: 2, 3 or 4 (in ``key``)."""
    st.segmented_control(_("Players"), [2, 3, 4], key=key, required=True)


def field_select(key: str) -> None:
    """Who sits at the table: the opponents the solver's answers assume (a field name in ``key``)."""
    blurbs = field_blurbs()
    st.segmented_control(
        _("Opponents"),
        list(FIELDS),
        key=key,
        required=True,
        format_func=labels_now(field_label, FIELDS),
        help="\n\n".join(
            [_("Who sits at the table: the best set depends on how the others set their hands.")]
            + [f"**{field_label(name)}**: {blurbs[name]}" for name in FIELDS]
        ),
    )
