"""solve_many: the batch API gives solve()'s answers, row by row, at core speed."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from solver import PRESETS, InvalidHandError, SolutionBatch, solve, solve_many
from solver.batch import MIN_THREAD_CHUNK
from solver.handcodes import CARD_NAMES, hand_codes
from solver.rules import SPECIAL_NAMES, Rules

PRESET_NAMES = sorted(PRESETS)


def seeded_codes(seed: str, n: int) -> np.ndarray:
    rng = random.Random(seed)
    return np.asarray([rng.sample(range(52), 13) for _ in range(n)], dtype=np.int32)


def text(codes: np.ndarray) -> str:
    return " ".join(CARD_NAMES[c] for c in codes)


def assert_rows_equal_solve(batch: SolutionBatch, hands: np.ndarray, rules: Rules | str, players: int) -> None:
    for i, codes in enumerate(hands):
        one = solve(text(codes), rules, players)
        got = batch.solution(i)
        assert got == one, f"hand {i}: {text(codes)}"
        # the arrays hold exactly what the Solution shows
        assert batch.best[i].tolist() == [c.code for c in one.best.cards]
        assert batch.ev[i] == one.ev
        assert tuple(batch.row_win[i].tolist()) == one.row_win
        assert (SPECIAL_NAMES[batch.special[i]] if batch.special[i] >= 0 else None) == one.special


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_batch_rows_equal_solve_hand_by_hand(preset: str, players: int) -> None:
    hands = seeded_codes(f"batch-{preset}-{players}", 120)
    batch = solve_many(hands, preset, players)
    assert len(batch) == 120 and not batch.bad.any() and batch.messages == {}
    assert_rows_equal_solve(batch, hands, preset, players)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_batch_equals_solve_on_5000_seeded_hands(preset: str) -> None:
    hands = seeded_codes(f"batch-5000-{preset}", 5000)
    assert_rows_equal_solve(solve_many(hands, preset, 4), hands, preset, 4)


@pytest.mark.parametrize(
    "rules",
    [
        PRESETS["vietnamese"].replace(strict=True),
        PRESETS["vietnamese"].replace(special_detection="layout"),
        PRESETS["seed"].replace(specials=False),
    ],
    ids=["strict", "layout", "no-specials"],
)
def test_batch_rows_equal_solve_under_rule_variants(rules: Rules) -> None:
    hands = seeded_codes(f"variant-{rules}", 80)
    # hands with specials, so the special paths run
    extra = ["2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d As",
             "2h 5h 9h Jh Kh 3s 6s 8s Ts Qs 4d 7d 9d"]  # fmt: skip
    hands = np.concatenate([hands, np.asarray([hand_codes(h) for h in extra], dtype=np.int32)])
    assert_rows_equal_solve(solve_many(hands, rules, 4), hands, rules, 4)


def test_text_lists_and_code_arrays_give_the_same_batch() -> None:
    hands = seeded_codes("paths", 60)
    from_codes = solve_many(hands, "four-two", 3)
    from_text = solve_many([text(h) for h in hands], "four-two", 3)
    from_cards = solve_many([[c for c in text(h).split()] for h in hands], "four-two", 3)
    for other in (from_text, from_cards):
        assert np.array_equal(from_codes.best, other.best)
        assert np.array_equal(from_codes.ev, other.ev)
        assert np.array_equal(from_codes.special, other.special)
        assert np.array_equal(from_codes.row_win, other.row_win)
    assert from_codes.best.dtype == np.int8 and from_codes.special.dtype == np.int8
    assert from_codes.ev.shape == (60,) and from_codes.row_win.shape == (60, 3)


def test_bad_hands_are_flagged_per_row_and_the_rest_is_solved() -> None:
    good = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"
    batch = solve_many([good, "Ah Ad 7c", "Ah Ah 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh", "Zz " * 13, good, "BJ " + good[3:]])
    assert batch.bad.tolist() == [False, True, True, True, False, True]
    assert sorted(batch.messages) == [1, 2, 3, 5]
    assert "13 cards" in batch.messages[1]
    assert "repeats 'Ah'" in batch.messages[2]
    assert "unknown card 'Zz'" in batch.messages[3]
    assert "jokers" in batch.messages[5]
    assert batch.solution(0) == batch.solution(4) == solve(good)
    for i in (1, 2, 3, 5):
        assert batch.best[i].tolist() == [-1] * 13 and math.isnan(batch.ev[i]) and batch.special[i] == -1
        assert np.isnan(batch.row_win[i]).all()
        with pytest.raises(InvalidHandError, match=f"hand {i} is not a hand"):
            batch.solution(i)
    with pytest.raises(IndexError):
        batch.solution(6)


def test_bad_rows_of_a_code_array_are_flagged_with_the_reason() -> None:
    hands = seeded_codes("array-bad", 4).astype(np.int64)
    hands[1, 0] = 60
    hands[2, 1] = hands[2, 0]
    hands[3, 5] = -1
    batch = solve_many(hands)
    assert batch.bad.tolist() == [False, True, True, True]
    assert "0..53, got 60" in batch.messages[1]
    assert "repeats" in batch.messages[2]
    assert "got -1" in batch.messages[3]
    assert batch.solution(0) == solve(text(hands[0]))


@pytest.mark.parametrize(
    ("hands", "kwargs", "message"),
    [
        ("Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh", {}, "got one string"),
        (np.zeros((2, 12), dtype=np.int32), {}, r"\(n, 13\) integer"),
        (np.zeros((2, 13)), {}, r"\(n, 13\) integer"),
        (42, {}, "sequence of hands"),
        ([], {"field": "sharks"}, "field must be one of"),
        ([], {"workers": 0}, "workers must be a positive integer"),
        ([], {"players": 5}, "players must be 2, 3 or 4"),
        ([], {"mode": "slow"}, "mode must be one of"),
    ],
)
def test_bad_arguments_raise_value_error(hands: object, kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        solve_many(hands, **kwargs)  # type: ignore[arg-type]


def test_an_empty_batch_is_empty() -> None:
    batch = solve_many([])
    assert len(batch) == 0 and batch.best.shape == (0, 13) and batch.messages == {}


def test_threads_split_a_large_batch_without_changing_answers() -> None:
    hands = seeded_codes("threads", 2 * MIN_THREAD_CHUNK + 5)
    one = solve_many(hands, workers=1)
    two = solve_many(hands, workers=2)
    assert np.array_equal(one.best, two.best) and np.array_equal(one.ev, two.ev)
    assert np.array_equal(one.row_win, two.row_win) and np.array_equal(one.special, two.special)


def test_deep_mode_is_seeded_per_hand_and_the_same_over_processes() -> None:
    hands = seeded_codes("deep", 3)
    one = solve_many(hands, players=2, mode="deep", seed=5)
    two = solve_many(hands, players=2, mode="deep", seed=5, workers=2)
    assert one.mode == "deep"
    assert np.array_equal(one.best, two.best) and np.array_equal(one.ev, two.ev)
    for i, codes in enumerate(hands):
        assert one.solution(i) == solve(text(codes), players=2, mode="deep", seed=5)
