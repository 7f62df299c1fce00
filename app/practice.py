"""Practice page (the trainer): set a dealt hand yourself, then see how it compares.

Deal a random hand, a "hard" one (where the naive set loses a lot) or a seeded drill;
``?seed=N`` (with ``preset``, ``players``, ``kind`` and ``hand``) in the address deals
the same hand again, so a drill can be shared.  The cards are arranged in the card
component (``app.cards.hand_editor``): drag them, or tap a card then a row or another
card; the foul check, each row's category, undo, reset and sort run in the browser.
Submitting shows your EV against the solver's best set, the chi lost, a grade, the best
set side by side with the moved cards ringed, and per-row win chances; the session keeps
statistics.
"""

from __future__ import annotations

import altair as alt
import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from app import engine
from app.cards import CardRow, card_rows, hand_editor
from app.grading import GRADE_COLOURS, GRADE_ICONS, GRADES, grade_for, same_rows
from app.widgets import (
    ROW_LABELS,
    ROW_SIZES,
    canonical_hand,
    category_label,
    category_names,
    chi,
    dealt_layout,
    editor_labels,
    four_colour,
    four_colour_toggle,
    percent,
    preset_label,
    remember,
    restore,
    show_error,
    sort_for_display,
    special_label,
)
from solver import PRESETS, Card, parse_cards
from solver.scoring import Arrangement, special_hand

KIND = "practice_kind"
SEED = "practice_seed"
PRESET = "practice_preset"
PLAYERS = "practice_players"
DEAL = "practice_deal"  # {"seed", "number", "kind", "hand", "note"}
DRILL = "practice_drill"  # ((seed, kind), number of the last hand dealt from that drill)
ROWS = "practice_rows"  # [[card text] * 3], kept in step with the card editor
EDITOR = "practice_editor"
URL_READ = "practice_url_read"
RESULT = "practice_result"
HISTORY = "practice_history"
ERROR = "practice_error"
SUBMIT = "practice_submit"
WIDGETS = (KIND, SEED, PRESET, PLAYERS)

# --- state helpers -------------------------------------------------------------------------


def set_rows(new_rows: list[list[Card]]) -> None:
    st.session_state[ROWS] = [[str(c) for c in row] for row in new_rows]


def start_hand(cards: list[Card], seed: int, number: int, kind: str, note: str = "") -> None:
    set_rows(dealt_layout(cards))
    st.session_state[DEAL] = {
        "seed": seed,
        "number": number,
        "kind": kind,
        "hand": canonical_hand(cards),
        "note": note,
    }
    st.session_state.pop(RESULT, None)


# --- callbacks (only bookkeeping here; solver work happens in the page body) ---------------


def on_deal() -> None:
    st.session_state.pop(ERROR, None)
    st.session_state["practice_deal_pending"] = True


def on_submit() -> None:
    st.session_state[SUBMIT] = True


def on_reset_stats() -> None:
    st.session_state[HISTORY] = []


# --- deal ----------------------------------------------------------------------------------


def read_seed(text: str) -> int | None:
    """The seed typed by the player (None when blank); ValueError when it is not a number."""
    text = text.strip()
    if not text:
        return None
    if len(text) > 12 or not text.isdigit():
        raise ValueError(f"A seed is a whole number of up to 12 digits, got {text[:40]!r}.")
    return int(text)


def deal_now(number_from_link: int | None = None) -> None:
    try:
        seed = read_seed(st.session_state.get(SEED, ""))
    except ValueError as exc:
        st.session_state[ERROR] = str(exc)
        return
    kind = st.session_state[KIND]
    if seed is None:  # a fresh drill of one hand; its seed is shown so it can be replayed
        seed, number = engine.new_seed(), 1
        st.session_state.pop(DRILL, None)
    else:  # the same seed deals the same sequence of hands: 1, 2, 3, ...
        last = st.session_state.get(DRILL)
        number = last[1] + 1 if last and last[0] == (seed, kind) else 1
        if number_from_link is not None:
            number = number_from_link
        st.session_state[DRILL] = ((seed, kind), number)
    deal_seed = engine.drill_seed(seed, number)
    if kind == "Hard":
        with st.spinner("Looking for a hand where the naive set goes wrong…"):
            cards, loss = engine.hard_deal(deal_seed, st.session_state[PRESET], st.session_state[PLAYERS])
        note = f"the naive set (strongest back first) loses {loss:.2f} chi here" if loss > 0 else ""
    else:
        cards, note = engine.deal(deal_seed), ""
    start_hand(cards, seed, number, kind, note)
    write_url()


# --- the address: ?seed=N&preset=...&players=...&kind=hard&hand=K ----------------------------


def load_from_url() -> None:
    """On a session's first visit, a link's seed (and settings) deals that hand at once."""
    if st.session_state.get(URL_READ):
        return
    st.session_state[URL_READ] = True
    params = st.query_params
    seed = params.get("seed")
    if seed is None:
        return
    problems = []
    preset = params.get("preset")
    if preset is not None:
        if preset in PRESETS:
            st.session_state[PRESET] = preset
        else:
            problems.append(f"unknown preset {preset[:40]!r}")
    players = params.get("players")
    if players is not None:
        if players in ("2", "3", "4"):
            st.session_state[PLAYERS] = int(players)
        else:
            problems.append(f"players must be 2, 3 or 4, not {players[:40]!r}")
    kind = params.get("kind", "random")
    st.session_state[KIND] = "Hard" if kind.lower() == "hard" else "Random"
    number_text = params.get("hand", "1")
    number = int(number_text) if number_text.isdigit() and 0 < int(number_text) <= 1000 else 1
    st.session_state[SEED] = seed[:40]
    if problems:
        st.session_state[ERROR] = "The link's settings were not all usable: " + "; ".join(problems) + "."
    deal_now(number)


def write_url() -> None:
    """Put the hand's seed and settings in the address, so the link deals it again."""
    deal = st.session_state.get(DEAL)
    if not deal:
        return
    wanted = {
        "seed": str(deal["seed"]),
        "preset": st.session_state[PRESET],
        "players": str(st.session_state[PLAYERS]),
    }
    if deal["kind"] == "Hard":
        wanted["kind"] = "hard"
    if deal.get("number", 1) > 1:
        wanted["hand"] = str(deal["number"])
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)


def on_restart_drill() -> None:
    st.session_state.pop(DRILL, None)
    on_deal()


# --- the editor --------------------------------------------------------------------------


def show_editor(deal: dict[str, object], special: str | None) -> tuple[list[str], list[str], list[str]]:
    """The card editor (drag or tap); returns the rows as they are now."""
    rules = PRESETS[st.session_state[PRESET]]
    cards = parse_cards(str(deal["hand"]))
    result = hand_editor(
        [[str(c) for c in row] for row in dealt_layout(cards)],
        key=EDITOR,
        rows_key=ROWS,
        labels=editor_labels(),
        categories=category_names(),
        wheel=rules.wheel,
        strict=rules.strict,
        special=f"Special hand: {special_label(special)}. It wins however it is set." if special else None,
        four_colour=four_colour(),
    )
    st.caption("Drag a card to another row or onto a card to swap, or tap a card and then a row or a card.")
    return result.rows


# --- result --------------------------------------------------------------------------------


def score(arrangement: Arrangement) -> None:
    """Grade the submitted set against the best one and record it in the session."""
    deal = st.session_state[DEAL]
    preset, players = st.session_state[PRESET], st.session_state[PLAYERS]
    with st.spinner("Scoring your set…"):
        best = engine.solve_hand(deal["hand"], preset, players, "fast")
        mine = engine.evaluate_set(deal["hand"], str(arrangement), preset, players, "fast")
    best_set = Arrangement.parse(best["best"])
    lost = max(0.0, best["ev"] - mine["ev"])
    valid = mine["valid"] or bool(mine["special"])
    grade = grade_for(lost, valid, same_rows(arrangement, best_set))
    if grade == "best":
        lost = 0.0
    result = {
        "hand": deal["hand"],
        "seed": deal["seed"],
        "preset": preset,
        "players": players,
        "mine": str(arrangement),
        "best": best["best"],
        "ev": mine["ev"],
        "best_ev": best["ev"],
        "row_win": mine["row_win"],
        "best_row_win": best["row_win"],
        "lost": lost,
        "grade": grade,
        "special": best["special"],
    }
    st.session_state[RESULT] = result
    history = st.session_state.setdefault(HISTORY, [])
    history.append({"hand": len(history) + 1, "grade": grade, "chi lost": lost, "seed": deal["seed"]})


def show_result(result: dict[str, object]) -> None:
    grade = str(result["grade"])
    lost = float(result["lost"])  # type: ignore[arg-type]
    rules = PRESETS[str(result["preset"])]
    icon = GRADE_ICONS[grade]
    summary = f"{icon} **{grade.capitalize()}**"
    if grade == "foul":
        summary += " — a fouled set pays every opponent."
    elif grade == "best":
        summary += " — you found the best set."
    else:
        summary += f" — {lost:.2f} chi lost against the best set."
    (st.error if grade in ("foul", "blunder") else st.warning if grade in ("mistake", "inaccuracy") else st.success)(
        summary
    )
    if result["special"]:
        st.info(f"This hand is a special hand ({special_label(str(result['special']))}): it wins however it is set.")
    with st.container(horizontal=True, gap="medium"):
        st.metric("Your EV", f"{chi(float(result['ev']))} chi", border=True, width="content")  # type: ignore[arg-type]
        st.metric("Best EV", f"{chi(float(result['best_ev']))} chi", border=True, width="content")  # type: ignore[arg-type]
        st.metric("Chi lost", f"{lost:.2f}", border=True, width="content")

    mine = Arrangement.parse(str(result["mine"]))
    best = Arrangement.parse(str(result["best"]))
    moved = [c for c, row_mine in ((c, i) for i, r in enumerate(mine.rows) for c in r)
             if c not in best.rows[row_mine]]  # fmt: skip
    special = bool(result["special"])
    left, right = st.columns(2)
    for column, title, arrangement, wins, name in (
        (left, "Your set", mine, result["row_win"], "mine"),
        (right, "Best set", best, result["best_row_win"], "best"),
    ):
        with column:
            st.markdown(f"**{title}**")
            keys = arrangement.keys(rules)
            notes = [  # a special hand wins whatever its rows hold: no per-row chances then
                category_label(k) if special else f"{category_label(k)} · wins {percent(p)}"
                for k, p in zip(keys, wins)  # type: ignore[call-overload]
            ]
            shown = [sort_for_display(row) for row in arrangement.rows]
            card_rows(
                [CardRow(row, label, note, moved) for row, label, note in zip(shown, ROW_LABELS, notes)],
                key=f"practice_result_{name}",
                four_colour=four_colour(),
            )
    if moved:
        st.caption("Ringed: the cards that sit in a different row in the best set.")
    if special:
        return
    st.markdown("**Why: chance of winning each row against one opponent**")
    st.table(
        [
            {"Row": label, "Yours": percent(a), "Best": percent(b)}
            for label, a, b in zip(ROW_LABELS, result["row_win"], result["best_row_win"])  # type: ignore[call-overload]
        ],
        hide_index=True,
    )


def show_stats() -> None:
    history = st.session_state.get(HISTORY) or []
    st.subheader("This session")
    if not history:
        st.caption("Play a hand to start your statistics.")
        return
    frame = pd.DataFrame(history)
    best_share = (frame["grade"] == "best").mean()
    with st.container(horizontal=True, gap="medium"):
        st.metric("Hands", len(frame), border=True, width="content")
        st.metric("Avg chi lost", f"{frame['chi lost'].mean():.2f}", border=True, width="content")
        st.metric("Best plays", percent(best_share), border=True, width="content")
        st.metric("Fouls", int((frame["grade"] == "foul").sum()), border=True, width="content")
    frame["running average"] = frame["chi lost"].expanding().mean()
    bars = (
        alt.Chart(frame)
        .mark_bar(size=14)
        .encode(
            x=alt.X(
                "hand:Q",
                axis=alt.Axis(format="d", tickMinStep=1),
                scale=alt.Scale(domain=[0.5, len(frame) + 0.5], nice=False),
            ),
            y=alt.Y(
                "chi lost:Q",
                title="chi lost",
                axis=alt.Axis(format=".2f", tickCount=4),
                scale=alt.Scale(domain=[0, max(0.5, float(frame["chi lost"].max()))], nice=False),
            ),
            color=alt.Color(
                "grade:N",
                scale=alt.Scale(domain=list(GRADE_COLOURS), range=list(GRADE_COLOURS.values())),
                legend=alt.Legend(orient="bottom", title=None, columns=3),
            ),
            tooltip=["hand", "grade", alt.Tooltip("chi lost:Q", format=".2f"), "seed"],
        )
    )
    line = alt.Chart(frame).mark_line(point=True, color="#37474f").encode(x="hand:Q", y="running average:Q")
    st.altair_chart(bars + line, height=230)
    st.caption("Bars: chi lost on each hand (coloured by grade). Line: your running average.")
    st.button("Reset statistics", key="practice_reset", on_click=on_reset_stats)


# --- page ----------------------------------------------------------------------------------

restore(KIND, "Random")
restore(SEED, "")
restore(PRESET, "vietnamese")
restore(PLAYERS, 4)
load_from_url()

st.title("Practice")
st.caption("Set the hand yourself, then see what the solver would do and how many chi it cost you.")

with st.expander("Deal and table settings", expanded=DEAL not in st.session_state):
    st.segmented_control(
        "Kind of hand", ["Random", "Hard"], key=KIND, required=True,
        help="Hard: a hand where the naive set (strongest five in the back) loses at least "
        f"{engine.HARD_MIN_LOSS:g} chi.",
    )  # fmt: skip
    st.text_input(
        "Seed (optional: a seed deals the same drill of hands, in the same order)",
        key=SEED,
        help="Leave it empty for random hands. Each hand shows its seed: type it here to replay that hand.",
    )
    col_preset, col_players = st.columns([2, 1.3])
    with col_preset:
        st.selectbox("Rules", list(PRESETS), key=PRESET, format_func=preset_label)
    with col_players:
        st.segmented_control("Players", list(engine.PLAYERS), key=PLAYERS, required=True)
    four_colour_toggle("practice")
remember(*WIDGETS)
if st.session_state.pop("practice_deal_pending", False):
    deal_now()

with st.container(horizontal=True):
    st.button(
        "Deal a hand" if DEAL not in st.session_state else "Deal the next hand",
        type="primary" if DEAL not in st.session_state or RESULT in st.session_state else "secondary",
        key="practice_deal_button",
        on_click=on_deal,
    )
    if st.session_state.get(DRILL):
        st.button("Start the drill again", key="practice_restart", on_click=on_restart_drill)
if st.session_state.get(ERROR):
    show_error(st.session_state[ERROR])

deal = st.session_state.get(DEAL)
if deal:
    caption = f"{deal['kind']} hand · seed {deal['seed']}"
    if deal.get("number", 1) > 1 or st.session_state.get(DRILL):
        caption += f", hand {deal.get('number', 1)} of the drill"
    if deal["note"]:
        caption += f" · {deal['note']}"
    st.caption(caption)
    result = st.session_state.get(RESULT)
    special = special_hand(deal["hand"], PRESETS[st.session_state[PRESET]])
    if special and not result:
        st.info(f"You hold a special hand: {special_label(special)}. It wins automatically, whatever the set.")
    arrangement = None
    if result is None:
        rows_now = show_editor(deal, special)
        complete = tuple(len(r) for r in rows_now) == ROW_SIZES
        if complete:
            arrangement = Arrangement(*(parse_cards(r) for r in rows_now))
        st.button(
            "Submit my set", type="primary", key="practice_submit_button", on_click=on_submit, disabled=not complete
        )
    if st.session_state.pop(SUBMIT, False) and arrangement is not None:
        try:
            score(arrangement)
        except ValueError as exc:
            show_error(exc)
        else:
            st.rerun()
    if result:
        show_result(result)
        st.button("Deal the next hand", type="primary", key="practice_next", on_click=on_deal)

with st.expander("Grades: how many chi lost earns which grade"):
    lower = 0.0
    lines = []
    for name, limit in GRADES:
        span = f"more than {lower:g} chi" if limit == float("inf") else f"up to {limit:g} chi"
        if name == "best":
            span = f"the best set, or within {limit:g} chi of it"
        lines.append(f"* {GRADE_ICONS[name]} **{name}**: {span}")
        lower = limit
    lines.append(f"* {GRADE_ICONS['foul']} **foul**: the set breaks back ≥ middle ≥ front (whatever the chi)")
    st.markdown(
        "Chi lost = the best set's EV minus yours, in chi per hand against the whole table "
        "(fast mode, the rules and players chosen above).\n" + "\n".join(lines)
    )

show_stats()
