"""``solve_many`` of this checkout against another checkout's, side by side (issue 28).

Each measurement runs in its own process that imports the solver of one checkout, solves
the same seeded hands with ``solve_many(..., workers=1)`` three times and reports the
median CPU time per hand (``time.process_time``: the share of a core the process got
does not count).  The two checkouts take turns, round after round, and the median of
each round's ratio is printed (the machine's speed drifts between rounds, so a ratio is
taken within a round, of two measurements made one after the other).  The other
checkout needs its compiled core in place (``python setup.py build_ext --inplace``
there); a ``git worktree`` of an earlier commit is the easy way to have one.

    python benchmarks/solve_many_trees.py /tmp/before --field strong [--rounds 11]

Issue 28's budget: ``solve_many`` with the strong field at most 2× the hand-tuned C
prototype, which the issue put at 1.5× the per-tag solver of its day, so at most ×1.33
of that checkout's ``solve_many``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(checkout: str, field: str, players: int, hands: int, seed: int) -> float:
    """CPU seconds per hand of ``solve_many`` in this process, with the solver of
    ``checkout`` (median of three passes over the same hands, after one warm-up)."""
    sys.path.insert(0, checkout)
    import numpy as np

    from solver import solve_many

    rng = random.Random(seed)
    codes = np.asarray([rng.sample(range(52), 13) for _ in range(hands)], dtype=np.int32)
    solve_many(codes[:200], "vietnamese", players, field=field, workers=1)  # tables loaded
    times = []
    for _ in range(3):
        start = time.process_time()
        solve_many(codes, "vietnamese", players, field=field, workers=1)
        times.append((time.process_time() - start) / hands)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("other", help="the other checkout (its solver/_core must be compiled)")
    parser.add_argument("--field", default="strong")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--child", help=argparse.SUPPRESS)  # the checkout one measuring process imports
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.child, args.field, args.players, args.hands, args.seed)))
        return 0
    other = Path(args.other).resolve()
    if not (other / "solver").is_dir():
        parser.error(f"{other} holds no solver/ package")
    trees = {"other": str(other), "this": str(ROOT)}
    seconds: dict[str, list[float]] = {"other": [], "this": []}
    for k in range(args.rounds):
        for name in ("other", "this") if k % 2 == 0 else ("this", "other"):
            command = [sys.executable, __file__, args.other, "--child", trees[name], "--field", args.field,
                       "--players", str(args.players), "--hands", str(args.hands), "--seed", str(args.seed)]
            done = subprocess.run(command, capture_output=True, text=True, cwd=trees[name])
            if done.returncode != 0:
                raise SystemExit(f"measuring {trees[name]} failed:\n{done.stderr}")
            seconds[name].append(json.loads(done.stdout))
    print(f"solve_many, vietnamese, {args.players} players, field {args.field}, {args.hands:,} hands, "
          f"workers=1, {args.rounds} alternating rounds (CPU time per hand)")  # fmt: skip
    for name in ("other", "this"):
        per_hand = [s * 1e6 for s in seconds[name]]
        print(f"  {name:>5}: median {statistics.median(per_hand):6.1f} µs  "
              f"(rounds {', '.join(f'{t:.1f}' for t in per_hand)})")  # fmt: skip
    ratios = sorted(t / o for t, o in zip(seconds["this"], seconds["other"]))
    low, high = ratios[len(ratios) // 4], ratios[(3 * len(ratios)) // 4]
    print(f"  this/other, each round's pair: median {statistics.median(ratios):.3f} (quartiles {low:.3f}-{high:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
