"""Card codes of a 13-card Mau Binh hand, read fast.

The solver works on card codes (0..51, see :class:`solver.cards.Card`).  Batch callers
and ``solve()`` read hands by the thousand, so the spellings people type most (``As``,
``as``, ``AS``, ``10s``) and ready-made :class:`Card` objects take a short cut: one dict
lookup or attribute read per card and one check of all 13.  Anything else, and anything
wrong, goes through :func:`solver.scoring.check_hand`, which accepts every spelling of
:mod:`solver.cards` and raises the specific error.

>>> hand_codes("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s")[:3]
[48, 44, 40]
>>> hand_codes("A♠ K♠ Q♠ J♠ T♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠")[:3]
[48, 44, 40]
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import RANK_SYMBOLS, SUITS, Card
from .scoring import check_hand

HandLike = Iterable[Card | str] | str

#: The canonical name of each code: ``As`` .. ``2c``.
CARD_NAMES = tuple(RANK_SYMBOLS[code // 4] + SUITS[code % 4].value for code in range(52))

_CODES = frozenset(range(52))

# The spellings typed most (either case for rank and suit, 10 for T) mapped straight to codes.
_FAST: dict[str, int] = {}
for _code, _name in enumerate(CARD_NAMES):
    for _rank in {_name[0], _name[0].lower(), "10" if _name[0] == "T" else _name[0]}:
        for _suit in {_name[1], _name[1].upper()}:
            _FAST[_rank + _suit] = _code


def hand_codes(hand: HandLike) -> list[int]:
    """The 13 codes of a hand given as text or as cards (or card strings), in the order given.

    Raises :class:`~solver.cards.InvalidCardError` or :class:`~solver.cards.InvalidHandError`
    with the reason when it is not 13 distinct cards of one 52-card deck.
    """
    codes: list[int] | None = None
    try:
        if isinstance(hand, str):
            codes = [_FAST[token] for token in hand.replace(",", " ").split()]
        elif isinstance(hand, (list, tuple)):
            try:
                codes = [c.code for c in hand]  # cards
            except AttributeError:
                codes = [_FAST[t] for t in hand]  # card strings
    except (KeyError, TypeError):  # a spelling the table does not hold (or not a card at all)
        codes = None
    if codes is None or len(codes) != 13 or len(set(codes)) != 13 or not _CODES.issuperset(codes):
        codes = [c.code for c in check_hand(hand)]  # the slow path: any spelling, or the error
    return codes


__all__ = ["CARD_NAMES", "HandLike", "hand_codes"]
