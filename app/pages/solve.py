"""Solve page: enter 13 cards (type, paste, pick or deal) and get the best set.

The hand and the table settings live in the page URL (``?hand=...&preset=...``, and
``field=strong`` or ``field=beginners`` when the opponents are not the default mixed
table), so a copied link reopens the same result.
"""

from __future__ import annotations

import streamlit as st

from app import engine
from app.card_text import canonical_hand, cards_text, picker_labels, sort_for_display
from app.cards import CardRow, card_picker, card_rows
from app.controls import field_select, four_colour, four_colour_toggle, players_select, rules_select
from app.errors import show_error
from app.fold import summary_label
from app.formats import chi, chi_gap, percent
from app.hand_input import LINK_MAX_CHARS, read_hand, safe_parse_cards
from app.i18n import URL_PARAM, _, current_language, labels_now, ngettext, pgettext
from app.page_state import PageState, Param, field_in_link, kept_key, table_params
from app.terms import (
    category_label,
    field_blurbs,
    field_label,
    mode_label,
    preset_blurbs,
    preset_label,
    row_names,
    special_label,
)
from solver import PRESETS
from solver.fields import DEFAULT_FIELD
from solver.scoring import Arrangement

TEXT = "solve_text"
PRESET = "solve_preset"
PLAYERS = "solve_players"
MODE = "solve_mode"
FIELD = "solve_field"
HAND = "solve_hand"  # canonical text of the hand whose result is shown
ERROR = "solve_error"
PICK = "solve_picker"
SETTINGS_OPEN = "solve_settings_open"  # the table settings expander is open


# --- URL -----------------------------------------------------------------------------------


def read_mode(text: str) -> str:
    if text in engine.MODES:
        return text
    raise ValueError(_("mode must be fast or deep, the link says {mode}").format(mode=repr(text[:40])))


def address() -> dict[str, str]:
    """The hand shown and its settings (nothing before a result)."""
    hand = st.session_state.get(HAND)
    if not hand:
        return {}
    return {
        "hand": hand,
        "preset": st.session_state[PRESET],
        "players": str(st.session_state[PLAYERS]),
        "mode": st.session_state[MODE],
        **field_in_link(st.session_state[FIELD]),
        URL_PARAM: current_language(),  # a shared link opens in the same language
    }


STATE = PageState(
    "solve",
    widgets={TEXT: "", PRESET: "vietnamese", PLAYERS: 4, MODE: "fast", FIELD: DEFAULT_FIELD},
    params=(
        *table_params(PRESET, PLAYERS, FIELD),
        Param("mode", MODE, read_mode, sticky=True),
        Param("hand", TEXT, lambda text: text[:LINK_MAX_CHARS]),
    ),
    kept=(HAND,),
    address=address,
)


def follow_link() -> None:
    """On the first run of a session, take hand and settings from the query string."""
    link = STATE.begin()
    problems = list(link.problems)
    if "hand" in link.values:
        try:
            cards = read_hand(link.values["hand"])
        except ValueError as exc:
            problems.append(_("the hand in the link is not usable: {reason}").format(reason=exc))
        else:
            st.session_state[HAND] = canonical_hand(cards)
    if problems:
        st.session_state[ERROR] = "; ".join(problems)


# --- callbacks -----------------------------------------------------------------------------


def on_text_change() -> None:
    st.session_state.pop(ERROR, None)


def shown_on_picker(text: str) -> list[str]:
    """The picker shows the text box's cards when the text reads as cards (the box is the truth)."""
    cards = safe_parse_cards(text)
    return [] if cards is None else list(dict.fromkeys(str(c) for c in cards))


def on_pick(added: list[str], removed: list[str]) -> None:
    """A tap on the grid edits the text box: the tapped card is added or taken out, and
    whatever else was typed stays as it was."""
    text = st.session_state.get(TEXT, "")
    cards = safe_parse_cards(text)
    if cards is None:  # unreadable text: keep every character, add the tapped cards after it
        st.session_state[TEXT] = " ".join(part for part in (text.strip(), *added) if part)
        return
    kept = [str(c) for c in cards if str(c) not in removed]
    st.session_state[TEXT] = " ".join([*kept, *(c for c in added if c not in kept)])


def on_solve() -> None:
    st.session_state.pop(ERROR, None)
    st.session_state[SETTINGS_OPEN] = False  # the settings fold away: the answer is what matters now
    try:
        cards = read_hand(st.session_state.get(TEXT, ""))
    except ValueError as exc:
        st.session_state[ERROR] = exc  # shown with its kind in the player's language
        return
    st.session_state[HAND] = canonical_hand(cards)


def on_deal() -> None:
    st.session_state.pop(ERROR, None)
    st.session_state[SETTINGS_OPEN] = False
    cards = engine.deal(engine.new_seed())
    st.session_state[TEXT] = cards_text(cards)
    st.session_state[HAND] = canonical_hand(cards)


def on_clear() -> None:
    st.session_state.pop(ERROR, None)
    st.session_state[TEXT] = ""


def send_to_compare(hand: str, sets: list[str]) -> None:
    """Hand the hand, some sets and this page's table (rules, players, mode, opponents) over
    to the Compare page, so it scores the sets as they were found (its keys, its version bump)."""
    handed = {
        "compare_hand_text": hand,
        "compare_preset": st.session_state[PRESET],
        "compare_players": st.session_state[PLAYERS],
        "compare_mode": st.session_state[MODE],
        "compare_field": st.session_state[FIELD],
    }
    for key, value in handed.items():
        # Compare's widgets read their mirror keys when they next render (PageState.restore)
        st.session_state[kept_key(key)] = value
        st.session_state.pop(key, None)
    st.session_state["compare_sets"] = list(sets)
    st.session_state["compare_version"] = st.session_state.get("compare_version", 0) + 1


# --- result --------------------------------------------------------------------------------


def ev_help(preset: str, players: int, mode: str, field: str) -> str:
    """What the EV shown is measured against: the table, the opponents chosen and the mode."""
    opponents = players - 1
    mode_line = (
        _("Deep mode deals the unseen cards to such opponents and settles every deal exactly.")
        if mode == "deep"
        else _("Fast mode uses a model of how such opponents' rows fall.")
    )
    return " ".join(
        (
            ngettext(
                "Average chi won per hand against {n} opponent, under the {preset} rules ({mode} mode).",
                "Average chi won per hand against {n} opponents, under the {preset} rules ({mode} mode).",
                opponents,
            ).format(n=opponents, preset=preset_label(preset), mode=mode_label(mode)),
            _("Win chances are per row against one opponent."),
            _("Opponents: {field}, {meaning}.").format(field=field_label(field), meaning=field_blurbs()[field]),
            mode_line,
        )
    )


def show_result(hand: str, preset: str, players: int, mode: str, field: str) -> None:
    message = _("Searching deeper (Monte Carlo over the unseen cards)…") if mode == "deep" else _("Solving…")
    try:
        with st.spinner(message):
            result = engine.solve_hand(hand, preset, players, mode, field)
    except ValueError as exc:
        show_error(exc)
        return
    best = Arrangement.parse(result["best"])
    rules = PRESETS[preset]

    st.subheader(_("Best set"))
    special = result["special"]
    if special:
        worth = rules.special_value(special)
        st.success(
            _(
                "**Special hand: {special}.** It wins **{value} chi from each other player** "
                "({total} chi at this {players}-player table) however you set it."
            ).format(special=special_label(special), value=worth, total=worth * (players - 1), players=players),
            icon="🐉",
        )
    keys = best.keys(rules)
    notes = [  # a special hand wins whatever its rows hold: no per-row chances then
        category_label(k)
        if special
        else _("{hand} · wins {percent}").format(hand=category_label(k), percent=percent(p))
        for k, p in zip(keys, result["row_win"])
    ]
    card_rows(
        [CardRow(sort_for_display(row), label, note) for row, label, note in zip(best.rows, row_names(), notes)],
        key="solve_best_rows",
        four_colour=four_colour(),
        attrs={"data-best-set": result["best"]},
        # a new answer scrolls into view: on a phone the Solve button sits near the fold
        scroll=" ".join((hand, preset, str(players), mode, field)),
    )
    value = _("{ev} chi").format(ev=chi(result["ev"]))
    if mode == "deep" and not special:  # a Monte Carlo estimate: say how sure it is
        error = engine.deep_error(hand, result["best"], preset, players, field)
        value = _("{ev} ± {error} chi").format(ev=chi(result["ev"]), error=chi(error, signed=False))
    st.metric(
        _("EV per hand"),
        value,
        border=True,
        width="content",
        help=ev_help(preset, players, mode, field),
    )
    why = _(
        "Fast and Deep can give the same set different values: Fast reads a model of how such "
        "opponents' rows fall, Deep deals the unseen cards to sampled tables and settles each one."
    )
    if mode == "deep" and not special:
        why += " " + _("The ± is one standard error of Deep's estimate (Monte Carlo error over its sampled tables).")
    st.caption(why)

    alternatives = result["alternatives"]
    if special:
        st.caption(_("A special hand scores the same however it is set, so there are no alternatives to weigh."))
    elif len(alternatives) > 1:
        st.subheader(_("Top alternatives"))
        if mode == "fast":
            st.caption(
                _("One set per plan (what each row is made of); sets that only move a kicker are left out.")
            )
        best_ev = alternatives[0][1]
        for rank, (text, ev) in enumerate(alternatives, start=1):
            arrangement = Arrangement.parse(text)
            head = (
                _("#{rank} · EV {ev} chi · best").format(rank=rank, ev=chi(ev))
                if rank == 1
                else _("#{rank} · EV {ev} chi · {gap} chi vs best").format(
                    rank=rank, ev=chi(ev), gap=chi_gap(ev - best_ev)
                )
            )
            st.markdown(f"**{head}**")
            rows = [
                CardRow(sort_for_display(row), label, category_label(k))
                for row, label, k in zip(arrangement.rows, row_names(), arrangement.keys(rules))
            ]
            card_rows(rows, key=f"solve_alt_{rank}", small=True, four_colour=four_colour())
        if st.button(_("Compare the top three side by side"), key="solve_to_compare", icon="⚖️"):
            send_to_compare(hand, [text for text, _ev in alternatives[:3]])
            st.switch_page("app/pages/compare.py")
    st.caption(
        _("The address bar now holds this hand and these settings: copy it to share or reopen this result.")
    )


# --- page ----------------------------------------------------------------------------------

follow_link()

st.title(_("Solve a hand"))
st.caption(_("Type or paste your 13 cards in any order, pick them on the grid, or deal a random hand."))

st.text_area(
    _("Your 13 cards"),
    key=TEXT,
    height=80,
    placeholder=_("e.g. {cards}  (also AS, 10♠, commas)").format(cards="As Kd Qc Jh 10s 9d 8c 7h 6s 5d 4c 3h 2s"),
    on_change=on_text_change,
)
with st.expander(_("Pick cards on a grid")):
    picked = card_picker(shown_on_picker(st.session_state.get(TEXT, "")), key=PICK, labels=picker_labels(),
                         on_change=on_pick, four_colour=four_colour()).selected  # fmt: skip
    if safe_parse_cards(st.session_state.get(TEXT, "")) is None:
        st.caption(_("The text above does not read as cards yet; a tap adds the card after it."))
    elif len(picked) > 13:
        st.warning(
            _("{n} cards picked; a hand is 13. Untick {extra}.").format(n=len(picked), extra=len(picked) - 13)
        )
    else:
        st.caption(_("{n} of 13 cards picked.").format(n=len(picked)))
    four_colour_toggle("solve")

# The table in one line, folded from the start: the line already names every setting (so
# nothing is hidden), and on a phone it keeps the Solve button next to the cards.
settings_label = summary_label(
    SETTINGS_OPEN,
    _("{rules} rules · {players} players · opponents: {field} · {mode} mode · change").format(
        rules=preset_label(st.session_state[PRESET]),
        players=st.session_state[PLAYERS],
        field=field_label(st.session_state[FIELD]),
        mode=mode_label(st.session_state[MODE]),
    ),
)
with st.expander(settings_label, key=SETTINGS_OPEN, on_change="rerun"):
    col_preset, col_players, col_mode = st.columns([2, 1.2, 1.2])
    with col_preset:
        rules_select(PRESET, help="\n\n".join(f"**{preset_label(k)}**: {v}" for k, v in preset_blurbs().items()))
    with col_players:
        players_select(PLAYERS)
    with col_mode:
        st.segmented_control(
            _("Mode"), list(engine.MODES), key=MODE, required=True, format_func=labels_now(mode_label, engine.MODES),
            help=_("Fast answers at once; Deep refines the top candidates by simulation (a few seconds)."),
        )  # fmt: skip
    field_select(FIELD)

with st.container(horizontal=True):
    st.button(pgettext("button", "Solve"), type="primary", on_click=on_solve, key="solve_go")
    st.button(_("Deal random"), on_click=on_deal, key="solve_deal")
    st.button(_("Clear"), on_click=on_clear, key="solve_clear")
STATE.remember()

if st.session_state.get(ERROR):
    show_error(st.session_state[ERROR])

hand = st.session_state.get(HAND)
if hand:
    typed = safe_parse_cards(st.session_state.get(TEXT, ""))
    if typed is None or canonical_hand(typed) != hand:
        st.caption(
            _("The result below is for the last hand you solved; press **{solve}** for the cards above.").format(
                solve=pgettext("button", "Solve")
            )
        )
    STATE.write_url()
    show_result(
        hand, st.session_state[PRESET], st.session_state[PLAYERS], st.session_state[MODE], st.session_state[FIELD]
    )
STATE.end()
