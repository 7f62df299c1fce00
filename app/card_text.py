"""Cards as the pages write them, and the words the card component shows.

Suit glyphs, cards as text (``10♥``), the canonical hand text that pages use as a cache
and URL key, the display order and Practice's first layout of a dealt hand; and the
words of the card component in the session's language (:func:`editor_labels`,
:func:`category_names`, :func:`picker_labels`).  The game's words (rows, hands,
specials, presets) are in :mod:`app.terms`; cards are drawn by :mod:`app.cards`.
"""

from __future__ import annotations

from collections.abc import Iterable

from app import terms
from app.i18n import _, pgettext
from solver import Card, Suit
from solver.cards import RANK_SYMBOLS, SUITS

SUIT_GLYPHS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


def rank_text(card: Card) -> str:
    """Rank as players write it: 2..10, J, Q, K, A."""
    symbol = RANK_SYMBOLS[int(card.rank) - 2]  # type: ignore[arg-type]
    return "10" if symbol == "T" else symbol


def card_text(card: Card) -> str:
    """Plain text with the suit glyph, e.g. ``10♥``."""
    return rank_text(card) + SUIT_GLYPHS[card.suit]  # type: ignore[index]


def cards_text(cards: Iterable[Card]) -> str:
    """Canonical short text (``As Kd Th``) that the parser reads back."""
    return " ".join(str(c) for c in cards)


def canonical_hand(cards: Iterable[Card]) -> str:
    """One string per distinct hand, whatever order it was typed in (cache and URL key)."""
    return " ".join(str(c) for c in sort_for_display(cards))


def sort_for_display(cards: Iterable[Card]) -> list[Card]:
    """High rank first, suits in a fixed order."""
    return sorted(cards, key=lambda c: (-(c.code // 4), c.code % 4))


def dealt_layout(cards: Iterable[Card]) -> list[list[Card]]:
    """How Practice lays a new hand out: high to low from the back (the player rearranges it)."""
    ordered = sort_for_display(cards)
    return [ordered[10:], ordered[5:10], ordered[:5]]


# --- words inside the card component (pages pass them, so they can be translated) ---------


def category_names() -> list[str]:
    """The nine row categories, high card .. straight flush, as the editor shows them."""
    return [name[:1].upper() + name[1:] for name in terms.category_names()]


def editor_labels(submit: str = "") -> dict[str, str]:
    """Every word the hand editor shows; ``submit`` adds its own submit button."""
    front, middle, back = terms.row_names()
    labels = {
        "front": front,
        "middle": middle,
        "back": back,
        # TRANSLATORS: a row's name inside a sentence ("your front beats your middle")
        "front_word": pgettext("row in a sentence", "front"),
        "middle_word": pgettext("row in a sentence", "middle"),
        "back_word": pgettext("row in a sentence", "back"),
        # TRANSLATORS: cards in a row, e.g. "2 of 3"; {n} and {size} are filled in by the browser
        "count": _("{n} of {size}"),
        "too_many": _("too many"),
        "too_few": _("too few"),
        "sizes": _("Rows need 3, 5 and 5 cards."),
        "valid": _("✔ Valid set: back ≥ middle ≥ front."),
        "foul": _("✖ Foul: {reasons}. The back must be ≥ the middle ≥ the front."),
        "foul_beats": _("your {upper} ({upper_hand}) beats your {lower} ({lower_hand})"),
        "foul_same": _("your {upper} and {lower} are both {upper_hand}, but the {upper}'s cards rank higher"),
        "foul_equal": _("your {upper} and {lower} are equal, and these rules need strictly stronger"),
        "undo": _("↶ Undo"),
        "reset": _("Reset to the deal"),
        "sort": _("Sort rows"),
    }
    if submit:
        labels["submit"] = submit
    return labels


def picker_labels() -> dict[str, str]:
    """The suit names the card picker gives screen readers."""
    names = terms.suit_names()
    return {f"suit_{suit.value}": names[suit] for suit in SUITS}
