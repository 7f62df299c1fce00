"""Expected-value play: the public :func:`solve` and :func:`evaluate`.

The objective (spec §6.2) is the expected chi a split wins against ``players - 1``
opponents drawn from a field.  For each row the field tables (:mod:`solver.tables`)
give my chance to win (``p``) and lose (``q``) and the chi I pay when I lose (``L``);
``v`` is what I receive when I win (bonuses included).  Rows are compared
independently, as in the spec's formula, except that sweeping all three rows has
probability ``W = (p_f p_m p_b) ** 0.93`` (being swept ``S = (q_f q_m q_b) ** 0.85``):
a field hand weak in one row tends to be weak in all.  Per opponent::

    E = Σ_k (p_k v_k − L_k + c_k) + (m − 1)·(W·Σv − S·Σ_k L_k / q_k)         (sập ×m)
        + b·(W − S) + maj·(P(win ≥ 2) − P(lose ≥ 2))                        (sweep bonus, 4-2)

where ``c_k`` is the row class's card-removal correction (:mod:`solver.training.removal`: the
opponents are dealt from the cards I do not hold, which the tables do not see), and
sập làng adds ``(s − 1)·n·[(m·Σv + b)·W^n − σ^(n−1)·(m·S·Σ L/q + b·S)]`` for ``n``
opponents, where ``σ`` is the chance a field hand scoops another.  Aces and a special
hand do not depend on the split; they are added to ``ev`` in expectation.

``field=`` names who sits at the table (:mod:`solver.fields`: "population", "strong",
"beginners"); each has its own tables.  A :class:`solver.context.Table` holds the rules,
the number of players and the field, validated once, with their model: pass it as
``table=`` instead of the three (both ways give the same answers).  ``mode="deep"`` re-scores the best candidates
by Monte Carlo against opponents dealt from the 39 unseen cards, set the way the field
plays and settled exactly (see :mod:`solver.deep`).

>>> s = solve("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")
>>> s.special
'dragon'
>>> sol = solve("Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh", players=2)
>>> sol.best.front != ()
True
>>> solve("Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh", table=Table(players=2)) == sol
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from . import _core
from .cards import Card, InvalidHandError
from .context import Table, as_table, check_players
from .deep import refine, score_candidates
from .fields import DEFAULT_FIELD
from .handcodes import hand_codes
from .messages import echo
from .rules import PRESETS, SPECIAL_NAMES, Rules, get_rules
from .scoring import (
    CARD_OF_CODE,
    Arrangement,
    Split,
    arrangement_from_codes,
    as_arrangement,
    declared_special,
    layouts_showing,
    special_candidates,
)
from .tables import class_values, get_field
from .tables import get_model as get_model  # callers that build a model themselves find it here

MODES = ("fast", "deep")
MAX_TOP = 64
CardsLike = Iterable[Card | str] | str
RowWin = tuple[float, float, float]


@dataclass(frozen=True)
class Solution:
    """The best arrangement of a hand and its expected chi against the field."""

    best: Arrangement
    special: str | None
    ev: float
    alternatives: list[tuple[Arrangement, float]] = dataclasses.field(default_factory=list)
    row_win: RowWin = (0.0, 0.0, 0.0)
    players: int = 4
    mode: str = "fast"
    field: str = DEFAULT_FIELD


@dataclass(frozen=True)
class Evaluation:
    """Expected chi of one chosen arrangement (fouled ones included)."""

    arrangement: Arrangement
    ev: float
    row_win: RowWin
    valid: bool
    special: str | None
    players: int = 4
    mode: str = "fast"
    field: str = DEFAULT_FIELD


# --- argument checks --------------------------------------------------------------------


def check_mode(mode: object) -> str:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {echo(mode)}")
    return str(mode)


def check_top(top: object) -> int:
    if not isinstance(top, int) or isinstance(top, bool) or not 1 <= top <= MAX_TOP:
        raise ValueError(f"top must be an integer 1..{MAX_TOP}, got {echo(top)}")
    return top


#: Seeds are what numpy's generator takes: non-negative integers, here at most 64 bits.
MAX_SEED = 2**64 - 1


def check_seed(seed: object) -> int | None:
    """``None`` (the fixed default seed) or an integer 0..MAX_SEED, checked in every mode."""
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED):
        raise ValueError(f"seed must be None or an integer 0..2**64-1, got {echo(seed)}")
    return seed


# --- the model ---------------------------------------------------------------------------


def ace_ev(cards: Sequence[Card], rules: Rules, players: int) -> float:
    """Expected ace chi (D13) of this hand against ``players - 1`` random opponents."""
    return aces_ev(sum(1 for c in cards if c.code >= 48), rules, players)


@lru_cache(maxsize=64)
def aces_ev(mine: int, rules: Rules, players: int) -> float:
    """Expected ace chi (D13) of holding ``mine`` aces against ``players - 1`` random opponents."""
    if not rules.aces:
        return 0.0
    nopp = players - 1
    if mine == 4:
        return 0.0
    # each opponent holds 13 of the 39 unseen cards: (4 - mine) / 3 aces on average
    ev = nopp * (mine - (4 - mine) / 3)
    if mine == 0:
        # an opponent with all four aces voids the ace payments: add back what they held
        p_all = comb(35, 9) / comb(39, 13)
        ev += nopp * p_all * 4
    return ev


def special_ev(name: str, rules: Rules, players: int) -> float:
    return float((players - 1) * rules.special_value(name))


@lru_cache(maxsize=32)
def special_values(rules: Rules) -> tuple[int, ...]:
    """Each special's value in SPECIAL_NAMES order (what the compiled detector ranks by)."""
    return tuple(rules.special_value(name) for name in SPECIAL_NAMES)


def special_of_codes(codes: Sequence[int], rules: Rules, values: tuple[int, ...] | None = None) -> str | None:
    """:func:`solver.scoring.special_hand` of 13 distinct codes, by the compiled detector
    (``values``: :func:`special_values` of the rules, when the caller holds them)."""
    if not rules.specials:
        return None
    values = special_values(rules) if values is None else values
    index = _core.special_index(codes, values, rules.six_pairs_rule == "strict", rules.ace_low_runs)
    return SPECIAL_NAMES[index] if index >= 0 else None


@lru_cache(maxsize=64)
def _table_terms(table: Table) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """The terms solve() adds to the core's value at ``table``: the expected ace chi of
    holding 0..4 aces, and each special's value (kept per Table, whose hash is kept)."""
    return tuple(aces_ev(k, table.rules, table.players) for k in range(5)), special_values(table.rules)


def foul_ev(rules: Rules, players: int, field: str = DEFAULT_FIELD) -> float:
    """Expected chi of a fouled hand against valid field opponents (D11)."""
    nopp = players - 1
    if rules.foul_mode == "flat":
        pay = float(rules.foul_chi)
    else:
        fld = get_field(rules, players, field)
        values = class_values(rules)
        mean = sum(float((dist * v).sum()) for dist, v in zip(fld.rows(), values))
        pay = mean * (2.0 if rules.foul_mode == "opponent_x2" else 1.0)
    extra = 0.0
    if rules.foul_sap_lang and rules.sap_lang and players >= max(3, rules.sap_lang_min_players):
        # an opponent who also scoops everyone else doubles what I pay
        extra = (rules.sap_lang_mult - 1) * get_field(rules, players, field).scoop ** (nopp - 1)
    return -nopp * pay * (1.0 + extra)


# --- public API --------------------------------------------------------------------------


def _hand_codes(cards: CardsLike) -> tuple[list[Card], list[int]]:
    codes = hand_codes(cards)
    return [CARD_OF_CODE[c] for c in codes], codes


def solve(
    cards: CardsLike,
    rules: Rules | str | None = None,
    players: int | None = None,
    mode: str = "fast",
    top: int = 1,
    seed: int | None = None,
    field: str | None = None,
    *,
    table: Table | None = None,
) -> Solution:
    """The valid arrangement with the highest expected chi against the field.

    ``alternatives`` holds the ``top`` best (arrangement, ev), best first, one per distinct
    set of row strengths.  ``row_win`` is the best arrangement's chance to win each row
    (front, middle, back) against one opponent.  A special hand is named in ``special``
    and its payment is in ``ev``; ``best`` is still the best way to set the cards.  Under
    ``special_detection="layout"`` a special pays only when the set shows it: the best
    layout of the hand's highest special competes with the plain sets, and ``ev`` is what
    :func:`evaluate` gives for ``best``.

    The table is ``table`` (a :class:`~solver.context.Table`), or the one ``rules``
    (default "vietnamese"), ``players`` (default 4) and ``field`` (the opponents,
    :data:`solver.fields.FIELDS`, default "population") describe; not both.
    """
    codes = hand_codes(cards)
    table = as_table(table, rules, players, field)
    mode = check_mode(mode)
    table = table.played_by(mode)
    top = check_top(top)
    seed = check_seed(seed)
    rules, players, field, model = table.rules, table.players, table.field, table.model
    if mode == "deep":
        ranked = refine([CARD_OF_CODE[c] for c in codes], table, max(top, 1), seed)
    else:
        # the core gives each row in display order already
        found = _core.solve_hand(model, codes, top)
        ranked = [(Arrangement.from_codes(f, m, b), ev) for f, m, b, ev in found]
    # deep mode settles every sample exactly (score_table rules): aces and specials are in
    exact = mode == "deep" and bool(ranked)
    if not ranked:
        # only under strict validity: no valid split exists; the naive setting fouls
        ranked = [(strongest_back_first_codes(codes, rules), foul_ev(rules, players, field))]
    aces = codes.count(48) + codes.count(49) + codes.count(50) + codes.count(51)
    ace_terms, special_terms = _table_terms(table)
    constant = 0.0 if exact else ace_terms[aces]
    if rules.special_detection == "layout":
        hand = [CARD_OF_CODE[c] for c in codes]
        ranked = _rank_with_shown_special(hand, ranked, table, seed if exact else None, exact)
        best = ranked[0][0]
        special = declared_special(best, rules)
        alternatives = [(a, ev + constant) for a, ev in ranked[:top]]
    else:
        special = special_of_codes(codes, rules, special_terms)
        best = ranked[0][0]
        if special is not None and not exact:
            value = special_ev(special, rules, players) + constant
            alternatives = [(a, value) for a, _ in ranked[:top]]
        else:
            alternatives = [(a, ev + constant) for a, ev in ranked[:top]]
    row_win = _core.row_wins(model, *([c.code for c in row] for row in best.rows))
    return Solution(best, special, alternatives[0][1], alternatives, row_win, players, mode, field)


def best_special_layout(hand: Sequence[Card], rules: Rules, model: _core.Model) -> Arrangement | None:
    """O13 "layout": the hand's highest special laid out so that it shows, or None.

    Every layout that shows the special is worth the same; among them the one that would
    also play best as an ordinary set (valid first, then row EV) is taken.
    """
    names = special_candidates(hand, rules) if rules.specials else []
    if not names:
        return None

    def as_a_set(split: Split) -> tuple[bool, float]:
        ev, _, valid, _ = _core.arrangement_stats(model, *split)
        return bool(valid), float(ev)

    return arrangement_from_codes(*max(layouts_showing(hand, names[0], rules), key=as_a_set))


def _rank_with_shown_special(
    hand: Sequence[Card], ranked: list[tuple[Arrangement, float]], table: Table, seed: int | None, exact: bool
) -> list[tuple[Arrangement, float]]:
    """Under O13 "layout" a special pays only when laid out: the special's best layout
    competes with the ordinary sets, every set valued as :func:`evaluate` values it.

    ``exact`` (deep mode): the values already settle specials, and the shown layout is
    scored on the same deals.  Otherwise a set that shows a special is worth that special.
    """
    rules, players = table.rules, table.players
    if not exact:
        valued = []
        for arrangement, ev in ranked:
            shown = declared_special(arrangement, rules)
            valued.append((arrangement, special_ev(shown, rules, players) if shown else ev))
        ranked = valued
    layout = best_special_layout(hand, rules, table.model)
    if layout is not None and all(layout != a for a, _ in ranked):
        if exact:
            value = score_candidates(hand, [layout], table, seed)[0]
        else:
            value = special_ev(declared_special(layout, rules) or "", rules, players)
        ranked = [*ranked, (layout, value)]
    return sorted(ranked, key=lambda item: -item[1])


def evaluate(
    cards: CardsLike,
    arrangement: Arrangement | str | Sequence[CardsLike],
    rules: Rules | str | None = None,
    players: int | None = None,
    mode: str = "fast",
    seed: int | None = None,
    field: str | None = None,
    *,
    table: Table | None = None,
) -> Evaluation:
    """Expected chi of the arrangement a player chose for ``cards`` (a foul included)
    at ``table`` (or the table ``rules``, ``players`` and ``field`` describe, as in
    :func:`solve`)."""
    hand, codes = _hand_codes(cards)
    arr = as_arrangement(arrangement)
    if sorted(c.code for c in arr.cards) != sorted(codes):
        missing = sorted(set(hand) - set(arr.cards))
        extra = sorted(set(arr.cards) - set(hand))
        raise InvalidHandError(
            f"the arrangement must use exactly the 13 cards of the hand; missing "
            f"{' '.join(map(str, missing)) or 'none'}, not in the hand {' '.join(map(str, extra)) or 'none'}"
        )
    table = as_table(table, rules, players, field)
    mode = check_mode(mode)
    table = table.played_by(mode)
    seed = check_seed(seed)
    rules, players, field = table.rules, table.players, table.field
    ev, row_win, valid, _ = _stats(table.model, arr)
    special = declared_special(arr, rules)
    if mode == "deep":
        ev = score_candidates(hand, [arr], table, seed)[0]
    elif special is not None:
        ev = special_ev(special, rules, players)
    elif not valid:
        ev = foul_ev(rules, players, field)
    if not valid and special is None:
        row_win = (0.0, 0.0, 0.0)
    if mode != "deep":
        ev += ace_ev(hand, rules, players)
    return Evaluation(arr, ev, row_win, valid, special, players, mode, field)


def _stats(model: _core.Model, arr: Arrangement) -> tuple[float, RowWin, bool, tuple[int, int, int]]:
    ev, wins, valid, classes = _core.arrangement_stats(
        model, [c.code for c in arr.front], [c.code for c in arr.middle], [c.code for c in arr.back]
    )
    return float(ev), (float(wins[0]), float(wins[1]), float(wins[2])), bool(valid), classes


def strongest_back_first(cards: CardsLike, rules: Rules | str | None = PRESETS["vietnamese"]) -> Arrangement:
    """The beginner's set (spec §6.3): the best 5 cards in the back, the best 5 of the rest
    in the middle, the last 3 in front.  Always valid under the default (non-strict) rules.

    >>> str(strongest_back_first("Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"))
    '8s 3h 2c | Ah Jh Tc 7s 7c | Ad Kd Qd 9d 5d'
    """
    return strongest_back_first_codes(hand_codes(cards), get_rules(rules))


def strongest_back_first_codes(codes: list[int], rules: Rules) -> Arrangement:
    """:func:`strongest_back_first` of 13 distinct card codes."""
    import numpy as np

    out = _core.strongest_back_first(np.asarray([codes], dtype=np.int32), rules.wheel == "second")[0]
    return arrangement_from_codes(out[:3], out[3:8], out[8:])


__all__ = ["MAX_TOP", "MODES", "Evaluation", "Solution", "Table", "check_players", "evaluate", "solve",
           "strongest_back_first"]  # fmt: skip
