"""A fingerprint of the solver's answers, to show a refactor changed none of them.

Solves the same seeded hands with ``solve_many`` (fast mode) for every preset, table
size and field, and prints one SHA-256 per combination over the best rows, the EVs
(rounded to 1e-9) and the specials, then one digest of them all.  Run it before and
after a change: equal digests mean equal answers on every hand.

    python benchmarks/answers_digest.py [--hands 10000] [--seed 1] [--deep-hands 40]

``--deep-hands`` also fingerprints deep mode on that many hands (seeded; 0 skips it).
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np

from solver import PRESETS, solve_many
from solver.fields import FIELDS


def seeded_hands(count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :13].astype(np.int8)


def digest(hands: np.ndarray, preset: str, players: int, field: str, mode: str) -> str:
    batch = solve_many(hands, PRESETS[preset], players, mode, field=field, seed=7, workers=1)
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(batch.best).tobytes())
    h.update(np.round(batch.ev, 9).tobytes())
    h.update(np.ascontiguousarray(batch.special).tobytes())
    return h.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deep-hands", type=int, default=40)
    args = parser.parse_args()
    hands = seeded_hands(args.hands, args.seed)
    total = hashlib.sha256()
    for preset in PRESETS:
        for players in (2, 3, 4):
            for field in FIELDS:
                d = digest(hands, preset, players, field, "fast")
                total.update(d.encode())
                print(f"fast {preset:<11} {players} {field:<11} {d}")
    if args.deep_hands:
        d = digest(hands[: args.deep_hands], "vietnamese", 4, "population", "deep")
        total.update(d.encode())
        print(f"deep vietnamese   4 population  {d}")
    print(f"all {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
