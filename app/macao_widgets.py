"""Card text for the Macao page: jokers, suit names and engine messages with glyphs."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.card_text import SUIT_GLYPHS, card_text
from app.i18n import _
from app.terms import suit_names
from solver.cards import Card, Suit, parse_card


def label(card: Card) -> str:
    """Plain text with a glyph: ``10♥``, ``🃏BJ``."""
    if card.is_joker:
        return f"🃏{card}"
    return card_text(card)


def cards_line(cards: Sequence[Card]) -> str:
    """Cards as plain text with glyphs, for the move log: ``5♦ 5♥ 5♠``."""
    return " ".join(label(c) for c in cards)


#: A card code as the engine writes it in messages (``Qd``, ``Th``, ``BJ``), as a whole word;
#: rule numbers such as ``2.3d`` are not cards.
_CARD_CODE = re.compile(r"(?<![\w.])([2-9TJQKA][shdc]|BJ|RJ)(?![\w.])")


def glyph_text(message: str) -> str:
    """An engine message with its card codes written as on the page (``Q♦``, ``10♥``)."""
    return _CARD_CODE.sub(lambda m: label(parse_card(m.group(1))), message)


def suit_text(suit: Suit | None) -> str:
    """``♥ hearts``, or ``any suit`` after a joker."""
    if suit is None:
        return _("any suit")
    return f"{SUIT_GLYPHS[suit]} {suit_names()[suit]}"
