"""Where the pages' helpers used to live, before they were split by concern.

Card text and the card component's words are in :mod:`app.card_text`, reading typed
cards in :mod:`app.hand_input`, number formats in :mod:`app.formats`, the shared
settings controls in :mod:`app.controls`, and what a page keeps (URL parameters,
widget keys, the profile's saved state) in :mod:`app.page_state`.  This module only
re-exports those names for code written against the old module (other branches being
merged); nothing in the project imports it, and it can go once they are merged.
"""

from __future__ import annotations

from app.card_text import (
    SUIT_GLYPHS,
    canonical_hand,
    card_text,
    cards_text,
    category_names,
    dealt_layout,
    editor_labels,
    picker_labels,
    rank_text,
    sort_for_display,
)
from app.controls import FOUR_COLOUR, field_select, four_colour, four_colour_toggle, players_select, rules_select
from app.formats import chi, chi_gap, percent
from app.hand_input import LINK_MAX_CHARS, MAX_INPUT_CHARS, read_arrangement, read_hand, safe_parse_cards, too_long
from app.page_state import field_in_link, remember, restore
from solver.scoring import ROW_SIZES

__all__ = [
    "FOUR_COLOUR",
    "LINK_MAX_CHARS",
    "MAX_INPUT_CHARS",
    "ROW_SIZES",
    "SUIT_GLYPHS",
    "canonical_hand",
    "card_text",
    "cards_text",
    "category_names",
    "chi",
    "chi_gap",
    "dealt_layout",
    "editor_labels",
    "field_in_link",
    "field_select",
    "four_colour",
    "four_colour_toggle",
    "percent",
    "picker_labels",
    "players_select",
    "rank_text",
    "read_arrangement",
    "read_hand",
    "remember",
    "restore",
    "rules_select",
    "safe_parse_cards",
    "sort_for_display",
    "too_long",
]
