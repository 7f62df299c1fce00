"""The least regret a solver can have at several tables at once when it is not told which (issue 42).

A solver that is not told who sits at the table sets each hand the same way whichever table
it is at.  Against table k its regret (as ``solver_regret.py`` measures it: the oracle's best
mean minus the answer's mean, on the same seeded hands and deals) is R_k = mean over hands
of r_k(hand, set).  For any weights w on the tables (w_k >= 0, summing to 1),

    max_k R_k  >=  sum_k w_k R_k  >=  mean over hands of  min over sets of  sum_k w_k r_k(hand, set)  =  L(w)

so L(w) is a floor under the worst of its regrets, whatever the solver.  The minimum runs
over the hand's Pareto front (the candidates of ``solver_regret.py``): any other set is
beaten by a set of the front on every deal, or fouls, so it cannot do better.  The floor is
exact for the benchmark's own hands and deals (the same seeds as ``solver_regret.py``), not
an estimate, and it is reported at the weights (a grid of tenths) that make it highest.

Beside the floor, the regrets of fast mode at each field against each table, from the same
deals, so the floor can be read against the matrix of docs/benchmarks.md.

    python -m benchmarks.blind_floor --presets vietnamese --players 4 --hands 100 --deals 1000 --jobs 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations, product

import numpy as np

from benchmarks.solver_regret import (
    Setup,
    answer,
    candidate_chi,
    candidate_seats,
    deal_hand,
    progress,
    summary,
)
from solver.rules import PRESETS

#: The tables the floor is taken over: a name, then how ``solver_regret.py`` seats them
#: (``--opponents``, ``--opp-field``) and on which of its deal streams.
TABLES: dict[str, tuple[str, str, int]] = {
    "strongest back first": ("sbf", "strong", 1),
    "strong solvers": ("fast", "strong", 1),
    "population solvers": ("fast", "population", 1),
    "the population field": ("field", "population", 1),
    "the mixture": ("mix", "population", 1),
}
#: The control: strong solvers again on other deals (stream 2).  A "pair" of one table
#: has a true floor of 0, so its measured floor is the oracle's noise (the other pairs
#: share their deals, so they carry less of it).
CONTROL = ("strong solvers, other deals", ("fast", "strong", 2))
#: The fields whose fast mode is measured beside the floor.
FIELDS_SHOWN = ("population", "strong", "beginners")


def regrets_of(chi: np.ndarray) -> np.ndarray:
    """(C,) regret of each candidate on a hand from its (C, M) chi: the best mean minus its mean."""
    means = chi.mean(axis=1)
    regrets: np.ndarray = means.max() - means
    return regrets


def weight_grid(tables: int, steps: int = 10) -> np.ndarray:
    """(W, tables) every weighting of the tables in multiples of 1 / ``steps``."""
    rows = [w for w in product(range(steps + 1), repeat=tables) if sum(w) == steps]
    return np.asarray(rows, dtype=np.float64) / steps


def floor(regrets: Sequence[np.ndarray], weights: np.ndarray) -> np.ndarray:
    """(W,) L(w) for each row of ``weights``: ``regrets`` holds one (tables, C) array a
    hand, the regret of each of its candidates at each table."""
    total = np.zeros(len(weights))
    for r in regrets:
        total += (weights @ r).min(axis=1)
    return total / len(regrets)


def score_hand(args: tuple[Setup, int]) -> tuple[np.ndarray, np.ndarray]:
    """For one hand: (tables, C) candidates' regrets, and (tables, fields) fast mode's regrets."""
    setup, hand = args
    rules = PRESETS[setup.preset]
    codes = deal_hand(setup.seed, hand)
    answers = [answer("fast", codes, replace(setup, field=f), rules, hand) for f in FIELDS_SHOWN]
    me, on_front = candidate_seats(codes, np.asarray(answers, dtype=np.int32), rules)
    table_regrets = []
    for opponents, opp_field, stream in [*TABLES.values(), CONTROL[1]]:
        seated = replace(setup, opponents=opponents, opp_field=opp_field, floor_deals=setup.deals)
        chi = candidate_chi(me, codes, seated, rules, hand, stream)
        table_regrets.append(regrets_of(chi))
    r = np.stack(table_regrets)
    return r, r[:, on_front : on_front + len(FIELDS_SHOWN)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100, help="seeded hands (default 100)")
    parser.add_argument("--deals", type=int, default=1000, help="opponent deals per hand and table (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", nargs="*", default=["vietnamese"], choices=sorted(PRESETS))
    parser.add_argument("--players", nargs="*", type=int, default=[4], choices=[2, 3, 4])
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(), help="processes (default all cores)")
    args = parser.parse_args(argv)
    names = [*TABLES, CONTROL[0]]
    pairs = list(combinations(range(len(TABLES)), 2))
    control = (names.index("strong solvers"), len(TABLES))
    solvers = tuple(range(1, len(TABLES)))  # every table but strongest back first
    shown_sets = [*pairs, control, solvers, tuple(range(len(TABLES)))]
    pool = multiprocessing.get_context("fork").Pool(args.jobs) if args.jobs > 1 else None
    print(f"{args.hands} hands x {args.deals} deals a table, seed {args.seed}")
    for preset in args.presets:
        for players in args.players:
            setup = Setup(preset, players, args.deals, args.seed, ("fast",), "fast", "strong", "population", None)
            tasks = [(setup, h) for h in range(args.hands)]
            start = time.perf_counter()
            regrets, shown = [], []
            parts = pool.imap(score_hand, tasks) if pool is not None else map(score_hand, tasks)
            for done, (r, s) in enumerate(parts, 1):
                regrets.append(r)
                shown.append(s)
                progress(done, args.hands, start, f"{preset} {players}p")
            print(file=sys.stderr)
            print(f"\n{preset}, {players} players: fast mode's regret at each table (chi a deal, 95 % interval)\n")
            print("| table | " + " | ".join(f"fast, field {f}" for f in FIELDS_SHOWN) + " |")
            print("|---|" + "---|" * len(FIELDS_SHOWN))
            for k, name in enumerate(names[: len(TABLES)]):
                cells = [summary([float(s[k, f]) for s in shown]) for f in range(len(FIELDS_SHOWN))]
                print(f"| {name} | " + " | ".join(f"{m:.4f} ± {ci:.4f}" for m, ci in cells) + " |")
            print("\nThe floor under the worst regret of any solver not told the table, over sets of the tables:\n")
            print("| tables | floor | at the weights |\n|---|---|---|")
            for subset in shown_sets:
                grid = weight_grid(len(subset))
                values = floor([r[list(subset)] for r in regrets], grid)
                best = int(np.argmax(values))
                weights = ", ".join(f"{grid[best, i]:.1f}" for i in range(len(subset)))
                print(f"| {' + '.join(names[i] for i in subset)} | {values[best]:.4f} | {weights} |", flush=True)
    if pool is not None:
        pool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
