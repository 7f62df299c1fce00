"""The Macao page's table: what the card component shows, and what a tap on it means.

:func:`table_view` turns a round into an :class:`app.cards.MacaoTable` (seats with
counts, the top card and active suit, the stock, whose turn, your hand with the
playable cards lit and the one-tap plays), and :func:`action_for` turns the player's
tap or Play back into an engine action.  A card is playable exactly when some legal
action starts with it (a ``Play`` whose first card it is, or ``PlayDrawn`` for the card
just drawn).  One tap plays it when every legal play starting with that card is the
same play (same cards, no suit to name); otherwise the tap selects it and the player
adds cards of the same rank or names a suit.  :func:`why_illegal` says in plain words
why a play is refused (no rule numbers); :func:`why_dim` says the same for a dim card
before it is tapped (the component shows it on a tap, with no round trip), and
:func:`why_lit` why a lit card may go (the guided hints of a first round).  Under each
opponent's seat is its last move (:func:`app.macao_log.last_move`), marked fresh when it
came after your own last move.  Every word is in the player's language (:mod:`app.i18n`);
the page draws.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.card_text import SUIT_GLYPHS
from app.cards import MacaoSeat, MacaoTable, TableEvent
from app.i18n import _, ngettext, pgettext
from app.macao_log import MOVES, short
from app.macao_widgets import cards_line, glyph_text, label, suit_text
from app.terms import suit_names
from macao import IllegalActionError, Observation, Phase, Play, PlayDrawn, State, legal_actions, observe
from macao.actions import Action
from solver.cards import Card, Suit, parse_cards

HUMAN = 0


def rank_word(rank: int) -> str:
    """A rank as a word inside a sentence ("a King"); number cards stay numbers."""
    words = {
        11: pgettext("rank", "Jack"),
        12: pgettext("rank", "Queen"),
        13: pgettext("rank", "King"),
        14: pgettext("rank", "Ace"),
    }
    return words.get(rank, str(rank))


def either(options: Sequence[str]) -> str:
    """``a, b or c`` in the player's language."""
    if len(options) == 1:
        return options[0]
    return _("{options} or {last}").format(options=", ".join(options[:-1]), last=options[-1])


@dataclass(frozen=True)
class TableFacts:
    """The table to draw and the legal actions its one-tap ids point into."""

    table: MacaoTable
    legal: list[Action]


def _starts_with(action: Action, card: Card) -> bool:
    return isinstance(action, Play) and action.cards[0] == card


def _drawn_index(obs: Observation) -> int | None:
    if obs.phase is not Phase.AFTER_DRAW or obs.drawn is None or obs.current != obs.seat:
        return None
    for i in range(len(obs.hand) - 1, -1, -1):
        if obs.hand[i] == obs.drawn:
            return i
    return None


def one_tap_plays(
    hand: Sequence[Card], legal: Sequence[Action], declare: bool, drawn_index: int | None
) -> list[int | None]:
    """For each card of the hand, the index of the legal action one tap plays, or None."""
    out: list[int | None] = []
    for i, card in enumerate(hand):
        if i == drawn_index:
            drawn = [n for n, a in enumerate(legal) if isinstance(a, PlayDrawn)]
            suits = {legal[n].suit for n in drawn}  # type: ignore[union-attr]
            out.append(_with_declare(legal, drawn, declare) if len(suits) == 1 else None)
            continue
        starting = [n for n, a in enumerate(legal) if _starts_with(a, card)]
        plays = {(legal[n].cards, legal[n].suit) for n in starting}  # type: ignore[union-attr]
        out.append(_with_declare(legal, starting, declare) if len(plays) == 1 else None)
    return out


def _with_declare(legal: Sequence[Action], indexes: list[int], declare: bool) -> int | None:
    """The one of these (same play, both declare values) that matches the Macao! flag."""
    if not indexes:
        return None
    for n in indexes:
        if getattr(legal[n], "declare", False) == declare:
            return n
    return indexes[0]


def playable_cards(hand: Sequence[Card], legal: Sequence[Action], drawn_index: int | None) -> list[bool]:
    """True for each card some legal action starts with."""
    can_play_drawn = any(isinstance(a, PlayDrawn) for a in legal)
    return [
        (i == drawn_index and can_play_drawn) or any(_starts_with(a, card) for a in legal)
        for i, card in enumerate(hand)
    ]


#: Cards a draw card adds to a pending penalty (macao.md §2.3).
DRAW_VALUES = {"2": 2, "3": 3, "BJ": 5, "RJ": 10}


def _draw_value(card: Card) -> int:
    """2, 3, 5 or 10 for a draw card; 0 for any other card."""
    if card.is_joker:
        return DRAW_VALUES[str(card)]
    return DRAW_VALUES.get(str(card)[0], 0)


def _is_rank(card: Card, rank: int) -> bool:
    return not card.is_joker and int(card.rank) == rank  # type: ignore[arg-type]


def why_lit(obs: Observation, card: Card, drawn: bool = False) -> str:
    """Why ``card`` (lit: some legal play starts with it) may be played now, in a few words."""
    rules, top = obs.rules, obs.top
    name = label(card)
    value = _draw_value(card)
    if drawn:
        return _("{card}: the card you drew fits, so you may play it now.").format(card=name)
    if obs.pending_draw:
        if rules.stop and _is_rank(card, 7):
            return _("{card}: a 7 stops the penalty; nobody draws.").format(card=name)
        return _("{card}: answers the penalty and adds {n}; the next player draws {total}.").format(
            card=name, n=value, total=obs.pending_draw + value
        )
    if obs.pending_skip:
        return _("{card}: a 4 answers the wait and passes it on.").format(card=name)
    if card.is_joker:
        why = _("{card}: a joker goes on anything.").format(card=name)
    elif rules.ace_wild and _is_rank(card, 14):
        why = _("{card}: an Ace goes on anything and names the next suit.").format(card=name)
    elif obs.active_suit is None:
        why = _("{card}: after a joker any card may follow.").format(card=name)
    elif card.suit is obs.active_suit:
        why = _("{card}: same suit as asked ({suit}).").format(card=name, suit=SUIT_GLYPHS[obs.active_suit])
    else:
        why = _("{card}: same rank as {top}.").format(card=name, top=label(top))
    if value:
        why += " " + _("The next player draws {n} unless they answer.").format(n=value)
    elif _is_rank(card, 4):
        why += " " + _("The next player waits a turn unless they answer with a 4.")
    return why


def why_dim(state: State, card: Card) -> str:
    """Why ``card`` of your hand cannot be played now (it is dim), in plain words."""
    obs = observe(state, HUMAN)
    rules = state.rules
    if obs.is_terminal:
        return _("The round is over.")
    if obs.current != HUMAN:
        return _("It is not your turn.")
    if obs.phase is Phase.AFTER_DRAW and obs.drawn is not None:
        return _("After a draw you may play only the card you drew ({card}), or keep it.").format(card=label(obs.drawn))
    if obs.pending_draw and _draw_value(card) and rules.stacking == "matching":
        return _("{card} is a draw card, but it matches neither the suit nor the rank of {top}.").format(
            card=label(card), top=label(obs.top)
        )
    if obs.pending_draw and _draw_value(card) and rules.stacking == "none":
        return _("With these options a penalty cannot be passed on: stop it with a 7, or take the cards.")
    if obs.pending_draw and rules.ace_wild and _is_rank(card, 14):
        return _("An Ace cannot answer a penalty.")
    reason = why_illegal(state, Play((card,)), "")
    return reason if isinstance(reason, str) else str(reason)


def _last_moves(obs: Observation) -> tuple[dict[int, str], set[int]]:
    """Each seat's last move as a note, and the seats whose last move came after yours."""
    notes: dict[int, str] = {}
    fresh: set[int] = set()
    mine = -1
    for i, event in enumerate(obs.log):
        if event.kind in MOVES and event.seat == obs.seat:
            mine = i
    for i in range(len(obs.log) - 1, -1, -1):
        event = obs.log[i]
        if event.kind in MOVES and event.seat is not None and event.seat not in notes:
            notes[event.seat] = short(event, cards_line, obs.seat)
            if i > mine:
                fresh.add(event.seat)
    return notes, fresh


def table_view(
    state: State, names: Sequence[str], declare: bool, four_colour: bool = False, guided: bool = False
) -> TableFacts:
    """What the table shows to you (seat 0) now; ``guided`` adds why each lit card may go."""
    obs = observe(state, HUMAN)
    your_turn = obs.current == HUMAN and not obs.is_terminal
    legal = legal_actions(state) if your_turn else []
    reasons = [why_dim(state, card) for card in obs.hand]
    return seat_table(obs, legal, names, declare, four_colour, guided, reasons)


def seat_table(
    obs: Observation,
    legal: Sequence[Action],
    names: Sequence[str],
    declare: bool,
    four_colour: bool = False,
    guided: bool = False,
    reasons: Sequence[str] = (),
) -> TableFacts:
    """What the table shows to the seat ``obs`` is for, from that seat's observation only
    (the Rooms page: any seat; ``legal`` the actions open to it, empty off its turn;
    ``reasons[i]`` why card ``i`` would be dim)."""
    legal = list(legal)
    over = obs.is_terminal
    your_turn = obs.current == obs.seat and not over
    last, fresh = _last_moves(obs)
    seats = []
    for seat in range(obs.players):
        if seat == obs.seat:
            continue
        notes = []
        if obs.skip_turns[seat]:
            notes.append(_("sits out {n}").format(n=obs.skip_turns[seat]))
        if obs.exposed == seat:
            notes.append(_("forgot Macao!"))
        out = seat in obs.finished
        count = obs.hand_sizes[seat]
        seats.append(
            MacaoSeat(
                seat=seat,
                name=names[seat],
                count=count,
                count_text=(
                    pgettext("player", "out") if out else ngettext("{n} card", "{n} cards", count).format(n=count)
                ),
                note=", ".join(notes),
                current=obs.current == seat and not over,
                out=out,
                last_move=last.get(seat, ""),
                fresh=seat in fresh,
            )
        )
    drawn_index = _drawn_index(obs)
    playable = playable_cards(obs.hand, legal, drawn_index)
    reasons = ["" if lit else (reasons[i] if i < len(reasons) else "") for i, lit in enumerate(playable)]
    guide = (
        [why_lit(obs, card, i == drawn_index) for i, (card, lit) in enumerate(zip(obs.hand, playable)) if lit]
        if guided and your_turn
        else []
    )
    pending = ""
    if not over and obs.pending_draw:
        pending = _("Draw {n} pending").format(n=obs.pending_draw)
    elif not over and obs.pending_skip:
        pending = ngettext("Wait {n} turn pending", "Wait {n} turns pending", obs.pending_skip).format(
            n=obs.pending_skip
        )
    if over:
        turn = _("Round over")
    elif your_turn:
        turn = _("Your turn")
    else:
        turn = _("{player} is playing…").format(player=names[obs.current])
    hint = ""
    if your_turn and obs.phase is Phase.AFTER_DRAW:
        hint = _("You drew {card}: tap it to play it, or keep it.").format(card=label(obs.drawn)) if obs.drawn else ""
    elif your_turn and any(isinstance(a, Play) for a in legal):
        hint = _("Tap a lit card to play it.")
        if any(isinstance(a, Play) and len(obs.hand) - len(a.cards) == 1 for a in legal):
            hint = (
                _("Macao! is on: it is said with your play.")
                if declare
                else _("A play can leave you one card: press Macao! first, then play, or you may draw {n}.").format(
                    n=obs.rules.macao_penalty
                )
            )
    elif your_turn and obs.pending_draw:
        hint = _("Nothing answers the penalty: take the {n} cards.").format(n=obs.pending_draw)
    elif your_turn and obs.pending_skip:
        hint = _("No 4 to answer with: accept the wait.")
    elif your_turn:
        hint = _("No card fits: draw.")
    table = MacaoTable(
        seats=seats,
        top=str(obs.top),
        hand=[str(c) for c in obs.hand],
        playable=playable,
        one_tap=one_tap_plays(obs.hand, legal, declare, drawn_index),
        move=obs.moves,
        your_turn=your_turn,
        turn_text=turn,
        stock_text=_("Stock: {n}").format(n=obs.stock_count),
        suit_text=suit_text(obs.active_suit),
        pending_text=pending,
        hint=hint,
        drawn_index=drawn_index,
        reasons=reasons,
        guide=guide,
        labels={
            "play": pgettext("button", "Play"),
            "clear": _("Cancel"),
            # TRANSLATORS: {cards} is filled in by the browser with the selected cards
            "selected": _("Selected: {cards}"),
            "name_suit": _("Name the suit:"),
            "suits": {s.value: name for s, name in suit_names().items()},
            "jokers": {"BJ": _("black joker"), "RJ": _("red joker")},
        },
        four_colour=four_colour,
    )
    return TableFacts(table, legal)


def action_for(state: State, event: TableEvent, declare: bool) -> Action | str | None:
    """The engine action for the player's tap or play, a plain reason why there is none,
    or None for a tap made on an earlier table (a double tap): that one is ignored."""
    if event.move != state.moves:
        return None
    obs = observe(state, HUMAN)
    if obs.current != HUMAN or obs.is_terminal:
        return _("It is not your turn.")
    return seat_action(obs, legal_actions(state), event, declare)


def seat_action(obs: Observation, legal: Sequence[Action], event: TableEvent, declare: bool) -> Action | str:
    """The action of the seat ``obs`` is for, on its turn, for its tap or play (else a reason)."""
    if event.kind == "action":
        if event.action_id is None or not 0 <= event.action_id < len(legal):
            return _("That move is no longer possible.")
        return legal[event.action_id]
    try:
        cards = parse_cards(" ".join(event.cards))
    except ValueError:
        return _("Those are not cards of your hand.")
    suit = Suit(event.suit) if event.suit in ("s", "h", "d", "c") else None
    if obs.phase is Phase.AFTER_DRAW:
        return PlayDrawn(suit=suit, declare=declare)
    return Play(cards, suit=suit, declare=declare)


_RULE_NUMBER = re.compile(r"\s*\(rule [^)]*\)")


def why_illegal(state: State, action: Action, engine_message: str) -> str | IllegalActionError:
    """A refused play in plain words, with card glyphs and no rule numbers (the engine's
    reason as an error to show with its kind when there is no plainer one)."""
    obs = observe(state, HUMAN)
    rules = state.rules
    if isinstance(action, Play) and action.cards:
        first = action.cards[0]
        if len({c.rank for c in action.cards if not c.is_joker} | ({"J"} if any(c.is_joker for c in action.cards)
                                                                   else set())) > 1:  # fmt: skip
            return _("Cards played together must all have the same rank.")
        joker = _("a joker")
        if obs.pending_draw:
            answers = [_("a {rank}").format(rank=2), _("a {rank}").format(rank=3)]
            answers += ([joker] if rules.jokers else []) + ([_("a {rank}").format(rank=7)] if rules.stop else [])
            return _("{card} doesn't answer the draw-{n} penalty: play {answers}, or take the cards.").format(
                card=label(first), n=obs.pending_draw, answers=either(answers)
            )
        if obs.pending_skip:
            return _("{card} doesn't answer the wait: play a 4, or accept the wait.").format(card=label(first))
        top = obs.top
        wanted = []
        if obs.active_suit is not None:
            wanted.append(_("a {suit}").format(suit=SUIT_GLYPHS[obs.active_suit]))
        an_ace = _("an {rank}").format(rank=rank_word(14))
        if not top.is_joker and top.rank is not None:
            word = rank_word(int(top.rank))
            # English needs "an" before a vowel sound (an Ace, an 8)
            wanted.append(_("an {rank}").format(rank=word) if word[0] in "AE8" else _("a {rank}").format(rank=word))
        if rules.ace_wild and an_ace not in wanted:
            wanted.append(an_ace)
        if rules.jokers:
            wanted.append(joker)
        return _("{card} doesn't follow {top}: play {options}.").format(
            card=label(first), top=label(top), options=either(wanted)
        )
    # the engine's own reason (English): shown under the problem's kind in the player's language
    return IllegalActionError(_RULE_NUMBER.sub("", glyph_text(engine_message)).strip())
