"""The theme classifier (trainer.themes) and the EV parts (trainer.ev_parts): a hand-made
example per theme, negative examples, and the parts adding up to the solver's values."""

from __future__ import annotations

import random
import re
import time

import pytest

import solver
from solver import PRESETS, Rules, solve, strongest_back_first
from solver.cards import full_deck
from trainer.ev_parts import PART_NAMES, ev_parts, gap, main_parts
from trainer.themes import DEFINITIONS, THEME_IDS, Theme, themes

VIET = PRESETS["vietnamese"]
LAYOUT = Rules.from_options({"special_detection": "layout"})
SIX_PAIRS = "2c 2d 5c 5d 7h 7s 9c 9d Jh Js Kc Kd Ah"

#: (theme id, hand, played set, the better set, rules, side, row): one hand-made example per
#: theme; each pair of sets differs by that theme (the better set is not always the
#: solver's best: the themes compare any two sets).
EXAMPLES = [
    # trips in front beat a high-card middle: a foul (D3), the front the row out of order
    ("foul", "Ah Ad Ac Qc Jd 9s 8d 7c 6s 5h 4h 3d 2c", "Ah Ad Ac | 2c 3d 4h 6s 7c | 9s Jd Qc 5h 8d",
     None, VIET, "played", 0),
    # six pairs pay only when laid out pair / two pair / two pair (O13 layout); a high-card front hides them
    ("missed-special", SIX_PAIRS, "Ah Kc 2c | 2d 5c 5d 7h 7s | 9c 9d Jh Js Kd",
     "2c 2d Ah | 5c 5d 7h 7s 9c | 9d Jh Js Kc Kd", LAYOUT, "best", None),
    # the 10-high straight broken for a pair of aces in the back
    ("broken-straight", "Ts 9h 8c 7d 6s Ah Ad Kc Kd 2c 3h 4s 5c", "6s 3h 2c | Kc Kd 9h 8c 5c | Ah Ad Ts 7d 4s",
     "4s 3h 2c | Ah Ad Kc Kd 5c | Ts 9h 8c 7d 6s", VIET, "best", 2),
    # the heart flush broken for a pair of kings in the back
    ("broken-flush", "Ah 9h 7h 4h 2h Kc Kd Qs Qd 3c 5s 6d 8c", "Ah 8c 6d | Qs Qd 9h 7h 5s | Kc Kd 4h 2h 3c",
     "8c 6d 5s | Kc Kd Qs Qd 3c | Ah 9h 7h 4h 2h", VIET, "best", 2),
    # the Beginner keeps J-J-3-3-3 in the back; the best set plays two flushes and 3-3 in front
    ("broken-full-house", "Js Jd 3s 3h 3c 9s 5s 2s Ah Kh Qh Th 2h", "9s 5s 2s | Ah Kh Qh Th 2h | Js Jd 3s 3h 3c",
     "Jd 3h 3c | Js 9s 5s 3s 2s | Ah Kh Qh Th 2h", VIET, "played", 2),
    # trips in front pay 3 chi (D7) once the middle and back are stronger
    ("bonus-row", "7s 7h 7d Ks Kh Kd 2c 2d Ac Qc Jc 9c 4c", "Ac 2c 2d | 7s 7h 7d Qc Jc | Ks Kh Kd 9c 4c",
     "7s 7h 7d | Ac Qc Jc 9c 4c | Ks Kh Kd 2c 2d", VIET, "best", 0),
    # the sevens go from the middle to the front
    ("trips-placement", "7s 7h 7d Ks Kh Kd 2c 2d Ac Qc Jc 9c 4c", "Ac 2c 2d | 7s 7h 7d Qc Jc | Ks Kh Kd 9c 4c",
     "7s 7h 7d | Ac Qc Jc 9c 4c | Ks Kh Kd 2c 2d", VIET, "best", 0),
    # 5-5-3-3 kept together in the middle; the best set sends 3-3 to the front
    ("split-two-pair", "8c 4s 2h Tc 5s 5d 3d 3c Jc Ts 9h 8h 7d", "8c 4s 2h | Tc 5s 5d 3d 3c | Jc Ts 9h 8h 7d",
     "Ts 3d 3c | 8h 5s 5d 4s 2h | Jc Tc 9h 8c 7d", VIET, "played", 1),
    ("pair-in-front", "8c 4s 2h Tc 5s 5d 3d 3c Jc Ts 9h 8h 7d", "8c 4s 2h | Tc 5s 5d 3d 3c | Jc Ts 9h 8h 7d",
     "Ts 3d 3c | 8h 5s 5d 4s 2h | Jc Tc 9h 8c 7d", VIET, "best", 0),
    # the high-card front and the two pair middle are swept by 46 % of opponents, the best set's by 33 %
    ("scoop-risk", "8c 4s 2h Tc 5s 5d 3d 3c Jc Ts 9h 8h 7d", "8c 4s 2h | Tc 5s 5d 3d 3c | Jc Ts 9h 8h 7d",
     "Ts 3d 3c | 8h 5s 5d 4s 2h | Jc Tc 9h 8c 7d", VIET, "best", None),
    # the ace goes to the front: A-K-6 high instead of K-6-4
    ("weak-front", "Kc 6c 4h As Ts Tc 8s 8h Ad Jd 7d 3d 2d", "Kc 6c 4h | As Ts Tc 8s 8h | Ad Jd 7d 3d 2d",
     "As Kc 6c | Ts Tc 8s 8h 4h | Ad Jd 7d 3d 2d", VIET, "best", 0),
    # an ace-high spade flush in the middle instead of a queen-high one
    ("weak-middle", "Kh 7c 5h Qs Js 5s 4s 3s As Ac 8s 8h 8c", "Kh 7c 5h | Qs Js 5s 4s 3s | As Ac 8s 8h 8c",
     "Ac Kh 7c | As Qs Js 4s 3s | 8s 8h 8c 5s 5h", VIET, "best", 1),
    # the ace as the back's kicker rather than in front
    ("weak-back", "Ad 3c 2s Qs Qh 9d 8h 5s Kh Kc 7d 6c 4d", "Ad 3c 2s | Qs Qh 9d 8h 5s | Kh Kc 7d 6c 4d",
     "4d 3c 2s | Qs Qh 9d 8h 5s | Kh Kc Ad 7d 6c", VIET, "best", 2),
    # only the 6 and the 3 swap rows; every row keeps its hand
    ("kicker", "9s 3h 2c Ah Ad Kc 6s 4d Th Jh Qh 8h 5h", "9s 3h 2c | Ah Ad Kc 6s 4d | Qh Jh Th 8h 5h",
     "9s 6s 2c | Ah Ad Kc 4d 3h | Qh Jh Th 8h 5h", VIET, "best", 0),
]


def example_sets(index: int) -> tuple[str, str, str]:
    """The hand, the played set and the better set of ``EXAMPLES[index]``, one that names its better set."""
    _, hand, played, better, *_ = EXAMPLES[index]
    assert isinstance(hand, str) and isinstance(played, str) and isinstance(better, str)
    return hand, played, better


def found(hand: str, played: str, better: str | None, rules: Rules) -> tuple[Theme, ...]:
    return themes(hand, played, better or solve(hand, rules).best, rules)


def test_the_taxonomy_has_at_least_ten_documented_themes() -> None:
    assert len(THEME_IDS) >= 10 and set(THEME_IDS) == set(DEFINITIONS)
    assert sorted({e[0] for e in EXAMPLES}) == sorted(THEME_IDS)  # a hand-made example for each
    doc = __import__("trainer.themes").themes.__doc__
    assert all(f"``{theme_id}``" in doc for theme_id in THEME_IDS)


@pytest.mark.parametrize(("theme_id", "hand", "played", "better", "rules", "side", "row"), EXAMPLES,
                         ids=[e[0] for e in EXAMPLES])  # fmt: skip
def test_each_theme_is_found_in_its_example(
    theme_id: str, hand: str, played: str, better: str | None, rules: Rules, side: str, row: int | None
) -> None:
    result = {t.id: t for t in found(hand, played, better, rules)}
    assert theme_id in result, [t.id for t in result.values()]
    assert result[theme_id].side == side
    assert result[theme_id].row == row


def test_the_made_hand_themes_name_the_cards_and_both_directions() -> None:
    hand, naive, best = example_sets(2)
    broke = next(t for t in themes(hand, naive, best) if t.id == "broken-straight")
    assert broke.cards == ("Ts", "9h", "8c", "7d", "6s") and broke.category == solver.hands.STRAIGHT
    # played and best swapped: the better set now breaks the straight the played set keeps
    kept = next(t for t in themes(hand, best, naive) if t.id == "broken-straight")
    assert kept.side == "played" and kept.row == 2


def test_the_foul_names_the_rows_out_of_order() -> None:
    (foul,) = found(*EXAMPLES[0][1:5])
    assert (foul.row, foul.other_row) == (0, 1)
    assert foul.category == solver.hands.TRIPS and foul.other_category == solver.hands.HIGH_CARD


def test_the_kicker_theme_names_the_card_that_moves() -> None:
    (kicker,) = found(*EXAMPLES[-1][1:5])
    assert kicker.cards == ("6s",) and (kicker.row, kicker.other_row) == (0, 1)


def test_the_bonus_row_names_both_values() -> None:
    bonus = next(t for t in found(*EXAMPLES[5][1:5]) if t.id == "bonus-row")
    assert (bonus.value, bonus.other_value) == (3.0, 1.0)


# --- negative examples ---------------------------------------------------------------------


def test_the_same_rows_give_no_theme() -> None:
    hand = EXAMPLES[7][1]
    best = solve(hand).best
    assert themes(hand, best, best) == ()
    shuffled = solver.Arrangement(best.front[::-1], best.middle[::-1], best.back[::-1])
    assert themes(hand, shuffled, best) == ()


def test_a_special_hand_paid_automatically_gives_no_theme() -> None:
    # under the default (auto) detection six pairs pay however the cards are set
    assert themes(SIX_PAIRS, "Ah Kc 2c | 2d 5c 5d 7h 7s | 9c 9d Jh Js Kd", solve(SIX_PAIRS).best) == ()


def test_themes_that_do_not_apply_are_not_found() -> None:
    weak_front = {t.id for t in found(*EXAMPLES[10][1:5])}  # only the ace moves to the front
    assert weak_front == {"weak-front"}
    kicker = {t.id for t in found(*EXAMPLES[-1][1:5])}
    assert kicker == {"kicker"}  # no scoop risk, no weak row, no made hand for a kicker swap
    assert "kicker" not in {t.id for t in found(*EXAMPLES[7][1:5])}  # the plans differ there
    # heads-up, four-two: the split two pair matters less than the sập risk threshold
    assert "scoop-risk" not in {t.id for t in themes(*example_sets(7), "plain", 2)}


def test_a_theme_record_checks_its_id_and_side() -> None:
    with pytest.raises(ValueError, match="unknown theme id 'nope'"):
        Theme("nope")
    with pytest.raises(ValueError, match="side"):
        Theme("foul", side="mine")


# --- the EV parts --------------------------------------------------------------------------


def seeded_hands(n: int, seed: int = 0) -> list[list[solver.Card]]:
    hands = []
    for i in range(n):
        deck = full_deck()
        random.Random(seed + i).shuffle(deck)
        hands.append(deck[:13])
    return hands


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_parts_add_up_to_the_solvers_value(preset: str, players: int) -> None:
    for field in ("population", "strong", "beginners"):
        for cards in seeded_hands(6, seed=players * 100):
            for arrangement in (solve(cards, preset, players, field=field).best, strongest_back_first(cards, preset)):
                value = solver.evaluate(cards, arrangement, preset, players, field=field).ev
                parts = ev_parts(cards, arrangement, preset, players, field)
                assert parts.total == pytest.approx(value, abs=1e-9)


def test_the_gap_adds_up_and_names_every_part() -> None:
    for cards in seeded_hands(20, seed=7):
        best, naive = ev_parts(cards, solve(cards).best), ev_parts(cards, strongest_back_first(cards))
        parts = gap(best, naive)
        assert tuple(parts) == PART_NAMES
        assert sum(parts.values()) == pytest.approx(best.total - naive.total, abs=1e-9)
        assert parts["aces"] == 0.0  # the aces do not depend on the set


def test_the_parts_of_a_field_without_card_removal_have_none() -> None:
    # the beginners field plays without a card-removal correction (solver.tables.UNCORRECTED)
    for cards in seeded_hands(10, seed=3):
        assert ev_parts(cards, solve(cards, field="beginners").best, field="beginners").removal == pytest.approx(0.0)


def test_a_foul_and_a_special_have_only_their_payment() -> None:
    foul = ev_parts(EXAMPLES[0][1], EXAMPLES[0][2])
    # 3 opponents x flat 6 chi (D11), doubled with an opponent who also sweeps the table (D9)
    assert foul.rows == (0.0, 0.0, 0.0) and foul.foul == pytest.approx(solver.strategy.foul_ev(VIET, 4))
    assert -18.0 * 2 < foul.foul < -18.0
    special = ev_parts(SIX_PAIRS, "Ah Kc 2c | 2d 5c 5d 7h 7s | 9c 9d Jh Js Kd")
    assert special.special == 36.0 and special.rows == (0.0, 0.0, 0.0)  # 3 x 12 chi (D12)


def test_row_chances_and_main_parts() -> None:
    hand, naive, best = example_sets(7)
    mine, top = ev_parts(hand, naive), ev_parts(hand, best)
    for parts in (mine, top):
        for k in range(3):
            assert parts.win[k] + parts.tie[k] + parts.loss[k] == pytest.approx(1.0)
    assert top.win[0] > mine.win[0]  # the pair of threes in front wins far more often
    listed = main_parts(gap(top, mine))
    assert listed[0][0] == "front" and len(listed) <= 3
    assert all(abs(value) >= 0.05 for _, value in listed)


def test_feedback_for_one_submission_is_fast() -> None:
    hand, naive = EXAMPLES[4][1], EXAMPLES[4][2]
    best = solve(hand).best
    themes(hand, naive, best)  # tables loaded once
    start = time.perf_counter()
    themes(hand, naive, best)
    assert time.perf_counter() - start < 0.3


def test_the_coverage_benchmark_reports_its_figure(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.theme_coverage import main

    main(["--hands", "60"])
    out = capsys.readouterr().out
    losing = int(re.search(r"losing more than 0.25 chi: (\d+)", out).group(1))  # type: ignore[union-attr]
    share = float(re.search(r"at least one theme: \d+ \(([\d.]+) %\)", out).group(1))  # type: ignore[union-attr]
    assert losing > 40 and share >= 95.0
    assert all(theme_id in out for theme_id in THEME_IDS)
