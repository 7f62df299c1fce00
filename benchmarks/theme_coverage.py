"""How often the theme classifier names a mistake (issue 25): coverage and the themes found.

Deals ``--hands`` seeded hands (hand ``i`` is seat 0 of ``solver.table.deal_hands(seed +
i, players)``), sets each the way the Beginner level does (strongest back first), solves
it (fast mode) and compares the two sets with :func:`trainer.themes.themes`.  Reported:

* coverage: the share of Beginner sets losing more than ``--min-loss`` chi (0.25, the
  "good" grade's bound) that get at least one theme (target: 95 % or more), and the
  share that get one besides the fallback row themes (weak-front, weak-middle,
  weak-back), which name only the row that the best set makes stronger;
* the distribution of the themes over those sets (a set may get several);
* the time of one classification (EV parts of both sets included), median and 99th
  percentile.

    python benchmarks/theme_coverage.py                  # 2000 hands, vietnamese, 4 players, population
    python benchmarks/theme_coverage.py --hands 500 --preset plain --players 2
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from solver import PRESETS, evaluate, solve, strongest_back_first
from solver.fields import DEFAULT_FIELD, FIELDS
from solver.table import deal_hands
from trainer.ev_parts import ev_parts
from trainer.themes import ROW_THEMES, THEME_IDS, themes

DEFAULT_SEED = 25_000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--preset", choices=sorted(PRESETS), default="vietnamese")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--field", choices=FIELDS, default=DEFAULT_FIELD)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--min-loss", type=float, default=0.25)
    parser.add_argument("--show-missed", type=int, default=0, help="print this many uncovered hands")
    args = parser.parse_args(argv)
    rules = PRESETS[args.preset]
    losing = covered = named = 0
    counts: Counter[str] = Counter()
    times: list[float] = []
    missed: list[str] = []
    for i in range(args.hands):
        cards = deal_hands(args.seed + i, args.players)[0]
        best = solve(cards, rules, args.players, field=args.field)
        naive = strongest_back_first(cards, rules)
        loss = best.ev - evaluate(cards, naive, rules, args.players, field=args.field).ev
        if loss <= args.min_loss:
            continue
        losing += 1
        start = time.perf_counter()
        parts = (ev_parts(cards, naive, rules, args.players, args.field),
                 ev_parts(cards, best.best, rules, args.players, args.field))  # fmt: skip
        found = themes(cards, naive, best.best, rules, args.players, args.field, parts=parts)
        times.append(time.perf_counter() - start)
        counts.update({t.id for t in found})
        if found:
            covered += 1
        if any(t.id not in ROW_THEMES for t in found):
            named += 1
        elif len(missed) < args.show_missed:
            missed.append(f"  {loss:5.2f}  {naive}   best {best.best}")
    print(f"theme coverage: {args.hands} hands, {args.preset}, {args.players} players, {args.field} field, "
          f"Beginner sets (strongest back first)")  # fmt: skip
    print(f"sets losing more than {args.min_loss} chi: {losing}")
    share = covered / losing if losing else 1.0
    print(f"with at least one theme: {covered} ({100 * share:.1f} %)")
    print(f"with a theme besides the weak-row fallback: {named} ({100 * named / max(losing, 1):.1f} %)")
    print("themes (share of those sets):")
    for theme_id in THEME_IDS:
        print(f"  {theme_id:<18} {counts[theme_id]:5d}  {100 * counts[theme_id] / max(losing, 1):5.1f} %")
    if times:
        times.sort()
        print(f"classification time: median {1000 * statistics.median(times):.2f} ms, "
              f"99th percentile {1000 * times[int(0.99 * (len(times) - 1))]:.2f} ms")  # fmt: skip
    if missed:
        print("uncovered:")
        print("\n".join(missed))


if __name__ == "__main__":
    main()
