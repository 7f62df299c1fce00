"""Two builds of the compiled core timed side by side in one process.

On a shared machine two runs minutes apart differ by more than most core changes, so a
change is judged against the previous build loaded next to it: both solve the same
hands in alternating batches, each batch timed per hand inside the C loop, and the
medians over batches are compared.  The EVs of the two builds are compared too (a
speed change must not change them).

    cp solver/_core.cpython-*.so /tmp/old_core.so     # before the change
    ...edit solver/_core.pyx, python setup.py build_ext --inplace...
    python benchmarks/core_side_by_side.py /tmp/old_core.so [--rules vietnamese] [--players 4]

``--removal`` times this build on the shipped model (card-removal corrections included,
see solver.training.removal) against the same build on the field tables alone: the corrections
change the values the search prunes with, so this is how their cost is measured.

    python benchmarks/core_side_by_side.py --removal [--field strong]

``--hand-terms`` times this build on the shipped model (hand terms included) against the
same build with the per-tag corrections alone: the cost of the hand terms (solver.training.removal)
where a table ships them.

    python benchmarks/core_side_by_side.py --hand-terms --rules four-two --players 2 --field strong

``--rerank`` times this build on the shipped model (re-ranking its 8 best sets, see
solver.training.rerank) against the same build without the re-ranking: its cost where a
table ships it.

    python benchmarks/core_side_by_side.py --rerank --field strong

``--both-hand-terms`` with the other build's path times the two builds both playing the
hand terms (a change to how the search handles them).

    python benchmarks/core_side_by_side.py /tmp/old_core.so --both-hand-terms --rules four-two --field strong

``--both-rerank`` with the other build's path: both re-rank their 8 best sets (add
``--both-hand-terms`` for the model a table ships with both).

    python benchmarks/core_side_by_side.py /tmp/old_core.so --both-hand-terms --both-rerank --field strong

``--against-per-tag`` with the other build's path: this build plays the model the table
ships (hand terms and re-ranking where it has them), the other the per-tag corrections
alone: issue 28's speed budget (the shipped strong field against the per-tag solver).

    python benchmarks/core_side_by_side.py /tmp/old_core.so --against-per-tag --field strong
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's solver

from solver import _core
from solver.fields import FIELDS
from solver.rules import PRESETS
from solver.tables import get_field, get_hand_weights, get_removal, get_rerank, make_model


def load_build(path: str) -> ModuleType:
    """Another build of solver._core, loaded beside the one in use (a copy of the file
    has its own static tables, so the two do not interfere)."""
    spec = importlib.util.spec_from_file_location("solver._core", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load a compiled core from {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_model(
    core: ModuleType,
    preset: str,
    players: int,
    field_name: str,
    corrected: bool,
    hand_terms: bool = False,
    rerank: bool = False,
) -> object:
    """The model of ``preset`` at ``players`` built by ``core``'s own Model class, with the
    field's card-removal corrections if ``corrected`` (and the field has them), its hand
    terms too if ``hand_terms``, and its re-ranking weights if ``rerank``."""
    rules = PRESETS[preset]
    removal = get_removal(rules, players, field_name) if corrected else None
    weights = get_hand_weights(rules, players, field_name) if hand_terms else None
    reranking = get_rerank(rules, players, field_name) if rerank else None
    return make_model(get_field(rules, players, field_name), rules, players, removal, model_class=core.Model,
                      hand_weights=weights, rerank=reranking)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("other", nargs="?", help="path of the other build (a copy of solver/_core.*.so)")
    parser.add_argument("--removal", action="store_true",
                        help="instead: this build with the card-removal corrections (this) and without (other)")
    parser.add_argument("--hand-terms", action="store_true",
                        help="instead: this build with the hand terms (this) and with the per-tag corrections alone")
    parser.add_argument("--rerank", action="store_true",
                        help="instead: this build re-ranking its 8 best sets (this) and playing the objective's best")
    parser.add_argument("--both-hand-terms", action="store_true",
                        help="with the other build: both play the field's hand terms (default: neither)")
    parser.add_argument("--both-rerank", action="store_true",
                        help="with the other build: both re-rank their 8 best sets (default: neither)")
    parser.add_argument("--against-per-tag", action="store_true",
                        help="with the other build: this plays the shipped model, the other per-tag corrections alone")
    parser.add_argument("--field", default="population", choices=FIELDS)
    parser.add_argument("--rules", default="vietnamese", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--batches", type=int, default=9)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    same_build = args.removal or args.hand_terms or args.rerank
    if args.removal + args.hand_terms + args.rerank > 1 or same_build == (args.other is not None):
        parser.error("give the other build's path, or one of --removal, --hand-terms, --rerank")
    if (args.both_hand_terms or args.both_rerank or args.against_per_tag) and same_build:
        parser.error("--both-hand-terms, --both-rerank and --against-per-tag compare two builds: "
                     "give the other build's path")  # fmt: skip
    if args.against_per_tag and (args.both_hand_terms or args.both_rerank):
        parser.error("--against-per-tag sets what each build plays: leave out --both-hand-terms and --both-rerank")
    if (args.hand_terms or args.both_hand_terms) and get_hand_weights(PRESETS[args.rules], args.players,
                                                                       args.field) is None:  # fmt: skip
        parser.error(f"{args.rules} at {args.players} players against the {args.field} field plays no hand terms")
    if (args.rerank or args.both_rerank) and get_rerank(PRESETS[args.rules], args.players, args.field) is None:
        parser.error(f"{args.rules} at {args.players} players against the {args.field} field re-ranks nothing")
    builds = {"other": _core if same_build else load_build(args.other), "this": _core}
    corrected = {"this": True, "other": not args.removal}
    shipped = args.rerank or args.against_per_tag  # this build plays the model the table ships
    shipped_terms = shipped and get_hand_weights(PRESETS[args.rules], args.players, args.field) is not None
    with_terms = {"this": args.hand_terms or args.both_hand_terms or shipped_terms,
                  "other": args.both_hand_terms or (shipped_terms and not args.against_per_tag)}  # fmt: skip
    models = {
        name: build_model(core, args.rules, args.players, args.field, corrected[name], with_terms[name],
                          rerank=args.both_rerank or (shipped and name == "this"))
        for name, core in builds.items()
    }
    rng = random.Random(args.seed)
    hands = np.asarray([rng.sample(range(52), 13) for _ in range(args.hands)], dtype=np.int32)
    answers = {name: builds[name].solve_batch(models[name], hands) for name in builds}
    same_ev = np.array_equal(answers["other"][1], answers["this"][1])
    same_sets = int(np.sum(np.any(answers["other"][0] != answers["this"][0], axis=1)))
    times: dict[str, dict[str, list[float]]] = {name: {"batch": [], "median": [], "p90": []} for name in builds}
    for k in range(args.batches):
        for name in ("other", "this") if k % 2 == 0 else ("this", "other"):
            seconds = np.empty(len(hands))
            start = time.perf_counter()
            builds[name].solve_batch(models[name], hands, seconds)
            times[name]["batch"].append(time.perf_counter() - start)
            times[name]["median"].append(float(np.median(seconds)))
            times[name]["p90"].append(float(np.percentile(seconds, 90)))
    print(f"{args.rules}, {args.players} players, field {args.field}, {args.hands:,} hands, "
          f"{args.batches} alternating batches")  # fmt: skip
    if args.removal:
        print(f"  this = with card-removal corrections, other = without; sets that differ: {same_sets}")
    elif args.hand_terms:
        print(f"  this = with hand terms, other = per-tag corrections alone; sets that differ: {same_sets}")
    elif args.rerank:
        print(f"  this = re-ranking its 8 best sets, other = playing the objective's best; sets that differ: "
              f"{same_sets}")  # fmt: skip
    elif args.against_per_tag:
        print(f"  this = the shipped model, other (its build) = the per-tag corrections alone; sets that differ: "
              f"{same_sets}")  # fmt: skip
    else:
        print(f"  EVs identical: {same_ev}; sets that differ (equal-EV ties): {same_sets}")
    for measure in ("batch", "median", "p90"):
        other = statistics.median(times["other"][measure]) * 1e6
        this = statistics.median(times["this"][measure]) * 1e6
        ratios = [t / o for t, o in zip(times["this"][measure], times["other"][measure])]
        if measure == "batch":  # the batch's wall time per hand
            other, this = other / args.hands, this / args.hands
        ratio = statistics.median(ratios)
        print(f"  {measure:>6}: other {other:7.1f} µs  this {this:7.1f} µs per hand; this/other {ratio:.3f}")
    return 0 if same_ev or same_build or args.against_per_tag else 1


if __name__ == "__main__":
    sys.exit(main())
