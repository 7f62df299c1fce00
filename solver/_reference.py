"""Slow, obviously-correct reference for the fast solver (the test oracle).

It computes the same objective as :mod:`solver._core` from the same field tables,
card-removal corrections and hand terms (whose layout, :func:`solver.tables.term_parts`,
it shares), and re-ranks the best splits as the core does where the field does, but with
nothing else shared: row keys come from the pure-Python :mod:`solver.hands`, row classes
from a direct colex formula, validity from :func:`solver.scoring.keys_valid`, and every
one of the 72,072 splits is listed with ``itertools.combinations``.  It is ~1,000× slower than the compiled core.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb

import numpy as np

from .cards import Card
from .fields import DEFAULT_FIELD
from .hands import key3, key5
from .rules import Rules
from .scoring import keys_valid
from .tables import (
    GAMMA_LOSE,
    GAMMA_WIN,
    RERANKED,
    Rerank,
    get_field,
    get_hand_weights,
    get_model,
    get_removal,
    get_rerank,
    hand_features,
    removal_by_class,
    sap_lang_applies,
    term_slots,
)

FIVE_FLUSH_OFFSET = comb(17, 5)  # non-flush 5-card classes come first
#: A split's objective, its (front, middle, back) keys and its rows' (p, q, L, v, c).
Scored = tuple[float, tuple[int, int, int], tuple[Sequence[float], ...]]


def row_class(cards: Sequence[Card]) -> int:
    """Class of a row: colex rank of its sorted ranks (+ offset for a 5-card flush)."""
    ranks = sorted(c.code // 4 for c in cards)
    index = sum(comb(r + j, j + 1) for j, r in enumerate(ranks))
    if len(cards) == 5 and len({c.code % 4 for c in cards}) == 1:
        index += FIVE_FLUSH_OFFSET
    return index


def split_ev(rows: Sequence[Sequence[float]], rules: Rules, players: int, scoop: float) -> float:
    """The §6.2 objective for rows given as (p, q, L, v, c) of front, middle, back, with
    the sweep probabilities raised to the correlation exponents of :mod:`solver.tables`
    and ``c`` the row's card-removal correction per opponent (:mod:`solver.training.removal`)."""
    (pf, qf, lf, vf, cf), (pm, qm, lm, vm, cm), (pb, qb, lb, vb, cb) = rows
    n = players - 1
    m, b, maj = rules.sweep_mult, rules.sweep_bonus, rules.majority_bonus
    win_all = pf**GAMMA_WIN * pm**GAMMA_WIN * pb**GAMMA_WIN
    lose_all = qf**GAMMA_LOSE * qm**GAMMA_LOSE * qb**GAMMA_LOSE
    # expected chi the opponent collects when they win all three rows, times its chance
    given = sum(loss / q for loss, q in ((lf, qf), (lm, qm), (lb, qb)) if q > 0)
    lost_all = (given + maj) * lose_all
    values = vf + vm + vb + maj
    per_opponent = (pf * vf - lf + cf) + (pm * vm - lm + cm) + (pb * vb - lb + cb)
    per_opponent += (m - 1) * (win_all * values - lost_all) + b * (win_all - lose_all)
    if maj:
        win_two = pf * pm + pf * pb + pm * pb - 2 * pf * pm * pb
        lose_two = qf * qm + qf * qb + qm * qb - 2 * qf * qm * qb
        per_opponent += maj * (win_two - lose_two)
    total = n * per_opponent
    if sap_lang_applies(rules, players):
        gain = (m * values + b) * win_all**n
        loss = scoop ** (n - 1) * (m * lost_all + b * lose_all)
        total += (rules.sap_lang_mult - 1) * n * (gain - loss)
    return float(total)


def correction(rows: Sequence[Sequence[float]], rules: Rules, rerank: Rerank) -> float:
    """The re-ranking's correction of a split from its rows' (p, q, L, v, c): the features
    ``_rerank_features`` of the core lists, written out again, times the weights."""
    (pf, qf, lf, vf, _), (pm, qm, lm, vm, _), (pb, qb, lb, vb, _) = rows
    maj = rules.majority_bonus
    win_all = pf**GAMMA_WIN * pm**GAMMA_WIN * pb**GAMMA_WIN
    lose_all = qf**GAMMA_LOSE * qm**GAMMA_LOSE * qb**GAMMA_LOSE
    given = sum(loss / q for loss, q in ((lf, qf), (lm, qm), (lb, qb)) if q > 0)
    features = [win_all, lose_all, win_all * (vf + vm + vb + maj), (given + maj) * lose_all, win_all**2, lose_all**2,
                pf, pm, pb, qf, qm, qb, pf * pm, pf * pb, pm * pb, qf * qm, qf * qb, qm * qb]  # fmt: skip
    return float(np.dot(rerank.weights, features))


def reranked(scored: list[Scored], rules: Rules, rerank: Rerank) -> list[Scored]:
    """The best split alone as a re-ranking search finds it: the objective's RERANKED best
    key triples within the margin of its best, each with its correction added and the
    correction of the first with the most taken off (the best keeps its objective)."""
    listed: list[Scored] = []
    floor = scored_best(scored) - rerank.margin
    for ev, keys, rows in sorted(scored, key=lambda s: -s[0]):
        if len(listed) == RERANKED or ev < floor:
            break
        if all(keys != k for _, k, _ in listed):
            listed.append((ev, keys, rows))
    corrections = [correction(rows, rules, rerank) for _, _, rows in listed]
    corrected = [ev + c for (ev, _, _), c in zip(listed, corrections, strict=True)]
    anchor = corrections[corrected.index(max(corrected))]
    return [(ev - anchor, keys, rows) for ev, (_, keys, rows) in zip(corrected, listed, strict=True)]


def scored_best(scored: list[Scored]) -> float:
    return max(ev for ev, _, _ in scored)


def _tables(rules: Rules, players: int, field: str) -> tuple[np.ndarray, ...]:
    """(p, q, L, v, c) of every class of each row: the model's first four columns and the
    card-removal correction."""
    model = get_model(rules, players, field)
    removal = get_removal(rules, players, field)
    if removal is None:
        corrections = tuple(np.zeros(len(t)) for t in (model.front, model.middle, model.back))
    else:
        corrections = removal_by_class(removal, rules)
    return tuple(
        np.column_stack([np.asarray(t)[:, :4], c]) for t, c in zip((model.front, model.middle, model.back), corrections)
    )


def hand_terms(cards: Sequence[Card], rules: Rules, players: int, field: str) -> np.ndarray | None:
    """The hand's terms (see :func:`solver.tables.term_parts`), None when the model has none."""
    weights = get_hand_weights(rules, players, field)
    if weights is None:
        return None
    return np.asarray(hand_features(np.asarray([[c.code for c in cards]]))[0] @ weights)


def with_terms(entry: list[float], key: int, row: int, terms: np.ndarray | None) -> list[float]:
    """A row's (p, q, L, v, c) with the hand's terms for that row and key added to ``c``."""
    if terms is None:
        return entry
    keys = np.full((1, 3), -1, dtype=np.int64)
    keys[0, row] = key
    top, nxt = term_slots(keys)[0, row]
    return [*entry[:4], entry[4] + float(terms[top] + terms[nxt])]


def best_splits(
    cards: Sequence[Card], rules: Rules, players: int, field: str = DEFAULT_FIELD
) -> tuple[float, list[tuple[int, int, int]]]:
    """The best objective over all valid splits and every split reaching it (within 1e-9),
    each as (front, middle, back) key triples."""
    tables = _tables(rules, players, field)
    scoop = get_field(rules, players, field).scoop
    hand = list(cards)
    terms = hand_terms(hand, rules, players, field)
    # each row's key and table entry, once per subset of card positions
    rows: dict[tuple[int, ...], tuple[int, list[list[float]]]] = {}
    for size in (3, 5):
        for subset in combinations(range(13), size):
            row = [hand[i] for i in subset]
            key = key3(row) if size == 3 else key5(row, rules.wheel)
            cls = row_class(row)
            # a 3-card subset is only ever a front; a 5-card one a middle or a back
            if size == 3:
                entries = [with_terms(tables[0][cls].tolist(), key, 0, terms)] * 3
            else:
                entries = [[], *(with_terms(tables[r][cls].tolist(), key, r, terms) for r in (1, 2))]
            rows[subset] = (key, entries)
    scored: list[Scored] = []
    for back in combinations(range(13), 5):
        rest = [i for i in range(13) if i not in back]
        kb, tb = rows[back]
        for middle in combinations(rest, 5):
            front = tuple(i for i in rest if i not in middle)
            km, tm = rows[middle]
            kf, tf = rows[front]
            if not keys_valid(kf, km, kb, rules.strict):
                continue
            split = (tf[0], tm[1], tb[2])
            scored.append((split_ev(split, rules, players, scoop), (kf, km, kb), split))
    if not scored:
        return -float("inf"), []
    rerank = get_rerank(rules, players, field)
    if rerank is not None:
        scored = reranked(scored, rules, rerank)
    best = scored_best(scored)
    return best, [keys for ev, keys, _ in scored if ev >= best - 1e-9]


def objective(
    front: Sequence[Card],
    middle: Sequence[Card],
    back: Sequence[Card],
    rules: Rules,
    players: int,
    field: str = DEFAULT_FIELD,
) -> float:
    """The objective of one split as laid out (validity not checked), without the
    re-ranking's correction: the search takes the best split's correction off every
    split's, so its best scores this (see :func:`reranked`)."""
    tables = _tables(rules, players, field)
    scoop = get_field(rules, players, field).scoop
    terms = hand_terms([*front, *middle, *back], rules, players, field)
    keys = (key3(front), key5(middle, rules.wheel), key5(back, rules.wheel))
    rows = [
        with_terms(tables[i][row_class(r)].tolist(), keys[i], i, terms) for i, r in enumerate((front, middle, back))
    ]
    return split_ev(rows, rules, players, scoop)
