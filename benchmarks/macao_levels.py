"""Macao: how strong is each computer level?  A seeded round robin (issue 15).

    PYTHONPATH=. python benchmarks/macao_levels.py --jobs 2              # full run
    PYTHONPATH=. python benchmarks/macao_levels.py --quick               # smoke check
    PYTHONPATH=. python benchmarks/macao_levels.py --jobs 2 --readme docs/benchmarks.md

Levels: random, easy, normal, hard.  Three option mixes: the default rules; 2 decks with
jokers; 7 starting cards with stacking "any" (any draw card counters any draw card).
For each mix:

* heads-up, every pair of levels: the row level's win rate against the column level;
* 4 players, one seat of the row level against three of the column level: the row
  level's average placing (1 = best, 2.5 = what a seat of equal strength gets).
  Tables with three Hard seats are left out unless ``--three-hard`` (they cost three
  searches per round of turns).

Every game has its own seed and the seats rotate every game; 95 % confidence intervals
(Wilson for rates, normal approximation for placings).  The two target pairings
(Hard vs Normal heads-up and Hard against three Normals, default rules) get more games
(``--target-games``, ``--target-games-4p``).  Decision times are the CPU time of each
``choose`` (one core per process), mean and 95th percentile.  The Markdown tables are
printed, and with ``--readme FILE`` written between the ``macao-levels`` markers of that file
(docs/benchmarks.md holds them).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import platform
import re
import sys
import time
from dataclasses import replace
from pathlib import Path

from macao import Rules
from macao.simulate import BotStats, SimulationResult, percentile, simulate

LEVELS = ("random", "easy", "normal", "hard")
MIXES = {
    "default": Rules(),
    "2 decks, jokers": Rules(decks=2, jokers=True),
    "7 cards, stacking any": Rules(start_cards=7, stacking="any"),
}
#: Each cell's simulation, by (mix, players, single level, other level).
Results = dict[tuple[str, int, str, str], SimulationResult]
START, END = "<!-- macao-levels:start -->", "<!-- macao-levels:end -->"


def pairings(three_hard: bool) -> list[tuple[int, str, str]]:
    """(players, single level, other level): every pair heads-up; 1 vs 3 at four players."""
    cells = [(2, a, b) for a, b in itertools.combinations(LEVELS, 2)]
    for a, b in itertools.permutations(LEVELS, 2):
        if b == "hard" and not three_hard:
            continue
        cells.append((4, a, b))
    return cells


def games_for(cell: tuple[int, str, str], mix: str, args: argparse.Namespace) -> int:
    players, a, b = cell
    if mix == "default" and {a, b} == {"hard", "normal"}:
        if players == 2:
            return int(args.target_games)
        if a == "hard":
            return int(args.target_games_4p)
    if "hard" in (a, b) and args.hard_games is not None:
        return int(args.hard_games)
    return int(args.games)


def fmt_rate(est: object) -> str:
    value, low, high = (getattr(est, k) for k in ("value", "low", "high"))
    return f"{value:.3f} [{low:.3f}, {high:.3f}]"


def run(args: argparse.Namespace) -> Results:
    results: Results = {}
    for mix, base in MIXES.items():
        for cell in pairings(args.three_hard):
            players, a, b = cell
            rules = replace(base, players=players)
            lineup = [a] + [b] * (players - 1)
            games = games_for(cell, mix, args)
            started = time.perf_counter()
            result = simulate(rules, lineup, games, f"{args.seed}:{mix}:{players}:{a}:{b}", jobs=args.jobs)
            took = time.perf_counter() - started
            results[(mix, players, a, b)] = result
            first = result.bots[0]
            print(
                f"  {mix:<22} {players}p {a:>6} vs {b:<6} {games:>5} games {took:7.1f} s  "
                f"win {fmt_rate(first.win_rate)}  place {fmt_rate(first.placing)}",
                file=sys.stderr,
                flush=True,
            )
    return results


def heads_up_table(results: Results, mix: str) -> list[str]:
    lines = ["| heads-up: row's win rate vs column | " + " | ".join(LEVELS) + " |"]
    lines.append("|---" * (len(LEVELS) + 1) + "|")
    for row in LEVELS:
        cells = []
        for col in LEVELS:
            if row == col:
                cells.append("—")
            elif (mix, 2, row, col) in results:
                r = results[(mix, 2, row, col)]
                cells.append(f"{fmt_rate(r.bots[0].win_rate)} ({r.games})")
            else:
                r = results[(mix, 2, col, row)]
                cells.append(f"{fmt_rate(r.bots[1].win_rate)} ({r.games})")
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return lines


def four_player_table(results: Results, mix: str) -> list[str]:
    lines = ["| 4 players: one row seat's avg placing vs 3 × column | " + " | ".join(LEVELS) + " |"]
    lines.append("|---" * (len(LEVELS) + 1) + "|")
    for row in LEVELS:
        cells = []
        for col in LEVELS:
            r = results.get((mix, 4, row, col))
            if row == col:
                cells.append("—")
            elif r is None:
                cells.append("not run")
            else:
                cells.append(f"{fmt_rate(r.bots[0].placing)} ({r.games})")
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return lines


def timing_table(results: Results) -> list[str]:
    """Decision CPU time of each level over all its games (pooled by level)."""
    lines = ["| level | decisions | mean ms per decision | 95th percentile ms |", "|---|---|---|---|"]
    for level in LEVELS:
        means: list[tuple[int, float]] = []
        p95s: list[float] = []
        for r in results.values():
            rows = [b for b in r.levels if _level(b) == level] or [b for b in r.bots if _level(b) == level]
            for b in rows:
                if b.decisions and not math.isnan(b.decision_ms):
                    means.append((b.decisions, b.decision_ms))
                    p95s.append(b.decision_p95_ms)
        total = sum(n for n, _ in means)
        if not total:
            continue
        mean = sum(n * m for n, m in means) / total
        lines.append(
            f"| {level} | {total:,} | {mean:.2f} | {percentile(p95s, 0.5):.2f} (median of the runs; "
            f"max {max(p95s):.2f}) |"
        )
    return lines


def _level(b: BotStats) -> str:
    return re.split(r"[#( ]", b.name)[0]


def markdown(results: Results, header: str) -> str:
    out = [header, ""]
    for mix in MIXES:
        out += [f"**{mix}**", "", *heads_up_table(results, mix), "", *four_player_table(results, mix), ""]
    out += ["**Decision time** (CPU, one core per process, all runs above)", "", *timing_table(results)]
    return "\n".join(out) + "\n"


def write_readme(path: Path, text: str) -> None:
    content = path.read_text(encoding="utf-8")
    if START not in content or END not in content:
        raise SystemExit(f"error: {path} has no {START} ... {END} block to replace")
    head, rest = content.split(START, 1)
    _, tail = rest.split(END, 1)
    path.write_text(f"{head}{START}\n{text}{END}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    parser.add_argument("--hard-games", type=int, help="games per other pairing with Hard (default: --games)")
    parser.add_argument("--target-games", type=int, default=2000, help="Hard vs Normal heads-up, default rules")
    parser.add_argument("--target-games-4p", type=int, default=1000, help="Hard vs 3 Normal, default rules")
    parser.add_argument("--jobs", type=int, default=1, help="processes per pairing (default 1)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--three-hard", action="store_true", help="also run the tables with three Hard seats")
    parser.add_argument("--quick", action="store_true", help="10 games per pairing (smoke check)")
    parser.add_argument("--readme", type=Path, help="write the tables into this file between the markers")
    args = parser.parse_args(argv)
    if args.quick:
        args.games = args.target_games = args.target_games_4p = 10
        args.hard_games = None
    load = f", load average {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else ""
    print(f"Python {platform.python_version()} on {platform.machine()}{load}; jobs {args.jobs}", file=sys.stderr)
    started = time.perf_counter()
    results = run(args)
    took = time.perf_counter() - started
    header = (
        f"`python benchmarks/macao_levels.py --games {args.games} "
        f"{f'--hard-games {args.hard_games} ' if args.hard_games is not None else ''}"
        f"--target-games {args.target_games} "
        f"--target-games-4p {args.target_games_4p} --jobs {args.jobs} --seed {args.seed}"
        f"{' --three-hard' if args.three_hard else ''}` ({took / 60:.0f} min); "
        "each cell: value [95 % CI] (games)."
    )
    text = markdown(results, header)
    print(text)
    if args.readme:
        write_readme(args.readme, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
