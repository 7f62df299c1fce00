"""Macao benchmarks: engine speed and bot strength (issue 5 targets).

    PYTHONPATH=. python benchmarks/macao_bench.py            # full run
    PYTHONPATH=. python benchmarks/macao_bench.py --quick    # smaller, for a smoke check

(a) Engine speed: Random-vs-Random rounds per second on one core (2 players, default
    rules), timed with the process CPU clock and also by wall clock.  Target >= 200.
(b) Strength: Normal vs Random and Normal vs Easy heads-up over seeded games with the
    seats rotated; target: Normal's win-rate 95 % lower bound above 60 % vs Random.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import statistics
import sys
import time

from macao import Rules
from macao.bots import RandomBot
from macao.simulate import play_round, simulate


def engine_speed(games: int, seed: int, repeats: int) -> list[tuple[str, float]]:
    """Random-vs-random games per second: the median over ``repeats`` batches of ``games``
    (each batch replays the same seeds, so the batches differ only in timing noise)."""
    rules = Rules()
    bots = [RandomBot(), RandomBot()]
    cpu_rates, wall_rates = [], []
    moves = 0
    for _ in range(repeats):
        moves = 0
        t_cpu, t_wall = time.process_time(), time.perf_counter()
        for g in range(games):
            moves += play_round(rules, bots, f"speed:{seed}:{g}").moves
        cpu, wall = time.process_time() - t_cpu, time.perf_counter() - t_wall
        cpu_rates.append(games / cpu)
        wall_rates.append(games / wall)
    rate = statistics.median(cpu_rates)
    return [
        ("games per batch", float(games)),
        ("batches (median kept)", float(repeats)),
        ("actions per game", moves / games),
        ("games/s (CPU time)", rate),
        ("games/s (wall clock)", statistics.median(wall_rates)),
        ("actions/s (CPU time)", rate * moves / games),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer games (smoke check)")
    parser.add_argument("--games", type=int, default=2000, help="strength games per pairing (default 2000)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    speed_games = 100 if args.quick else 500
    strength_games = 200 if args.quick else args.games
    load = f", load average {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else ""
    print(f"Python {platform.python_version()} on {platform.machine()}{load}")
    print("\n(a) Engine speed: Random vs Random, 2 players, default rules, one core")
    rows = engine_speed(speed_games, args.seed, repeats=1 if args.quick else 7)
    for name, value in rows:
        print(f"  {name:<24} {value:>12.1f}")
    ok_speed = rows[3][1] >= 200
    print(f"  target >= 200 games/s: {'met' if ok_speed else 'NOT met'}")

    ok_strength = True
    for pair in (["normal", "random"], ["normal", "easy"], ["easy", "random"]):
        t = time.perf_counter()
        result = simulate(Rules(), pair, strength_games, args.seed)
        took = time.perf_counter() - t
        print(f"\n(b) {pair[0]} vs {pair[1]}: {strength_games} seeded games, seats rotated ({took:.1f} s)")
        print(result.table())
        if pair == ["normal", "random"]:
            low = result.bots[0].win_rate.low
            ok_strength = low > 0.6
            print(f"  target: Normal's win-rate lower bound {low:.3f} > 0.600: {'met' if ok_strength else 'NOT met'}")
        if pair == ["normal", "easy"]:
            print(f"  Normal beats Easy: {'yes' if result.bots[0].win_rate.low > 0.5 else 'not significantly'}")
    return 0 if ok_speed and ok_strength else 1


if __name__ == "__main__":
    sys.exit(main())
