"""Reading what people type: hands and arrangements, with a readable reason when it fails.

Every page that takes cards as text goes through these, so the limits and the messages
are the same everywhere.
"""

from __future__ import annotations

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


def read_hand(text: str) -> list[Card]:
    """Parse 13 distinct cards from user text; raises ValueError with a readable reason."""
    refusal = too_long(text)
    if refusal:
        raise InvalidHandError(refusal)
    if not text.strip():
        raise InvalidHandError(
            _("Enter 13 cards, for example: {cards}").format(cards="As Kd Qc Jh 10s 9d 8c 7h 6s 5d 4c 3h 2s")
        )
    return check_hand(parse_cards(text))


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
        return parse_cards(text)
    except (InvalidCardError, InvalidHandError, ValueError):
        return None
