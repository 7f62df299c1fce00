"""Compare page: one hand, two or more ways to set it, side by side.

Type the sets as ``front | middle | back`` or add them from the solver's top sets; each
is evaluated (fouled sets too): EV, per-row win chance, validity and the chi difference.
"""

from __future__ import annotations

import string

import streamlit as st

from app import engine
from app.card_text import canonical_hand, sort_for_display
from app.cards import CardRow, card_rows
from app.controls import field_select, four_colour, players_select, rules_select
from app.errors import show_error
from app.formats import chi, chi_gap, percent
from app.hand_input import read_arrangement, read_hand
from app.i18n import _, labels_now
from app.page_state import PageState
from app.terms import category_label, mode_label, row_names, special_label
from solver import PRESETS
from solver.fields import DEFAULT_FIELD
from solver.scoring import Arrangement

HAND = "compare_hand_text"
PRESET = "compare_preset"
PLAYERS = "compare_players"
MODE = "compare_mode"
FIELD = "compare_field"
SETS = "compare_sets"  # list of arrangement texts (the source of truth for the inputs)
VERSION = "compare_version"  # bumps when SETS is replaced from outside the inputs
PICK = "compare_pick"
MAX_SETS = 6
LETTERS = string.ascii_uppercase
STATE = PageState(
    "compare",
    widgets={HAND: "", PRESET: "vietnamese", PLAYERS: 4, MODE: "fast", FIELD: DEFAULT_FIELD},
    kept=(SETS, VERSION),
)


def set_key(i: int) -> str:
    return f"compare_set_{st.session_state.get(VERSION, 0)}_{i}"


def sets() -> list[str]:
    current: list[str] = st.session_state.setdefault(SETS, ["", ""])
    return current


def replace_sets(new: list[str]) -> None:
    st.session_state[SETS] = list(new)
    st.session_state[VERSION] = st.session_state.get(VERSION, 0) + 1


# --- callbacks -----------------------------------------------------------------------------


def on_set_change(i: int) -> None:
    current = sets()
    current[i] = st.session_state.get(set_key(i), "")


def on_add() -> None:
    if len(sets()) < MAX_SETS:
        replace_sets([*sets(), ""])


def on_remove() -> None:
    if len(sets()) > 2:
        replace_sets(sets()[:-1])


def on_add_alternative(texts: list[str]) -> None:
    choice = st.session_state.get(PICK)
    if choice is None or not 0 <= choice < len(texts):
        return
    current = [t for t in sets() if t.strip()]
    if texts[choice] not in current:
        current.append(texts[choice])
    while len(current) < 2:
        current.append("")
    replace_sets(current[:MAX_SETS])


def on_clear() -> None:
    replace_sets(["", ""])


# --- page ----------------------------------------------------------------------------------

STATE.begin()

st.title(_("Compare sets"))
st.caption(_("One hand, several ways to set it: EV, win chance per row, validity and the chi difference."))

st.text_area(
    _("The hand (13 cards; optional if the first set is filled in)"),
    key=HAND,
    height=68,
    placeholder=_("e.g. {cards}").format(cards="As Kd Qc Jh 10s 9d 8c 7h 6s 5d 4c 3h 2s"),
)
col_preset, col_players, col_mode = st.columns([2, 1.2, 1.2])
with col_preset:
    rules_select(PRESET)
with col_players:
    players_select(PLAYERS)
with col_mode:
    st.segmented_control(
        _("Mode"), list(engine.MODES), key=MODE, required=True, format_func=labels_now(mode_label, engine.MODES)
    )
field_select(FIELD)
STATE.remember()
preset, players, mode = st.session_state[PRESET], st.session_state[PLAYERS], st.session_state[MODE]
field = st.session_state[FIELD]

# The hand: typed, or taken from the first set that reads.
hand: str | None = None
hand_text = st.session_state.get(HAND, "")
if hand_text.strip():
    try:
        hand = canonical_hand(read_hand(hand_text))
    except ValueError as exc:
        show_error(exc)

st.subheader(_("Sets to compare"))
st.caption(
    _("Write each set as front | middle | back, e.g. {example}.").format(
        example="`2c 3d 4h | 5s 6c 7d 8h 9s | Tc Jd Qh Ks Ac`"
    )
)
parsed: list[tuple[str, Arrangement]] = []
for i, text in enumerate(sets()):
    key = set_key(i)
    if key not in st.session_state:
        st.session_state[key] = text
    st.text_input(
        _("Set {letter}").format(letter=LETTERS[i]),
        key=key,
        on_change=on_set_change,
        args=(i,),
        placeholder=_("front | middle | back"),
    )
    value = st.session_state.get(key, "")
    if not value.strip():
        continue
    try:
        arrangement = read_arrangement(value)
        if hand is None and not hand_text.strip():
            hand = canonical_hand(arrangement.cards)
        if hand is not None and canonical_hand(arrangement.cards) != hand:
            extra = sorted(set(map(str, arrangement.cards)) - set(hand.split()))
            message = (
                _("Set {letter} is not the same hand: it has {cards} that the hand above does not.")
                if hand_text.strip()
                else _("Set {letter} is not the same hand: it has {cards} that set A does not.")
            )
            raise ValueError(message.format(letter=LETTERS[i], cards=" ".join(extra)))
    except ValueError as exc:
        show_error(exc)
        continue
    parsed.append((LETTERS[i], arrangement))

with st.container(horizontal=True):
    st.button(_("Add a set"), key="compare_add", on_click=on_add, disabled=len(sets()) >= MAX_SETS)
    st.button(_("Remove the last set"), key="compare_remove", on_click=on_remove, disabled=len(sets()) <= 2)
    st.button(_("Clear the sets"), key="compare_clear", on_click=on_clear)

top = None
if hand:
    try:
        top = engine.solve_hand(hand, preset, players, mode, field)
    except ValueError as exc:
        show_error(exc)
    if top:
        alternatives: list[tuple[str, float]] = top["alternatives"]
        texts = [t for t, _ in alternatives]
        with st.expander(_("Add one of the solver's top sets")):
            for n, (alt_text, alt_ev) in enumerate(alternatives, start=1):
                st.markdown(_("**#{n}** · EV {ev} chi").format(n=n, ev=chi(alt_ev)))
                shown = [CardRow(sort_for_display(row)) for row in Arrangement.parse(alt_text).rows]
                card_rows(shown, key=f"compare_alt_{n}", compact=True, four_colour=four_colour())
            choices: list[int] = list(range(len(texts)))
            with st.container(horizontal=True, vertical_alignment="bottom"):
                st.selectbox(
                    _("Solver's set"),
                    choices,
                    placeholder=_("Choose an option"),
                    key=PICK,
                    format_func=labels_now(
                        lambda n: _("#{n} (EV {ev})").format(n=n + 1, ev=chi(alternatives[n][1])), choices
                    ),
                )
                st.button(_("Add it"), key="compare_add_alt", on_click=on_add_alternative, args=(texts,))

if len(parsed) < 2:
    st.info(_("Fill in at least two sets of the same hand to compare them."))
else:
    results = []
    try:
        with st.spinner(_("Evaluating the sets…")):
            for _letter, arrangement in parsed:
                results.append(engine.evaluate_set(hand or "", str(arrangement), preset, players, mode, field))
    except ValueError as exc:
        show_error(exc)
        results = []
    if results:
        top_ev = max(r["ev"] for r in results)
        special = results[0]["special"]
        if special:
            st.success(
                _("Special hand: {special}. It wins however it is set, so every set scores alike.").format(
                    special=special_label(special)
                )
            )
        st.subheader(_("Side by side"))
        wins_heads = [] if special else [_("{row} wins").format(row=row) for row in row_names()]
        table = {"": [_("EV (chi)"), _("vs best listed"), *wins_heads, _("Valid")]}
        for entry, r in zip(parsed, results):
            table[_("Set {letter}").format(letter=entry[0])] = [
                chi(r["ev"]),
                _("best") if r["ev"] == top_ev else chi_gap(r["ev"] - top_ev),
                *([] if special else [percent(p) for p in r["row_win"]]),
                _("yes") if r["valid"] else _("FOUL"),
            ]
        st.table(table, hide_index=True)
        rules = PRESETS[preset]
        columns = st.columns(min(len(parsed), 3))
        for n, ((letter, arrangement), r) in enumerate(zip(parsed, results)):
            with columns[n % len(columns)], st.container(border=True):
                verdict = _("valid") if r["valid"] else ":red[**{foul}**]".format(foul=_("foul"))
                st.markdown(
                    _("**Set {letter}** · EV {ev} chi · {verdict}").format(
                        letter=letter, ev=chi(r["ev"]), verdict=verdict
                    )
                )
                notes = [  # a special hand wins whatever its rows hold: no per-row chances then
                    category_label(k)
                    if special
                    else _("{hand} · wins {percent}").format(hand=category_label(k), percent=percent(p))
                    for k, p in zip(arrangement.keys(rules), r["row_win"])
                ]
                # rows shown high to low, whatever order they were typed in
                shown = [
                    CardRow(sort_for_display(row), label, note)
                    for row, label, note in zip(arrangement.rows, row_names(), notes)
                ]
                card_rows(shown, key=f"compare_set_rows_{letter}", four_colour=four_colour())
        if top:
            st.caption(
                _("The solver's best set for this hand has EV {ev} chi ({mode} mode).").format(
                    ev=chi(top["ev"]), mode=mode_label(mode)
                )
            )
STATE.end()
