"""Re-ranking fast mode's best sets (issue 28): the weights and their build.

Fast mode's objective scores a set from tables of row classes: each row's chances against
the field, the sweep chances as a power of their product, and the card removal of my hand
as a correction of each row's value.  Under vietnamese at 4 players that left 0.025 chi a
hand to the oracle, yet the oracle's favourite among the objective's 8 best sets leaves
only 0.0024: the best set is in the list, the objective ranks it wrong, most of all in
strong hands whose sweep chances it overcounts (docs/benchmarks.md).

So the search lists the objective's :data:`~solver.tables.RERANKED` best sets, adds each
one's correction (its :data:`~solver.tables.RERANK_FEATURES` features, computed in the
core, times the weights) and plays the best after that (``_rerank`` in the core).  This
build learns the weights for a field and table size:

* :data:`HANDS` seeded hands; for each, the 8 best sets of the model without re-ranking
  (the shipped tables, correction and hand terms) and their features;
* each set's mean chi over :data:`DEALS` opponent deals (the same deals for every set),
  opponents setting their hands as the field does and settled exactly, as deep mode
  settles them (:func:`solver.deep.settle_sums`);
* weights that rank each hand's sets as the deals do: a pairwise logistic loss on the
  corrected objective's differences, each pair weighed by the chi between the two sets'
  means (a swap of two sets a hair apart costs nothing), with a ridge penalty, by
  Newton's method (convex, so the weights do not depend on a starting point).  The
  penalty is the one of :data:`RIDGES` whose weights, fitted on two thirds of the hands,
  play best on the third left out (:data:`FOLDS` ways round).

Then the margin: the furthest below the objective's best that a set the weights pick lies,
over the training hands.  Searching for the best set alone, the core lists only sets
within it of the objective's best, which prunes far more than listing the 8 best does.

It writes the weights and the margin into the field's removal file (``rerank_<players>``,
``rerank_margin_<players>``), records the build in the manifest and sets the play entry's
``rerank`` table sizes::

    python -m solver.training.rerank build --preset vietnamese --field strong

Run it after the self-play rounds (they rewrite the removal file's corrections; the
weights are learned on top of them).  Seeded, so it replays exactly.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import _core
from ..cards import Card
from ..context import Table
from ..deep import settle_sums
from ..fields import FIELDS
from ..rules import PRESETS, Rules
from ..tables import (
    DATA_DIR,
    MANIFEST,
    RERANKED,
    TABLE_SIZES,
    FloatArray,
    plays_of,
    read_model,
    removal_name,
)
from . import manifest
from .pools import EXECUTORS, check_executor, open_pool

#: Training hands by table size [measured]: vietnamese, 4 players, strong field, on the
#: 400 hands of benchmarks/solver_regret.py, weights fitted on 40 training hands already
#: cut fast mode's regret from 0.0252 to about 0.017, on 3,000 to 0.0120.  Heads-up the
#: gain is small (0.0067 to 0.0061 on 3,000 hands, 0.0060 on 9,000), and a heads-up hand
#: costs a third of a 4-player one, so it gets more.
HANDS = {2: 9000, 3: 3000, 4: 3000}
#: Opponent deals per training hand: the regret benchmark's own number.
DEALS = 2000
SEED = 2028
#: The pairwise loss's scale (chi): a pair of sets whose corrected objectives differ by
#: much more than this is ranked, by much less is a coin flip.
TEMPERATURE = 0.05
#: The ridge penalties on the standardised weights the build chooses from [measured:
#: vietnamese strong, cross-validated, 2 players liked 1 best and 4 players 0.001].
RIDGES = (0.001, 0.01, 0.1, 1.0)
FOLDS = 3
NEWTON_STEPS = 50
#: Whom the training hands' sets are valued against (``--against``).
AGAINST = ("field", "mixture")


@dataclass(frozen=True)
class Job:
    """A chunk of training hands, self-contained (see :mod:`solver.training.pools`)."""

    rules: Rules
    players: int
    field: str
    data: Path  # the data directory whose tables, correction and hand terms are re-ranked
    hands: tuple[int, ...]
    deals: int
    seed: int
    mixture: bool = False  # opponents by solver.fields.MIXTURE, not as the field plays


@dataclass(frozen=True)
class Sample:
    """One training hand: its sets' features (k, RERANK_FEATURES), the objective of each
    without re-ranking (k,) and its mean chi on the hand's deals (k,)."""

    features: FloatArray
    objective: FloatArray
    means: FloatArray


def deal_hand(seed: int, players: int, hand: int) -> list[int]:
    """Training hand ``hand``: 13 codes, sorted."""
    return sorted(int(c) for c in np.random.default_rng([seed, players, hand]).permutation(52)[:13])


def sample_hands(job: Job) -> list[Sample]:
    """The job's training hands (a hand with fewer than two valid sets teaches nothing)."""
    # the model the weights re-rank: the field's tables, correction and hand terms
    model = read_model(job.data, job.rules, job.players, job.field, rerank=False)
    table = Table(job.rules, job.players, job.field)
    out = []
    for hand in job.hands:
        codes = deal_hand(job.seed, job.players, hand)
        top = _core.solve_hand(model, codes, RERANKED)
        if len(top) < 2:
            continue
        sets = np.asarray([[*f, *m, *b] for f, m, b, _ in top], dtype=np.int32)
        cards = [Card(c) for c in codes]
        deal_seed = int(np.random.default_rng([job.seed, job.players, hand, 1]).integers(2**62))
        totals, _ = settle_sums(cards, sets, np.full(len(sets), -1, dtype=np.int32), table, deal_seed, job.deals,
                                model=model, mixture=job.mixture)  # fmt: skip
        out.append(Sample(_core.rerank_features(model, sets), np.asarray([ev for *_, ev in top]),
                          np.asarray(totals, dtype=np.float64) / job.deals))  # fmt: skip
    return out


def pairs(samples: list[Sample]) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Every hand's pairs of sets (i before j): feature differences, objective differences
    and mean differences."""
    features, objective, means = [], [], []
    for s in samples:
        i, j = np.triu_indices(len(s.means), 1)
        features.append(s.features[i] - s.features[j])
        objective.append(s.objective[i] - s.objective[j])
        means.append(s.means[i] - s.means[j])
    return np.concatenate(features), np.concatenate(objective), np.concatenate(means)


def fit(samples: list[Sample], ridge: float, temperature: float = TEMPERATURE) -> FloatArray:
    """Weights w minimising, over the hands' pairs of sets, the pairwise logistic loss of
    the corrected objectives' difference (objective + features @ w), each pair weighed by
    the difference of its means, plus ``ridge`` times the squared standardised weights."""
    dx, dobj, dmean = pairs(samples)
    scale = dx.std(axis=0)
    scale[scale == 0] = 1.0
    x = dx / scale
    sign, weight = np.sign(dmean), np.abs(dmean)
    hands = len(samples)

    def loss(w: FloatArray) -> float:
        margin = sign * (dobj + x @ w) / temperature
        return float((weight * np.logaddexp(0.0, -margin)).sum() / hands + ridge * (w @ w))

    w = np.zeros(x.shape[1])
    current = loss(w)
    for _ in range(NEWTON_STEPS):
        margin = sign * (dobj + x @ w) / temperature
        slip = 0.5 * (1.0 - np.tanh(0.5 * margin))  # 1 / (1 + exp(margin)), without overflow
        grad = x.T @ (-weight * sign * slip / temperature) / hands + 2 * ridge * w
        curve = weight * slip * (1.0 - slip) / temperature**2
        hess = (x * curve[:, None]).T @ x / hands + 2 * ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        t = 1.0
        trial = loss(w - step)
        while t > 1e-6 and trial > current:
            t *= 0.5
            trial = loss(w - t * step)
        w, previous, current = w - t * step, current, trial
        if previous - current < 1e-12:
            break
    return np.asarray(w / scale, dtype=np.float64)


def played(sample: Sample, weights: FloatArray | None) -> int:
    """The set played of a hand's list: the objective's best, re-ranked with ``weights`` when given."""
    score = sample.objective if weights is None else sample.objective + sample.features @ weights
    return int(np.argmax(score))


def margin(samples: list[Sample], weights: FloatArray) -> float:
    """How far below the objective's best the set the weights pick lies, at most over the
    hands (a small positive floor when every pick is the objective's best)."""
    gaps = [s.objective.max() - s.objective[played(s, weights)] for s in samples]
    return max(float(max(gaps)), 1e-6)


def regret_in_list(samples: list[Sample], weights: FloatArray | None) -> float:
    """Mean chi a hand between each hand's best set by its means and the one played (by the
    objective, re-ranked with ``weights`` when given): the in-list part of the regret."""
    return float(np.mean([s.means.max() - s.means[played(s, weights)] for s in samples]))


def cross_validated(samples: list[Sample], ridge: float) -> float:
    """The in-list regret of weights fitted with ``ridge`` on the hands outside each of
    :data:`FOLDS` folds, played on the fold's hands (every hand is played once)."""
    lost = 0.0
    for k in range(FOLDS):
        test = samples[k::FOLDS]
        weights = fit([s for i, s in enumerate(samples) if i % FOLDS != k], ridge)
        lost += regret_in_list(test, weights) * len(test)
    return lost / len(samples)


def build(preset: str, field: str, sizes: list[int], out: Path, hands: dict[int, int], deals: int, seed: int,
          jobs: int, executor: str, against: str = "field") -> None:  # fmt: skip
    """Learn the weights for each table size in ``sizes`` from ``hands[size]`` training
    hands and write them (see the module)."""
    rules = PRESETS[preset]
    removal_path = out / removal_name(preset, field)
    chunk = 50
    weights: dict[str, FloatArray] = {}
    figures = {}
    began = time.perf_counter()
    for players in sizes:
        start = time.perf_counter()
        count = hands[players]
        work = [Job(rules, players, field, out, tuple(range(lo, min(lo + chunk, count))), deals, seed,
                    against == "mixture") for lo in range(0, count, chunk)]  # fmt: skip
        with open_pool(executor, jobs) as pool:
            samples = [s for part in pool.map(sample_hands, work) for s in part]
        scores = {ridge: cross_validated(samples, ridge) for ridge in RIDGES}
        ridge = min(RIDGES, key=lambda r: scores[r])
        weights[f"rerank_{players}"] = fit(samples, ridge)
        weights[f"rerank_margin_{players}"] = np.asarray(margin(samples, weights[f"rerank_{players}"]))
        figures[str(players)] = {
            "hands": len(samples),
            "in_list_regret_before": round(regret_in_list(samples, None), 5),
            "in_list_regret_cross_validated": {str(r): round(v, 5) for r, v in scores.items()},
            "ridge": ridge,
            "margin": round(float(weights[f"rerank_margin_{players}"]), 4),
            "seconds": round(time.perf_counter() - start, 1),
        }
        print(f"{preset} {field} {players} players: {figures[str(players)]}", flush=True)
    with np.load(removal_path) as data:
        arrays = {name: data[name] for name in data.files if name not in weights}
    arrays.update(weights)
    np.savez_compressed(removal_path, **arrays)
    record = manifest.load(out)
    name = removal_path.name
    took = f"{time.perf_counter() - began:,.0f} s, {jobs} processes ({', '.join(map(str, sizes))} players)"
    before = [b for b in manifest.builds_of(record, name) if b["build"] == "rerank"]
    # (named rerank_*: the removal build's own records name its arrays hands and seed)
    earlier = before[-1] if before else {"rerank_hands": {}, "figures": {}}  # sizes not rebuilt now stay
    builds = [b for b in manifest.builds_of(record, name) if b["build"] != "rerank"]
    sizes_hands = {**earlier["rerank_hands"], **{str(p): hands[p] for p in sizes}}
    builds.append({"build": "rerank", "command": f"python -m solver.training.rerank build --preset {preset} --field "
                   f"{field} --against {against}", "rerank_deals": deals, "rerank_seed": seed,
                   "temperature": TEMPERATURE, "took": took,
                   "rerank_hands": dict(sorted(sizes_hands.items())),
                   "figures": dict(sorted({**earlier["figures"], **figures}.items()))})  # fmt: skip
    manifest.record_file(record, out, name, "removal", preset, field, builds)
    entry = next(e for e in record["play"] if (e["preset"], e["field"]) == (preset, field))
    manifest.set_play(record, preset, field, rerank=sorted(set(entry.get("rerank", [])) | set(sizes)))
    manifest.save(out, record)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.training.rerank", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="learn the re-ranking weights of one preset and field")
    b.add_argument("--preset", default="vietnamese", choices=sorted(PRESETS))
    b.add_argument("--field", default="strong", choices=FIELDS)
    b.add_argument("--sizes", nargs="*", type=int, default=list(TABLE_SIZES), choices=TABLE_SIZES)
    b.add_argument("--hands", type=int, help="training hands per table size (default: "
                   + ", ".join(f"{n:,} at {p} players" for p, n in HANDS.items()) + ")")
    b.add_argument("--deals", type=int, default=DEALS, help=f"opponent deals per hand (default {DEALS})")
    b.add_argument("--seed", type=int, default=SEED)
    b.add_argument("--against", default="field", choices=AGAINST,
                   help="whom each training hand's sets are valued against: 'field' (as the field plays, "
                   "default) or 'mixture' (each opponent by one policy of solver.fields.MIXTURE)")  # fmt: skip
    b.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    b.add_argument("--out", type=Path, default=DATA_DIR, help="the data directory (its removal file is rewritten)")
    b.add_argument("--executor", default="local",
                   help=f"where the work runs: {', '.join(EXECUTORS)} (default local: --jobs processes)")  # fmt: skip
    args = parser.parse_args(argv)
    if (args.hands is not None and args.hands < 30) or args.deals < 100:
        parser.error("--hands must be at least 30 and --deals at least 100")
    if problem := check_executor(args.executor):
        parser.error(problem)
    removal = args.out / removal_name(args.preset, args.field)
    if not removal.exists():
        parser.error(f"{removal} is missing; build it with `python -m solver.training.removal build` first")
    if (args.preset, args.field) not in plays_of(manifest.load(args.out)):
        parser.error(f"{args.out / MANIFEST} has no play entry for {args.preset} {args.field}")
    hands = HANDS if args.hands is None else {p: args.hands for p in TABLE_SIZES}
    build(args.preset, args.field, sorted(set(args.sizes)), args.out, hands, args.deals, args.seed, max(1, args.jobs),
          args.executor, args.against)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
