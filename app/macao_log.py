"""The Macao move log in the player's language.

The engine's :meth:`macao.state.Event.describe` writes each public event as an English
line; this module writes the same line from the event's fields through the translation
catalog (plural forms with ``ngettext``), so the log reads in Vietnamese or Khmer too.
In English the text is the engine's, with real plurals for its ``card(s)`` (a test holds
the two together).
"Macao" stays "Macao" in every language: it is the game's own word.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.i18n import _, ngettext, pgettext
from app.terms import suit_names
from macao.state import Event
from solver.cards import Card, Rank, format_cards

CardWriter = Callable[[Sequence[Card]], str]


def seat_name(seat: int | None) -> str:
    return f"P{seat}" if seat is not None else ""


def end_reason(reason: str) -> str:
    """Why a round ended (``Event.text`` of an ``end`` event; ``State.end_reason``)."""
    reasons = {
        "finish": pgettext("round end", "finish"),
        "deadlock": pgettext("round end", "deadlock"),
        "max_moves": pgettext("round end", "max_moves"),
    }
    return reasons.get(reason, reason)


def describe(event: Event, write_cards: CardWriter = format_cards) -> str:
    """One line of the move log for ``event``, in the session's language (the engine's
    line in English, with real plurals where the engine writes ``card(s)``)."""
    who, k, n = seat_name(event.seat), event.kind, event.amount
    if k == "deal":
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
        if event.suit is not None and event.cards and event.cards[-1].rank == Rank.ACE:
            text = _("{player} plays {cards} and names {suit}").format(
                player=who, cards=cards, suit=suit_names()[event.suit]
            )
        else:
            text = _("{player} plays {cards}").format(player=who, cards=cards)
        return _("{move} — Macao!").format(move=text) if event.declare else text
    if k == "draw":
        return _("{player} draws a card").format(player=who)
    if k == "keep":
        return _("{player} keeps the drawn card").format(player=who)
    if k == "penalty":
        if n < event.owed:
            return ngettext(
                "{player} draws {n} penalty card (of {owed}; the rest is forfeited)",
                "{player} draws {n} penalty cards (of {owed}; the rest is forfeited)",
                n,
            ).format(player=who, n=n, owed=event.owed)
        return ngettext("{player} draws {n} penalty card", "{player} draws {n} penalty cards", n).format(
            player=who, n=n
        )
    if k == "wait":
        if n:
            return ngettext(
                "{player} loses this turn, and sits out {n} more turn",
                "{player} loses this turn, and sits out {n} more turns",
                n,
            ).format(player=who, n=n)
        return _("{player} loses this turn").format(player=who)
    if k == "skipped":
        return _("{player} sits out a turn").format(player=who)
    if k == "pass":
        return _("{player} passes (nothing to draw)").format(player=who)
    if k == "exposed":
        return _("{player} has one card and did not say Macao").format(player=who)
    if k == "call":
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
        return _("{player} is out (place {place})").format(player=who, place=n)
    if k == "end":
        return _("round over: {reason}").format(reason=end_reason(event.text))
    return event.describe(write_cards)  # a kind this app does not know yet: the engine's words
