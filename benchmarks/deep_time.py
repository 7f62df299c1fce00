"""Deep mode's time per decision (issue 28), with its further deals drawn in rounds and in one go.

Deep mode draws further deals when the top of its ranking is contested
(:data:`solver.deep.EXTRA_ROUNDS`); this times :func:`solver.deep.refine` per hand on
one core (CPU time) with those rounds and with the same number of deals drawn at once
(``extra=(EXTRA_SAMPLES,)``, the rule before the rounds), alternating the two on every
hand so that both see the same machine.  Also how many rounds each hand drew, and how
often the two choose a different set.

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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's solver

from solver import deep
from solver.cards import Card
from solver.context import Table
from solver.fields import FIELDS
from solver.rules import PRESETS


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
    args = parser.parse_args(argv)
    table = Table(args.rules, args.players, args.field)
    rng = random.Random(args.seed)
    hands = [[Card(c) for c in rng.sample(range(52), 13)] for _ in range(args.hands)]
    rules: dict[str, Callable[[list[Card], int], object]] = {
        f"rounds {deep.EXTRA_ROUNDS}": lambda hand, seed: deep.refine(hand, table, 1, seed),
        f"at once ({deep.EXTRA_SAMPLES},)": lambda hand, seed: deep.refine(hand, table, 1, seed,
                                                                          extra=(deep.EXTRA_SAMPLES,)),
    }  # fmt: skip
    for hand in hands[:3]:  # warm up: the model loaded, the caches filled
        for decide in rules.values():
            decide(hand, 0)
    times: dict[str, list[float]] = {name: [] for name in rules}
    chosen: dict[str, list[object]] = {name: [] for name in rules}
    for i, hand in enumerate(hands):
        for name, decide in rules.items() if i % 2 == 0 else reversed(rules.items()):
            start = time.process_time()
            ranked = decide(hand, i)
            times[name].append(time.process_time() - start)
            chosen[name].append(ranked[0][0])  # type: ignore[index]
    rounds = Counter(rounds_drawn(hand, table, i) for i, hand in enumerate(hands))
    print(f"## Deep mode, {args.rules}, {args.players} players, field {args.field!r}: {args.hands} seeded hands, "
          "CPU time of one process per decision\n")  # fmt: skip
    print("| further deals | time per decision |")
    print("|---|---|")
    for name, spent in times.items():
        print(f"| {name} | {summary(spent)} |")
    names = list(rules)
    differ = sum(a != b for a, b in zip(chosen[names[0]], chosen[names[1]]))
    print(
        f"\nrounds drawn: {', '.join(f'{k}: {rounds[k]} hands' for k in sorted(rounds))}; "
        f"the two chose a different set on {differ} of {args.hands} hands"
    )


if __name__ == "__main__":
    main()
