"""Macao page: play practice rounds of Romanian Macao against 1-3 computer opponents.

The page shows, top to bottom: the options (players, decks, starting cards, jokers,
stop, stacking, ace wild, start card, end mode, bot level, game speed) and a New round
button; the table (top card and active suit, a pending penalty or wait, each opponent's
card count, the stock); your hand as cards you click (click several of one rank to play
them together: the first must match, the last sets the suit); the moves (Play, Draw,
Accept, Pass, and after a draw Play it / Keep it), a suit chooser for Aces and the
Macao! button (declare with your play, or call an opponent who forgot); the move log;
the result and placings; statistics across rounds.

Bots move one action per rerun after the chosen delay; every action is saved in
``st.session_state`` first, so a click or a rerun never loses the round.  Keys are
prefixed ``macao_``.  Tests may set ``macao_seed``, ``macao_deck_order`` (a scripted
deck, top first) and ``macao_first_player`` before starting a round.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

import streamlit as st

ROOT = Path(__file__).resolve().parent.parent
# ``streamlit run app/macao.py`` (and AppTest.from_file) put app/ first on the path, where
# this very file would shadow the ``macao`` package: make the project root win.
if sys.path[:1] != [str(ROOT)]:
    sys.path.insert(0, str(ROOT))
if getattr(sys.modules.get("macao"), "__file__", None) == __file__:
    del sys.modules["macao"]

from app import macao_widgets as mw  # noqa: E402
from app.widgets import show_error  # noqa: E402
from macao import (  # noqa: E402
    Accept,
    CallMacao,
    Draw,
    IllegalActionError,
    KeepDrawn,
    Pass,
    Phase,
    Play,
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
from macao.bots import Bot, make_bot  # noqa: E402
from macao.simulate import offer_calls  # noqa: E402
from solver.cards import SUITS, Suit  # noqa: E402

HUMAN = 0
LEVELS = ("Random", "Easy", "Normal", "Hard")
SPEEDS = {"Instant": 0.0, "Fast": 0.3, "Normal": 0.8, "Slow": 1.6}
STACKING = {"matching": "Matching (2/3 on same suit or rank, jokers on all)", "any": "Any draw card",
            "none": "None (forced draw)"}  # fmt: skip
START = {"redraw": "Redraw special start cards", "ignore": "Keep it, ignore its effect"}
END = {"last_loses": "Play on: the last with cards loses", "first_wins": "First out wins"}

GAME = "macao_game"
SELECTED = "macao_selected"
DECLARE = "macao_declare"
SUIT = "macao_suit"
STATS = "macao_stats"
ERROR = "macao_error"
ROUND_NO = "macao_round_no"
BASE_SEED = "macao_seed"
DECK = "macao_deck_order"
FIRST = "macao_first_player"
LOG_SIZE = 14
# Card buttons the size of a card and a thumb (static CSS; nothing user-supplied).
CARD_CSS = """
<style>
[class*="st-key-macao_card_"] button { min-width: 3.1rem; min-height: 2.9rem; padding: 0 .35rem; }
[class*="st-key-macao_card_"] button p { font-size: 1.2rem; font-weight: 600; }
</style>
"""


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
        ss()[ERROR] = "The app was updated during your round, which cannot go on. Press New round to deal again."
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
        ss()[ERROR] = f"Could not start a round: {e}"
        return
    level = ss()["macao_level"].lower()
    ss()[ROUND_NO] = number
    ss()[GAME] = {
        "state": state,
        "levels": [level] * (rules.players - 1),
        "rngs": [random.Random(f"{seed}:bot:{s}") for s in range(rules.players)],
        "offered": None,  # the move number at which bots were last offered a Macao call
        "recorded": False,
        "round": number,
    }
    ss()[SELECTED] = []
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
        ss()[ERROR] = mw.glyph_text(str(e))
        return
    ss()[ERROR] = None
    ss()[SELECTED] = []
    if not isinstance(action, CallMacao):
        ss()[DECLARE] = False


def toggle_card(position: int) -> None:
    g = game()
    if g is None:
        return
    hand = g["state"].hands[HUMAN]
    if position >= len(hand):
        return
    chosen: list[int] = [p for p in ss().get(SELECTED, []) if p < len(hand)]
    if position in chosen:
        chosen.remove(position)
    elif chosen and _group(hand[chosen[0]]) != _group(hand[position]):
        chosen = [position]  # another rank: start a new selection
    else:
        chosen.append(position)
    ss()[SELECTED] = chosen


def _group(card: Any) -> int:
    return 15 if card.is_joker else int(card.rank)


def play_selected() -> None:
    g = game()
    if g is None:
        return
    hand = g["state"].hands[HUMAN]
    chosen = [p for p in ss().get(SELECTED, []) if p < len(hand)]
    if not chosen:
        ss()[ERROR] = "Click the card(s) to play first."
        return
    cards = [hand[p] for p in chosen]
    suit = Suit(ss().get(SUIT, "h")) if cards[-1].rank == 14 else None
    do(Play(cards, suit=suit, declare=bool(ss().get(DECLARE))))


def play_drawn() -> None:
    g = game()
    if g is None or g["state"].drawn is None:
        return
    suit = Suit(ss().get(SUIT, "h")) if g["state"].drawn.rank == 14 else None
    do(PlayDrawn(suit=suit, declare=bool(ss().get(DECLARE))))


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
        ss()[ERROR] = "Nobody to catch: Macao! calls an opponent who kept one card without declaring."


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
    ss().setdefault(STATS, []).append(
        {"round": g["round"], "players": state.rules.players, "place": places[HUMAN],
         "bots": ", ".join(g["levels"]), "moves": state.moves, "end": state.end_reason}
    )  # fmt: skip
    g["recorded"] = True


# --------------------------------------------------------------------------- the page

st.html(CARD_CSS)
st.title("Macao")
st.caption(
    "Match the top card by suit or rank; Aces and jokers are wild. 2, 3 and jokers make the next player "
    "draw 2/3/5/10 (counter with a draw card), 4 makes them wait, 7 stops a penalty, an Ace names the suit. "
    "Say Macao! when a play leaves you one card."
)

defaults = {
    "macao_players": 2, "macao_decks": 1, "macao_start_cards": 5, "macao_jokers": True, "macao_stop": True,
    "macao_stacking": "matching", "macao_ace_wild": True, "macao_start_card": "redraw",
    "macao_end_mode": "last_loses", "macao_level": "Normal", "macao_speed": "Normal",
}  # fmt: skip
for key, value in defaults.items():
    ss().setdefault(key, value)
ss().setdefault(STATS, [])
ss().setdefault(SELECTED, [])
ss().setdefault(DECLARE, False)
ss().setdefault(SUIT, "h")

with st.expander("Options", expanded=game() is None):
    # one st.columns per line of options, so a phone (which stacks columns) keeps this order
    c1, c2, c3 = st.columns(3)
    c1.slider("Players", 2, 4, key="macao_players", help="You and 1-3 computer opponents")
    c2.slider("Decks", 1, 4, key="macao_decks")
    c3.slider("Starting cards", 5, 10, key="macao_start_cards")
    c1, c2, c3 = st.columns(3)
    c1.toggle("Jokers", key="macao_jokers", help="Black joker: draw 5, red joker: draw 10")
    c2.toggle("Stop (7 cancels a penalty)", key="macao_stop")
    c3.toggle("Ace is wild", key="macao_ace_wild")
    c1, c2, c3 = st.columns(3)
    c1.selectbox("Stacking", list(STACKING), format_func=STACKING.__getitem__, key="macao_stacking")
    c2.selectbox("Start card", list(START), format_func=START.__getitem__, key="macao_start_card")
    c3.selectbox("End of round", list(END), format_func=END.__getitem__, key="macao_end_mode")
    c1, c2, _ = st.columns(3)
    c1.selectbox("Bot level", LEVELS, key="macao_level")
    c2.selectbox("Game speed", list(SPEEDS), key="macao_speed", help="Delay between computer moves")
    st.caption("Option changes apply from the next round.")

st.button("New round", key="macao_new", type="primary", on_click=start_round)

if ss().get(ERROR):
    show_error(ss()[ERROR])

g = game()
if g is None:
    st.info("Choose the options and press **New round** to deal.")
else:
    state: State = g["state"]
    obs = observe(state, HUMAN)
    names = ["You", *(level.capitalize() for level in g["levels"])]

    # --- the table
    left, right = st.columns([1, 2])
    with left:
        st.markdown("**Top card**")
        st.markdown(mw.chip(obs.top, big=True), unsafe_allow_html=True)
        suit = obs.active_suit
        shown = "**any suit**" if suit is None else f"{mw.suit_md(suit)} **{mw.SUIT_WORDS[suit]}**"
        st.markdown(f"Active suit: {shown}")
        st.caption(f"Stock: {obs.stock_count} cards · round {g['round']} · you are P0")
    with right:
        # a penalty left on the table when the round ends is owed by nobody: say nothing
        if obs.pending_draw and not obs.is_terminal:
            st.warning(f"Pending penalty: draw {obs.pending_draw}")
        if obs.pending_skip and not obs.is_terminal:
            st.warning(f"Pending wait: {obs.pending_skip} turn(s)")
        cols = st.columns(max(1, obs.players - 1))
        for i, seat in enumerate(s for s in range(obs.players) if s != HUMAN):
            status = "out" if seat in obs.finished else f"{obs.hand_sizes[seat]} cards"
            note = []
            if obs.skip_turns[seat]:
                note.append(f"sits out {obs.skip_turns[seat]}")
            if obs.exposed == seat:
                note.append("forgot Macao!")
            if obs.current == seat and not obs.is_terminal:
                note.append("to move")
            cols[i].metric(f"P{seat} · {names[seat]}", status, " · ".join(note) or None, delta_color="off")

    # --- the result
    if is_terminal(state):
        record_result(g)
        places = placings(state)
        verdict = "You won the round!" if places[HUMAN] == 1 else f"You placed {places[HUMAN]} of {obs.players}."
        (st.success if places[HUMAN] == 1 else st.warning)(verdict)
        order = sorted(range(obs.players), key=lambda s: places[s])
        st.markdown("**Placings:** " + " · ".join(f"{places[s]}. P{s} {names[s]}" for s in order))
        if state.end_reason != "finish":
            st.caption(f"The round ended by {state.end_reason}: players still holding cards rank by fewest cards.")

    # --- your hand and moves
    st.subheader("Your hand" + (" — your turn" if obs.current == HUMAN and not obs.is_terminal else ""))
    hand = obs.hand
    chosen = [p for p in ss()[SELECTED] if p < len(hand)]
    my_turn = obs.current == HUMAN and not obs.is_terminal and obs.phase is Phase.PLAY
    # a wrapping line of card-sized buttons (st.columns would stack them one per line on a phone)
    with st.container(horizontal=True, gap="small", key="macao_hand"):
        for pos, card in enumerate(hand):
            st.button(
                mw.button_label(card), key=f"macao_card_{pos}", on_click=toggle_card, args=(pos,),
                type="primary" if pos in chosen else "secondary", disabled=not my_turn,
            )  # fmt: skip
    if not hand:
        st.caption("No cards left.")
    legal = legal_actions(state) if obs.current == HUMAN else []
    if chosen:
        st.markdown("Selected, in order: " + " → ".join(mw.label(hand[p]) for p in chosen)
                    + "  (the first must match; the last sets the suit)")  # fmt: skip
    if obs.phase is Phase.AFTER_DRAW and obs.current == HUMAN:
        st.info(f"You drew {mw.label(obs.drawn)} and may play it." if obs.drawn else "You drew a card.")
    needs_suit = (chosen and hand[chosen[0]].rank == 14) or (
        obs.phase is Phase.AFTER_DRAW and obs.drawn is not None and obs.drawn.rank == 14
    )
    if needs_suit and obs.current == HUMAN:
        st.radio("Name the suit", [s.value for s in SUITS], key=SUIT, horizontal=True,
                 format_func=lambda v: mw.suit_text(Suit(v)))  # fmt: skip

    moves = st.container(horizontal=True, gap="small", key="macao_moves")
    if obs.phase is Phase.AFTER_DRAW and obs.current == HUMAN:
        moves.button("Play it", key="macao_play_drawn", on_click=play_drawn, type="primary")
        moves.button("Keep it", key="macao_keep", on_click=do, args=(KeepDrawn(),))
    else:
        moves.button("Play selected", key="macao_play", on_click=play_selected, disabled=not (my_turn and chosen),
                     type="primary")  # fmt: skip
        moves.button("Draw", key="macao_draw", on_click=do, args=(Draw(),), disabled=Draw() not in legal)
        if Accept() in legal:
            label = f"Accept (draw {obs.pending_draw})" if obs.pending_draw else "Accept (lose the turn)"
            moves.button(label, key="macao_accept", on_click=do, args=(Accept(),))
        if Pass() in legal:
            moves.button("Pass", key="macao_pass", on_click=do, args=(Pass(),))
    can_call = bool(interrupts(state, HUMAN))
    macao_label = f"Macao! (catch P{obs.exposed})" if can_call and obs.exposed is not None else "Macao!"
    moves.button(macao_label, key="macao_call", on_click=macao_button,
                 disabled=not (can_call or (obs.current == HUMAN and not obs.is_terminal)),
                 type="primary" if ss()[DECLARE] or can_call else "secondary")  # fmt: skip
    if ss()[DECLARE] and obs.current == HUMAN:
        st.caption("Macao! will be declared with your next play.")

    # --- the log
    with st.expander("Move log", expanded=True):
        events = [e.describe(mw.cards_line) for e in obs.log[-LOG_SIZE:]]
        st.code("\n".join(events) or "(nothing yet)", language=None, wrap_lines=True)

# --- statistics across rounds
rounds = ss()[STATS]
if rounds:
    st.subheader("Your statistics")
    wins = sum(1 for r in rounds if r["place"] == 1)
    losses = sum(1 for r in rounds if r["place"] == r["players"])
    with st.container(horizontal=True, gap="small"):
        st.metric("Rounds", len(rounds), border=True, width="content")
        st.metric("Wins", wins, f"{100 * wins / len(rounds):.0f}%", delta_color="off", delta_arrow="off",
                  border=True, width="content")  # fmt: skip
        st.metric("Last place", losses, border=True, width="content")
        st.metric("Average placing", f"{sum(r['place'] for r in rounds) / len(rounds):.2f}", border=True,
                  width="content")  # fmt: skip
    st.dataframe(list(reversed(rounds)), hide_index=True, width="stretch")

# --- computer moves: one action per rerun, after the chosen delay
g = game()
if g is not None and bots_due(g):
    time.sleep(SPEEDS.get(ss()["macao_speed"], 0.8))
    try:
        bot_step(g)
    except ValueError as e:  # should not happen; keep the round and say so
        ss()[ERROR] = f"A computer move failed: {e}"
    else:
        st.rerun()
