"""The Macao actions (macao.md §4.3) as small frozen, totally ordered values.

``Play(cards, suit=None, declare=False)``   put down one or more cards of one rank.
``Draw()``                                  take one card from the stock (voluntary).
``PlayDrawn(suit=None, declare=False)``     play the card just drawn.
``KeepDrawn()``                             keep the card just drawn; the turn ends.
``Accept()``                                take a pending draw penalty or wait.
``Pass()``                                  nothing can be drawn and nothing is played.
``CallMacao(caller, target)``               out of turn: catch an undeclared last card.

Actions sort by (kind, fields) so :func:`macao.legal_actions` can return a sorted,
deterministic list: plays first (by card codes, then suit, then declare), then
``PlayDrawn``, ``Draw``, ``KeepDrawn``, ``Accept``, ``Pass``, ``CallMacao``.

``Play`` and ``PlayDrawn`` accept suits as :class:`Suit` or their letter and cards as
:class:`Card` objects or text:

>>> Play("9s 9d", declare=True)
Play(cards=(Card('9s'), Card('9d')), suit=None, declare=True)
>>> Play(["Ac"], suit="D").suit
<Suit.DIAMONDS: 'd'>
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from solver.cards import Card, InvalidCardError, Suit, format_cards, parse_cards


class IllegalActionError(ValueError):
    """An action that the rules do not allow in this state; ``rule`` names the clause."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(f"{message} (rule {rule})" if rule else message)
        self.rule = rule


def _to_suit(value: object) -> Suit | None:
    if value is None or isinstance(value, Suit):
        return value
    if isinstance(value, str):
        try:
            return Suit(value.strip().lower())
        except ValueError:
            pass
    raise IllegalActionError(f"suit must be one of s, h, d, c or None, got {value!r}", "2.3 A")


def _to_bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise IllegalActionError(f"{name} must be True or False, got {value!r}", "2.8")
    return value


class _Action:
    """Common ordering: every action compares by ``sort_key``."""

    __slots__ = ()

    def sort_key(self) -> tuple[int, tuple[int, ...], int, bool]:
        raise NotImplementedError

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _Action):
            return NotImplemented
        return self.sort_key() < other.sort_key()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, _Action):
            return NotImplemented
        return self.sort_key() <= other.sort_key()

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, _Action):
            return NotImplemented
        return self.sort_key() > other.sort_key()

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, _Action):
            return NotImplemented
        return self.sort_key() >= other.sort_key()


def _suit_key(suit: Suit | None) -> int:
    return -1 if suit is None else suit.index


@dataclass(frozen=True)
class Play(_Action):
    """Put down ``cards`` (one rank; the first must be legal, the last sets the suit)."""

    cards: tuple[Card, ...]
    suit: Suit | None = None
    declare: bool = False

    def __init__(
        self, cards: Iterable[Card | str] | str, suit: Suit | str | None = None, declare: bool = False
    ) -> None:
        try:
            parsed = tuple(parse_cards(cards))
        except InvalidCardError as e:
            raise IllegalActionError(f"Play needs cards: {e}", "2.3") from None
        if not parsed:
            raise IllegalActionError("Play needs at least one card, got none", "2.3")
        object.__setattr__(self, "cards", parsed)
        object.__setattr__(self, "suit", _to_suit(suit))
        object.__setattr__(self, "declare", _to_bool("declare", declare))

    def sort_key(self) -> tuple[int, tuple[int, ...], int, bool]:
        return (0, tuple(c.code for c in self.cards), _suit_key(self.suit), self.declare)

    def __str__(self) -> str:
        text = "play " + format_cards(self.cards)
        if self.suit is not None:
            text += f" naming {self.suit.value}"
        return text + (" Macao!" if self.declare else "")


@dataclass(frozen=True)
class PlayDrawn(_Action):
    """Play the card drawn this turn (only after a voluntary :class:`Draw`)."""

    suit: Suit | None = None
    declare: bool = False

    def __init__(self, suit: Suit | str | None = None, declare: bool = False) -> None:
        object.__setattr__(self, "suit", _to_suit(suit))
        object.__setattr__(self, "declare", _to_bool("declare", declare))

    def sort_key(self) -> tuple[int, tuple[int, ...], int, bool]:
        return (1, (), _suit_key(self.suit), self.declare)

    def __str__(self) -> str:
        text = "play the drawn card"
        if self.suit is not None:
            text += f" naming {self.suit.value}"
        return text + (" Macao!" if self.declare else "")


@dataclass(frozen=True)
class Draw(_Action):
    """Draw one card from the stock."""

    def sort_key(self) -> tuple[int, tuple[int, ...], int, bool]:
        return (2, (), -1, False)

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class KeepDrawn(_Action):
    """Keep the card just drawn and end the turn."""

    def sort_key(self) -> tuple[int, tuple[int, ...], int, bool]:
        return (3, (), -1, False)

    def __str__(self) -> str:
        return "keep the drawn card"


@dataclass(frozen=True)
class Accept(_Action):
    """Take the pending draw penalty or lose the turn to a pending wait."""

    def sort_key(self) -> tuple[int, tuple[int, ...], int, bool]:
        return (4, (), -1, False)

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True)
class Pass(_Action):
    """Nothing can be drawn and nothing is played."""

    def sort_key(self) -> tuple[int, tuple[int, ...], int, bool]:
        return (5, (), -1, False)

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class CallMacao(_Action):
    """Seat ``caller`` catches seat ``target``, who holds one card without declaring."""

    caller: int
    target: int

    def __post_init__(self) -> None:
        for name in ("caller", "target"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise IllegalActionError(f"CallMacao {name} must be a seat number, got {value!r}", "2.8")

    def sort_key(self) -> tuple[int, tuple[int, ...], int, bool]:
        return (6, (self.caller, self.target), -1, False)

    def __str__(self) -> str:
        return f"P{self.caller} calls Macao on P{self.target}"


Action = Play | PlayDrawn | Draw | KeepDrawn | Accept | Pass | CallMacao
