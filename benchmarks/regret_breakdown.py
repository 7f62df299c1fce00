"""Where fast mode's regret comes from (issue 28): the regret benchmark's oracle, broken down.

On the same seeded hands and deals as ``benchmarks/solver_regret.py`` (opponents the fast
solver with ``--opp-field``), fast mode's 8 best sets and the hand's Pareto front are
scored on the oracle's deals, and fast mode's regret is split up:

* ``regret``: the oracle's best mean minus that of fast mode's set (solver_regret's fast row);
* ``best of the 8``: the regret of the set the oracle likes best among fast mode's own 8
  best sets, which is what a perfect re-ranking of fast mode's list would leave;
* ``sập làng's part``: how much of the gap between the oracle's best set and fast mode's
  comes from sập làng (the same two sets settled again without it);
* how the regret is spread: the share the 10 and the 40 worst hands carry;
* by rows: the regret, per hand of the whole run, of the hands where the oracle's best set
  has a stronger, weaker or the same middle (and back) category as fast mode's set.

With ``--show N`` the N worst hands follow, each of fast mode's 8 sets with its EV in fast
mode and the oracle's mean, both relative to fast mode's choice.

    python benchmarks/regret_breakdown.py                          # vietnamese, 4 players, 400 hands
    python benchmarks/regret_breakdown.py --players 2 --show 5
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's solver

from benchmarks import solver_regret as oracle  # the regret benchmark beside this one
from solver import _core
from solver.cards import Card
from solver.fields import FIELDS
from solver.rules import PRESETS, Rules
from solver.tables import CATEGORY_SHIFT, GAMMA_LOSE, GAMMA_WIN, class_values, get_field, get_model, row_table
from solver.training.removal import CANDIDATES


@dataclass(frozen=True)
class HandBreakdown:
    hand: int
    regret: float
    best_of_list: float  # the regret of the oracle's favourite among fast mode's sets
    sap_lang_part: float
    middle: str  # "stronger", "weaker", "same": the oracle's best set's middle against fast mode's
    back: str
    fast_evs: tuple[float, ...]  # fast mode's EV of each of its sets, minus its choice's
    oracle_means: tuple[float, ...]  # the oracle's mean of each, minus fast mode's choice's
    sets: tuple[str, ...]
    chances: tuple[tuple[float, float, float, float], ...]  # per set: table p and q products, sweep and swept rates


def compare(mine: int, theirs: int) -> str:
    return "stronger" if theirs > mine else "weaker" if theirs < mine else "same"


@cache
def row_chances(rules: Rules, players: int, field: str) -> list[np.ndarray]:
    """Per row, the table's chances (p, q) of each row class against the field (once per process)."""
    k3, k5 = _core.class_keys(rules.wheel == "second")
    dist = get_field(rules, players, field)
    values = class_values(rules)
    return [row_table(d, k, v)[:, :2] for d, k, v in zip((dist.front, dist.middle, dist.back), (k3, k5, k5), values)]


def sweep_chances(
    sets: np.ndarray, me: oracle.Seats, opponents: oracle.Seats, tables: list[np.ndarray]
) -> list[tuple[float, float, float, float]]:
    """For each set: the products of the table's row chances p and q, and the rates at
    which it sweeps and is swept by an opponent on the oracle's deals."""
    classes = _core.row_classes(sets)
    plain = ~opponents.special & ~opponents.foul
    out = []
    for s, keys in enumerate(np.asarray(me.keys)[-len(sets) :]):
        chance = np.prod([tables[r][classes[s, r]] for r in range(3)], axis=0)
        sweep = np.all(keys > opponents.keys, axis=-1)[plain].mean()
        swept = np.all(keys < opponents.keys, axis=-1)[plain].mean()
        out.append((float(chance[0]), float(chance[1]), float(sweep), float(swept)))
    return out


def fitted_exponent(chance: np.ndarray, rate: np.ndarray) -> float:
    """The exponent g (0.50..2.00, to 0.01) that brings chance ** g closest to rate."""
    grid = np.arange(0.5, 2.0, 0.01)
    return float(grid[int(np.argmin([((chance**g - rate) ** 2).sum() for g in grid]))])


def break_down(args: tuple[oracle.Setup, int]) -> HandBreakdown:
    setup, hand = args
    rules = PRESETS[setup.preset]
    codes = oracle.deal_hand(setup.seed, hand)
    top = _core.solve_hand(get_model(rules, setup.players, setup.field), codes, CANDIDATES)
    sets = np.asarray([[*f, *m, *b] for f, m, b, _ in top], dtype=np.int32)
    me, on_front = oracle.candidate_seats(codes, sets, rules)
    dealt = oracle.deal_opponents(codes, setup.players, setup.deals, setup.seed, hand)
    opponents = oracle.seats_of(oracle.set_hands(dealt, setup, rules), rules)
    means = oracle.settle_seat0(me, opponents, rules).astype(np.float64).mean(axis=1)
    plain = oracle.settle_seat0(me, opponents, replace(rules, sap_lang=False)).astype(np.float64).mean(axis=1)
    best, pick = int(np.argmax(means)), on_front
    listed = means[on_front:]
    categories = np.asarray(me.keys) >> CATEGORY_SHIFT
    gap, plain_gap = means[best] - means[pick], plain[best] - plain[pick]
    return HandBreakdown(
        hand=hand,
        regret=float(gap),
        best_of_list=float(means[best] - listed.max()),
        sap_lang_part=float(gap - plain_gap),
        middle=compare(int(categories[pick, 1]), int(categories[best, 1])),
        back=compare(int(categories[pick, 2]), int(categories[best, 2])),
        fast_evs=tuple(float(ev - top[0][3]) for *_, ev in top),
        oracle_means=tuple(float(m - means[pick]) for m in listed),
        sets=tuple(" | ".join(" ".join(str(Card(c)) for c in row) for row in (f, m, b)) for f, m, b, _ in top),
        chances=tuple(sweep_chances(sets, me, opponents, row_chances(rules, setup.players, setup.field))),
    )


def report(rows: list[HandBreakdown], show: int) -> None:
    n = len(rows)
    regrets = np.asarray([r.regret for r in rows])
    total = float(regrets.sum())
    mean, ci = oracle.summary([float(x) for x in regrets])
    print(f"regret                   {mean:.4f} ± {ci:.4f} chi a hand")
    print(f"best of fast mode's 8    {np.mean([r.best_of_list for r in rows]):.4f}")
    print(f"sập làng's part          {np.mean([r.sap_lang_part for r in rows]):.4f}")
    worst = np.sort(regrets)[::-1]
    for k in (10, 40):
        print(f"the {k} worst hands carry {worst[:k].sum() / total:.0%}" if total > 0 else "no regret")
    print("by rows (the oracle's best set against fast mode's): hands with regret, regret per hand of the run")
    groups: dict[tuple[str, str], float] = defaultdict(float)
    counts: Counter[tuple[str, str]] = Counter()
    for r in rows:
        if r.regret > 0:
            groups[(r.middle, r.back)] += r.regret
            counts[(r.middle, r.back)] += 1
    for (middle, back), value in sorted(groups.items(), key=lambda item: -item[1]):
        print(f"  middle {middle:<8} back {back:<8} {counts[(middle, back)]:>4}  {value / n:.4f}")
    print("sweep chances per opponent: table product ** exponent | on the oracle's deals | fitted exponent")
    for label, chosen in (
        ("fast mode's sets", [r.chances[0] for r in rows]),
        ("all 8 sets", [c for r in rows for c in r.chances]),
    ):
        a = np.asarray(chosen)
        for name, col, exponent in (("sweep", 0, GAMMA_WIN), ("swept", 1, GAMMA_LOSE)):
            fit = fitted_exponent(a[:, col], a[:, col + 2])
            print(
                f"  {label:<16} {name}  {np.mean(a[:, col] ** exponent):.4f} (exponent {exponent}) | "
                f"{np.mean(a[:, col + 2]):.4f} | {fit:.2f} -> {np.mean(a[:, col] ** fit):.4f}"
            )
    for r in sorted(rows, key=lambda r: -r.regret)[:show]:
        print(f"hand {r.hand}: regret {r.regret:.3f} (fast EV and oracle mean, each against fast mode's set)")
        for k, (ev, mean, cards) in enumerate(zip(r.fast_evs, r.oracle_means, r.sets)):
            print(f"  {k}  fast {ev:+.3f}  oracle {mean:+.3f}  {cards}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="vietnamese", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=4, choices=[2, 3, 4])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--deals", type=int, default=2000, help="opponent deals per hand (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opp-field", default="strong", choices=FIELDS)
    parser.add_argument("--field", choices=FIELDS, help="the field fast mode plays (default: --opp-field)")
    parser.add_argument("--show", type=int, default=0, help="print the N worst hands' sets")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args(argv)
    setup = oracle.Setup(args.preset, args.players, args.deals, args.seed, ("fast",), "fast", args.opp_field,
                         args.field or args.opp_field, None)  # fmt: skip
    tasks = [(setup, h) for h in range(args.hands)]
    print(f"{args.preset}, {args.players} players, {args.hands} hands x {args.deals} deals, seed {args.seed}, "
          f"opponents the fast solver (field {args.opp_field!r}), fast mode plays {setup.field!r}")  # fmt: skip
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            rows = pool.map(break_down, tasks, chunksize=4)
    else:
        rows = list(map(break_down, tasks))
    report(rows, args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
