"""The compiled enumerator against the pure-Python reference, and the C helpers
(classes, specials, settlement) against the Python rules they port."""

from __future__ import annotations

import json
import multiprocessing
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import solver
from solver import _core, _reference, strategy
from solver.cards import Card
from solver.hands import key3, key5
from solver.rules import PRESETS, SPECIAL_NAMES, Rules
from solver.scoring import Arrangement, is_valid, keys_valid, score_table, special_hand
from solver.tables import row_table

PRESET_NAMES = sorted(PRESETS)


def hands(seed: str, n: int) -> Iterator[list[Card]]:
    rng = random.Random(seed)
    for _ in range(n):
        yield [Card(c) for c in rng.sample(range(52), 13)]


def codes_of(cards: list[Card]) -> list[int]:
    return [c.code for c in cards]


def test_the_compiled_core_is_the_one_in_use() -> None:
    assert _core.__file__ is not None and _core.__file__.endswith((".so", ".pyd"))
    assert vars(strategy)["_core"] is solver._core is _core  # the core solver.strategy calls
    assert type(strategy.get_model(PRESETS["vietnamese"], 2)) is _core.Model


def check_against_reference(cards: list[Card], rules: Rules, players: int, field: str = "population") -> None:
    """Fast argmax = reference argmax of the same objective; the answer is valid and complete."""
    model = strategy.get_model(rules, players, field)
    answer = _core.solve_hand(model, codes_of(cards), 1)
    ref_best, ref_keys = _reference.best_splits(cards, rules, players, field)
    if not answer:
        assert ref_best == -float("inf"), "fast found no valid split but the reference did"
        return
    f, m, b, ev = answer[0]
    front, middle, back = ([Card(c) for c in row] for row in (f, m, b))
    assert sorted(front + middle + back) == sorted(cards)
    keys = (key3(front), key5(middle, rules.wheel), key5(back, rules.wheel))
    assert keys_valid(*keys, rules.strict)
    assert is_valid(Arrangement(front, middle, back), rules)
    assert ev == pytest.approx(ref_best, abs=1e-9)
    assert _reference.objective(front, middle, back, rules, players, field) == pytest.approx(ref_best, abs=1e-9)
    assert keys in ref_keys


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_fast_argmax_matches_the_reference(preset: str) -> None:
    for i, cards in enumerate(hands(f"ref-{preset}", 45)):
        check_against_reference(cards, PRESETS[preset], 2 + i % 3)


@pytest.mark.parametrize("field", ["strong", "beginners"])
@pytest.mark.parametrize("preset", ["vietnamese", "four-two"])
def test_fast_argmax_matches_the_reference_for_other_fields(preset: str, field: str) -> None:
    for i, cards in enumerate(hands(f"ref-{preset}-{field}", 6)):
        check_against_reference(cards, PRESETS[preset], 2 + i % 3, field)


def test_strict_validity_matches_the_reference() -> None:
    rules = PRESETS["vietnamese"].replace(strict=True)
    for i, cards in enumerate(hands("strict", 15)):
        check_against_reference(cards, rules, 2 + i % 3)


def _reference_job(args: tuple[str, int, int]) -> int:
    preset, start, count = args
    rng_hands = list(hands(f"slow-{preset}", start + count))[start:]
    for i, cards in enumerate(rng_hands):
        check_against_reference(cards, PRESETS[preset], 2 + (start + i) % 3)
    return len(rng_hands)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_fast_argmax_matches_the_reference_on_2000_hands(preset: str) -> None:
    n, jobs = 2000, multiprocessing.cpu_count()
    step = -(-n // (4 * jobs))
    chunks = [(preset, s, min(step, n - s)) for s in range(0, n, step)]
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        assert sum(pool.map(_reference_job, chunks)) == n


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_pruning_never_changes_the_answer(preset: str) -> None:
    model = strategy.get_model(PRESETS[preset], 4)
    for cards in hands(f"prune-{preset}", 150):
        pruned = _core.solve_hand(model, codes_of(cards), 5, True)
        full = _core.solve_hand(model, codes_of(cards), 5, False)
        assert [ev for *_, ev in pruned] == pytest.approx([ev for *_, ev in full], abs=1e-12)


def crowded_hands(seed: int, n: int) -> Iterator[list[int]]:
    """Hands of trips, pairs and quads, where many fronts outrank the middles a back
    leaves (the bounds' front lookup then falls far down the list, or finds nothing)."""
    rng = random.Random(seed)
    shapes = ([3, 3, 3, 3, 1], [2, 2, 2, 2, 2, 2, 1], [4, 3, 3, 2, 1], [4, 4, 4, 1], [3, 2, 2, 2, 2, 1, 1])
    for _ in range(n):
        ranks = rng.sample(range(13), 7)
        yield [4 * r + s for r, count in zip(ranks, rng.choice(shapes)) for s in rng.sample(range(4), count)]


@pytest.mark.parametrize("field", ["strong", "population"])
def test_pruning_never_changes_the_answer_on_crowded_hands(field: str) -> None:
    model = strategy.get_model(PRESETS["vietnamese"], 4, field)
    for codes in crowded_hands(31, 80):
        assert len(set(codes)) == 13
        pruned = _core.solve_hand(model, codes, 5, True)
        full = _core.solve_hand(model, codes, 5, False)
        assert [ev for *_, ev in pruned] == pytest.approx([ev for *_, ev in full], abs=1e-12)


def test_batch_solve_equals_one_at_a_time() -> None:
    model = strategy.get_model(PRESETS["vietnamese"], 3)
    batch = [codes_of(c) for c in hands("batch", 200)]
    arrs, evs = _core.solve_batch(model, np.asarray(batch, dtype=np.int32))
    for codes, arr, ev in zip(batch, arrs, evs):
        f, m, b, one = _core.solve_hand(model, codes, 1)[0]
        assert ev == one
        assert sorted(arr.tolist()) == sorted(codes)
        assert (sorted(f), sorted(m), sorted(b)) == (sorted(arr[:3]), sorted(arr[3:8]), sorted(arr[8:]))
        # rows come in display order: rank high to low, suits s h d c
        for row in (arr[:3], arr[3:8], arr[8:]):
            assert row.tolist() == sorted(row.tolist(), key=lambda c: (-(c >> 2), c & 3))


def test_row_wins_are_the_arrangements_win_chances_without_its_search() -> None:
    model = strategy.get_model(PRESETS["vietnamese"], 3)  # re-ranks: its EV takes a search
    for cards in hands("row-wins", 40):
        naive = strategy.strongest_back_first(cards)
        for arr in (naive, strategy.solve(cards, players=3).best):
            rows = [codes_of(list(row)) for row in arr.rows]
            assert _core.row_wins(model, *rows) == _core.arrangement_stats(model, *rows)[1]
    with pytest.raises(ValueError, match="rows need 3, 5 and 5"):
        _core.row_wins(model, [0, 1], [2, 3, 4, 5, 6], [7, 8, 9, 10, 11])


def test_batch_solve_can_time_each_hand_without_changing_answers() -> None:
    model = strategy.get_model(PRESETS["four-two"], 2)
    batch = np.asarray([codes_of(c) for c in hands("timed", 50)], dtype=np.int32)
    seconds = np.full(len(batch), -1.0)
    timed = _core.solve_batch(model, batch, seconds)
    plain = _core.solve_batch(model, batch)
    assert np.array_equal(timed[0], plain[0]) and np.array_equal(timed[1], plain[1])
    assert np.all(seconds > 0) and np.all(seconds < 1.0)
    with pytest.raises(ValueError, match="one entry per hand"):
        _core.solve_batch(model, batch, np.empty(3))


def test_class_keys_match_the_python_keys() -> None:
    rng = random.Random(11)
    k3s, k5s = _core.class_keys(True)
    _, k5l = _core.class_keys(False)
    for _ in range(3000):
        five = [Card(c) for c in rng.sample(range(52), 5)]
        cls = _reference.row_class(five)
        assert k5s[cls] == key5(five, "second") and k5l[cls] == key5(five, "lowest")
        assert k3s[_reference.row_class(five[:3])] == key3(five[:3])


def test_row_table_is_the_field_distribution() -> None:
    rng = np.random.default_rng(3)
    keys = np.array([5, 1, 9, -1, 7, 3], dtype=np.int32)
    dist = np.array([0.1, 0.2, 0.3, 0.0, 0.25, 0.15])
    values = np.array([1.0, 1.0, 4.0, 1.0, 2.0, 1.0])
    table = row_table(dist, keys, values)
    for i, k in enumerate(keys):
        if k < 0:
            continue
        weaker = sum(d for kk, d in zip(keys, dist) if 0 <= kk < k)
        stronger = [(d, v) for kk, d, v in zip(keys, dist, values) if kk > k]
        assert table[i, 0] == pytest.approx(weaker)
        assert table[i, 1] == pytest.approx(sum(d for d, _ in stronger))
        assert table[i, 2] == pytest.approx(sum(d * v for d, v in stronger))
        assert table[i, 3] == values[i]
    del rng


def test_special_detection_matches_the_python_rules() -> None:
    rng = random.Random(5)
    vectors = [
        "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac",
        "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
        "2c 2d 5c 5d 7h 7s 9c 9d Jh Js Kc Kd Ah",
        "2c 5c 8c Jc Kc 2d 6d 9d Qd Ad 4h 7h Th",
        "Ac 2d 3h 3s 4c 5d 6h 7s 5c 6d 7h 8s 9c",
        "2c 2d 5c 5d 7h 7s 9c 9d Jh Js Kc Qd Ah",
        "2c 2d 2h 5d 5c 7h 7s 9c 9d Jh Js Kc Kd",
    ]
    cases = [[Card.parse(t) for t in v.split()] for v in vectors]
    cases += [[Card(c) for c in rng.sample(range(52), 13)] for _ in range(2000)]
    # hands rich in pairs and runs, so every special is exercised often
    for _ in range(1500):
        ranks = rng.choices(range(13), k=13)
        deck = [r * 4 + s for r in range(13) for s in range(4)]
        picked: list[int] = []
        for r in ranks:
            options = [c for c in deck if c // 4 == r and c not in picked]
            if options:
                picked.append(rng.choice(options))
        while len(picked) < 13:
            c = rng.randrange(52)
            if c not in picked:
                picked.append(c)
        cases.append([Card(c) for c in picked])
    for name in PRESET_NAMES + ["strict-six"]:
        rules = (
            PRESETS["vietnamese"].replace(six_pairs_rule="strict", ace_low_runs=False)
            if name == "strict-six"
            else PRESETS[name].replace(specials=True)
        )
        values = [rules.special_value(n) for n in SPECIAL_NAMES]
        for cards in cases:
            got = _core.special_index(codes_of(cards), values, rules.six_pairs_rule == "strict", rules.ace_low_runs)
            want = special_hand(cards, rules)
            assert (SPECIAL_NAMES[got] if got >= 0 else None) == want, (cards, name)


def _random_table(rng: random.Random, players: int, model: _core.Model) -> list[Arrangement]:
    deck = list(range(52))
    rng.shuffle(deck)
    arrs = []
    for seat in range(players):
        hand = deck[13 * seat : 13 * seat + 13]
        if rng.random() < 0.6:
            f, m, b, _ = _core.solve_hand(model, hand, 1)[0]
            codes = [*f, *m, *b]
        else:
            codes = hand  # usually a foul
        cards = [Card(c) for c in codes]
        arrs.append(Arrangement(cards[:3], cards[3:8], cards[8:]))
    return arrs


@pytest.mark.parametrize(
    "rules",
    [
        PRESETS["vietnamese"],
        PRESETS["four-two"],
        PRESETS["seed"],
        PRESETS["plain"],
        Rules(bonuses="aces_extra", foul_mode="opponent_x2", ties="owner", sweep_bonus=3, aces_all_pairs=False),
        Rules(bonuses="add", foul_mode="opponent_x1", special_vs_special="difference", foul_sap_lang=False),
        Rules(bonuses="doubled", special_vs_special="tie", sap_lang_min_players=4, wheel="lowest", strict=True),
    ],
)
def test_c_settlement_equals_score_table(rules: Rules) -> None:
    from solver.deep import _settle_options

    rng = random.Random(repr(rules))
    model = strategy.get_model(rules, 4)
    opts = _settle_options(rules)
    for i in range(1500):
        players = 2 + i % 3
        arrs = _random_table(rng, players, model)
        if i % 7 == 0:  # plant a special hand
            seat = rng.randrange(players)
            others = {c for j, a in enumerate(arrs) if j != seat for c in a.cards}
            suit = rng.randrange(4)
            dragon = [Card(r * 4 + (suit if rng.random() < 0.5 else rng.randrange(4))) for r in range(13)]
            if not others & set(dragon):
                arrs[seat] = Arrangement(dragon[:3], dragon[3:8], dragon[8:])
        table = score_table(arrs, rules)
        index = {name: k for k, name in enumerate(SPECIAL_NAMES)}
        specials = [index[s] if s else -1 for s in table.specials]
        codes = np.asarray([[c.code for c in a.cards] for a in arrs], dtype=np.int32)
        assert _core.settle_table(model, opts, codes, specials) == table.totals[0]


def test_a_tiny_table_build_is_reproducible_and_moves_toward_a_best_response(tmp_path: Path) -> None:
    from solver.training import tables

    rules = PRESETS["vietnamese"]
    a, moves = tables.build_field(rules, 2, 400, seed=9, max_iter=2, tol=0.0)
    b, _ = tables.build_field(rules, 2, 400, seed=9, max_iter=2, tol=0.0)
    assert len(moves) == 2 and all(m > 0 for m in moves)
    for x, y in zip(a.rows(), b.rows()):
        assert np.array_equal(x, y) and x.sum() == pytest.approx(1.0)
    assert a.scoop == b.scoop and 0.0 < a.scoop < 1.0
    tables.build_all(300, 5, 1, ["plain"], tmp_path, max_iter=1)
    with np.load(tmp_path / "field-plain.npz") as data:
        assert {f"front_{n}" for n in (2, 3, 4)} <= set(data.files)
        recorded = {str(n): data[f"moves_{n}"].tolist() for n in (2, 3, 4)}
    # the build records its file in the manifest beside it, and plays it
    book = json.loads((tmp_path / "manifest.json").read_text())
    [record] = book["files"]["field-plain.npz"]["builds"]
    assert (record["samples"], record["seed"], record["max_iter"], record["moves"]) == (300, 5, 1, recorded)
    assert sorted(book["files"]) == ["field-plain-beginners.npz", "field-plain-strong.npz", "field-plain.npz"]
    assert book["play"][1] == {"preset": "plain", "field": "population", "tables": "field-plain.npz", "removal": None,
                               "correction": [], "hand_terms": [], "passes": None, "why": ""}  # fmt: skip


def test_the_field_is_a_population_with_a_naive_share() -> None:
    from solver import tables as shipped
    from solver.training import tables

    rules = PRESETS["vietnamese"]
    field, _ = tables.build_field(rules, 2, 300, seed=4, max_iter=1, tol=0.0, naive_share=0.4)
    hands = tables.deal_hands(300, np.random.default_rng(4))
    naive = tables.field_of(_core.strongest_back_first(hands, True), rules)
    response = tables.field_of(tables.best_response(naive, rules, 2, hands, None, 1), rules)
    # half way from the naive start toward 40 % naive + 60 % best response
    for got, a, b in zip(field.rows(), naive.rows(), response.rows()):
        assert got == pytest.approx(0.5 * a + 0.5 * (0.4 * a + 0.6 * b))
    assert not np.allclose(field.back, naive.back)
    with pytest.raises(ValueError, match="naive_share"):
        tables.build_field(rules, 2, 10, seed=4, naive_share=1.5)
    with np.load(shipped.table_path("vietnamese")) as data:
        assert float(data["naive_share"]) == tables.NAIVE_SHARE


def test_shipped_tables_cover_every_preset_field_and_table_size() -> None:
    from solver import fields, tables

    for preset in PRESETS:
        for name in fields.FIELDS:
            with np.load(tables.table_path(preset, name)) as data:
                assert float(data["naive_share"]) == fields.NAIVE_SHARE[name]
            for players in (2, 3, 4):
                field = tables.load_field(preset, players, name)
                assert [len(r) for r in field.rows()] == [455, 12376, 12376]
                assert all(r.sum() == pytest.approx(1.0) for r in field.rows())


def test_the_beginners_field_is_strongest_back_first() -> None:
    from solver import tables as shipped
    from solver.training import tables

    rules = PRESETS["vietnamese"]
    field, moves = tables.build_field(rules, 2, 500, seed=9, naive_share=1.0)
    hands_ = tables.deal_hands(500, np.random.default_rng(9))
    naive = tables.field_of(_core.strongest_back_first(hands_, True), rules)
    assert moves == [] and all(np.array_equal(a, b) for a, b in zip(field.rows(), naive.rows()))
    beginners = shipped.load_field("vietnamese", 2, "beginners")
    fresh = tables.deal_hands(20000, np.random.default_rng(1))
    sample = tables.field_of(_core.strongest_back_first(fresh, True), rules)
    # the same distribution from two samples: the chance of a stronger back agrees closely
    _, k5 = _core.class_keys(True)
    order = np.argsort(k5)
    assert np.abs(np.cumsum(beginners.back[order]) - np.cumsum(sample.back[order])).max() < 0.02


def test_deep_mode_sets_opponents_as_the_field_plays() -> None:
    from solver.deep import set_opponents

    rules = PRESETS["vietnamese"]
    hands_ = np.asarray([codes_of(c) for c in hands("deep-field", 400)], dtype=np.int32)
    naive = _core.strongest_back_first(hands_, True)
    solved, _ = _core.solve_batch(strategy.get_model(rules, 2, "strong"), hands_)
    beginners = set_opponents(hands_, rules, 2, "beginners", np.random.default_rng(0))
    strong = set_opponents(hands_, rules, 2, "strong", np.random.default_rng(0))
    assert np.array_equal(beginners, naive) and np.array_equal(strong, solved)
    mixed = set_opponents(hands_, rules, 2, "population", np.random.default_rng(0))
    pop_solved, _ = _core.solve_batch(strategy.get_model(rules, 2), hands_)
    is_naive = np.all(mixed == naive, axis=1) & ~np.all(pop_solved == naive, axis=1)
    is_solved = np.all(mixed == pop_solved, axis=1)
    assert np.all(is_naive | is_solved)
    assert 0.15 < is_naive.sum() / (~np.all(pop_solved == naive, axis=1)).sum() < 0.35


def test_deep_mode_deals_each_seat_of_a_lineup_as_that_seat_plays() -> None:
    from solver.context import Table
    from solver.deep import seat_computers, seat_shares, set_opponents

    rules = PRESETS["vietnamese"]
    table = Table(rules, 4, "population", lineup=("beginner", "club", "person"))
    samples = 400
    hands_ = np.asarray([codes_of(c) for c in hands("deep-lineup", 3 * samples)], dtype=np.int32)
    naive = _core.strongest_back_first(hands_, True)
    played, _ = _core.solve_batch(strategy.get_model(rules, 4), hands_)  # what a Club plays: re-ranked
    cheap, _ = _core.solve_batch(table.opponent_model, hands_)  # without the re-ranking
    dealt = set_opponents(hands_, rules, 4, "population", np.random.default_rng(0), table.opponent_model,
                          seat_shares(table, samples), seat_computers(table, samples))  # fmt: skip
    seat = np.arange(len(hands_)) % 3
    assert np.array_equal(dealt[seat == 0], naive[seat == 0])  # the Beginner: strongest back first
    assert np.array_equal(dealt[seat == 1], played[seat == 1])  # the Club: the set a Club plays
    assert not np.array_equal(played[seat == 1], cheap[seat == 1])  # (which the cheaper solver would miss)
    person = (seat == 2) & ~np.all(naive == cheap, axis=1)
    as_naive = np.all(dealt[person] == naive[person], axis=1)
    assert 0.15 < as_naive.mean() < 0.35  # a person: as the field plays, a quarter strongest back first
    assert np.array_equal(dealt[person][~as_naive], cheap[person][~as_naive])  # the rest by the cheaper solver
    assert seat_shares(Table(rules, 4), samples) is None and seat_computers(Table(rules, 4), samples) is None


def test_deep_mode_told_who_sits_also_weighs_the_sets_that_do_best_against_them() -> None:
    from solver.context import Table
    from solver.deep import _candidates, refine
    from solver.scoring import arrangement_from_codes

    def split(a: Arrangement) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(sorted(c.code for c in row)) for row in a.rows)

    def best(field: str, codes: list[int]) -> tuple[tuple[int, ...], ...]:
        return split(arrangement_from_codes(*_core.solve_hand(strategy.get_model(rules, 4, field), codes, 1)[0][:3]))

    rules = PRESETS["vietnamese"]
    people = Table(rules, 4, "population", lineup=("person", "person", "person"))
    beginners = Table(rules, 4, "population", lineup=("beginner", "beginner", "beginner"))
    mixed = Table(rules, 4, "population", lineup=("beginner", "expert", "person"))
    added = outside = 0
    for i, hand in enumerate(hands("deep-beginner-list", 40)):
        codes = [c.code for c in hand]
        own = [split(a) for a in _candidates(codes, people, 8)]
        assert own == [split(a) for a in _candidates(codes, Table(rules, 4), 8)]  # people play as the field
        assert len(own) == 8 and own[0] == best("population", codes)
        told = [split(a) for a in _candidates(codes, beginners, 8)]
        assert told[:8] == own and len(set(told)) == len(told)  # the field's 8 first, none twice
        assert best("beginners", codes) in told[:16]  # then the Pareto front's other sets (cheap opponents)
        both = [split(a) for a in _candidates(codes, mixed, 8)]
        assert both[:8] == own and {best("beginners", codes), best("strong", codes)} <= set(both)
        added += len(told) > 8
        outside += split(refine(hand, beginners, 1, seed=i)[0][0]) not in own
    assert added >= 20 and outside >= 5  # Beginners' best sets are often none of the field's 8, and win


def test_the_mixture_sets_each_opponent_by_one_of_its_policies_with_its_chance() -> None:
    from solver.deep import set_mixture
    from solver.fields import MIXTURE

    rules = PRESETS["vietnamese"]
    hands_ = np.asarray([codes_of(c) for c in hands("deep-mixture", 900)], dtype=np.int32)
    by_policy = {"naive": _core.strongest_back_first(hands_, True),
                 "strong": _core.solve_batch(strategy.get_model(rules, 4, "strong"), hands_)[0],
                 "population": _core.solve_batch(strategy.get_model(rules, 4, "population"), hands_)[0]}  # fmt: skip
    mixed = set_mixture(hands_, rules, 4, np.random.default_rng(5))
    assert np.array_equal(mixed, set_mixture(hands_, rules, 4, np.random.default_rng(5)))  # seeded
    same = {name: np.all(mixed == sets, axis=1) for name, sets in by_policy.items()}
    assert np.all(np.any(list(same.values()), axis=0))  # every hand is set by one of the policies
    # where a policy's set is its own (no other policy sets the hand so), its share shows
    for name, chance in MIXTURE.items():
        own = np.all([~np.all(by_policy[name] == by_policy[other], axis=1) for other in MIXTURE if other != name],
                     axis=0)  # fmt: skip
        assert own.sum() > 100
        assert abs(same[name][own].mean() - chance) < 0.1, name


def test_row_table_sweep_factors() -> None:
    from solver.tables import GAMMA_LOSE, GAMMA_WIN

    keys = np.array([5, 1, 9, 7, 3], dtype=np.int32)
    dist = np.array([0.1, 0.2, 0.3, 0.25, 0.15])
    values = np.array([1.0, 1.0, 4.0, 2.0, 1.0])
    table = row_table(dist, keys, values)
    assert np.allclose(table[:, 7], table[:, 0] ** GAMMA_WIN)
    assert np.allclose(table[:, 8], table[:, 1] ** GAMMA_LOSE)
    strongest = int(np.argmax(keys))
    assert table[strongest, 1] == 0.0 and table[strongest, 9] == 0.0
    weakest = int(np.argmin(keys))
    assert table[weakest, 9] == pytest.approx(table[weakest, 2] / table[weakest, 1])


def test_row_table_bound_columns_never_cross_the_values() -> None:
    model = strategy.get_model(PRESETS["vietnamese"], 4)
    k3, k5 = _core.class_keys(True)
    for table, keys in ((np.asarray(model.front), k3), (np.asarray(model.middle), k5), (np.asarray(model.back), k5)):
        ok = keys >= 0
        order = np.flatnonzero(ok)[np.argsort(keys[ok])]
        rows = table[order]
        assert np.all(np.diff(rows[:, 0]) >= -1e-12) and np.all(np.diff(rows[:, 1]) <= 1e-12)
        assert np.all(rows[:, 5] >= rows[:, 3]) and np.all(np.diff(rows[:, 5]) >= 0)
        # linear term with its card-removal correction: the bound column tops it and never falls
        assert np.all(rows[:, 6] >= rows[:, 4] - 1e-12) and np.all(np.diff(rows[:, 6]) >= -1e-12)
        losing = rows[:, 1] > 0  # where q = 0 the sweep term vanishes whatever L / q is
        assert np.all(rows[losing, 10] <= rows[losing, 9] + 1e-12) and np.all(np.diff(rows[:, 10]) <= 1e-12)
