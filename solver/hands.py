"""Three- and five-card hand strength in pure Python (the reference evaluator).

Strength is one integer per hand (spec Appendix A); greater is stronger and equal is
a tie, so suits never break ties.  The same key serves both row comparison and the
front-versus-middle validity rule (D6)::

    key = category << 25 | d1 << 20 | d2 << 15 | d3 << 10 | d4 << 5 | d5

* category: 5 cards 0..8 as in D4; 3 cards: high card 0, pair 1, trips 3.
* digits: ranks coded 2→1 … A→13, ordered by (multiplicity desc, rank desc),
  repeats kept; the 3-card front pads d4, d5 with 0 so a front whose digits equal
  the middle's first three digits counts as not stronger (the D6 prefix rule).
* straights: d1 = 2·top (top coded 1..13); A-2-3-4-5 is ``2·12+1`` (between K-high and
  A-high) by default or ``8`` (5-high, the lowest) under ``wheel="lowest"``.

Three-card straights and flushes do not count (D6).

>>> hand_strength("As Kd Qc Jh Ts") > hand_strength("2h 5h 9h Jh Kh")
False
>>> category_name(hand_strength("5c 5d 5h"))
'three of a kind'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .cards import Card, InvalidHandError, parse_cards
from .messages import echo
from .rules import Rules, get_rules

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

#: (English, Vietnamese, Khmer) names per category, from the spec's terminology table.
CATEGORY_NAMES: tuple[tuple[str, str, str], ...] = (
    ("high card", "mậu thầu", "ម៉ូវថូវ"),
    ("one pair", "đôi (dách)", "យ៉ាត"),
    ("two pair", "thú", "ធូ"),
    ("three of a kind", "xám", "ជីប្រផេះ"),
    ("straight", "sảnh", "សាញ់"),
    ("flush", "thùng", "ធុង"),
    ("full house", "cù lũ", "គូលូ"),
    ("four of a kind", "tứ quý", "ត្រីមាស"),
    ("straight flush", "thùng phá sảnh", "ធុងបំផ្លាញសាញ់"),
)

CATEGORY_SHIFT = 25


def make_key(category: int, digits: Sequence[int]) -> int:
    """Pack a category and up to five digits (each 0..31) into one strength key."""
    padded = list(digits) + [0] * (5 - len(digits))
    key = category
    for d in padded:
        key = key << 5 | d
    return key


def category_of(key: int) -> int:
    """The category (0..8) of a strength key."""
    return key >> CATEGORY_SHIFT


def category_name(key: int) -> str:
    """English name of a key's category."""
    return CATEGORY_NAMES[category_of(key)][0]


def _straight_top(ranks: Sequence[int]) -> int | None:
    """Top rank code of a 5-card straight (wheel → 0 as a marker), else None."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1] - 1
    if distinct == [2, 3, 4, 5, 14]:
        return 0
    return None


def key5(cards: Sequence[Card], wheel: str = "second") -> int:
    """Strength key of five distinct ranked cards (no validation)."""
    ranks = [int(c.rank) for c in cards]  # type: ignore[arg-type]
    flush = len({c.suit for c in cards}) == 1
    top = _straight_top(ranks)
    if top is not None:
        d1 = (2 * 12 + 1 if wheel == "second" else 8) if top == 0 else 2 * top
        return make_key(STRAIGHT_FLUSH if flush else STRAIGHT, [d1])
    counts = Counter(ranks)
    ordered = sorted(ranks, key=lambda r: (-counts[r], -r))
    digits = [r - 1 for r in ordered]
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        cat = QUADS
    elif shape[:2] == [3, 2]:
        cat = FULL_HOUSE
    elif flush:
        cat = FLUSH
    elif shape[0] == 3:
        cat = TRIPS
    elif shape[:2] == [2, 2]:
        cat = TWO_PAIR
    elif shape[0] == 2:
        cat = PAIR
    else:
        cat = HIGH_CARD
    return make_key(cat, digits)


def key3(cards: Sequence[Card]) -> int:
    """Strength key of three distinct ranked cards (no validation)."""
    ranks = [int(c.rank) for c in cards]  # type: ignore[arg-type]
    counts = Counter(ranks)
    ordered = sorted(ranks, key=lambda r: (-counts[r], -r))
    cat = {3: TRIPS, 2: PAIR, 1: HIGH_CARD}[max(counts.values())]
    return make_key(cat, [r - 1 for r in ordered])


def check_cards(cards: Iterable[Card | str] | str, sizes: Sequence[int], what: str) -> list[Card]:
    """Parse and check a group of distinct, joker-free cards of one of ``sizes``."""
    parsed = parse_cards(cards)
    if len(parsed) not in sizes:
        expected = " or ".join(str(s) for s in sizes)
        raise InvalidHandError(f"{what} needs {expected} cards, got {len(parsed)}: {echo(_show(parsed))}")
    jokers = [c for c in parsed if c.is_joker]
    if jokers:
        raise InvalidHandError(f"{what} cannot hold jokers, got {echo(_show(jokers))}; Mau Binh uses one 52-card deck")
    dupes = sorted({c for c in parsed if parsed.count(c) > 1})
    if dupes:
        raise InvalidHandError(f"{what} repeats {echo(_show(dupes))}; every card must be different")
    return parsed


def _show(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def hand_strength(cards: Iterable[Card | str] | str, rules: Rules | str | None = None) -> int:
    """Strength of a 3- or 5-card row: greater is stronger, equal is a tie.

    >>> hand_strength("As 2d 3c 4h 5s") > hand_strength("9c Td Jh Qs Kd")
    True
    >>> hand_strength("As 2d 3c 4h 5s", "plain") > hand_strength("9c Td Jh Qs Kd", "plain")
    False
    """
    rules = get_rules(rules)
    parsed = check_cards(cards, (3, 5), "a row")
    return key3(parsed) if len(parsed) == 3 else key5(parsed, rules.wheel)
