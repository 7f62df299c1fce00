"""The card model shared by the Mau Binh solver and the Macao engine.

A :class:`Card` is a small frozen value: a rank (2..14, ace high) and a suit, or one
of the two jokers.  Cards order by one integer key, ``code``: rank first, then suit
(spades, hearts, diamonds, clubs), jokers last.  Several decks hold *identical*
copies, so a multi-deck pile is a list (or a count vector), never a set.

Text forms round-trip: ``str(card)`` is canonical (``As``, ``Td``, ``BJ``) and
:func:`parse_card` / :func:`parse_cards` accept what people type:

>>> parse_cards("AS, as 10s Ts A♠ bj")
[Card('As'), Card('As'), Card('Ts'), Card('Ts'), Card('As'), Card('BJ')]
>>> str(parse_card("10h"))
'Th'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum, IntEnum

from .messages import echo


class InvalidCardError(ValueError):
    """Text that is not a card (or not the cards expected)."""


class InvalidHandError(ValueError):
    """Cards that do not form the hand or arrangement expected."""


class Rank(IntEnum):
    """Card ranks; the value is the rank's strength (ace high)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        return RANK_SYMBOLS[self - 2]


class Suit(Enum):
    """The four suits; the value is the canonical letter."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


RANK_SYMBOLS = "23456789TJQKA"
SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}

#: ``code`` of the black and red jokers (after the 52 ranked cards).
BLACK_JOKER_CODE = 52
RED_JOKER_CODE = 53
_JOKER_NAMES = {BLACK_JOKER_CODE: "BJ", RED_JOKER_CODE: "RJ"}


@dataclass(frozen=True, order=True)
class Card:
    """One playing card, identified by ``code`` in 0..53.

    ``code = (rank - 2) * 4 + suit.index`` for the 52 ranked cards; 52 is the black
    joker and 53 the red joker.  Build cards with :meth:`of`, :func:`parse_card` or
    the :data:`BLACK_JOKER` / :data:`RED_JOKER` constants.
    """

    code: int

    def __post_init__(self) -> None:
        if not isinstance(self.code, int) or isinstance(self.code, bool) or not 0 <= self.code <= 53:
            raise InvalidCardError(f"card code must be an integer 0..53, got {echo(self.code)}")

    @classmethod
    def of(cls, rank: int | Rank, suit: Suit | str) -> Card:
        """The card of this rank (2..14) and suit (``Suit`` or its letter)."""
        if isinstance(suit, str) and not isinstance(suit, Suit):
            try:
                suit = Suit(suit.lower())
            except ValueError:
                raise InvalidCardError(f"unknown suit {echo(suit)}; expected one of s, h, d, c") from None
        if not isinstance(rank, int) or not 2 <= rank <= 14:
            raise InvalidCardError(f"rank must be 2..14, got {echo(rank)}")
        return cls((int(rank) - 2) * 4 + suit.index)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Alias of :func:`parse_card`."""
        return parse_card(text)

    @property
    def is_joker(self) -> bool:
        return self.code >= BLACK_JOKER_CODE

    @property
    def rank(self) -> Rank | None:
        """The rank, or ``None`` for a joker."""
        return None if self.is_joker else Rank(self.code // 4 + 2)

    @property
    def suit(self) -> Suit | None:
        """The suit, or ``None`` for a joker."""
        return None if self.is_joker else SUITS[self.code % 4]

    @property
    def is_red(self) -> bool:
        """Red suits and the red joker."""
        if self.is_joker:
            return self.code == RED_JOKER_CODE
        return SUITS[self.code % 4].is_red

    @property
    def bit(self) -> int:
        """Bit of this card in a 64-bit mask: 16-bit field per suit, rank 2 at bit 0.

        Jokers have no bit (they are never in a Mau Binh hand).
        """
        if self.is_joker:
            raise InvalidCardError(f"{self} has no bit in a 52-card mask")
        return 1 << ((self.code % 4) * 16 + self.code // 4)

    def __str__(self) -> str:
        if self.is_joker:
            return _JOKER_NAMES[self.code]
        return RANK_SYMBOLS[self.code // 4] + SUITS[self.code % 4].value

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


BLACK_JOKER = Card(BLACK_JOKER_CODE)
RED_JOKER = Card(RED_JOKER_CODE)

_SUIT_ALIASES = {
    "s": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
    "h": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "d": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "c": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
}  # fmt: skip
_RANK_ALIASES = {sym: i + 2 for i, sym in enumerate(RANK_SYMBOLS)} | {"10": 10, "1": 14}
_JOKER_ALIASES = {"BJ": BLACK_JOKER, "RJ": RED_JOKER, "JB": BLACK_JOKER, "JR": RED_JOKER}
_SEPARATORS = re.compile(r"[\s,;]+")
EXPECTED_CARD = "a rank (2-9, T or 10, J, Q, K, A or 1) followed by a suit (s h d c or ♠ ♥ ♦ ♣), or BJ / RJ"


def parse_card(text: str) -> Card:
    """Parse one card: ``As``, ``as``, ``AS``, ``10s``, ``Ts``, ``A♠``, ``BJ``, ``rj``.

    >>> parse_card("10♥")
    Card('Th')
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"expected card text, got {type(text).__name__} {echo(text)}")
    token = text.strip()
    upper = token.upper()
    if upper in _JOKER_ALIASES:
        return _JOKER_ALIASES[upper]
    if len(token) >= 2:
        rank = _RANK_ALIASES.get(upper[:-1])
        suit = _SUIT_ALIASES.get(token[-1].lower())
        if rank is not None and suit is not None:
            return Card.of(rank, suit)
    raise InvalidCardError(f"unknown card {echo(text)}; expected {EXPECTED_CARD}")


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Parse cards separated by spaces or commas (or take an iterable of cards/strings).

    Duplicates are kept: checking them is the caller's business (Macao allows copies).

    >>> [str(c) for c in parse_cards("Kd, 10c 2♠")]
    ['Kd', 'Tc', '2s']
    """
    if isinstance(text, str):
        tokens: list[str | Card] = [t for t in _SEPARATORS.split(text) if t]
    else:
        try:
            tokens = list(text)
        except TypeError:
            raise InvalidCardError(f"expected card text or a list of cards, got {echo(text)}") from None
    return [t if isinstance(t, Card) else parse_card(t) for t in tokens]


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    """Canonical text of several cards, in the order given."""
    return sep.join(str(c) for c in cards)


def full_deck(decks: int = 1, jokers: bool = False) -> list[Card]:
    """``decks`` copies of the 52 cards (plus BJ and RJ per deck when ``jokers``), in code order."""
    if not isinstance(decks, int) or not 1 <= decks <= 4:
        raise InvalidCardError(f"decks must be 1..4, got {echo(decks)}")
    one = [Card(i) for i in range(52)] + ([BLACK_JOKER, RED_JOKER] if jokers else [])
    return sorted(one * decks)


def cards_mask(cards: Iterable[Card]) -> int:
    """64-bit mask of distinct ranked cards (see :attr:`Card.bit`)."""
    mask = 0
    for c in cards:
        mask |= c.bit
    return mask


def iter_mask(mask: int) -> Iterator[Card]:
    """The cards of a mask, in code order."""
    found = [Card((b // 16) + (b % 16) * 4) for b in range(64) if mask >> b & 1 and b % 16 < 13]
    return iter(sorted(found))
