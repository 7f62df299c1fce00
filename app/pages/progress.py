"""Progress page: what this profile's recorded hands say about its play.

Top to bottom: a summary line carrying the contract (``data-practice-hands``: the
profile's recorded Practice submissions; ``data-review-queue``: hands in its review
queue, due or not; ``data-review-due``: those due now); the streaks and headline numbers;
chi lost per hand over time, by day or by week, in the browser's time zone; the leaks
table (each theme of the player's hands with its hands, the share graded mistake or
worse and the chi it cost, the costliest first); the past Practice hands drawn as cards, newest first, each
with links that open it again on Practice or Solve; the Play and Macao records; and the
profile: its code (``data-profile-code``), the **Profile code** box with **Use this
profile**, and export, import and delete.

Everything is read from the store (:mod:`store`) for the current profile
(:func:`app.profile.current_profile`), so it survives reloads and restarts.  Sums are the
store's aggregate queries (counts, grades, days, themes); only the latest hands are read
one by one (the best-play streak, the cards), so the page costs the same with 10 or
10,000 hands.
"""

from __future__ import annotations

import html
from datetime import datetime, timedelta, timezone
from urllib.parse import urlencode

import altair as alt
import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from app import feedback, recording
from app.card_text import sort_for_display
from app.cards import CardRow, card_rows
from app.controls import four_colour
from app.formats import chi, percent
from app.grading import GRADE_ICONS
from app.i18n import URL_PARAM, _, chart_locale, current_language, integer, labels_now, ngettext, pgettext
from app.page_state import field_in_link
from app.profile import available_store, current_profile, profile_data_controls, use_profile_code_controls
from app.terms import field_label, grade_names, preset_label, row_names
from solver.scoring import Arrangement
from store import DayStats, PracticeRecord, Store
from trainer.progress import streaks, weeks

PERIOD = "progress_period"
SHOWN = "progress_shown"  # how many past hands the list shows
PAGE = 10  # past hands shown at first, and added by "Show older hands"
PERIODS = ("day", "week")
RECENT = 50  # Play hands and Macao rounds listed
STREAK_WINDOW = 500  # latest hands the best-play streaks look at


def period_label(period: str) -> str:
    return {"day": pgettext("period", "By day"), "week": pgettext("period", "By week")}.get(period, period)


def browser_offset() -> timedelta:
    """The browser's offset from UTC (zero when the browser did not say, as in tests)."""
    minutes = st.context.timezone_offset
    return -timedelta(minutes=minutes) if minutes is not None else timedelta(0)


def local_time(when: datetime) -> str:
    """A record's time as the browser's clock shows it, to the minute."""
    return when.astimezone(timezone(browser_offset())).strftime("%Y-%m-%d %H:%M")


# --- sections -----------------------------------------------------------------------------------


def summary(hands: int, due: int, queued: int) -> None:
    """The contract's element: the counts as data attributes and as words."""
    words = " · ".join(
        (
            ngettext("{n} Practice hand recorded", "{n} Practice hands recorded", hands).format(n=integer(hands)),
            ngettext("{n} hand in your review queue", "{n} hands in your review queue", queued).format(
                n=integer(queued)
            ),
            ngettext("{n} due now", "{n} due now", due).format(n=integer(due)),
        )
    )
    st.html(
        f'<div class="progress-summary" data-practice-hands="{hands}" data-review-queue="{queued}" '
        f'data-review-due="{due}">{html.escape(words)}</div>'
    )


def headline(store: Store, profile_id: str, hands: int, days: list[DayStats]) -> None:
    """Hands, chi lost, best plays and the streaks (best plays in a row over the latest
    STREAK_WINDOW hands)."""
    grades = store.practice_grades(profile_id)
    recent = [r.grade for r in reversed(store.practice_records(profile_id, limit=STREAK_WINDOW))]
    runs = streaks([d.day for d in days], recent, datetime.now(timezone(browser_offset())).date())
    lost = sum(d.chi_lost for d in days)
    with st.container(horizontal=True, gap="medium"):
        st.metric(_("Hands"), integer(hands), border=True, width="content")
        st.metric(_("Avg chi lost"), chi(lost / hands, signed=False), border=True, width="content")
        st.metric(_("Best plays"), percent(grades.get("best", 0) / hands), border=True, width="content")
        st.metric(
            _("Days in a row"),
            integer(runs.days),
            help=_("Days in a row with at least one Practice hand. Longest: {n}").format(n=integer(runs.longest_days)),
            border=True,
            width="content",
        )
        st.metric(
            _("Best plays in a row"),
            integer(runs.best),
            help=_("Longest in your latest {window} hands: {n}").format(
                window=integer(STREAK_WINDOW), n=integer(runs.longest_best)
            ),
            border=True,
            width="content",
        )


def rating_section(store: Store, profile_id: str) -> None:
    """The Glicko-2 rating of the profile's Practice hands, and how it moved."""
    rated = recording.rating(store, profile_id)
    if rated is None:
        return
    rating, hands, history = rated
    st.subheader(_("Rating"))
    st.metric(
        _("Your rating"),
        str(round(rating.rating)),  # a rating reads without a thousands separator
        help=_(
            "Glicko-2 over {n} hands: each hand is an opponent as strong as the chi the naive set "
            "(strongest back first) loses on it; 1500 plays as well as the naive set. "
            "Give or take {deviation}."
        ).format(n=integer(hands), deviation=integer(round(2 * rating.deviation))),
        border=True,
        width="content",
    )
    if len(history) > 1:
        frame = pd.DataFrame(
            {"when": [pd.Timestamp(t, unit="s", tz="UTC") for t, _r in history], "rating": [r for _t, r in history]}
        )
        line = (
            alt.Chart(frame)
            .mark_line(point=len(history) < 40, color="#1565c0")
            .encode(
                x=alt.X("when:T", title=None),
                y=alt.Y("rating:Q", title=_("rating"), scale=alt.Scale(zero=False)),
                tooltip=[alt.Tooltip("when:T", format="%Y-%m-%d %H:%M"), alt.Tooltip("rating:Q", format=".0f")],
            )
        )
        st.altair_chart(line.configure(locale=chart_locale()), height=180)


def chart(days: list[DayStats]) -> None:
    """Chi lost per hand, one bar a day or a week."""
    st.subheader(_("Chi lost per hand over time"))
    st.segmented_control(
        _("Group hands"),
        PERIODS,
        key=PERIOD,
        required=True,
        format_func=labels_now(period_label, PERIODS),
        label_visibility="collapsed",
    )
    period = st.session_state[PERIOD]
    shown = days if period == "day" else weeks(days)
    frame = pd.DataFrame(
        {
            "start": [pd.Timestamp(d.day) for d in shown],
            "per hand": [d.mean_chi_lost for d in shown],
            "hands": [d.hands for d in shown],
        }
    )
    title = _("day") if period == "day" else _("week (from Monday)")
    bars = (
        alt.Chart(frame)
        .mark_bar(color="#fb8c00")
        .encode(
            x=alt.X("start:T", title=title),
            y=alt.Y("per hand:Q", title=_("chi lost per hand"), axis=alt.Axis(format=".2f", tickCount=4)),
            tooltip=[
                alt.Tooltip("start:T", title=title, format="%Y-%m-%d"),
                alt.Tooltip("hands:Q", title=_("hands")),
                alt.Tooltip("per hand:Q", title=_("chi lost per hand"), format=".2f"),
            ],
        )
    )
    st.altair_chart(bars.configure(locale=chart_locale()), height=230)
    st.caption(_("Each bar: the chi your sets lost against the best sets, per hand, that day or week."))


def leaks_table(store: Store, profile_id: str) -> None:
    """Each theme of the player's sets against the best ones: its hands, the share of them
    graded mistake or worse, and the chi it cost, the costliest first."""
    st.subheader(_("Leaks"))
    found = store.practice_by_theme(profile_id)
    if not found:
        st.caption(_("No themes yet: the hands you set differently from the best set will show here."))
        return
    names = feedback.theme_names()
    theme, hands, worse, lost = _("Theme"), _("Hands"), _("Mistakes or worse"), _("Chi lost")
    st.dataframe(
        pd.DataFrame(
            {
                theme: [names.get(t.theme, t.theme) for t in found],
                hands: [t.hands for t in found],
                worse: [100 * t.mistakes / t.hands for t in found],
                lost: [t.chi_lost for t in found],
            }
        ),
        hide_index=True,
        column_config={
            worse: st.column_config.NumberColumn(format="%.0f%%"),
            lost: st.column_config.NumberColumn(format="%.2f"),
        },
    )
    st.caption(
        _(
            "A theme names what the best set did differently from yours, so its hands are the ones you did not "
            "set best; a hand with two themes counts in both."
        )
    )


#: The Practice link's ``kind`` of each recorded kind of deal ("" for none; review hands have no seed).
PRACTICE_KINDS = {"Random": "", "Hard": "hard", "Daily": "daily"}


def links(record: PracticeRecord) -> str:
    """Markdown links that open a past hand on Solve and, when a seed deals it, on Practice."""
    table = {
        "preset": record.preset,
        "players": str(record.players),
        **field_in_link(record.field),
        URL_PARAM: current_language(),
    }
    to_solve, to_practice = _("Open on Solve"), _("Open on Practice")  # marked outside the f-strings
    out = [f"[{to_solve}](solve?{urlencode({'hand': record.hand, **table, 'mode': 'fast'})})"]
    kind = PRACTICE_KINDS.get(record.kind, record.kind.lower() if record.kind.startswith("Theme:") else None)
    if record.seed is not None and kind is not None:  # the deal's seed (and kind) deal it again
        practice = {"seed": str(record.seed), **table, **({"kind": kind} if kind else {})}
        if (record.number or 1) > 1:
            practice["hand"] = str(record.number)
        out.append(f"[{to_practice}](practice?{urlencode(practice)})")
    return " · ".join(out)


def show_more() -> None:
    st.session_state[SHOWN] = st.session_state.get(SHOWN, PAGE) + PAGE


def past_hands(store: Store, profile_id: str, hands: int) -> None:
    st.subheader(_("Past hands"))
    shown = st.session_state.setdefault(SHOWN, PAGE)
    names = grade_names()
    for i, record in enumerate(store.practice_records(profile_id, limit=shown)):
        grade = names[record.grade]
        with st.container(border=True):
            head = _("{icon} **{grade}** · {lost} chi lost · {when}").format(
                icon=GRADE_ICONS[record.grade],
                grade=grade[:1].upper() + grade[1:],
                lost=chi(record.chi_lost, signed=False),
                when=local_time(record.created_at),
            )
            st.markdown(head)
            mine, best = Arrangement.parse(record.played), Arrangement.parse(record.best)
            moved = [c for r, row in enumerate(mine.rows) for c in row if c not in best.rows[r]]
            card_rows(
                [CardRow(sort_for_display(row), label, "", moved) for row, label in zip(mine.rows, row_names())],
                key=f"progress_hand_{i}",
                compact=True,
                four_colour=four_colour(),
            )
            st.caption(
                _("{preset} rules · {players} players · against {field}").format(
                    preset=preset_label(record.preset), players=record.players, field=field_label(record.field)
                )
                + " · "
                + links(record)
            )
    if shown < hands:
        st.button(_("Show older hands"), key="progress_more", on_click=show_more)


def play_records(store: Store, profile_id: str) -> None:
    played = store.play_count(profile_id)
    st.subheader(_("Play"))
    if not played:
        st.caption(_("No Play hands yet."))
        return
    records = store.play_records(profile_id, limit=RECENT)
    names = grade_names()
    st.caption(
        ngettext("{n} hand played; the latest:", "{n} hands played; the latest:", played).format(n=integer(played))
    )
    st.dataframe(
        pd.DataFrame(
            {
                _("When"): [local_time(r.created_at) for r in records],
                _("Session"): [r.session for r in records],
                pgettext("column", "Hand"): [r.hand_number for r in records],
                pgettext("column", "Chi"): [r.my_net for r in records],
                _("Grade"): [names.get(r.grade or "", "") for r in records],
            }
        ),
        hide_index=True,
    )


def macao_records(store: Store, profile_id: str) -> None:
    rounds = store.macao_count(profile_id)
    st.subheader("Macao")
    if not rounds:
        st.caption(_("No Macao rounds yet."))
        return
    records = store.macao_records(profile_id, limit=RECENT)
    st.caption(
        ngettext("{n} round played; the latest:", "{n} rounds played; the latest:", rounds).format(n=integer(rounds))
    )
    st.dataframe(
        pd.DataFrame(
            {
                _("When"): [local_time(r.created_at) for r in records],
                _("Players"): [r.players for r in records],
                _("Place"): [r.my_place for r in records],
                _("Turns"): [r.turns for r in records],
            }
        ),
        hide_index=True,
    )


def profile_section(code: str) -> None:
    """The profile's code (the contract's ``data-profile-code``), the code box to switch, and the data."""
    st.subheader(_("Your profile code"))
    shown = html.escape(code)
    st.html(f'<div class="progress-profile" data-profile-code="{shown}"><code>{shown}</code></div>')
    st.caption(
        _(
            "Type this code on another device to open the same profile there. Keep it to yourself: "
            "whoever has it can open your data."
        )
    )
    use_profile_code_controls()
    profile_data_controls()


# --- page ---------------------------------------------------------------------------------------

st.session_state.setdefault(PERIOD, "day")
st.title(_("Progress"))
store = available_store()
if store is None:  # no database this visit: nothing was recorded to show
    st.warning(_("Your progress cannot be saved right now; this visit works without it."))
else:
    profile = current_profile()
    hands = store.practice_count(profile.id)
    due, queued = store.review_count(profile.id)
    summary(hands, due, queued)
    if hands:
        days = store.practice_by_day(profile.id, browser_offset())
        headline(store, profile.id, hands, days)
        rating_section(store, profile.id)
        chart(days)
        leaks_table(store, profile.id)
        past_hands(store, profile.id, hands)
    else:
        st.info(_("Submit a hand on the Practice page: your hands, chi lost and leaks will show here."))
    play_records(store, profile.id)
    macao_records(store, profile.id)
    profile_section(profile.code)
