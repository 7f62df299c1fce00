"""Speed of the solver (issues 3 and 13), printed as one table.

* fast mode, one core, batch: the compiled batch solver over N random hands
  (hands/s, and the median and 90th percentile of the per-hand times it records inside
  its C loop: the core's time per hand), and the median of per-hand timings through
  ``_core.solve_hand`` (Python call included);
* the public ``solve_many`` on one core (``workers=1``) over a 20,000-hand batch, given
  an (n, 13) code array and given card text;
* the public ``solve()`` (Python objects in and out) median per call, and its ratio to
  the core's median per hand over the same hands;
* the CLI on a 100,000-hand file, start-up included (``python -m solver < file``);
* deep mode ms per hand at its default sample size;
* the pure-Python reference on a few hands, side by side, and the ratio.

Timings are wall-clock medians; on a shared machine run it when it is quiet.  The
solver measured is the one of this checkout (the CLI runs with it on PYTHONPATH).

    python benchmarks/solver_speed.py [--hands 5000] [--players 4] [--rules vietnamese]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # measure this checkout's solver, not an installed one

from solver import _core, _reference, solve_many  # noqa: E402
from solver.cards import Card  # noqa: E402
from solver.cli import format_row  # noqa: E402
from solver.rules import PRESETS  # noqa: E402
from solver.strategy import solve  # noqa: E402
from solver.tables import get_model  # noqa: E402

T = TypeVar("T")


def random_hands(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), 13) for _ in range(n)]


def timings(call: Callable[[T], object], items: Sequence[T]) -> list[float]:
    """Wall-clock seconds of ``call(item)`` for each item (conversions done beforehand)."""
    out = []
    for item in items:
        t = time.perf_counter()
        call(item)
        out.append(time.perf_counter() - t)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="vietnamese", choices=sorted(PRESETS))
    parser.add_argument("--deep-hands", type=int, default=20)
    parser.add_argument("--reference-hands", type=int, default=5)
    parser.add_argument("--batch-hands", type=int, default=20000)
    parser.add_argument("--cli-hands", type=int, default=100000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    rules = PRESETS[args.rules]
    model = get_model(rules, args.players)
    hands = random_hands(args.hands, args.seed)
    rows: list[tuple[str, str]] = []

    batch = np.asarray(hands, dtype=np.int32)
    _core.solve_batch(model, batch[:100])
    runs, cpu = [], []
    for _ in range(5):
        t, c = time.perf_counter(), time.process_time()
        _core.solve_batch(model, batch)
        runs.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    batch_us = statistics.median(runs) / len(hands) * 1e6
    cpu_us = statistics.median(cpu) / len(hands) * 1e6
    rows.append(("fast, batch (_core.solve_batch), mean per hand", f"{batch_us:.1f} µs ({cpu_us:.1f} µs CPU)"))
    rows.append(("fast, batch, hands/s on one core", f"{1e6 / batch_us:,.0f}"))
    seconds = np.empty(len(hands))
    _core.solve_batch(model, batch, seconds)
    core_median = float(np.median(seconds)) * 1e6
    rows.append(("fast, batch, median per hand (timed in the C loop)", f"{core_median:.1f} µs"))
    rows.append(("fast, batch, 90th percentile per hand (C loop)", f"{np.percentile(seconds, 90) * 1e6:.1f} µs"))

    many = np.asarray(random_hands(args.batch_hands, args.seed + 2), dtype=np.int32)
    texts = [format_row(h) for h in many.tolist()]
    for label, given in (("codes", many), ("card text", texts)):
        solve_many(given[:200], rules, args.players)
        many_runs, cpu_runs = [], []
        for _ in range(3):
            t, c = time.perf_counter(), time.process_time()
            solve_many(given, rules, args.players, workers=1)
            many_runs.append(time.perf_counter() - t)
            cpu_runs.append(time.process_time() - c)
        rate = args.batch_hands / statistics.median(many_runs)
        cpu_rate = args.batch_hands / statistics.median(cpu_runs)
        rows.append((f"solve_many, {args.batch_hands:,} hands as {label}, one core",
                     f"{rate:,.0f} hands/s ({cpu_rate:,.0f} per CPU second)"))  # fmt: skip

    per_hand = timings(lambda h: _core.solve_hand(model, h, 1), hands)
    fast_median = statistics.median(per_hand) * 1e6
    rows.append(("fast, per hand (_core.solve_hand), median", f"{fast_median:.1f} µs"))
    rows.append(("fast, per hand, 90th percentile", f"{np.percentile(per_hand, 90) * 1e6:.1f} µs"))

    api = timings(lambda cards: solve(cards, rules, args.players), [[Card(c) for c in h] for h in hands[:1000]])
    api_median = statistics.median(api) * 1e6
    rows.append(("public solve() per call, median (Python objects)", f"{api_median:.1f} µs"))
    same = float(np.median(seconds[:1000])) * 1e6
    rows.append(("solve() / core median per hand (same 1,000 hands)", f"{api_median / same:.2f}×"))

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        for h in random_hands(args.cli_hands, args.seed + 1):
            fh.write(format_row(h) + "\n")
        path = fh.name
    try:
        cli_runs, cli_cpu = [], []
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        for _ in range(3):
            with open(path) as stdin:
                before = os.times()
                t = time.perf_counter()
                done = subprocess.run(
                    [sys.executable, "-m", "solver", "--rules", args.rules, "--players", str(args.players)],
                    stdin=stdin, capture_output=True, check=True, env=env,
                )  # fmt: skip
                cli_runs.append(time.perf_counter() - t)
                after = os.times()
                cli_cpu.append(sum(after[2:4]) - sum(before[2:4]))  # children's user + system
            assert done.stdout.count(b"\n") == args.cli_hands
        cli = statistics.median(cli_runs)
    finally:
        os.unlink(path)
    cli_rate = f"{cli:.2f} s = {args.cli_hands / cli:,.0f} hands/s ({statistics.median(cli_cpu):.2f} s CPU)"
    rows.append((f"CLI, {args.cli_hands:,} hands incl. start-up", cli_rate))

    deep_hands = [[Card(c) for c in h] for h in hands[: args.deep_hands]]
    deep = timings(lambda cards: solve(cards, rules, args.players, mode="deep", seed=1), deep_hands)
    rows.append(("deep mode per hand, median (default samples)", f"{statistics.median(deep) * 1e3:.0f} ms"))

    ref_hands = [[Card(c) for c in h] for h in hands[: args.reference_hands]]
    ref = timings(lambda cards: _reference.best_splits(cards, rules, args.players), ref_hands)
    ref_ms = statistics.median(ref) * 1e3
    rows.append(("pure-Python reference per hand, median", f"{ref_ms:.0f} ms"))
    rows.append(("reference / fast (medians, same run)", f"{ref_ms * 1e3 / fast_median:,.0f}×"))

    width = max(len(k) for k, _ in rows)
    print(f"solver speed: rules={args.rules} players={args.players} hands={args.hands} (load {os.getloadavg()[0]:.1f})")
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
