"""The expected chi of a set split into its parts, and the gap between two sets part by part.

The fast solver values a valid set against ``n = players - 1`` field opponents by one
formula (:mod:`solver.strategy`, spec §6.2).  For each row ``k`` the field tables give my
chance to win ``p``, to lose ``q`` (a tie is the rest), what I receive when I win ``v``
(1 chi, or a bonus: trips in front 3, a full house in the middle 2, ...) and ``L``, the chi
I pay in that row on average.  This module reads those numbers for the set's rows from the
compiled model and writes the value as a sum::

    rows      n·(p_k − q_k)                       each row won or lost at 1 chi
    bonuses   n·(p_k·(v_k − 1) − (L_k − q_k))     what the bonus hands add, mine and theirs
    scoop     n·((m−1)·(W·ΣV − S·ΣL/q) + b·(W−S))  sập: the ×m when one side wins all three rows
    majority  n·mb·(P(win ≥ 2) − P(lose ≥ 2))     the 4-2 majority point (plain rules: 0)
    sap_lang  the sập làng term (3+ players)        sweeping every opponent doubles again
    removal   n·Σ c_k (+ hand terms)               card removal: the opponents are dealt from
                                                    the 39 cards I do not hold
    foul      the foul payment (a fouled set has no row parts)
    special   a special hand's value (it replaces the rows)
    aces      the expected ace chi (the same for every set of one hand)

``W`` and ``S`` are the chances of sweeping one opponent and being swept by one (the
tables' sweep correlation).  Every part comes from the model exactly, so nothing here
samples: the parts add up to :func:`solver.evaluate`'s fast-mode value to rounding
(``tests/test_themes.py`` checks it), and to the gap between two sets part by part.

>>> from solver import solve, strongest_back_first
>>> hand = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"
>>> best = ev_parts(hand, solve(hand).best)
>>> naive = ev_parts(hand, strongest_back_first(hand))
>>> parts = gap(best, naive)
>>> round(sum(parts.values()), 6) == round(best.total - naive.total, 6)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from solver import PRESETS, Card, Rules, _core
from solver.fields import DEFAULT_FIELD, check_field
from solver.handcodes import hand_codes
from solver.rules import get_rules
from solver.scoring import Arrangement, as_arrangement, declared_special
from solver.strategy import ace_ev, check_players, foul_ev, special_ev
from solver.tables import get_field, get_model

CardsLike = Iterable[Card | str] | str
Triple = tuple[float, float, float]

#: The names of the parts, in the order the feedback lists them when they weigh the same.
PART_NAMES = ("front", "middle", "back", "bonuses", "scoop", "majority", "sap_lang", "removal", "foul", "special",
              "aces")  # fmt: skip
#: Columns of the model's row tables (solver.tables.row_table): p, q, L, v, lin, ..., pg, qg, Lq.
_P, _Q, _L, _V, _LIN, _PG, _QG, _LQ = 0, 1, 2, 3, 4, 7, 8, 9


@dataclass(frozen=True)
class EvParts:
    """One set's expected chi against the field, part by part (see the module docstring).

    ``win``, ``tie`` and ``loss`` are each row's chances against one opponent;
    ``sweep`` and ``swept`` the chances of winning all three rows from one opponent and of
    losing all three to one (all zero for a foul or a special hand).
    """

    rows: Triple
    bonuses: Triple
    scoop: float
    majority: float
    sap_lang: float
    removal: float
    foul: float
    special: float
    aces: float
    win: Triple
    tie: Triple
    loss: Triple
    sweep: float
    swept: float

    @property
    def total(self) -> float:
        """The set's expected chi: the sum of its parts."""
        return sum(self.named().values())

    def named(self) -> dict[str, float]:
        """The parts by name (:data:`PART_NAMES`), the three rows separately, the bonuses summed."""
        return dict(zip(PART_NAMES, (*self.rows, sum(self.bonuses), self.scoop, self.majority, self.sap_lang,
                                     self.removal, self.foul, self.special, self.aces)))  # fmt: skip


def ev_parts(
    cards: CardsLike,
    arrangement: Arrangement | str,
    rules: Rules | str | None = PRESETS["vietnamese"],
    players: int = 4,
    field: str = DEFAULT_FIELD,
) -> EvParts:
    """The parts of the fast-mode expected chi of ``arrangement`` (a set of ``cards``)."""
    codes = sorted(hand_codes(cards))
    arr = as_arrangement(arrangement)
    if sorted(c.code for c in arr.cards) != codes:
        raise ValueError(f"the set {str(arr)!r} does not use exactly the 13 cards of the hand")
    rules = get_rules(rules)
    players = check_players(players)
    field = check_field(field)
    aces = ace_ev(arr.cards, rules, players)
    zero3 = (0.0, 0.0, 0.0)
    special = declared_special(arr, rules)
    model = get_model(rules, players, field)
    rows = [[c.code for c in row] for row in arr.rows]
    ev, _, valid, classes = _core.arrangement_stats(model, *rows)
    if special is not None or not valid:
        foul = 0.0 if special is not None else foul_ev(rules, players, field)
        value = special_ev(special, rules, players) if special is not None else 0.0
        return EvParts(zero3, zero3, 0.0, 0.0, 0.0, 0.0, foul, value, aces, zero3, zero3, zero3, 0.0, 0.0)
    tables = (model.front, model.middle, model.back)
    r = [tables[k][classes[k]] for k in range(3)]
    n = float(players - 1)
    p = [float(x[_P]) for x in r]
    q = [float(x[_Q]) for x in r]
    lose = [float(x[_L]) for x in r]
    v = [float(x[_V]) for x in r]
    row = tuple(n * (p[k] - q[k]) for k in range(3))
    bonus = tuple(n * (p[k] * (v[k] - 1.0) - (lose[k] - q[k])) for k in range(3))
    sweep = float(r[0][_PG] * r[1][_PG] * r[2][_PG])
    swept = float(r[0][_QG] * r[1][_QG] * r[2][_QG])
    mb = float(rules.majority_bonus)
    total_v = sum(v) + mb
    lost = (sum(float(x[_LQ]) for x in r) + mb) * swept
    scoop = n * ((rules.sweep_mult - 1) * (sweep * total_v - lost) + rules.sweep_bonus * (sweep - swept))
    majority = 0.0
    if mb:
        p3, q3 = p[0] * p[1] * p[2], q[0] * q[1] * q[2]
        two_won = p[0] * p[1] + p[0] * p[2] + p[1] * p[2] - 2.0 * p3
        two_lost = q[0] * q[1] + q[0] * q[2] + q[1] * q[2] - 2.0 * q3
        majority = n * mb * (two_won - two_lost)
    sap_lang = 0.0
    if model_sap_lang(rules, players):
        every = sweep ** (players - 1)
        sfield = get_field(rules, players, field).scoop ** (players - 2)
        sm, sb = rules.sweep_mult, rules.sweep_bonus
        sap_lang = (rules.sap_lang_mult - 1) * n * ((sm * total_v + sb) * every - sfield * (sm * lost + sb * swept))
    # what is left of the model's value is the card-removal correction (and the hand terms
    # where a field plays them): both are there because I hold these cards
    removal = float(ev) - sum(row) - sum(bonus) - scoop - majority - sap_lang
    return EvParts(
        row,  # type: ignore[arg-type]
        bonus,  # type: ignore[arg-type]
        scoop,
        majority,
        sap_lang,
        removal,
        0.0,
        0.0,
        aces,
        (p[0], p[1], p[2]),
        tuple(max(0.0, 1.0 - p[k] - q[k]) for k in range(3)),  # type: ignore[arg-type]
        (q[0], q[1], q[2]),
        sweep,
        swept,
    )


def model_sap_lang(rules: Rules, players: int) -> bool:
    """Whether the fast objective holds a sập làng term at this table size."""
    return rules.sap_lang and players >= max(3, rules.sap_lang_min_players)


def gap(best: EvParts, played: EvParts) -> dict[str, float]:
    """What the best set gains over the played one, part by part (best minus played); the
    values add up to the gap between the two totals."""
    b, p = best.named(), played.named()
    return {name: b[name] - p[name] for name in PART_NAMES}


def main_parts(parts: Mapping[str, float], least: float = 0.05, most: int = 3) -> list[tuple[str, float]]:
    """The parts of a gap that weigh at least ``least`` chi, largest first, at most ``most``."""
    big = [(name, value) for name, value in parts.items() if abs(value) >= least]
    big.sort(key=lambda item: (-abs(item[1]), PART_NAMES.index(item[0])))
    return big[:most]


__all__ = ["PART_NAMES", "EvParts", "ev_parts", "gap", "main_parts"]
