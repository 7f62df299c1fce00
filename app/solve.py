"""Solve page: enter 13 cards (type, paste, pick or deal) and get the best set.

The hand and the table settings live in the page URL (``?hand=...&preset=...``), so a
copied link reopens the same result.

The text of the box is the single source of truth for the hand (``BOX``, a plain session
key).  The text box and the card picker are two views of it, each a widget whose key
carries a version number.  Whenever the page itself rewrites a view (the picker after a
typed hand, the box after a pick, both after Deal or Clear), that view gets a new version,
so a fresh widget.  A browser that has not yet received the rewrite still sends the old
widget's value with its next click (a busy server makes that window long), and Streamlit
fires the old widget's callback for it; the callbacks ignore any widget that is not the
current version.  So only a change the user makes to the view on screen writes the box,
and Solve reads the current box widget as the click delivered it.
"""

from __future__ import annotations

import functools
import html

import streamlit as st

from app import engine
from app.widgets import (
    LINK_MAX_CHARS,
    PRESET_BLURBS,
    arrangement_inline_html,
    canonical_hand,
    card_picker,
    cards_text,
    category_label,
    chi,
    chi_gap,
    page_style,
    percent,
    picked_cards,
    picker_keys,
    preset_label,
    read_hand,
    remember,
    restore,
    safe_parse_cards,
    set_picker,
    show_arrangement,
    show_error,
    special_label,
)
from solver import PRESETS, Card
from solver.scoring import Arrangement

BOX = "solve_box"  # the text in the box: the hand as the user has it
TEXT = "solve_text"  # key of the box widget (version 0; later versions add _<n>)
TEXT_VERSION = "solve_text_version"
PICK = "solve"  # picker key prefix (version 0; later versions are solve_pick_v<n>)
PICK_VERSION = "solve_pick_version"
PRESET = "solve_preset"
PLAYERS = "solve_players"
MODE = "solve_mode"
HAND = "solve_hand"  # canonical text of the hand whose result is shown
ERROR = "solve_error"
WIDGETS = (PRESET, PLAYERS, MODE)


# --- the box and its two views -------------------------------------------------------------


def text_key(version: int) -> str:
    return TEXT if version == 0 else f"{TEXT}_{version}"


def pick_prefix(version: int) -> str:
    return PICK if version == 0 else f"solve_pick_v{version}"


def current_text_key() -> str:
    return text_key(st.session_state.get(TEXT_VERSION, 0))


def current_pick_prefix() -> str:
    return pick_prefix(st.session_state.get(PICK_VERSION, 0))


def box_cards(text: str) -> list[Card]:
    """The cards the picker shows for this text: none unless it reads as up to 13 distinct cards."""
    cards = safe_parse_cards(text)
    if cards is None or len(cards) > 13 or len(set(cards)) != len(cards):
        return []
    return cards


def show_in_box(text: str) -> None:
    """Put the text in the box widget: a new widget version if the current one exists."""
    version = st.session_state.get(TEXT_VERSION, 0)
    if text_key(version) in st.session_state:
        version += 1
        st.session_state[TEXT_VERSION] = version
    st.session_state[text_key(version)] = text


def show_on_picker(text: str) -> None:
    """Select the text's cards on the picker: a new picker version if the current one exists."""
    version = st.session_state.get(PICK_VERSION, 0)
    if picker_keys(pick_prefix(version))[0] in st.session_state:
        version += 1
        st.session_state[PICK_VERSION] = version
    set_picker(pick_prefix(version), box_cards(text))


def write_box(text: str) -> None:
    """The page sets the hand (a deal, a clear, a link): the box and both views show it."""
    st.session_state[BOX] = text
    show_in_box(text)
    show_on_picker(text)


def views_ready() -> None:
    """Before the widgets render: views that Streamlit forgot (another page was shown) are
    rebuilt from the box."""
    text = st.session_state.get(BOX, "")
    if current_text_key() not in st.session_state:
        st.session_state[current_text_key()] = text
    if picker_keys(current_pick_prefix())[0] not in st.session_state:
        set_picker(current_pick_prefix(), box_cards(text))


# --- URL -----------------------------------------------------------------------------------


def load_from_url() -> None:
    """On the first run of a session, take hand and settings from the query string."""
    if st.session_state.get("solve_url_read"):
        return
    st.session_state["solve_url_read"] = True
    params = st.query_params
    problems = []
    preset = params.get("preset")
    if preset is not None:
        if preset in PRESETS:
            st.session_state[PRESET] = preset
        else:
            problems.append(f"unknown preset {preset[:40]!r} in the link; using {preset_label('vietnamese')}")
    players = params.get("players")
    if players is not None:
        if players in ("2", "3", "4"):
            st.session_state[PLAYERS] = int(players)
        else:
            problems.append(f"players must be 2, 3 or 4, the link says {players[:40]!r}")
    mode = params.get("mode")
    if mode is not None:
        if mode in engine.MODES:
            st.session_state[MODE] = mode
        else:
            problems.append(f"mode must be fast or deep, the link says {mode[:40]!r}")
    hand = params.get("hand")
    if hand is not None:
        write_box(hand[:LINK_MAX_CHARS])
        try:
            cards = read_hand(hand)
        except ValueError as exc:
            problems.append(f"the hand in the link is not usable: {exc}")
        else:
            st.session_state[HAND] = canonical_hand(cards)
    if problems:
        st.session_state[ERROR] = "; ".join(problems)


def write_url() -> None:
    """Keep the query string in step with the result shown."""
    hand = st.session_state.get(HAND)
    if not hand:
        return
    wanted = {
        "hand": hand,
        "preset": st.session_state[PRESET],
        "players": str(st.session_state[PLAYERS]),
        "mode": st.session_state[MODE],
    }
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)


# --- callbacks -----------------------------------------------------------------------------


def on_text_change(version: int) -> None:
    """The user edited the box: it is the hand now; the picker shows its cards.

    A box the page has replaced is stale: the browser sends its old value until the new
    box arrives, and Streamlit reports that as a change (the old widget's value is gone
    on the server), so it is ignored.
    """
    if text_key(version) != current_text_key():
        return
    st.session_state.pop(ERROR, None)
    text = st.session_state.get(text_key(version), "")
    st.session_state[BOX] = text
    show_on_picker(text)


def on_pick(prefix: str) -> None:
    """The user changed the picker on screen: the box holds the picked cards.  A replaced
    picker's value is stale (see :func:`on_text_change`) and ignored."""
    if prefix != current_pick_prefix():
        return
    st.session_state.pop(ERROR, None)
    text = cards_text(picked_cards(prefix))
    st.session_state[BOX] = text
    show_in_box(text)


def on_solve() -> None:
    """Solve the text in the box, as this click delivered it."""
    st.session_state.pop(ERROR, None)
    text = st.session_state.get(current_text_key(), st.session_state.get(BOX, ""))
    st.session_state[BOX] = text
    try:
        cards = read_hand(text)
    except ValueError as exc:
        st.session_state[ERROR] = str(exc)
        return
    st.session_state[HAND] = canonical_hand(cards)


def on_deal() -> None:
    st.session_state.pop(ERROR, None)
    cards = engine.deal(engine.new_seed())
    write_box(cards_text(cards))
    st.session_state[HAND] = canonical_hand(cards)


def on_clear() -> None:
    st.session_state.pop(ERROR, None)
    write_box("")


def send_to_compare(hand: str, sets: list[str]) -> None:
    """Hand the hand and some sets over to the Compare page (its keys, its version bump)."""
    st.session_state["compare_hand_text__kept"] = hand
    st.session_state.pop("compare_hand_text", None)
    st.session_state["compare_sets"] = list(sets)
    st.session_state["compare_version"] = st.session_state.get("compare_version", 0) + 1


# --- result --------------------------------------------------------------------------------


def show_result(hand: str, preset: str, players: int, mode: str) -> None:
    message = "Searching deeper (Monte Carlo over the unseen cards)…" if mode == "deep" else "Solving…"
    try:
        with st.spinner(message):
            result = engine.solve_hand(hand, preset, players, mode)
    except ValueError as exc:
        show_error(exc)
        return
    best = Arrangement.parse(result["best"])
    rules = PRESETS[preset]

    st.subheader("Best set")
    special = result["special"]
    if special:
        value = rules.special_value(special)
        st.success(
            f"**Special hand: {special_label(special)}.** It wins **{value} chi from each other player** "
            f"({value * (players - 1)} chi at this {players}-player table) however you set it.",
            icon="🐉",
        )
    keys = best.keys(rules)
    notes = [f"{category_label(k)} · wins {percent(p)}" for k, p in zip(keys, result["row_win"])]
    show_arrangement(best, notes)
    opponents = players - 1
    st.metric(
        "EV per hand",
        f"{chi(result['ev'])} chi",
        border=True,
        width="content",
        help=f"Average chi won per hand against {opponents} opponent{'s' if opponents > 1 else ''}, "
        f"under the {preset_label(preset)} rules ({mode} mode). Win chances are per row against one opponent. "
        "Fast mode models a typical table: a quarter of the players put their strongest five in the back, "
        "the rest set hands well. Deep mode deals the unseen cards to opponents who set hands like the solver.",
    )

    alternatives = result["alternatives"]
    if special:
        st.caption("A special hand scores the same however it is set, so there are no alternatives to weigh.")
    elif len(alternatives) > 1:
        st.subheader("Top alternatives")
        if mode == "fast":
            st.caption("One set per plan (what each row is made of); sets that only move a kicker are left out.")
        best_ev = alternatives[0][1]
        for rank, (text, ev) in enumerate(alternatives, start=1):
            arrangement = Arrangement.parse(text)
            head = f"#{rank} · EV {chi(ev)} chi"
            head += " · best" if rank == 1 else f" · {chi_gap(ev - best_ev)} chi vs best"
            st.markdown(
                f'<div style="margin-top:.4em"><b>{html.escape(head)}</b></div>{arrangement_inline_html(arrangement)}',
                unsafe_allow_html=True,
            )
        if st.button("Compare the top three side by side", key="solve_to_compare", icon="⚖️"):
            send_to_compare(hand, [t for t, _ in alternatives[:3]])
            st.switch_page("app/compare.py")
    st.caption("The address bar now holds this hand and these settings: copy it to share or reopen this result.")


# --- page ----------------------------------------------------------------------------------

load_from_url()
views_ready()
restore(PRESET, "vietnamese")
restore(PLAYERS, 4)
restore(MODE, "fast")

page_style()
st.title("Solve a hand")
st.caption("Type or paste your 13 cards in any order, pick them on the grid, or deal a random hand.")

st.text_area(
    "Your 13 cards",
    key=current_text_key(),
    height=80,
    placeholder="e.g. As Kd Qc Jh 10s 9d 8c 7h 6s 5d 4c 3h 2s  (also AS, 10♠, commas)",
    on_change=on_text_change,
    args=(st.session_state.get(TEXT_VERSION, 0),),
)
with st.expander("Pick cards on a grid"):
    picked = card_picker(current_pick_prefix(), on_change=functools.partial(on_pick, current_pick_prefix()))
    if len(picked) > 13:
        st.warning(f"{len(picked)} cards picked; a hand is 13. Untick {len(picked) - 13}.")
    else:
        st.caption(f"{len(picked)} of 13 cards picked.")

col_preset, col_players, col_mode = st.columns([2, 1.2, 1.2])
with col_preset:
    st.selectbox(
        "Rules",
        list(PRESETS),
        key=PRESET,
        format_func=preset_label,
        help="\n\n".join(f"**{preset_label(k)}**: {v}" for k, v in PRESET_BLURBS.items()),
    )
with col_players:
    st.segmented_control("Players", list(engine.PLAYERS), key=PLAYERS, required=True)
with col_mode:
    st.segmented_control(
        "Mode", list(engine.MODES), key=MODE, required=True, format_func=str.capitalize,
        help="Fast answers at once; Deep refines the top candidates by simulation (a few seconds).",
    )  # fmt: skip

with st.container(horizontal=True):
    st.button("Solve", type="primary", on_click=on_solve, key="solve_go")
    st.button("Deal random", on_click=on_deal, key="solve_deal")
    st.button("Clear", on_click=on_clear, key="solve_clear")
remember(*WIDGETS)

if st.session_state.get(ERROR):
    show_error(st.session_state[ERROR])

hand = st.session_state.get(HAND)
if hand:
    typed = safe_parse_cards(st.session_state.get(BOX, ""))
    if typed is None or canonical_hand(typed) != hand:
        st.caption("The result below is for the last hand you solved; press **Solve** for the cards above.")
    write_url()
    show_result(hand, st.session_state[PRESET], st.session_state[PLAYERS], st.session_state[MODE])
