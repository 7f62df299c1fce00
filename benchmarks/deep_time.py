"""Deep mode's time per decision (issues 28 and 42): its rounds of further deals, on one thread or several.

Deep mode draws further deals when the top of its ranking is contested
(:data:`solver.deep.EXTRA_ROUNDS`); this times :func:`solver.deep.refine` per hand with
its rounds on one thread and on ``--threads`` (default
:data:`solver.threads.DECISION_THREADS`, what deep mode does), and with the rounds before
issue 42 (:data:`BEFORE`) on one thread, the three rotated on every hand so that all see
the same machine: wall time, and CPU time of every thread.  Also how many rounds each hand
drew, whether the thread counts chose the same sets (they must), and how often the two
rules choose a different set.

    python benchmarks/deep_time.py                      # vietnamese, 4 players, strong field, 100 hands
    python benchmarks/deep_time.py --field population --players 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's solver

from solver import deep
from solver import threads as solver_threads
from solver.cards import Card
from solver.context import Table
from solver.fields import FIELDS
from solver.rules import PRESETS

#: Deep mode's further deals from issue 28 to issue 42: a second round of 500 while still close.
BEFORE = (500, 500)


def rounds_drawn(hand: list[Card], table: Table, seed: int) -> int:
    """How many rounds of further deals deep mode draws for ``hand``: its calls to
    :func:`solver.deep.settle_sums` after the first."""
    calls = 0
    settle = deep.settle_sums

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return settle(*args, **kwargs)

    deep.settle_sums = counted  # type: ignore[assignment]
    try:
        deep.refine(hand, table, 1, seed)
    finally:
        deep.settle_sums = settle
    return calls - 1


def summary(times: Sequence[float]) -> str:
    ordered = sorted(times)
    ms = [t * 1000 for t in ordered]
    return (f"median {statistics.median(ms):.0f} ms, mean {statistics.mean(ms):.0f}, "
            f"p90 {ms[int(len(ms) * 0.9)]:.0f}, max {ms[-1]:.0f}")  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--rules", default="vietnamese", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--field", default="strong", choices=FIELDS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=solver_threads.DECISION_THREADS,
                        help="threads of the threaded rows (default: deep mode's own)")
    args = parser.parse_args(argv)
    table = Table(args.rules, args.players, args.field)
    rng = random.Random(args.seed)
    hands = [[Card(c) for c in rng.sample(range(52), 13)] for _ in range(args.hands)]
    variants: dict[str, tuple[Sequence[int], int]] = {
        f"rounds {deep.EXTRA_ROUNDS}, 1 thread": (deep.EXTRA_ROUNDS, 1),
        f"rounds {deep.EXTRA_ROUNDS}, {args.threads} threads": (deep.EXTRA_ROUNDS, args.threads),
        f"rounds {BEFORE} (before issue 42), 1 thread": (BEFORE, 1),
    }
    for hand in hands[:3]:  # warm up: the model loaded, the caches filled
        for extra, threads in variants.values():
            decide(hand, table, 0, extra, threads)
    wall: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    chosen: dict[str, list[object]] = {name: [] for name in variants}
    for i, hand in enumerate(hands):
        order = list(variants.items())
        for name, (extra, threads) in order[i % len(order):] + order[: i % len(order)]:
            start, start_cpu = time.perf_counter(), time.process_time()
            ranked = decide(hand, table, i, extra, threads)
            wall[name].append(time.perf_counter() - start)
            cpu[name].append(time.process_time() - start_cpu)
            chosen[name].append(ranked[0][0])
    rounds = Counter(rounds_drawn(hand, table, i) for i, hand in enumerate(hands))
    print(f"## Deep mode, {args.rules}, {args.players} players, field {args.field!r}: {args.hands} seeded hands, "
          "time per decision\n")  # fmt: skip
    print("| further deals, threads | wall time | CPU time (all threads) |")
    print("|---|---|---|")
    for name in variants:
        print(f"| {name} | {summary(wall[name])} | {summary(cpu[name])} |")
    names = list(variants)
    same_threads = all(a == b for a, b in zip(chosen[names[0]], chosen[names[1]], strict=True))
    differ = sum(a != b for a, b in zip(chosen[names[0]], chosen[names[2]], strict=True))
    print(
        f"\nrounds drawn: {', '.join(f'{k}: {rounds[k]} hands' for k in sorted(rounds))}; "
        f"1 and {args.threads} threads chose {'the same set on every hand' if same_threads else 'DIFFERENT sets'}; "
        f"{deep.EXTRA_ROUNDS} and {BEFORE} chose a different set on {differ} of {args.hands} hands"
    )


def decide(hand: list[Card], table: Table, seed: int, extra: Sequence[int], threads: int) -> Any:
    """Deep mode's ranking of ``hand`` with ``extra`` further deals, its sampled opponents
    set on ``threads`` threads."""
    kept = solver_threads.DECISION_THREADS
    solver_threads.DECISION_THREADS = threads
    try:
        return deep.refine(hand, table, 1, seed, extra=extra)
    finally:
        solver_threads.DECISION_THREADS = kept


if __name__ == "__main__":
    main()
