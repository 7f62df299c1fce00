"""Rules page: how Mau Binh is played and scored, the presets, and the hand names."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import streamlit as st

from app.cards import CardRow, card_rows
from app.widgets import PRESET_BLURBS, SPECIAL_MEANINGS, SPECIAL_NAMES, four_colour, preset_label
from solver import PRESETS, Rules, parse_cards
from solver.hands import CATEGORY_NAMES, category_of, key5

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

# How each Rules option reads to a player; options missing here are shown by name.
OPTION_TEXT: dict[str, str] = {
    "wheel": "Where A-2-3-4-5 ranks",
    "strict": "Equal rows count as a foul",
    "ties": "A tied row goes to",
    "bonuses": "Row bonuses (trips in front, full house / quads / straight flush)",
    "sweep_mult": "Scoop (sập): winning all 3 rows multiplies by",
    "sweep_bonus": "Scoop: extra chi",
    "majority_bonus": "Extra chi for winning 2 or 3 rows",
    "sap_lang": "Sập làng: scooping every opponent doubles again",
    "sap_lang_min_players": "Sập làng needs at least this many players",
    "sap_lang_mult": "Sập làng multiplier",
    "foul_mode": "How a fouled hand pays",
    "foul_chi": "A fouled hand pays each opponent (chi)",
    "foul_sap_lang": "A fouled opponent counts as scooped for sập làng",
    "specials": "Special hands (tới trắng) win automatically",
    "special_values": "Special hand values",
    "six_pairs_rule": "Six pairs",
    "special_detection": "Special hands are found",
    "special_vs_special": "Special against special",
    "ace_low_runs": "A-2-3 / A-2-3-4-5 count in three straights",
    "aces": "Ace counting (tính Át): 1 chi per ace from each opponent",
    "aces_all_pairs": "Aces also count against specials and fouls",
}

VALUE_TEXT: dict[object, str] = {
    "second": "second-highest straight",
    "lowest": "lowest straight",
    "zero": "nobody (0)",
    "owner": "the table owner",
    "replace": "on (replace the 1 chi)",
    "add": "on (added to the 1 chi)",
    "none": "off",
    "doubled": "doubled family",
    "aces_extra": "on, with ace extras",
    "flat": "a flat amount",
    "opponent_x2": "opponent's chi × 2",
    "opponent_x1": "opponent's chi × 1",
    "generous": "pairs in trips/quads count",
    "strict": "exactly 6 pairs + 1",
    "auto": "automatically from the 13 cards",
    "layout": "only when laid out",
    "higher": "higher one wins its value",
    "tie": "always a tie",
    "difference": "pays the difference",
    True: "yes",
    False: "no",
}


def describe(name: str, value: object) -> str:
    if name == "special_values":
        return ", ".join(f"{SPECIAL_NAMES[n][0]} {v}" for n, v in value)  # type: ignore[attr-defined]
    if isinstance(value, (bool, str)) and value in VALUE_TEXT:
        return VALUE_TEXT[value]
    return str(value)


def preset_table(show_all: bool) -> list[dict[str, str]]:
    names = list(PRESETS)
    rows = []
    for field in dataclasses.fields(Rules):
        if not field.compare:  # an input alias (six_pairs), always folded into its option
            continue
        values = [getattr(PRESETS[p], field.name) for p in names]
        if not show_all and all(v == values[0] for v in values):
            continue
        row = {"Option": OPTION_TEXT.get(field.name, field.name)}
        row.update({preset_label(p): describe(field.name, v) for p, v in zip(names, values)})
        rows.append(row)
    return rows


def names_table(names: Iterable[tuple[str, str, str]]) -> None:
    """One name per language for each hand."""
    st.table([{"English": e, "Vietnamese": v, "Khmer": k} for e, v, k in names], hide_index=True)


st.title("Rules of Mau Binh")
st.caption("Mậu Binh · Binh xập xám · ម៉ូវបិញ — 13-card Chinese poker as played in Vietnam and Cambodia.")

st.header("How a hand is played")
st.markdown(
    """
* **Deal.** One 52-card deck, no jokers, 2 to 4 players, 13 cards each.
  Ranks run 2 < 3 < … < K < A; **suits never rank and never break ties**.
* **Set your hand** into three rows (*chi*): the **front** (3 cards), the **middle** (5 cards)
  and the **back** (5 cards). The back must be at least as strong as the middle, and the middle
  at least as strong as the front.
* **Foul** (*binh lủng*). A set that breaks that order is fouled: under the Vietnamese rules it pays
  **6 chi** to every valid opponent (as if scooped).
* **Showdown.** Against each opponent, front is compared with front, middle with middle,
  back with back. The winner of a row collects its **chi value** (1 chi, or a bonus below); a tie pays 0.
* **Front hands** are only three of a kind > pair > high card: three-card straights and flushes do not count.
  A front is compared with the middle by category first, then card by card over its 3 cards.
* **A-2-3-4-5** is a straight. Under the Vietnamese rules it is the second-highest straight
  (*sảnh hạ*, below 10-J-Q-K-A); international rules make it the lowest.
"""
)

st.header("Scoring (Vietnamese rules)")
st.markdown(
    """
* **Row bonuses** replace the 1 chi when the winner of the row holds:

  | row | hand | chi |
  |---|---|---|
  | front | three of a kind (*xám chi cuối*) | 3 |
  | middle | full house (*cù lũ chi giữa*) | 2 |
  | middle | four of a kind (*tứ quý*) | 8 |
  | middle | straight flush (*thùng phá sảnh*) | 10 |
  | back | four of a kind | 4 |
  | back | straight flush | 5 |

* **Sập** (scoop): winning all three rows against one opponent doubles what they pay you.
* **Sập làng**: with 3 or more players, scooping *every* opponent doubles everything again (× 4).
* **Special hands** (*tới trắng*) win automatically, whatever the set, from each other player:
"""
)
special_rows = [
    {
        "Special hand": english,
        "Chi from each": str(PRESETS["vietnamese"].special_value(name)),
        "What it is": SPECIAL_MEANINGS[name],
    }
    for name, (english, _, _) in SPECIAL_NAMES.items()
]
# three columns that wrap, so a phone needs no sideways scroll; the names in Vietnamese
# and Khmer are in the names table below
st.table(special_rows, hide_index=True)
st.markdown(
    """
  Only the highest special counts; between two specials the higher one is paid its value.
* **Ace counting** (*tính Át*): each ace you hold wins 1 chi from each other player, added last and never
  doubled. If someone holds all four aces, nobody pays for aces.
* **1 chi = the table stake.** Every pair of players settles separately, so the table is zero-sum.
"""
)

st.header("Hand names")
st.caption("Five-card rows, strongest first. The front uses only three of a kind, pair and high card.")
names_table(reversed(CATEGORY_NAMES))
with st.expander("An example of each, strongest first"):
    card_rows(
        [
            CardRow(cards, CATEGORY_NAMES[category_of(key5(cards))][0].capitalize())
            for cards in (parse_cards(text) for text in EXAMPLES)
        ],
        key="rules_examples",
        four_colour=four_colour(),
    )
st.caption("Special hands (*tới trắng*), in the order of the table above.")
names_table(SPECIAL_NAMES.values())
st.markdown(
    """
**Row names.** This app says *front*, *middle* and *back*. Vietnamese sources disagree on numbering:
some call the 3-card front *chi đầu* (head chi; Khmer ជីក្បាល), others call the 5-card back *chi 1 / chi đầu*
and the front *chi 3 / chi cuối* (so "xám chi cuối" means trips in the front).
"""
)

st.header("Presets")
st.markdown("\n".join(f"* **{preset_label(name)}**: {blurb}." for name, blurb in PRESET_BLURBS.items()))
show_all = st.toggle("Show every option, not only the ones that differ", key="rules_show_all")
st.table(preset_table(show_all), hide_index=True)
