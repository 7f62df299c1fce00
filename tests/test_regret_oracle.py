"""The regret benchmark's oracle (benchmarks/solver_regret.py): its vectorised settlement
against score_table on random deals, and its Pareto front against a direct scan."""

from __future__ import annotations

import importlib.util
import random
import sys
from itertools import combinations
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from solver import _core
from solver.cards import Card
from solver.hands import key3, key5
from solver.rules import PRESETS, Rules
from solver.scoring import Arrangement, keys_valid, score_table
from solver.tables import get_model


def _load_benchmark() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "solver_regret.py"
    spec = importlib.util.spec_from_file_location("solver_regret", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["solver_regret"] = module
    spec.loader.exec_module(module)
    return module


oracle = _load_benchmark()

VARIANTS = {
    **PRESETS,
    "owner-x2": PRESETS["vietnamese"].replace(
        ties="owner", foul_mode="opponent_x2", aces_all_pairs=True, sweep_bonus=1, special_vs_special="difference"
    ),
    "x1-tie": PRESETS["four-two"].replace(
        foul_mode="opponent_x1", special_vs_special="tie", sap_lang=True, foul_sap_lang=False, strict=True
    ),
}


def random_deal(rng: random.Random, players: int) -> list[list[int]]:
    """Hands for a table; now and then one holds six pairs or all four aces."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [deck[13 * s : 13 * s + 13] for s in range(4)]  # seats beyond the table: the undealt cards
    if rng.random() < 0.25:  # six pairs for a random seat: swap cards in from the others
        ranks = rng.sample(range(13), 6)
        _give(hands, rng.randrange(players), [4 * r + s for r in ranks for s in rng.sample(range(4), 2)])
    if rng.random() < 0.15:
        _give(hands, rng.randrange(players), [48, 49, 50, 51])
    return hands[:players]


def _give(hands: list[list[int]], seat: int, wanted: list[int]) -> None:
    mine = hands[seat]
    spare = [c for c in mine if c not in wanted]
    for card in wanted:
        if card in mine:
            continue
        owner = next(h for h in hands if card in h)
        out = spare.pop()
        mine[mine.index(out)] = card
        owner[owner.index(card)] = out


def arranged(hands: list[list[int]], rules: Rules, rng: random.Random) -> list[list[int]]:
    """Each hand set by the solver, strongest back first or at random (many fouls)."""
    model = get_model(rules, len(hands))
    out = []
    for codes in hands:
        how = rng.random()
        arr = np.asarray([sorted(codes)], dtype=np.int32)
        if how < 0.35:
            sets, evs = _core.solve_batch(model, arr)
            out.append([int(c) for c in sets[0]] if np.isfinite(evs[0]) else list(codes))
        elif how < 0.6:
            out.append([int(c) for c in _core.strongest_back_first(arr, rules.wheel == "second")[0]])
        else:
            out.append(rng.sample(codes, 13))
    return out


def arrangement(codes: list[int]) -> Arrangement:
    cards = [Card(c) for c in codes]
    return Arrangement(cards[:3], cards[3:8], cards[8:])


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_vectorised_settlement_equals_score_table(variant: str, players: int) -> None:
    rules = VARIANTS[variant]
    rng = random.Random(f"settle-{variant}-{players}")
    tables = [arranged(random_deal(rng, players), rules, rng) for _ in range(80)]
    expected = [score_table([arrangement(a) for a in table], rules).totals[0] for table in tables]
    seats = oracle.seats_of(np.asarray(tables, dtype=np.int32), rules)
    # every deal as its own candidate against every deal's opponents: the diagonal is the table
    me = oracle.Seats(*(getattr(seats, f)[:, 0] for f in ("keys", "special", "value", "foul", "aces")))
    opp = oracle.Seats(*(getattr(seats, f)[:, 1:] for f in ("keys", "special", "value", "foul", "aces")))
    got = oracle.settle_seat0(me, opp, rules)
    assert got.shape == (len(tables), len(tables))
    assert np.diagonal(got).tolist() == expected
    # the situations the settlement has branches for all occur in the sample
    assert seats.foul.any() and (seats.aces == 4).any() and seats.special.any() == rules.specials


def test_settlement_covers_sap_lang_between_opponents() -> None:
    rules = PRESETS["vietnamese"]
    # seat 1 scoops seat 0 and seat 2: sập làng doubles what seat 0 pays it
    table = [
        "5h 7c 8d | 4c 6d Th Qs Ad | 2c 2d 9h Js Kc",
        "Ac Ah As | 9c 9d 9s 8c 8h | Kd Kh Ks Qc Qd",
        "4d 5c 6h | 3d 3c 7d 8s Jh | 2h 3h 4h 5d 6c",
    ]
    arrs = [Arrangement.parse(t) for t in table]
    expected = score_table(arrs, rules)
    assert expected.sap_lang[1]
    codes = np.asarray([[c.code for c in a.cards] for a in arrs], dtype=np.int32)
    seats = oracle.seats_of(codes[None], rules)
    me = oracle.Seats(*(getattr(seats, f)[:, 0] for f in ("keys", "special", "value", "foul", "aces")))
    opp = oracle.Seats(*(getattr(seats, f)[:, 1:] for f in ("keys", "special", "value", "foul", "aces")))
    assert oracle.settle_seat0(me, opp, rules)[0, 0] == expected.totals[0]


@pytest.mark.parametrize("preset", ["vietnamese", "four-two"])
def test_pareto_front_is_the_undominated_valid_triples(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(f"front-{preset}")
    for _ in range(3):
        codes = sorted(rng.sample(range(52), 13))
        cards = [Card(c) for c in codes]
        triples = set()
        for back in combinations(range(13), 5):
            rest = [i for i in range(13) if i not in back]
            kb = key5([cards[i] for i in back], rules.wheel)
            for middle in combinations(rest, 5):
                km = key5([cards[i] for i in middle], rules.wheel)
                kf = key3([cards[i] for i in rest if i not in middle])
                if keys_valid(kf, km, kb, rules.strict):
                    triples.add((kf, km, kb))
        front = {
            t for t in triples if not any(u != t and all(a >= b for a, b in zip(u, t)) for u in triples)
        }
        assert {tuple(int(k) for k in t) for t in oracle.pareto_front(codes, rules)} == front


@pytest.mark.parametrize(("preset", "players"), [("vietnamese", 4), ("four-two", 2)])
def test_bank_mode_picks_among_fast_modes_best_sets(preset: str, players: int) -> None:
    rules = PRESETS[preset]
    setup = oracle.Setup(preset, players, 100, 1, ("bank",), "fast", "strong", "strong", None, bank=4000)
    bank = oracle.bank_of(rules, players, "strong", 4000)
    model = get_model(rules, players, "strong")
    moved = 0
    for hand in range(12):
        codes = oracle.deal_hand(7, hand)
        top = [[*f, *m, *b] for f, m, b, _ in _core.solve_hand(model, codes, oracle.CANDIDATES)]
        picked = oracle.bank_answer(codes, setup, rules)
        assert sorted(picked) == sorted(codes)
        assert picked in top  # one of the candidates, rows laid out front | middle | back
        assert picked == oracle.bank_answer(codes, setup, rules)  # seeded: the same answer again
        fast = oracle.answer("fast", codes, setup, rules, hand)
        moved += picked != fast
        mine = np.uint64(sum(1 << c for c in codes))
        usable = (bank.masks & mine) == 0
        assert 0 < usable.sum() < len(bank.masks)  # only the hands that avoid my cards count
    assert moved < 12


def test_the_floor_is_the_regret_of_the_set_best_on_other_deals() -> None:
    """--floor-deals: a ``floor`` entry measured on the same deals as the modes, its set
    picked on deals of its own (so it is not the measured best every time)."""
    # few deals on either side, so the two picks disagree on some hands whoever the opponents are
    setup = oracle.Setup("four-two", 2, 100, 1, ("fast",), "fast", "strong", "strong", None, floor_deals=100)
    results = [oracle.score_hand((setup, hand)) for hand in range(12)]
    assert all(set(r) == {"fast", "floor"} for r in results)
    assert all(r["floor"][0] >= 0.0 for r in results)  # nothing beats the measured best on its own deals
    assert any(r["floor"][0] > 0.0 for r in results)  # the other deals pick a different set now and then
    plain = oracle.Setup("four-two", 2, 100, 1, ("fast",), "fast", "strong", "strong", None)
    assert oracle.score_hand((plain, 0))["fast"] == results[0]["fast"]  # the floor changes no mode's figure


def test_bank_mode_refuses_a_tiny_bank(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        oracle.main(["--modes", "bank", "--bank", "10", "--hands", "1"])
    assert "--bank must be at least 1000" in capsys.readouterr().err


def test_field_opponents_play_the_fields_mix_of_naive_and_solver_hands() -> None:
    """``--opponents field``: each hand set strongest back first with the field's naive
    share, else by the field's fast solver without its re-ranking (as deep mode sets its
    sampled opponents); seeded by the deals' own seed."""
    rules = PRESETS["vietnamese"]
    dealt = oracle.deal_opponents(oracle.deal_hand(3, 0), 4, 200, 3, 0)
    flat = dealt.reshape(-1, 13)
    naive = _core.strongest_back_first(np.ascontiguousarray(flat), rules.wheel == "second").reshape(dealt.shape)

    def unranked(field: str) -> np.ndarray:
        model = get_model(rules, 4, field, rerank=False)
        return _core.solve_batch(model, np.ascontiguousarray(flat))[0].reshape(dealt.shape)

    solved = unranked("population")

    def setup(opponents: str, field: str) -> Any:  # an oracle.Setup
        return oracle.Setup("vietnamese", 4, 200, 3, ("fast",), opponents, field, field, None)

    # the beginners' field is all naive, the strong field plays no naive hand
    assert np.array_equal(oracle.set_hands(dealt, setup("field", "beginners"), rules, (3, 0)), naive)
    strong = oracle.set_hands(dealt, setup("field", "strong"), rules, (3, 0))
    assert np.array_equal(strong, unranked("strong"))
    mixed = oracle.set_hands(dealt, setup("field", "population"), rules, (3, 0))
    assert np.array_equal(mixed, oracle.set_hands(dealt, setup("field", "population"), rules, (3, 0)))
    as_naive = np.all(mixed == naive, axis=2)
    as_solved = np.all(mixed == solved, axis=2)
    assert np.all(as_naive | as_solved)
    # a quarter naive: of the 600 hands, those the two ways set differently are 15-35 % naive
    differ = ~np.all(naive == solved, axis=2)
    share = as_naive[differ].mean()
    assert 0.15 < share < 0.35
    assert not np.array_equal(mixed, oracle.set_hands(dealt, setup("field", "population"), rules, (4, 0)))
