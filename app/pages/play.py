"""Play page: a Mau Binh table against computer opponents, with the settlement shown.

You sit in seat 0 with 1-3 computer players (Beginner, Club or Expert, from
``solver.players``).  Every hand is dealt from the session's seeded shoe
(``solver.table``; ``?seed=N&preset=...&players=N`` replays a session, ``&field=...`` names
the opponents the Club and Expert seats play against and your set is graded against).  You arrange your
13 cards with the card component (drag or tap) and press "Reveal": every seat's rows
turn face up, the rows are compared pair by pair and the settlement comes from
``score_table``.  The session keeps each seat's running balance, your scoops and fouls,
a one-line review of your set, and a history you can download or replay from.
"""

from __future__ import annotations

import html
import time
from dataclasses import asdict
from typing import Any
from urllib.parse import urlencode

import altair as alt
import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from app import engine, recording
from app.card_text import canonical_hand, category_names, editor_labels, sort_for_display
from app.cards import CardRow, card_rows, hand_editor
from app.controls import field_select, four_colour, four_colour_toggle, players_select, rules_select
from app.errors import show_error
from app.grading import GRADE_ICONS, grade_for, same_rows
from app.i18n import URL_PARAM, _, chart_locale, current_language, decimal, labels_now, ngettext, pgettext
from app.page_state import Codec, PageState, Param, field_in_link, table_params
from app.terms import field_label, grade_names, preset_label, row_names, special_label, special_names
from solver import Card, parse_cards, special_hand
from solver.fields import DEFAULT_FIELD
from solver.hands import category_of
from solver.players import EXPERT_SAMPLES, LEVELS
from solver.scoring import ROW_SIZES, Arrangement, chi_value
from solver.table import (
    MAX_HANDS,
    MAX_SEED,
    HandRecord,
    TableConfig,
    balances,
    history_csv,
    history_json,
    scoops,
    settle_hand,
)

PRESET = "play_preset"
PLAYERS = "play_players"
FIELD = "play_field"
LEVEL = "play_level_{}"  # seat 1..3
TIMER = "play_timer"
SEED_TEXT = "play_seed_text"
CONFIG = "play_config"  # TableConfig of the session
HAND = "play_hand"  # the hand being played: {"number", "hands", "sets", "replay_of", "deadline"}
ROWS = "play_rows"  # the page's copy of the editor's rows (survives a page switch)
RECORDS = "play_records"  # list[HandRecord]
SHOWN = "play_shown"  # index in RECORDS of the hand whose reveal is shown
REVEAL = "play_reveal"  # the Reveal button was pressed
ERROR = "play_error"
TIMERS = {"Off": None, "60 s": 60, "90 s": 90, "120 s": 120}
#: The library's seat names are English ("You", "Club 2"): the page writes them in the player's language.
LEVEL_NAMES = {player.name: name for name, player in LEVELS.items()}

CATEGORIES = category_names()
ROW_TITLES = row_names()


def level_label(level: str) -> str:
    """A computer player's level (``beginner``, ``club``, ``expert``) as the player reads it."""
    labels = {
        "beginner": pgettext("player level", "Beginner"),
        "club": pgettext("player level", "Club"),
        "expert": pgettext("player level", "Expert"),
    }
    return labels.get(level, level)


def seat_name(name: str) -> str:
    """A seat's name from the library (``You``, ``Club 2``) in the player's language."""
    if name == "You":
        return _("You")
    level, _space, seat = name.rpartition(" ")
    return f"{level_label(LEVEL_NAMES.get(level, level))} {seat}" if level else name


def timer_label(timer: str) -> str:
    seconds = TIMERS.get(timer)
    return pgettext("timer", "Off") if seconds is None else _("{seconds} s").format(seconds=seconds)


# --- session ----------------------------------------------------------------------------------


def config() -> TableConfig:
    return st.session_state[CONFIG]  # type: ignore[no-any-return]


def records() -> list[HandRecord]:
    return st.session_state.setdefault(RECORDS, [])  # type: ignore[no-any-return]


def settings_config(seed: int) -> TableConfig:
    """The table the settings describe, with this session seed."""
    players = st.session_state[PLAYERS]
    levels = tuple(st.session_state[LEVEL.format(seat)] for seat in range(1, players))
    return TableConfig(seed=seed, preset=st.session_state[PRESET], levels=levels, field=st.session_state[FIELD])


def start_session(table: TableConfig) -> None:
    st.session_state[CONFIG] = table
    st.session_state[RECORDS] = []
    st.session_state.pop(SHOWN, None)
    deal_hand(1)


def next_number() -> int:
    return 1 + sum(1 for r in records() if r.replay_of is None)


def deal_hand(number: int, replay: HandRecord | None = None) -> None:
    """Deal hand ``number`` (or the replayed hand again) and let the computer seats set."""
    table = config()
    if replay is not None:
        hands = [parse_cards(text) for text in replay.hands]
        sets = list(replay.sets[1:])
    else:
        hands = table.deal(number)
        with st.spinner(_("The computer players are setting their hands…")):
            sets = [str(a) for a in table.computer_sets(hands, number)]
    limit = TIMERS.get(st.session_state.get(TIMER, "Off"))
    st.session_state[HAND] = {
        "number": number,
        "hands": [[str(c) for c in hand] for hand in hands],
        "sets": sets,
        "replay_of": None if replay is None else (replay.replay_of or replay.number),
        "deadline": None if limit is None else time.time() + limit,
        "dealt_at": time.time(),  # the time taken is recorded with the hand
        "uid": recording.new_uid(),  # the hand's record is written once, however often Reveal runs
    }
    st.session_state.pop(ROWS, None)
    st.session_state.pop(SHOWN, None)


def read_levels(text: str) -> list[str]:
    names = text.lower().split(",")
    if all(name in LEVELS for name in names) and 1 <= len(names) <= 3:
        return names
    raise ValueError(
        _("levels must be beginner, club or expert separated by commas, got {levels}").format(levels=repr(text[:40]))
    )


def read_session_seed(text: str) -> int:
    if text.isdigit() and int(text) <= MAX_SEED:
        return int(text)
    raise ValueError(
        _("a session seed is a whole number from 0 to {most}, the link says {seed}").format(
            most=MAX_SEED, seed=repr(text[:40])
        )
    )


def address() -> dict[str, str]:
    """The session's seed and table, so the link replays it (nothing before a session)."""
    if CONFIG not in st.session_state:
        return {}
    table = config()
    return {
        "seed": str(table.seed),
        "preset": table.preset,
        "players": str(table.players),
        "levels": ",".join(table.levels),
        **field_in_link(table.field),
        URL_PARAM: current_language(),  # a shared session opens in the same language
    }


def records_to_json(hands: list[HandRecord]) -> list[dict[str, Any]]:
    return [r.to_dict() for r in hands]


def records_from_json(data: list[dict[str, Any]]) -> list[HandRecord]:
    return [HandRecord.from_dict(r) for r in data]


def config_from_json(data: dict[str, Any]) -> TableConfig:
    return TableConfig(int(data["seed"]), str(data["preset"]), tuple(data["levels"]), str(data["field"]))


STATE = PageState(
    "play",
    widgets={
        PRESET: "vietnamese",
        PLAYERS: 4,
        FIELD: DEFAULT_FIELD,
        TIMER: "Off",
        SEED_TEXT: "",
        **{LEVEL.format(seat): "club" for seat in (1, 2, 3)},
    },
    params=(
        *table_params(PRESET, PLAYERS, FIELD),
        Param("levels", None, read_levels, sticky=True),
        Param("seed", None, read_session_seed),
    ),
    kept=(CONFIG, HAND, ROWS, RECORDS, SHOWN),
    codecs={CONFIG: Codec(asdict, config_from_json), RECORDS: Codec(records_to_json, records_from_json)},
    address=address,
)


def follow_link() -> None:
    """On a session's first run, take seed, preset, players (and levels) from the link
    (unless it is the session the profile left here: a reload keeps it as it was)."""
    link = STATE.begin()
    for seat, name in enumerate(link.values.get("levels", ()), start=1):
        st.session_state[LEVEL.format(seat)] = name
    if "seed" in link.values:
        start_session(settings_config(link.values["seed"]))
    if link.problems:
        st.session_state[ERROR] = _("{problems}. The other settings are used.").format(
            problems="; ".join(link.problems)
        )


# --- callbacks (bookkeeping only) ---------------------------------------------------------------


def on_new_session() -> None:
    st.session_state.pop(ERROR, None)
    text = st.session_state.get(SEED_TEXT, "").strip()
    if text and (not text.isdigit() or int(text) > MAX_SEED):
        st.session_state[ERROR] = _("A session seed is a whole number from 0 to {most}, got {seed}.").format(
            most=MAX_SEED, seed=repr(text[:40])
        )
        return
    seed = int(text) if text else engine.new_seed()
    st.session_state["play_pending"] = settings_config(seed)


def on_reveal() -> None:
    st.session_state[REVEAL] = True


def on_next() -> None:
    st.session_state["play_deal_next"] = True


def on_replay() -> None:
    st.session_state["play_replay"] = st.session_state.get("play_replay_pick")


# --- reveal ---------------------------------------------------------------------------------------


def as_set(rows: tuple[list[str], list[str], list[str]]) -> tuple[Arrangement, bool]:
    """Your set from the editor's rows; rows of the wrong size (a timer that ran out
    mid-move) are cut again 3 + 5 + 5 in the order shown.  Returns (set, was recut)."""
    sizes = tuple(len(r) for r in rows)
    if sizes == ROW_SIZES:
        return Arrangement(rows[0], rows[1], rows[2]), False
    flat = [c for row in rows for c in row]
    return Arrangement(flat[:3], flat[3:8], flat[8:]), True


def review(hand: list[Card], mine: Arrangement, table: TableConfig) -> dict[str, Any]:
    """Your set against the fast solver's best for this table and its opponents (the Practice
    page's grade)."""
    text = canonical_hand(hand)
    best = engine.solve_hand(text, table.preset, table.players, "fast", table.field)
    yours = engine.evaluate_set(text, str(mine), table.preset, table.players, "fast", table.field)
    lost = max(0.0, best["ev"] - yours["ev"])
    valid = yours["valid"] or bool(yours["special"])
    grade = grade_for(lost, valid, same_rows(mine, Arrangement.parse(best["best"])))
    return {
        "ev": yours["ev"],
        "best_ev": best["ev"],
        "lost": 0.0 if grade == "best" else lost,
        "grade": grade,
        "best": best["best"],
        "field": table.field,
    }


def reveal(rows: tuple[list[str], list[str], list[str]], timed_out: bool) -> None:
    table, hand = config(), st.session_state[HAND]
    hands = [parse_cards(h) for h in hand["hands"]]
    mine, recut = as_set(rows)
    record = settle_hand(
        table,
        hand["number"],
        hands,
        [mine, *hand["sets"]],
        replay_of=hand["replay_of"],
        review=review(hands[0], mine, table),
        timed_out=timed_out,
        recut=recut,
    )
    recording.play_hand(table, record, hand)  # committed before the reveal shows
    records().append(record)
    st.session_state[SHOWN] = len(records()) - 1
    st.session_state.pop(HAND, None)
    st.session_state.pop(ROWS, None)


# --- drawing --------------------------------------------------------------------------------------


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def seat_html(record: HandRecord, seat: int, kinds: list[str]) -> str:
    """The seat's header: name, chi for the hand, row categories and what else happened."""
    name, total = seat_name(record.seats[seat]), record.totals[seat]
    notes = [" / ".join(kinds)]
    if record.specials[seat]:
        notes.append(_("special: {special}").format(special=special_label(record.specials[seat] or "")))
    if record.fouls[seat]:
        notes.append(pgettext("grade", "foul"))
    won = scoops(record, seat)
    if won:
        notes.append(_("scoops {n}").format(n=won))
    if record.sap_lang[seat]:
        notes.append(_("sập làng"))
    colour = "#2e7d32" if total > 0 else "#c62828" if total < 0 else "inherit"
    return (
        f'<div class="play-seat" style="display:flex;flex-wrap:wrap;gap:.2em .6em;align-items:baseline;'
        f'font-size:1.05rem"><b>{html.escape(name)}</b>'
        f'<span style="color:{colour};font-weight:700">{html.escape(_("{n} chi").format(n=signed(total)))}</span>'
        f'<span style="opacity:.75">{html.escape(" · ".join(notes))}</span></div>'
    )


def show_seats(record: HandRecord, index: int) -> None:
    rules = record.rules
    for seat in range(record.players):
        arrangement = record.arrangement(seat)
        kinds = [CATEGORIES[category_of(k)] for k in arrangement.keys(rules)]
        st.html(seat_html(record, seat, kinds))
        rows = [CardRow(cards=[str(c) for c in row]) for row in arrangement.rows]
        # the reveal contract sits on the element holding the seat's cards
        contract = {"data-seat": str(seat), "data-rows": record.sets[seat], "data-chi": str(record.totals[seat])}
        card_rows(rows, key=f"play_seat_{index}_{seat}", compact=True, four_colour=four_colour(), attrs=contract)


def pair_line(record: HandRecord, i: int, j: int) -> dict[str, str]:
    """One line of the settlement table: what seat i and seat j settle between them."""
    rules, names = record.rules, [seat_name(n) for n in record.seats]
    line = {_("Pair"): f"{names[i]} – {names[j]}"}
    results = record.row_results(i, j)
    bonuses = []
    if results is None:
        for title in ROW_TITLES:
            line[title] = "—"
    else:
        keys = (record.arrangement(i).keys(rules), record.arrangement(j).keys(rules))
        for row, (title, outcome) in enumerate(zip(ROW_TITLES, results)):
            if outcome == 0:
                line[title] = pgettext("row result", "tie")
                continue
            winner = i if outcome > 0 else j
            key = keys[0 if outcome > 0 else 1][row]
            value = chi_value(row, key, rules)
            line[title] = f"{names[winner]} {value}"
            if value > 1:
                bonuses.append(f"{ROW_TITLES[row]} {CATEGORIES[category_of(key)]} {value}")
        if rules.majority_bonus:
            for seat, sign in ((i, 1), (j, -1)):
                if sum(1 for r in results if r * sign > 0) >= 2:
                    bonuses.append(_("{player} majority +{n}").format(player=names[seat], n=rules.majority_bonus))
    extras = [_("bonus {bonus}").format(bonus=b) for b in bonuses]
    swept = [names[s] for s, o in ((i, j), (j, i)) if record.scooped[s][o] and results is not None]
    extras += [_("sập {player} ×{n}").format(player=n, n=rules.sweep_mult) for n in swept]
    extras += [
        _("sập làng {player} ×{n}").format(player=names[s], n=rules.sap_lang_mult) for s in (i, j) if record.sap_lang[s]
    ]
    fouled = [s for s in (i, j) if record.fouls[s]] if not (record.specials[i] or record.specials[j]) else []
    flat = rules.foul_mode == "flat" and len(fouled) == 1
    extras += [
        _("foul {player} pays {n}").format(player=names[s], n=rules.foul_chi)
        if flat
        else _("foul {player}").format(player=names[s])
        for s in fouled
    ]
    specials = special_names()
    extras += [
        _("special {player} {special}").format(player=names[s], special=specials.get(record.specials[s] or "", ""))
        for s in (i, j)
        if record.specials[s]
    ]
    if rules.aces and max(record.aces) == 4:
        extras.append(_("aces void (4 aces in one hand)"))
    elif rules.aces:
        extras.append(_("aces {mine}–{theirs}").format(mine=record.aces[i], theirs=record.aces[j]))
    line[_("Extras")] = "; ".join(extras) or "—"
    line[pgettext("column", "Chi")] = f"{names[i]} {signed(record.pairs[i][j])}"
    return line


def show_settlement(record: HandRecord, index: int) -> None:
    n = record.players
    st.markdown(
        _(
            "**Settlement**: each pair of seats, rows compared front, middle, back (a row names its winner "
            "and the chi it pays); *{extras}*: bonuses, sập, sập làng, fouls, specials and aces; *{chi}* is what "
            "the first seat of the pair receives from the second."
        ).format(extras=_("Extras"), chi=pgettext("column", "Chi"))
    )
    st.table([pair_line(record, i, j) for i in range(n) for j in range(i + 1, n)], hide_index=True)
    counted = [r for r in records()[: index + 1] if r.replay_of is None]
    running = balances(counted)[-1] if record.replay_of is None and counted else None
    totals = [
        {
            _("Seat"): seat_name(record.seats[s]),
            _("This hand"): signed(record.totals[s]),
            **({_("Balance"): signed(running[s])} if running else {}),
        }
        for s in range(n)
    ]
    st.table(totals, hide_index=True)
    st.caption(_("Totals sum to {total}: what one seat wins, the others pay.").format(total=sum(record.totals)))


def show_review(record: HandRecord) -> None:
    rev = record.extra.get("review")
    if not rev:
        return
    grade = str(rev["grade"])
    name = grade_names()[grade]
    text = _("{icon} **{grade}** · your EV {ev} vs best {best}").format(
        icon=GRADE_ICONS[grade], grade=name[:1].upper() + name[1:], ev=decimal(rev["ev"], 2, signed=True),
        best=decimal(rev["best_ev"], 2, signed=True),
    )
    if grade not in ("best", "foul"):
        text += " " + _("({lost} chi lost)").format(lost=decimal(rev["lost"], 2))
    field = str(rev.get("field", DEFAULT_FIELD))
    text += " · " + _("graded against these opponents: {field}").format(field=field_label(field))
    if record.extra.get("timed_out"):
        text += " · " + _("time ran out: your set as it stood was played")
    # the links open a new tab (a fresh session reads the link), so the table stays as it is
    params = {
        "preset": record.preset,
        "players": str(record.players),
        **field_in_link(field),
        URL_PARAM: current_language(),
    }
    solve_link = urlencode({"hand": record.hands[0], **params, "mode": "fast"})
    # hand n of session S is dealt from seed S * 1000 + n - 1: hand n of Practice's drill S
    session_seed, number = divmod(record.deal_seed, 1000)
    practice_link = urlencode({"seed": session_seed, "hand": number + 1, **params})
    # the link words are marked outside the f-string, where the message extraction finds them
    to_solve, to_practice = _("Open on Solve"), _("Open on Practice")
    st.markdown(f"{text} · [{to_solve}](solve?{solve_link}) · [{to_practice}](practice?{practice_link})")


def show_reveal(index: int) -> None:
    record = records()[index]
    st.subheader(hand_title(record.number, record.replay_of))
    show_seats(record, index)
    show_settlement(record, index)
    show_review(record)
    st.button(_("Deal the next hand"), type="primary", key="play_next", on_click=on_next)


def hand_title(number: int, replay_of: int | None) -> str:
    if replay_of:
        return _("Hand {number} (replay of hand {original})").format(number=number, original=replay_of)
    return _("Hand {number}").format(number=number)


def show_session() -> None:
    counted = [r for r in records() if r.replay_of is None]
    st.subheader(_("This session"))
    if not counted:
        st.caption(_("Reveal a hand to start the running balance."))
        return
    running = balances(counted)
    with st.container(horizontal=True, gap="medium"):
        st.metric(_("Hands played"), len(counted), border=True, width="content")
        st.metric(_("Your balance"), signed(running[-1][0]), border=True, width="content")
        st.metric(_("Your scoops"), sum(scoops(r, 0) for r in counted), border=True, width="content")
        st.metric(_("Your fouls"), sum(1 for r in counted if r.fouls[0]), border=True, width="content")
    seats = [seat_name(name) for name in counted[-1].seats]
    frame = pd.DataFrame(
        [{"hand": 0, "seat": name, "chi": 0} for name in seats]
        + [
            {"hand": r.number, "seat": seats[s], "chi": row[s]}
            for r, row in zip(counted, running)
            for s in range(len(seats))
        ]
    )
    chart = (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            x=alt.X("hand:Q", axis=alt.Axis(format="d", tickMinStep=1), title=_("hand")),
            y=alt.Y("chi:Q", title=_("balance (chi)")),
            # two seats a line: four seat names in one line run off a phone (Vietnamese, Khmer)
            color=alt.Color("seat:N", sort=list(seats), legend=alt.Legend(orient="bottom", title=None, columns=2)),
            tooltip=[
                alt.Tooltip("hand:Q", title=_("hand")),
                alt.Tooltip("seat:N", title=_("Seat")),
                alt.Tooltip("chi:Q", title=pgettext("column", "Chi")),
            ],
        )
    )
    st.altair_chart(chart.configure(locale=chart_locale()), height=240)


def show_history() -> None:
    hands = records()
    if not hands:
        return
    table = config()
    grades = grade_names()
    with st.expander(ngettext("History ({n} hand)", "History ({n} hands)", len(hands)).format(n=len(hands))):
        lines = [
            {
                pgettext("column", "Hand"): _("{number} (replay)").format(number=r.number)
                if r.replay_of
                else str(r.number),
                _("Your set"): r.sets[0],
                pgettext("column", "Chi"): signed(r.totals[0]),
                _("Grade"): grades.get((r.extra.get("review") or {}).get("grade", ""), ""),
            }
            for r in hands
        ]
        st.table(lines, hide_index=True)
        name = f"mau-binh-play-{table.seed}"
        with st.container(horizontal=True):
            st.download_button(
                _("Download JSON"),
                history_json(table, hands),
                file_name=f"{name}.json",
                mime="application/json",
                key="play_json",
                on_click="ignore",
            )
            st.download_button(
                _("Download CSV"),
                history_csv(hands),
                file_name=f"{name}.csv",
                mime="text/csv",
                key="play_csv",
                on_click="ignore",
            )
        numbers = sorted({r.replay_of or r.number for r in hands})
        with st.container(horizontal=True, vertical_alignment="bottom"):
            st.selectbox(
                _("Hand to replay"),
                numbers,
                key="play_replay_pick",
                format_func=labels_now(lambda n: _("Hand {number}").format(number=n), numbers),
                placeholder=_("Choose an option"),
            )
            st.button(_("Replay this hand"), key="play_replay_button", on_click=on_replay)
        st.caption(
            _(
                "A replay deals the same cards to every seat, the computer players set them as before; "
                "it is settled and kept in the history but not counted in the balance."
            )
        )


@st.fragment(run_every=1)
def countdown(deadline: float) -> None:
    """The time left on this hand; when it runs out, the whole page reruns and submits."""
    left = deadline - time.time()
    if left <= 0:
        st.rerun(scope="app")
    st.caption(
        _("⏱ {seconds} s left: your set as it stands is played when the time runs out.").format(seconds=f"{left:.0f}")
    )


def dealt_layout(cards: list[Card]) -> list[list[str]]:
    """How a new hand is laid out (as on Practice): high to low from the back."""
    ordered = [str(c) for c in sort_for_display(cards)]
    return [ordered[10:], ordered[5:10], ordered[:5]]


def show_hand() -> None:
    table, hand = config(), st.session_state[HAND]
    hands = [parse_cards(h) for h in hand["hands"]]
    st.subheader(hand_title(hand["number"], hand["replay_of"]))
    for seat in range(1, table.players):
        st.markdown(_("**{player}** · set, face down").format(player=seat_name(table.seat_names()[seat])))
        backs = [CardRow(backs=size) for size in ROW_SIZES]
        card_rows(backs, key=f"play_backs_{seat}", compact=True, four_colour=four_colour())
    special = special_hand(hands[0], table.rules)
    if special:
        st.info(
            _("You hold a special hand: {special}. It wins automatically, whatever the set.").format(
                special=special_label(special)
            )
        )
    result = hand_editor(
        dealt_layout(hands[0]),
        key=f"play_editor_{table.seed}_{hand['number']}_{hand['replay_of'] or 0}",
        labels=editor_labels(),
        categories=CATEGORIES,
        rows_key=ROWS,
        wheel=table.rules.wheel,
        strict=table.rules.strict,
        special=special_label(special) if special else None,
        four_colour=four_colour(),
    )
    deadline = hand["deadline"]
    timed_out = deadline is not None and time.time() >= deadline
    if deadline is not None and not timed_out:
        countdown(deadline)
    st.button(_("Reveal"), type="primary", key="play_reveal_button", on_click=on_reveal)
    if st.session_state.pop(REVEAL, False) or timed_out:
        try:
            reveal(result.rows, timed_out)
        except ValueError as exc:
            show_error(exc)
        else:
            st.rerun()


# --- page ---------------------------------------------------------------------------------------

st.title(pgettext("page", "Play"))
st.caption(_("A table against computer players: arrange your 13 cards, press Reveal, see who pays whom."))
follow_link()

with st.expander(_("Table settings"), expanded=CONFIG not in st.session_state):
    col_preset, col_players = st.columns([2, 1.3])
    with col_preset:
        rules_select(PRESET)
    with col_players:
        players_select(PLAYERS)
    level_columns = st.columns(st.session_state[PLAYERS] - 1)
    for seat_number in range(1, st.session_state[PLAYERS]):
        with level_columns[seat_number - 1]:
            st.selectbox(
                _("Seat {n}").format(n=seat_number),
                list(LEVELS),
                key=LEVEL.format(seat_number),
                format_func=labels_now(level_label, LEVELS),
                placeholder=_("Choose an option"),
            )
    field_select(FIELD)
    col_timer, col_seed = st.columns([1.4, 1])  # the timer words are long in Khmer
    with col_timer:
        st.segmented_control(
            _("Timer per hand"), list(TIMERS), key=TIMER, required=True, format_func=labels_now(timer_label, TIMERS)
        )
    with col_seed:
        st.text_input(
            _("Session seed (empty: random)"), key=SEED_TEXT, help=_("The same seed deals the same hands.")
        )
    four_colour_toggle("play")
    st.button(_("Start a new session"), key="play_new", on_click=on_new_session)
    st.caption(
        _(
            "Beginner: strongest five in the back. Club: the fast solver's best set. "
            "Expert: deep mode ({samples} sampled tables per candidate set). "
            "Club and Expert play against the opponents chosen, and your set is graded against them. "
            "Rules, players, levels and opponents apply when a new session starts; the timer from the next hand."
        ).format(samples=EXPERT_SAMPLES)
    )
STATE.remember()

if st.session_state.get(ERROR):
    show_error(st.session_state[ERROR])
pending = st.session_state.pop("play_pending", None)
if pending is not None:
    start_session(pending)
if CONFIG not in st.session_state:
    start_session(settings_config(engine.new_seed()))
if st.session_state.pop("play_deal_next", False):
    if next_number() > MAX_HANDS:
        show_error(
            _("This session has played {n} hands, the most one seed deals: start a new session.").format(n=MAX_HANDS)
        )
    else:
        deal_hand(next_number())
replay_number = st.session_state.pop("play_replay", None)
if replay_number is not None:
    original = next((r for r in records() if r.number == replay_number and r.replay_of is None), None)
    if original is not None:
        deal_hand(original.number, replay=original)
STATE.write_url()

session = config()
st.caption(
    _("Session seed {seed} · {preset} rules · {players} · link to replay: ?seed={seed}").format(
        seed=session.seed, preset=preset_label(session.preset), players=", ".join(
            seat_name(name) for name in session.seat_names()[1:]
        )
    )
)
if HAND in st.session_state:
    show_hand()
elif st.session_state.get(SHOWN) is not None:
    show_reveal(st.session_state[SHOWN])
show_session()
show_history()
STATE.end()
