"""Card rendering for the Macao page: the shared chips of ``app.widgets`` plus jokers.

``app.widgets`` draws the 52 ranked cards; Macao also needs the black and red jokers,
suit names for the active suit, and compact text for buttons.  All HTML is built from
escaped text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from app.widgets import BLACK, RED, SUIT_GLYPHS, card_html, card_md, card_text
from solver.cards import Card, Suit, parse_card

SUIT_WORDS = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}
_JOKER_STYLE = (
    "display:inline-block;min-width:2.3em;padding:.1em .28em;margin:.12em .1em;border:1px solid #9e9e9e;"
    "border-radius:.35em;background:#fff;font-weight:700;line-height:1.35;text-align:center;"
    "font-family:system-ui,sans-serif;"
)


def joker_name(card: Card) -> str:
    return "red joker" if card.is_red else "black joker"


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


def button_label(card: Card) -> str:
    """Markdown for a card button (red suits and the red joker in red)."""
    if card.is_joker:
        return ":red[🃏RJ]" if card.is_red else "🃏BJ"
    return card_md(card)


def chip(card: Card, big: bool = False, marked: bool = False) -> str:
    """One card as an HTML chip (``big`` for the top card)."""
    if not card.is_joker:
        text = card_html(card, marked=marked, small=not big)
    else:
        colour = RED if card.is_red else BLACK
        size = "font-size:1.25em;" if big else "font-size:1em;"
        title = html.escape(joker_name(card))
        text = f'<span class="mb-card" title="{title}" style="{_JOKER_STYLE}{size}color:{colour}">🃏{card}</span>'
    if big:
        text = text.replace("font-size:1.25em;", "font-size:2.2em;", 1)
    return text


def chips(cards: list[Card] | tuple[Card, ...]) -> str:
    """Several chips on one wrapping line."""
    inner = "".join(chip(c) for c in cards)
    return f'<div style="display:flex;flex-wrap:wrap;align-items:center">{inner}</div>'


def suit_text(suit: Suit | None) -> str:
    """``♥ hearts``, or ``any suit`` after a joker."""
    if suit is None:
        return "any suit"
    return f"{SUIT_GLYPHS[suit]} {SUIT_WORDS[suit]}"


def suit_md(suit: Suit) -> str:
    glyph = SUIT_GLYPHS[suit]
    return f":red[{glyph}]" if suit.is_red else glyph
