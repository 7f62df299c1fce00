"""Macao page: play practice rounds of Romanian Macao against 1-3 computer opponents.

The page shows, top to bottom: a short cheat sheet (the whole rules are on the Rules
page); the options (players, decks, starting cards, jokers, stop, stacking, ace wild,
start card, end mode, bot level, game speed, match length, guided hints, card design)
and a New round button; the match's running score when a match is on; the table,
drawn by the card component (``app.cards.macao_table``, built by ``app.macao_table``):
opponents with card backs and counts and each one's last move, the stock, the top card
and active suit, a pending penalty or wait, whose turn, and your hand fanned with the
playable cards lit (one tap plays a lit card when that play is unambiguous; otherwise
it is selected: tap cards of the same rank to add them, name the suit for an Ace, then
Play; a tap on a dim card says why it cannot go; in guided mode, why each lit card may
go); what happened since your last move; the buttons Draw, Accept, Pass, Keep it (after
a draw) and Macao! (declare with your play, or call an opponent who forgot); the move
log; the result and placings; statistics across rounds.

Bots move one action per rerun after the chosen delay, so the moves between your turns
play out one by one at the chosen speed; every action is saved in ``st.session_state``
first, so a click or a rerun never loses the round.  A match's score is kept as plain
data (:meth:`macao.match.MatchScore.to_dict`) under ``macao_match``.  Keys are prefixed
``macao_``; a tap on the table arrives as ``macao_event`` (a plain dict of
:class:`app.cards.TableEvent`), which tests may set too.  Tests may set ``macao_seed``,
``macao_deck_order`` (a scripted deck, top first) and ``macao_first_player`` before
starting a round.
"""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Any

import streamlit as st

from app import macao_log, recording
from app import macao_widgets as mw
from app.card_skins import skin_picker
from app.cards import TableEvent, macao_table
from app.controls import four_colour, four_colour_toggle
from app.errors import show_error
from app.i18n import _, decimal, labels_now, ngettext, pgettext
from app.i18n import percent as locale_percent
from app.macao_rules import bullets, cheat_sheet
from app.macao_table import action_for, table_view, why_illegal
from app.page_state import Codec, PageState
from app.terms import bot_label, end_label, stacking_label, start_label
from macao import (
    Accept,
    CallMacao,
    Draw,
    IllegalActionError,
    KeepDrawn,
    Pass,
    Phase,
    PlayDrawn,
    Rules,
    State,
    apply,
    interrupts,
    is_terminal,
    legal_actions,
    new_game,
    observe,
    placings,
)
from macao.bots import Bot, make_bot
from macao.match import InvalidMatchError, MatchScore
from macao.simulate import offer_calls
from macao.snapshot import random_from_list, random_to_list, state_from_dict, state_to_dict

HUMAN = 0
LEVELS = ("Random", "Easy", "Normal", "Hard")
SPEEDS = {"Instant": 0.0, "Fast": 0.3, "Normal": 0.8, "Slow": 1.6}




def speed_label(speed: str) -> str:
    labels = {
        "Instant": pgettext("speed", "Instant"),
        "Fast": pgettext("speed", "Fast"),
        "Normal": pgettext("speed", "Normal"),
        "Slow": pgettext("speed", "Slow"),
    }
    return labels.get(speed, speed)








def match_label(length: int) -> str:
    if not length:
        return _("Single rounds")
    return ngettext("Match of {n} round", "Match of {n} rounds", length).format(n=length)


MATCH_LENGTHS = (0, 3, 5, 7)
STACKING = ("matching", "any", "none")
START = ("redraw", "ignore")
END = ("last_loses", "first_wins")

GAME = "macao_game"
EVENT = "macao_event"
DECLARE = "macao_declare"
STATS = "macao_stats"
ERROR = "macao_error"
ROUND_NO = "macao_round_no"
BASE_SEED = "macao_seed"
DECK = "macao_deck_order"
FIRST = "macao_first_player"
MATCH = "macao_match"
GUIDED = "macao_guided"
GUIDED_TOUCHED = "macao_guided_touched"
LOG_SIZE = 14
OPTIONS = {
    "macao_players": 2, "macao_decks": 1, "macao_start_cards": 5, "macao_jokers": True, "macao_stop": True,
    "macao_stacking": "matching", "macao_ace_wild": True, "macao_start_card": "redraw",
    "macao_end_mode": "last_loses", "macao_level": "Normal", "macao_speed": "Normal",
}  # fmt: skip


def game_to_json(g: dict[str, Any]) -> dict[str, Any]:
    """The round in progress as JSON data (the engine state, the bots' generators, the bookkeeping)."""
    return {**g, "state": state_to_dict(g["state"]), "rngs": [random_to_list(r) for r in g["rngs"]]}


def game_from_json(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "state": state_from_dict(data["state"]), "rngs": [random_from_list(r) for r in data["rngs"]]}


#: The options, the round in progress and the statistics, kept for the profile (a reload or
#: a restart of the server finds the round where it was).
STATE = PageState(
    "macao",
    widgets=OPTIONS,
    kept=(GAME, STATS, ROUND_NO, BASE_SEED, DECLARE),
    codecs={GAME: Codec(game_to_json, game_from_json)},
)


# --------------------------------------------------------------------------- state helpers


def ss() -> Any:
    return st.session_state


def game() -> dict[str, Any] | None:
    found: dict[str, Any] | None = ss().get(GAME)
    if found is not None and not isinstance(found.get("state"), State):
        # Streamlit re-imports every project module when a source file changes (an update
        # of the app): a round saved before then holds objects of the old classes, which the
        # engine rightly refuses.  Say so and start afresh; the statistics are plain data.
        del ss()[GAME]
        ss()[ERROR] = _("The app was updated during your round, which cannot go on. Press New round to deal again.")
        return None
    return found


def current_rules() -> Rules:
    first = ss().get(FIRST, "random")
    return Rules(
        players=ss()["macao_players"], decks=ss()["macao_decks"], start_cards=ss()["macao_start_cards"],
        jokers=ss()["macao_jokers"], stop=ss()["macao_stop"], stacking=ss()["macao_stacking"],
        ace_wild=ss()["macao_ace_wild"], start_card=ss()["macao_start_card"], end_mode=ss()["macao_end_mode"],
        first_player=first,
    )  # fmt: skip


def seat_names(levels: list[str]) -> list[str]:
    """You, then each computer player as "P1 · Normal"."""
    return [_("You"), *(f"P{seat} · {bot_label(level)}" for seat, level in enumerate(levels, start=1))]


def match_score() -> MatchScore | None:
    """The match in play (None in single rounds, or when the saved score does not read)."""
    raw = ss().get(MATCH)
    if not isinstance(raw, dict):
        return None
    try:
        return MatchScore.from_dict(raw)
    except InvalidMatchError:
        return None


def next_match(players: int) -> None:
    """Before a deal: keep the match going, or start one (after the last, or with other options)."""
    length = int(ss().get("macao_match_length", 0) or 0)
    if not length:
        ss()[MATCH] = None
        return
    score = match_score()
    if score is None or score.is_over or score.players != players or score.length != length:
        ss()[MATCH] = MatchScore(players, length).to_dict()


def bots_for(levels: list[str]) -> list[Bot]:
    return [Bot(), *(make_bot(level) for level in levels)]  # seat 0 (you) never auto-calls


def start_round() -> None:
    """Callback of New round: deal with the current options (errors are shown, not raised)."""
    try:
        rules = current_rules()
        if BASE_SEED not in ss():
            ss()[BASE_SEED] = random.SystemRandom().randrange(10**9)
        number = ss().get(ROUND_NO, 0) + 1
        seed = f"{ss()[BASE_SEED]}:{number}"
        previous = game()
        dealer = None
        if previous is not None and previous["state"].rules.players == rules.players:
            dealer = (previous["state"].dealer + 1) % rules.players  # the deal rotates (§2.1)
        state = new_game(rules, seed, ss().get(DECK), dealer=dealer)
    except ValueError as e:
        ss()[ERROR] = _("Could not start a round: {reason}").format(reason=e)
        return
    level = ss()["macao_level"].lower()
    if number == 2 and not ss().get(GUIDED_TOUCHED):
        ss()[GUIDED] = False  # the guided hints are for a first round, unless the player chose them
    next_match(rules.players)
    ss()[ROUND_NO] = number
    ss()[GAME] = {
        "state": state,
        "levels": [level] * (rules.players - 1),
        "rngs": [random.Random(f"{seed}:bot:{s}") for s in range(rules.players)],
        "offered": None,  # the move number at which bots were last offered a Macao call
        "recorded": False,
        "round": number,
        "seed": seed,
        "started_at": time.time(),
    }
    ss()[DECLARE] = False
    ss()[ERROR] = None


def do(action: Any) -> None:
    """Apply the human's action; an illegal one leaves the round as it was and says why."""
    g = game()
    if g is None:
        return
    try:
        g["state"] = apply(g["state"], action)
    except IllegalActionError as e:
        ss()[ERROR] = why_illegal(g["state"], action, str(e))
        return
    ss()[ERROR] = None
    if not isinstance(action, CallMacao):
        ss()[DECLARE] = False


def on_table_event(event: TableEvent) -> None:
    """A tap on the table (callback): kept as plain data, acted on before the page draws."""
    ss()[EVENT] = {"kind": event.kind, "move": event.move, "action_id": event.action_id,
                   "cards": list(event.cards), "suit": event.suit}  # fmt: skip


def handle_table_event() -> None:
    g = game()
    raw = ss().pop(EVENT, None)
    if g is None or not isinstance(raw, dict):
        return
    action_id = raw.get("action_id")
    event = TableEvent(kind=str(raw.get("kind")), move=int(raw.get("move", -1)),
                       action_id=action_id if isinstance(action_id, int) else None,
                       cards=tuple(str(c) for c in raw.get("cards") or ()), suit=raw.get("suit"))  # fmt: skip
    action = action_for(g["state"], event, bool(ss().get(DECLARE)))
    if isinstance(action, str):
        ss()[ERROR] = action
    elif action is not None:
        do(action)


def macao_button() -> None:
    """Macao!: call an exposed opponent, or declare with your next play."""
    g = game()
    if g is None:
        return
    state: State = g["state"]
    calls = interrupts(state, HUMAN)
    if calls:
        do(calls[0])
    elif state.current == HUMAN and not is_terminal(state):
        ss()[DECLARE] = not ss().get(DECLARE, False)
    else:
        ss()[ERROR] = _("Nobody to catch: Macao! calls an opponent who kept one card without declaring.")


def bots_due(g: dict[str, Any]) -> bool:
    state: State = g["state"]
    if is_terminal(state):
        return False
    if state.exposed is not None and g["offered"] != state.moves:
        return True
    return state.current != HUMAN


def bot_step(g: dict[str, Any]) -> None:
    """One bot action: first a chance to call Macao on an exposed seat, then a move."""
    state: State = g["state"]
    bots = bots_for(g["levels"])
    if state.exposed is not None and g["offered"] != state.moves:
        g["offered"] = state.moves
        after = offer_calls(state, bots, g["rngs"])
        if after is not state:
            g["state"] = after
            return
    if state.current != HUMAN and not is_terminal(state):
        seat = state.current
        action = bots[seat].choose(observe(state, seat), legal_actions(state), g["rngs"][seat])
        g["state"] = apply(state, action)


def record_result(g: dict[str, Any]) -> None:
    if g["recorded"]:
        return
    state: State = g["state"]
    places = placings(state)
    base = ss().get(BASE_SEED)
    recording.macao_round(  # written to the store first: a result shown is a round kept
        options={**dataclasses.asdict(state.rules), "seed": str(g.get("seed")), "round": g["round"]},
        seed=base if isinstance(base, int) else None,
        players=state.rules.players,
        levels=g["levels"],
        result={"placings": places, "end": state.end_reason, "moves": state.moves},
        my_place=places[HUMAN],
        turns=state.moves,
        started=g.get("started_at"),
    )
    ss().setdefault(STATS, []).append(
        {"round": g["round"], "players": state.rules.players, "place": places[HUMAN],
         "bots": ", ".join(g["levels"]), "moves": state.moves, "end": state.end_reason}
    )  # fmt: skip
    score = match_score()
    if score is not None and not score.is_over and score.players == state.rules.players:
        ss()[MATCH] = score.add(places).to_dict()
    g["recorded"] = True


def show_match(score: MatchScore, names: list[str], between: bool) -> None:
    """The running score: rounds played, each player's points, and the winner at the end
    (``between``: the round on the table is over and counted)."""
    points = " · ".join(f"{names[s]} **{score.totals[s]}**" for s in score.standings())
    with st.container(key="macao_match_score"):
        if score.is_over:
            winner = score.winner
            (st.success if winner == HUMAN else st.warning)(
                _("You won the match!")
                if winner == HUMAN
                else _("{player} won the match.").format(player=names[winner or 0])
            )
            st.markdown(_("**Final score:** {points}").format(points=points))
        elif between:
            st.markdown(
                _("**Match** after round {round} of {rounds}: {points}").format(
                    round=score.played, rounds=score.length, points=points
                )
            )
        else:
            st.markdown(
                _("**Match**, round {round} of {rounds}: {points}").format(
                    round=score.played + 1, rounds=score.length, points=points
                )
            )


# --------------------------------------------------------------------------- the page

st.title("Macao")
with st.expander(_("How to play"), expanded=not ss().get(STATS)):
    st.markdown(bullets(*cheat_sheet()))
    st.caption(_("Every rule, with examples, is on the Rules page."))

STATE.begin()
ss().setdefault(STATS, [])
ss().setdefault(DECLARE, False)
ss().setdefault(GUIDED, True)
ss().setdefault("macao_match_length", 0)

choose = _("Choose an option")
with st.expander(_("Options"), expanded=game() is None):
    # one st.columns per line of options, so a phone (which stacks columns) keeps this order
    c1, c2, c3 = st.columns(3)
    c1.slider(_("Players"), 2, 4, key="macao_players", help=_("You and 1-3 computer opponents"))
    c2.slider(_("Decks"), 1, 4, key="macao_decks")
    c3.slider(_("Starting cards"), 5, 10, key="macao_start_cards")
    c1, c2, c3 = st.columns(3)
    c1.toggle(_("Jokers"), key="macao_jokers", help=_("Black joker: draw 5, red joker: draw 10"))
    c2.toggle(_("Stop (7 cancels a penalty)"), key="macao_stop")
    c3.toggle(_("Ace is wild"), key="macao_ace_wild")
    # two select boxes a line, with short labels, so none is cut
    c1, c2 = st.columns(2)
    c1.selectbox(_("Stacking"), STACKING, format_func=labels_now(stacking_label, STACKING), key="macao_stacking",
                 placeholder=choose,
                 help=_("Which draw cards may answer a draw penalty: matching ones (a 2 or 3 of the same suit "
                 "or rank; jokers on all), any draw card, or none (the penalty must be taken)."))  # fmt: skip
    c2.selectbox(_("Start card"), START, format_func=labels_now(start_label, START), key="macao_start_card",
                 placeholder=choose,
                 help=_("When the first card turned up is a special card: turn another, or keep it "
                 "without its effect."))  # fmt: skip
    c1, c2 = st.columns(2)
    c1.selectbox(_("End of round"), END, format_func=labels_now(end_label, END), key="macao_end_mode",
                 placeholder=choose)  # fmt: skip
    c2.selectbox(_("Bot level"), LEVELS, format_func=labels_now(bot_label, LEVELS), key="macao_level",
                 placeholder=choose)  # fmt: skip
    c1, c2 = st.columns(2)
    c1.selectbox(_("Game speed"), list(SPEEDS), format_func=labels_now(speed_label, SPEEDS), key="macao_speed",
                 placeholder=choose, help=_("Delay between computer moves"))  # fmt: skip
    c2.selectbox(_("Match"), MATCH_LENGTHS, format_func=labels_now(match_label, MATCH_LENGTHS),
                 key="macao_match_length", placeholder=choose,
                 help=_("Several rounds with a running score: each round scores the number of players minus "
                 "your place; the highest total wins."))  # fmt: skip
    st.toggle(_("Guided hints (why a card is lit)"), key=GUIDED,
              on_change=lambda: ss().__setitem__(GUIDED_TOUCHED, True))  # fmt: skip
    four_colour_toggle("macao")
    skin_picker("macao")
    st.caption(_("Option changes apply from the next round."))

st.button(_("New round"), key="macao_new", type="primary", on_click=start_round)

handle_table_event()
if ss().get(ERROR):
    show_error(ss()[ERROR])

g = game()
if g is None:
    st.info(_("Choose the options and press **{button}** to deal.").format(button=_("New round")))
else:
    state: State = g["state"]
    obs = observe(state, HUMAN)
    names = seat_names(g["levels"])
    if is_terminal(state):
        record_result(g)  # before the score is shown, so it counts this round
    score = match_score()
    if score is not None and score.players == obs.players:
        show_match(score, names, between=is_terminal(state))

    # --- the table: seats, piles, whose turn and your hand, in the card component
    facts = table_view(state, names, bool(ss()[DECLARE]), four_colour(), guided=bool(ss().get(GUIDED)))
    macao_table(facts.table, key="macao_table", on_event=on_table_event)
    legal = facts.legal

    # --- what the others did since your last move, in order (the seats show each one's last)
    since = [e for e in macao_log.since_your_turn(obs.log, HUMAN) if e.seat != HUMAN]
    if since and not obs.is_terminal:
        with st.container(key="macao_since"):
            st.caption(
                _("Since your last move: {moves}").format(
                    moves=" → ".join(macao_log.describe(e, mw.cards_line, you=HUMAN) for e in since[-8:])
                )
            )

    # --- the result
    if is_terminal(state):
        places = placings(state)
        verdict = (
            _("You won the round!")
            if places[HUMAN] == 1
            else _("You placed {place} of {players}.").format(place=places[HUMAN], players=obs.players)
        )
        (st.success if places[HUMAN] == 1 else st.warning)(verdict)
        order = sorted(range(obs.players), key=lambda s: places[s])
        st.markdown(
            _("**Placings:** {placings}").format(placings=" · ".join(f"{places[s]}. {names[s]}" for s in order))
        )
        if state.end_reason != "finish":
            st.caption(
                _("The round ended early ({reason}): players still holding cards rank by fewest cards.").format(
                    reason=macao_log.end_reason(state.end_reason or "")
                )
            )

    # --- the moves that are not a card: Draw, Accept, Pass, Keep it, Macao!
    moves = st.container(horizontal=True, gap="small", key="macao_moves")
    if obs.is_terminal:
        pass  # the round is over: New round above starts the next
    elif obs.phase is Phase.AFTER_DRAW and obs.current == HUMAN:
        drawn_is_ace = obs.drawn is not None and obs.drawn.rank == 14
        if not drawn_is_ace and any(isinstance(a, PlayDrawn) for a in legal):
            moves.button(_("Play it"), key="macao_play_drawn", type="primary", on_click=do,
                         args=(PlayDrawn(declare=bool(ss()[DECLARE])),))  # fmt: skip
        moves.button(pgettext("drawn card", "Keep it"), key="macao_keep", on_click=do, args=(KeepDrawn(),))
    else:
        moves.button(pgettext("button", "Draw"), key="macao_draw", on_click=do, args=(Draw(),),
                     disabled=Draw() not in legal)  # fmt: skip
        if Accept() in legal:
            label = (
                _("Accept (draw {n})").format(n=obs.pending_draw) if obs.pending_draw else _("Accept (lose the turn)")
            )
            moves.button(label, key="macao_accept", on_click=do, args=(Accept(),))
        if Pass() in legal:
            moves.button(pgettext("button", "Pass"), key="macao_pass", on_click=do, args=(Pass(),))
    can_call = bool(interrupts(state, HUMAN))
    macao_label = (
        _("Macao! (catch {player})").format(player=f"P{obs.exposed}")
        if can_call and obs.exposed is not None
        else "Macao!"
    )
    if not obs.is_terminal:
        moves.button(macao_label, key="macao_call", on_click=macao_button,
                     disabled=not (can_call or obs.current == HUMAN),
                     type="primary" if ss()[DECLARE] or can_call else "secondary")  # fmt: skip
    if ss()[DECLARE] and obs.current == HUMAN:
        st.caption(_("Macao! will be declared with your next play."))

    # --- the log (one keyed box, so a rerun replaces it instead of showing a stale copy)
    with st.container(key="macao_log"):
        st.markdown(_("**Moves**"))
        events = [macao_log.describe(e, mw.cards_line, you=HUMAN) for e in obs.log[-LOG_SIZE:]]
        st.code("\n".join(reversed(events)) or _("(nothing yet)"), language=None, wrap_lines=True)

# --- statistics across rounds
rounds = ss()[STATS]
if rounds:
    st.subheader(_("Your statistics"))
    wins = sum(1 for r in rounds if r["place"] == 1)
    losses = sum(1 for r in rounds if r["place"] == r["players"])
    with st.container(horizontal=True, gap="small"):
        st.metric(_("Rounds"), len(rounds), border=True, width="content")
        st.metric(_("Wins"), wins, locale_percent(wins / len(rounds)), delta_color="off", delta_arrow="off",
                  border=True, width="content")  # fmt: skip
        st.metric(_("Last place"), losses, border=True, width="content")
        st.metric(_("Average placing"), decimal(sum(r["place"] for r in rounds) / len(rounds)), border=True,
                  width="content")  # fmt: skip
    st.dataframe(
        [
            {
                _("Round"): r["round"],
                _("Players"): r["players"],
                _("Place"): r["place"],
                _("Bots"): ", ".join(bot_label(level) for level in r["bots"].split(", ")),
                _("Moves"): r["moves"],
                _("End"): macao_log.end_reason(r["end"] or ""),
            }
            for r in reversed(rounds)
        ],
        hide_index=True,
        width="stretch",
    )

STATE.end()

# --- computer moves: one action per rerun, after the chosen delay
g = game()
if g is not None and bots_due(g):
    time.sleep(SPEEDS.get(ss()["macao_speed"], 0.8))
    try:
        bot_step(g)
    except ValueError as e:  # should not happen; keep the round and say so
        ss()[ERROR] = _("A computer move failed: {reason}").format(reason=e)
    else:
        st.rerun()
