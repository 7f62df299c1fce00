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
from app.card_text import canonical_hand, card_text, category_names, dealt_layout, editor_labels, sort_for_display
from app.cards import CardRow, card_rows, hand_editor
from app.controls import field_select, four_colour, four_colour_toggle, players_select, rules_select
from app.errors import show_error
from app.fold import summary_label
from app.grading import GRADE_ICONS, grade_for, same_rows
from app.i18n import URL_PARAM, _, chart_locale, current_language, decimal, labels_now, ngettext, pgettext
from app.page_state import Codec, PageState, Param, field_in_link, table_params
from app.set_beside import set_beside_best
from app.settlement import pair_block, seat_totals
from app.share import share_deal
from app.terms import (
    field_label,
    grade_names,
    level_label,
    level_strength,
    level_strength_measured,
    preset_label,
    row_names,
    set_timer_sentence,
    special_label,
)
from solver import Card, parse_cards, special_hand, strongest_back_first
from solver.fields import DEFAULT_FIELD
from solver.hands import category_of
from solver.players import LEVELS
from solver.scoring import ROW_SIZES, Arrangement, is_valid
from solver.table import (
    MAX_HANDS,
    MAX_SEED,
    HandRecord,
    TableConfig,
    balances,
    history_csv,
    history_json,
    scoops,
    seed_and_number,
    settle_hand,
)

PRESET = "play_preset"
PLAYERS = "play_players"
FIELD = "play_field"
LEVEL = "play_level_{}"  # seat 1..3
TIMER = "play_timer"
SEED_TEXT = "play_seed_text"
LAYOUT = "play_layout"  # how a new hand's cards start: the beginner's set or as dealt
CONFIG = "play_config"  # TableConfig of the session
HAND = "play_hand"  # the hand being played: {"number", "hands", "sets", "replay_of", "deadline"}
ROWS = "play_rows"  # the page's copy of the editor's rows (survives a page switch)
RECORDS = "play_records"  # list[HandRecord]
SHOWN = "play_shown"  # index in RECORDS of the hand whose reveal is shown
REVEAL = "play_reveal"  # the Reveal button was pressed
REVEAL_ANYWAY = "play_reveal_anyway"  # the player confirmed revealing a foul
CONFIRM = "play_confirm_foul"  # Reveal was pressed on a foul: the page asks first
HINT_ASKED = "play_hint_asked"
SETTINGS_OPEN = "play_settings_open"  # the table settings expander is open
ERROR = "play_error"
TIMERS = {"Off": None, "60 s": 60, "90 s": 90, "120 s": 120}
LAYOUTS = ("beginner", "dealt")
#: The library's seat names are English ("You", "Club 2"): the page writes them in the player's language.
LEVEL_NAMES = {player.name: name for name, player in LEVELS.items()}

CATEGORIES = category_names()
ROW_TITLES = row_names()


def seat_name(name: str) -> str:
    """A seat's name from the library (``You``, ``Club 2``) in the player's language."""
    if name == "You":
        return _("You")
    level, _space, seat = name.rpartition(" ")
    return f"{level_label(LEVEL_NAMES.get(level, level))} {seat}" if level else name


def layout_label(layout: str) -> str:
    """How a new hand's cards start (the setting's choices)."""
    if layout == "dealt":
        return pgettext("first layout", "As dealt")
    return pgettext("first layout", "Beginner's set")


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
        "start": first_layout(hands[0], table, st.session_state.get(LAYOUT, "beginner")),
        "hint": None,  # [card, row] of the hint shown
        "hints": 0,
        "dealt_at": time.time(),  # the time taken is recorded with the hand
        "uid": recording.new_uid(),  # the hand's record is written once, however often Reveal runs
    }
    st.session_state.pop(ROWS, None)
    st.session_state.pop(SHOWN, None)
    st.session_state.pop(CONFIRM, None)


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
        LAYOUT: "beginner",
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
    st.session_state[SETTINGS_OPEN] = False  # the new session's hand is what to see now


def on_reveal() -> None:
    st.session_state[REVEAL] = True


def on_reveal_anyway() -> None:
    st.session_state.pop(CONFIRM, None)
    st.session_state[REVEAL_ANYWAY] = True


def on_keep_arranging() -> None:
    st.session_state.pop(CONFIRM, None)


def on_hint() -> None:
    st.session_state[HINT_ASKED] = True


def on_next() -> None:
    st.session_state["play_deal_next"] = True


def on_replay(number: int) -> None:
    st.session_state["play_replay"] = number


# --- reveal ---------------------------------------------------------------------------------------


def as_set(rows: tuple[list[str], list[str], list[str]]) -> tuple[Arrangement, bool]:
    """Your set from the editor's rows; rows of the wrong size (a timer that ran out
    mid-move) are cut again 3 + 5 + 5 in the order shown.  Returns (set, was recut)."""
    sizes = tuple(len(r) for r in rows)
    if sizes == ROW_SIZES:
        return Arrangement(rows[0], rows[1], rows[2]), False
    flat = [c for row in rows for c in row]
    return Arrangement(flat[:3], flat[3:8], flat[8:]), True


def best_set(hand: list[Card], table: TableConfig) -> dict[str, Any]:
    """The fast solver's answer for this hand at this table (the review's and the hint's)."""
    return engine.solve_hand(canonical_hand(hand), table.preset, table.players, "fast", table.field)


def review(hand: list[Card], mine: Arrangement, table: TableConfig, hints: int) -> dict[str, Any]:
    """Your set against the fast solver's best for this table and its opponents (the Practice
    page's grade), and how many hints you took."""
    text = canonical_hand(hand)
    best = best_set(hand, table)
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
        "hints": hints,
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
        review=review(hands[0], mine, table, int(hand.get("hints", 0))),
        timed_out=timed_out,
        recut=recut,
    )
    recording.play_hand(table, record, hand)  # committed before the reveal shows
    records().append(record)
    st.session_state[SHOWN] = len(records()) - 1
    st.session_state.pop(HAND, None)
    st.session_state.pop(ROWS, None)
    st.session_state.pop(CONFIRM, None)


def is_foul(rows: tuple[list[str], list[str], list[str]], hand: list[Card], table: TableConfig) -> bool:
    """True when the rows as they stand are a foul (a special hand never is: it wins however set)."""
    mine, _recut = as_set(rows)
    return special_hand(hand, table.rules) is None and not is_valid(mine, table.rules)


def foul_question(table: TableConfig) -> str:
    """What Reveal asks before a fouled set is shown (the price under these rules)."""
    rules = table.rules
    if rules.foul_mode == "flat":
        return _("Your set is a foul and pays {n} chi to everyone. Reveal anyway?").format(n=rules.foul_chi)
    return _("Your set is a foul and loses to everyone. Reveal anyway?")


# --- hints ----------------------------------------------------------------------------------------


def misplaced(rows: list[list[str]], best: Arrangement) -> tuple[str, int] | None:
    """One card that sits in another row than in the best set, and that row (back first,
    the strongest card first); None when every row already holds the best set's cards."""
    for target in (2, 1, 0):
        for card in (str(c) for c in sort_for_display(best.rows[target])):
            if card not in rows[target]:
                return card, target
    return None


def give_hint(hand: dict[str, Any], table: TableConfig) -> None:
    """Work out a hint for the rows as they stand and count it."""
    cards = parse_cards(hand["hands"][0])
    rows = st.session_state.get(ROWS) or hand["start"]
    found = misplaced([list(r) for r in rows], Arrangement.parse(best_set(cards, table)["best"]))
    hand["hint"] = list(found) if found else ["", -1]
    if found:
        hand["hints"] = int(hand.get("hints", 0)) + 1


def hint_text(hand: dict[str, Any]) -> str | None:
    """The hint shown, while the card it names is still out of its row."""
    hint = hand.get("hint")
    if not hint:
        return None
    card, row = hint
    if row < 0:
        return _("No hint needed: every row already holds the best set's cards.")
    rows = st.session_state.get(ROWS) or hand["start"]
    if card in rows[row]:
        return None
    return _("Hint: {card} belongs in your {row}.").format(
        card=card_text(parse_cards(card)[0]), row=editor_labels()[("front_word", "middle_word", "back_word")[row]]
    )


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


def show_seats(record: HandRecord, index: int, seats: range | list[int], scroll: bool = False) -> None:
    rules = record.rules
    for seat in seats:
        arrangement = record.arrangement(seat)
        kinds = [CATEGORIES[category_of(k)] for k in arrangement.keys(rules)]
        st.html(seat_html(record, seat, kinds))
        rows = [CardRow(cards=[str(c) for c in row]) for row in arrangement.rows]
        # the reveal contract sits on the element holding the seat's cards
        contract = {"data-seat": str(seat), "data-rows": record.sets[seat], "data-chi": str(record.totals[seat])}
        card_rows(
            rows,
            key=f"play_seat_{index}_{seat}",
            compact=True,
            four_colour=four_colour(),
            attrs=contract,
            # the reveal comes into view on a phone (the Reveal button sat below the cards)
            scroll=f"reveal {index}" if scroll and seat == 0 else None,
        )


def show_settlement(record: HandRecord, index: int, fold_others: bool = True) -> None:
    """Each seat's chi and balance on top, then one block per opponent from your side, then
    the pairs between computer seats (folded away unless ``fold_others`` is False)."""
    n, names = record.players, [seat_name(s) for s in record.seats]
    counted = [r for r in records()[: index + 1] if r.replay_of is None]
    running = balances(counted)[-1] if record.replay_of is None and counted else None
    st.markdown("**" + _("Settlement") + "**")
    st.html(seat_totals(names, record.totals, running))
    seat_cards = [[list(row) for row in record.arrangement(s).rows] for s in range(n)]
    blocks = [
        pair_block(record.settlement(0, j), names[0], names[j], seat_cards[j], four_colour()) for j in range(1, n)
    ]
    st.html("".join(blocks))
    others = [(i, j) for i in range(1, n) for j in range(i + 1, n)]
    if others:
        between = "".join(
            pair_block(record.settlement(i, j), names[i], names[j], seat_cards[j], four_colour()) for i, j in others
        )
        if fold_others:
            with st.expander(_("Between the computer players")):
                st.html(between)
        else:
            st.markdown(_("Between the computer players"))
            st.html(between)
    st.caption(_("Totals sum to {total}: what one seat wins, the others pay.").format(total=sum(record.totals)))


def show_review(record: HandRecord) -> None:
    """The grade of your set, the chi lost and the hints taken, in one line."""
    rev = record.extra.get("review")
    if not rev:
        return
    grade = str(rev["grade"])
    name = grade_names()[grade]
    text = _("{icon} **{grade}** · your EV {ev} vs best {best}").format(
        icon=GRADE_ICONS[grade],
        grade=name[:1].upper() + name[1:],
        ev=decimal(rev["ev"], 2, signed=True),
        best=decimal(rev["best_ev"], 2, signed=True),
    )
    if grade not in ("best", "foul"):
        text += " " + _("({lost} chi lost)").format(lost=decimal(rev["lost"], 2))
    hints = int(rev.get("hints", 0))
    if hints:
        text += " · " + ngettext("{n} hint taken", "{n} hints taken", hints).format(n=hints)
    st.markdown(text)


def show_best_set(record: HandRecord, index: int) -> None:
    """Your set beside the best set (the moved cards ringed), with the links to study it."""
    rev = record.extra.get("review")
    if not rev:
        return
    mine, best = record.arrangement(0), Arrangement.parse(str(rev["best"]))
    if not same_rows(mine, best) and not record.specials[0]:
        set_beside_best(mine, best, record.rules, key=f"play_review_{index}", small=True)
    field = str(rev.get("field", DEFAULT_FIELD))
    notes = [_("graded against these opponents: {field}").format(field=field_label(field))]
    if record.extra.get("timed_out"):
        notes.append(_("time ran out: your set as it stood was played"))
    # the links open a new tab (a fresh session reads the link), so the table stays as it is
    params = {
        "preset": record.preset,
        "players": str(record.players),
        **field_in_link(field),
        URL_PARAM: current_language(),
    }
    solve_link = urlencode({"hand": record.hands[0], **params, "mode": "fast"})
    # the link words are marked outside the f-string, where the message extraction finds them
    to_solve, to_practice = _("Open on Solve"), _("Open on Practice")
    links = [f"[{to_solve}](solve?{solve_link})"]
    if record.deal_seed is not None:  # a hand recorded without its deck seed opens on Solve only
        # hand n of session S is dealt as hand n of Practice's drill S
        session_seed, number = seed_and_number(record.deal_seed)
        practice_link = urlencode({"seed": session_seed, "hand": number, **params})
        links.append(f"[{to_practice}](practice?{practice_link})")
    st.markdown(" · ".join([*notes, *links]))


def show_reveal(index: int) -> None:
    record = records()[index]
    st.subheader(hand_title(record.number, record.replay_of))
    show_seats(record, index, [0], scroll=True)
    show_review(record)
    st.button(_("Deal the next hand"), type="primary", key="play_next", on_click=on_next)
    show_settlement(record, index)
    show_best_set(record, index)
    show_seats(record, index, range(1, record.players))


def hand_title(number: int, replay_of: int | None) -> str:
    if replay_of:
        return _("Hand {number} (replay of hand {original})").format(number=number, original=replay_of)
    return _("Hand {number}").format(number=number)


def show_session() -> None:
    counted = [r for r in records() if r.replay_of is None]
    with st.container(horizontal=True, vertical_alignment="center"):
        st.subheader(_("This session"))
        table = config()
        share_deal(
            [_("Session seed {seed}: the same seed deals the same hands.").format(seed=table.seed)],
            st.query_params.to_dict(),
            key="play_share",
        )
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
            # the axis name is the chart's title, written across: a vertical one longer than a
            # phone's short plot was cut at its edge ("balance (chi")
            y=alt.Y("chi:Q", title=None),
            # two seats a line: four seat names in one line run off a phone (Vietnamese, Khmer)
            color=alt.Color("seat:N", sort=list(seats), legend=alt.Legend(orient="bottom", title=None, columns=2)),
            tooltip=[
                alt.Tooltip("hand:Q", title=_("hand")),
                alt.Tooltip("seat:N", title=_("Seat")),
                alt.Tooltip("chi:Q", title=pgettext("column", "Chi")),
            ],
        )
    )
    chart = chart.properties(title=alt.TitleParams(_("balance, chi"), anchor="start", fontSize=12, fontWeight="normal"))
    st.altair_chart(chart.configure(locale=chart_locale()), height=280)


def show_history() -> None:
    """Every hand of the session, newest first: your set as cards, its settlement, a replay."""
    hands = records()
    if not hands:
        return
    table = config()
    grades = grade_names()
    st.subheader(ngettext("History ({n} hand)", "History ({n} hands)", len(hands)).format(n=len(hands)))
    for index in range(len(hands) - 1, -1, -1):
        r = hands[index]
        grade = grades.get((r.extra.get("review") or {}).get("grade", ""), "")
        title = hand_title(r.number, r.replay_of) + " · " + _("{n} chi").format(n=signed(r.totals[0]))
        if grade:
            title += f" · {grade}"
        with st.container(border=True, key=f"play_history_{index}"):
            st.markdown(f"**{title}**")
            card_rows(
                [CardRow(cards=[str(c) for c in row]) for row in r.arrangement(0).rows],
                key=f"play_history_cards_{index}",
                compact=True,
                four_colour=four_colour(),
            )
            with st.expander(_("Settlement")):
                show_settlement(r, index, fold_others=False)
            st.button(
                _("Replay this hand"), key=f"play_replay_{index}", on_click=on_replay, args=(r.replay_of or r.number,)
            )
    st.caption(
        _(
            "A replay deals the same cards to every seat, the computer players set them as before; "
            "it is settled and kept in the history but not counted in the balance."
        )
    )
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


@st.fragment(run_every=1)
def countdown(deadline: float) -> None:
    """The time left on this hand; when it runs out, the whole page reruns and submits."""
    left = deadline - time.time()
    if left <= 0:
        st.rerun(scope="app")
    st.caption(set_timer_sentence().format(seconds=f"{left:.0f}"))


def first_layout(cards: list[Card], table: TableConfig, layout: str) -> list[list[str]]:
    """How a new hand's cards start: the beginner's set (strongest five in the back, the
    next five in the middle: always a valid set), or as dealt (high to low from the back)."""
    if layout == "dealt":
        rows = dealt_layout(cards)
    else:
        rows = [list(row) for row in strongest_back_first(cards, table.rules).rows]
    return [[str(c) for c in sort_for_display(row)] for row in rows]


def show_hand() -> None:
    table, hand = config(), st.session_state[HAND]
    hands = [parse_cards(h) for h in hand["hands"]]
    if st.session_state.pop(HINT_ASKED, False):
        give_hint(hand, table)
    st.subheader(hand_title(hand["number"], hand["replay_of"]))
    special = special_hand(hands[0], table.rules)
    if special:
        st.info(
            _("You hold a special hand: {special}. It wins automatically, whatever the set.").format(
                special=special_label(special)
            )
        )
    hint = hint_text(hand)
    result = hand_editor(
        hand.get("start") or first_layout(hands[0], table, "dealt"),
        key=f"play_editor_{table.seed}_{hand['number']}_{hand['replay_of'] or 0}",
        labels=editor_labels(),
        categories=CATEGORIES,
        rows_key=ROWS,
        wheel=table.rules.wheel,
        strict=table.rules.strict,
        special=special_label(special) if special else None,
        marked=[hand["hint"][0]] if hint and hand.get("hint") and hand["hint"][1] >= 0 else [],
        four_colour=four_colour(),
        scroll=True,
    )
    deadline = hand["deadline"]
    timed_out = deadline is not None and time.time() >= deadline
    if deadline is not None and not timed_out:
        countdown(deadline)
    pressed, anyway = st.session_state.pop(REVEAL, False), st.session_state.pop(REVEAL_ANYWAY, False)
    if pressed and not timed_out and is_foul(result.rows, hands[0], table):
        st.session_state[CONFIRM] = True  # a foul is never revealed by accident: ask first
        pressed = False
    if pressed or anyway or timed_out:
        try:
            reveal(result.rows, timed_out)
        except ValueError as exc:
            show_error(exc)
        else:
            st.rerun()
    if hint:
        st.info(hint, icon="💡")
    if st.session_state.get(CONFIRM):
        with st.container(border=True, key="play_confirm_box"):
            st.warning(foul_question(table), icon="⚠️")
            with st.container(horizontal=True):
                st.button(_("Reveal anyway"), type="primary", key="play_reveal_anyway", on_click=on_reveal_anyway)
                st.button(_("Keep arranging"), key="play_keep_arranging", on_click=on_keep_arranging)
    else:
        with st.container(horizontal=True):
            st.button(_("Reveal"), type="primary", key="play_reveal_button", on_click=on_reveal)
            st.button(
                _("Hint"), key="play_hint_button", on_click=on_hint, icon="💡", disabled=bool(special),
                help=_("Shows one card that sits in another row in the best set (counted in the review)."),
            )  # fmt: skip
    others = ", ".join(seat_name(name) for name in table.seat_names()[1:])
    st.caption(_("{players}: set, face down.").format(players=others))


def levels_caption() -> str:
    """Each computer level and how strong it plays, a line each, then where that was measured."""
    lines = [
        _("{label}: {meaning}").format(label=f"**{level_label(level)}**", meaning=level_strength(level))
        for level in LEVELS
    ]
    return "  \n".join(lines) + "\n\n" + level_strength_measured()


def settings_summary(table: TableConfig) -> str:
    """The session's table in one line (the folded settings' label)."""
    timer = st.session_state.get(TIMER, "Off")
    return _("{rules} rules · {players} · opponents: {field} · timer {timer} · change").format(
        rules=preset_label(table.preset),
        players=", ".join(seat_name(name) for name in table.seat_names()[1:]),
        field=field_label(table.field),
        timer=timer_label(timer),
    )


# --- page ---------------------------------------------------------------------------------------

st.title(pgettext("page", "Play"))
st.caption(_("A table against computer players: arrange your 13 cards, press Reveal, see who pays whom."))
follow_link()
pending = st.session_state.pop("play_pending", None)
if pending is not None:
    start_session(pending)
if CONFIG not in st.session_state:  # a session starts at once: the cards come first, the settings fold away
    start_session(settings_config(engine.new_seed()))

with st.expander(summary_label(SETTINGS_OPEN, settings_summary(config())), key=SETTINGS_OPEN, on_change="rerun"):
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
    st.caption(levels_caption())
    field_select(FIELD)
    col_timer, col_seed = st.columns([1.4, 1])  # the timer words are long in Khmer
    with col_timer:
        st.segmented_control(
            _("Timer per hand"), list(TIMERS), key=TIMER, required=True, format_func=labels_now(timer_label, TIMERS)
        )
    with col_seed:
        st.text_input(_("Session seed (empty: random)"), key=SEED_TEXT, help=_("The same seed deals the same hands."))
    st.segmented_control(
        _("Your cards start as"), list(LAYOUTS), key=LAYOUT, required=True,
        format_func=labels_now(layout_label, LAYOUTS),
        help=_("Beginner's set: strongest five in the back, the next five in the middle (never a foul). "
               "As dealt: high to low from the back, which is often a foul."),
    )  # fmt: skip
    four_colour_toggle("play")
    st.button(_("Start a new session"), key="play_new", on_click=on_new_session)
    st.caption(
        _(
            "Club and Expert play against the opponents chosen, and your set is graded against them; "
            "the Expert also knows which level sits in each seat. Rules, players, levels and opponents "
            "apply when a new session starts; the timer and how your cards start from the next hand."
        )
    )
STATE.remember()

if st.session_state.get(ERROR):
    show_error(st.session_state[ERROR])
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

if HAND in st.session_state:
    show_hand()
elif st.session_state.get(SHOWN) is not None:
    show_reveal(st.session_state[SHOWN])
show_session()
show_history()
STATE.end()
