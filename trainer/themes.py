"""Mistakes named in words: the themes that tell a played set from the best one.

A theme is one idea a player can learn ("you broke a straight", "the pair belongs in
front").  :func:`themes` compares the set a player submitted with the solver's best set
for the same 13 cards and returns every theme that tells them apart, the most telling
first, each a frozen :class:`Theme` holding its id and the facts a sentence needs.  The
ids are stable (the Practice page marks each with ``data-theme="<id>"`` and the store
keeps them); the taxonomy:

=====================  ==============================================================
id                     the theme (``side``: which set has or does what the id names)
=====================  ==============================================================
``foul``               your set breaks back ≥ middle ≥ front (binh lủng) and pays every
                       opponent; ``row`` is stronger than ``other_row``, the row after it
``missed-special``     the hand is a special hand that pays only when laid out (rules
                       with ``special_detection="layout"``), and your set hides it
``broken-straight``    one set keeps a straight in a row (``row``, ``cards``), the other
                       breaks it up; ``side="best"``: you broke it, the best set keeps it
``broken-flush``       the same for a flush (a straight flush counts as both)
``broken-full-house``  one set keeps a full house in one row, the other splits its
                       trips and pair over two rows
``split-two-pair``     one set keeps two pairs together in one row, the other splits
                       them over two rows (``other_row`` gets the pair that moves)
``pair-in-front``      one set puts a pair in front, the other a high-card front and
                       that pair in the middle or back (``other_row``)
``trips-placement``    three of a kind sits in a different row in the two sets, or one
                       set breaks it up (``row`` None)
``bonus-row``          the best set wins a bonus (trips in front, a full house, quads
                       or straight flush in the middle, quads or straight flush in the
                       back) in ``row``, where your set's row pays less
``scoop-risk``         your set is swept (sập) by an opponent in ``value`` ≥ 20 % of deals,
                       the best set at least 10 points less often (``other_value``), and
                       the sập and sập làng parts of the gap are worth ``chi`` ≥ 0.3
``kicker``             every row keeps its hand (category and main rank), only side
                       cards move; ``cards`` the highest that moves, to ``row``
``weak-front``         the best set's front is stronger than yours, and no theme above
                       explains it
``weak-middle``        the same for the middle
``weak-back``          the same for the back
=====================  ==============================================================

Rows are numbered 0 front, 1 middle, 2 back; categories as in :mod:`solver.hands`.
The functions are pure: the same hand, sets, rules, table size and field give the same
themes.

>>> from solver import solve, strongest_back_first
>>> hand = "Js Jd 3s 3h 3c 9s 5s 2s Ah Kh Qh Th 2h"
>>> [t.id for t in themes(hand, strongest_back_first(hand), solve(hand).best)]
['broken-full-house', 'trips-placement', 'pair-in-front']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver import PRESETS, Card, Rules
from solver.fields import DEFAULT_FIELD
from solver.hands import FLUSH, FULL_HOUSE, HIGH_CARD, PAIR, STRAIGHT, STRAIGHT_FLUSH, TWO_PAIR, category_of
from solver.rules import get_rules
from solver.scoring import Arrangement, as_arrangement, chi_value, declared_special, keys_valid

from .ev_parts import EvParts, ev_parts, gap

CardsLike = Iterable[Card | str] | str

#: The theme ids, in the order :func:`themes` lists them (the first found leads the feedback).
THEME_IDS = (
    "foul",
    "missed-special",
    "broken-straight",
    "broken-flush",
    "broken-full-house",
    "bonus-row",
    "trips-placement",
    "split-two-pair",
    "pair-in-front",
    "scoop-risk",
    "weak-front",
    "weak-middle",
    "weak-back",
    "kicker",
)
#: One line per theme (English; the app's sentences are in ``app/feedback.py``).
DEFINITIONS = {
    "foul": "your set breaks back >= middle >= front and pays every opponent",
    "missed-special": "the hand is a special hand that pays only when laid out, and your set does not show it",
    "broken-straight": "one set keeps a straight together, the other breaks it up",
    "broken-flush": "one set keeps a flush together, the other breaks it up",
    "broken-full-house": "one set keeps a full house together, the other splits it over two rows",
    "split-two-pair": "one set keeps two pairs in one row, the other splits them over two rows",
    "pair-in-front": "one set plays a pair in front, the other a high-card front and the pair further back",
    "trips-placement": "three of a kind sits in a different row, or is broken up, in the best set",
    "bonus-row": "the best set wins a bonus in a row where your set's row pays less",
    "scoop-risk": "your set is swept (sập) by an opponent in 20 % of deals or more, the best set far less often",
    "weak-front": "the best set's front is stronger, and no other theme explains it",
    "weak-middle": "the best set's middle is stronger, and no other theme explains it",
    "weak-back": "the best set's back is stronger, and no other theme explains it",
    "kicker": "every row keeps its hand; only the side cards (kickers) move",
}
#: Scoop risk is a theme when the played set is swept by one opponent at least SWEPT_MIN of
#: the time, the best set at least SWEPT_DROP less often, and the sập and sập làng parts of
#: the gap are worth at least SCOOP_MIN chi.
SWEPT_MIN = 0.2
SWEPT_DROP = 0.1
SCOOP_MIN = 0.3
ROW_THEMES = ("weak-front", "weak-middle", "weak-back")

_STRAIGHTS = (STRAIGHT, STRAIGHT_FLUSH)
_FLUSHES = (FLUSH, STRAIGHT_FLUSH)


@dataclass(frozen=True)
class Theme:
    """One theme found between a played set and the best set, with what a sentence needs.

    ``side`` is "best" when the best set has or does what the id names and yours does not,
    "played" when yours does and the best set does not.  ``row`` is the row concerned in
    the set ``side`` names, ``other_row`` where the other set has those cards (None: split
    over rows or not applicable); ``category`` / ``other_category`` the hand categories of
    those rows; ``cards`` the cards concerned as text (``other_cards``: the other set's row,
    for the weak-row themes); ``name`` a special hand's name; ``value`` / ``other_value`` chi
    values or chances (per theme, see the module table); ``chi`` an amount of the EV gap.
    """

    id: str
    side: str = "best"
    cards: tuple[str, ...] = ()
    row: int | None = None
    other_row: int | None = None
    category: int | None = None
    other_category: int | None = None
    value: float | None = None
    other_value: float | None = None
    chi: float | None = None
    name: str = ""
    other_cards: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.id not in DEFINITIONS:
            raise ValueError(f"unknown theme id {self.id!r}; expected one of {', '.join(THEME_IDS)}")
        if self.side not in ("best", "played"):
            raise ValueError(f"a theme's side is 'best' or 'played', got {self.side!r}")


@dataclass(frozen=True)
class _Set:
    """A set's rows as the comparisons read them."""

    rows: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    keys: tuple[int, int, int]

    @property
    def categories(self) -> tuple[int, int, int]:
        return category_of(self.keys[0]), category_of(self.keys[1]), category_of(self.keys[2])

    def row_of(self, card: Card) -> int:
        return next(i for i, row in enumerate(self.rows) if card in row)

    def rank_rows(self, rank: int) -> Counter[int]:
        """How many cards of ``rank`` each row holds."""
        return Counter(i for i, row in enumerate(self.rows) for c in row if c.rank == rank)

    def plan(self, row: int) -> int:
        """A row's category and main rank (its key's top digits)."""
        return self.keys[row] >> 20


def _cards(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(str(c) for c in sorted(cards, key=lambda c: (-int(c.rank or 0), c.code)))


def _grouped(row: Sequence[Card], size: int) -> list[int]:
    """Ranks held at least ``size`` times in a row, highest first."""
    counts = Counter(int(c.rank or 0) for c in row)
    return sorted((r for r, n in counts.items() if n >= size), reverse=True)


def themes(
    cards: CardsLike,
    played: Arrangement | str,
    best: Arrangement | str,
    rules: Rules | str | None = PRESETS["vietnamese"],
    players: int = 4,
    field: str = DEFAULT_FIELD,
    parts: tuple[EvParts, EvParts] | None = None,
) -> tuple[Theme, ...]:
    """Every theme that tells ``played`` from ``best`` (both sets of ``cards``), most telling first.

    ``parts`` may pass the two sets' :func:`trainer.ev_parts.ev_parts` (played, best) when
    the caller has them already.  Two sets with the same rows give no theme.
    """
    rules = get_rules(rules)
    mine, top = as_arrangement(played), as_arrangement(best)
    if parts is None:
        parts = (ev_parts(cards, mine, rules, players, field), ev_parts(cards, top, rules, players, field))
    if all(set(a) == set(b) for a, b in zip(mine.rows, top.rows)):
        return ()
    p = _Set(mine.rows, mine.keys(rules))
    b = _Set(top.rows, top.keys(rules))
    shown_mine, shown_best = declared_special(mine, rules), declared_special(top, rules)
    if shown_mine is None and not keys_valid(*p.keys, rules.strict):
        return (_foul(p),)
    found: list[Theme] = []
    if shown_best is not None and shown_mine is None:
        found.append(Theme("missed-special", name=shown_best, value=float(rules.special_value(shown_best))))
    if shown_mine is not None or shown_best is not None:
        return tuple(found)
    explained: set[int] = set()
    for kind, theme_id in ((_STRAIGHTS, "broken-straight"), (_FLUSHES, "broken-flush")):
        found += _made_hand(theme_id, kind, p, b, explained)
    found += _full_house(p, b, explained)
    found += _bonus_row(p, b, rules, explained)
    found += _trips(p, b, explained)
    found += _two_pair(p, b, explained)
    found += _pair_in_front(p, b, explained)
    found += _scoop(parts[0], parts[1])
    plans_equal = all(p.plan(k) == b.plan(k) for k in range(3))
    for row, theme_id in enumerate(ROW_THEMES):
        if row not in explained and b.keys[row] > p.keys[row] and not plans_equal:
            found.append(Theme(theme_id, cards=_cards(b.rows[row]), row=row, category=b.categories[row],
                               other_category=p.categories[row], other_cards=_cards(p.rows[row])))  # fmt: skip
    if plans_equal:
        found.append(_kicker(p, b))
    order = {theme_id: i for i, theme_id in enumerate(THEME_IDS)}
    return tuple(sorted(found, key=lambda t: order[t.id]))


def _foul(p: _Set) -> Theme:
    front, middle, _ = p.keys
    row = 0 if front > middle else 1
    return Theme("foul", side="played", cards=_cards(p.rows[row]), row=row, other_row=row + 1,
                 category=p.categories[row], other_category=p.categories[row + 1])  # fmt: skip


def _made_hand(theme_id: str, kind: tuple[int, ...], p: _Set, b: _Set, explained: set[int]) -> list[Theme]:
    """A straight (or flush) one set keeps in a row and the other does not."""
    have_p = [k for k in (1, 2) if p.categories[k] in kind]
    have_b = [k for k in (1, 2) if b.categories[k] in kind]
    if len(have_b) > len(have_p):
        row = next((k for k in have_b if set(b.rows[k]) not in [set(p.rows[j]) for j in have_p]), have_b[0])
        explained.add(row)
        return [Theme(theme_id, side="best", cards=_cards(b.rows[row]), row=row, category=b.categories[row],
                      other_category=p.categories[row])]  # fmt: skip
    if len(have_p) > len(have_b):
        row = next((k for k in have_p if set(p.rows[k]) not in [set(b.rows[j]) for j in have_b]), have_p[0])
        explained.add(row)
        return [Theme(theme_id, side="played", cards=_cards(p.rows[row]), row=row, category=p.categories[row],
                      other_category=b.categories[row])]  # fmt: skip
    return []


def _full_house(p: _Set, b: _Set, explained: set[int]) -> list[Theme]:
    """A full house one set keeps in one row while the other splits its trips and pair."""
    for side, this, other in (("played", p, b), ("best", b, p)):
        for row in (1, 2):
            if this.categories[row] != FULL_HOUSE:
                continue
            trips, pair = _grouped(this.rows[row], 3)[0], _grouped(this.rows[row], 2)
            pair_rank = next(r for r in pair if r != trips)
            together = any(other.rank_rows(trips)[k] >= 3 and other.rank_rows(pair_rank)[k] >= 2 for k in range(3))
            if not together:
                where = other.rank_rows(trips).most_common(1)[0][0]
                explained.update({row, where})
                return [Theme("broken-full-house", side=side, cards=_cards(this.rows[row]), row=row, other_row=where,
                              category=FULL_HOUSE, other_category=other.categories[where])]  # fmt: skip
    return []


def _bonus_row(p: _Set, b: _Set, rules: Rules, explained: set[int]) -> list[Theme]:
    """The best set's bonus hand in a row where the played set's row pays less."""
    for row in (0, 1, 2):
        mine, best = chi_value(row, p.keys[row], rules), chi_value(row, b.keys[row], rules)
        if best > 1 and best > mine:
            explained.add(row)
            return [Theme("bonus-row", cards=_cards(b.rows[row]), row=row, category=b.categories[row],
                          other_category=p.categories[row], value=float(best), other_value=float(mine))]  # fmt: skip
    return []


def _trips(p: _Set, b: _Set, explained: set[int]) -> list[Theme]:
    """Three of a kind held together in a different row, or broken up, in the best set."""
    hand = [c for row in p.rows for c in row]
    for rank, n in Counter(int(c.rank or 0) for c in hand).most_common():
        if n < 3:
            break
        where_p = [k for k, m in p.rank_rows(rank).items() if m >= 3]
        where_b = [k for k, m in b.rank_rows(rank).items() if m >= 3]
        if where_p != where_b:
            row = where_b[0] if where_b else None
            other = where_p[0] if where_p else None
            explained.update(k for k in (row, other) if k is not None)
            held = [c for c in hand if c.rank == rank]
            return [Theme("trips-placement", cards=_cards(held), row=row, other_row=other,
                          category=None if row is None else b.categories[row],
                          other_category=None if other is None else p.categories[other])]  # fmt: skip
    return []


def _two_pair(p: _Set, b: _Set, explained: set[int]) -> list[Theme]:
    """Two pairs one set keeps in one row and the other splits over two rows."""
    for side, this, other in (("played", p, b), ("best", b, p)):
        for row in (1, 2):
            if this.categories[row] != TWO_PAIR:
                continue
            high, low = _grouped(this.rows[row], 2)[:2]
            where_high = other.rank_rows(high).most_common(1)[0][0]
            where_low = other.rank_rows(low).most_common(1)[0][0]
            if where_high != where_low:
                moved = where_low if where_high == row else where_high
                held = [c for c in this.rows[row] if c.rank in (high, low)]
                explained.update({row, moved})
                return [Theme("split-two-pair", side=side, cards=_cards(held), row=row, other_row=moved,
                              category=TWO_PAIR, other_category=other.categories[moved])]  # fmt: skip
    return []


def _pair_in_front(p: _Set, b: _Set, explained: set[int]) -> list[Theme]:
    """A pair in one set's front where the other set's front is high card."""
    for side, this, other in (("best", b, p), ("played", p, b)):
        if this.categories[0] == PAIR and other.categories[0] == HIGH_CARD:
            rank = _grouped(this.rows[0], 2)[0]
            pair = [c for c in this.rows[0] if c.rank == rank]
            where = other.rank_rows(rank).most_common(1)[0][0]
            explained.update({0, where})
            return [Theme("pair-in-front", side=side, cards=_cards(pair), row=0, other_row=where, category=PAIR,
                          other_category=other.categories[where])]  # fmt: skip
    return []


def _scoop(played: EvParts, best: EvParts) -> list[Theme]:
    """The played set is swept far more often, and the sập terms cost it at least SCOOP_MIN chi."""
    parts = gap(best, played)
    cost = parts["scoop"] + parts["sap_lang"]
    if cost < SCOOP_MIN or played.swept < SWEPT_MIN or played.swept - best.swept < SWEPT_DROP:
        return []
    return [Theme("scoop-risk", value=played.swept, other_value=best.swept, chi=cost)]


def _kicker(p: _Set, b: _Set) -> Theme:
    """Same hands in every row: the highest side card that the best set moves, and where."""
    moved = [c for row in b.rows for c in row if b.row_of(c) != p.row_of(c)]
    card = max(moved, key=lambda c: (int(c.rank or 0), -c.code))
    return Theme("kicker", cards=(str(card),), row=b.row_of(card), other_row=p.row_of(card))


__all__ = ["DEFINITIONS", "ROW_THEMES", "SCOOP_MIN", "SWEPT_DROP", "SWEPT_MIN", "THEME_IDS", "Theme", "themes"]
