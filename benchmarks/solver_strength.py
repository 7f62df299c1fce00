"""Duplicate-match strength of the solver (issue 3).

Every deal is replayed with the hands rotated across the seats, so each strategy
plays every hand from every seat and the luck of the deal cancels.  Strategy A sits
in seat 0 and strategy B fills the other seats; A's chi per hand is averaged over the
rotations of a deal, and the 95 % confidence interval is over deals.  Settlement is
the exact ``solver.scoring.score_table`` (bonuses, scoops, sập làng, specials, aces).

Strategies: ``fast`` (the solver), ``deep`` (Monte Carlo refinement), ``sbf`` (strongest
back first: best 5 of 13 in the back, best 5 of the rest in the middle), ``random``
(a uniformly random valid arrangement) and ``alt`` (the fast solver with the tables in
``--alt-tables DIR``, e.g. a field built with ``python -m solver.training.tables build
--fields strong --out DIR``, and the card-removal corrections there if the directory
has them).  ``--field`` sets the field the fast, deep and alt
strategies play against (default "population").

Every deal has its own seed (from ``--seed`` and its number), so ``--jobs`` splits the
deals over processes without changing any figure.

    python benchmarks/solver_strength.py                 # the standard table
    python benchmarks/solver_strength.py --deals 4000 --deep-deals 1000 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable
from functools import cache
from multiprocessing.pool import Pool
from pathlib import Path

import numpy as np

from solver import _core
from solver.cards import Card
from solver.fields import FIELDS
from solver.rules import PRESETS, Rules
from solver.scoring import Arrangement, score_table
from solver.strategy import solve
from solver.tables import get_model, read_model

Codes = list[int]
Strategy = Callable[[list[Codes], Rules, int, random.Random], list[Codes]]


def solved(model: _core.Model, hands: list[Codes]) -> list[Codes]:
    """The fast solver's sets of ``hands`` under ``model``, as code lists."""
    arrs, _ = _core.solve_batch(model, np.asarray(hands, dtype=np.int32))
    return [list(a) for a in arrs.tolist()]


#: Field of the fast, deep and alt strategies (``--field``).
FIELD = "population"


def fast(hands: list[Codes], rules: Rules, players: int, rng: random.Random) -> list[Codes]:
    return solved(get_model(rules, players, FIELD), hands)


#: Table directory of the ``alt`` strategy (``--alt-tables``).
ALT_TABLES: Path | None = None


@cache
def alt_model(rules: Rules, players: int) -> _core.Model:
    if ALT_TABLES is None:
        raise SystemExit("the alt strategy needs --alt-tables DIR")
    return read_model(ALT_TABLES, rules, players, FIELD)


def alt(hands: list[Codes], rules: Rules, players: int, rng: random.Random) -> list[Codes]:
    return solved(alt_model(rules, players), hands)


def deep(hands: list[Codes], rules: Rules, players: int, rng: random.Random) -> list[Codes]:
    out = []
    for h in hands:
        sol = solve([Card(c) for c in h], rules, players, mode="deep", seed=rng.randrange(2**31), field=FIELD)
        out.append([c.code for c in sol.best.cards])
    return out


def sbf(hands: list[Codes], rules: Rules, players: int, rng: random.Random) -> list[Codes]:
    arrs = _core.strongest_back_first(np.asarray(hands, dtype=np.int32), rules.wheel == "second")
    return [list(a) for a in arrs.tolist()]


def random_valid(hands: list[Codes], rules: Rules, players: int, rng: random.Random) -> list[Codes]:
    wheel = rules.wheel == "second"
    out = []
    for h in hands:
        cards = list(h)
        while True:
            rng.shuffle(cards)
            kf, km, kb = _core.key3(cards[:3]), _core.key5(cards[3:8], wheel), _core.key5(cards[8:], wheel)
            if (kb > km > kf) if rules.strict else (kb >= km >= kf):
                out.append(list(cards))
                break
    return out


STRATEGIES: dict[str, Strategy] = {"fast": fast, "deep": deep, "sbf": sbf, "random": random_valid, "alt": alt}


def arrangement(codes: Codes) -> Arrangement:
    cards = [Card(c) for c in codes]
    return Arrangement(cards[:3], cards[3:8], cards[8:])


def play_deal(a: str, b: str, rules: Rules, players: int, seed: int, deal: int) -> float:
    """A's chi per hand over the rotations of one deal (its own seed: ``seed`` and ``deal``)."""
    rng = random.Random(f"{seed}:{deal}")
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sorted(deck[13 * s : 13 * s + 13]) for s in range(players)]
    set_a = [arrangement(c) for c in STRATEGIES[a](hands, rules, players, rng)]
    set_b = [arrangement(c) for c in STRATEGIES[b](hands, rules, players, rng)]
    total = 0
    for rot in range(players):
        seats = [set_a[rot]] + [set_b[(rot + k) % players] for k in range(1, players)]
        total += score_table(seats, rules).totals[0]
    return total / players


def _play_deals(args: tuple[str, str, Rules, int, int, range]) -> list[float]:
    a, b, rules, players, seed, deals = args
    return [play_deal(a, b, rules, players, seed, d) for d in deals]


def match(
    a: str, b: str, preset: str, players: int, deals: int, seed: int, pool: Pool | None = None, jobs: int = 1
) -> tuple[float, float, int]:
    """A's mean chi per hand against a field of B, and the 95 % CI half-width."""
    rules = PRESETS[preset]
    step = max(1, -(-deals // (4 * jobs)))
    chunks = [(a, b, rules, players, seed, range(lo, min(lo + step, deals))) for lo in range(0, deals, step)]
    parts = pool.map(_play_deals, chunks) if pool is not None else map(_play_deals, chunks)
    per_deal = [x for part in parts for x in part]
    mean = sum(per_deal) / deals
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_deal) / (deals - 1)) if deals > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(deals), deals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per fast matchup (default 2000)")
    parser.add_argument("--deep-deals", type=int, default=200, help="deals per deep-vs-fast matchup (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", nargs="*", default=["vietnamese", "four-two"])
    parser.add_argument("--players", nargs="*", type=int, default=[2, 4])
    parser.add_argument("--matchups", nargs="*", default=["fast:sbf", "fast:random", "deep:fast"])
    parser.add_argument("--jobs", type=int, default=1, help="processes to split the deals over (default 1)")
    parser.add_argument("--alt-tables", type=Path, help="table directory of the alt strategy")
    parser.add_argument("--field", default="population", choices=FIELDS, help="field of fast, deep and alt")
    args = parser.parse_args(argv)
    global ALT_TABLES, FIELD
    ALT_TABLES = args.alt_tables
    FIELD = args.field
    pool = multiprocessing.get_context("fork").Pool(args.jobs) if args.jobs > 1 else None
    print(f"{'preset':<11} {'players':>7} {'A vs field of B':<16} {'deals':>6} {'chi/hand (A)':>13} {'95% CI':>9} "
          f"{'time':>7}")  # fmt: skip
    for preset in args.presets:
        for players in args.players:
            for pair in args.matchups:
                a, b = pair.split(":")
                deals = args.deep_deals if "deep" in (a, b) else args.deals
                start = time.perf_counter()
                mean, ci, n = match(a, b, preset, players, deals, args.seed, pool, args.jobs)
                label = f"{a} vs {b}"
                spread = f"±{ci:.3f}"
                took = time.perf_counter() - start
                line = f"{preset:<11} {players:>7} {label:<16} {n:>6} {mean:>+13.3f} {spread:>9} {took:>6.0f}s"
                print(line, flush=True)
    if pool is not None:
        pool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
