"""Rules page: how Mau Binh is played and scored, the presets, and the hand names; then Macao's rules."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import streamlit as st

from app.cards import CardRow, card_rows
from app.controls import four_colour
from app.i18n import _
from app.macao_rules import macao_section
from app.terms import (
    SPECIAL_NAMES,
    category_names,
    preset_blurbs,
    preset_label,
    row_names,
    special_meanings,
    special_names,
)
from solver import PRESETS, Rules, parse_cards
from solver.hands import CATEGORY_NAMES, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, TRIPS, category_of, key5

#: One five-card row of each category, strongest first (the examples under "Hand names").
EXAMPLES = (
    "9h 8h 7h 6h 5h",
    "Qs Qh Qd Qc 4s",
    "Ts Th Td 3c 3d",
    "Ks Js 8s 6s 2s",
    "8c 7d 6h 5s 4c",
    "7s 7h 7d Kc 2h",
    "Js Jd 4h 4c As",
    "9s 9c Ad Kh 5c",
    "Ah Qd 9c 6s 3h",
)


def option_text() -> dict[str, str]:
    """How each Rules option reads to a player; options missing here are shown by name."""
    return {
        "wheel": _("Where A-2-3-4-5 ranks"),
        "strict": _("Equal rows count as a foul"),
        "ties": _("A tied row goes to"),
        "bonuses": _("Row bonuses (trips in front, full house / quads / straight flush)"),
        "sweep_mult": _("Scoop (sập): winning all 3 rows multiplies by"),
        "sweep_bonus": _("Scoop: extra chi"),
        "majority_bonus": _("Extra chi for winning 2 or 3 rows"),
        "sap_lang": _("Sập làng: scooping every opponent doubles again"),
        "sap_lang_min_players": _("Sập làng needs at least this many players"),
        "sap_lang_mult": _("Sập làng multiplier"),
        "foul_mode": _("How a fouled hand pays"),
        "foul_chi": _("A fouled hand pays each opponent (chi)"),
        "foul_sap_lang": _("A fouled opponent counts as scooped for sập làng"),
        "specials": _("Special hands (tới trắng) win automatically"),
        "special_values": _("Special hand values"),
        "six_pairs_rule": _("Six pairs"),
        "special_detection": _("Special hands are found"),
        "special_vs_special": _("Special against special"),
        "ace_low_runs": _("A-2-3 / A-2-3-4-5 count in three straights"),
        "aces": _("Ace counting (tính Át): 1 chi per ace from each opponent"),
        "aces_all_pairs": _("Aces also count against specials and fouls"),
    }


def value_text() -> dict[object, str]:
    """How each option value reads to a player."""
    return {
        "second": _("second-highest straight"),
        "lowest": _("lowest straight"),
        "zero": _("nobody (0)"),
        "owner": _("the table owner"),
        "replace": _("on (replace the 1 chi)"),
        "add": _("on (added to the 1 chi)"),
        "none": _("off"),
        "doubled": _("doubled family"),
        "aces_extra": _("on, with ace extras"),
        "flat": _("a flat amount"),
        "opponent_x2": _("opponent's chi × 2"),
        "opponent_x1": _("opponent's chi × 1"),
        "generous": _("pairs in trips/quads count"),
        "strict": _("exactly 6 pairs + 1"),
        "auto": _("automatically from the 13 cards"),
        "layout": _("only when laid out"),
        "higher": _("higher one wins its value"),
        "tie": _("always a tie"),
        "difference": _("pays the difference"),
        True: _("yes"),
        False: _("no"),
    }


def describe(name: str, value: object, values: dict[object, str]) -> str:
    if name == "special_values":
        names = special_names()
        return ", ".join(f"{names.get(n, n)} {v}" for n, v in value)  # type: ignore[attr-defined]
    if isinstance(value, (bool, str)) and value in values:
        return values[value]
    return str(value)


def preset_table(show_all: bool) -> list[dict[str, str]]:
    names = list(PRESETS)
    options, values = option_text(), value_text()
    rows = []
    for field in dataclasses.fields(Rules):
        if not field.compare:  # an input alias (six_pairs), always folded into its option
            continue
        settings = [getattr(PRESETS[p], field.name) for p in names]
        if not show_all and all(v == settings[0] for v in settings):
            continue
        row = {_("Option"): options.get(field.name, field.name)}
        row.update({preset_label(p): describe(field.name, v, values) for p, v in zip(names, settings)})
        rows.append(row)
    return rows


def names_table(names: Iterable[tuple[str, str, str]]) -> None:
    """One name per language for each hand (the names themselves are not translated)."""
    st.table(
        [{_("English"): e, _("Vietnamese"): v, _("Khmer"): k} for e, v, k in names],
        hide_index=True,
    )


def bullets(*items: str) -> str:
    return "\n".join(f"* {item}" for item in items)


st.title(_("Rules of Mau Binh"))
st.caption(_("Mậu Binh · Binh xập xám · ម៉ូវបិញ — 13-card Chinese poker as played in Vietnam and Cambodia."))
st.caption(_("The rules of Macao, the other card game of this app, are at the end of this page."))

st.header(_("How a hand is played"))
st.markdown(
    bullets(
        _(
            "**Deal.** One 52-card deck, no jokers, 2 to 4 players, 13 cards each. "
            "Ranks run 2 < 3 < … < K < A; **suits never rank and never break ties**."
        ),
        _(
            "**Set your hand** into three rows (*chi*): the **front** (3 cards), the **middle** (5 cards) "
            "and the **back** (5 cards). The back must be at least as strong as the middle, and the middle "
            "at least as strong as the front."
        ),
        _(
            "**Foul** (*binh lủng*). A set that breaks that order is fouled: under the Vietnamese rules it pays "
            "**6 chi** to every valid opponent (as if scooped)."
        ),
        _(
            "**Showdown.** Against each opponent, front is compared with front, middle with middle, "
            "back with back. The winner of a row collects its **chi value** (1 chi, or a bonus below); "
            "a tie pays 0."
        ),
        _(
            "**Front hands** are only three of a kind > pair > high card: three-card straights and flushes "
            "do not count. A front is compared with the middle by category first, then card by card over its "
            "3 cards."
        ),
        _(
            "**A-2-3-4-5** is a straight. Under the Vietnamese rules it is the second-highest straight "
            "(*sảnh hạ*, below 10-J-Q-K-A); international rules make it the lowest."
        ),
    )
)

st.header(_("Scoring (Vietnamese rules)"))
st.markdown(bullets(_("**Row bonuses** replace the 1 chi when the winner of the row holds:")))
front, middle, back = row_names()
hands = category_names()
st.table(
    [
        {
            _("Row"): row,
            _("Hand"): _("{name} ({vietnamese})").format(name=hands[category], vietnamese=vietnamese)
            if vietnamese
            else hands[category],
            _("Chi"): str(value),
        }
        for row, category, vietnamese, value in (
            (front, TRIPS, "xám chi cuối", 3),
            (middle, FULL_HOUSE, "cù lũ chi giữa", 2),
            (middle, QUADS, "tứ quý chi giữa", 8),
            (middle, STRAIGHT_FLUSH, "thùng phá sảnh chi giữa", 10),
            (back, QUADS, "tứ quý chi đầu", 4),
            (back, STRAIGHT_FLUSH, "thùng phá sảnh chi đầu", 5),
        )
    ],
    hide_index=True,
)
st.markdown(
    bullets(
        _("**Sập** (scoop): winning all three rows against one opponent doubles what they pay you."),
        _("**Sập làng**: with 3 or more players, scooping *every* opponent doubles everything again (× 4)."),
        _("**Special hands** (*tới trắng*) win automatically, whatever the set, from each other player:"),
    )
)
specials, meanings = special_names(), special_meanings()
# three columns that wrap, so a phone needs no sideways scroll; the names in Vietnamese
# and Khmer are in the names table below
st.table(
    [
        {
            _("Special hand"): specials[name],
            _("Chi from each"): str(PRESETS["vietnamese"].special_value(name)),
            _("What it is"): meanings[name],
        }
        for name in SPECIAL_NAMES
    ],
    hide_index=True,
)
st.markdown(
    bullets(
        _("Only the highest special counts; between two specials the higher one is paid its value."),
        _(
            "**Ace counting** (*tính Át*): each ace you hold wins 1 chi from each other player, added last "
            "and never doubled. If someone holds all four aces, nobody pays for aces."
        ),
        _("**1 chi = the table stake.** Every pair of players settles separately, so the table is zero-sum."),
    )
)

st.header(_("Hand names"))
st.caption(_("Five-card rows, strongest first. The front uses only three of a kind, pair and high card."))
names_table(reversed(CATEGORY_NAMES))
with st.expander(_("An example of each, strongest first")):
    examples = [parse_cards(text) for text in EXAMPLES]
    names = [hands[category_of(key5(cards))] for cards in examples]
    card_rows(
        [CardRow(cards, name[:1].upper() + name[1:]) for cards, name in zip(examples, names)],
        key="rules_examples",
        four_colour=four_colour(),
    )
st.caption(_("Special hands (*tới trắng*), in the order of the table above."))
names_table(SPECIAL_NAMES.values())
st.markdown(
    _(
        "**Row names.** This app says *front*, *middle* and *back*. Vietnamese sources disagree on numbering: "
        "some call the 3-card front *chi đầu* (head chi; Khmer ជីក្បាល), others call the 5-card back "
        '*chi 1 / chi đầu* and the front *chi 3 / chi cuối* (so "xám chi cuối" means trips in the front).'
    )
)

st.header(_("Presets"))
blurbs = preset_blurbs()
st.markdown(bullets(*(f"**{preset_label(name)}**: {blurb}." for name, blurb in blurbs.items())))
show_all = st.toggle(_("Show every option, not only the ones that differ"), key="rules_show_all")
st.table(preset_table(show_all), hide_index=True)

macao_section()
