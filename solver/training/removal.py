"""Card-removal corrections of the fast solver's row tables (issue 12).

The row tables (:mod:`solver.tables`) value a split against opponents dealt from a full
deck.  At a real table they are dealt from the 39 cards I do not hold: five hearts in my
hand make an opponent's flush rarer, three aces make their aces rarer, and how much that
moves a split's value depends on the split.  Re-ranking fast mode's 8 best sets by the
exact oracle showed that nearly all of fast mode's remaining regret is here.

The correction is a number of chi per opponent for each row (front, middle, back) and
each row *tag* (the key's category and top rank, ``key >> 20``), added to the row's
linear term (:func:`solver.tables.row_table`), so the search and its bounds stay as
they are and :func:`solver.strategy.evaluate` values every set the way the search
does.  It is learned per preset, table size and field:

* a bank of ``bank`` seeded hands, each set the way the field sets them (the field's
  naive share strongest back first, the rest by the fast solver on the uncorrected
  tables); only plain ones (no special, not fouled) are kept;
* ``hands`` seeded training hands; for each, the uncorrected fast solver's 8 best
  splits are valued against the bank hands that hold none of my cards (about 1.3 % of
  the bank: the card removal), each settled one on one (:mod:`solver.training.rowsettle`: rows,
  majority bonus, scoop), times the number of opponents; at 3-4 players sập làng is
  added as the fast objective adds it, from the sampled chances of sweeping and of
  being swept;
* ridge least squares (:data:`RIDGE`) on the gaps between those card-aware values and
  the table EVs, within each hand (only the ranking of a hand's sets matters), then one
  offset on the back row so the corrected EVs match the card-aware values on average;
* all of it ``passes`` times (per field, as the manifest's play entry records: 3 under
  "vietnamese" and "seed", 1 under "four-two" and "plain", where three lost in the
  duplicate; :func:`recorded_passes`): each pass after the first deals the same bank but
  sets it with the previous pass's correction, so the last pass learns against hands
  set (nearly) as the shipped solver sets them, which is who sits at a strong table.

The per-tag correction fixes what card removal does on average to a row; how much it
does to *my* row depends on my other cards (holding three kings makes an opponent's
pair of kings rarer, and my pair of queens stronger).  So the fields whose manifest play
entry plays them (four-two's strong field) also get *hand terms*: for each row and each of
the two parts of its key (:func:`solver.tables.term_parts`: category and top rank;
category and the next rank), a number of chi per opponent that is linear in 16
features of my 13 cards (:func:`solver.tables.hand_features`: each rank's count, the
two largest suit counts, 1).  They are learned after the per-tag correction, on
:data:`HAND_HANDS` fresh hands whose best splits on the corrected tables are valued
against the bank set by the corrected solver: ridge least squares of the gaps the
correction leaves, again within each hand (:func:`fit_hand_weights`, conjugate
gradients on 11,232 weights).  The search adds each subset's terms to its row and
widens its bounds by the largest terms (:mod:`solver._core`), so it stays exact.

Where fast mode plays the hand terms, :mod:`solver.training.selfplay` then learns the correction
and the hand terms again, round by round, against the solver that plays them.

Where a correction lost to the uncorrected solver in a duplicate match, or gained
nothing against its field, it is not built and that field plays without one (its
manifest play entry has no removal file: the beginners fields, and the population
fields of four-two and plain; the entries' ``why`` give the figures).

Build the shipped corrections (``solver/data/removal-<preset>[-<field>].npz``)::

    python -m solver.training.removal build

(defaults ``--hands 20000 --bank 50000 --seed 2026 --hand-hands 80000``, passes as
recorded, every preset, field and table size, all cores; ``--only-hand-terms`` keeps the
per-tag corrections in ``--out`` and rebuilds only the hand terms).  Bank and training
hands are seeded, so the build replays exactly.  Which fields get a correction and hand
terms is read from the shipped manifest (``solver/data/manifest.json``); each file
written is recorded in the manifest of ``--out``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from ..deep import set_opponents
from ..fields import FIELDS, table_preset
from ..rules import PRESETS, Rules
from ..strategy import special_values
from ..tables import (
    DATA_DIR,
    HAND_FEATURES,
    HAND_TERMS,
    N_TAGS,
    TABLE_SIZES,
    TAG_SHIFT,
    Field,
    Play,
    get_field,
    hand_features,
    make_model,
    removal_name,
    sap_lang_applies,
    shipped_plays,
    table_name,
    term_slots,
)
from . import manifest
from .pools import EXECUTORS, check_executor, open_pool
from .rowsettle import rows_net, valid_rows
from .tables import deal_hands, row_keys, unwritable

#: Splits per training hand: the fast solver's best this many (the right set is nearly
#: always among them; measured in benchmarks/solver_regret.py).
CANDIDATES = 8
#: Ridge penalty of the fit [measured]: a tag seen in n training sets keeps about
#: n / (n + RIDGE) of its own estimate, so rare tags (quads in the middle) stay near 0.
#: On 5,000 held-out hands (vietnamese, 3 players, strong) the within-hand squared error
#: left was 0.0138 at 1, 0.0136 at 3, 0.0134 at 10, 0.0135 at 30, 0.0138 at 100
#: (0.0208 uncorrected), and the largest correction 2.2, 1.4, 0.6, 0.4, 0.2 chi.
RIDGE = 10.0
#: Ridge penalty of the hand terms' fit [measured]: within-hand squared error left on
#: 16,000 held-out hands (four-two, heads-up, strong; valued against a bank of their own)
#: 0.00438 with the per-tag correction alone, 0.00201 at ridge 10, 0.00200 at 30.
HAND_RIDGE = 30.0
#: Conjugate-gradient iterations of that fit [measured]: held-out error 0.00220 after
#: 25, 0.00206 after 50, 0.00201 after 100, 0.00201 after 200 (about 1.1 s each).
HAND_ITERATIONS = 100
#: Training hands of the hand terms (more than the per-tag fit: 11,232 weights).
HAND_HANDS = 80_000


def recorded_passes(preset: str, field: str) -> int:
    """The passes the shipped correction of one preset and field was built with (the
    manifest's play entry; 1 where none is recorded): the build's default, so it replays
    the shipped files.  The measurements behind 3 and 1 are in the entries' ``why``."""
    return shipped_plays()[(preset, field)].passes or 1


@dataclass(frozen=True)
class Bank:
    """Plain hands set as the field sets them: row keys (n, 3) and 52-bit card masks (n,)."""

    keys: np.ndarray
    masks: np.ndarray


def bank_rng(size: int, seed: int, players: int) -> np.random.Generator:
    """The generator that deals a bank of ``size`` hands (and then draws its naive players)."""
    return np.random.default_rng([seed, size, players])


def plain_bank(rules: Rules, players: int, field: str, size: int, seed: int, removal: np.ndarray | None = None) -> Bank:
    """``size`` seeded hands set as ``field`` sets them (on its tables with the correction
    ``removal``, none by default), keeping those with no special that are not fouled."""
    rng = bank_rng(size, seed, players)
    hands = deal_hands(size, rng)
    model = make_model(get_field(rules, players, field), rules, players, removal)
    return bank_of(hands, row_keys(set_opponents(hands, rules, players, field, rng, model), rules), rules)


def bank_of(hands: np.ndarray, keys: np.ndarray, rules: Rules) -> Bank:
    """The bank of ``hands`` (n, 13) set with the row keys ``keys`` (n, 3): the plain ones,
    with no special and not fouled."""
    plain = valid_rows(keys, rules)
    if rules.specials:
        values = list(special_values(rules))
        plain &= _core.special_indexes(hands, values, rules.six_pairs_rule == "strict", rules.ace_low_runs) < 0
    masks = (np.uint64(1) << hands.astype(np.uint64)).sum(axis=1, dtype=np.uint64)
    return Bank(keys[plain], masks[plain])


def card_aware_values(
    keys: np.ndarray, codes: list[int], bank: Bank, rules: Rules, players: int, scoop: float
) -> np.ndarray:
    """Expected chi of each of my splits (row keys (C, 3)) against ``players - 1``
    opponents drawn from the bank hands that hold none of my 13 ``codes`` (NaN when no
    bank hand does: a small bank)."""
    mine = np.uint64(sum(1 << c for c in codes))
    usable = bank.keys[(bank.masks & mine) == 0]
    if len(usable) == 0:
        return np.full(len(keys), np.nan)
    net, sweep, swept = rows_net(keys[:, None, :], usable[None], rules)
    nopp = players - 1
    value = nopp * net.mean(axis=1)
    if sap_lang_applies(rules, players):
        p_sweep, p_swept = sweep.mean(axis=1), swept.mean(axis=1)
        gain = np.where(sweep, net, 0).sum(axis=1) / np.maximum(sweep.sum(axis=1), 1)
        loss = np.where(swept, net, 0).sum(axis=1) / np.maximum(swept.sum(axis=1), 1)
        third = scoop ** (nopp - 1)
        value = value + (rules.sap_lang_mult - 1) * nopp * (gain * p_sweep**nopp + loss * p_swept * third)
    return np.asarray(value, dtype=np.float64)


@dataclass(frozen=True)
class Gaps:
    """Training data: row tags (N, 3) of each valued split, the card-aware value minus the
    table EV per opponent (N,), and which training hand each split belongs to (N,)."""

    tags: np.ndarray
    gaps: np.ndarray
    hand: np.ndarray


@dataclass(frozen=True)
class Candidates:
    """A training hand (its index and cards) and the uncorrected fast solver's best splits
    of it: their row keys (C, 3) and table EVs (C,).  Found once, valued in every pass."""

    hand: int
    codes: list[int]
    keys: np.ndarray
    evs: np.ndarray


def candidate_splits(args: tuple[Rules, int, Field, np.ndarray, int, np.ndarray | None]) -> list[Candidates]:
    """The fast solver's best splits of each hand, on the field's tables with the
    correction ``removal`` if given (hands with one split left out: nothing to rank)."""
    rules, players, tables, hands, first, removal = args
    model = make_model(tables, rules, players, removal)
    found = []
    for n, codes in enumerate(hands.tolist()):
        top = _core.solve_hand(model, codes, CANDIDATES)
        if len(top) >= 2:
            keys = row_keys(np.asarray([[*f, *m, *b] for f, m, b, _ in top]), rules)
            found.append(Candidates(first + n, codes, keys, np.asarray([ev for *_, ev in top])))
    return found


def run_jobs(pool: Any, work: Any, jobs: list[Any]) -> list[Any]:
    """``work`` of each job, on the pool's processes when there is a pool."""
    return pool.map(work, jobs) if pool is not None else [work(j) for j in jobs]


#: The generator streams of the two fits' training hands: each fit deals its own.
PER_TAG_HANDS = 1
HAND_TERM_HANDS = 2


def training_candidates(
    rules: Rules,
    players: int,
    tables: Field,
    hands: int,
    seed: int,
    stream: int,
    pool: Any,
    chunks: int,
    correction: np.ndarray | None,
) -> list[list[Candidates]]:
    """``hands`` training hands dealt from ``seed`` and ``stream`` (:data:`PER_TAG_HANDS`,
    :data:`HAND_TERM_HANDS`) and their candidate splits on the field ``tables`` with
    ``correction`` (:func:`candidate_splits`), in ``chunks`` chunks."""
    dealt = deal_hands(hands, np.random.default_rng([seed, hands, players, stream]))
    parts = np.array_split(np.arange(hands), chunks)
    jobs = [(rules, players, tables, dealt[p], int(p[0]) if len(p) else 0, correction) for p in parts]
    return run_jobs(pool, candidate_splits, jobs)


def learn_removal(
    rules: Rules, players: int, scoop: float, candidates: list[list[Candidates]], bank: Bank, pool: Any
) -> np.ndarray:
    """The per-tag correction (3, N_TAGS) fitted to the candidates' gaps against ``bank``."""
    found = run_jobs(pool, training_gaps, [(rules, players, scoop, chunk, bank) for chunk in candidates])
    return fit(Gaps(*(np.concatenate([getattr(g, f) for g in found]) for f in ("tags", "gaps", "hand"))))


def valued_gaps(
    candidates: list[Candidates], bank: Bank, rules: Rules, players: int, scoop: float
) -> Iterator[tuple[Candidates, np.ndarray]]:
    """Each training hand with the gaps of its candidate splits: card-aware value against
    ``bank`` minus table EV, per opponent (hands no bank hand avoids are left out)."""
    for c in candidates:
        value = card_aware_values(c.keys, c.codes, bank, rules, players, scoop)
        if not np.isnan(value[0]):
            yield c, (value - c.evs) / (players - 1)


def training_gaps(args: tuple[Rules, int, float, list[Candidates], Bank]) -> Gaps:
    """The tags and gaps of each hand's candidate splits against ``bank``."""
    rules, players, scoop, candidates, bank = args
    tags, gaps, owner = [], [], []
    for c, gap in valued_gaps(candidates, bank, rules, players, scoop):
        tags.append(c.keys >> TAG_SHIFT)
        gaps.append(gap)
        owner.append(np.full(len(c.keys), c.hand))
    return Gaps(np.concatenate(tags), np.concatenate(gaps), np.concatenate(owner))


def fit(data: Gaps, ridge: float = RIDGE) -> np.ndarray:
    """Per-tag corrections (3, N_TAGS) minimising, within each hand, the squared gaps left
    after the correction (plus ``ridge`` times its squared size), then shifted on the back
    row so the gaps left average 0."""
    columns = data.tags + np.arange(3) * N_TAGS  # one column per (row, tag)
    used, index = np.unique(columns, return_inverse=True)
    index = index.reshape(columns.shape)
    k = len(used)
    # X'X - per hand (X'1)(1'X)/n: the normal equations of the data centred within hands
    gram = np.bincount((index[:, :, None] * k + index[:, None, :]).ravel(), minlength=k * k).astype(np.float64)
    order = np.argsort(data.hand, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(data.hand[order]) != 0])
    sizes = np.diff(np.r_[starts, len(order)])
    centred = data.gaps - np.repeat(np.add.reduceat(data.gaps[order], starts) / sizes, sizes)[np.argsort(order)]
    for size in np.unique(sizes):
        firsts = starts[sizes == size]
        cols = index[order[firsts[:, None] + np.arange(size)]].reshape(len(firsts), 3 * size)
        gram -= np.bincount((cols[:, :, None] * k + cols[:, None, :]).ravel(), minlength=k * k) / size
    rhs = np.bincount(index.ravel(), weights=np.repeat(centred, 3), minlength=k)
    beta = np.linalg.solve(gram.reshape(k, k) + ridge * np.eye(k), rhs)
    out = np.zeros(3 * N_TAGS)
    out[used] = beta
    left = data.gaps - out[columns].sum(axis=1)
    out[2 * N_TAGS :] += left.mean()
    return out.reshape(3, N_TAGS)


def build_removal(
    rules: Rules,
    players: int,
    field: str,
    hands: int,
    bank_size: int,
    seed: int,
    pool: Any,
    chunks: int,
    passes: int = 1,
) -> np.ndarray:
    """The correction (3, N_TAGS) of one preset, table size and field, from ``hands``
    training hands against a bank of ``bank_size`` (both seeded by ``seed``).  Each pass
    after the first sets the same bank hands with the previous pass's correction."""
    tables = get_field(rules, players, field)
    candidates = training_candidates(rules, players, tables, hands, seed, PER_TAG_HANDS, pool, chunks, None)
    correction = None
    for _ in range(passes):
        bank = plain_bank(rules, players, field, bank_size, seed, correction)
        correction = learn_removal(rules, players, tables.scoop, candidates, bank, pool)
    assert correction is not None  # passes >= 1
    return correction


@dataclass(frozen=True)
class HandGaps:
    """Training data of the hand terms: each training hand's features (H, HAND_FEATURES),
    and for each valued split its row terms' slots (N, 3, 2), its gap left after the
    per-tag correction (N,) and its hand (N,), the splits of a hand next to each other."""

    features: np.ndarray
    slots: np.ndarray
    gaps: np.ndarray
    hand: np.ndarray


def hand_gaps(args: tuple[Rules, int, float, list[Candidates], Bank]) -> HandGaps:
    """The hand-term training data of some training hands against ``bank``."""
    rules, players, scoop, candidates, bank = args
    codes: list[list[int]] = []
    slots: list[np.ndarray] = []
    gaps: list[np.ndarray] = []
    owner: list[np.ndarray] = []
    for c, gap in valued_gaps(candidates, bank, rules, players, scoop):
        slots.append(term_slots(c.keys))
        gaps.append(gap)
        owner.append(np.full(len(c.keys), len(codes)))
        codes.append(c.codes)
    if not codes:
        return HandGaps(np.zeros((0, HAND_FEATURES)), np.zeros((0, 3, 2), np.int64), np.zeros(0), np.zeros(0, np.int64))
    features = hand_features(np.asarray(codes))
    return HandGaps(features, np.concatenate(slots), np.concatenate(gaps), np.concatenate(owner))


def join_hand_gaps(parts: list[HandGaps]) -> HandGaps:
    offsets = np.cumsum([0] + [len(p.features) for p in parts[:-1]])
    return HandGaps(
        np.concatenate([p.features for p in parts]),
        np.concatenate([p.slots for p in parts]),
        np.concatenate([p.gaps for p in parts]),
        np.concatenate([p.hand + o for p, o in zip(parts, offsets)]),
    )


def fit_hand_weights(data: HandGaps, ridge: float = HAND_RIDGE, iterations: int = HAND_ITERATIONS) -> np.ndarray:
    """Hand-term weights (HAND_FEATURES, HAND_TERMS) minimising, within each hand, the
    squared gaps left (plus ``ridge`` times the weights' squared size).  The normal
    equations have 11,232 unknowns, so they are solved by conjugate gradients with the
    data matrix applied, never formed: a split's terms are its 6 slots' weights times
    its hand's features."""
    n = len(data.gaps)
    starts = np.flatnonzero(np.r_[True, np.diff(data.hand) != 0])
    sizes = np.diff(np.r_[starts, n])
    feats = data.features[data.hand]  # (N, HAND_FEATURES)
    slots = data.slots.reshape(n, 6)
    groups = []  # per slot column: the splits in slot order and where each slot's run starts
    for k in range(6):
        order = np.argsort(slots[:, k], kind="stable")
        first = np.flatnonzero(np.r_[True, np.diff(slots[order, k]) != 0])
        groups.append((order, first, slots[order[first], k]))

    def centred(v: np.ndarray) -> np.ndarray:
        return np.asarray(v - np.repeat(np.add.reduceat(v, starts) / sizes, sizes))

    def apply(w: np.ndarray) -> np.ndarray:  # X w: each split's terms
        wt = w.reshape(HAND_FEATURES, HAND_TERMS).T
        return np.asarray(sum((feats * wt[slots[:, k]]).sum(axis=1) for k in range(6)))

    def apply_t(r: np.ndarray) -> np.ndarray:  # X' r
        out = np.zeros((HAND_TERMS, HAND_FEATURES))
        weighted = feats * r[:, None]
        for order, first, slot in groups:
            out[slot] += np.add.reduceat(weighted[order], first, axis=0)
        return out.T.ravel()

    def normal(w: np.ndarray) -> np.ndarray:
        return apply_t(centred(apply(w))) + ridge * w

    b = apply_t(centred(data.gaps))
    w = np.zeros_like(b)
    r = b.copy()
    p = r.copy()
    rs = r @ r
    for _ in range(iterations):
        if rs <= 1e-14 * (b @ b):
            break
        ap = normal(p)
        step = rs / (p @ ap)
        w += step * p
        r -= step * ap
        rs, last = r @ r, rs
        p = r + rs / last * p
    return w.reshape(HAND_FEATURES, HAND_TERMS)


def build_hand_weights(
    rules: Rules,
    players: int,
    field: str,
    hands: int,
    bank_size: int,
    seed: int,
    pool: Any,
    chunks: int,
    correction: np.ndarray,
) -> np.ndarray:
    """The hand-term weights of one preset, table size and field: ``hands`` fresh training
    hands' best splits on the tables with ``correction``, valued against the bank set by
    that solver, the gaps the correction leaves fitted by :func:`fit_hand_weights`.  (A
    second pass, its bank set with the first pass's hand terms too, was measured and
    lost: four-two heads-up, opponents playing the second pass, regret 0.0130 for the
    second pass and 0.0114 for the first on the same 400 hands.)"""
    tables = get_field(rules, players, field)
    candidates = training_candidates(rules, players, tables, hands, seed, HAND_TERM_HANDS, pool, chunks, correction)
    bank = plain_bank(rules, players, field, bank_size, seed, correction)
    return learn_hand_weights(rules, players, tables.scoop, candidates, bank, pool)


def learn_hand_weights(
    rules: Rules, players: int, scoop: float, candidates: list[list[Candidates]], bank: Bank, pool: Any
) -> np.ndarray:
    """Hand-term weights fitted to the gaps the candidates' correction leaves against ``bank``."""
    gaps = run_jobs(pool, hand_gaps, [(rules, players, scoop, chunk, bank) for chunk in candidates])
    return fit_hand_weights(join_hand_gaps(gaps))


def training_seed(seed: int, preset: str, field: str, players: int) -> int:
    """The seed of one preset, field and table size's bank and training hands, derived
    reproducibly from the build's base seed."""
    return seed * 1000 + sorted(PRESETS).index(preset) * 100 + FIELDS.index(field) * 10 + players


def build_all(
    hands: int,
    bank: int,
    seed: int,
    jobs: int,
    presets: list[str],
    fields: tuple[str, ...],
    out_dir: Path,
    passes: int | None = None,
    hand_hands: int = HAND_HANDS,
    only_hand_terms: bool = False,
    all_hand_terms: bool = False,
    executor: str = "local",
    sizes: tuple[int, ...] = TABLE_SIZES,
) -> None:
    """Build and save the corrections of every preset and field that plays one (the
    shipped manifest's play entries), at every table size, and the hand terms of those
    that play them (every corrected one with ``all_hand_terms``), learned on
    ``hand_hands`` further hands (0: none).  With ``only_hand_terms`` the per-tag
    corrections already in ``out_dir`` are kept and only the hand terms are (re)built on
    them, at the table sizes ``sizes`` (the others' hand terms kept as they are).  Each
    file written is recorded in the manifest of ``out_dir``.  The work runs on
    ``executor`` (:mod:`solver.training.pools`), in ``jobs * 4`` chunks per step."""
    out_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    plays = shipped_plays()
    with open_pool(executor, jobs) as pool:
        for preset in presets:
            for field in fields:
                plan = plays[(preset, field)]
                if plan.removal is None:
                    continue  # left out on measurement (the play entry's why)
                began = time.perf_counter()
                field_passes = passes or recorded_passes(preset, field)
                name = removal_name(table_preset(PRESETS[preset]), field)
                path = out_dir / name
                with_terms = hand_hands > 0 and (all_hand_terms or bool(plan.hand_terms))
                if only_hand_terms and not with_terms:
                    continue
                arrays: dict[str, Any] = {}
                if only_hand_terms:
                    with np.load(path) as kept:
                        rebuilt = {f"hand_{players}" for players in sizes}
                        arrays = {name: kept[name] for name in kept.files if name not in rebuilt}
                for players in sizes:
                    sub_seed = training_seed(seed, preset, field, players)
                    rules = PRESETS[preset]
                    if not only_hand_terms:
                        arrays[f"removal_{players}"] = build_removal(rules, players, field, hands, bank, sub_seed,
                                                                     pool, jobs * 4, field_passes)  # fmt: skip
                    if with_terms:
                        weights = build_hand_weights(rules, players, field, hand_hands, bank, sub_seed, pool, jobs * 4,
                                                     arrays[f"removal_{players}"])  # fmt: skip
                        arrays[f"hand_{players}"] = weights.astype(np.float32)  # as the core reads them
                    took = time.perf_counter() - start
                    print(f"{preset} {field} {players}p  {took:7.1f}s", file=sys.stderr, flush=True)
                if not only_hand_terms:
                    arrays.update(hands=np.int64(hands), bank=np.int64(bank), seed=np.int64(seed),
                                  ridge=np.float64(RIDGE), passes=np.int64(field_passes))  # fmt: skip
                if with_terms:
                    arrays.update(hand_hands=np.int64(hand_hands), hand_ridge=np.float64(HAND_RIDGE),
                                  hand_iterations=np.int64(HAND_ITERATIONS))  # fmt: skip
                np.savez_compressed(path, **arrays)
                record_build(out_dir, preset, field, plan, arrays, only_hand_terms, with_terms,
                             f"{time.perf_counter() - began:.0f} s on {jobs} processes")  # fmt: skip


COMMAND = "python -m solver.training.removal build"


def record_build(
    out_dir: Path,
    preset: str,
    field: str,
    plan: Play,
    arrays: dict[str, Any],
    only_hand_terms: bool,
    with_terms: bool,
    took: str,
) -> None:
    """Record a removal file just written in the manifest of ``out_dir``: its per-tag
    build (kept as recorded with ``only_hand_terms``) and its hand-term build, and in the
    play entry, the table sizes that play them as the shipped entry ``plan`` says."""
    name = removal_name(preset, field)
    book = manifest.load(out_dir)
    kept = [b for b in manifest.builds_of(book, name) if b["build"] != "hand terms"]
    builds = kept if only_hand_terms else []
    if not only_hand_terms:
        builds.append({"build": "removal", "command": COMMAND, "hands": int(arrays["hands"]),
                       "bank": int(arrays["bank"]), "seed": int(arrays["seed"]), "ridge": float(arrays["ridge"]),
                       "passes": int(arrays["passes"]), "took": took,
                       "training_seeds": {str(p): training_seed(int(arrays["seed"]), preset, field, p)
                                          for p in TABLE_SIZES}})  # fmt: skip
    if with_terms:
        builds.append({"build": "hand terms", "command": COMMAND + (" --only-hand-terms" if only_hand_terms else ""),
                       "hand_hands": int(arrays["hand_hands"]), "hand_ridge": float(arrays["hand_ridge"]),
                       "hand_iterations": int(arrays["hand_iterations"]), "took": took})  # fmt: skip
    manifest.record_file(book, out_dir, name, "removal", preset, field, builds)
    plays_terms = sorted(plan.hand_terms) if with_terms else []
    manifest.set_play(book, preset, field, tables=table_name(preset, field), removal=name, passes=int(arrays["passes"]),
                      correction=sorted(plan.correction), hand_terms=plays_terms)  # fmt: skip
    manifest.save(out_dir, book)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.training.removal", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="learn the card-removal corrections of every preset, field and table size")
    b.add_argument("--hands", type=int, default=20_000, help="training hands per table (default 20000)")
    b.add_argument("--bank", type=int, default=50_000, help="hands in each field's bank (default 50000)")
    b.add_argument("--seed", type=int, default=2026)
    b.add_argument("--passes", type=int, help="passes, each bank set by the last (default: as recorded)")
    b.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    b.add_argument("--presets", nargs="*", default=sorted(PRESETS), choices=sorted(PRESETS))
    b.add_argument("--fields", nargs="*", default=list(FIELDS), choices=FIELDS, help="fields to build (default all)")
    b.add_argument("--hand-hands", type=int, default=HAND_HANDS,
                   help=f"training hands of the hand terms per table (default {HAND_HANDS}; 0: no hand terms)")
    b.add_argument("--only-hand-terms", action="store_true",
                   help="keep the per-tag corrections in --out and (re)build only the hand terms on them")
    b.add_argument("--all-hand-terms", action="store_true",
                   help="build hand terms for every corrected table, not only those fast mode plays (to measure them)")
    b.add_argument("--out", type=Path, default=DATA_DIR)
    b.add_argument("--executor", default="local",
                   help=f"where the work runs: {', '.join(EXECUTORS)} (default local: --jobs processes)")
    b.add_argument("--sizes", nargs="*", type=int, default=list(TABLE_SIZES), choices=TABLE_SIZES,
                   help="table sizes whose hand terms --only-hand-terms rebuilds (default all)")  # fmt: skip
    args = parser.parse_args(argv)
    if sorted(set(args.sizes)) != list(TABLE_SIZES) and not args.only_hand_terms:
        parser.error("--sizes needs --only-hand-terms (a per-tag build makes every table size)")
    if args.hands < 100 or args.bank < 1000:
        parser.error("--hands must be at least 100 and --bank at least 1000 (about 1.3 % of it avoids a hand)")
    if args.passes is not None and args.passes < 1:
        parser.error("--passes must be at least 1")
    if args.hand_hands and args.hand_hands < 1000:
        parser.error("--hand-hands must be 0 (no hand terms) or at least 1000")
    if args.only_hand_terms and not args.hand_hands:
        parser.error("--only-hand-terms needs --hand-hands above 0")
    if problem := unwritable(args.out) or check_executor(args.executor):
        parser.error(problem)
    build_all(args.hands, args.bank, args.seed, max(1, args.jobs), args.presets, tuple(args.fields), args.out,
              args.passes, args.hand_hands, args.only_hand_terms, args.all_hand_terms, args.executor,
              tuple(sorted(set(args.sizes))))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
