"""Calibration of the fast objective's sweep chances against the field as it really plays.

The fast objective (:mod:`solver.tables`, ``_ev`` in :mod:`solver._core`) reads each row's
chance of winning from the field's row-class tables and models sweeping one opponent
(winning all three rows) as ``(p_f p_m p_b) ** GAMMA_WIN``, being swept as
``(q_f q_m q_b) ** GAMMA_LOSE`` and sweeping every opponent (sập làng) as the first to
the power of the number of opponents.  The tables know nothing of card removal (my 13
cards are not in the opponents' hands) and the exponents were fitted against one field;
on real deals the modelled chances run high.  Measured against the "strong" field at
4 players ("vietnamese"), the fast solver's candidate sets sweep an opponent 0.81 times
as often as modelled, are swept 0.74 times as often, and sweep the whole table 0.77
times; the overestimate made fast mode prefer sets strong in every row (a front pair
over trips over a full house) to sets that give up the front, by up to a chi a hand.

This module measures three ratios for every preset, table size and field and stores
them in the table file (``calibration_<players>`` = win, lose, all), and the core
multiplies its modelled chances by them:

* ``win``  = Σ sampled P(I sweep one opponent) / Σ modelled,
* ``lose`` = Σ sampled P(one opponent sweeps me) / Σ modelled,
* ``all``  = Σ sampled P(I sweep every opponent) / Σ (win × modelled) ** opponents.

The sums run over the fast solver's best :data:`CANDIDATES` sets (uncalibrated model)
of :data:`HANDS` seeded hands, each against :data:`DEALS` deals of the unseen cards set
the way the field sets them (:func:`solver.deep.set_opponents`); a sweep needs a plain,
valid opponent (no special, no foul), as settlement does.  The seeds are disjoint from
the regret benchmark's test hands.  Recalibrate after building tables::

    python -m solver.tables build && python -m solver.calibrate

(``--hands``, ``--deals``, ``--presets``, ``--fields``, ``--jobs``; seconds per field on
a 2-core machine).
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import multiprocessing.pool
import sys
import time
from itertools import pairwise
from pathlib import Path

import numpy as np

from . import _core
from .cards import Card
from .deep import deal_opponents, set_opponents
from .fields import FIELDS
from .rules import PRESETS, SPECIAL_NAMES, Rules
from .tables import DATA_DIR, TABLE_SIZES, Field, class_values, make_model, read_field, row_table, table_name

HANDS = 1000
DEALS = 200
CANDIDATES = 8
SEED = 20261201
#: Columns of :func:`solver.tables.row_table`: the sweep factors p ** GAMMA_WIN, q ** GAMMA_LOSE.
PG, QG = 7, 8


@dataclasses.dataclass
class Sums:
    """Sampled and modelled chances, summed over candidate sets."""

    win_sampled: float = 0.0
    win_model: float = 0.0
    lose_sampled: float = 0.0
    lose_model: float = 0.0
    all_sampled: float = 0.0
    all_win_model: list[float] = dataclasses.field(default_factory=list)

    def add(self, other: Sums) -> None:
        self.win_sampled += other.win_sampled
        self.win_model += other.win_model
        self.lose_sampled += other.lose_sampled
        self.lose_model += other.lose_model
        self.all_sampled += other.all_sampled
        self.all_win_model += other.all_win_model

    def ratios(self, opponents: int) -> tuple[float, float, float]:
        """(win, lose, all); 1 where nothing was modelled."""
        win = self.win_sampled / self.win_model if self.win_model > 0 else 1.0
        lose = self.lose_sampled / self.lose_model if self.lose_model > 0 else 1.0
        all_model = sum((win * w) ** opponents for w in self.all_win_model)
        every = self.all_sampled / all_model if all_model > 0 and opponents > 1 else 1.0
        return win, lose, every


def row_keys(arrangements: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Row classes (n, 3) and strength keys (n, 3) of (n, 13) arrangements."""
    classes = _core.row_classes(np.ascontiguousarray(arrangements, dtype=np.int32))
    k3, k5 = _core.class_keys(rules.wheel == "second")
    keys = np.stack([k3[classes[:, 0]], k5[classes[:, 1]], k5[classes[:, 2]]], axis=1)
    return classes, keys


def measure_hand(preset: str, players: int, field_name: str, field: Field, hand: int, deals: int) -> Sums:
    """Sampled and modelled sweep chances of one seeded hand's candidate sets."""
    rules = PRESETS[preset]
    codes = sorted(int(c) for c in np.random.default_rng([SEED, hand]).permutation(52)[:13])
    values = [rules.special_value(name) if rules.specials else 0 for name in SPECIAL_NAMES]
    out = Sums()
    if rules.specials and _core.special_index(codes, values, rules.six_pairs_rule == "strict", rules.ace_low_runs) >= 0:
        return out  # a special hand is not set by the objective
    plain = dataclasses.replace(field, calibration=(1.0, 1.0, 1.0))
    top = _core.solve_hand(make_model(plain, rules, players), codes, CANDIDATES)
    if not top:
        return out
    mine = np.asarray([[*f, *m, *b] for f, m, b, _ in top], dtype=np.int32)
    classes, keys = row_keys(mine, rules)
    k3, k5 = _core.class_keys(rules.wheel == "second")
    v3, vm, vb = class_values(rules)
    tables = [row_table(dist, k, v) for dist, k, v in zip(field.rows(), (k3, k5, k5), (v3, vm, vb))]
    pg = np.prod([tables[r][classes[:, r], PG] for r in range(3)], axis=0)
    qg = np.prod([tables[r][classes[:, r], QG] for r in range(3)], axis=0)

    nopp = players - 1
    hands, rng = deal_opponents([Card(c) for c in codes], players, deals, seed=SEED * 10_000 + hand)
    flat = np.ascontiguousarray(hands.reshape(deals * nopp, 13))
    arranged = set_opponents(flat, rules, players, field_name, rng)
    _, opp_keys = row_keys(arranged, rules)
    special = _core.special_indexes(flat, values, rules.six_pairs_rule == "strict", rules.ace_low_runs) >= 0
    valid = (
        (opp_keys[:, 2] > opp_keys[:, 1]) & (opp_keys[:, 1] > opp_keys[:, 0])
        if rules.strict
        else ((opp_keys[:, 2] >= opp_keys[:, 1]) & (opp_keys[:, 1] >= opp_keys[:, 0]))
    )
    plain_opponent = (valid & ~(special & rules.specials)).reshape(deals, nopp)
    opp = opp_keys.reshape(deals, nopp, 3)
    win = np.all(keys[:, None, None, :] > opp[None], axis=-1) & plain_opponent[None]
    lose = np.all(keys[:, None, None, :] < opp[None], axis=-1) & plain_opponent[None]
    out.win_sampled = float(win.mean(axis=(1, 2)).sum())
    out.win_model = float(pg.sum())
    out.lose_sampled = float(lose.mean(axis=(1, 2)).sum())
    out.lose_model = float(qg.sum())
    out.all_sampled = float(win.all(axis=2).mean(axis=1).sum())
    out.all_win_model = [float(x) for x in pg]
    return out


def _measure(args: tuple[str, int, str, Path, int, int, int]) -> Sums:
    preset, players, field_name, path, first, last, deals = args
    field = read_field(path, players)
    total = Sums()
    for hand in range(first, last):
        total.add(measure_hand(preset, players, field_name, field, hand, deals))
    return total


def calibrate_file(
    preset: str,
    field_name: str,
    directory: Path,
    hands: int,
    deals: int,
    pool: multiprocessing.pool.Pool | None,
    chunks: int,
) -> dict[int, tuple[float, float, float]]:
    """Measure the ratios of one table file at every table size and write them into it."""
    path = directory / table_name(preset, field_name)
    found: dict[int, tuple[float, float, float]] = {}
    for players in TABLE_SIZES:
        bounds = np.linspace(0, hands, chunks + 1).astype(int)
        jobs = [(preset, players, field_name, path, int(a), int(b), deals) for a, b in pairwise(bounds)]
        parts = pool.map(_measure, jobs) if pool is not None else [_measure(j) for j in jobs]
        total = Sums()
        for part in parts:
            total.add(part)
        found[players] = total.ratios(players - 1)
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files}
    for players, ratios in found.items():
        arrays[f"calibration_{players}"] = np.asarray(ratios, dtype=np.float64)
    arrays["calibration_hands"] = np.int64(hands)
    arrays["calibration_deals"] = np.int64(deals)
    np.savez_compressed(path, **arrays)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.calibrate", description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=HANDS, help=f"seeded hands per table (default {HANDS})")
    parser.add_argument("--deals", type=int, default=DEALS, help=f"opponent deals per hand (default {DEALS})")
    parser.add_argument("--presets", nargs="*", default=sorted(PRESETS), choices=sorted(PRESETS))
    parser.add_argument("--fields", nargs="*", default=list(FIELDS), choices=FIELDS)
    parser.add_argument("--dir", type=Path, default=DATA_DIR, help="table directory (default: the shipped tables)")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args(argv)
    if args.hands < 1 or args.deals < 1:
        parser.error("--hands and --deals must be at least 1")
    start = time.perf_counter()
    jobs = max(1, args.jobs)
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for field_name in args.fields:
            for preset in args.presets:
                found = calibrate_file(preset, field_name, args.dir, args.hands, args.deals, pool, jobs * 4)
                for players, (win, lose, every) in found.items():
                    print(
                        f"{preset:>10} {field_name:>10} {players}p  win {win:.3f}  lose {lose:.3f}  all {every:.3f}"
                        f"  {time.perf_counter() - start:6.1f}s",
                        file=sys.stderr,
                        flush=True,
                    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
