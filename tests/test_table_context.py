"""The table context (solver.Table): validated once, holding its model, and the same
answers whether a call takes ``table=`` or the old ``rules``/``players``/``field``."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

import solver
from solver import (
    PRESETS,
    Card,
    InvalidRulesError,
    Table,
    context,
    deep,
    evaluate,
    solve,
    solve_many,
    strongest_back_first,
)
from solver.fields import FIELDS, check_field
from solver.players import LEVELS
from solver.tables import get_model


def hands(count: int, seed: int) -> list[list[Card]]:
    rng = random.Random(seed)
    return [[Card(c) for c in rng.sample(range(52), 13)] for _ in range(count)]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_old_and_new_signatures_give_identical_answers(preset: str) -> None:
    rules = PRESETS[preset]
    for players in (2, 3, 4):
        for field in FIELDS:
            table = Table(rules, players, field)
            batch = hands(6, players)
            for hand in batch:
                old = solve(hand, rules, players, "fast", 3, None, field)
                assert solve(hand, top=3, table=table) == old
                naive = strongest_back_first(hand, rules)
                assert evaluate(hand, naive, table=table) == evaluate(hand, naive, rules, players, field=field)
            a = solve_many(batch, rules, players, field=field)
            b = solve_many(batch, table=table)
            for name in ("best", "ev", "special", "row_win", "bad"):
                assert np.array_equal(getattr(a, name), getattr(b, name), equal_nan=True), name


def test_deep_mode_and_the_players_agree_both_ways() -> None:
    table = Table("vietnamese", 3, "strong")
    for hand in hands(2, 11):
        assert solve(hand, mode="deep", seed=5, table=table) == solve(hand, "vietnamese", 3, "deep", seed=5,
                                                                        field="strong")  # fmt: skip
        for level, player in LEVELS.items():
            old = player.arrange(hand, "vietnamese", 3, 3, "strong")
            assert player.arrange(hand, seed=3, table=table) == old, level


def test_defaults_describe_the_default_table() -> None:
    hand = hands(1, 3)[0]
    assert solve(hand) == solve(hand, table=Table()) == solve(hand, PRESETS["vietnamese"], 4, field="population")
    assert Table() == Table("vietnamese", 4, "population")
    assert context.as_table() is context.as_table()  # kept: checked once per set of arguments
    assert context.as_table() == context.as_table(None, "vietnamese", 4, "population")
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        context.as_table(None, None, 4.0)  # type: ignore[arg-type]  # not the kept Table of 4 (4.0 == 4)
    with pytest.raises(InvalidRulesError, match="rules must be a Rules or a preset name"):
        context.as_table(None, {"wheel": "lowest"})  # type: ignore[arg-type]  # unhashable: checked, not looked up


def test_a_table_validates_once_and_loads_its_model_once(monkeypatch: pytest.MonkeyPatch) -> None:
    checks: list[object] = []
    models: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    real_check = check_field  # what solver.context calls, patched there below

    def counting_check(field: object) -> str:
        checks.append(field)
        return real_check(field)

    def counting_model(*args: Any, **kwargs: Any) -> Any:
        models.append((args, kwargs))
        return get_model(*args, **kwargs)

    monkeypatch.setattr(context, "check_field", counting_check)
    monkeypatch.setattr(context, "get_model", counting_model)
    monkeypatch.setattr(deep, "get_model", counting_model)
    table = Table("seed", 2, "strong")
    assert checks == ["strong"]
    for hand in hands(5, 8):
        solve(hand, top=2, table=table)
        evaluate(hand, strongest_back_first(hand, "seed"), table=table)
    solve(hands(1, 9)[0], mode="deep", seed=1, table=table)
    solve_many(hands(20, 10), table=table)
    assert checks == ["strong"]  # validated when made, never again
    # resolved once each, held by the table: the model, and deep mode's for its sampled opponents
    assert models == [((PRESETS["seed"], 2, "strong"), {}), ((PRESETS["seed"], 2, "strong"), {"rerank": False})]
    assert table.model is table.model and table.opponent_model is table.opponent_model


def test_the_table_holds_its_model_and_inputs() -> None:
    table = Table("four-two", 2, "strong")
    assert table.preset == "four-two" and table.opponents == 1
    assert table.model is get_model(PRESETS["four-two"], 2, "strong")
    assert table.hand_weights is not None  # four-two strong plays the hand terms
    assert Table("four-two", 2, "population").removal is None  # and plays this field uncorrected
    assert table.field_table.front.shape == (455,)
    assert table.replace(players=4) == Table("four-two", 4, "strong")
    again = pickle.loads(pickle.dumps(table))
    assert again == table and hash(again) == hash(table) and "model" not in again.__dict__


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: Table(players=5), ValueError, "players must be 2, 3 or 4"),
        (lambda: Table(players=True), ValueError, "players must be 2, 3 or 4"),
        (lambda: Table(field="sharks"), ValueError, "field must be one of 'population', 'strong', 'beginners'"),
        (lambda: Table("klingon"), InvalidRulesError, "unknown rule preset 'klingon'"),
        (lambda: Table().replace(seats=3), ValueError, "a Table has rules, players, field and lineup; got seats"),
        (lambda: Table(lineup="club"), ValueError, "lineup must be a sequence of seats (person, beginner, club, "
         "expert), got 'club'"),
        (lambda: Table(players=3, lineup=("club",)), ValueError, "a table of 3 has 2 opponent seat(s); the lineup "
         "names 1"),
        (lambda: Table(players=2, lineup=("shark",)), ValueError, "a seat of the lineup is one of person, beginner, "
         "club, expert, got 'shark'"),
        (lambda: solve("Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh", players=3, table=Table()), ValueError,
         "give either table= or players, not both"),
        (lambda: evaluate("Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh", "Ah Ad 7c / 7s Kd Qd 9d 5d / 2c 3h 8s Tc Jh",
                          "seed", field="strong", table=Table()), ValueError,
         "give either table= or rules, field, not both"),
        (lambda: solve_many([], table="vietnamese"),  # type: ignore[arg-type]
         ValueError, "table must be a solver.Table, got 'vietnamese'"),
    ],
)  # fmt: skip
def test_bad_table_arguments_raise_clear_value_errors(make: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as err:
        make()
    assert message in str(err.value)
    assert isinstance(err.value, ValueError)


def test_a_lineup_with_a_person_names_the_opponent_seats_and_only_deep_mode_reads_it() -> None:
    plain = Table("vietnamese", 4)
    seated = Table("vietnamese", 4, lineup=["beginner", "beginner", "person"])
    assert seated.lineup == ("beginner", "beginner", "person") and plain.lineup is None
    assert seated != plain and seated == plain.replace(lineup=("beginner", "beginner", "person"))
    assert plain.seen_from(("beginner", "club", "beginner", "person"), 1) == seated  # seat 1 sees the others
    assert seated.model is plain.model  # the fast solver's tables are the field's either way
    again = pickle.loads(pickle.dumps(seated))
    assert again == seated and hash(again) == hash(seated)
    assert "lineup=('beginner', 'beginner', 'person')" in repr(seated)
    moved = 0
    for hand in hands(12, 21):
        assert solve(hand, top=3, table=seated) == solve(hand, top=3, table=plain)
        moved += solve(hand, mode="deep", seed=2, table=seated).best != solve(hand, mode="deep", seed=2,
                                                                              table=plain).best  # fmt: skip
    assert moved > 0  # two Beginners at the table change what deep mode sets


def test_table_is_exported() -> None:
    assert solver.Table is Table and "Table" in solver.__all__


def test_told_that_every_opponent_sets_strongest_back_first_fast_mode_plays_the_beginners_tables() -> None:
    beginners = Table("vietnamese", 4, lineup=["beginner"] * 3)
    assert beginners.every_seat_naive and beginners.played_by("fast") == beginners.replace(field="beginners")
    assert beginners.played_by("deep") is beginners
    assert Table("vietnamese", 4, "beginners").every_seat_naive
    assert Table("vietnamese", 4, "beginners", lineup=["person", "beginner", "person"]).every_seat_naive
    for table in (Table("vietnamese", 4), Table("vietnamese", 4, lineup=["beginner", "beginner", "person"]),
                  Table("vietnamese", 4, "beginners", lineup=["beginner", "club", "beginner"])):  # fmt: skip
        assert not table.every_seat_naive and table.played_by("fast") is table
    field = Table("vietnamese", 4, "beginners")
    cases = hands(30, 5)
    moved = 0
    for hand in cases:
        told = solve(hand, top=2, table=beginners)
        assert told.best == solve(hand, top=2, table=field).best and told.field == "beginners"
        assert evaluate(hand, told.best, table=beginners).ev == pytest.approx(told.ev)
        moved += told.best != solve(hand, table=Table("vietnamese", 4)).best
    assert moved > 0  # the sets that beat Beginners are not the population field's
    batch = solve_many(np.asarray([[c.code for c in hand] for hand in cases], dtype=np.int8), table=beginners)
    assert batch.field == "beginners"
    assert all(list(batch.best[i]) == [c.code for c in solve(h, table=beginners).best.cards]
               for i, h in enumerate(cases))  # fmt: skip
    assert solve(cases[0], mode="deep", seed=1, table=beginners).field == "population"  # deep reads the lineup itself
