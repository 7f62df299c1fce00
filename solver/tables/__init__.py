"""EV tables of the fast solver: what a field of opponents holds in each row, and the
compiled model built from them.

The fast objective (spec §6.2) needs, for every row class of my split, the chance an
opponent's same row is weaker / stronger and the chi I pay when it is stronger.  All of
that follows from one thing per (preset, table size, field): the distribution of the
*field's* row classes (front: 455 classes, middle and back: 12,376; see
:mod:`solver._core`), plus ``scoop``, the chance one field hand scoops another (for sập
làng).  Opponents' special hands are left out of the tables; deep mode covers them.
Card removal (the opponents are dealt from the 39 cards I do not hold) enters as a
learned correction of each row's value per row tag, and where measured to help, *hand
terms*: corrections that depend on the cards I hold, not only on the row
(:func:`term_parts`, :func:`hand_features`).

This module only loads.  The files live in ``solver/data`` beside ``manifest.json``,
which says what each file holds, which build made it (seeds, sizes, figures), and what
fast mode plays for each preset and field: its field file, and at which table sizes the
card-removal correction and the hand terms of its removal file (:class:`Play`).
:func:`get_model` builds the model from those; :func:`make_model` takes any parts.  The
offline builds that write the files and the manifest are :mod:`solver.training` (the
field tables, the corrections and hand terms, the self-play rounds); nothing here
imports them, so ``import solver`` never loads a training module.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core
from ..fields import DEFAULT_FIELD, check_field, table_preset
from ..hands import STRAIGHT, STRAIGHT_FLUSH
from ..rules import Rules
from ..scoring import chi_value

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
#: The file in a data directory that describes the others (see docs/training.md).
MANIFEST = "manifest.json"
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


def removal_name(preset: str, field: str = DEFAULT_FIELD) -> str:
    """File name of a preset's card-removal corrections for one field."""
    return f"removal-{preset}.npz" if field == DEFAULT_FIELD else f"removal-{preset}-{field}.npz"


@dataclass(frozen=True)
class Play:
    """What fast mode plays for one preset and field (an entry of the manifest's
    ``play`` list): the field file, the removal file (None: no correction), the table
    sizes that add its per-tag correction, those that add its hand terms and those that
    re-rank fast mode's best sets with its re-ranking weights, and the passes its
    correction was built with (the removal build's default)."""

    tables: str
    removal: str | None
    correction: frozenset[int]
    hand_terms: frozenset[int]
    passes: int | None
    rerank: frozenset[int] = frozenset()


def read_manifest(directory: Path = DATA_DIR) -> dict[str, Any]:
    """The manifest of a data directory, as stored."""
    path = directory / MANIFEST
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing; the builds of solver.training write it beside their files")
    with path.open(encoding="utf-8") as handle:
        manifest: dict[str, Any] = json.load(handle)
    return manifest


def plays_of(manifest: dict[str, Any]) -> dict[tuple[str, str], Play]:
    """The manifest's ``play`` entries by (preset, field)."""
    return {
        (entry["preset"], entry["field"]): Play(
            entry["tables"],
            entry["removal"],
            frozenset(entry["correction"]),
            frozenset(entry["hand_terms"]),
            entry["passes"],
            frozenset(entry.get("rerank", ())),
        )
        for entry in manifest["play"]
    }


@cache
def shipped_plays() -> dict[tuple[str, str], Play]:
    """What fast mode plays for every preset and field, from the shipped manifest."""
    return plays_of(read_manifest(DATA_DIR))


def play(preset: str, field: str = DEFAULT_FIELD) -> Play:
    """What fast mode plays for one preset and field (from the shipped manifest)."""
    plays = shipped_plays()
    if (preset, field) not in plays:
        raise LookupError(f"{DATA_DIR / MANIFEST} has no play entry for preset {preset!r} and field {field!r}")
    return plays[(preset, field)]


def table_path(preset: str, field: str = DEFAULT_FIELD) -> Path:
    """The shipped field file of one preset and field."""
    return DATA_DIR / play(preset, field).tables


@cache
def load_field(preset: str, players: int, field: str = DEFAULT_FIELD) -> Field:
    """The shipped field of one preset, table size and field name."""
    return read_field(table_path(preset, field), players)


def get_field(rules: Rules, players: int, field: str = DEFAULT_FIELD) -> Field:
    """Row-class distribution of the named field for these rules and table size."""
    return load_field(table_preset(rules), players, check_field(field))


@lru_cache(maxsize=64)
def get_model(rules: Rules, players: int, field: str = DEFAULT_FIELD, rerank: bool = True) -> _core.Model:
    """The compiled model for these rules, table size and field, card-removal correction,
    hand terms and re-ranking included where the field plays them (loaded once, then
    cached); with ``rerank=False`` the same model without its re-ranking."""
    return make_model(get_field(rules, players, field), rules, players, get_removal(rules, players, field),
                      hand_weights=get_hand_weights(rules, players, field),
                      rerank=get_rerank(rules, players, field) if rerank else None)  # fmt: skip


#: A row's tag: its key >> 20, the category and top rank (what chi values and the
#: card-removal corrections are per); a key's category is key >> 25.
TAG_SHIFT = 20
CATEGORY_SHIFT = 25
N_CATEGORIES = 9
N_TAGS = 512


@cache
def load_removal(preset: str, players: int, field: str = DEFAULT_FIELD) -> FloatArray | None:
    """The shipped card-removal correction (3, N_TAGS) of one preset, table size and
    field; None where the manifest says that table size plays without one."""
    entry = play(preset, field)
    if entry.removal is None or players not in entry.correction:
        return None
    return read_removal(DATA_DIR / entry.removal, players)


@cache
def load_hand_weights(preset: str, players: int, field: str = DEFAULT_FIELD) -> FloatArray | None:
    """The shipped hand-term weights (HAND_FEATURES, HAND_TERMS) of one preset, table size
    and field; None where the manifest says fast mode plays without them."""
    entry = play(preset, field)
    if entry.removal is None or players not in entry.hand_terms:
        return None
    return read_hand_weights(DATA_DIR / entry.removal, players)


def read_hand_weights(path: Path, players: int) -> FloatArray | None:
    """The hand-term weights in a card-removal file, None when it has none."""
    if not path.exists():
        return None
    with np.load(path) as data:
        name = f"hand_{players}"
        return np.asarray(data[name], dtype=np.float64) if name in data else None


@dataclass(frozen=True)
class Rerank:
    """How fast mode re-ranks its best sets at one table size: the weights of the features
    (RERANK_FEATURES,), and the margin, how far below the objective's best a set it picks
    can lie (the furthest among its build's training hands)."""

    weights: FloatArray
    margin: float


@cache
def load_rerank(preset: str, players: int, field: str = DEFAULT_FIELD) -> Rerank | None:
    """The shipped re-ranking of one preset, table size and field; None where the
    manifest says fast mode plays its objective's best set."""
    entry = play(preset, field)
    if entry.removal is None or players not in entry.rerank:
        return None
    return read_rerank(DATA_DIR / entry.removal, players)


def read_rerank(path: Path, players: int) -> Rerank | None:
    """The re-ranking in a card-removal file (``rerank_<players>`` and
    ``rerank_margin_<players>``), None when it has none."""
    if not path.exists():
        return None
    with np.load(path) as data:
        name = f"rerank_{players}"
        if name not in data:
            return None
        return Rerank(np.asarray(data[name], dtype=np.float64), float(data[f"rerank_margin_{players}"]))


def get_rerank(rules: Rules, players: int, field: str = DEFAULT_FIELD) -> Rerank | None:
    """The re-ranking of the named field for these rules and table size (None where that
    field plays without it)."""
    return load_rerank(table_preset(rules), players, check_field(field))


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
#: The re-ranking's features of a set (see ``_rerank_features`` in the core) and how many
#: of the objective's best sets it re-ranks.
RERANK_FEATURES = _core.RERANK_FEATURES
RERANKED = _core.RERANKED


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
        raise FileNotFoundError(
            f"card-removal table {path} is missing; build it with `python -m solver.training.removal build`"
        )
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


def read_model(
    directory: Path, rules: Rules, players: int, field: str = DEFAULT_FIELD, rerank: bool = True
) -> _core.Model:
    """The model built from the tables in ``directory`` (same file names as DATA_DIR), with
    the card-removal corrections, hand terms and re-ranking weights found there, if any
    (the benchmarks' "alt" solver); with ``rerank=False`` without the re-ranking (the
    model the re-ranking build learns on)."""
    preset = table_preset(rules)
    removal = directory / removal_name(preset, field)
    return make_model(
        read_field(directory / table_name(preset, field), players),
        rules,
        players,
        read_removal(removal, players) if removal.exists() else None,
        hand_weights=read_hand_weights(removal, players),
        rerank=read_rerank(removal, players) if rerank else None,
    )


def read_field(path: Path, players: int) -> Field:
    """The field of one table size from a table file (``build`` writes them)."""
    if not path.exists():
        raise FileNotFoundError(f"EV table {path} is missing; build it with `python -m solver.training.tables build`")
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
    rerank: Rerank | None = None,
) -> _core.Model:
    """The compiled scoring model for ``rules`` at ``players`` against ``field``, with the
    card-removal correction ``removal`` (3, N_TAGS), hand-term weights ``hand_weights``
    (HAND_FEATURES, HAND_TERMS) and the re-ranking ``rerank`` when given.  ``model_class``
    is another build's ``Model`` when a benchmark times two builds side by side (an older
    build's takes neither weights nor re-ranking)."""
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
        *(() if hand_weights is None and rerank is None else (hand_weights,)),
        *(() if rerank is None else (rerank.weights, rerank.margin)),
    )
