"""Itemised settlement: score_table's line items add up to every pair's net and every
seat's total, on the public vectors and on seeded random tables for every preset and
rule option, and each item says what the spec clause it stands for says."""

from __future__ import annotations

import random
from typing import Any

import pytest

from solver import PRESETS, Arrangement, Card, Rules, TableResult, score_table, strongest_back_first
from solver.scoring import ITEM_KINDS, PairSettlement, RowResult, SettlementItem
from tests.conftest import load_public_vectors
from tests.test_properties import OPTION_VALUES

DECK = [Card(i) for i in range(52)]
SIX_PAIRS = "2c 2d 3c | 3d 4c 4d 5c 5d | 6c 6d 7c 7d 8c"
THREE_FLUSHES = "3h 6h 9h | 2h 5h 8h Jh Kh | 2s 5s 8s Js Ks"
DRAGON = "2c 3d 4h | 5s 6c 7d 8h 9s | Tc Jd Qh Ks Ac"


def assert_items_add_up(result: TableResult) -> None:
    n = len(result.totals)
    assert len(result.settlements) == n * (n - 1) // 2
    for i in range(n):
        total = 0
        for j in range(n):
            if i == j:
                continue
            pair = result.settlement(i, j)
            assert (pair.a, pair.b) == (i, j)
            assert pair.net == result.pairs[i][j]
            assert pair.received(i) == pair.net
            assert pair.received(j) == -pair.net
            assert len(pair.rows) in (0, 3)
            assert [row.row for row in pair.rows] == list(range(len(pair.rows)))
            for row in pair.rows:
                assert row.winner in (i, j, None)
                assert (row.chi == 0) == (row.winner is None)
            for item in pair.extras:
                assert item.kind in ITEM_KINDS
                assert item.to in (i, j) and item.amount >= 0
            total += pair.net
        assert total == result.totals[i]


def _public_cases() -> list[Any]:
    cases = []
    for v in load_public_vectors():
        if v["kind"] not in ("heads_up", "table"):
            continue
        seats = [v["a"], v["b"]] if v["kind"] == "heads_up" else v["players"]
        cases.append(pytest.param(seats, {}, id=v["id"]))
        for n, var in enumerate(v.get("variants", [])):
            cases.append(pytest.param(seats, var["rules"], id=f"{v['id']}-{var['option']}-{n}"))
    return cases


@pytest.mark.parametrize(("seats", "options"), _public_cases())
def test_items_add_up_on_the_public_vectors(seats: list[str], options: dict[str, Any]) -> None:
    assert_items_add_up(score_table(seats, Rules.from_options(options, base=PRESETS["vietnamese"])))


def random_table(rng: random.Random, players: int) -> list[Arrangement]:
    """A seeded deal, each seat set one of three ways: strongest back first (valid), in
    card order (often valid), or at random (often a foul); now and then a special hand."""
    if rng.random() < 0.15:
        special = Arrangement.parse(rng.choice([SIX_PAIRS, THREE_FLUSHES, DRAGON]))
        rest = [c for c in DECK if c not in special.cards]
        cards = rng.sample(rest, 13 * (players - 1))
        hands = [special.cards, *(cards[13 * p : 13 * p + 13] for p in range(players - 1))]
    else:
        cards = rng.sample(DECK, 13 * players)
        hands = [cards[13 * p : 13 * p + 13] for p in range(players)]
    arrangements = []
    for hand in hands:
        style = rng.random()
        if style < 0.4:
            arrangements.append(strongest_back_first(hand))
        else:
            hand = sorted(hand) if style < 0.7 else list(hand)
            arrangements.append(Arrangement(hand[:3], hand[3:8], hand[8:]))
    rng.shuffle(arrangements)
    return arrangements


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_items_add_up_on_seeded_tables_of_every_preset(preset: str) -> None:
    rng = random.Random(f"items-{preset}")
    for _ in range(400):
        assert_items_add_up(score_table(random_table(rng, rng.choice((2, 3, 4))), PRESETS[preset]))


def test_items_add_up_under_every_rule_option() -> None:
    rng = random.Random(29)
    for _ in range(1500):
        rules = Rules.from_options({name: rng.choice(values) for name, values in OPTION_VALUES.items()})
        assert_items_add_up(score_table(random_table(rng, rng.choice((2, 3, 4))), rules))


# --- each item as its clause says -----------------------------------------------------------------

P2A = "Qc Qd 3h / Kc Kd 7s 6h 2c / 9s 9h 9d 4c 5d"
P2B = "Jc 8d 2h / Th Td 8c 6d 2d / 3s 3d 7h 7d Ks"


def test_rows_and_sap_p2() -> None:
    pair = score_table([P2A, P2B]).settlement(0, 1)
    assert pair.rows == (RowResult(0, 0, 1, 1), RowResult(1, 0, 1, 1), RowResult(2, 0, 1, 3))
    assert pair.extras == (SettlementItem("sap", 0, 3, "x2"), SettlementItem("aces", 0, 0, "0-0"))
    assert pair.net == 6


def test_positional_bonuses_are_in_the_rows_p3() -> None:
    a = "5c 5d 5h / 8c 8d 8h 2c 2d / Js Jh Jd Jc 3s"
    b = "Kc Qd 9h / Ts Td 7c 6d 4d / Ks 9s 6s 4s 2s"
    pair = score_table([b, a]).settlement(1, 0)
    assert [(row.winner, row.chi, row.bonus) for row in pair.rows] == [(1, 3, True), (1, 2, True), (1, 4, True)]
    assert pair.extras == (SettlementItem("sap", 1, 9, "x2"), SettlementItem("aces", 0, 0, "0-0"))
    assert pair.net == 18


def test_foul_and_aces_p5() -> None:
    fouled = "Ac Ad 3h / Kc Kd 7s 6h 2c / 9s 9h 9d 4c 5d"
    pair = score_table([fouled, P2B]).settlement(0, 1)
    assert pair.rows == ()
    assert pair.extras == (SettlementItem("foul", 1, 6, "flat"), SettlementItem("aces", 0, 2, "2-0"))
    assert pair.net == -4


def test_both_fouled_pay_nothing() -> None:
    a = "Ac Ad 3h / Kc Kd 7s 6h 2c / 9s 9h 9d 4c 5d"
    b = "Kh Ks 2h / Qc Qd 8c 6d 2d / 3s 3d 7h 7d 4s"
    pair = score_table([a, b], PRESETS["plain"]).settlement(0, 1)
    assert pair.extras == (SettlementItem("foul", 1, 0, "both"), SettlementItem("foul", 0, 0, "both"))
    assert pair.net == 0


def test_specials_p7_p8() -> None:
    p7 = score_table([DRAGON, "2d 2h 3c / 4c 4d 5c 5d 9c / 6d 6h 6s Td Th"]).settlement(0, 1)
    assert p7.extras == (SettlementItem("special", 0, 13, "dragon"), SettlementItem("aces", 0, 1, "1-0"))
    p8 = score_table([SIX_PAIRS, THREE_FLUSHES]).settlement(0, 1)
    assert p8.extras[:2] == (SettlementItem("special", 0, 12, "six_pairs"),
                             SettlementItem("special", 1, 0, "three_flushes"))  # fmt: skip
    assert p8.net == 12
    difference = score_table([SIX_PAIRS, THREE_FLUSHES], Rules(special_vs_special="difference")).settlement(1, 0)
    assert [(x.to, x.amount) for x in difference.extras if x.kind == "special"] == [(0, 12), (1, 9)]
    assert difference.net == -3


def test_sap_lang_t3() -> None:
    p = "Kc Kd 3h / Qc Qd Qh 7s 6h / 9s 9h 9d 4c 4d"
    r = "Tc 7c 5c / Js Jd 6c 5d 3c / 8h 8s 5h 5s 2s"
    result = score_table([p, P2B, r])
    assert result.totals == [24, -13, -11]
    for other in (1, 2):
        pair = result.settlement(0, other)
        assert [x for x in pair.extras if x.kind in ("sap", "sap_lang")] == [
            SettlementItem("sap", 0, 3, "x2"), SettlementItem("sap_lang", 0, 6, "x2")
        ]  # fmt: skip
    assert not any(x.kind == "sap_lang" for x in result.settlement(1, 2).extras)


def test_owner_takes_a_tied_row() -> None:
    # identical middles (two 5-9 straights): a tie, which the owner (seat 0) takes under O5
    a = "2c 3d Kh / 5s 6h 7c 8d 9s / Ah Ad As Ac 4h"
    b = "2h 3c Qh / 5h 6c 7d 8s 9h / Th Td Ts 3h 3s"
    assert score_table([a, b]).settlement(0, 1).rows[1] == RowResult(1, None, 0, 4)
    owner = score_table([a, b], Rules(ties="owner"))
    assert owner.settlement(0, 1).rows[1] == RowResult(1, 0, 1, 4, owner_tie=True)
    assert owner.settlement(1, 0).net == -owner.settlement(0, 1).net


def test_majority_bonus_and_four_aces() -> None:
    a = "Qc Qd 3h / Kc Kd 7s 6h 2c / 9s 9h 9d 4c 5d"
    b = "Jc 8d 2h / Th Td 8c 6d 2d / Ac Ad Ah As Ks"
    pair = score_table([a, b], PRESETS["four-two"].replace(aces=True)).settlement(0, 1)
    assert SettlementItem("bonus", 0, 1, "majority") in pair.extras
    assert SettlementItem("aces", 0, 0, "void") in pair.extras
    assert pair.received(0) == pair.net == 2


def test_settlement_of_a_seat_outside_the_table_is_a_value_error() -> None:
    result = score_table([P2A, P2B])
    for a, b in ((0, 2), (1, 1), (-1, 0)):
        with pytest.raises(ValueError, match=r"seat|pair"):
            result.settlement(a, b)
    with pytest.raises(ValueError, match="not in this pair"):
        result.settlement(0, 1).received(3)
    assert isinstance(result.settlement(1, 0), PairSettlement)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_table_hand_record_gives_the_items_of_its_settlement(preset: str) -> None:
    from solver.table import TableConfig, simulate_hand

    config = TableConfig(seed=5, preset=preset, levels=("beginner", "club", "beginner"))
    for number in range(1, 8):
        record = simulate_hand(config, number, me="beginner")
        assert [list(row) for row in record.pairs] == record.result.pairs
        for i in range(4):
            for j in range(4):
                if i != j:
                    pair = record.settlement(i, j)
                    assert pair.received(i) == record.pairs[i][j]
                    rows = record.row_results(i, j)
                    assert (rows is None) == (pair.rows == ())
