"""Reading what people type: hands and arrangements, with a readable reason when it fails.

Every page that takes cards as text goes through these, so the limits and the messages
are the same everywhere.
"""

from __future__ import annotations

import re

from app.i18n import _, integer
from solver import Card, InvalidCardError, InvalidHandError, parse_cards
from solver.scoring import Arrangement, check_hand

#: Longest hand or arrangement text we try to read; anything longer is refused.
MAX_INPUT_CHARS = 300
#: How much of a link's hand text is put back in the text box.  The text widgets get no
#: ``max_chars``: Streamlit's widget silently drops a paste longer than its cap (the box
#: stays as it was, no message), while without a cap ``too_long`` refuses it with a reason.
LINK_MAX_CHARS = 5000


def too_long(text: str, arrangement: bool = False) -> str | None:
    """A refusal message when the text is absurdly long, else None."""
    if len(text) > MAX_INPUT_CHARS:
        message = (
            _("That arrangement text is {length} characters long; the limit is {limit}.")
            if arrangement
            else _("That hand text is {length} characters long; the limit is {limit}.")
        )
        return (
            message.format(length=integer(len(text)), limit=MAX_INPUT_CHARS)
            + " "
            + _("A hand is 13 cards such as {example}").format(example="As Kd 10c ...")
        )
    return None


#: One card as people type it: a rank (10 before 1-9 so "10s" is one card) and a suit.
_CARD = r"(?:10|[2-9tjqka])[shdc♠♥♦♣♤♡♢♧]"
#: A word that is several cards typed without a separator: "AsKdQh", "10s9d".
_RUN = re.compile(rf"(?:{_CARD}){{2,}}", re.IGNORECASE)
_ONE = re.compile(_CARD, re.IGNORECASE)
_SPACES = re.compile(r"[\s,;]+")


def mau_binh_cards(text: str) -> list[Card]:
    """The cards in Mau Binh text: separated by spaces or commas, or typed in one run
    (``AsKdQh``, ``10s9d``).  A word that is not a card raises :class:`InvalidCardError`
    naming it in the player's language, with the Mau Binh cards only (no jokers)."""
    cards = []
    for word in (w for w in _SPACES.split(text) if w):
        parts = _ONE.findall(word) if _RUN.fullmatch(word) else [word]
        for part in parts:
            try:
                card = parse_cards(part)[0]
            except InvalidCardError:
                card = None
            if card is None or card.is_joker:
                raise InvalidCardError(
                    _(
                        "{word} is not a card. A card is a rank (2-10, J, Q, K, A) and a suit "
                        "(s, h, d, c or ♠ ♥ ♦ ♣), for example As or 10h."
                    ).format(word=repr(part[:20]))
                )
            cards.append(card)
    return cards


def read_hand(text: str) -> list[Card]:
    """Parse 13 distinct cards from user text; raises ValueError with a readable reason."""
    refusal = too_long(text)
    if refusal:
        raise InvalidHandError(refusal)
    if not text.strip():
        raise InvalidHandError(
            _("Enter 13 cards, for example: {cards}").format(cards="As Kd Qc Jh 10s 9d 8c 7h 6s 5d 4c 3h 2s")
        )
    return check_hand(mau_binh_cards(text))


def read_arrangement(text: str) -> Arrangement:
    """Parse ``front | middle | back`` from user text; raises ValueError with a reason."""
    refusal = too_long(text, arrangement=True)
    if refusal:
        raise InvalidHandError(refusal)
    if not text.strip():
        raise InvalidHandError(_("Enter an arrangement as front | middle | back (3 + 5 + 5 cards)."))
    return Arrangement.parse(text)


def safe_parse_cards(text: str) -> list[Card] | None:
    """Cards from text, or None when it does not parse (no exception)."""
    try:
        if too_long(text):
            return None
        return mau_binh_cards(text)
    except (InvalidCardError, InvalidHandError, ValueError):
        return None
