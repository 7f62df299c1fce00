"""The Play page's computer levels against each other at a 4-seat table (issue 11).

Each table is one seeded deal of four hands.  Its lineup seats an Expert, a Club, a
Beginner and a fourth player whose level cycles over the tables (Expert, Club,
Beginner, ...).  The deal is played four times with the lineup rotated over the hands,
so every level in the lineup sets every hand: the luck of the deal largely cancels.
Each hand's set depends only on its cards, the rules, the table size and the seed, so
each level sets each hand once and the rotations only re-settle.  Settlement is
``solver.score_table`` (bonuses, sập, sập làng, fouls, specials, aces).

Reported per level: chi per hand (mean over its seats and rotations, 95 % confidence
interval over tables), and the paired differences Expert − Club and Club − Beginner
(per table, then the 95 % interval over tables).  The first compares levels sitting in
different seats, so it carries the noise of everything the two seats' opponents did
differently.  So Expert − Club is also given as a duplicate comparison: at every seat an
Expert holds, the same table is settled again with Club's set of that hand in its place,
and the Expert's chi minus Club's is averaged per table; it is exactly zero wherever the
two set the hand alike.  Also the time of an Expert decision.

Every table has its own seed (from ``--seed`` and its number), so ``--jobs`` splits the
tables over processes without changing any figure.

    python benchmarks/play_levels.py                          # 2000 tables, vietnamese, 4 seats
    python benchmarks/play_levels.py --tables 200 --preset plain
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from collections.abc import Sequence

from solver.context import Table
from solver.players import EXPERT_CANDIDATES, EXPERT_SAMPLES, LEVELS
from solver.rules import PRESETS
from solver.scoring import Arrangement, score_table
from solver.table import deal_hands

SEATS = 4
NAMES = tuple(LEVELS)  # beginner, club, expert
#: Per table: each level's mean chi per hand (and, under SWAP, the mean chi per hand an Expert
#: seat gains over Club's set in its place), then the Expert decisions' wall and CPU times (s).
TableResult = tuple[dict[str, float], list[tuple[float, float]]]
#: The key of the same-seat comparison in a table's result.
SWAP = "expert over club, same seat"


def lineup(table: int) -> tuple[str, ...]:
    return ("expert", "club", "beginner", ("expert", "club", "beginner")[table % 3])


def play_table(table: int, seed: int, preset: str) -> TableResult:
    rules = PRESETS[preset]
    hands = deal_hands(seed * 1_000_000 + table, SEATS)
    order = lineup(table)
    levels = set(order)
    # Each level sees who else sits at the table (the lineup without itself: the same
    # three opponents in every rotation), as the Play page's computer players do.
    tables = {level: Table(rules, SEATS).seen_from(order, order.index(level)) for level in levels}
    sets: dict[tuple[str, int], Arrangement] = {}
    expert_times = []
    for level in sorted(levels):
        for seat, hand in enumerate(hands):
            start, cpu = time.perf_counter(), time.process_time()
            sets[level, seat] = LEVELS[level].arrange(hand, seed=(seed * 1_000_000 + table) * 10 + seat,
                                                      table=tables[level])  # fmt: skip
            if level == "expert":
                expert_times.append((time.perf_counter() - start, time.process_time() - cpu))
    chi: dict[str, list[int]] = {level: [] for level in levels}
    swaps: list[int] = []
    for rotation in range(SEATS):
        seat_levels = [order[(seat + rotation) % SEATS] for seat in range(SEATS)]
        seated = [sets[level, seat] for seat, level in enumerate(seat_levels)]
        totals = score_table(seated, rules).totals
        assert sum(totals) == 0
        for level, total in zip(seat_levels, totals):
            chi[level].append(total)
        for seat, level in enumerate(seat_levels):
            if level == "expert":  # the same table with Club's set of this hand in the Expert's place
                club = sets["club", seat]  # every lineup seats a Club, so it set every hand
                swapped = score_table([club if s == seat else a for s, a in enumerate(seated)], rules).totals
                swaps.append(totals[seat] - swapped[seat])
    means = {level: sum(v) / len(v) for level, v in chi.items()}
    means[SWAP] = sum(swaps) / len(swaps)
    return means, expert_times


def _play(args: tuple[int, int, str]) -> TableResult:
    return play_table(*args)


def interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=2000, help="seeded deals (default 2000)")
    parser.add_argument("--preset", default="vietnamese", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (figures do not change)")
    args = parser.parse_args(argv)
    work = [(t, args.seed, args.preset) for t in range(args.tables)]
    start = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = pool.map(_play, work, chunksize=20)
    else:
        results = [_play(w) for w in work]
    elapsed = time.perf_counter() - start
    print(f"## Play levels: {args.tables} tables, {SEATS} seats, preset {args.preset!r}, seed {args.seed}")
    print(f"Expert: deep mode, {EXPERT_CANDIDATES} candidates x {EXPERT_SAMPLES} sampled tables per decision\n")
    print("| level | chi per hand | 95 % CI | tables |")
    print("|---|---:|---:|---:|")
    for level in reversed(NAMES):
        values = [r[0][level] for r in results if level in r[0]]
        mean, half = interval(values)
        print(f"| {LEVELS[level].name} | {mean:+.3f} | ±{half:.3f} | {len(values)} |")
    print("\n| paired difference | chi per hand | 95 % CI |")
    print("|---|---:|---:|")
    for a, b in (("expert", "club"), ("club", "beginner"), ("expert", "beginner")):
        diffs = [r[0][a] - r[0][b] for r in results]
        mean, half = interval(diffs)
        print(f"| {LEVELS[a].name} − {LEVELS[b].name} | {mean:+.3f} | ±{half:.3f} |")
    mean, half = interval([r[0][SWAP] for r in results])
    print(f"| Expert − Club, same seat and table (duplicate) | {mean:+.3f} | ±{half:.3f} |")
    for what, index in (("wall-clock", 0), ("CPU", 1)):
        times = sorted(t[index] for r in results for t in r[1])
        print(
            f"{'' if index else chr(10)}Expert decision at {SEATS} seats, {what}: median "
            f"{times[len(times) // 2] * 1000:.0f} ms, 95th percentile {times[int(len(times) * 0.95)] * 1000:.0f} ms, "
            f"max {times[-1] * 1000:.0f} ms ({len(times)} decisions)"
        )
    print(f"wall time {elapsed:.0f} s with {args.jobs} job(s)")


if __name__ == "__main__":
    main()
