"""Regret of the solver against a Monte Carlo oracle (issue 12).

For each seeded test hand the candidates are every valid arrangement on the hand's
Pareto front (one per triple of row strengths that no other valid arrangement matches
or beats in all three rows: a row's chi never falls as its strength rises, so the best
valid split is always on the front) plus each tested solver's answer.  Every candidate
is scored on the same ``--deals`` opponent deals drawn from the 39 unseen cards (common
random numbers), the opponents set by ``--opponents``: ``sbf`` (strongest back first),
``fast`` (the fast solver with the ``--opp-field`` tables) or ``field`` (as that field
plays: its naive share strongest back first, the others by its fast solver, as deep mode
deals them; the population field's table of a quarter of beginners).  Each deal is settled
exactly as :func:`solver.scoring.score_table` settles it, seat 0 being mine (bonuses,
scoops, sập làng with the opponents' scoops of each other, fouls, specials, aces), but
for all candidates and deals at once in numpy (:func:`settle_seat0`; a test compares it
with ``score_table`` on random deals).

Reported per preset, table size and tested mode: the regret (the oracle's best mean
minus the answer's mean, chi per hand) with a 95 % confidence interval across hands;
the held-out regret (best picked on half of the deals, both measured on the other half,
averaged over both halves: the plain regret is biased up by picking the largest of
noisy means, this one slightly down); and the share of hands where the answer is the
oracle's best.

Modes: ``fast`` and ``deep`` (the solver with ``--field``), ``deep-2se`` (deep mode's
rule before issue 28: 600 deals, the fast choice kept unless beaten by two paired
standard errors), ``deep-2r`` (its rule from issue 28 to issue 42: a second round of 500
further deals while the contest is still close, up to 1,600 deals), ``deep-1r`` (one round
of 500 at every table, before deep mode drew more at tables of Beginners), ``sbf`` and ``alt`` (the fast
solver with the tables in ``--alt-tables DIR``, same file names as ``solver/data``, with
the card-removal corrections there if the directory has them), and ``bank``: fast mode's 8 best sets re-ranked by
their card-aware values (:func:`solver.training.removal.card_aware_values`) against a bank of
``--bank`` seeded hands set as the field sets them, of which only those holding none of
my 13 cards count (about 1.3 %), each settled with me one on one.  The corrections
fast mode ships are learned from such values; ``bank`` shows what valuing each hand's
sets that way would add (see :func:`bank_answer`).
With ``--lineup`` deep mode is told who sits in each opponent seat (``Table(lineup=...)``:
a Beginner's sampled hands set strongest back first, a Club's or Expert's by the field's
fast solver), as the Play page's Expert is; fast mode reads it only as ``solve`` does
(told that every seat sets strongest back first, it plays the beginners field).  ``--opponents
lineup`` seats those players: each opponent seat plays as the lineup names it.
With ``--floor-deals N`` a ``floor`` row is added: the regret of the set that is best on N
further deals of the hand, measured on the same ``--deals`` as the modes.  With N large
that set is (nearly) the true best, so the row is what a perfect solver would score: the
part of every mode's regret that is the oracle's own noise.
Every hand and every deal has its own seed (from ``--seed`` and the hand's number), so
``--jobs`` does not change any figure.

    python benchmarks/solver_regret.py --hands 100 --deals 2000 --jobs 2
    python benchmarks/solver_regret.py --presets four-two --players 2 --modes fast sbf
    python benchmarks/solver_regret.py --presets four-two --players 2 --floor-deals 16000
    python benchmarks/solver_regret.py --presets vietnamese --players 4 --modes deep --field population \
        --opponents lineup --lineup beginner club club
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path

import numpy as np

from solver import _core
from solver.cards import Card
from solver.context import Table
from solver.deep import refine, seat_computers, seat_shares, set_mixture, set_opponents
from solver.fields import FIELDS, MIXTURE, NAIVE_SHARE, SEATS
from solver.rules import PRESETS, SPECIAL_NAMES, Rules
from solver.strategy import solve
from solver.tables import get_field, get_model, read_model
from solver.training.removal import CANDIDATES, Bank, card_aware_values, plain_bank
from solver.training.rowsettle import rows_net, valid_rows, win_values
from solver.training.tables import row_keys

MODES = ("fast", "deep", "deep-2se", "deep-2r", "deep-1r", "sbf", "alt", "bank")

# --- the Pareto front ------------------------------------------------------------------

FIVES = list(combinations(range(13), 5))
THREES = list(combinations(range(13), 3))


def _split_index() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For all 72,072 splits of 13 positions: indexes into FIVES (back, middle) and THREES (front)."""
    five = {s: i for i, s in enumerate(FIVES)}
    three: dict[tuple[int, ...], int] = {s: i for i, s in enumerate(THREES)}
    backs, middles, fronts = [], [], []
    for b in FIVES:
        rest = [i for i in range(13) if i not in b]
        for m in combinations(rest, 5):
            backs.append(five[b])
            middles.append(five[m])
            fronts.append(three[tuple(i for i in rest if i not in m)])
    return np.asarray(fronts), np.asarray(middles), np.asarray(backs)


SPLIT_FRONT, SPLIT_MIDDLE, SPLIT_BACK = _split_index()


def pareto_front(codes: list[int], rules: Rules) -> np.ndarray:
    """(K, 3) int64 key triples (front, middle, back) of the valid splits on the Pareto front."""
    wheel = rules.wheel == "second"
    k5 = np.asarray([_core.key5([codes[i] for i in s], wheel) for s in FIVES], dtype=np.int64)
    k3 = np.asarray([_core.key3([codes[i] for i in s]) for s in THREES], dtype=np.int64)
    kf, km, kb = k3[SPLIT_FRONT], k5[SPLIT_MIDDLE], k5[SPLIT_BACK]
    ok = (kb > km) & (km > kf) if rules.strict else (kb >= km) & (km >= kf)
    triples = np.unique(np.stack([kf[ok], km[ok], kb[ok]], axis=1), axis=0)
    if len(triples) == 0:
        return triples
    # for each (middle, back) only the strongest front can be on the front
    order = np.lexsort((triples[:, 0], triples[:, 1], triples[:, 2]))
    t = triples[order]
    last = np.ones(len(t), dtype=bool)
    last[:-1] = np.any(t[1:, 1:] != t[:-1, 1:], axis=1)
    t = t[last]
    keep = np.ones(len(t), dtype=bool)
    for lo in range(0, len(t), 256):
        block = t[lo : lo + 256]
        ge = np.all(t[None, :, :] >= block[:, None, :], axis=2)
        ge[np.arange(len(block)), lo + np.arange(len(block))] = False
        keep[lo : lo + len(block)] = ~ge.any(axis=1)
    return t[keep]


# --- exact settlement, vectorised ---------------------------------------------------------


@dataclass(frozen=True)
class Seats:
    """What settlement needs of a set of seats (any leading shape): row keys (..., 3),
    the special's value (0: none), whether the seat holds a special, fouled, aces held."""

    keys: np.ndarray
    special: np.ndarray
    value: np.ndarray
    foul: np.ndarray
    aces: np.ndarray


def special_values(rules: Rules) -> list[int]:
    return [rules.special_value(name) if rules.specials else 0 for name in SPECIAL_NAMES]


def seats_of(arrangements: np.ndarray, rules: Rules) -> Seats:
    """Seats of (..., 13) arrangements laid out front 3 | middle 5 | back 5."""
    if rules.special_detection != "auto":
        raise SystemExit("the oracle settles specials detected from the cards (special_detection='auto') only")
    shape = arrangements.shape[:-1]
    flat = np.ascontiguousarray(arrangements.reshape(-1, 13), dtype=np.int32)
    keys = row_keys(flat, rules)
    values = special_values(rules)
    index = _core.special_indexes(flat, values, rules.six_pairs_rule == "strict", rules.ace_low_runs)
    special = (index >= 0) & rules.specials
    value = np.where(special, np.asarray(values)[np.maximum(index, 0)], 0)
    return Seats(
        keys.reshape(*shape, 3),
        special.reshape(shape),
        value.reshape(shape),
        (~special & ~valid_rows(keys, rules)).reshape(shape),
        (flat >= 48).sum(axis=1).reshape(shape),
    )


def foul_payment(keys: np.ndarray, rules: Rules) -> np.ndarray:
    """What a fouled hand pays the valid hand holding ``keys`` (D11)."""
    if rules.foul_mode == "flat":
        return np.full(keys.shape[:-1], rules.foul_chi, dtype=np.int64)
    payment: np.ndarray = win_values(keys, rules).sum(axis=-1) * (2 if rules.foul_mode == "opponent_x2" else 1)
    return payment


def special_net(vi: np.ndarray, vj: np.ndarray, rules: Rules) -> np.ndarray:
    """Net for i when a special is involved (D12, O11)."""
    plain = np.where(vi > vj, vi, -vj)
    if rules.special_vs_special == "tie":
        both = np.zeros_like(plain)
    elif rules.special_vs_special == "difference":
        both = vi - vj
    else:
        both = plain
    return np.where(vi == vj, 0, np.where((vi > 0) & (vj > 0), both, plain))


def opponents_scoop(opp: Seats, rules: Rules) -> np.ndarray:
    """(..., n, n) whether opponent p scoops opponent q (no owner between them)."""
    kp, kq = opp.keys[..., :, None, :], opp.keys[..., None, :, :]
    rows = np.all(kp > kq, axis=-1)
    sp = opp.special[..., :, None] | opp.special[..., None, :]
    fp, fq = opp.foul[..., :, None], opp.foul[..., None, :]
    out: np.ndarray = np.where(fq & ~fp, rules.foul_sap_lang, rows & ~fp & ~fq) & ~sp
    n = opp.keys.shape[-2]
    out[..., np.arange(n), np.arange(n)] = False
    return out


def settle_seat0(me: Seats, opp: Seats, rules: Rules) -> np.ndarray:
    """(C, M) total chi of seat 0 holding each of C candidates (``me`` of shape (C,))
    against M deals of n opponents (``opp`` of shape (M, n)), as ``score_table``."""
    n = opp.keys.shape[1]
    net, scoop_me, scoop_them = rows_net(me.keys[:, None, None, :], opp.keys[None, :, :, :], rules)

    my_foul, their_foul = me.foul[:, None, None], opp.foul[None]
    only_mine, only_theirs = my_foul & ~their_foul, their_foul & ~my_foul
    net = np.where(my_foul & their_foul, 0, net)
    net = np.where(only_mine, -foul_payment(opp.keys, rules)[None], net)
    net = np.where(only_theirs, foul_payment(me.keys, rules)[:, None, None], net)
    scoop_me = np.where(only_theirs, rules.foul_sap_lang, scoop_me & ~my_foul & ~their_foul)
    scoop_them = np.where(only_mine, rules.foul_sap_lang, scoop_them & ~my_foul & ~their_foul)

    special = me.special[:, None, None] | opp.special[None]
    net = np.where(special, special_net(me.value[:, None, None], opp.value[None], rules), net)
    scoop_me &= ~special
    scoop_them &= ~special

    if rules.sap_lang and n + 1 >= max(3, rules.sap_lang_min_players):
        mine = (~me.special & ~me.foul)[:, None] & scoop_me.all(axis=-1)
        others = opponents_scoop(opp, rules)
        theirs_all = (~opp.special & ~opp.foul) & (others.sum(axis=-1) == n - 1)
        theirs = theirs_all[None] & scoop_them
        net = np.where(mine[..., None] | theirs, net * rules.sap_lang_mult, net)

    if rules.aces:
        table_max = np.maximum(me.aces[:, None], opp.aces.max(axis=-1)[None])
        counted = (table_max < 4)[..., None]
        if not rules.aces_all_pairs:
            counted = counted & ~special & ~my_foul & ~their_foul
        net = net + np.where(counted, me.aces[:, None, None] - opp.aces[None], 0)
    return np.asarray(net.sum(axis=-1))


# --- one hand ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    preset: str
    players: int
    deals: int
    seed: int
    modes: tuple[str, ...]
    opponents: str
    opp_field: str
    field: str
    alt_tables: Path | None
    bank: int = 50_000
    floor_deals: int = 0
    lineup: tuple[str, ...] | None = None  # who deep mode is told sits in each opponent seat


@cache
def alt_model(rules: Rules, players: int, field: str, directory: Path) -> _core.Model:
    return read_model(directory, rules, players, field)


def deal_hand(seed: int, hand: int) -> list[int]:
    return sorted(int(c) for c in np.random.default_rng([seed, hand]).permutation(52)[:13])


def deal_opponents(codes: list[int], players: int, deals: int, seed: int, hand: int, stream: int = 1) -> np.ndarray:
    """(deals, players - 1, 13) hands from the 39 unseen cards, one shuffle per deal
    (``stream`` 1: the measured deals; 2: the noise floor's own deals)."""
    rng = np.random.default_rng([seed, hand, players, stream])
    unseen = np.asarray(sorted(set(range(52)) - set(codes)), dtype=np.int32)
    order = np.argsort(rng.random((deals, 39)), axis=1)[:, : 13 * (players - 1)]
    return np.sort(unseen[order].reshape(deals, players - 1, 13), axis=2).astype(np.int32)


def set_hands(hands: np.ndarray, setup: Setup, rules: Rules, seed: Sequence[int] = ()) -> np.ndarray:
    """The opponents' arrangements of ``hands`` as ``setup.opponents`` sets them; with
    ``field``, each hand's naive chance drawn from ``seed`` (the deals' own seed) and the
    others set without the field's re-ranking, as deep mode sets its sampled opponents."""
    flat = np.ascontiguousarray(hands.reshape(-1, 13))
    if setup.opponents == "sbf":
        out = _core.strongest_back_first(flat, rules.wheel == "second")
    elif setup.opponents == "field":
        table = Table(rules, setup.players, setup.opp_field)
        out = set_opponents(flat, rules, setup.players, setup.opp_field, np.random.default_rng([*seed, 3]),
                            table.opponent_model)  # fmt: skip
    elif setup.opponents == "lineup":  # each seat as the lineup names it, as deep mode samples it
        assert setup.lineup is not None
        table = Table(rules, setup.players, setup.field, lineup=setup.lineup)
        out = set_opponents(flat, rules, setup.players, setup.field, np.random.default_rng([*seed, 5]),
                            table.opponent_model, seat_shares(table, len(hands)),
                            seat_computers(table, len(hands)))  # fmt: skip
    elif setup.opponents == "mix":
        out = set_mixture(flat, rules, setup.players, np.random.default_rng([*seed, 4]))
    else:
        out, _ = _core.solve_batch(get_model(rules, setup.players, setup.opp_field), flat)
    return np.asarray(out).reshape(hands.shape)


BANK_SEED = 777


@cache
def bank_of(rules: Rules, players: int, field: str, size: int) -> Bank:
    """The bank mode's seeded bank, built once per process."""
    return plain_bank(rules, players, field, size, BANK_SEED)


def bank_answer(codes: list[int], setup: Setup, rules: Rules) -> list[int]:
    """Fast mode's best sets re-ranked by their card-aware values against a bank of
    ``setup.bank`` hands (:func:`solver.training.removal.card_aware_values`: the bank hands that
    avoid my cards, each settled one on one; sập làng from the sampled sweep chances)."""
    model = get_model(rules, setup.players, setup.field)
    top = _core.solve_hand(model, codes, CANDIDATES)
    if not top:
        return answer("sbf", codes, setup, rules, 0)
    mine = np.asarray([[*f, *m, *b] for f, m, b, _ in top], dtype=np.int32)
    bank = bank_of(rules, setup.players, setup.field, setup.bank)
    scoop = get_field(rules, setup.players, setup.field).scoop
    value = card_aware_values(row_keys(mine, rules), codes, bank, rules, setup.players, scoop)
    return [int(c) for c in mine[int(np.argmax(value))]]


def answer(mode: str, codes: list[int], setup: Setup, rules: Rules, hand: int) -> list[int]:
    """The tested mode's arrangement of the hand (front 3 | middle 5 | back 5 codes)."""
    wheel = rules.wheel == "second"
    if mode == "bank":
        return bank_answer(codes, setup, rules)
    if mode == "deep":
        cards = [Card(c) for c in codes]
        table = Table(rules, setup.players, setup.field, lineup=setup.lineup)
        sol = solve(cards, mode="deep", seed=setup.seed * 100_003 + hand, table=table)
        return [c.code for c in sol.best.cards]
    if mode in ("deep-2se", "deep-2r", "deep-1r"):  # deep mode's earlier rules, on the same deals
        cards = [Card(c) for c in codes]
        table = Table(rules, setup.players, setup.field, lineup=setup.lineup)
        seed = setup.seed * 100_003 + hand
        if mode == "deep-2se":  # the rule before issue 28
            ranked = refine(cards, table, 1, seed, extra=(), switch_z=2.0)
        elif mode == "deep-2r":
            ranked = refine(cards, table, 1, seed, extra=(500, 500))  # issues 28 to 42
        else:  # one round of 500 at every table, before the tables of Beginners drew more
            ranked = refine(cards, table, 1, seed, extra=(500,))
        if ranked:
            return [c.code for c in ranked[0][0].cards]
    if mode in ("fast", "alt"):
        if mode == "fast":  # as solve() plays it: told of a table of Beginners, their tables
            model = Table(rules, setup.players, setup.field, lineup=setup.lineup).played_by("fast").model
        else:
            assert setup.alt_tables is not None
            model = alt_model(rules, setup.players, setup.field, setup.alt_tables)
        arrs, evs = _core.solve_batch(model, np.asarray([codes], dtype=np.int32))
        if np.isfinite(evs[0]):
            return [int(c) for c in arrs[0]]
    return [int(c) for c in _core.strongest_back_first(np.asarray([codes], dtype=np.int32), wheel)[0]]


def score_hand(args: tuple[Setup, int]) -> dict[str, tuple[float, float, bool]]:
    """For each mode: (regret, held-out regret, answer is the oracle's best) on one hand."""
    setup, hand = args
    rules = PRESETS[setup.preset]
    codes = deal_hand(setup.seed, hand)
    answers = {mode: answer(mode, codes, setup, rules, hand) for mode in setup.modes}
    me, on_front = candidate_seats(codes, np.asarray(list(answers.values()), dtype=np.int32), rules)
    chi = candidate_chi(me, codes, setup, rules, hand)
    means = chi.mean(axis=1)
    best = int(np.argmax(means))
    picks = {mode: on_front + k for k, mode in enumerate(answers)}
    if setup.floor_deals:
        # the noise floor: the set that is best on floor_deals independent deals stands in for
        # the true best, and is measured on the same deals as every mode
        picks["floor"] = int(np.argmax(candidate_chi(me, codes, setup, rules, hand, stream=2).mean(axis=1)))
    halves = (chi[:, 0::2], chi[:, 1::2])
    out = {}
    for mode, a in picks.items():
        held = 0.0
        for pick, measure in (halves, halves[::-1]):
            chosen = int(np.argmax(pick.mean(axis=1)))
            held += 0.5 * float(measure[chosen].mean() - measure[a].mean())
        out[mode] = (float(means[best] - means[a]), held, bool(means[a] >= means[best] - 1e-12))
    return out


def candidate_seats(codes: list[int], sets: np.ndarray, rules: Rules) -> tuple[Seats, int]:
    """The candidates the oracle scores for the hand ``codes``: its Pareto front, then
    ``sets`` (arrangements (k, 13)), as seats holding my hand (its special and aces are the
    hand's, whatever the set); and how many of them are the front's."""
    answer_seats = seats_of(sets, rules)
    front = pareto_front(codes, rules)
    keys = np.concatenate([front, answer_seats.keys]) if len(front) else answer_seats.keys
    candidates = len(keys)
    hand_seat = seats_of(np.asarray([codes], dtype=np.int32), rules)
    me = Seats(
        keys,
        np.repeat(hand_seat.special, candidates),
        np.repeat(hand_seat.value, candidates),
        ~np.repeat(hand_seat.special, candidates) & ~valid_rows(keys, rules),
        np.repeat(hand_seat.aces, candidates),
    )
    return me, len(front)


def candidate_chi(me: Seats, codes: list[int], setup: Setup, rules: Rules, hand: int, stream: int = 1) -> np.ndarray:
    """(C, M) chi of each candidate on the hand's M opponent deals of ``stream`` (1: the
    ``--deals`` measured; 2: the ``--floor-deals`` that pick the noise floor's set)."""
    deals = setup.deals if stream == 1 else setup.floor_deals
    dealt = deal_opponents(codes, setup.players, deals, setup.seed, hand, stream)
    opponents = set_hands(dealt, setup, rules, (setup.seed, hand, setup.players, stream))
    return settle_seat0(me, seats_of(opponents, rules), rules).astype(np.float64)


# --- the run -------------------------------------------------------------------------------


def summary(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(n)


def progress(done: int, total: int, start: float, label: str) -> None:
    width = 30
    bar = "#" * (width * done // total) + "." * (width - width * done // total)
    print(f"\r{label:>16} [{bar}] {done}/{total} hands {time.perf_counter() - start:6.1f}s",
          end="", file=sys.stderr, flush=True)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100, help="test hands per preset and table size (default 100)")
    parser.add_argument("--deals", type=int, default=2000, help="opponent deals per hand (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", nargs="*", default=["vietnamese", "four-two"], choices=sorted(PRESETS))
    parser.add_argument("--players", nargs="*", type=int, default=[2, 4], choices=[2, 3, 4])
    parser.add_argument("--modes", nargs="*", default=["fast", "deep"], choices=MODES)
    parser.add_argument("--opponents", default="fast", choices=("fast", "sbf", "field", "mix", "lineup"),
                        help="how the opponents set their hands (default: the fast solver; field: as the "
                        "--opp-field field plays, its naive share strongest back first; mix: each hand by "
                        "one of solver.fields.MIXTURE's policies; lineup: each seat as --lineup names it, "
                        "a Beginner strongest back first, a Club or Expert the --field field's solver)")  # fmt: skip
    parser.add_argument("--opp-field", default="strong", choices=FIELDS,
                        help="tables of the opponents' fast solver (default strong)")  # fmt: skip
    parser.add_argument("--field", choices=FIELDS,
                        help="field the tested modes play (default: --opp-field; beginners against sbf)")  # fmt: skip
    parser.add_argument("--lineup", nargs="*", choices=SEATS,
                        help="who deep mode is told sits in each opponent seat (solver.Table's lineup; "
                        "default: nobody named, each seat as the field plays)")  # fmt: skip
    parser.add_argument("--alt-tables", type=Path, help="table directory of the alt mode")
    parser.add_argument("--bank", type=int, default=50_000, help="hands in the bank mode's bank (default 50000)")
    parser.add_argument("--floor-deals", type=int, default=0,
                        help="also report the noise floor: the regret of the set that is best on this many "
                        "independent deals (default 0: not reported)")  # fmt: skip
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(), help="processes (default all cores)")
    args = parser.parse_args(argv)
    if args.lineup and any(len(args.lineup) != players - 1 for players in args.players):
        parser.error("--lineup names one seat for each opponent: one table size at a time")
    if args.opponents == "lineup" and not args.lineup:
        parser.error("--opponents lineup plays the seats --lineup names: give --lineup")
    if "alt" in args.modes and args.alt_tables is None:
        parser.error("the alt mode needs --alt-tables DIR")
    if args.bank < 1000:
        parser.error("--bank must be at least 1000 hands (about 1.3 % of them avoid a hand's cards)")
    field = args.field or ("beginners" if args.opponents == "sbf" else args.opp_field)
    opponents = {"sbf": "strongest back first", "fast": f"the fast solver, field={args.opp_field!r}",
                 "field": f"as the {args.opp_field!r} field plays (naive share {NAIVE_SHARE[args.opp_field]:.0%})",
                 "mix": "each hand by one of " + ", ".join(f"{p} {w:.0%}" for p, w in MIXTURE.items()),
                 "lineup": "each seat as the lineup names it: " + ", ".join(args.lineup or ())}[
        args.opponents]  # fmt: skip
    print(f"{args.hands} hands x {args.deals} deals, opponents: {opponents}; tested modes play field={field!r}")
    print(f"{'preset':<11} {'players':>7} {'mode':<5} {'regret':>8} {'95% CI':>8} {'held-out':>9} {'95% CI':>8} "
          f"{'best':>6}")  # fmt: skip
    pool = multiprocessing.get_context("fork").Pool(args.jobs) if args.jobs > 1 else None
    for preset in args.presets:
        for players in args.players:
            setup = Setup(preset, players, args.deals, args.seed, tuple(args.modes), args.opponents, args.opp_field,
                          field, args.alt_tables, args.bank, args.floor_deals,
                          tuple(args.lineup) if args.lineup else None)  # fmt: skip
            tasks = [(setup, h) for h in range(args.hands)]
            start = time.perf_counter()
            results = []
            parts = pool.imap(score_hand, tasks) if pool is not None else map(score_hand, tasks)
            for done, result in enumerate(parts, 1):
                results.append(result)
                progress(done, args.hands, start, f"{preset} {players}p")
            print(file=sys.stderr)
            for mode in (*args.modes, *(("floor",) if args.floor_deals else ())):
                regret, ci = summary([r[mode][0] for r in results])
                held, held_ci = summary([r[mode][1] for r in results])
                best = sum(r[mode][2] for r in results) / len(results)
                print(f"{preset:<11} {players:>7} {mode:<5} {regret:>8.4f} {'±' + format(ci, '.4f'):>8} "
                      f"{held:>+9.4f} {'±' + format(held_ci, '.4f'):>8} {best:>6.0%}", flush=True)  # fmt: skip
    if pool is not None:
        pool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
