"""The blind floor (benchmarks/blind_floor.py): the least worst-case regret of a solver that
sets each hand the same way at every table, and the arithmetic it rests on."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.blind_floor import CONTROL, TABLES, floor, main, regrets_of, score_hand, weight_grid
from benchmarks.solver_regret import Setup


def test_a_candidates_regret_is_the_best_mean_minus_its_own() -> None:
    chi = np.asarray([[1.0, 2.0], [3.0, 4.0], [0.0, 5.0]])
    assert regrets_of(chi).tolist() == [2.0, 0.0, 1.0]


def test_the_weights_are_every_split_of_one_in_tenths() -> None:
    grid = weight_grid(3)
    assert grid.shape == (66, 3)
    assert np.allclose(grid.sum(axis=1), 1.0)
    assert len({tuple(w) for w in grid}) == 66
    assert (grid >= 0).all()


def test_two_tables_that_want_opposite_sets_leave_a_floor_a_set_between_them_lowers() -> None:
    opposite = np.asarray([[0.0, 1.0], [1.0, 0.0]])  # set A best at table 1, set B at table 2
    grid = weight_grid(2)
    assert floor([opposite], grid).max() == pytest.approx(0.5)
    between = np.asarray([[0.0, 1.0, 0.2], [1.0, 0.0, 0.2]])  # a third set costing 0.2 at both
    assert floor([between], grid).max() == pytest.approx(0.2)
    agreeing = np.asarray([[0.0, 1.0], [0.0, 0.3]])  # both tables want set A
    assert floor([agreeing], grid).max() == 0.0


def test_no_choice_of_sets_does_better_at_every_table_than_the_floor() -> None:
    rng = np.random.default_rng(7)
    hands = []
    for _ in range(30):
        r = rng.exponential(0.2, size=(3, 9))
        r -= r.min(axis=1, keepdims=True)  # each table's best set has no regret
        hands.append(r)
    bound = floor(hands, weight_grid(3)).max()
    assert bound > 0
    for _trial in range(300):  # any solver: one set a hand, the same at every table
        picks = rng.integers(0, 9, size=len(hands))
        worst = max(np.mean([r[k, p] for r, p in zip(hands, picks, strict=True)]) for k in range(3))
        assert worst >= bound - 1e-12
    best_single = [int(np.argmin(r.mean(axis=0))) for r in hands]  # the set best on average over the tables
    worst = max(np.mean([r[k, p] for r, p in zip(hands, best_single, strict=True)]) for k in range(3))
    assert worst >= bound - 1e-12


def test_a_hands_regrets_cover_every_table_and_the_control_with_the_fast_answers_among_them() -> None:
    setup = Setup("vietnamese", 2, 60, 1, ("fast",), "fast", "strong", "population", None)
    table_regrets, fast = score_hand((setup, 3))
    assert table_regrets.shape[0] == len(TABLES) + 1 == 6 and CONTROL[1][2] == 2
    assert (table_regrets >= 0).all()
    assert np.allclose(table_regrets.min(axis=1), 0.0)  # each table's best set is a candidate
    assert fast.shape == (6, 3)
    assert np.isin(fast, table_regrets).all()


def test_the_command_prints_the_regrets_and_the_floors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hands", "2", "--deals", "40", "--players", "2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "| strongest back first + strong solvers |" in out
    assert "| strong solvers + strong solvers, other deals |" in out
    assert out.count("| the mixture |") == 1
