"""Deep mode's decision (solver.deep.refine, issue 28): the higher mean over the deals it
drew wins, and a close contest draws further deals before it is decided."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from benchmarks.solver_regret import pareto_front
from solver import _core, deep
from solver import threads as solver_threads
from solver.cards import Card
from solver.context import Table
from solver.deep import (
    CHEAP_ROUNDS,
    CLOSE_Z,
    DEFAULT_SAMPLES,
    EXTRA_ROUNDS,
    EXTRA_SAMPLES,
    FRONT_KEPT,
    _means_errors,
    _my_sets,
    deal_opponents,
    extra_rounds,
    refine,
    score_candidates,
    settle_sums,
)
from solver.rules import PRESETS, Rules
from solver.scoring import arrangement_from_codes
from solver.threads import solve_split

RULES = PRESETS["vietnamese"]
TABLE = Table(RULES, 4, "strong")


def hands(n: int, seed: int) -> list[list[Card]]:
    rng = random.Random(seed)
    return [[Card(c) for c in rng.sample(range(52), 13)] for _ in range(n)]


def test_the_choice_is_the_higher_mean_over_every_deal_drawn() -> None:
    rounds_drawn = []
    for n, hand in enumerate(hands(16, 8)):
        fast = _core.solve_hand(TABLE.model, [c.code for c in hand], 8)
        arrs = [arrangement_from_codes(f, m, b) for f, m, b, _ in fast]
        mine, special = _my_sets(arrs, RULES)
        totals, squares = settle_sums(hand, mine, special, TABLE, n, 600)
        drawn, rounds = 600, 0
        means, errors = _means_errors(totals, squares, drawn)
        for stream, deals in enumerate(EXTRA_ROUNDS, start=1):
            rival = max(range(1, len(means)), key=lambda i: means[i])
            if abs(means[rival] - means[0]) > CLOSE_Z * errors[rival]:
                break
            more = settle_sums(hand, mine, special, TABLE, n, deals, stream)
            totals, squares, drawn, rounds = totals + more[0], squares + more[1], drawn + deals, rounds + 1
            means, errors = _means_errors(totals, squares, drawn)
        rounds_drawn.append(rounds)
        ranked = refine(hand, TABLE, 1, n)
        assert ranked[0][0] == arrs[int(np.argmax(means))]
    # some contests are decided by the first deals, some by a further round, some go on
    assert set(rounds_drawn) == set(range(len(EXTRA_ROUNDS) + 1)), rounds_drawn
    assert sum(EXTRA_ROUNDS) == EXTRA_SAMPLES


def test_the_ev_shown_is_what_evaluate_gives_even_after_further_deals() -> None:
    for n, hand in enumerate(hands(6, 9)):
        ranked = refine(hand, TABLE, 3, n)
        shown = score_candidates(hand, [a for a, _ in ranked], TABLE, n)
        assert [ev for _, ev in ranked] == pytest.approx(shown)


def test_the_old_rule_keeps_the_fast_choice_unless_beaten_by_two_errors() -> None:
    for n, hand in enumerate(hands(8, 10)):
        fast = _core.solve_hand(TABLE.model, [c.code for c in hand], 8)
        arrs = [arrangement_from_codes(f, m, b) for f, m, b, _ in fast]
        mine, special = _my_sets(arrs, RULES)
        means, errors = _means_errors(*settle_sums(hand, mine, special, TABLE, n, 600), 600)
        beaten = [i for i in range(1, len(arrs)) if means[i] - means[0] > 2 * errors[i]]
        best = max(beaten, key=lambda i: means[i]) if beaten else 0
        assert refine(hand, TABLE, 1, n, extra=(), switch_z=2.0)[0][0] == arrs[best]


def test_further_deals_are_a_stream_of_their_own() -> None:
    hand = hands(1, 11)[0]
    first, _ = deal_opponents(hand, 4, 50, 7)
    again, _ = deal_opponents(hand, 4, 50, 7)
    further, _ = deal_opponents(hand, 4, 50, 7, stream=1)
    assert np.array_equal(first, again) and not np.array_equal(first, further)
    mine = {c.code for c in hand}
    assert not mine & set(further.ravel().tolist())


@pytest.mark.parametrize("parts", [1, 2, 3])
def test_split_batches_solve_each_hand_as_it_is_solved_alone(parts: int) -> None:
    codes = np.sort(np.asarray([[c.code for c in hand] for hand in hands(301, 12)], dtype=np.int32), axis=1)
    alone_best, alone_ev = _core.solve_batch(TABLE.model, codes)
    wins = np.zeros((len(codes), 3))
    best, ev = solve_split(TABLE.model, codes, parts, wins)
    assert np.array_equal(best, alone_best) and np.array_equal(ev, alone_ev)
    assert wins.min() > 0  # every hand's row chances were written, whichever thread solved it


def test_a_decision_is_the_same_on_one_thread_and_on_two(monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(RULES, 4, "population")
    seen = []
    for threads in (1, 2):
        monkeypatch.setattr(solver_threads, "DECISION_THREADS", threads)
        seen.append([refine(hand, table, 3, seed) for seed, hand in enumerate(hands(4, 13))])
    assert seen[0] == seen[1]


def test_a_table_of_beginners_always_draws_the_larger_first_round_and_other_tables_only_when_close(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    beginners = Table(RULES, 4, "population", lineup=("beginner",) * 3)
    assert extra_rounds(beginners) == (CHEAP_ROUNDS, 1)
    assert extra_rounds(Table(RULES, 4, "beginners")) == (CHEAP_ROUNDS, 1)
    for lineup in (None, ("beginner", "beginner", "club"), ("beginner", "beginner", "person")):
        assert extra_rounds(Table(RULES, 4, "population", lineup=lineup)) == (EXTRA_ROUNDS, 0)
    assert CHEAP_ROUNDS[0] > sum(EXTRA_ROUNDS)
    drawn: list[int] = []
    settle = deep.settle_sums

    def counted(*args: object, **kwargs: object) -> tuple[np.ndarray, np.ndarray]:
        samples = args[5]  # how many deals this call settles
        assert isinstance(samples, int)
        drawn.append(samples)
        return settle(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(deep, "settle_sums", counted)
    rounds = {}
    for name, table in (("beginners", beginners), ("people", TABLE)):
        totals = []
        for n, hand in enumerate(hands(12, 21)):
            drawn.clear()
            refine(hand, table, 1, n)
            totals.append(sum(drawn))
        rounds[name] = totals
    first = DEFAULT_SAMPLES + CHEAP_ROUNDS[0]
    assert all(t >= first for t in rounds["beginners"]), rounds
    assert max(rounds["beginners"]) <= first + sum(CHEAP_ROUNDS[1:])
    assert min(rounds["people"]) == DEFAULT_SAMPLES  # a clear contest there stops at the first deals
    assert max(rounds["people"]) <= DEFAULT_SAMPLES + EXTRA_SAMPLES


def _triples(sets: np.ndarray, rules: Rules) -> set[tuple[int, int, int]]:
    wheel = rules.wheel == "second"
    return {(_core.key3(s[:3]), _core.key5(s[3:8], wheel), _core.key5(s[8:], wheel)) for s in sets.tolist()}


@pytest.mark.parametrize("rules", [RULES, replace(PRESETS["plain"], strict=True)], ids=["vietnamese", "strict"])
def test_the_pareto_front_is_every_valid_split_no_other_beats_row_for_row(rules: Rules) -> None:
    for hand in hands(25, 33):
        codes = [c.code for c in hand]
        front = _core.pareto_sets(codes, rules.wheel == "second", rules.strict)
        triples = _triples(front, rules)
        assert len(triples) == len(front)  # one set per triple of row strengths
        assert triples == {tuple(t) for t in pareto_front(codes, rules)}  # the regret oracle's own front
        assert all(sorted(s) == sorted(codes) for s in front.tolist())
        assert not any(a != b and all(x >= y for x, y in zip(a, b)) for a in triples for b in triples)


def test_deep_mode_weighs_the_whole_front_only_where_the_opponents_cost_nothing_to_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hand = hands(1, 34)[0]
    codes = [c.code for c in hand]
    front = _triples(_core.pareto_sets(codes, True, RULES.strict), RULES)
    beginners = Table(RULES, 4, "population", lineup=("beginner",) * 3)
    weighed = _triples(_my_sets(deep._candidates(codes, beginners, 8), RULES)[0], RULES)
    assert front <= weighed and len(front) > 24
    others = _triples(_my_sets(deep._candidates(codes, Table(RULES, 4, "population"), 8), RULES)[0], RULES)
    assert len(others) <= 8 and not front <= others
    settled: list[int] = []
    settle = deep.settle_sums

    def counted(*args: object, **kwargs: object) -> tuple[np.ndarray, np.ndarray]:
        settled.append(len(args[1]))  # type: ignore[arg-type]  # mine: how many sets this call settles
        return settle(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(deep, "settle_sums", counted)
    refine(hand, beginners, 1, 5)
    assert settled[0] >= len(front) and all(n == FRONT_KEPT for n in settled[1:]) and len(settled) > 1
