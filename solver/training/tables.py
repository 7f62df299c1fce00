"""The field tables of the fast solver, built by iterated best response.

Each named field (:mod:`solver.fields`) is found by iterated best response: start with
every sampled hand set "strongest back first", then repeatedly solve every sampled hand
against the current field and move the field half way toward the field's answer (its
naive share of players keep setting strongest back first, the rest play the best
response), until it moves less than ``tol`` (total variation, worst row).  "beginners"
is the naive start itself; "strong" has no naive players; "population" a quarter.

Build all shipped tables (``solver/data/field-<preset>.npz`` for "population",
``field-<preset>-<field>.npz`` for the others)::

    python -m solver.training.tables build

(defaults: ``--samples 40000 --max-iter 12 --tol 0.01 --seed 2026``, every field).
It uses every core (``--jobs``, default all), prints a progress bar on stderr, and
records each file it writes in the manifest beside it (``--out``'s ``manifest.json``:
the seeds, sizes and the distance the field moved at each iteration).  The shipped
tables were built with exactly that command, about 2 minutes per field on a quiet
2-core machine ("beginners" takes seconds: it is the naive start).  "vietnamese" and
"seed" settle below 0.01 in 11–12 iterations under "population"; "plain" and
"four-two", and every preset under "strong", stop at 12 still moving about 0.02, the
sampling noise of 40,000 hands spread over 12,376 classes (their best responses flip
between near-equal sets); ``solver/data/manifest.json`` has every move.

The card-removal corrections (:mod:`solver.training.removal`) and the self-play rounds
(:mod:`solver.training.selfplay`) are built on these files.  The helpers here (dealing
seeded hands, the field of a sample of sets, blending and measuring fields) serve those
builds too.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core
from ..fields import DEFAULT_FIELD, FIELDS
from ..fields import NAIVE_SHARE as FIELD_NAIVE_SHARE
from ..rules import PRESETS, Rules
from ..tables import DATA_DIR, TABLE_SIZES, Field, IntArray, make_model, table_name
from . import manifest


def keys_of_classes(classes: IntArray, rules: Rules) -> npt.NDArray[np.int64]:
    """Row keys (n, 3) of row classes (n, 3), front, middle, back."""
    k3, k5 = _core.class_keys(rules.wheel == "second")
    return np.stack([k3[classes[:, 0]], k5[classes[:, 1]], k5[classes[:, 2]]], axis=1).astype(np.int64)


def row_keys(arrangements: IntArray, rules: Rules) -> npt.NDArray[np.int64]:
    """Row keys (n, 3) of arrangements (n, 13) laid out front 3 | middle 5 | back 5."""
    return keys_of_classes(_core.row_classes(np.ascontiguousarray(arrangements, dtype=np.int32)), rules)



def deal_hands(n: int, rng: np.random.Generator) -> IntArray:
    """``n`` random 13-card hands as sorted codes (each from its own shuffled deck)."""
    return np.sort(np.argsort(rng.random((n, 52)), axis=1)[:, :13], axis=1).astype(np.int32)


def field_of(arrangements: IntArray, rules: Rules) -> Field:
    """Distribution of row classes of a sample of arrangements, and its scoop rate."""
    cls = _core.row_classes(np.ascontiguousarray(arrangements, dtype=np.int32))
    n = len(cls)
    front = np.bincount(cls[:, 0], minlength=_core.N_FRONT_CLASSES) / n
    middle = np.bincount(cls[:, 1], minlength=_core.N_FIVE_CLASSES) / n
    back = np.bincount(cls[:, 2], minlength=_core.N_FIVE_CLASSES) / n
    keys = keys_of_classes(cls, rules)
    other = np.roll(keys, 1, axis=0)
    scoop = float(np.mean(np.all(keys > other, axis=1)))
    return Field(front.astype(np.float64), middle.astype(np.float64), back.astype(np.float64), scoop)


def blend(a: Field, b: Field, weight: float) -> Field:
    """``(1 - weight) * a + weight * b``."""
    mix = [(1 - weight) * x + weight * y for x, y in zip(a.rows(), b.rows())]
    return Field(mix[0], mix[1], mix[2], (1 - weight) * a.scoop + weight * b.scoop)


def distance(a: Field, b: Field) -> float:
    """Largest total-variation distance between the two fields' rows."""
    return max(0.5 * float(np.abs(x - y).sum()) for x, y in zip(a.rows(), b.rows()))


def _solve_chunk(args: tuple[Field, Rules, int, IntArray]) -> IntArray:
    field, rules, players, hands = args
    model = make_model(field, rules, players)
    arrangements, _ = _core.solve_batch(model, hands)
    return np.asarray(arrangements)


def best_response(field: Field, rules: Rules, players: int, hands: IntArray, pool: Any, chunks: int) -> IntArray:
    """Every sampled hand solved against ``field`` (in parallel chunks)."""
    parts = np.array_split(hands, chunks)
    jobs = [(field, rules, players, np.ascontiguousarray(p)) for p in parts]
    results = pool.map(_solve_chunk, jobs) if pool is not None else [_solve_chunk(j) for j in jobs]
    return np.concatenate(results)


#: The default field is a population, not one strategy [choice]: this share of its
#: players set "strongest back first" and the rest play the best response to the whole
#: population.  Real tables hold naive players; tuning for none of them gives away chi
#: against them, while a quarter costs little against strong players (docs/benchmarks.md).
NAIVE_SHARE = FIELD_NAIVE_SHARE[DEFAULT_FIELD]
#: Each iteration moves the field this far toward the population's new response.
DAMPING = 0.5


def sample_seed(seed: int, preset: str, players: int) -> int:
    """The seed of one preset and table size's sample hands, derived reproducibly from the
    build's base seed."""
    return seed * 1000 + TABLE_SIZES.index(players) * 10 + sorted(PRESETS).index(preset)


def sample_hands(samples: int, seed: int) -> IntArray:
    """The sample hands :func:`build_field` solves, dealt from ``seed``."""
    return deal_hands(samples, np.random.default_rng(seed))


def build_field(
    rules: Rules,
    players: int,
    samples: int,
    seed: int,
    pool: Any = None,
    chunks: int = 1,
    max_iter: int = 12,
    tol: float = 0.01,
    progress: Any = None,
    naive_share: float = NAIVE_SHARE,
) -> tuple[Field, list[float]]:
    """Iterated best response from "strongest back first"; returns the field and the
    distance moved at each iteration.

    Each iteration solves every sampled hand against the current field, mixes those
    answers with the naive ones (``naive_share`` of the population) and moves the field
    half way (:data:`DAMPING`) toward that mix, until it moves less than ``tol``.  With
    ``naive_share=0`` this converges toward an equilibrium of the solver with itself;
    with ``naive_share=1`` the field is the naive one (no iteration).
    """
    if not 0.0 <= naive_share <= 1.0:
        raise ValueError(f"naive_share must be in [0, 1], got {naive_share}")
    hands = sample_hands(samples, seed)
    naive = field_of(_core.strongest_back_first(hands, rules.wheel == "second"), rules)
    field = naive
    moves: list[float] = []
    if naive_share == 1.0:
        return field, moves
    for it in range(1, max_iter + 1):
        response = field_of(best_response(field, rules, players, hands, pool, chunks), rules)
        new = blend(field, blend(response, naive, naive_share), DAMPING)
        moves.append(distance(field, new))
        field = new
        if progress is not None:
            progress(it, moves[-1])
        if moves[-1] < tol:
            break
    return field, moves


def build_all(
    samples: int,
    seed: int,
    jobs: int,
    presets: list[str],
    out_dir: Path = DATA_DIR,
    max_iter: int = 12,
    tol: float = 0.01,
    fields: tuple[str, ...] = FIELDS,
) -> None:
    """Build and save the tables of every preset, field and table size, and record each
    file in the manifest of ``out_dir`` (its play entry then plays that file)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs) as pool:
        for preset, field_name in ((p, f) for f in fields for p in presets):
            began = time.perf_counter()
            rules = PRESETS[preset]
            naive_share = FIELD_NAIVE_SHARE[field_name]
            arrays: dict[str, Any] = {}
            for players in TABLE_SIZES:
                label = f"{preset} {field_name} {players}p"

                def progress(it: int, move: float, label: str = label) -> None:
                    elapsed = time.perf_counter() - start
                    bar = "#" * it + "." * (max_iter - it)
                    print(
                        f"\r{label:>28} [{bar}] iter {it:2d} move {move:.4f}  {elapsed:6.1f}s",
                        end="",
                        file=sys.stderr,
                        flush=True,
                    )

                field, moves = build_field(
                    rules,
                    players,
                    samples,
                    sample_seed(seed, preset, players),
                    pool,
                    jobs * 4,
                    max_iter=max_iter,
                    tol=tol,
                    progress=progress,
                    naive_share=naive_share,
                )
                print(file=sys.stderr)
                arrays[f"front_{players}"] = field.front
                arrays[f"middle_{players}"] = field.middle
                arrays[f"back_{players}"] = field.back
                arrays[f"scoop_{players}"] = np.float64(field.scoop)
                arrays[f"moves_{players}"] = np.asarray(moves)
            arrays["samples"] = np.int64(samples)
            arrays["seed"] = np.int64(seed)
            arrays["naive_share"] = np.float64(naive_share)
            name = table_name(preset, field_name)
            np.savez_compressed(out_dir / name, **arrays)
            record = {"build": "tables", "command": "python -m solver.training.tables build", "samples": samples,
                      "seed": seed, "max_iter": max_iter, "tol": tol, "naive_share": naive_share,
                      "sample_seeds": {str(p): sample_seed(seed, preset, p) for p in TABLE_SIZES},
                      "moves": manifest.per_size(arrays, "moves"),
                      "took": f"{time.perf_counter() - began:.0f} s on {jobs} processes"}  # fmt: skip
            book = manifest.load(out_dir)
            manifest.record_file(book, out_dir, name, "field", preset, field_name, [record])
            manifest.set_play(book, preset, field_name, tables=name)
            manifest.save(out_dir, book)
    took = time.perf_counter() - start
    print(f"built {len(presets)} preset(s) x {len(fields)} field(s) in {took:.1f}s", file=sys.stderr)


def unwritable(directory: Path) -> str | None:
    """Why a build cannot write its files into ``directory`` (made if missing), else None:
    checked before a build of minutes starts, not when it saves."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"--out {directory}: cannot make that directory ({error.strerror})"
    if not os.access(directory, os.W_OK | os.X_OK):
        return f"--out {directory}: cannot write there (permission denied)"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.training.tables", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the EV tables by iterated best response")
    b.add_argument("--samples", type=int, default=40000, help="hands sampled per table (default 40000)")
    b.add_argument("--seed", type=int, default=2026)
    b.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    b.add_argument("--presets", nargs="*", default=sorted(PRESETS), choices=sorted(PRESETS))
    b.add_argument("--out", type=Path, default=DATA_DIR)
    b.add_argument("--max-iter", type=int, default=12, help="best-response iterations at most (default 12)")
    b.add_argument("--tol", type=float, default=0.01, help="stop when the field moves less than this (default 0.01)")
    b.add_argument("--fields", nargs="*", default=list(FIELDS), choices=FIELDS, help="fields to build (default all)")
    args = parser.parse_args(argv)
    if problem := unwritable(args.out):
        parser.error(problem)
    build_all(
        args.samples, args.seed, max(1, args.jobs), args.presets, args.out, args.max_iter, args.tol, tuple(args.fields)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
