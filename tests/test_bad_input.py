"""Bad input to the public API: a clear InvalidCardError / InvalidHandError (both ValueError)
saying what was wrong and what was expected; never KeyError, IndexError or TypeError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import solver
from solver import (
    Arrangement,
    InvalidCardError,
    InvalidHandError,
    Rules,
    hand_strength,
    is_valid,
    score_table,
    special_hand,
)
from solver.rules import InvalidRulesError

GOOD = "Qc Qd 3h | Kc Kd 7s 6h 2c | 9s 9h 9d 4c 5d"
HAND = "Qc Qd 3h Kc Kd 7s 6h 2c 9s 9h 9d 4c 5d"

CASES: list[tuple[str, Callable[[], Any], type[ValueError], str]] = [
    ("empty hand", lambda: special_hand(""), InvalidHandError, "needs 13 cards, got 0"),
    ("12 cards", lambda: special_hand(HAND[:-3]), InvalidHandError, "needs 13 cards, got 12"),
    ("14 cards", lambda: special_hand(HAND + " As"), InvalidHandError, "needs 13 cards, got 14"),
    ("duplicate", lambda: special_hand(HAND.replace("5d", "Qc")), InvalidHandError, "repeats 'Qc'"),
    ("joker", lambda: special_hand(HAND.replace("5d", "RJ")), InvalidHandError, "cannot hold jokers"),
    ("unknown token", lambda: special_hand(HAND.replace("5d", "5x")), InvalidCardError, "unknown card '5x'"),
    ("row of 4", lambda: hand_strength("As Kd Qc Jh"), InvalidHandError, "needs 3 or 5 cards, got 4"),
    ("empty row", lambda: hand_strength(""), InvalidHandError, "needs 3 or 5 cards, got 0"),
    ("two rows", lambda: Arrangement.parse("Qc Qd 3h | Kc Kd 7s 6h 2c"), InvalidHandError, "3 rows"),
    (
        "front of 4",
        lambda: Arrangement.parse("Qc Qd 3h 2c | Kc Kd 7s 6h | 9s 9h 9d 4c 5d"),
        InvalidHandError,
        "the front needs 3 cards, got 4",
    ),
    (
        "card in two rows",
        lambda: Arrangement.parse("Qc Qd 3h | Kc Kd 7s 6h 2c | 9s 9h 9d 4c Qc"),
        InvalidHandError,
        "Qc in two rows",
    ),
    ("not text", lambda: Arrangement.parse(None), InvalidHandError, "expected arrangement text"),  # type: ignore[arg-type]
    ("is_valid garbage", lambda: is_valid("hello"), InvalidHandError, "3 rows"),
    ("one seat", lambda: score_table([GOOD]), InvalidHandError, "2 to 4 players, got 1"),
    ("a string table", lambda: score_table(GOOD), InvalidHandError, "list of 2 to 4"),  # type: ignore[arg-type]
    ("number table", lambda: score_table(5), InvalidHandError, "list of 2 to 4"),  # type: ignore[arg-type]
    ("shared card", lambda: score_table([GOOD, GOOD]), InvalidHandError, "one 52-card deck"),
    ("unknown preset", lambda: is_valid(GOOD, "klingon"), InvalidRulesError, "unknown rule preset 'klingon'"),
    ("bad option value", lambda: Rules(wheel="middle"), InvalidRulesError, "wheel='middle' is not allowed"),
    (
        "unknown option",
        lambda: Rules.from_options({"wheels": "lowest"}),
        InvalidRulesError,
        "unknown rule option 'wheels'",
    ),
    ("bad number", lambda: Rules(foul_chi=-1), InvalidRulesError, "foul_chi must be an integer 0..1000, got -1"),
    ("bad flag", lambda: Rules(strict="yes"), InvalidRulesError, "strict must be true or false"),  # type: ignore[arg-type]
    ("bad specials", lambda: Rules(special_values=(("dragon", 13),)), InvalidRulesError, "special_values"),
]


@pytest.mark.parametrize(("what", "call", "error", "message"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_table(what: str, call: Callable[[], Any], error: type[ValueError], message: str) -> None:
    with pytest.raises(error, match=message) as info:
        call()
    assert isinstance(info.value, ValueError)


def test_errors_are_exported_value_errors() -> None:
    assert issubclass(solver.InvalidCardError, ValueError)
    assert issubclass(solver.InvalidHandError, ValueError)
    assert issubclass(solver.InvalidRulesError, ValueError)


def test_rule_option_aliases_mean_the_same_rules() -> None:
    assert Rules.from_options({"six_pairs": "strict"}) == Rules(six_pairs_rule="strict")
    assert Rules(six_pairs="strict") == Rules(six_pairs_rule="strict")
    assert Rules.from_options({"scoop_mult": 1, "owner_wins_ties": True}) == Rules(sweep_mult=1, ties="owner")
    # the aliases take values of other types than the fields they stand for
    assert Rules(bonuses=False) == Rules(bonuses="none") and Rules(wheel="low") == Rules(wheel="lowest")  # type: ignore[arg-type]
    assert Rules(specials={"dragon": 26}).special_value("dragon") == 26  # type: ignore[arg-type]
