"""Arrangements, validity, special hands and table settlement (spec D3, D6-D14).

>>> a = Arrangement.parse("Qc Qd 3h | Kc Kd 7s 6h 2c | 9s 9h 9d 4c 5d")
>>> b = Arrangement.parse("Jc 8d 2h / Th Td 8c 6d 2d / 3s 3d 7h 7d Ks")
>>> score_table([a, b]).totals
[6, -6]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

import numpy as np

from . import _core
from .cards import Card, InvalidHandError, Suit, parse_cards
from .hands import FULL_HOUSE, QUADS, STRAIGHT_FLUSH, TRIPS, category_of, check_cards, key3, key5
from .messages import echo
from .rules import Rules, get_rules

FRONT, MIDDLE, BACK = 0, 1, 2
ROW_NAMES = ("front", "middle", "back")
ROW_SIZES = (3, 5, 5)

CardsLike = Iterable[Card | str] | str
#: One shared card object per code 0..51 (cards are immutable values).
CARD_OF_CODE = tuple(Card(code) for code in range(52))
_CODES = frozenset(range(52))


@dataclass(frozen=True)
class Arrangement:
    """A 13-card hand set as front (3), middle (5) and back (5).

    Rows are kept in the order given; ``str()`` gives ``front | middle | back``.
    """

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]

    def __init__(self, front: CardsLike, middle: CardsLike, back: CardsLike) -> None:
        rows = []
        for name, size, row in zip(ROW_NAMES, ROW_SIZES, (front, middle, back)):
            rows.append(tuple(check_cards(row, (size,), f"the {name}")))
        everything = [c for row in rows for c in row]
        dupes = sorted({c for c in everything if everything.count(c) > 1})
        if dupes:
            raise InvalidHandError(
                f"arrangement uses {' '.join(map(str, dupes))} in two rows; the 13 cards must all differ"
            )
        object.__setattr__(self, "front", rows[0])
        object.__setattr__(self, "middle", rows[1])
        object.__setattr__(self, "back", rows[2])

    @classmethod
    def from_codes(cls, front: Sequence[int], middle: Sequence[int], back: Sequence[int]) -> Arrangement:
        """The arrangement of rows given as card codes (0..51), rows kept in the order given.

        The solver's answers come this way by the thousand, so a well-formed set of codes
        takes a short cut (shared card objects, one check of all 13); anything else goes
        through the constructor for its specific error.

        >>> str(Arrangement.from_codes([48, 0, 1], [44, 45, 40, 41, 36], [32, 28, 24, 20, 16]))
        'As 2s 2h | Ks Kh Qs Qh Js | Ts 9s 8s 7s 6s'
        """
        codes = (*front, *middle, *back)
        if len(front) == 3 and len(middle) == 5 and len(codes) == 13 and len(set(codes)) == 13 \
                and _CODES.issuperset(codes):  # fmt: skip
            card = CARD_OF_CODE.__getitem__
            try:
                rows = tuple(map(card, front)), tuple(map(card, middle)), tuple(map(card, back))
            except TypeError:  # equal to a code but not an integer (1.0)
                pass
            else:
                arrangement = object.__new__(cls)
                object.__setattr__(arrangement, "front", rows[0])
                object.__setattr__(arrangement, "middle", rows[1])
                object.__setattr__(arrangement, "back", rows[2])
                return arrangement
        return cls([Card(c) for c in front], [Card(c) for c in middle], [Card(c) for c in back])

    @classmethod
    def parse(cls, text: str) -> Arrangement:
        """Parse ``"front | middle | back"`` (``/`` also separates rows)."""
        if not isinstance(text, str):
            raise InvalidHandError(f"expected arrangement text, got {echo(text)}")
        parts = re.split(r"[|/]", text)
        if len(parts) != 3:
            raise InvalidHandError(
                f"an arrangement needs 3 rows separated by '|' or '/' (front | middle | back), "
                f"got {len(parts)} in {echo(text)}"
            )
        return cls(parts[0], parts[1], parts[2])

    @property
    def rows(self) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        return (self.front, self.middle, self.back)

    @property
    def cards(self) -> list[Card]:
        """All 13 cards, front first."""
        return [*self.front, *self.middle, *self.back]

    def keys(self, rules: Rules | str | None = None) -> tuple[int, int, int]:
        """Strength keys of front, middle and back."""
        wheel = get_rules(rules).wheel
        return key3(self.front), key5(self.middle, wheel), key5(self.back, wheel)

    def __str__(self) -> str:
        return " | ".join(" ".join(str(c) for c in row) for row in self.rows)


def _display_row(codes: Iterable[int]) -> list[int]:
    """Codes of a row in display order: rank high to low, suits s h d c."""
    return sorted((int(c) for c in codes), key=lambda c: (-(c >> 2), c & 3))


def arrangement_from_codes(front: Iterable[int], middle: Iterable[int], back: Iterable[int]) -> Arrangement:
    """An arrangement from card codes (as the compiled core returns them), rows in display order."""
    return Arrangement.from_codes(_display_row(front), _display_row(middle), _display_row(back))


def as_arrangement(value: Arrangement | str | Sequence[CardsLike]) -> Arrangement:
    """An :class:`Arrangement` from itself, its text, or a (front, middle, back) triple."""
    if isinstance(value, Arrangement):
        return value
    if isinstance(value, str):
        return Arrangement.parse(value)
    try:
        rows = list(value)
    except TypeError:
        raise InvalidHandError(f"expected an arrangement, got {echo(value)}") from None
    if len(rows) != 3:
        raise InvalidHandError(f"an arrangement needs 3 rows (front, middle, back), got {len(rows)}")
    return Arrangement(rows[0], rows[1], rows[2])


def check_hand(cards: CardsLike) -> list[Card]:
    """Parse and check a Mau Binh hand: exactly 13 distinct cards, no jokers."""
    return check_cards(cards, (13,), "a Mau Binh hand")


def keys_valid(front: int, middle: int, back: int, strict: bool) -> bool:
    """Validity (D3, D6) from the three strength keys."""
    if strict:
        return back > middle > front
    return back >= middle >= front


def is_valid(arrangement: Arrangement | str, rules: Rules | str | None = None) -> bool:
    """True when back ≥ middle ≥ front (strictly under ``strict``); False is a foul.

    >>> is_valid("Kc Kd Ah / Kh Ks Qc Jd Th / 2s 2h 2d 9c 9d")
    False
    """
    rules = get_rules(rules)
    f, m, b = as_arrangement(arrangement).keys(rules)
    return keys_valid(f, m, b, rules.strict)


# --- special hands (D12) -------------------------------------------------------------

_RUN_START_3 = [(r, 3) for r in range(2, 13)]  # 2-3-4 .. Q-K-A
_RUN_START_5 = [(r, 5) for r in range(2, 11)]  # 2-6 .. T-A


def _runs(length: int, ace_low: bool) -> list[list[int]]:
    starts = _RUN_START_3 if length == 3 else _RUN_START_5
    runs = [list(range(s, s + n)) for s, n in starts]
    if ace_low:
        runs.append([14] + list(range(2, length + 1)))
    return runs


def _three_straights(ranks: Counter[int], ace_low: bool) -> bool:
    fives = _runs(5, ace_low)
    threes = _runs(3, ace_low)

    def take(counts: Counter[int], run: list[int]) -> Counter[int] | None:
        if all(counts[r] >= 1 for r in run):
            rest = counts.copy()
            rest.subtract(run)
            return rest
        return None

    for i, a in enumerate(fives):
        after_a = take(ranks, a)
        if after_a is None:
            continue
        for b in fives[i:]:
            after_b = take(after_a, b)
            if after_b is None:
                continue
            if any(take(after_b, c) is not None for c in threes):
                return True
    return False


def _three_flushes(suits: Counter[Suit | None]) -> bool:
    return sorted(suits.values(), reverse=True) in ([13], [10, 3], [8, 5], [5, 5, 3])


def _six_pairs(ranks: Counter[int], rule: str) -> bool:
    if rule == "strict":
        return sorted(ranks.values()) == [1, 2, 2, 2, 2, 2, 2]
    return sum(n // 2 for n in ranks.values()) >= 6


def special_candidates(cards: CardsLike, rules: Rules | str | None = None) -> list[str]:
    """Every special hand the 13 cards qualify for, highest value first (ignores ``specials``)."""
    rules = get_rules(rules)
    hand = check_hand(cards)
    ranks = Counter(int(c.rank) for c in hand)  # type: ignore[arg-type]
    suits = Counter(c.suit for c in hand)
    found = []
    if len(ranks) == 13:
        found.append("dragon_flush" if len(suits) == 1 else "dragon")
    if _six_pairs(ranks, rules.six_pairs_rule):
        found.append("six_pairs")
    if _three_flushes(suits):
        found.append("three_flushes")
    if _three_straights(ranks, rules.ace_low_runs):
        found.append("three_straights")
    found.sort(key=lambda name: -rules.special_value(name))
    return found


def special_hand(cards: CardsLike, rules: Rules | str | None = None) -> str | None:
    """The highest-valued special hand in 13 cards, or None (D12).

    >>> special_hand("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")
    'dragon'
    """
    rules = get_rules(rules)
    found = special_candidates(cards, rules)
    if not rules.specials or not found:
        return None
    return found[0]


#: Pairs each row must hold to show six pairs: a pair in front, two pairs in the middle and
#: in the back (a trips counts as one pair, quads as two).
_SIX_PAIRS_NEED = (1, 2, 2)
_DRAGONS = ("dragon_flush", "dragon")


def _row_shows(name: str, row_index: int, codes: Sequence[int], rules: Rules) -> bool:
    """O13 "layout": does this row (0 front, 1 middle, 2 back; card codes) play its part?"""
    if name in _DRAGONS:
        return True
    if name == "three_flushes":
        return len({c & 3 for c in codes}) == 1
    ranks = sorted((c >> 2) + 2 for c in codes)
    if name == "three_straights":
        return ranks in _sorted_runs(len(codes), rules.ace_low_runs)
    return sum(n // 2 for n in Counter(ranks).values()) >= _SIX_PAIRS_NEED[row_index]


@cache
def _sorted_runs(length: int, ace_low: bool) -> tuple[list[int], ...]:
    return tuple(sorted(r) for r in _runs(length, ace_low))


def _shows_special(arrangement: Arrangement, name: str, rules: Rules) -> bool:
    """O13 "layout": does the submitted arrangement display this special?

    A dragon shows however it is set; three flushes need a suit per row, three straights a
    run per row, six pairs its pairs laid out as pair / two pair / two pair (or more).
    """
    return all(_row_shows(name, i, [c.code for c in row], rules) for i, row in enumerate(arrangement.rows))


Split = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def layouts_showing(cards: CardsLike, name: str, rules: Rules | str | None = None) -> list[Split]:
    """Every split of the 13 cards (front, middle, back card codes) that shows the special
    ``name`` under O13 "layout".

    Rows are built front first and a row that cannot take part is dropped at once, so the
    search stays small (at most 286 fronts x 252 middles, most fronts dropped).  A dragon
    shows in any arrangement, so for dragons this gives only the strongest-back-first one.
    """
    rules = get_rules(rules)
    hand = check_hand(cards)
    codes = [c.code for c in hand]
    if name in _DRAGONS:
        split = _core.strongest_back_first(np.asarray([codes], dtype=np.int32), rules.wheel == "second")[0]
        return [(tuple(split[:3].tolist()), tuple(split[3:8].tolist()), tuple(split[8:].tolist()))]
    found: list[Split] = []
    for front in combinations(codes, 3):
        if not _row_shows(name, FRONT, front, rules):
            continue
        rest = [c for c in codes if c not in front]
        for middle in combinations(rest, 5):
            if not _row_shows(name, MIDDLE, middle, rules):
                continue
            back = tuple(c for c in rest if c not in middle)
            if _row_shows(name, BACK, back, rules):
                found.append((front, middle, back))
    return found


def declared_special(arrangement: Arrangement, rules: Rules | str | None = None) -> str | None:
    """The special hand that counts for this arrangement under ``special_detection``."""
    rules = get_rules(rules)
    if not rules.specials:
        return None
    for name in special_candidates(arrangement.cards, rules):
        if rules.special_detection == "auto" or _shows_special(arrangement, name, rules):
            return name
    return None


# --- chi values (D7, O6) -------------------------------------------------------------

_REPLACE = {(FRONT, TRIPS): 3, (MIDDLE, FULL_HOUSE): 2, (MIDDLE, QUADS): 8, (MIDDLE, STRAIGHT_FLUSH): 10,
            (BACK, QUADS): 4, (BACK, STRAIGHT_FLUSH): 5}  # fmt: skip
_DOUBLED = {(FRONT, TRIPS): 6, (MIDDLE, FULL_HOUSE): 4, (MIDDLE, QUADS): 16, (MIDDLE, STRAIGHT_FLUSH): 20,
            (BACK, QUADS): 8, (BACK, STRAIGHT_FLUSH): 10}  # fmt: skip
_ACE_DIGIT = 13
_ROYAL_D1 = 26


def chi_value(row: int, key: int, rules: Rules | str | None = None) -> int:
    """Chi the winner of ``row`` (0 front, 1 middle, 2 back) receives holding ``key``."""
    rules = get_rules(rules)
    cat = category_of(key) if row else (TRIPS if category_of(key) == TRIPS else -1)
    mode = rules.bonuses
    if mode == "none":
        return 1
    if mode == "doubled":
        return _DOUBLED.get((row, cat), 1)
    value = _REPLACE.get((row, cat), 1)
    if mode == "add":
        return 1 + value if (row, cat) in _REPLACE else 1
    if mode == "aces_extra":
        d1 = key >> 20 & 31
        if row == FRONT and cat == TRIPS and d1 == _ACE_DIGIT:
            return 12
        if cat == QUADS and d1 == _ACE_DIGIT and row != FRONT:
            return 32 if row == MIDDLE else 16
        if cat == STRAIGHT_FLUSH and row != FRONT:
            if d1 == _ROYAL_D1:
                return 20 if row == MIDDLE else 10
            if d1 in (25, 8):  # A-2-3-4-5 in either wheel mode
                return 14 if row == MIDDLE else 7
    return value


def chi_values_table(rules: Rules | str | None = None) -> list[list[int]]:
    """``table[row][category]`` for every mode but ``aces_extra`` (which depends on ranks)."""
    rules = get_rules(rules)
    return [[chi_value(row, cat << 25 | 1 << 20, rules) for cat in range(9)] for row in range(3)]


# --- settlement (D7-D14) -------------------------------------------------------------

#: The kinds of :class:`SettlementItem`, in the order score_table applies them.
ITEM_KINDS = ("special", "foul", "bonus", "sap", "sap_lang", "aces")


@dataclass(frozen=True)
class RowResult:
    """One row of a pair of seats compared (D6, D7, O5).

    * ``row``: 0 front, 1 middle, 2 back;
    * ``winner``: the seat that takes the row, None for a tie (equal keys pay 0, D10);
    * ``chi``: what the winner receives for the row, positional bonus included (D7, O6:
      front trips 3 under the default rules); 0 for a tie;
    * ``category``: the category of the winner's row (of both rows on a tie), a
      :mod:`solver.hands` category 0..8 (a front is 0, 1 or 3);
    * ``owner_tie``: the keys were equal and the table owner, seat 0, took the row (O5).

    >>> RowResult(0, 1, 3, 3).bonus
    True
    """

    row: int
    winner: int | None
    chi: int
    category: int
    owner_tie: bool = False

    @property
    def bonus(self) -> bool:
        """True when the winner's hand pays more than the plain 1 chi (a positional bonus)."""
        return self.chi > 1


@dataclass(frozen=True)
class SettlementItem:
    """One payment between a pair of seats besides the rows: ``amount`` chi (never
    negative) that seat ``to`` receives from the other seat of the pair.

    ``kind`` and what ``detail`` holds for it (:data:`ITEM_KINDS`):

    * ``"special"`` (D12, O14): a special hand's payment; detail: the special's name
      (``"dragon"``, ...).  Every holder of a special in the pair gets an item; a special
      that pays nothing (beaten or tied) has amount 0.
    * ``"foul"`` (D11, O9): the fouled seat pays ``to``; detail: the foul mode
      (``"flat"``, ``"opponent_x2"``, ``"opponent_x1"``), or ``"both"`` when both seats
      fouled (amount 0, one item per fouled seat, ``to`` the other seat).
    * ``"bonus"``: the majority bonus of 4-2 scoring (winning 2 rows or more); detail
      ``"majority"``.  Positional bonuses are in the rows' chi (:attr:`RowResult.chi`).
    * ``"sap"`` (D8, O7): ``to`` won all three rows; amount: what the sweep multiplier
      and sweep bonus add to the pair; detail: ``"x2"`` (multiplier) and ``"+3"`` (flat
      bonus) as the rules have them, e.g. ``"x2"``, ``"x1+3"``.
    * ``"sap_lang"`` (D9, O8, O10): ``to`` scooped every opponent; amount: what the
      further multiplier adds to this pair; detail: ``"x2"``.
    * ``"aces"`` (D13, O16): ``to`` holds more aces (amount: the difference; 0 when
      equal, ``to`` then the pair's first seat); detail: the two counts ``"2-1"``, the
      receiver's first, or ``"void"`` (amount 0) when one seat at the table holds all four.
    """

    kind: str
    to: int
    amount: int
    detail: str = ""


@dataclass(frozen=True)
class PairSettlement:
    """What seats ``a`` and ``b`` settle between them, item by item.

    ``rows`` holds the three :class:`RowResult` (front, middle, back) when the pair was
    compared row by row, and is empty when a foul or a special settled it instead;
    ``extras`` holds every other :class:`SettlementItem` in the order they apply; ``net``
    is the chi ``a`` receives from ``b`` (negative when ``a`` pays).  Rows and items name
    seats, so the same record read from ``b``'s side only flips the sign of ``net``
    (:meth:`flipped`).  The items add up: :meth:`received` of ``a`` equals ``net``.

    >>> r = score_table(["Qc Qd 3h | Kc Kd 7s 6h 2c | 9s 9h 9d 4c 5d",
    ...                  "Ac 8d 2h | Th Td 9c 6d 2d | 3s 3d 7h 7d As"])
    >>> s = r.settlement(0, 1)
    >>> [(row.winner, row.chi) for row in s.rows]
    [(0, 1), (0, 1), (0, 1)]
    >>> [(x.kind, x.to, x.amount, x.detail) for x in s.extras]
    [('sap', 0, 3, 'x2'), ('aces', 1, 2, '2-0')]
    >>> s.net, s.received(0), s.flipped().net
    (4, 4, -4)
    """

    a: int
    b: int
    rows: tuple[RowResult, ...]
    extras: tuple[SettlementItem, ...]
    net: int

    def received(self, seat: int) -> int:
        """The chi ``seat`` (``a`` or ``b``) receives from the other, summed over the items."""
        if seat not in (self.a, self.b):
            raise ValueError(f"seat {seat!r} is not in this pair ({self.a}, {self.b})")
        total = 0
        for row in self.rows:
            if row.winner is not None:
                total += row.chi if row.winner == seat else -row.chi
        for item in self.extras:
            total += item.amount if item.to == seat else -item.amount
        return total

    def flipped(self) -> PairSettlement:
        """The same settlement read from ``b``'s side."""
        return PairSettlement(self.b, self.a, self.rows, self.extras, -self.net)


@dataclass
class TableResult:
    """Outcome of one deal: ``pairs[i][j]`` is chi seat i receives from seat j.

    ``settlements`` itemises every pair ``i < j`` (:class:`PairSettlement`); use
    :meth:`settlement` for any ordered pair.
    """

    pairs: list[list[int]]
    totals: list[int]
    specials: list[str | None]
    fouls: list[bool]
    scooped: list[list[bool]] = field(default_factory=list)
    sap_lang: list[bool] = field(default_factory=list)
    aces: list[int] = field(default_factory=list)
    settlements: tuple[PairSettlement, ...] = ()

    def settlement(self, a: int, b: int) -> PairSettlement:
        """The itemised settlement between seats ``a`` and ``b``, ``net`` from ``a``'s side."""
        n = len(self.totals)
        for seat in (a, b):
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
                raise ValueError(f"a seat of this {n}-seat table is 0..{n - 1}, got {seat!r}")
        if a == b:
            raise ValueError(f"a pair needs two different seats, got {a} twice")
        for pair in self.settlements:
            if (pair.a, pair.b) == (a, b):
                return pair
            if (pair.a, pair.b) == (b, a):
                return pair.flipped()
        raise ValueError(f"this result holds no settlement of seats {a} and {b}")


def _row_results(
    i: int, j: int, ki: tuple[int, int, int], kj: tuple[int, int, int], rules: Rules, owner: int | None
) -> tuple[int, int, int, list[RowResult]]:
    """(net chi for i, rows i won, rows j won, the rows) before scoop doubling."""
    net = won_i = won_j = 0
    rows = []
    for row in range(3):
        a, b = ki[row], kj[row]
        owner_tie = a == b and rules.ties == "owner" and owner is not None
        if owner_tie:
            # O5: the table owner takes the tie with their own hand's value.
            if owner == 0:
                a += 1
            else:
                b += 1
        if a > b:
            won_i += 1
            chi = chi_value(row, ki[row], rules)
            net += chi
            rows.append(RowResult(row, i, chi, category_of(ki[row]), owner_tie))
        elif b > a:
            won_j += 1
            chi = chi_value(row, kj[row], rules)
            net -= chi
            rows.append(RowResult(row, j, chi, category_of(kj[row]), owner_tie))
        else:
            rows.append(RowResult(row, None, 0, category_of(ki[row])))
    if won_i >= 2:
        net += rules.majority_bonus
    if won_j >= 2:
        net -= rules.majority_bonus
    return net, won_i, won_j, rows


def _sweep(net: int, rules: Rules) -> int:
    return net * rules.sweep_mult + (rules.sweep_bonus if net > 0 else -rules.sweep_bonus)


def _sweep_detail(rules: Rules) -> str:
    return f"x{rules.sweep_mult}" + (f"+{rules.sweep_bonus}" if rules.sweep_bonus else "")


def _foul_payment(winner_keys: tuple[int, int, int], rules: Rules) -> int:
    if rules.foul_mode == "flat":
        return rules.foul_chi
    total = sum(chi_value(row, winner_keys[row], rules) for row in range(3))
    return total * (2 if rules.foul_mode == "opponent_x2" else 1)


def _special_payments(vi: int, vj: int, rules: Rules) -> tuple[int, int]:
    """What each of two special values collects (D12, O14); i's net is the difference."""
    if vi == vj:
        return 0, 0
    if vi and vj:
        if rules.special_vs_special == "tie":
            return 0, 0
        if rules.special_vs_special == "difference":
            return vi, vj
    return (vi, 0) if vi > vj else (0, vj)


def score_table(arrangements: Sequence[Arrangement | str], rules: Rules | str | None = None) -> TableResult:
    """Settle one deal among 2-4 players (D14); zero-sum and antisymmetric.

    ``settlements`` on the result itemises each pair (:class:`PairSettlement`).

    >>> score_table(["Qc Qd 3h | Kc Kd 7s 6h 2c | 9s 9h 9d 4c 5d",
    ...              "Ac 8d 2h | Th Td 9c 6d 2d | 3s 3d 7h 7d As"]).totals
    [4, -4]
    """
    rules = get_rules(rules)
    if isinstance(arrangements, (str, Arrangement)) or not isinstance(arrangements, Sequence):
        raise InvalidHandError(f"score_table needs a list of 2 to 4 arrangements, got {echo(arrangements)}")
    arrs = [as_arrangement(a) for a in arrangements]
    n = len(arrs)
    if not 2 <= n <= 4:
        raise InvalidHandError(f"a Mau Binh table seats 2 to 4 players, got {n} arrangements")
    seen: dict[Card, int] = {}
    for seat, arr in enumerate(arrs):
        for c in arr.cards:
            if c in seen:
                raise InvalidHandError(f"{c} is in seat {seen[c]} and seat {seat}; one 52-card deck has each card once")
            seen[c] = seat
    keys = [a.keys(rules) for a in arrs]
    specials = [declared_special(a, rules) for a in arrs]
    fouls = [s is None and not keys_valid(*k, rules.strict) for s, k in zip(specials, keys)]
    aces = [sum(1 for c in a.cards if c.rank == 14) for a in arrs]
    pairs = [[0] * n for _ in range(n)]
    scooped = [[False] * n for _ in range(n)]
    special_pair = [[False] * n for _ in range(n)]
    compared: dict[tuple[int, int], list[RowResult]] = {}
    extras: dict[tuple[int, int], list[SettlementItem]] = {}

    for i, j in combinations(range(n), 2):
        si, sj = specials[i], specials[j]
        items = extras[i, j] = []
        if si or sj:
            vi = rules.special_value(si) if si else 0
            vj = rules.special_value(sj) if sj else 0
            paid_i, paid_j = _special_payments(vi, vj, rules)
            net = paid_i - paid_j
            items += [SettlementItem("special", to, paid, name)
                      for to, paid, name in ((i, paid_i, si), (j, paid_j, sj)) if name]  # fmt: skip
            special_pair[i][j] = special_pair[j][i] = True
        elif fouls[i] and fouls[j]:
            net = 0
            items += [SettlementItem("foul", j, 0, "both"), SettlementItem("foul", i, 0, "both")]
        elif fouls[i]:
            net = -_foul_payment(keys[j], rules)
            items.append(SettlementItem("foul", j, -net, rules.foul_mode))
            scooped[j][i] = rules.foul_sap_lang
        elif fouls[j]:
            net = _foul_payment(keys[i], rules)
            items.append(SettlementItem("foul", i, net, rules.foul_mode))
            scooped[i][j] = rules.foul_sap_lang
        else:
            owner = None if rules.ties != "owner" or 0 not in (i, j) else (0 if i == 0 else 1)
            net, won_i, won_j, compared[i, j] = _row_results(i, j, keys[i], keys[j], rules, owner)
            items += [SettlementItem("bonus", seat, rules.majority_bonus, "majority")
                      for seat, won in ((i, won_i), (j, won_j)) if won >= 2 and rules.majority_bonus]  # fmt: skip
            if won_i == 3 or won_j == 3:
                winner, loser = (i, j) if won_i == 3 else (j, i)
                swept = _sweep(net, rules)
                items.append(SettlementItem("sap", winner, abs(swept - net), _sweep_detail(rules)))
                net = swept
                scooped[winner][loser] = True
        pairs[i][j], pairs[j][i] = net, -net

    sap_lang = [False] * n
    if rules.sap_lang and n >= max(3, rules.sap_lang_min_players):
        for p in range(n):
            if specials[p] is None and not fouls[p] and all(scooped[p][q] for q in range(n) if q != p):
                sap_lang[p] = True
        for p in range(n):
            if sap_lang[p]:
                for q in range(n):
                    if q != p:
                        before = pairs[p][q]
                        pairs[p][q] *= rules.sap_lang_mult
                        pairs[q][p] = -pairs[p][q]
                        extras[min(p, q), max(p, q)].append(
                            SettlementItem("sap_lang", p, abs(pairs[p][q] - before), f"x{rules.sap_lang_mult}")
                        )

    if rules.aces:
        void = max(aces) == 4
        for i, j in combinations(range(n), 2):
            involved = special_pair[i][j] or fouls[i] or fouls[j]
            if involved and not rules.aces_all_pairs:
                continue
            if void:
                extras[i, j].append(SettlementItem("aces", i, 0, "void"))
                continue
            pairs[i][j] += aces[i] - aces[j]
            pairs[j][i] = -pairs[i][j]
            to, other = (i, j) if aces[i] >= aces[j] else (j, i)
            extras[i, j].append(SettlementItem("aces", to, aces[to] - aces[other], f"{aces[to]}-{aces[other]}"))

    totals = [sum(row) for row in pairs]
    settlements = tuple(
        PairSettlement(i, j, tuple(compared.get((i, j), ())), tuple(extras[i, j]), pairs[i][j])
        for i, j in combinations(range(n), 2)
    )
    return TableResult(pairs, totals, specials, fouls, scooped, sap_lang, aces, settlements)


def parse_hand(text: CardsLike) -> list[Card]:
    """Parse and check a 13-card Mau Binh hand (alias of the check used by the solver)."""
    return check_hand(parse_cards(text) if isinstance(text, str) else text)
