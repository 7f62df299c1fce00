"""Self-play rounds of a table of solvers who play the hand terms (issue 12).

The two builds before this one describe a field one step behind the solver that plays
it.  :mod:`solver.training.tables` finds the field's rows by best response with the
*uncorrected* solver, and :mod:`solver.training.removal` learns the card-removal corrections against a bank set
by that solver and the hand terms against a bank set by the per-tag solver.  Fast mode
with hand terms sets 27 % of hands differently from the per-tag solver (same rows on
73 % of 20,000 four-two hands heads-up), so at a table of such solvers, which is what
``field="strong"`` stands for, its own tables and bank misdescribe the opponents: its
regret there was 0.0069 chi a hand, against 0.0043 for a solver trained on those very
opponents (benchmarks/solver_regret.py, 400 hands).

So the fields whose fast mode plays the hand terms (:func:`self_play_fields`: the shipped
manifest's play entries with hand terms) get :data:`ROUNDS` rounds of damped self-play
after the two builds.  Each round, with the current solver (tables, per-tag correction
and hand terms):

* solves the table build's sample hands and moves the field half way
  (:data:`solver.training.tables.DAMPING`) toward their rows;
* sets each hand of the removal build's bank again with chance :data:`DAMPING`, so the
  bank, like the field, mixes the recent solvers, the newest weighing most;
* learns the per-tag correction and then the hand terms again, on the moved field
  against that bank, from the removal build's own training hands.

Run after ``python -m solver.training.tables build`` and ``python -m
solver.training.removal build``, on their files in ``--out`` (default ``solver/data``)::

    python -m solver.training.selfplay build

It rewrites the field's rows and corrections in place, records the rounds in the field's
file (``selfplay_rounds_<players>``) and in the manifest, and refuses to run twice on the
same files.  Seeded, so it replays exactly.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from ..fields import NAIVE_SHARE
from ..rules import PRESETS, Rules
from ..tables import (
    DATA_DIR,
    TABLE_SIZES,
    Field,
    make_model,
    read_field,
    read_hand_weights,
    read_removal,
    removal_name,
    shipped_plays,
    table_name,
)
from . import manifest
from .pools import EXECUTORS, check_executor, open_pool
from .removal import (
    HAND_HANDS,
    HAND_TERM_HANDS,
    PER_TAG_HANDS,
    bank_of,
    bank_rng,
    learn_hand_weights,
    learn_removal,
    training_candidates,
    training_seed,
)
from .tables import (
    DAMPING,
    blend,
    deal_hands,
    distance,
    field_of,
    row_keys,
    sample_hands,
    sample_seed,
    unwritable,
)

#: Rounds of self-play [measured]: fast mode's regret heads-up in self-play (four-two,
#: strong, 400 hands) after 0-4 rounds of a trial run: 0.0069, 0.0053, 0.0047, 0.0054,
#: 0.0043, while the field moved 0.071, 0.044, 0.034, 0.029 (total variation, worst row)
#: and each solver set the same rows as the one before on 87, 90, 91, 92 % of hands.  (The
#: trial's bank also left out the 1.6 % of hands shaped like a special, which four-two
#: does not pay; the build keeps them, as the removal build does.)
ROUNDS = 4
#: The stream of the bank's mixing draws (any fixed number: it only has to replay).
MIX_STREAM = 99
#: Sample hands of the field (the table build's default).
SAMPLES = 40_000


@dataclass(frozen=True)
class Solver:
    """The fast solver of one table size: its field's rows, per-tag correction (3,
    N_TAGS) and hand-term weights (as the core reads them: single precision)."""

    tables: Field
    correction: np.ndarray
    weights: np.ndarray

    def model(self, rules: Rules, players: int) -> _core.Model:
        return make_model(self.tables, rules, players, self.correction, hand_weights=self.weights)


@dataclass(frozen=True)
class Round:
    """How far one round moved: the field (total variation, worst row) and the share of
    sample hands the new solver sets as the one before."""

    moved: float
    same: float


def solve_rows(model: _core.Model, hands: np.ndarray, rules: Rules) -> np.ndarray:
    """Row keys (n, 3) of ``hands`` set by the fast solver with ``model``."""
    return row_keys(np.asarray(_core.solve_batch(model, np.ascontiguousarray(hands))[0]), rules)


def self_play(
    rules: Rules,
    players: int,
    start: Solver,
    preset_field: tuple[str, str],
    rounds: int,
    seed: int,
    pool: Any,
    chunks: int,
    samples: int = SAMPLES,
    hands: int = 20_000,
    bank_size: int = 50_000,
    hand_hands: int = HAND_HANDS,
    progress: Any = None,
    table_seed: int | None = None,
) -> tuple[Solver, list[Round]]:
    """``rounds`` rounds of self-play from ``start`` (see the module's description); the
    bank and training hands are the removal build's, derived from ``seed``, the sample
    hands the table build's, from ``table_seed`` (default ``seed``)."""
    preset, field = preset_field
    if NAIVE_SHARE[field] != 0.0:
        raise ValueError(f"self-play is for a table of solvers; field {field!r} holds naive players")
    table_hands = sample_hands(samples, sample_seed(seed if table_seed is None else table_seed, preset, players))
    train = training_seed(seed, preset, field, players)
    bank_hands = deal_hands(bank_size, bank_rng(bank_size, train, players))
    per_tag = make_model(start.tables, rules, players, start.correction)
    bank_keys = solve_rows(per_tag, bank_hands, rules)  # the bank the start's hand terms learned against
    mix = np.random.default_rng([train, MIX_STREAM])
    solver, log = start, []
    for n in range(1, rounds + 1):
        model = solver.model(rules, players)
        sets = np.asarray(_core.solve_batch(model, table_hands)[0])
        tables = blend(solver.tables, field_of(sets, rules), DAMPING)
        again = mix.random(bank_size) < DAMPING
        bank_keys[again] = solve_rows(model, bank_hands[again], rules)
        bank = bank_of(bank_hands, bank_keys, rules)
        candidates = training_candidates(rules, players, tables, hands, train, PER_TAG_HANDS, pool, chunks, None)
        correction = learn_removal(rules, players, tables.scoop, candidates, bank, pool)
        candidates = training_candidates(
            rules, players, tables, hand_hands, train, HAND_TERM_HANDS, pool, chunks, correction
        )
        weights = learn_hand_weights(rules, players, tables.scoop, candidates, bank, pool).astype(np.float32)
        new = Solver(tables, correction, weights.astype(np.float64))
        check = min(samples, 20_000)  # the first sample hands, as this round's solver set them above
        before = row_keys(sets[:check], rules)
        after = solve_rows(new.model(rules, players), table_hands[:check], rules)
        same = float((before == after).all(axis=1).mean())
        log.append(Round(distance(solver.tables, tables), same))
        solver = new
        if progress is not None:
            progress(n, log[-1])
    return solver, log


def self_play_fields(presets: list[str] | None = None) -> list[tuple[str, str]]:
    """The (preset, field) pairs that get self-play rounds: those whose fast mode plays the
    hand terms at some table size (the shipped manifest's play entries), of ``presets``
    (default all)."""
    return sorted(
        key
        for key, entry in shipped_plays().items()
        if entry.hand_terms and (presets is None or key[0] in presets)
    )


def record_rounds(out_dir: Path, preset: str, field: str, tables: dict[str, np.ndarray], took: str) -> None:
    """Record the self-play rounds just run in the manifest of ``out_dir``: a record after
    the builds of the field file (its rounds, field moves and agreement per table size,
    replacing any earlier self-play record) and of the removal file it rewrote."""
    command = "python -m solver.training.selfplay build"
    book = manifest.load(out_dir)
    figures = {name: manifest.per_size(tables, name) for name in ("selfplay_rounds", "selfplay_moved", "selfplay_same")}
    for name, kind, record in (
        (table_name(preset, field), "field", {"build": "selfplay", "command": command, **figures, "took": took}),
        (removal_name(preset, field), "removal",
         {"build": "selfplay", "command": command, "selfplay_rounds": figures["selfplay_rounds"], "took": took}),
    ):  # fmt: skip
        builds = [b for b in manifest.builds_of(book, name) if b["build"] != "selfplay"] + [record]
        manifest.record_file(book, out_dir, name, kind, preset, field, builds)
    manifest.save(out_dir, book)


def refined_sizes(out_dir: Path, preset: str, field: str) -> list[int]:
    """The table sizes whose field in ``out_dir`` has had its self-play rounds already."""
    with np.load(out_dir / table_name(preset, field)) as data:
        return [players for players in TABLE_SIZES if f"selfplay_rounds_{players}" in data.files]


def missing_inputs(out_dir: Path, preset: str, field: str, sizes: list[int]) -> str | None:
    """Why the two builds' files in ``out_dir`` cannot start self-play, else None."""
    tables, removal = out_dir / table_name(preset, field), out_dir / removal_name(preset, field)
    for path, command in ((tables, "solver.training.tables"), (removal, "solver.training.removal")):
        if not path.exists():
            return f"{path} is missing; build it with `python -m {command} build` first"
    if done := [p for p in sizes if p in refined_sizes(out_dir, preset, field)]:
        return (f"{tables.name} has had its self-play rounds at {', '.join(map(str, done))} players; rebuild it "
                "with `python -m solver.training.tables build` and `python -m solver.training.removal build` "
                "first")  # fmt: skip
    with np.load(removal) as data:
        if any(f"hand_{p}" not in data.files for p in sizes):
            return f"{removal.name} has no hand terms; build them with `python -m solver.training.removal build` first"
    return None


def build_all(
    rounds: int, jobs: int, out_dir: Path, sizes: list[int], executor: str = "local", presets: list[str] | None = None
) -> None:
    """Self-play rounds for every field of :func:`self_play_fields` (of ``presets``) at ``sizes`` players,
    on the files in ``out_dir`` (rewritten in place once every size is done), with the
    seeds and sizes the two builds recorded there; the work runs on ``executor``
    (:mod:`solver.training.pools`), in ``jobs * 4`` chunks per step."""
    start = time.perf_counter()
    with open_pool(executor, jobs) as pool:
        for preset, field in self_play_fields(presets):
            began = time.perf_counter()
            rules = PRESETS[preset]
            tables_path, removal_path = out_dir / table_name(preset, field), out_dir / removal_name(preset, field)
            with np.load(tables_path) as data:
                tables = {name: data[name] for name in data.files}
            with np.load(removal_path) as data:
                removal = {name: data[name] for name in data.files}
            for players in sizes:
                weights = read_hand_weights(removal_path, players)
                assert weights is not None  # missing_inputs checked it
                begin = Solver(read_field(tables_path, players), read_removal(removal_path, players), weights)

                def progress(n: int, moved: Round, label: str = f"{preset} {field} {players}p") -> None:
                    took = time.perf_counter() - start
                    print(f"{label}: round {n}/{rounds}, field moved {moved.moved:.3f}, same rows as the round "
                          f"before {moved.same:.1%}  {took:7.1f}s", file=sys.stderr, flush=True)  # fmt: skip

                solver, log = self_play(rules, players, begin, (preset, field), rounds, int(removal["seed"]), pool,
                                        jobs * 4, samples=int(tables["samples"]), hands=int(removal["hands"]),
                                        bank_size=int(removal["bank"]), hand_hands=int(removal["hand_hands"]),
                                        progress=progress, table_seed=int(tables["seed"]))  # fmt: skip
                rows = dict(zip(("front", "middle", "back"), solver.tables.rows()))
                tables.update({f"{row}_{players}": dist for row, dist in rows.items()})
                tables.update({f"scoop_{players}": np.float64(solver.tables.scoop),
                               f"selfplay_rounds_{players}": np.int64(rounds),
                               f"selfplay_moved_{players}": np.asarray([r.moved for r in log]),
                               f"selfplay_same_{players}": np.asarray([r.same for r in log])})  # fmt: skip
                removal[f"removal_{players}"] = solver.correction
                removal[f"hand_{players}"] = solver.weights.astype(np.float32)
            np.savez_compressed(tables_path, **tables)
            np.savez_compressed(removal_path, **removal)
            record_rounds(out_dir, preset, field, tables, f"{time.perf_counter() - began:.0f} s on {jobs} processes")
    print(f"self-play done in {time.perf_counter() - start:.1f}s", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.training.selfplay", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="self-play rounds of the fields whose fast mode plays the hand terms")
    b.add_argument("--rounds", type=int, default=ROUNDS, help=f"rounds of self-play (default {ROUNDS})")
    b.add_argument("--sizes", nargs="*", type=int, default=list(TABLE_SIZES), choices=TABLE_SIZES,
                   help="table sizes (default all)")  # fmt: skip
    b.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    b.add_argument("--out", type=Path, default=DATA_DIR, help="where the two builds' files are (rewritten in place)")
    b.add_argument("--executor", default="local",
                   help=f"where the work runs: {', '.join(EXECUTORS)} (default local: --jobs processes)")
    b.add_argument("--presets", nargs="*", choices=sorted(PRESETS),
                   help="presets to refine (default: every one whose fast mode plays the hand terms)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if problem := unwritable(args.out) or check_executor(args.executor):
        parser.error(problem)
    if args.presets is not None and not self_play_fields(args.presets):
        parser.error(f"fast mode plays no hand terms under {', '.join(args.presets)}: nothing to refine")
    for preset, field in self_play_fields(args.presets):
        if problem := missing_inputs(args.out, preset, field, sorted(set(args.sizes))):
            parser.error(problem)
    build_all(args.rounds, max(1, args.jobs), args.out, sorted(set(args.sizes)), args.executor, args.presets)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
