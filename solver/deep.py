"""Deep mode: Monte Carlo refinement of the fast solver's best candidates.

The candidates are the fast solver's best 8 at the table, and when the table's lineup
seats a Beginner, a Club or an Expert, the best 8 of the field each plays as well
(:func:`_candidates`); where every sampled opponent sets strongest back first, also every
set on the hand's Pareto front (:data:`FRONT_KEPT`).
For one hand, the unseen 39 cards are dealt to the opponents ``samples`` times; each
opponent sets their hand the way the field plays (:mod:`solver.fields`): "strongest
back first" with the field's naive share, otherwise the fast solver with that field's
tables (when the table's lineup names who sits in each seat, each seat plays as its
level does: a Beginner strongest back first, a Club or Expert the fast solver's set,
re-ranked as :func:`solver.solve` plays it: :func:`seat_computers`);
every candidate arrangement of mine is
settled against the same deals (common random numbers, so differences between
candidates are measured with far less noise than their values) by the exact table
settlement — bonuses, scoops, sập làng, fouls, specials, aces and card removal
included.  The candidates are then ranked by their mean chi.  When the fast choice and
its closest rival are within :data:`CLOSE_Z` paired standard errors, further deals are
drawn in rounds (:data:`EXTRA_ROUNDS`, up to :data:`EXTRA_SAMPLES`) until they are not
or the rounds run out (at 4 players a decision then takes up to 1.8 times as long); the
higher mean wins.  Where every sampled opponent sets strongest back first (a table of
Beginners, or the beginners field), setting them costs next to nothing, and the rounds
are :data:`CHEAP_ROUNDS`, the first drawn on every decision (:func:`extra_rounds`).  The
sampled opponents, nearly all of a decision's time, are set on
:data:`solver.threads.DECISION_THREADS` threads.

The settlement used here is :func:`solver._core.settle_first`, a C port of
:func:`solver.scoring.score_table` for seat 0 (tests compare the two on random tables).
Every function takes the :class:`solver.context.Table` it plays at (rules, players,
field and their model, validated once by the caller).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import _core, threads
from .cards import Card
from .context import Table
from .fields import MIXTURE, NAIVE_SHARE, SOLVER_SEATS, seat_naive_share
from .rules import SPECIAL_NAMES, Rules
from .scoring import Arrangement, arrangement_from_codes, declared_special
from .tables import get_model

DEFAULT_SAMPLES = 600
DEFAULT_CANDIDATES = 8
DEFAULT_SEED = 20261130
#: Further deals when the top is contested (see :func:`refine`), in rounds: a round is
#: drawn only while the contest is still close after the deals before it.  One round
#: [measured, issue 42: a second round of 500, drawn by half of all hands at 4 players
#: against the strong field, was most of deep mode's time at p90 and bought no regret:
#: benchmarks/solver_regret.py, vietnamese, 400 hands, 2,000 deals, one round against two:
#: 0.0049 / 0.0056 at 4 players (strong field), 0.0035 / 0.0031 (population), 0.0042 /
#: 0.0041 heads-up (strong), each ± 0.002].
EXTRA_ROUNDS = (500,)
#: The most further deals a decision draws.
EXTRA_SAMPLES = sum(EXTRA_ROUNDS)
#: The rounds instead at a table where every sampled opponent sets strongest back first
#: (every seat a Beginner, or the beginners field): setting those opponents costs next to
#: nothing, so a decision there can settle far more deals in less time than elsewhere
#: [measured, issue 42: benchmarks/solver_regret.py, vietnamese, 4 players, opponents
#: strongest back first, these rounds against one round of 500 (``deep-1r``), the same
#: hands and deals: told of three Beginners 0.0083 / 0.0115 (200 hands x 2,000 deals) and
#: 0.0068 / 0.0116 (100 x 1,000), field beginners 0.0094 / 0.0106 (200 x 2,000); a
#: decision takes 48 ms at the median and 58 ms at p90 against 22 and 23; rounds of
#: 3,000 and 1,000 measured no better (0.0099) at 73 / 91 ms].
CHEAP_ROUNDS = (1800, 500)
#: At a table where every sampled opponent sets strongest back first, deep mode weighs every
#: set on the hand's Pareto front (:func:`solver._core.pareto_sets`: no other set beats it
#: row for row) beside the fast lists; after the first deals only this many, the fast
#: choice and the leaders, draw the further rounds [measured, issue 42:
#: benchmarks/solver_regret.py, vietnamese, 4 players, 200 hands x 2,000 deals: told of
#: three Beginners 0.0083 -> 0.0019, field beginners 0.0094 -> 0.0021; a decision 79 ms
#: at the median and 110 ms at p90, against 59 and 77].
FRONT_KEPT = 24
#: How close is contested: the fast choice and its closest rival within this many paired
#: standard errors.
CLOSE_Z = 2.0
#: Paired standard errors by which a candidate must beat the fast choice to replace it:
#: none, the higher mean wins.  Keeping the fast choice unless another set won by 2
#: errors (the rule until issue 28) left deep mode twice the regret at 4 players
#: (benchmarks/solver_regret.py, vietnamese, 200 hands, strong field: 0.0063 with that
#: rule, 0.0042 taking the higher mean, 0.0026 with the extra deals as well).
SWITCH_Z = 0.0


def _special_values(rules: Rules) -> list[int]:
    return [rules.special_value(name) if rules.specials else 0 for name in SPECIAL_NAMES]


def deal_opponents(
    hand: Sequence[Card], players: int, samples: int, seed: int | None, stream: int = 0
) -> tuple[np.ndarray, np.random.Generator]:
    """(samples, players - 1, 13) opponent hands dealt from the cards not in ``hand``, and
    the random generator that dealt them (for what else the samples draw); ``stream`` > 0
    deals an independent further stream of the same seed."""
    base = DEFAULT_SEED if seed is None else seed
    rng = np.random.default_rng(base if stream == 0 else [base, stream])
    mine = {c.code for c in hand}
    unseen = np.array([c for c in range(52) if c not in mine], dtype=np.int32)
    nopp = players - 1
    keys = rng.random((samples, len(unseen)))
    order = np.argsort(keys, axis=1)[:, : 13 * nopp]
    return np.sort(unseen[order].reshape(samples, nopp, 13), axis=2).astype(np.int32), rng


def set_opponents(
    hands: np.ndarray,
    rules: Rules,
    players: int,
    field: str,
    rng: np.random.Generator,
    model: _core.Model | None = None,
    share: np.ndarray | None = None,
    computer: np.ndarray | None = None,
) -> np.ndarray:
    """Arrangements (n, 13) of opponent hands (n, 13) as the field plays: each hand is set
    "strongest back first" with the field's naive share (or hand ``i``'s own chance
    ``share[i]``), else by the fast solver (with ``model``, by default the shipped one of
    these rules, table size and field).  The hands ``computer`` marks (a Club's or an
    Expert's seat, :func:`seat_computers`) are set by the field's shipped solver, re-ranked:
    the set such a player plays, where ``model`` may be the cheaper one without the
    re-ranking (:attr:`~solver.context.Table.opponent_model`)."""
    naive = rng.random(len(hands)) < (NAIVE_SHARE[field] if share is None else share)
    out = np.empty_like(hands)
    if naive.any():
        out[naive] = _core.strongest_back_first(np.ascontiguousarray(hands[naive]), rules.wheel == "second")
    solved = ~naive
    if computer is not None and (played := solved & computer).any():
        out[played] = threads.solve_split(get_model(rules, players, field), hands[played], threads.DECISION_THREADS)[0]
        solved &= ~computer
    if solved.any():
        model = get_model(rules, players, field) if model is None else model
        out[solved] = threads.solve_split(model, hands[solved], threads.DECISION_THREADS)[0]
    return out


def set_mixture(hands: np.ndarray, rules: Rules, players: int, rng: np.random.Generator) -> np.ndarray:
    """Arrangements (n, 13) of opponent hands (n, 13), each set by one policy of
    :data:`~solver.fields.MIXTURE` drawn with its chance: a field's shipped fast solver, or
    "strongest back first" for ``"naive"``."""
    policies = list(MIXTURE)
    pick = rng.choice(len(policies), size=len(hands), p=list(MIXTURE.values()))
    out = np.empty_like(hands)
    for i, policy in enumerate(policies):
        chosen = pick == i
        if not chosen.any():
            continue
        part = np.ascontiguousarray(hands[chosen])
        if policy == "naive":
            out[chosen] = _core.strongest_back_first(part, rules.wheel == "second")
        else:
            out[chosen] = threads.solve_split(get_model(rules, players, policy), part, threads.DECISION_THREADS)[0]
    return out


def score_candidates(
    hand: Sequence[Card],
    arrangements: Sequence[Arrangement],
    table: Table,
    seed: int | None,
    samples: int = DEFAULT_SAMPLES,
) -> list[float]:
    """Mean chi of each arrangement over the same ``samples`` opponent deals at ``table``."""
    return score_paired(hand, arrangements, table, seed, samples)[0]


def score_paired(
    hand: Sequence[Card],
    arrangements: Sequence[Arrangement],
    table: Table,
    seed: int | None,
    samples: int = DEFAULT_SAMPLES,
) -> tuple[list[float], list[float]]:
    """Mean chi of each arrangement, and the standard error of its paired difference from
    the first arrangement, over the same ``samples`` opponent deals at ``table``."""
    mine, my_special = _my_sets(arrangements, table.rules)
    totals, squares = settle_sums(hand, mine, my_special, table, seed, samples)
    return _means_errors(totals, squares, samples)


def _my_sets(arrangements: Sequence[Arrangement], rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The arrangements as (K, 13) codes and the index of the special each declares (-1: none)."""
    mine = np.asarray([[c.code for c in (*a.front, *a.middle, *a.back)] for a in arrangements], dtype=np.int32)
    index = {name: i for i, name in enumerate(SPECIAL_NAMES)}
    my_special = np.asarray([index.get(declared_special(a, rules) or "", -1) for a in arrangements], dtype=np.int32)
    return mine, my_special


def _means_errors(totals: np.ndarray, squares: np.ndarray, samples: int) -> tuple[list[float], list[float]]:
    """Means from chi sums over ``samples`` deals, and each one's paired standard error
    against the first (from the sums of squared per-deal differences)."""
    means = [float(t) / samples for t in totals]
    errors = []
    for k in range(len(means)):
        diff = means[k] - means[0]
        var = max(float(squares[k]) / samples - diff * diff, 0.0)
        errors.append((var / samples) ** 0.5)
    return means, errors


def settle_sums(
    hand: Sequence[Card],
    mine: np.ndarray,
    my_special: np.ndarray,
    table: Table,
    seed: int | None,
    samples: int,
    stream: int = 0,
    model: _core.Model | None = None,
    mixture: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Chi sums of each of my sets ``mine`` (K, 13) over ``samples`` opponent deals at
    ``table``, and the sums of each one's squared per-deal difference from the first;
    ``stream`` 0 deals from ``seed`` itself, another stream deals further deals of the same
    seed.  The opponents play ``model`` (default: the table's :attr:`~solver.context.Table.opponent_model`),
    or with ``mixture`` each one the policy of :data:`~solver.fields.MIXTURE` drawn for it
    (:func:`set_mixture`); ``model`` still settles."""
    rules, players = table.rules, table.players
    model = table.opponent_model if model is None else model
    nopp = players - 1
    opp_hands, rng = deal_opponents(hand, players, samples, seed, stream)
    flat = np.ascontiguousarray(opp_hands.reshape(samples * nopp, 13))
    if mixture:
        opp_arr = set_mixture(flat, rules, players, rng)
    else:
        opp_arr = set_opponents(flat, rules, players, table.field, rng, model, seat_shares(table, samples),
                                seat_computers(table, samples))  # fmt: skip
    opp_arr = np.ascontiguousarray(opp_arr.reshape(samples, nopp, 13))
    index = {name: i for i, name in enumerate(SPECIAL_NAMES)}
    if rules.special_detection == "auto":
        opp_special = _core.special_indexes(
            flat, _special_values(rules), rules.six_pairs_rule == "strict", rules.ace_low_runs
        ).reshape(samples, nopp)
        if not rules.specials:
            opp_special[:] = -1
    else:  # O13 "layout": only a special the opponent's arrangement shows counts (slow, rare rules)
        opp_special = np.asarray(
            [
                index.get(declared_special(_arrangement(row), rules) or "", -1)
                for row in opp_arr.reshape(samples * nopp, 13)
            ],
            dtype=np.int32,
        ).reshape(samples, nopp)
    totals, squares = _core.settle_first(
        model,
        _settle_options(rules),
        np.ascontiguousarray(mine),
        opp_arr,
        np.ascontiguousarray(my_special),
        np.ascontiguousarray(opp_special, dtype=np.int32),
    )
    return np.asarray(totals), np.asarray(squares)


def seat_shares(table: Table, samples: int) -> np.ndarray | None:
    """Each dealt opponent hand's chance to be set "strongest back first" when the table
    names who sits in each seat (seat by seat, ``samples`` times), else None: the field's."""
    if table.lineup is None:
        return None
    return np.tile([seat_naive_share(seat, table.field) for seat in table.lineup], samples)


def seat_computers(table: Table, samples: int) -> np.ndarray | None:
    """Which dealt opponent hands a computer player who plays the fast solver sets (a Club's
    or an Expert's seat, :data:`~solver.fields.SOLVER_SEATS`), seat by seat, ``samples``
    times; None when the table names no seats.  Dealing those seats the set they play, the
    field's solver re-ranked, instead of the cheaper one without the re-ranking, cut deep
    mode's regret told of three Clubs from 0.0065 to 0.0052 [measured, issue 42:
    benchmarks/solver_regret.py, vietnamese, 4 players, 200 hands x 2,000 deals, the same
    hands and deals; 0.0098 to 0.0074 on 100 x 1,000; a decision 29 -> 32 ms at the
    median, 36 -> 41 ms at p90].  Tables with fewer Clubs measured the same within 0.0004."""
    if table.lineup is None:
        return None
    return np.tile([seat in SOLVER_SEATS for seat in table.lineup], samples)


def _arrangement(row: np.ndarray) -> Arrangement:
    cards = [Card(int(c)) for c in row]
    return Arrangement(cards[:3], cards[3:8], cards[8:])


def _settle_options(rules: Rules) -> dict[str, object]:
    return {
        "strict": rules.strict,
        "ties_owner": rules.ties == "owner",
        "sweep_mult": rules.sweep_mult,
        "sweep_bonus": rules.sweep_bonus,
        "majority_bonus": rules.majority_bonus,
        "sap_lang": rules.sap_lang,
        "sap_lang_min_players": rules.sap_lang_min_players,
        "sap_lang_mult": rules.sap_lang_mult,
        "foul_mode": ("flat", "opponent_x2", "opponent_x1").index(rules.foul_mode),
        "foul_chi": rules.foul_chi,
        "foul_sap_lang": rules.foul_sap_lang,
        "specials": _special_values(rules),
        "six_pairs_strict": rules.six_pairs_rule == "strict",
        "special_layout": rules.special_detection == "layout",
        "special_vs_special": ("higher", "tie", "difference").index(rules.special_vs_special),
        "ace_low_runs": rules.ace_low_runs,
        "aces": rules.aces,
        "aces_all_pairs": rules.aces_all_pairs,
    }


def extra_rounds(table: Table) -> tuple[tuple[int, ...], int]:
    """The rounds of further deals a decision at ``table`` may draw, and how many of them
    it draws however the contest stands: :data:`CHEAP_ROUNDS` (the first always) where
    every sampled opponent sets strongest back first, else :data:`EXTRA_ROUNDS` (none)."""
    return (CHEAP_ROUNDS, 1) if table.every_seat_naive else (EXTRA_ROUNDS, 0)


def refine(
    hand: Sequence[Card],
    table: Table,
    top: int,
    seed: int | None,
    candidates: int = DEFAULT_CANDIDATES,
    samples: int = DEFAULT_SAMPLES,
    extra: Sequence[int] | None = None,
    switch_z: float = SWITCH_Z,
) -> list[tuple[Arrangement, float]]:
    """The fast solver's best ``max(top, candidates)`` splits at ``table`` re-ranked by
    Monte Carlo: ``samples`` deals, then a round of ``extra[k]`` further deals (by default
    :func:`extra_rounds` of the table; stream
    ``k + 1`` of the seed) for as long as the contest for the top is close (the leader
    and the fast choice, or the fast choice and its runner-up, within :data:`CLOSE_Z`
    paired standard errors over every deal so far).  The fast choice stays first unless
    another candidate's mean beats it by more than ``switch_z`` paired standard errors."""
    codes = [c.code for c in hand]
    extra, sure = extra_rounds(table) if extra is None else (extra, 0)
    arrs = _candidates(codes, table, max(top, candidates))
    if not arrs:
        return []
    mine, my_special = _my_sets(arrs, table.rules)
    totals, squares = settle_sums(hand, mine, my_special, table, seed, samples)
    if len(arrs) > FRONT_KEPT:  # the whole front (a cheap table): only its leaders draw further deals
        keep = sorted([0, *sorted(range(1, len(arrs)), key=lambda i: -totals[i])[: FRONT_KEPT - 1]])
        arrs, mine, my_special = [arrs[i] for i in keep], mine[keep], my_special[keep]
        totals, squares = totals[keep], squares[keep]
    shown, errors = _means_errors(totals, squares, samples)
    evs, drawn = shown, samples
    for stream, deals in enumerate(extra, start=1):
        if len(arrs) < 2 or (stream > sure and not _close(evs, errors)):
            break
        more = settle_sums(hand, mine, my_special, table, seed, deals, stream)
        totals, squares, drawn = totals + more[0], squares + more[1], drawn + deals
        evs, errors = _means_errors(totals, squares, drawn)
    # Ranked by the estimate (stable: ties keep the fast order); with switch_z > 0 the fast
    # choice stays first unless a candidate beats it by more than switch_z paired
    # standard errors.  The EVs returned are the means over the first ``samples`` deals,
    # what evaluate() gives for the same set and seed.
    order = sorted(range(len(arrs)), key=lambda i: -evs[i])
    confident = [i for i in order if i == 0 or evs[i] - evs[0] > switch_z * errors[i]]
    best = confident[0]
    order.remove(best)
    return [(arrs[i], shown[i]) for i in [best, *order]]


#: The field whose fast solver lists the sets that do best against each seat of a lineup
#: other than a person (who plays as the table's field): a Beginner's, and a Club's or an
#: Expert's, who play a solver's sets (see :func:`_candidates`).
SEAT_FIELD = {"beginner": "beginners", "club": "strong", "expert": "strong"}


def _candidates(codes: list[int], table: Table, count: int) -> list[Arrangement]:
    """The sets deep mode weighs: the fast solver's best ``count`` at ``table`` (its choice
    first), then for each other field the lineup's seats play as (:data:`SEAT_FIELD`), that
    field's best ``count`` not among them, and where every sampled opponent sets strongest
    back first, every set of the hand's Pareto front with other row strengths.  Against a
    Beginner, or a table of solvers, the sets that win most are often none of the table's
    own best 8 [measured, issue 42:
    benchmarks/solver_regret.py, vietnamese, 4 players, population field, 100 hands, 1,000
    deals, the lineup told and seated; regret in chi a deal, the field's 8 alone and with
    the others: three Beginners 0.342 and 0.0116, two Beginners and a Club 0.063 and
    0.0068, three Clubs 0.0177 and 0.0098; see docs/benchmarks.md]."""
    sets = [(f, m, b) for f, m, b, _ in _core.solve_hand(table.model, codes, count)]
    seated = [] if table.lineup is None else [SEAT_FIELD[s] for s in table.lineup if s in SEAT_FIELD]
    seen = {(frozenset(f), frozenset(m)) for f, m, _b in sets}  # a split is its front and middle
    for field in dict.fromkeys(f for f in seated if f != table.field):
        for f, m, b, _ in _core.solve_hand(get_model(table.rules, table.players, field), codes, count):
            if (frozenset(f), frozenset(m)) not in seen:
                seen.add((frozenset(f), frozenset(m)))
                sets.append((f, m, b))
    if table.every_seat_naive:  # cheap opponents: every set no other beats row for row
        listed = {_row_keys(f, m, b, table.rules) for f, m, b in sets}
        for row in _core.pareto_sets(codes, table.rules.wheel == "second", table.rules.strict).tolist():
            f, m, b = row[:3], row[3:8], row[8:]
            if _row_keys(f, m, b, table.rules) not in listed:
                sets.append((f, m, b))
    return [arrangement_from_codes(f, m, b) for f, m, b in sets]


def _row_keys(front: Sequence[int], middle: Sequence[int], back: Sequence[int], rules: Rules) -> tuple[int, int, int]:
    """A set's three row strengths: two sets with the same ones settle alike on every deal."""
    wheel = rules.wheel == "second"
    return _core.key3(front), _core.key5(middle, wheel), _core.key5(back, wheel)


def _close(evs: list[float], errors: list[float]) -> bool:
    """Whether the fast choice (candidate 0) and its closest contender for the top are
    within CLOSE_Z paired standard errors: the leader if it is another candidate, else
    the runner-up."""
    rival = max(range(1, len(evs)), key=lambda i: evs[i])
    return abs(evs[rival] - evs[0]) <= CLOSE_Z * errors[rival]
