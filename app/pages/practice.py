"""Practice page (the trainer): set a dealt hand yourself, then see how it compares.

Deal a random hand, a "hard" one (where the naive set loses a lot) or a seeded drill;
``?seed=N`` (with ``preset``, ``players``, ``field``, ``kind`` and ``hand``) in the address
deals the same hand again, so a drill can be shared.  The grades are against the
opponents chosen (``field``: a mixed table unless told).  The cards are arranged in the card
component (``app.cards.hand_editor``): drag them, or tap a card then a row or another
card; the foul check, each row's category, undo, reset and sort run in the browser.
Submitting shows your EV against the solver's best set, the chi lost, a grade, the best
set side by side with the moved cards ringed, and per-row win chances; the session keeps
statistics.
"""

from __future__ import annotations

import html
import time
from datetime import date, datetime, timedelta, timezone
from typing import Any

import altair as alt
import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from app import engine, feedback, recording
from app.card_text import canonical_hand, category_names, dealt_layout, editor_labels
from app.cards import hand_editor
from app.controls import field_select, four_colour, four_colour_toggle, players_select, rules_select
from app.errors import show_error
from app.fold import summary_label
from app.formats import chi, percent
from app.grading import GRADE_COLOURS, GRADE_ICONS, GRADES, grade_for, same_rows
from app.i18n import URL_PARAM, _, chart_locale, current_language, labels_now, number, pgettext
from app.page_state import Codec, PageState, Param, field_in_link, table_params
from app.profile import available_store, current_profile
from app.set_beside import set_beside_best
from app.share import share_deal
from app.terms import field_label, grade_names, preset_label, row_names, special_label
from solver import PRESETS, Card, parse_cards
from solver.fields import DEFAULT_FIELD
from solver.scoring import ROW_SIZES, Arrangement, special_hand
from trainer import drills
from trainer.themes import THEME_IDS

KIND = "practice_kind"
SEED = "practice_seed"
PRESET = "practice_preset"
PLAYERS = "practice_players"
FIELD = "practice_field"
DEAL = "practice_deal"  # {"seed", "number", "kind", "hand", "note"}
DRILL = "practice_drill"  # ((seed, kind), number of the last hand dealt from that drill)
ROWS = "practice_rows"  # [[card text] * 3], kept in step with the card editor
EDITOR = "practice_editor"
RESULT = "practice_result"
STATS_SINCE = "practice_stats_since"  # time.time() of the last "Reset statistics" (None: every hand)
RECENT = 30  # hands in the statistics' chart
ERROR = "practice_error"
SUBMIT = "practice_submit"
SETTINGS_OPEN = "practice_settings_open"  # the settings expander is open
THEME = "practice_theme"  # the theme of a themed drill (a trainer.themes id)
KINDS = ("Random", "Hard", "Theme")

def kind_label(kind: str) -> str:
    """The kind of deal (the stored values stay "Random" / "Hard" / "Review")."""
    return {
        "Random": pgettext("deal", "Random"),
        "Hard": pgettext("deal", "Hard"),
        "Review": pgettext("deal", "Review"),
        "Theme": pgettext("deal", "Theme drill"),
        "Daily": pgettext("deal", "Daily"),
    }.get(kind, kind)


def drill_themes() -> list[str]:
    """The themes a drill can be dealt for under the chosen rules."""
    rules = PRESETS[st.session_state[PRESET]]
    return [theme for theme in THEME_IDS if drills.drillable(theme, rules) is None]


def local_today() -> date:
    """Today in the browser's time zone (UTC when the browser did not say): the daily hand's date."""
    minutes = st.context.timezone_offset
    return datetime.now(timezone(-timedelta(minutes=minutes or 0))).date()


# --- state helpers -------------------------------------------------------------------------


def set_rows(new_rows: list[list[Card]]) -> None:
    st.session_state[ROWS] = [[str(c) for c in row] for row in new_rows]


def start_hand(cards: list[Card], seed: int | None, number: int, kind: str, note: str = "", **extra: object) -> None:
    set_rows(dealt_layout(cards))
    st.session_state[DEAL] = {
        "seed": seed,
        "number": number,
        "kind": kind,
        "hand": canonical_hand(cards),
        "note": note,
        "dealt_at": time.time(),  # the time taken to set it is recorded
        "uid": recording.new_uid(),  # one record per deal, however often it is submitted
        **extra,
    }
    st.session_state.pop(RESULT, None)


# --- callbacks (only bookkeeping here; solver work happens in the page body) ---------------


def on_deal() -> None:
    st.session_state.pop(ERROR, None)
    st.session_state[SETTINGS_OPEN] = False  # the settings fold away: the new hand is what matters now
    st.session_state["practice_deal_pending"] = True


def on_submit() -> None:
    st.session_state[SUBMIT] = True


def on_reset_stats() -> None:
    st.session_state[STATS_SINCE] = time.time()


# --- deal ----------------------------------------------------------------------------------


def read_seed(text: str) -> int | None:
    """The seed typed by the player (None when blank); ValueError when it is not a number."""
    text = text.strip()
    if not text:
        return None
    if len(text) > 12 or not text.isdigit():
        raise ValueError(_("A seed is a whole number of up to 12 digits, got {text}.").format(text=repr(text[:40])))
    return int(text)


def deal_now(number_from_link: int | None = None) -> None:
    try:
        seed = read_seed(st.session_state.get(SEED, ""))
    except ValueError as exc:
        st.session_state[ERROR] = exc  # shown with its kind in the player's language
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
        with st.spinner(_("Looking for a hand where the naive set goes wrong…")):
            cards, loss = engine.hard_deal(
                deal_seed, st.session_state[PRESET], st.session_state[PLAYERS], st.session_state[FIELD]
            )
        note = (
            _("the naive set (strongest back first) loses {loss} chi here").format(loss=chi(loss, signed=False))
            if loss > 0
            else ""
        )
    elif kind == "Theme":
        theme = st.session_state[THEME]
        with st.spinner(_("Looking for a hand where this theme decides…")):
            try:
                cards = drills.themed_deal(
                    theme, seed, number, st.session_state[PRESET], st.session_state[PLAYERS], st.session_state[FIELD]
                )
            except ValueError as exc:  # no drill of this theme under these rules, or none found
                st.session_state[ERROR] = exc
                return
        note = _("a drill of: {theme}").format(theme=feedback.theme_name(theme))
        start_hand(cards, seed, number, kind, note, theme=theme)
        STATE.write_url()
        return
    else:
        cards, note = engine.deal(deal_seed), ""
    start_hand(cards, seed, number, kind, note)
    STATE.write_url()


def deal_daily(seed: int | None = None) -> None:
    """The daily hand: the same for everyone on a date (``seed``: a link's daily seed)."""
    st.session_state.pop(ERROR, None)
    st.session_state.pop(DRILL, None)
    day = local_today()
    seed = drills.daily_seed(day) if seed is None else seed
    note = _("the daily hand: the same for everyone on {day}").format(day=day.isoformat())
    start_hand(engine.deal(engine.drill_seed(seed, 1)), seed, 1, "Daily", note)
    STATE.write_url()


# --- the address: ?seed=N&preset=...&players=...&kind=hard&hand=K ----------------------------


def read_kind(text: str) -> str:
    """A link's kind of deal: ``hard``, ``daily`` or ``theme:<theme id>``; anything else is random."""
    lowered = text.lower()
    if lowered in ("hard", "daily"):
        return lowered.capitalize()
    theme = text[len("theme:") :]
    return f"Theme:{theme}" if lowered.startswith("theme:") and theme in THEME_IDS else "Random"


def read_number(text: str) -> int:
    """A link's hand number in the drill (1..1000; anything else is hand 1)."""
    return int(text) if text.isdigit() and 0 < int(text) <= 1000 else 1


def address() -> dict[str, str]:
    """The hand's seed and settings, so the link deals it again (nothing before a deal)."""
    deal = st.session_state.get(DEAL)
    if not deal:
        return {}
    wanted = {
        **({} if deal["seed"] is None else {"seed": str(deal["seed"])}),  # a review hand has no seed
        "preset": st.session_state[PRESET],
        "players": str(st.session_state[PLAYERS]),
        **field_in_link(st.session_state[FIELD]),
        URL_PARAM: current_language(),  # a shared drill opens in the same language
    }
    if deal["kind"] in ("Hard", "Daily"):
        wanted["kind"] = deal["kind"].lower()
    elif deal["kind"] == "Theme":
        wanted["kind"] = f"theme:{deal['theme']}"
    if deal.get("number", 1) > 1:
        wanted["hand"] = str(deal["number"])
    return wanted


def drill_from_json(value: list[Any]) -> tuple[tuple[int, str], int]:
    """The drill as JSON wrote it (``[[seed, kind], number]``) back as the tuples the page compares."""
    (seed, kind), number = value
    return (int(seed), str(kind)), int(number)


STATE = PageState(
    "practice",
    widgets={KIND: "Random", SEED: "", PRESET: "vietnamese", PLAYERS: 4, FIELD: DEFAULT_FIELD, THEME: "pair-in-front"},
    params=(
        *table_params(PRESET, PLAYERS, FIELD),
        Param("kind", None, read_kind),
        Param("hand", None, read_number),
        Param("seed", SEED, lambda text: text[:40]),
    ),
    kept=(DEAL, DRILL, ROWS, RESULT, STATS_SINCE),
    codecs={DRILL: Codec(list, drill_from_json)},
    address=address,
)


def follow_link() -> None:
    """On a session's first visit, a link's seed (and settings) deals that hand at once
    (unless it is the hand the profile left here: a reload keeps the rows as they were)."""
    link = STATE.begin()
    if link.problems:
        st.session_state[ERROR] = _("The link's settings were not all usable: {problems}.").format(
            problems="; ".join(link.problems)
        )
    if "seed" in link.values:
        link_kind = str(link.values.get("kind", "Random"))
        link_seed = str(st.session_state.get(SEED, ""))
        if link_kind == "Daily" and link_seed.isdigit():
            deal_daily(int(link_seed))
            return
        if link_kind.startswith("Theme:"):
            st.session_state[THEME], link_kind = link_kind[len("Theme:") :], "Theme"
        st.session_state[KIND] = "Random" if link_kind == "Daily" else link_kind
        deal_now(link.values.get("hand", 1))


def on_review() -> None:
    """Deal the hand of the review queue due longest, on the table it was played at."""
    st.session_state.pop(ERROR, None)
    store = available_store()
    due = [] if store is None else store.review_due(current_profile().id, limit=1)
    if not due:
        return
    item = due[0]
    st.session_state[PRESET], st.session_state[PLAYERS], st.session_state[FIELD] = item.preset, item.players, item.field
    st.session_state.pop(DRILL, None)
    grade = grade_names().get(item.grade, item.grade)
    note = _("you set it as {grade} on {day}").format(grade=grade, day=item.created_at.date().isoformat())
    start_hand(parse_cards(item.hand), None, 1, "Review", note, review_item=item.id)


def on_restart_drill() -> None:
    st.session_state.pop(DRILL, None)
    on_deal()


def seed_line_of(deal: dict[str, object]) -> str:
    """The deal's seed in words (what the Share control shows)."""
    if int(deal.get("number", 1) or 1) > 1 or st.session_state.get(DRILL):  # type: ignore[call-overload]
        return _("Seed {seed}, hand {number} of the drill").format(seed=deal["seed"], number=deal.get("number", 1))
    return _("Seed {seed}").format(seed=deal["seed"])


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
        special=_("Special hand: {special}. It wins however it is set.").format(special=special_label(special))
        if special
        else None,
        four_colour=four_colour(),
        scroll=True,
    )
    st.caption(_("Drag a card to another row or onto a card to swap, or tap a card and then a row or a card."))
    return result.rows


# --- result --------------------------------------------------------------------------------


def score(arrangement: Arrangement) -> None:
    """Grade the submitted set against the best one and record it in the session."""
    deal = st.session_state[DEAL]
    preset, players, field = st.session_state[PRESET], st.session_state[PLAYERS], st.session_state[FIELD]
    with st.spinner(_("Scoring your set…")):
        best = engine.solve_hand(deal["hand"], preset, players, "fast", field)
        mine = engine.evaluate_set(deal["hand"], str(arrangement), preset, players, "fast", field)
    best_set = Arrangement.parse(best["best"])
    lost = max(0.0, best["ev"] - mine["ev"])
    valid = mine["valid"] or bool(mine["special"])
    grade = grade_for(lost, valid, same_rows(arrangement, best_set))
    if grade == "best":
        lost = 0.0
    # what the best set does differently, in themes and EV parts (none for the best set)
    analysis = (
        feedback.analyse(deal["hand"], str(arrangement), best["best"], preset, players, field)
        if grade != "best"
        else None
    )
    result = {
        "hand": deal["hand"],
        "seed": deal["seed"],
        "preset": preset,
        "players": players,
        "field": field,
        "mine": str(arrangement),
        "best": best["best"],
        "ev": mine["ev"],
        "best_ev": best["ev"],
        "row_win": mine["row_win"],
        "best_row_win": best["row_win"],
        "lost": lost,
        "grade": grade,
        "special": best["special"],
        "themes": analysis["themes"] if analysis else [],  # theme ids (trainer.themes), kept by the store
        "analysis": analysis,
    }
    recording.practice(result, deal)  # committed before the result shows: a result seen is a hand kept
    st.session_state[RESULT] = result


def show_result(result: dict[str, object]) -> None:
    grade = str(result["grade"])
    lost = float(result["lost"])  # type: ignore[arg-type]
    rules = PRESETS[str(result["preset"])]
    icon = GRADE_ICONS[grade]
    name = grade_names()[grade]
    head = f"{icon} **{name[:1].upper() + name[1:]}**"
    if grade == "foul":
        summary = _("{grade} — a fouled set pays every opponent.").format(grade=head)
    elif grade == "best":
        summary = _("{grade} — you found the best set.").format(grade=head)
    else:
        summary = _("{grade} — {lost} chi lost against the best set.").format(grade=head, lost=chi(lost, signed=False))
    (st.error if grade in ("foul", "blunder") else st.warning if grade in ("mistake", "inaccuracy") else st.success)(
        summary
    )
    if result["special"]:
        st.info(
            _("This hand is a special hand ({special}): it wins however it is set.").format(
                special=special_label(str(result["special"]))
            )
        )
    with st.container(horizontal=True, gap="medium"):
        your_ev, best_ev = chi(float(result["ev"])), chi(float(result["best_ev"]))  # type: ignore[arg-type]
        st.metric(_("Your EV"), _("{ev} chi").format(ev=your_ev), border=True, width="content")
        st.metric(_("Best EV"), _("{ev} chi").format(ev=best_ev), border=True, width="content")
        st.metric(_("Chi lost"), chi(lost, signed=False), border=True, width="content")
    graded = _("Graded against these opponents: {field}.").format(field=field_label(str(result["field"])))
    if result["field"] != st.session_state[FIELD]:
        graded += " " + _("The next hand is graded against: {field}.").format(
            field=field_label(st.session_state[FIELD])
        )
    st.caption(graded)
    if result.get("analysis"):
        show_feedback(result["analysis"])  # type: ignore[arg-type]

    special = bool(result["special"])
    set_beside_best(
        Arrangement.parse(str(result["mine"])),
        Arrangement.parse(str(result["best"])),
        rules,
        key="practice_result",
        # a special hand wins whatever its rows hold: no per-row chances then
        wins=None if special else (result["row_win"], result["best_row_win"]),  # type: ignore[arg-type]
    )
    if special:
        return
    st.markdown(_("**Why: chance of winning each row against one opponent**"))
    st.table(
        [
            {_("Row"): label, _("Yours"): percent(a), pgettext("column", "Best"): percent(b)}
            for label, a, b in zip(row_names(), result["row_win"], result["best_row_win"])  # type: ignore[call-overload]
        ],
        hide_index=True,
    )


CHIP_STYLE = (
    "display:inline-block;margin:0 .4em .3em 0;padding:.1em .6em;border-radius:1em;"
    "background:#eceff1;color:#263238;font-size:.9em"
)


def show_feedback(analysis: dict[str, object]) -> None:
    """The themes found (one chip per theme, ``data-theme="<id>"``), the one or two
    sentences of what the best set does differently, and the gap's EV parts."""
    found = feedback.themes_of(analysis)
    if found:
        chips = "".join(
            f'<span class="mb-theme" data-theme="{html.escape(t.id)}" '
            f'title="{html.escape(feedback.theme_sentence(t))}" style="{CHIP_STYLE}">'
            f"{html.escape(feedback.theme_name(t.id))}</span>"
            for t in found
        )
        st.markdown(f'<div class="mb-themes">{chips}</div>', unsafe_allow_html=True)
    st.markdown(" ".join(feedback.sentences(analysis)))
    if len(found) > 1:
        with st.expander(_("Every theme found")):
            st.markdown("\n".join(f"* **{feedback.theme_name(t.id)}**: {feedback.theme_sentence(t)}" for t in found))
    played, best = feedback.parts_of(analysis["played"]), feedback.parts_of(analysis["best"])  # type: ignore[arg-type]
    with st.expander(_("The gap part by part (chi)")):
        rows = feedback.parts_table(played, best)
        st.table(
            [{_("Part"): label, _("Yours"): chi(a), pgettext("column", "Best"): chi(b), _("Gain"): chi(b - a)}
             for label, a, b in rows],
            hide_index=True,
        )  # fmt: skip


def show_stats() -> None:
    """The profile's hands (since the statistics were reset), read from the store, so a
    reload or a restart keeps them; the chart shows the latest RECENT of them."""
    store = available_store()
    if store is None:  # no database this visit (the player was told): no statistics to read
        return
    profile = current_profile()
    since = st.session_state.get(STATS_SINCE)
    since_time = datetime.fromtimestamp(since, timezone.utc) if isinstance(since, (int, float)) else None
    total = store.practice_count(profile.id, since_time)
    st.subheader(_("Your hands"))
    if not total:
        st.caption(_("Play a hand to start your statistics."))
        return
    grades = store.practice_grades(profile.id, since_time)
    lost = sum(day.chi_lost for day in store.practice_by_day(profile.id, since=since_time))
    with st.container(horizontal=True, gap="medium"):
        st.metric(_("Hands"), total, border=True, width="content")
        st.metric(_("Avg chi lost"), chi(lost / total, signed=False), border=True, width="content")
        st.metric(_("Best plays"), percent(grades.get("best", 0) / total), border=True, width="content")
        st.metric(_("Fouls"), grades.get("foul", 0), border=True, width="content")
    recent = [r for r in reversed(store.practice_records(profile.id, limit=RECENT))
              if since_time is None or r.created_at >= since_time]  # fmt: skip
    first = total - len(recent) + 1
    frame = pd.DataFrame(
        [{"hand": first + i, "grade": r.grade, "chi lost": r.chi_lost, "seed": r.seed} for i, r in enumerate(recent)]
    )
    names = grade_names()
    frame["grade name"] = frame["grade"].map(names)
    frame["running average"] = frame["chi lost"].expanding().mean()
    bars = (
        alt.Chart(frame)
        .mark_bar(size=14)
        .encode(
            x=alt.X(
                "hand:Q",
                title=_("hand"),
                axis=alt.Axis(format="d", tickMinStep=1),
                scale=alt.Scale(domain=[first - 0.5, total + 0.5], nice=False),
            ),
            y=alt.Y(
                "chi lost:Q",
                title=None,
                axis=alt.Axis(format=".2f", tickCount=4),
                scale=alt.Scale(domain=[0, max(0.5, float(frame["chi lost"].max()))], nice=False),
            ),
            color=alt.Color(
                "grade name:N",
                scale=alt.Scale(domain=[names[g] for g in GRADE_COLOURS], range=list(GRADE_COLOURS.values())),
                legend=alt.Legend(orient="bottom", title=None, columns=3),
            ),
            tooltip=[
                alt.Tooltip("hand:Q", title=_("hand")),
                alt.Tooltip("grade name:N", title=_("grade")),
                alt.Tooltip("chi lost:Q", title=_("chi lost"), format=".2f"),
                alt.Tooltip("seed:Q", title=_("seed")),
            ],
        )
    )
    line = (
        alt.Chart(frame)
        .mark_line(point=True, color="#37474f")
        .encode(
            x="hand:Q",
            y="running average:Q",
            tooltip=[alt.Tooltip("running average:Q", title=_("running average"), format=".2f")],
        )
    )
    # the axis name is the chart's title, written across, so a phone's short plot never cuts it
    title = alt.TitleParams(_("chi lost"), anchor="start", fontSize=12, fontWeight="normal")
    st.altair_chart((bars + line).properties(title=title).configure(locale=chart_locale()), height=260)
    st.caption(_("Bars: chi lost on each hand (coloured by grade). Line: your running average."))
    st.button(_("Reset statistics"), key="practice_reset", on_click=on_reset_stats)


# --- page ----------------------------------------------------------------------------------

follow_link()

st.title(pgettext("page", "Practice"))
st.caption(_("Set the hand yourself, then see what the solver would do and how many chi it cost you."))

if DEAL in st.session_state or st.session_state.get("practice_deal_pending"):  # once dealt, one line; cards first
    settings_label = summary_label(
        SETTINGS_OPEN,
        _("{rules} rules · {players} players · opponents: {field} · change").format(
            rules=preset_label(st.session_state[PRESET]),
            players=st.session_state[PLAYERS],
            field=field_label(st.session_state[FIELD]),
        ),
    )
else:
    settings_label = _("Deal and table settings")
with st.expander(settings_label, expanded=DEAL not in st.session_state, key=SETTINGS_OPEN, on_change="rerun"):
    st.segmented_control(
        _("Kind of hand"), KINDS, key=KIND, required=True, format_func=labels_now(kind_label, KINDS),
        help=_("Hard: a hand where the naive set (strongest five in the back) loses at least {loss} chi.").format(
            loss=number(engine.HARD_MIN_LOSS)
        ) + " " + _("Theme drill: hands where the chosen theme decides the best set."),
    )  # fmt: skip
    if st.session_state[KIND] == "Theme":
        themes_now = drill_themes()
        if st.session_state.get(THEME) not in themes_now:
            st.session_state[THEME] = themes_now[0]
        st.selectbox(_("Theme of the drill"), themes_now, key=THEME, format_func=feedback.theme_name)
    st.text_input(
        _("Seed (optional: a seed deals the same drill of hands, in the same order)"),
        key=SEED,
        help=_("Leave it empty for random hands. Each hand shows its seed: type it here to replay that hand."),
    )
    col_preset, col_players = st.columns([2, 1.3])
    with col_preset:
        rules_select(PRESET)
    with col_players:
        players_select(PLAYERS)
    field_select(FIELD)
    four_colour_toggle("practice")
    st.button(
        _("Today's hand"),
        key="practice_daily",
        on_click=lambda: st.session_state.update({"practice_daily_pending": True}),
        help=_("The daily hand: everyone gets the same hand on the same date."),
    )
STATE.remember()
if st.session_state.pop("practice_deal_pending", False):
    deal_now()
if st.session_state.pop("practice_daily_pending", False):
    deal_daily()

with st.container(horizontal=True):
    store_now = available_store()
    due_now = 0 if store_now is None else store_now.review_count(current_profile().id)[0]
    if due_now:  # the review queue comes before new hands
        st.button(
            _("Review ({n} due)").format(n=due_now),
            type="primary" if DEAL not in st.session_state or RESULT in st.session_state else "secondary",
            key="practice_review_button",
            on_click=on_review,
            help=_("Hands you set as a mistake or worse come back when they are due: set them again."),
        )
    st.button(
        _("Deal a hand") if DEAL not in st.session_state else _("Deal the next hand"),
        type="primary" if DEAL not in st.session_state or RESULT in st.session_state else "secondary",
        key="practice_deal_button",
        on_click=on_deal,
    )
    if st.session_state.get(DRILL):
        st.button(_("Start the drill again"), key="practice_restart", on_click=on_restart_drill)
if st.session_state.get(ERROR):
    show_error(st.session_state[ERROR])

deal = st.session_state.get(DEAL)
if deal:
    STATE.write_url()  # settings changed since the deal (the opponents, say) go into the link too
    caption = _("{kind} hand").format(kind=kind_label(deal["kind"]))
    if deal["note"]:
        caption += f" · {deal['note']}"
    st.caption(caption)
    result = st.session_state.get(RESULT)
    special = special_hand(deal["hand"], PRESETS[st.session_state[PRESET]])
    if special and not result:
        st.info(
            _("You hold a special hand: {special}. It wins automatically, whatever the set.").format(
                special=special_label(special)
            )
        )
    arrangement = None
    if result is None:
        rows_now = show_editor(deal, special)
        complete = tuple(len(r) for r in rows_now) == ROW_SIZES
        if complete:
            arrangement = Arrangement(*(parse_cards(r) for r in rows_now))
        with st.container(horizontal=True):
            st.button(
                _("Submit my set"), type="primary", key="practice_submit_button", on_click=on_submit,
                disabled=not complete,
            )  # fmt: skip
            share_deal([seed_line_of(deal)], st.query_params.to_dict(), key="practice_share")
    if st.session_state.pop(SUBMIT, False) and arrangement is not None:
        try:
            score(arrangement)
        except ValueError as exc:
            show_error(exc)
        else:
            st.rerun()
    if result:
        show_result(result)
        with st.container(horizontal=True):
            st.button(_("Deal the next hand"), type="primary", key="practice_next", on_click=on_deal)
            share_deal([seed_line_of(deal)], st.query_params.to_dict(), key="practice_share")

with st.expander(_("Grades: how many chi lost earns which grade")):
    lower = 0.0
    lines = []
    names = grade_names()
    for name, limit in GRADES:
        if name == "best":
            span = _("the best set, or within {limit} chi of it").format(limit=number(limit))
        elif limit == float("inf"):
            span = _("more than {limit} chi").format(limit=number(lower))
        else:
            span = _("up to {limit} chi").format(limit=number(limit))
        lines.append(f"* {GRADE_ICONS[name]} **{names[name]}**: {span}")
        lower = limit
    foul = _("the set breaks back ≥ middle ≥ front (whatever the chi)")
    lines.append(f"* {GRADE_ICONS['foul']} **{names['foul']}**: {foul}")
    st.markdown(
        _(
            "Chi lost = the best set's EV minus yours, in chi per hand against the whole table "
            "(fast mode, the rules, players and opponents chosen above)."
        )
        + "\n"
        + "\n".join(lines)
    )

show_stats()
STATE.end()
