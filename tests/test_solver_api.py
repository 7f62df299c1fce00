"""Public solver API: solve() and evaluate() answers, arguments and bad input."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from solver import (
    PRESETS,
    Arrangement,
    Evaluation,
    InvalidHandError,
    Solution,
    evaluate,
    hand_strength,
    is_valid,
    parse_cards,
    solve,
    strongest_back_first,
)
from solver.cards import Card

HAND = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"


def random_hand(rng: random.Random) -> list[Card]:
    return [Card(c) for c in rng.sample(range(52), 13)]


def test_solve_returns_a_valid_arrangement_of_the_same_cards() -> None:
    sol = solve(HAND)
    assert isinstance(sol, Solution)
    assert isinstance(sol.best, Arrangement)
    assert sorted(sol.best.cards) == sorted(Card.parse(t) for t in HAND.split())
    assert is_valid(sol.best)
    assert sol.special is None
    assert len(sol.row_win) == 3 and all(0.0 <= p <= 1.0 for p in sol.row_win)
    assert sol.alternatives == [(sol.best, sol.ev)]


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_answer_uses_the_13_cards_and_is_valid(preset: str, players: int) -> None:
    rng = random.Random(f"{preset}-{players}")
    for _ in range(15):
        hand = random_hand(rng)
        sol = solve(hand, preset, players=players, top=3)
        assert sorted(sol.best.cards) == sorted(hand)
        assert is_valid(sol.best, preset)
        assert 1 <= len(sol.alternatives) <= 3
        evs = [ev for _, ev in sol.alternatives]
        assert evs == sorted(evs, reverse=True)
        assert sol.alternatives[0] == (sol.best, sol.ev)


def test_top_lists_distinct_strength_triples_best_first() -> None:
    sol = solve(HAND, top=10)
    assert len(sol.alternatives) == 10
    triples = {a.keys() for a, _ in sol.alternatives}
    assert len(triples) == 10


def test_rules_accept_a_preset_name_or_rules() -> None:
    assert solve(HAND, "plain").best == solve(HAND, PRESETS["plain"]).best


def test_special_hand_is_named_and_still_arranged() -> None:
    sol = solve("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", players=4)
    assert sol.special == "dragon"
    assert is_valid(sol.best)
    assert sol.ev == pytest.approx(3 * 13)  # one ace: the ace term is 0 in expectation
    assert solve("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", "plain").special is None


def test_evaluate_matches_solve_for_the_best_arrangement() -> None:
    sol = solve(HAND, players=3)
    ev = evaluate(HAND, sol.best, players=3)
    assert isinstance(ev, Evaluation)
    assert ev.valid and ev.special is None
    assert ev.ev == pytest.approx(sol.ev)
    assert ev.row_win == pytest.approx(sol.row_win)


def test_evaluate_a_fouled_arrangement_pays_the_foul() -> None:
    ev = evaluate(HAND, "Ah Ad Kd | 7c 7s 3h 8s Tc | Qd 9d 5d Jh 2c", "plain", players=2)
    assert not ev.valid
    assert ev.ev == pytest.approx(-3.0)  # plain: a foul pays 3, no aces
    assert ev.row_win == (0.0, 0.0, 0.0)
    viet = evaluate(HAND, "Ah Ad Kd | 7c 7s 3h 8s Tc | Qd 9d 5d Jh 2c", players=2)
    assert viet.ev < solve(HAND, players=2).ev


def test_evaluate_never_beats_the_solution() -> None:
    rng = random.Random(7)
    for _ in range(20):
        hand = random_hand(rng)
        sol = solve(hand, players=2)
        other = random_hand_arrangement(rng, hand)
        assert evaluate(hand, other, players=2).ev <= sol.ev + 1e-9


def random_hand_arrangement(rng: random.Random, hand: list[Card]) -> Arrangement:
    cards = hand[:]
    rng.shuffle(cards)
    return Arrangement(cards[:3], cards[3:8], cards[8:])


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ("Ah Ad 7c", "13 cards, got 3"),
        ("Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh 4c", "13 cards, got 14"),
        ("Ah Ah 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh", "repeats 'Ah'"),
        ("BJ Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh", "jokers"),
    ],
)
def test_bad_hands_raise_invalid_hand_error_with_the_reason(cards: str, reason: str) -> None:
    with pytest.raises(InvalidHandError, match=reason):
        solve(cards)
    with pytest.raises(InvalidHandError, match=reason):
        evaluate(cards, "Ah Ad 2c | 7c 7s 3h 8s Tc | Kd Qd 9d 5d Jh")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1}, "players must be 2, 3 or 4"),
        ({"players": 5}, "players must be 2, 3 or 4"),
        ({"mode": "slow"}, "mode must be one of"),
        ({"top": 0}, "top must be"),
        ({"seed": "x"}, "seed must be"),
        ({"rules": "nope"}, "unknown rule preset"),
        ({"field": "pros"}, "field must be one of 'population', 'strong', 'beginners'"),
    ],
)
def test_bad_arguments_raise_value_error(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        solve(HAND, **kwargs)  # type: ignore[arg-type]


def test_evaluate_rejects_an_arrangement_of_other_cards() -> None:
    with pytest.raises(InvalidHandError, match="exactly the 13 cards"):
        evaluate(HAND, "Ah Ad 4c | 7c 7s 3h 8s Tc | Kd Qd 9d 5d Jh")


def test_deep_mode_is_seeded_and_valid() -> None:
    a = solve(HAND, players=4, mode="deep", seed=3, top=2)
    b = solve(HAND, players=4, mode="deep", seed=3, top=2)
    assert a.alternatives == b.alternatives
    assert is_valid(a.best)
    assert a.mode == "deep"


@pytest.mark.parametrize("hand", [HAND, "2c 3d 4h 6s 7c 8d 9h Js Qc Kd 5c 5d Th"])
def test_deep_solve_ev_is_the_deep_evaluation_of_its_choice(hand: str) -> None:
    # deep settles every sample exactly (aces included): solve must not add the ace term again
    deep = solve(hand, players=4, mode="deep", seed=5)
    again = evaluate(hand, deep.best, players=4, mode="deep", seed=5)
    assert deep.ev == pytest.approx(again.ev)
    assert abs(deep.ev - solve(hand, players=4).ev) < 2.0


def test_strongest_back_first_is_the_naive_set() -> None:
    naive = strongest_back_first(HAND)
    assert sorted(naive.cards) == sorted(parse_cards(HAND))
    assert is_valid(naive)
    # the back is the strongest five of the 13 and the middle the strongest five of the rest
    assert naive.keys()[2] == max(hand_strength(c) for c in combinations(parse_cards(HAND), 5))
    rest = [c for c in parse_cards(HAND) if c not in naive.back]
    assert naive.keys()[1] == max(hand_strength(c) for c in combinations(rest, 5))


@pytest.mark.parametrize("field", ["population", "strong", "beginners"])
@pytest.mark.parametrize("mode", ["fast", "deep"])
def test_each_field_has_its_answer_and_evaluate_agrees(field: str, mode: str) -> None:
    sol = solve(HAND, players=2, mode=mode, seed=2, field=field)
    assert sol.field == field and is_valid(sol.best)
    again = evaluate(HAND, sol.best, players=2, mode=mode, seed=2, field=field)
    assert again.field == field
    assert again.ev == pytest.approx(sol.ev)


def test_the_field_changes_the_best_set() -> None:
    # against beginners (strongest back first) the solver keeps its flush in the back and
    # sets the ace-high front; against a field of solvers it splits the hand differently
    beginners = solve(HAND, players=2, field="beginners")
    strong = solve(HAND, players=2, field="strong")
    assert beginners.best.keys() != strong.best.keys()
    assert evaluate(HAND, beginners.best, players=2, field="beginners").ev > evaluate(
        HAND, strong.best, players=2, field="beginners"
    ).ev


def test_evaluate_rejects_an_unknown_field() -> None:
    with pytest.raises(ValueError, match="field must be one of"):
        evaluate(HAND, strongest_back_first(HAND), field="experts")
