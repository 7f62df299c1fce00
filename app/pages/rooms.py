"""Rooms page: a private Mau Binh table for 2-4 people, each on their own phone.

The host creates a room (rules, seats, opponents the computers assume, timer) and shares
its code, its link or its QR code; friends open the link (``?room=<code>``) and take a
free seat under a name.  The host puts computer players in the empty seats (or leaves
Start to fill them with Club players) and presses **Start**.  Each person arranges their
13 cards with Play's card editor and presses **Reveal**; when everyone has revealed (or
the timer ran out) everyone sees the same reveal and settlement (``score_table``), the
running balances, and anyone seated deals the next hand.  That reveal stays on every
screen, under the next hand's cards, until the next hand is settled: a person whose page
polled only after someone else dealt again still sees it.

The page only draws: the room lives in the store (:mod:`rooms`), and what the page sends
to the browser comes from :func:`rooms.table.seat_view`, which holds no other seat's cards
of the hand in play before its settlement.  The room's changes are pushed
(:mod:`app.room_push`): the room reruns as soon as its version moves, and at least every
5 s (every second while the push is down, and just after a deadline) to say the page is
open, settle a hand whose timer ran out and catch anything missed.
"""

from __future__ import annotations

import html
import io
import re
import time
from collections.abc import Sequence

import segno
import streamlit as st

from app.card_text import category_names, editor_labels
from app.cards import CardRow, TableEvent, card_rows, hand_editor, macao_table
from app.controls import field_select, four_colour, rules_select
from app.errors import show_error
from app.i18n import _, labels_now, ngettext, pgettext
from app.macao_log import since_your_turn
from app.macao_table import seat_action, seat_table
from app.page_state import remember, restore
from app.profile import available_store
from app.room_push import follow
from app.room_seat import hold, keep_in_browser, seat_token
from app.settlement import pair_block, seat_totals
from app.terms import bot_label, end_label, level_label, preset_label, set_timer_sentence, stacking_label
from macao import Phase
from macao.actions import Accept, Action, Draw, KeepDrawn, Pass, PlayDrawn
from macao.bots import BOTS
from rooms import (
    IDLE_SECONDS,
    MATCH_LENGTHS,
    NAME_LENGTH,
    TIMERS,
    TURN_TIMERS,
    InvalidRoomCode,
    MacaoSeatView,
    MacaoSettings,
    NotSeated,
    RoomError,
    RoomFull,
    Rooms,
    SeatView,
    Settings,
    StaleAction,
    TooManyRoomAttempts,
    UnknownRoom,
    format_room_code,
    parse_room_code,
)
from solver.cards import Card, Rank
from solver.fields import DEFAULT_FIELD
from solver.players import LEVELS
from solver.table import HandRecord
from store import get_store

GAME = "rooms_game"
GAMES = ("mau_binh", "macao")
PRESET = "rooms_preset"
SEATS = "rooms_seats"
FIELD = "rooms_field"
TIMER = "rooms_timer"
TURN_TIMER = "rooms_turn_timer"
MACAO_OPTIONS = {  # session key: (Rules field, default)
    "rooms_macao_start_cards": ("start_cards", 5),
    "rooms_macao_jokers": ("jokers", True),
    "rooms_macao_stacking": ("stacking", "matching"),
    "rooms_macao_ace_wild": ("ace_wild", True),
    "rooms_macao_end_mode": ("end_mode", "last_loses"),
}
MATCH_ROUNDS = "rooms_macao_rounds"  # the rounds of a Macao room's match
DECLARE = "rooms_macao_declare_{}"  # code: this seat says Macao! with its next play
STACKING = ("matching", "any", "none")
END = ("last_loses", "first_wins")
NAME = "rooms_name"
CODE_INPUT = "rooms_code_input"
ERROR = "rooms_error"
ROWS = "rooms_rows_{}_{}"  # code, hand number: the editor's rows (the page's copy)
CATEGORIES = category_names()
#: Seconds between two notes that this seat's page is open (the room marks a page quiet
#: for a minute away).
HEARTBEAT_SECONDS = 5


@st.cache_resource
def service() -> Rooms:
    """The process's one room service (its code-lookup limit is per process)."""
    return Rooms(get_store())


def game_label(game: str) -> str:
    return {"mau_binh": "Mau Binh", "macao": "Macao"}.get(game, game)


def timer_label(seconds: int | None) -> str:
    return pgettext("timer", "Off") if seconds is None else _("{seconds} s").format(seconds=seconds)


def seat_label(view: SeatView | MacaoSeatView, seat: int) -> str:
    """A seat's name as this player reads it (plain text: escape it where it is drawn)."""
    s = view.seats[seat]
    if s.kind == "computer" and isinstance(view, MacaoSeatView):
        return f"{bot_label(s.level or 'normal')} {seat + 1}"
    if s.kind == "computer":
        return f"{level_label(s.level or 'club')} {seat + 1}"
    if s.kind == "open":
        return _("Open seat {n}").format(n=seat + 1)
    return s.name or _("Player {n}").format(n=seat + 1)


def problem_text(problem: Exception) -> str:
    """A room problem in the player's language."""
    if isinstance(problem, TooManyRoomAttempts):
        return _("Too many wrong room codes were tried; wait a minute and try again.")
    if isinstance(problem, InvalidRoomCode):
        return _("A room code is 10 letters and digits, like 7KQ2M-9X0AB.")
    if isinstance(problem, UnknownRoom):
        return _(
            "There is no room with this code: the code is wrong, or the room expired after {hours} hours "
            "without a move."
        ).format(hours=IDLE_SECONDS // 3600)
    if isinstance(problem, RoomFull):
        return _("This room is full: every seat is taken.")
    if isinstance(problem, NotSeated):
        return _("This browser holds no seat in this room.")
    if isinstance(problem, StaleAction):
        return _("That was already done (another player was quicker); the room is shown as it is now.")
    return _("The room refused this: {reason}").format(reason=str(problem))


def set_error(problem: Exception) -> None:
    st.session_state[ERROR] = problem_text(problem)


# --- callbacks --------------------------------------------------------------------------------


def on_create() -> None:
    settings: Settings | MacaoSettings
    if st.session_state.get(GAME) == "macao":
        options = {field: st.session_state[key] for key, (field, _default) in MACAO_OPTIONS.items()}
        settings = MacaoSettings(int(st.session_state[SEATS]), options, st.session_state[TURN_TIMER],
                                 int(st.session_state.get(MATCH_ROUNDS, 1)))  # fmt: skip
    else:
        settings = Settings(
            preset=st.session_state[PRESET],
            seats=int(st.session_state[SEATS]),
            field=st.session_state[FIELD],
            timer=st.session_state[TIMER],
        )
    code, token = service().create(settings, st.session_state.get(NAME, ""))
    hold(code, token)
    st.query_params["room"] = code


def on_open_code() -> None:
    text = st.session_state.get(CODE_INPUT, "")
    st.query_params["room"] = text.strip()[:40]


def on_rename(code: str, token: str) -> None:
    act("rename", code, token, st.session_state.get(f"rooms_name_{code}", ""))


def act(what: str, code: str, token: str, *args: object) -> None:
    """Run one room action, keeping what went wrong for the next draw."""
    try:
        getattr(service(), what)(code, token, *args)
    except StaleAction:
        if what not in ("next_hand", "next_round", "start"):  # another player dealt first: nothing to say
            st.session_state[ERROR] = problem_text(StaleAction(""))
    except RoomError as exc:
        set_error(exc)


def on_save_draft(code: str, token: str, number: int) -> None:
    rows = st.session_state.get(ROWS.format(code, number))
    if rows is not None:
        act("save_draft", code, token, number, rows)


def on_reveal(code: str, token: str, number: int, rows_key: str, drawn: list[list[str]]) -> None:
    """Play the rows as they stand: the page's copy, which every move updated, else as drawn."""
    rows = st.session_state.get(rows_key)
    act("reveal", code, token, number, rows if rows is not None else drawn)


def on_computer(code: str, token: str, seat: int) -> None:
    level = st.session_state.get(f"rooms_level_{code}_{seat}")
    act("set_computer", code, token, seat, None if level == "open" else level)


def on_leave_room() -> None:
    st.query_params.pop("room", None)


# --- drawing ----------------------------------------------------------------------------------


def lobby() -> None:
    """Create a room, or open one by its code."""
    restore(PRESET, "vietnamese")
    restore(SEATS, 4)
    restore(FIELD, DEFAULT_FIELD)
    restore(TIMER, None)
    restore(TURN_TIMER, 60)
    restore(GAME, "mau_binh")
    for key, (_field, default) in MACAO_OPTIONS.items():
        restore(key, default)
    restore(NAME, "")
    st.text_input(_("Your name"), key=NAME, max_chars=NAME_LENGTH, placeholder=_("Shown to the other players"))
    with st.container(border=True):
        st.subheader(_("New room"))
        st.segmented_control(_("Game"), GAMES, key=GAME, required=True, format_func=game_label)
        st.segmented_control(_("Seats"), [2, 3, 4], key=SEATS, required=True)
        if st.session_state[GAME] == "macao":
            macao_options()
        else:
            rules_select(PRESET)
            field_select(FIELD)
            st.segmented_control(
                _("Timer per hand"), list(TIMERS), key=TIMER, required=True, format_func=labels_now(timer_label, TIMERS)
            )
        st.button(_("Create a room"), type="primary", key="rooms_create", on_click=on_create)
    remember(NAME, GAME, PRESET, SEATS, FIELD, TIMER, TURN_TIMER, *MACAO_OPTIONS)
    with st.container(border=True):
        st.subheader(_("Join a room"))
        st.text_input(_("Room code"), key=CODE_INPUT, max_chars=20, placeholder="7KQ2M-9X0AB")
        st.button(_("Open the room"), key="rooms_open", on_click=on_open_code)


def macao_options() -> None:
    """The Macao options a room plays with (as on the Macao page)."""
    st.slider(_("Starting cards"), 5, 10, key="rooms_macao_start_cards")
    c1, c2 = st.columns(2)
    c1.toggle(_("Jokers"), key="rooms_macao_jokers", help=_("Black joker: draw 5, red joker: draw 10"))
    c2.toggle(_("Ace is wild"), key="rooms_macao_ace_wild")
    st.selectbox(_("Stacking"), STACKING, format_func=labels_now(stacking_label, STACKING), key="rooms_macao_stacking")
    st.selectbox(_("End of round"), END, format_func=labels_now(end_label, END), key="rooms_macao_end_mode")
    st.segmented_control(
        _("Time per turn"), list(TURN_TIMERS), key=TURN_TIMER, required=True,
        format_func=labels_now(timer_label, TURN_TIMERS),
    )  # fmt: skip
    restore(MATCH_ROUNDS, 1)
    st.segmented_control(
        _("Match"), list(MATCH_LENGTHS), key=MATCH_ROUNDS, required=True,
        format_func=labels_now(rounds_label, MATCH_LENGTHS),
        help=_("Several rounds with a running score: each round scores the number of players minus your place; "
               "the highest total wins."),
    )  # fmt: skip
    remember(MATCH_ROUNDS)
    st.caption(
        _("When a person's time runs out, a draw is played for them. Say Macao! with the play that leaves you "
          "one card: anyone who catches you without it makes you draw {n}.").format(n=5)
    )  # fmt: skip


def rounds_label(rounds: int) -> str:
    return ngettext("{n} round", "{n} rounds", rounds).format(n=rounds)


def invite(code: str, open_seats: int) -> None:
    """The room's code, link (with a copy button) and QR code."""
    title = _("Room {code}").format(code=format_room_code(code))
    st.html(
        f'<div data-room-code="{html.escape(code)}" style="font-size:1.4rem;font-weight:700;letter-spacing:.08em">'
        f"{html.escape(title)}</div>"
    )
    base = str(st.context.url or "").split("?")[0]
    link = f"{base}?room={code}"
    with st.expander(_("Invite friends"), expanded=open_seats > 0):
        st.caption(_("Share the link or the QR code; the code alone works too, on the Rooms page."))
        st.code(link, language=None, wrap_lines=True)
        st.image(qr_png(link), width=200)


@st.cache_data(max_entries=1024, show_spinner=False)
def qr_png(link: str) -> bytes:
    """The link's QR code as PNG (made once per link: every redraw of the room shows it)."""
    png = io.BytesIO()
    segno.make(link, error="m").save(png, kind="png", scale=5, border=2)
    return png.getvalue()


def seats_list(view: SeatView | MacaoSeatView) -> None:
    """Who sits where and what they are doing (names as plain text)."""
    statuses = {
        "open": _("open"),
        "arranging": _("arranging…"),
        "revealed": _("revealed"),
        "away": _("away: a computer plays for them"),
        "computer": _("computer player"),
        "present": _("at the table"),
        "turn": _("to play"),
    }
    lines = []
    for s in view.seats:
        you = " · " + _("you") if s.seat == view.seat else ""
        host = " · " + _("host") if s.seat == 0 else ""
        balance = view.balances[s.seat] if isinstance(view, SeatView) and view.hands_played else None
        chi = " · " + _("{n} chi").format(n=signed(balance)) if balance is not None else ""
        lines.append(
            f'<div class="room-seat-status"><b>{html.escape(seat_label(view, s.seat))}</b>'
            f"{html.escape(you + host)} — {html.escape(statuses.get(s.status, s.status))}{html.escape(chi)}</div>"
        )
    st.html("".join(lines))


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def choose_computers(view: SeatView | MacaoSeatView, token: str) -> None:
    """The host's choice of a computer player (or none yet) for each seat no person holds."""
    levels, label = (list(BOTS), bot_label) if isinstance(view, MacaoSeatView) else (list(LEVELS), level_label)
    options = ["open", *levels]
    labels = {"open": _("Open for a friend"), **{level: label(level) for level in levels}}
    for s in view.seats:
        if s.kind == "person":
            continue
        key = f"rooms_level_{view.code}_{s.seat}"
        st.session_state[key] = s.level if s.kind == "computer" else "open"
        st.selectbox(
            _("Seat {n}").format(n=s.seat + 1),
            options,
            key=key,
            format_func=labels_now(lambda o: labels[o], options),
            on_change=on_computer,
            args=(view.code, token, s.seat),
        )


def arrange(view: SeatView, token: str) -> None:
    """This seat's editor and Reveal button (own cards only)."""
    rows_key = ROWS.format(view.code, view.number)
    result = hand_editor(
        [list(r) for r in view.rows],
        key=f"rooms_editor_{view.code}_{view.number}",
        labels=editor_labels(),
        categories=CATEGORIES,
        rows=[list(r) for r in view.rows],
        rows_key=rows_key,
        four_colour=four_colour(),
        on_change=lambda: on_save_draft(view.code, token, view.number),
        attrs={"data-seat": str(view.seat)},
    )
    # revealed in the callback, before this page draws again: the other screens hear of it at once
    st.button(_("Reveal"), type="primary", key=f"rooms_reveal_{view.code}_{view.number}", on_click=on_reveal,
              args=(view.code, token, view.number, rows_key, [list(r) for r in result.rows]))  # fmt: skip


def waiting(view: SeatView) -> None:
    st.caption(_("Your set is in. Waiting for the others…"))
    card_rows([CardRow(cards=list(r)) for r in view.rows], key=f"rooms_mine_{view.code}_{view.number}",
              compact=True, four_colour=four_colour())  # fmt: skip


def settlement(view: SeatView, record: HandRecord, *, last: bool = False) -> None:
    """Every seat's set with the reveal contract (as on Play), then who pays whom and the balances.

    ``last``: the hand settled before the one being arranged, shown under it so that no one
    misses a reveal however fast the next hand was dealt.  Its cards were all revealed, but
    it must not pass for the reveal of the hand in play: every element of it sits under a
    ``data-last-hand="<number>"`` mark, and a seat is ``data-last-seat``, not ``data-seat``
    (``[data-seat="<n>"][data-chi]`` stays the sign that the hand in play is revealed).
    """
    mark = f' data-last-hand="{record.number}"' if last else ""

    def block(markup: str) -> None:
        st.html(f"<div{mark}>{markup}</div>")

    if last:
        st.divider()
        st.subheader(_("Last hand (hand {number})").format(number=record.number))
    else:
        st.subheader(_("Hand {number}").format(number=record.number))
    for seat in range(record.players):
        name, total = seat_label(view, seat), record.totals[seat]
        colour = "#2e7d32" if total > 0 else "#c62828" if total < 0 else "inherit"
        chi_text = _("{n} chi").format(n=signed(total))
        notes = []
        if record.fouls[seat]:
            notes.append(pgettext("grade", "foul"))
        if seat in record.extra.get("timed_out", []):
            notes.append(_("time ran out: the rows as they stood were played"))
        if seat in record.extra.get("stand_in", []):
            notes.append(_("away: a computer played this hand"))
        block(
            f'<div style="display:flex;flex-wrap:wrap;gap:.2em .6em;align-items:baseline"><b>{html.escape(name)}</b>'
            f'<span style="color:{colour};font-weight:700">{html.escape(chi_text)}</span>'
            f'<span style="opacity:.75">{html.escape(" · ".join(notes))}</span></div>'
        )
        where = {"data-last-hand": str(record.number), "data-last-seat": str(seat)} if last else {}
        where = where or {"data-seat": str(seat)}
        contract = {**where, "data-rows": record.sets[seat], "data-chi": str(record.totals[seat])}
        rows = [CardRow(cards=row.split()) for row in record.sets[seat].split(" | ")]
        kind = "last" if last else "seat"
        card_rows(rows, key=f"rooms_{kind}_{view.code}_{record.number}_{seat}", compact=True, four_colour=four_colour(),
                  attrs=contract)  # fmt: skip
    # who pays whom, from this seat's side first (score_table's line items, as on Play)
    n, me = record.players, view.seat
    names = [seat_label(view, s) for s in range(n)]
    st.markdown("**" + _("Settlement") + "**")
    block(seat_totals(names, record.totals, list(view.balances)))
    seat_cards = [[list(row) for row in record.arrangement(s).rows] for s in range(n)]
    mine = [pair_block(record.settlement(me, j), names[me], names[j], seat_cards[j], four_colour()) for j in range(n)
            if j != me]  # fmt: skip
    block("".join(mine))
    others = [(i, j) for i in range(n) for j in range(i + 1, n) if me not in (i, j)]
    if others:
        with st.expander(_("Between the other players")):
            block(
                "".join(
                    pair_block(record.settlement(i, j), names[i], names[j], seat_cards[j], four_colour())
                    for i, j in others
                )
            )
    st.caption(_("Settled by score_table: totals sum to {total}.").format(total=sum(record.totals)))


def history(view: SeatView | MacaoSeatView, token: str) -> None:
    """The room's settled hands, for its members (only between hands: cards come round again)."""
    if isinstance(view, SeatView) and not view.hands_played:
        return
    try:
        text = service().history(view.code, token)
    except RoomError as exc:
        show_error(problem_text(exc))
        return
    if isinstance(view, MacaoSeatView):
        st.download_button(_("Download JSON"), text, file_name=f"macao-room-{view.code}.json",
                           mime="application/json", key="rooms_json", on_click="ignore")  # fmt: skip
        return
    table_csv = service().history(view.code, token, "csv")
    name = f"mau-binh-room-{view.code}"
    with st.container(horizontal=True):
        st.download_button(_("Download JSON"), text, file_name=f"{name}.json", mime="application/json",
                           key="rooms_json", on_click="ignore")  # fmt: skip
        st.download_button(_("Download CSV"), table_csv, file_name=f"{name}.csv", mime="text/csv",
                           key="rooms_csv", on_click="ignore")  # fmt: skip


def countdown_sentence(view: SeatView | MacaoSeatView) -> str:
    """What happens to this seat when the room's deadline passes, with ``{seconds}`` left
    for the push element to count down."""
    if isinstance(view, SeatView):
        return set_timer_sentence()
    if view.legal:
        return _("⏱ {seconds} s left: you draw when the time runs out.")
    return _("⏱ {seconds} s until the table moves on.")


def heartbeat(code: str, token: str) -> None:
    """Tell the room this seat's page is open (at most every few seconds)."""
    key = f"rooms_heartbeat_{code}"
    if time.time() - st.session_state.get(key, 0.0) < HEARTBEAT_SECONDS:
        return
    try:
        service().heartbeat(code, token)
    except RoomError:
        return
    st.session_state[key] = time.time()


def poll(code: str, token: str) -> None:
    """What every run of the room does first: tell the room this page is open and let it move
    on (settle a hand whose time ran out, play for a quiet seat); the page's element asks for
    a run at least every few seconds (:mod:`app.room_push`)."""
    heartbeat(code, token)
    try:
        service().tick(code)
    except RoomError:  # the room expired: the whole page says so
        st.rerun(scope="app")


def legal_index(chosen: Action, legal: Sequence[Action]) -> int | None:
    """Where ``chosen`` is among the legal moves: the same move (the middle cards of a play in
    any order), said with Macao! as chosen when the move may be either, else as it is."""

    def same_cards(a: Action) -> bool:
        mine: tuple[Card, ...] = getattr(a, "cards", ())
        theirs: tuple[Card, ...] = getattr(chosen, "cards", ())
        if sorted(mine) != sorted(theirs) or mine[:1] != theirs[:1]:
            return False
        # the last card of a play sets the suit, except after Aces (named) and jokers (none)
        return mine[-1:] == theirs[-1:] or mine[-1].is_joker or mine[-1].rank == Rank.ACE

    same = [
        i
        for i, a in enumerate(legal)
        if type(a) is type(chosen) and same_cards(a) and getattr(a, "suit", None) == getattr(chosen, "suit", None)
    ]
    said = getattr(chosen, "declare", False)
    exact = [i for i in same if getattr(legal[i], "declare", False) == said]
    return next(iter(exact or same), None)


def md(text: str) -> str:
    """Plain text (a player's name) safe inside Markdown: every ASCII punctuation escaped."""
    return re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", text)


def note(text: str) -> None:
    """A caption-sized line of plain text (it may hold players' names): escaped, never Markdown."""
    st.html(f'<div style="font-size:.875rem;opacity:.75">{html.escape(text)}</div>')


def on_play(code: str, token: str, number: int, index: int) -> None:
    st.session_state.pop(DECLARE.format(code), None)  # said (or not) with this play
    act("play", code, token, number, index)


def on_macao(code: str, token: str, number: int, can_call: bool) -> None:
    """Macao!: catch the seat that kept one card without it, else say it with your next play."""
    if can_call:
        act("call_macao", code, token, number)
    else:
        key = DECLARE.format(code)
        st.session_state[key] = not st.session_state.get(key, False)


def match_score(view: MacaoSeatView, names: Sequence[str]) -> None:
    """The match's running score (as on the Macao page): points per player, best first, and
    the winner once the last round is over.  A single round has its placings only."""
    score = view.match
    if score is None or score.length == 1:
        return
    points = " · ".join(f"{md(names[s])} **{score.totals[s]}**" for s in score.standings())
    with st.container(key=f"rooms_macao_match_{view.code}"):
        if score.is_over:
            winner = score.winner if score.winner is not None else 0
            (st.success if winner == view.seat else st.info)(
                _("You won the match!") if winner == view.seat else _("{player} won the match.").format(
                    player=md(names[winner]))
            )  # fmt: skip
            st.markdown(_("**Final score:** {points}").format(points=points))
        elif view.phase == "over":
            st.markdown(_("**Match** after round {round} of {rounds}: {points}").format(
                round=score.played, rounds=score.length, points=points))  # fmt: skip
        else:
            st.markdown(_("**Match**, round {round} of {rounds}: {points}").format(
                round=score.played + 1, rounds=score.length, points=points))  # fmt: skip


def macao_calls(view: MacaoSeatView, names: Sequence[str]) -> None:
    """What this seat should know of Macao! calls: it forgot and may be caught, it was caught,
    or another seat forgot and may be caught now."""
    obs = view.observation
    assert obs is not None
    penalty = obs.rules.macao_penalty
    caught = [e for e in since_your_turn(obs.log, view.seat) if e.kind == "call" and e.target == view.seat]
    if obs.exposed == view.seat:
        st.warning(_("You kept one card without saying Macao!: until the next move, anyone may catch you and "
                     "you would draw {n}.").format(n=penalty))  # fmt: skip
    elif caught:
        st.warning(_("You were caught without Macao!: you drew {n}.").format(n=caught[-1].amount))
    elif view.can_call and obs.exposed is not None:
        note(_("{player} kept one card without saying Macao!: press Macao! to catch them before the next "
               "move.").format(player=names[obs.exposed]))  # fmt: skip


def macao_round(view: MacaoSeatView, token: str) -> None:
    """The Macao table as this seat sees it (its own hand, the others' card counts), its
    Macao! button, and the match's score; between rounds, the next round's button."""
    obs = view.observation
    assert obs is not None
    names = [seat_label(view, s) for s in range(len(view.seats))]
    declare_key = DECLARE.format(view.code)
    if not view.legal:
        st.session_state.pop(declare_key, None)  # Macao! is said on one's own turn, with its play
    declare = bool(st.session_state.get(declare_key))
    match_score(view, names)
    if view.dealer is not None and view.first is not None:
        note(_("Round {round} of {rounds}: {dealer} dealt, {player} plays first.").format(
            round=view.round, rounds=view.settings.rounds, dealer=names[view.dealer], player=names[view.first]
        ))  # fmt: skip
    facts = seat_table(obs, view.legal, names, declare=declare, four_colour=four_colour())

    def tapped(event: TableEvent) -> None:
        if event.move != obs.moves or not view.legal:
            return  # a tap on an earlier table
        chosen = seat_action(obs, list(view.legal), event, declare)
        if isinstance(chosen, str):
            st.session_state[ERROR] = chosen
            return
        index = legal_index(chosen, view.legal)
        if index is not None:
            on_play(view.code, token, view.number, index)

    macao_table(facts.table, key=f"rooms_macao_{view.code}", on_event=tapped)
    macao_calls(view, names)
    legal = list(view.legal)
    moves = st.container(horizontal=True, gap="small", key=f"rooms_macao_moves_{view.code}")
    if legal:  # the moves that are not a card: Draw, Accept, Pass, Keep it, Play it
        buttons: list[tuple[str, Action]] = []
        if obs.phase is Phase.AFTER_DRAW:
            drawn = next((a for a in legal if isinstance(a, PlayDrawn) and a.declare == declare), None)
            drawn = drawn or next((a for a in legal if isinstance(a, PlayDrawn)), None)
            if drawn is not None and drawn.suit is None:
                buttons.append((_("Play it"), drawn))
            buttons += [(pgettext("drawn card", "Keep it"), a) for a in legal if isinstance(a, KeepDrawn)]
        else:
            buttons += [(pgettext("button", "Draw"), a) for a in legal if isinstance(a, Draw)]
            accept = (
                _("Accept (draw {n})").format(n=obs.pending_draw) if obs.pending_draw else _("Accept (lose the turn)")
            )
            buttons += [(accept, a) for a in legal if isinstance(a, Accept)]
            buttons += [(pgettext("button", "Pass"), a) for a in legal if isinstance(a, Pass)]
        for i, (label, action) in enumerate(buttons):
            moves.button(label, key=f"rooms_move_{view.code}_{view.number}_{i}", on_click=on_play,
                         args=(view.code, token, view.number, legal.index(action)))  # fmt: skip
    if view.phase == "playing":
        exposed = obs.exposed
        label = (
            _("Macao! (catch {player})").format(player=md(names[exposed]))
            if view.can_call and exposed is not None
            else "Macao!"
        )
        moves.button(label, key=f"rooms_macao_call_{view.code}", on_click=on_macao,
                     args=(view.code, token, view.number, view.can_call), disabled=not (view.can_call or legal),
                     type="primary" if declare or view.can_call else "secondary")  # fmt: skip
        if declare and legal:
            st.caption(_("Macao! will be declared with your next play."))
    if view.phase == "over":
        st.subheader(_("Round over"))
        places = sorted(range(len(view.placings)), key=lambda s: view.placings[s])
        st.html("".join(f"<div>{view.placings[s]}. <b>{html.escape(names[s])}</b></div>" for s in places))
        if not view.match_over:
            st.button(_("Deal the next round"), type="primary", key=f"rooms_macao_next_{view.code}_{view.round}",
                      on_click=act, args=("next_round", view.code, token, view.round))  # fmt: skip


def held_seat(text: str) -> tuple[str, str] | None:
    """The room and token of the seat this browser already holds in room ``text``, if any (a
    seated player's page is not counted against the limit on looking codes up)."""
    try:
        code = parse_room_code(text)
    except InvalidRoomCode:
        return None
    token = seat_token(code)
    if token is None:
        return None
    try:
        service().seat_of(code, token)
    except RoomError:
        return None
    return code, token


def room(text: str) -> None:
    held = held_seat(text)
    if held is not None:
        code, token = held
    else:
        try:
            code = service().lookup(text).code
        except (InvalidRoomCode, UnknownRoom, TooManyRoomAttempts) as exc:
            show_error(problem_text(exc))
            st.button(_("Back to the rooms"), key="rooms_back", on_click=on_leave_room)
            lobby()
            return
        # opening a room's link takes its first free seat (the name can be changed below)
        try:
            _seat, token = service().join(code, st.session_state.get(NAME, ""))
        except RoomError as exc:
            show_error(problem_text(exc))
            st.button(_("Back to the rooms"), key="rooms_back", on_click=on_leave_room)
            return
        hold(code, token)
    keep_in_browser(code)
    st.session_state.pop(f"rooms_heartbeat_{code}", None)
    heartbeat(code, token)
    seat_page(code, token)


@st.fragment
def seat_page(code: str, token: str) -> None:
    """The room as this seat sees it.  A fragment, the page's only one: a push, the page's
    clock or an action of this seat reruns only this part of the page, not the app around it."""
    if st.query_params.get("room") is None:  # Leave the table cleared the room from the link
        st.rerun()
    if st.session_state.get(ERROR):
        show_error(st.session_state.pop(ERROR))
    poll(code, token)
    try:
        view, version = service().view(code, token)
    except RoomError:  # the room expired: the whole page says so
        st.rerun()
    if view.seats[view.seat].status == "away":
        act("come_back", code, token)
        st.rerun(scope="fragment")
    invite(code, sum(1 for s in view.seats if s.kind == "open") if view.phase == "lobby" else 0)
    if isinstance(view, MacaoSeatView):
        st.caption(
            _("Macao · {seats} seats · {timer} per turn").format(
                seats=view.settings.seats, timer=timer_label(view.settings.turn_timer)
            )
        )
    else:
        st.caption(
            _("{preset} rules · {seats} seats · timer {timer}").format(
                preset=preset_label(view.settings.preset), seats=view.settings.seats,
                timer=timer_label(view.settings.timer),
            )
        )  # fmt: skip
    seats_list(view)
    name_key = f"rooms_name_{code}"
    if name_key not in st.session_state:
        st.session_state[name_key] = view.seats[view.seat].name
    st.text_input(_("Your name"), key=name_key, max_chars=NAME_LENGTH, on_change=on_rename, args=(code, token),
                  placeholder=_("Shown to the other players"))  # fmt: skip
    follow(code, version, view.deadline_ms, countdown_sentence(view))
    if view.phase == "lobby":
        if view.host:
            st.caption(_("Wait for your friends, choose computer players for the other seats, then press Start."))
            choose_computers(view, token)
            st.button(_("Start"), type="primary", key="rooms_start", on_click=act, args=("start", code, token))
        else:
            st.caption(_("Waiting for the host to start."))
    elif isinstance(view, MacaoSeatView):
        macao_round(view, token)
        if view.phase == "over":
            history(view, token)
    elif view.phase == "arranging":
        st.subheader(_("Hand {number}").format(number=view.number))
        if view.revealed:
            waiting(view)
        else:
            arrange(view, token)
        if view.previous is not None:
            settlement(view, view.previous, last=True)
    elif view.last is not None:
        settlement(view, view.last)
        st.button(_("Deal the next hand"), type="primary", key=f"rooms_next_{code}_{view.number}", on_click=act,
                  args=("next_hand", code, token, view.number))  # fmt: skip
        history(view, token)
    st.button(_("Leave the table"), key="rooms_leave", on_click=leave, args=(code, token))


def leave(code: str, token: str) -> None:
    act("leave", code, token)
    on_leave_room()


# --- page -------------------------------------------------------------------------------------

st.title(_("Rooms"))
st.caption(_("A private table for 2 to 4 people, each on their own phone."))
if st.session_state.get(ERROR):
    show_error(st.session_state.pop(ERROR))
wanted = st.query_params.get("room")
if available_store() is None:  # rooms live in the database: without it there are none
    st.error(_("Rooms are kept in the app's database, which cannot be opened right now; try again later."))
elif wanted:
    room(wanted)
else:
    lobby()
