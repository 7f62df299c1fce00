"""The Macao move log in the player's language, and what each seat did last.

The engine's :meth:`macao.state.Event.describe` writes each public event as an English
line; :func:`describe` writes the same line from the event's fields through the
translation catalog (plural forms with ``ngettext``), so the log reads in Vietnamese or
Khmer too.  In English the text is the engine's, with real plurals for its ``card(s)``
(a test holds the two together), except two things a player should never read: the
seat that reads the log (``you``) is "You", with its own verbs, and the end of a round
says what happened instead of the engine's reason word (``finish``, ``deadlock``).

:func:`last_move` is the short note under a seat on the table ("drew 2", "played 7♣
7♦", "waits 1", "named ♥"), and :func:`since_your_turn` the events since the reader's
own last move, which the page lists while the computer players take their turns.
"Macao" stays "Macao" in every language: it is the game's own word.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.card_text import SUIT_GLYPHS
from app.i18n import _, ngettext, pgettext
from app.terms import suit_names
from macao.state import Event
from solver.cards import Card, Rank, format_cards

CardWriter = Callable[[Sequence[Card]], str]

#: Events that are a seat's own move (what "last move" and "your turn" are made of).
MOVES = frozenset({"play", "draw", "keep", "penalty", "wait", "skipped", "pass", "call"})


def seat_name(seat: int | None) -> str:
    return f"P{seat}" if seat is not None else ""


def end_reason(reason: str) -> str:
    """Why a round ended (``Event.text`` of an ``end`` event; ``State.end_reason``), in words."""
    reasons = {
        "finish": pgettext("round end", "played out"),
        "deadlock": pgettext("round end", "nobody could play or draw"),
        "max_moves": pgettext("round end", "move limit reached"),
    }
    return reasons.get(reason, reason)


def _names_ace(event: Event) -> bool:
    return event.suit is not None and bool(event.cards) and event.cards[-1].rank == Rank.ACE


def describe(event: Event, write_cards: CardWriter = format_cards, you: int | None = None) -> str:
    """One line of the move log for ``event``, in the session's language; seat ``you``
    (the reader) is written "You"."""
    who, k, n = seat_name(event.seat), event.kind, event.amount
    mine = you is not None and event.seat == you
    if k == "deal":
        if you is not None and event.target == you:
            return ngettext("dealt {n} card each; you start", "dealt {n} cards each; you start", n).format(n=n)
        return ngettext("dealt {n} card each; {player} starts", "dealt {n} cards each; {player} starts", n).format(
            n=n, player=seat_name(event.target)
        )
    if k == "start":
        return _("start card {cards}").format(cards=write_cards(event.cards))
    if k == "bottom":
        return ngettext(
            "special start card {cards} put under the stock",
            "special start cards {cards} put under the stock",
            len(event.cards),
        ).format(cards=write_cards(event.cards))
    if k == "play":
        cards = write_cards(event.cards)
        if _names_ace(event):
            suit = suit_names()[event.suit]  # type: ignore[index]
            text = (
                _("You play {cards} and name {suit}").format(cards=cards, suit=suit)
                if mine
                else _("{player} plays {cards} and names {suit}").format(player=who, cards=cards, suit=suit)
            )
        else:
            text = (
                _("You play {cards}").format(cards=cards)
                if mine
                else _("{player} plays {cards}").format(player=who, cards=cards)
            )
        return _("{move} — Macao!").format(move=text) if event.declare else text
    if k == "draw":
        return _("You draw a card") if mine else _("{player} draws a card").format(player=who)
    if k == "keep":
        return _("You keep the drawn card") if mine else _("{player} keeps the drawn card").format(player=who)
    if k == "penalty":
        if n < event.owed:
            if mine:
                return ngettext(
                    "You draw {n} penalty card (of {owed}; the rest is forfeited)",
                    "You draw {n} penalty cards (of {owed}; the rest is forfeited)",
                    n,
                ).format(n=n, owed=event.owed)
            return ngettext(
                "{player} draws {n} penalty card (of {owed}; the rest is forfeited)",
                "{player} draws {n} penalty cards (of {owed}; the rest is forfeited)",
                n,
            ).format(player=who, n=n, owed=event.owed)
        if mine:
            return ngettext("You draw {n} penalty card", "You draw {n} penalty cards", n).format(n=n)
        return ngettext("{player} draws {n} penalty card", "{player} draws {n} penalty cards", n).format(
            player=who, n=n
        )
    if k == "wait":
        if n:
            if mine:
                return ngettext(
                    "You lose this turn, and sit out {n} more turn",
                    "You lose this turn, and sit out {n} more turns",
                    n,
                ).format(n=n)
            return ngettext(
                "{player} loses this turn, and sits out {n} more turn",
                "{player} loses this turn, and sits out {n} more turns",
                n,
            ).format(player=who, n=n)
        return _("You lose this turn") if mine else _("{player} loses this turn").format(player=who)
    if k == "skipped":
        return _("You sit out a turn") if mine else _("{player} sits out a turn").format(player=who)
    if k == "pass":
        return _("You pass (nothing to draw)") if mine else _("{player} passes (nothing to draw)").format(player=who)
    if k == "exposed":
        if mine:
            return _("You have one card and did not say Macao")
        return _("{player} has one card and did not say Macao").format(player=who)
    if k == "call":
        if mine:
            return _("You call Macao on {target}: {target} draws {n}").format(target=seat_name(event.target), n=n)
        if you is not None and event.target == you:
            return _("{player} calls Macao on you: you draw {n}").format(player=who, n=n)
        return _("{player} calls Macao on {target}: {target} draws {n}").format(
            player=who, target=seat_name(event.target), n=n
        )
    if k == "reshuffle":
        return ngettext(
            "the discard pile ({n} card) is shuffled into a new stock",
            "the discard pile ({n} cards) is shuffled into a new stock",
            n,
        ).format(n=n)
    if k == "finish":
        if mine:
            return _("You are out (place {place})").format(place=n)
        return _("{player} is out (place {place})").format(player=who, place=n)
    if k == "end":
        if event.text == "finish":
            return _("round over")
        return _("round over: {reason}").format(reason=end_reason(event.text))
    return event.describe(write_cards)  # a kind this app does not know yet: the engine's words


def last_move(log: Sequence[Event], seat: int, write_cards: CardWriter = format_cards, you: int | None = None) -> str:
    """What ``seat`` did last, as a short note for the table ("" before its first move)."""
    for event in reversed(log):
        if event.seat != seat or event.kind not in MOVES:
            continue
        return short(event, write_cards, you)
    return ""


def short(event: Event, write_cards: CardWriter = format_cards, you: int | None = None) -> str:
    """A seat's move in a few words, with no name: ``played 7♣ 7♦``, ``drew 2``, ``waits 1``."""
    k, n = event.kind, event.amount
    if k == "play":
        text = _("played {cards}").format(cards=write_cards(event.cards))
        if _names_ace(event):
            text = _("{move}, named {suit}").format(move=text, suit=SUIT_GLYPHS[event.suit])  # type: ignore[index]
        return _("{move} — Macao!").format(move=text) if event.declare else text
    if k == "draw":
        return _("drew a card")
    if k == "keep":
        return _("drew a card and kept it")
    if k == "penalty":
        return pgettext("last move", "drew {n}").format(n=n)
    if k == "wait":
        return pgettext("last move", "waits {n}").format(n=n + 1)
    if k == "skipped":
        return _("sat out a turn")
    if k == "pass":
        return pgettext("last move", "passed")
    if k == "call":
        if you is not None and event.target == you:
            return _("caught you: Macao!")
        return _("caught {player}: Macao!").format(player=seat_name(event.target))
    return describe(event, write_cards, you)


def since_your_turn(log: Sequence[Event], you: int) -> list[Event]:
    """The events after the reader's own last move (the whole log before it), the deal excluded."""
    start = 0
    for i in range(len(log) - 1, -1, -1):
        if log[i].seat == you and log[i].kind in MOVES:
            start = i + 1
            break
    return [e for e in log[start:] if e.kind not in ("deal", "start", "bottom")]
