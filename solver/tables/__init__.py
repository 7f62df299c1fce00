"""EV tables of the fast solver: what a field of opponents holds in each row.

The fast objective (spec §6.2) needs, for every row class of my split, the chance an
opponent's same row is weaker / stronger and the chi I pay when it is stronger.  All of
that follows from one thing per (preset, table size): the distribution of the *field's*
row classes (front: 455 classes, middle and back: 12,376; see :mod:`solver._core`), plus
``scoop``, the chance one field hand scoops another (for sập làng).

Each named field (:mod:`solver.fields`) is found by iterated best response: start with
every sampled hand set "strongest back first", then repeatedly solve every sampled hand
against the current field and move the field half way toward the field's answer (its
naive share of players keep setting strongest back first, the rest play the best
response), until it moves less than ``tol`` (total variation, worst row).  "beginners"
is the naive start itself; "strong" has no naive players; "population" a quarter.

Build all shipped tables (``solver/data/field-<preset>.npz`` for "population",
``field-<preset>-<field>.npz`` for the others)::

    python -m solver.tables build

(defaults: ``--samples 40000 --max-iter 12 --tol 0.01 --seed 2026``, every field).
It uses every core (``--jobs``, default all) and prints a progress bar on stderr.  The
shipped tables were built with exactly that command: 4 presets × 3 table sizes in 125 s
per field on a quiet 2-core machine ("beginners" takes seconds: it is the naive start).
"vietnamese" and "seed" settle below 0.01 in 11–12 iterations under "population";
"plain" and "four-two", and every preset under "strong", stop at 12 still moving about
0.02, the sampling noise of 40,000 hands spread over 12,376 classes (their best
responses flip between near-equal sets).
Opponents' special hands are left out of the tables; deep mode covers them.  Card
removal (the opponents are dealt from the 39 cards I do not hold) enters as a learned
correction of each row's value per row tag, built separately by ``python -m
solver.removal build`` into ``removal-<preset>[-<field>].npz`` (see :mod:`solver.removal`);
:func:`get_model` adds it, :func:`make_model` only when given one.  Where measured to
help, the same file also holds *hand terms*: corrections that depend on the cards I
hold, not only on the row (:func:`term_parts`, :func:`hand_features`).  Where fast mode
plays them (:data:`HAND_TERM_TABLES`), ``python -m solver.selfplay build`` then moves the
field, the correction and the hand terms together by rounds of self-play, so the tables
describe a table of solvers who play them (:mod:`solver.selfplay`).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core
from ..fields import DEFAULT_FIELD, FIELDS, check_field, table_preset
from ..fields import NAIVE_SHARE as FIELD_NAIVE_SHARE
from ..hands import STRAIGHT, STRAIGHT_FLUSH
from ..rules import PRESETS, Rules
from ..scoring import chi_value

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
TABLE_SIZES = (2, 3, 4)
ROWS = ("front", "middle", "back")
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True)
class Field:
    """Row-class distribution of the field at one table size (each row sums to 1)."""

    front: FloatArray
    middle: FloatArray
    back: FloatArray
    scoop: float

    def rows(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        return (self.front, self.middle, self.back)


def table_name(preset: str, field: str = DEFAULT_FIELD) -> str:
    """File name of a preset's tables for one field (the default field keeps the plain name)."""
    return f"field-{preset}.npz" if field == DEFAULT_FIELD else f"field-{preset}-{field}.npz"


def table_path(preset: str, field: str = DEFAULT_FIELD) -> Path:
    return DATA_DIR / table_name(preset, field)


@cache
def load_field(preset: str, players: int, field: str = DEFAULT_FIELD) -> Field:
    """The shipped field of one preset, table size and field name."""
    return read_field(table_path(preset, field), players)


def get_field(rules: Rules, players: int, field: str = DEFAULT_FIELD) -> Field:
    """Row-class distribution of the named field for these rules and table size."""
    return load_field(table_preset(rules), players, check_field(field))


@lru_cache(maxsize=64)
def get_model(rules: Rules, players: int, field: str = DEFAULT_FIELD) -> _core.Model:
    """The compiled model for these rules, table size and field, card-removal correction
    included (loaded once, then cached)."""
    return make_model(get_field(rules, players, field), rules, players, get_removal(rules, players, field),
                      hand_weights=get_hand_weights(rules, players, field))  # fmt: skip


#: A row's tag: its key >> 20, the category and top rank (what chi values and the
#: card-removal corrections are per); a key's category is key >> 25.
TAG_SHIFT = 20
CATEGORY_SHIFT = 25
N_CATEGORIES = 9
N_TAGS = 512


def removal_name(preset: str, field: str = DEFAULT_FIELD) -> str:
    """File name of a preset's card-removal corrections for one field."""
    return f"removal-{preset}.npz" if field == DEFAULT_FIELD else f"removal-{preset}-{field}.npz"


#: (preset, field) pairs that play without the card-removal correction [measured].  A
#: correction ships only if it does not lose to the uncorrected solver in a duplicate
#: match (``benchmarks/solver_strength.py --matchups fast:alt``, 100,000-200,000 deals)
#: at 2 and 4 players.  Lost: four-two population -0.006 ± 0.002 / -0.008 ± 0.003, plain
#: population -0.001 ± 0.001 / -0.002 ± 0.001 (both gain against strongest-back-first
#: players, whom the population field holds: plain +0.006 / +0.020); beginners
#: vietnamese -0.002 / -0.049 ± 0.004.  The beginners corrections are all left out:
#: against the strongest-back-first players that field stands for they changed nothing
#: (vietnamese +1.750 vs +1.748 heads-up, +6.493 vs +6.495 at 4 players).  Every strong
#: correction and vietnamese's and seed's population ones gain (docs/benchmarks.md, "No loss").
UNCORRECTED = frozenset(
    {("four-two", "population"), ("plain", "population")} | {(preset, "beginners") for preset in PRESETS}
)


@cache
def load_removal(preset: str, players: int, field: str = DEFAULT_FIELD) -> FloatArray | None:
    """The shipped card-removal correction (3, N_TAGS) of one preset, table size and
    field; None where the field plays without one (:data:`UNCORRECTED`)."""
    if (preset, field) in UNCORRECTED:
        return None
    return read_removal(DATA_DIR / removal_name(preset, field), players)


#: (preset, field) pairs whose fast mode also plays the hand terms [measured].  They lower
#: the regret wherever they were built (benchmarks/solver_regret.py, 400 hands, strong
#: opponents: four-two 0.0084 -> 0.0044 heads-up and 0.0243 -> 0.0106 at 4 players;
#: vietnamese 0.0108 -> 0.0077 and 0.0339 -> 0.0172), but they cost the search 1.5-1.6x
#: its instructions (callgrind, vietnamese 4 players: 263,400 -> 420,700 a hand), which
#: the speed budget at vietnamese (median <= 15 us) does not allow; four-two's search is
#: the cheaper one (244,322 -> 372,852 heads-up) and its heads-up target needs them.
HAND_TERM_TABLES = frozenset({("four-two", "strong")})


@cache
def load_hand_weights(preset: str, players: int, field: str = DEFAULT_FIELD) -> FloatArray | None:
    """The shipped hand-term weights (HAND_FEATURES, HAND_TERMS) of one preset, table size
    and field; None where fast mode plays without them (:data:`HAND_TERM_TABLES`)."""
    if (preset, field) not in HAND_TERM_TABLES:
        return None
    return read_hand_weights(DATA_DIR / removal_name(preset, field), players)


def read_hand_weights(path: Path, players: int) -> FloatArray | None:
    """The hand-term weights in a card-removal file, None when it has none."""
    if not path.exists():
        return None
    with np.load(path) as data:
        name = f"hand_{players}"
        return np.asarray(data[name], dtype=np.float64) if name in data else None


def get_hand_weights(rules: Rules, players: int, field: str = DEFAULT_FIELD) -> FloatArray | None:
    """The hand-term weights of the named field for these rules and table size (None
    where that field plays without them)."""
    return load_hand_weights(table_preset(rules), players, check_field(field))


#: Where a hand term sits: per row, a row key's top part and its next part, each one of
#: 9 categories x 13 ranks (:func:`term_parts`), times the hand's features
#: (:func:`hand_features`).  The compiled core reads the same layout (``TERM_TAGS``).
TERM_PARTS = _core.TERM_PARTS
HAND_TERMS = _core.HAND_TERMS
HAND_FEATURES = _core.HAND_FEATURES


def term_parts(keys: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The two parts (..., 2) of row keys, each category * 13 + a rank: the top part's rank
    is the first digit's (a pair's rank, a high card, a trips' rank), the next part's the
    first digit that differs from it (a pair's kicker, two pair's lower pair, a full
    house's pair; 0 when there is none); a straight's is its top rank, with no next part.
    An impossible class (key -1) gets 0 parts.  The compiled core computes the same
    (``_core.key_parts``)."""
    keys = np.asarray(keys, dtype=np.int64)
    ok = keys >= 0
    keys = np.where(ok, keys, 0)
    category = keys >> CATEGORY_SHIFT
    digits = np.stack([(keys >> (TAG_SHIFT - 5 * i)) & 31 for i in range(5)], axis=-1)
    differs = digits[..., 1:] != digits[..., :1]
    first_other = np.argmax(differs, axis=-1)
    second = np.where(differs.any(axis=-1), np.take_along_axis(digits[..., 1:], first_other[..., None], -1)[..., 0], 0)
    straight = (category == STRAIGHT) | (category == STRAIGHT_FLUSH)
    top_rank = np.where(straight, (digits[..., 0] >> 1) - 1, digits[..., 0] - 1)
    next_rank = np.where(straight, 0, second - 1)
    top = category * 13 + np.clip(top_rank, 0, 12)
    nxt = category * 13 + np.clip(next_rank, 0, 12)
    return np.where(ok[..., None], np.stack([top, nxt], axis=-1), 0)


def hand_features(hands: npt.ArrayLike) -> FloatArray:
    """Features (n, HAND_FEATURES) of 13-card hands (n, 13) of codes: the count of each
    rank, the largest and second largest suit counts, and 1."""
    hands = np.asarray(hands, dtype=np.int64)
    n = len(hands)
    out = np.zeros((n, HAND_FEATURES), dtype=np.float64)
    rows = np.repeat(np.arange(n), 13)
    np.add.at(out, (rows, (hands >> 2).ravel()), 1.0)
    suits = np.zeros((n, 4))
    np.add.at(suits, (rows, (hands & 3).ravel()), 1.0)
    suits.sort(axis=1)
    out[:, 13] = suits[:, 3]
    out[:, 14] = suits[:, 2]
    out[:, 15] = 1.0
    return out


def term_slots(keys: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Where each row's two terms sit among the HAND_TERMS (n, 3, 2) of row keys (n, 3)
    laid out front, middle, back."""
    parts = term_parts(keys)
    return np.asarray(parts + (2 * TERM_PARTS * np.arange(3))[:, None] + np.array([0, TERM_PARTS]), dtype=np.int64)


def read_removal(path: Path, players: int) -> FloatArray:
    """Chi per opponent to add to each row (front, middle, back) of each tag (3, N_TAGS)."""
    if not path.exists():
        raise FileNotFoundError(f"card-removal table {path} is missing; build it with `python -m solver.removal build`")
    with np.load(path) as data:
        return np.asarray(data[f"removal_{players}"], dtype=np.float64)


def get_removal(rules: Rules, players: int, field: str = DEFAULT_FIELD) -> FloatArray | None:
    """The card-removal correction of the named field for these rules and table size
    (None where that field plays without one)."""
    return load_removal(table_preset(rules), players, check_field(field))


def removal_by_class(removal: FloatArray, rules: Rules) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per-tag corrections (3, N_TAGS) spread over the classes of each row; impossible
    classes get 0."""
    return spread_by_tag(removal, rules, fill=0.0)


def read_model(directory: Path, rules: Rules, players: int, field: str = DEFAULT_FIELD) -> _core.Model:
    """The model built from the tables in ``directory`` (same file names as DATA_DIR), with
    the card-removal corrections found there, if any (the benchmarks' "alt" solver)."""
    preset = table_preset(rules)
    removal = directory / removal_name(preset, field)
    return make_model(
        read_field(directory / table_name(preset, field), players),
        rules,
        players,
        read_removal(removal, players) if removal.exists() else None,
        hand_weights=read_hand_weights(removal, players),
    )


def read_field(path: Path, players: int) -> Field:
    """The field of one table size from a table file (``build`` writes them)."""
    if not path.exists():
        raise FileNotFoundError(f"EV table {path} is missing; build it with `python -m solver.tables build`")
    with np.load(path) as data:
        return Field(
            front=data[f"front_{players}"],
            middle=data[f"middle_{players}"],
            back=data[f"back_{players}"],
            scoop=float(data[f"scoop_{players}"]),
        )


@lru_cache(maxsize=8)
def tag_chi_values(rules: Rules) -> FloatArray:
    """Chi value of winning each row (front, middle, back) with each tag (3, N_TAGS): the
    value depends only on a row's category and top digit (D7, O6)."""
    out = np.ones((3, N_TAGS), dtype=np.float64)
    for row in range(3):
        for tag in range(N_CATEGORIES << (CATEGORY_SHIFT - TAG_SHIFT)):
            out[row, tag] = chi_value(row, tag << TAG_SHIFT, rules)
    return out


def spread_by_tag(by_tag: FloatArray, rules: Rules, fill: float) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per-tag numbers (3, N_TAGS) spread over the classes of each row (front 455, middle
    and back 12,376); impossible classes get ``fill``."""
    k3, k5 = _core.class_keys(rules.wheel == "second")
    rows = [
        np.where(keys >= 0, by_tag[row][np.maximum(keys, 0) >> TAG_SHIFT], fill)
        for row, keys in enumerate((k3, k5, k5))
    ]
    return rows[0], rows[1], rows[2]


@lru_cache(maxsize=8)
def class_values(rules: Rules) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Chi value of winning each row with each class (front 455, middle and back 12,376)."""
    return spread_by_tag(tag_chi_values(rules), rules, fill=1.0)


def keys_of_classes(classes: IntArray, rules: Rules) -> npt.NDArray[np.int64]:
    """Row keys (n, 3) of row classes (n, 3), front, middle, back."""
    k3, k5 = _core.class_keys(rules.wheel == "second")
    return np.stack([k3[classes[:, 0]], k5[classes[:, 1]], k5[classes[:, 2]]], axis=1).astype(np.int64)


def row_keys(arrangements: IntArray, rules: Rules) -> npt.NDArray[np.int64]:
    """Row keys (n, 3) of arrangements (n, 13) laid out front 3 | middle 5 | back 5."""
    return keys_of_classes(_core.row_classes(np.ascontiguousarray(arrangements, dtype=np.int32)), rules)


#: Sweep correlation [derived].  Rows are compared independently, but a field hand weak
#: in one row is weak in the others (its rows are ordered), so sweeping all three rows is
#: likelier than the product of the row chances.  Measured on 20,000 solver hands against
#: 20,000 "strongest back first" hands (vietnamese, heads-up): per-row win rates match the
#: tables to 0.001, while P(win all) ≈ (p_f p_m p_b) ** 0.93 and P(lose all) ≈
#: (q_f q_m q_b) ** 0.85 across the whole range (the plain product underestimated being
#: swept by half).
GAMMA_WIN = 0.93
GAMMA_LOSE = 0.85


def row_table(dist: FloatArray, keys: IntArray, values: FloatArray, correction: FloatArray | None = None) -> FloatArray:
    """(n, 11) rows p, q, L, v, lin, vub, linub, pg, qg, Lq, Lqlb for each class of mine against ``dist``.

    ``p``/``q``: the field's row is weaker / stronger; ``L``: expected chi I pay in that row;
    ``v``: what I receive when I win; ``lin = p v - L`` plus the class's card-removal
    ``correction`` (chi per opponent, if given); ``vub``: the largest ``v`` of any class no
    stronger and ``linub`` the largest ``p vub - L + correction`` (the pruning bound needs
    values that never fall with strength);
    ``pg = p ** GAMMA_WIN``, ``qg = q ** GAMMA_LOSE`` (sweep factors); ``Lq = L / q`` and
    ``Lqlb``, its smallest value over classes no stronger (for the bound as well).
    """
    n = len(keys)
    out = np.zeros((n, 11), dtype=np.float64)
    ok = keys >= 0
    idx = np.flatnonzero(ok)
    order = idx[np.argsort(keys[idx], kind="stable")]
    mass = dist[order]
    below = np.concatenate(([0.0], np.cumsum(mass)[:-1]))
    total = mass.sum()
    pay = mass * values[order]
    pay_above = pay.sum() - np.cumsum(pay)
    p = np.zeros(n)
    q = np.zeros(n)
    L = np.zeros(n)
    # clear rounding dust so the strongest class loses with probability exactly 0
    p[order] = np.clip(np.where(below < 1e-12, 0.0, below / total), 0.0, 1.0)
    above = total - below - mass
    q[order] = np.clip(np.where(above < 1e-12, 0.0, above / total), 0.0, 1.0)
    L[order] = pay_above / total
    vub = np.zeros(n)
    vub[order] = np.maximum.accumulate(values[order])
    out[:, 0] = p
    out[:, 1] = q
    out[:, 2] = L
    out[:, 3] = values
    shift = np.zeros(n) if correction is None else correction
    out[:, 4] = p * values - L + shift
    out[:, 5] = vub
    out[order, 6] = np.maximum.accumulate((p * vub - L + shift)[order])
    out[:, 7] = p**GAMMA_WIN
    out[:, 8] = q**GAMMA_LOSE
    out[:, 9] = np.divide(L, q, out=np.zeros(n), where=q > 0)
    lq = out[order, 9]
    out[order, 10] = np.minimum.accumulate(np.where(q[order] > 0, lq, np.inf))
    out[~np.isfinite(out[:, 10]), 10] = 0.0
    out[~ok] = 0.0
    return out


def sap_lang_applies(rules: Rules, players: int) -> bool:
    return rules.sap_lang and players >= max(3, rules.sap_lang_min_players)


def make_model(
    field: Field,
    rules: Rules,
    players: int,
    removal: FloatArray | None = None,
    model_class: type[_core.Model] = _core.Model,
    hand_weights: FloatArray | None = None,
) -> _core.Model:
    """The compiled scoring model for ``rules`` at ``players`` against ``field``, with the
    card-removal correction ``removal`` (3, N_TAGS) and hand-term weights
    ``hand_weights`` (HAND_FEATURES, HAND_TERMS) when given.  ``model_class`` is another
    build's ``Model`` when a benchmark times two builds side by side."""
    k3, k5 = _core.class_keys(rules.wheel == "second")
    v3, vm, vb = class_values(rules)
    c3, cm, cb = (None, None, None) if removal is None else removal_by_class(removal, rules)
    nopp = players - 1
    sl = sap_lang_applies(rules, players)
    return model_class(
        row_table(field.front, k3, v3, c3),
        row_table(field.middle, k5, vm, cm),
        row_table(field.back, k5, vb, cb),
        nopp,
        rules.sweep_mult,
        rules.sweep_bonus,
        rules.majority_bonus,
        rules.sap_lang_mult if sl else 1,
        field.scoop ** (nopp - 1),
        rules.strict,
        rules.wheel == "second",
        *(() if hand_weights is None else (hand_weights,)),  # an older build's Model takes no weights
    )


# --- building ---------------------------------------------------------------------------


def deal_hands(n: int, rng: np.random.Generator) -> IntArray:
    """``n`` random 13-card hands as sorted codes (each from its own shuffled deck)."""
    return np.sort(np.argsort(rng.random((n, 52)), axis=1)[:, :13], axis=1).astype(np.int32)


def field_of(arrangements: IntArray, rules: Rules) -> Field:
    """Distribution of row classes of a sample of arrangements, and its scoop rate."""
    cls = _core.row_classes(np.ascontiguousarray(arrangements, dtype=np.int32))
    n = len(cls)
    front = np.bincount(cls[:, 0], minlength=_core.N_FRONT_CLASSES) / n
    middle = np.bincount(cls[:, 1], minlength=_core.N_FIVE_CLASSES) / n
    back = np.bincount(cls[:, 2], minlength=_core.N_FIVE_CLASSES) / n
    keys = keys_of_classes(cls, rules)
    other = np.roll(keys, 1, axis=0)
    scoop = float(np.mean(np.all(keys > other, axis=1)))
    return Field(front.astype(np.float64), middle.astype(np.float64), back.astype(np.float64), scoop)


def blend(a: Field, b: Field, weight: float) -> Field:
    """``(1 - weight) * a + weight * b``."""
    mix = [(1 - weight) * x + weight * y for x, y in zip(a.rows(), b.rows())]
    return Field(mix[0], mix[1], mix[2], (1 - weight) * a.scoop + weight * b.scoop)


def distance(a: Field, b: Field) -> float:
    """Largest total-variation distance between the two fields' rows."""
    return max(0.5 * float(np.abs(x - y).sum()) for x, y in zip(a.rows(), b.rows()))


def _solve_chunk(args: tuple[Field, Rules, int, IntArray]) -> IntArray:
    field, rules, players, hands = args
    model = make_model(field, rules, players)
    arrangements, _ = _core.solve_batch(model, hands)
    return np.asarray(arrangements)


def best_response(field: Field, rules: Rules, players: int, hands: IntArray, pool: Any, chunks: int) -> IntArray:
    """Every sampled hand solved against ``field`` (in parallel chunks)."""
    parts = np.array_split(hands, chunks)
    jobs = [(field, rules, players, np.ascontiguousarray(p)) for p in parts]
    results = pool.map(_solve_chunk, jobs) if pool is not None else [_solve_chunk(j) for j in jobs]
    return np.concatenate(results)


#: The default field is a population, not one strategy [choice]: this share of its
#: players set "strongest back first" and the rest play the best response to the whole
#: population.  Real tables hold naive players; tuning for none of them gives away chi
#: against them, while a quarter costs little against strong players (docs/benchmarks.md).
NAIVE_SHARE = FIELD_NAIVE_SHARE[DEFAULT_FIELD]
#: Each iteration moves the field this far toward the population's new response.
DAMPING = 0.5


def sample_seed(seed: int, preset: str, players: int) -> int:
    """The seed of one preset and table size's sample hands, derived reproducibly from the
    build's base seed."""
    return seed * 1000 + TABLE_SIZES.index(players) * 10 + sorted(PRESETS).index(preset)


def sample_hands(samples: int, seed: int) -> IntArray:
    """The sample hands :func:`build_field` solves, dealt from ``seed``."""
    return deal_hands(samples, np.random.default_rng(seed))


def build_field(
    rules: Rules,
    players: int,
    samples: int,
    seed: int,
    pool: Any = None,
    chunks: int = 1,
    max_iter: int = 12,
    tol: float = 0.01,
    progress: Any = None,
    naive_share: float = NAIVE_SHARE,
) -> tuple[Field, list[float]]:
    """Iterated best response from "strongest back first"; returns the field and the
    distance moved at each iteration.

    Each iteration solves every sampled hand against the current field, mixes those
    answers with the naive ones (``naive_share`` of the population) and moves the field
    half way (:data:`DAMPING`) toward that mix, until it moves less than ``tol``.  With
    ``naive_share=0`` this converges toward an equilibrium of the solver with itself;
    with ``naive_share=1`` the field is the naive one (no iteration).
    """
    if not 0.0 <= naive_share <= 1.0:
        raise ValueError(f"naive_share must be in [0, 1], got {naive_share}")
    hands = sample_hands(samples, seed)
    naive = field_of(_core.strongest_back_first(hands, rules.wheel == "second"), rules)
    field = naive
    moves: list[float] = []
    if naive_share == 1.0:
        return field, moves
    for it in range(1, max_iter + 1):
        response = field_of(best_response(field, rules, players, hands, pool, chunks), rules)
        new = blend(field, blend(response, naive, naive_share), DAMPING)
        moves.append(distance(field, new))
        field = new
        if progress is not None:
            progress(it, moves[-1])
        if moves[-1] < tol:
            break
    return field, moves


def build_all(
    samples: int,
    seed: int,
    jobs: int,
    presets: list[str],
    out_dir: Path = DATA_DIR,
    max_iter: int = 12,
    tol: float = 0.01,
    fields: tuple[str, ...] = FIELDS,
) -> None:
    """Build and save the tables of every preset, field and table size."""
    out_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs) as pool:
        for preset, field_name in ((p, f) for f in fields for p in presets):
            rules = PRESETS[preset]
            naive_share = FIELD_NAIVE_SHARE[field_name]
            arrays: dict[str, Any] = {}
            for players in TABLE_SIZES:
                label = f"{preset} {field_name} {players}p"

                def progress(it: int, move: float, label: str = label) -> None:
                    elapsed = time.perf_counter() - start
                    bar = "#" * it + "." * (max_iter - it)
                    print(
                        f"\r{label:>28} [{bar}] iter {it:2d} move {move:.4f}  {elapsed:6.1f}s",
                        end="",
                        file=sys.stderr,
                        flush=True,
                    )

                field, moves = build_field(
                    rules,
                    players,
                    samples,
                    sample_seed(seed, preset, players),
                    pool,
                    jobs * 4,
                    max_iter=max_iter,
                    tol=tol,
                    progress=progress,
                    naive_share=naive_share,
                )
                print(file=sys.stderr)
                arrays[f"front_{players}"] = field.front
                arrays[f"middle_{players}"] = field.middle
                arrays[f"back_{players}"] = field.back
                arrays[f"scoop_{players}"] = np.float64(field.scoop)
                arrays[f"moves_{players}"] = np.asarray(moves)
            arrays["samples"] = np.int64(samples)
            arrays["seed"] = np.int64(seed)
            arrays["naive_share"] = np.float64(naive_share)
            np.savez_compressed(out_dir / table_name(preset, field_name), **arrays)
    took = time.perf_counter() - start
    print(f"built {len(presets)} preset(s) x {len(fields)} field(s) in {took:.1f}s", file=sys.stderr)


def unwritable(directory: Path) -> str | None:
    """Why a build cannot write its files into ``directory`` (made if missing), else None:
    checked before a build of minutes starts, not when it saves."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"--out {directory}: cannot make that directory ({error.strerror})"
    if not os.access(directory, os.W_OK | os.X_OK):
        return f"--out {directory}: cannot write there (permission denied)"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.tables", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the EV tables by iterated best response")
    b.add_argument("--samples", type=int, default=40000, help="hands sampled per table (default 40000)")
    b.add_argument("--seed", type=int, default=2026)
    b.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    b.add_argument("--presets", nargs="*", default=sorted(PRESETS), choices=sorted(PRESETS))
    b.add_argument("--out", type=Path, default=DATA_DIR)
    b.add_argument("--max-iter", type=int, default=12, help="best-response iterations at most (default 12)")
    b.add_argument("--tol", type=float, default=0.01, help="stop when the field moves less than this (default 0.01)")
    b.add_argument("--fields", nargs="*", default=list(FIELDS), choices=FIELDS, help="fields to build (default all)")
    args = parser.parse_args(argv)
    if problem := unwritable(args.out):
        parser.error(problem)
    build_all(
        args.samples, args.seed, max(1, args.jobs), args.presets, args.out, args.max_iter, args.tol, tuple(args.fields)
    )
    return 0
