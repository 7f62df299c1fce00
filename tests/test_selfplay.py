"""Self-play rounds (solver.training.selfplay): they replay, they move the field toward the
solver that plays it, and the command refuses what it cannot do."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from solver import _core
from solver.rules import PRESETS
from solver.tables import (
    DATA_DIR,
    MANIFEST,
    TABLE_SIZES,
    get_field,
    read_field,
    read_hand_weights,
    read_removal,
    removal_name,
    shipped_plays,
    table_name,
)
from solver.training.removal import bank_of, bank_rng
from solver.training.selfplay import (
    ROUNDS,
    Round,
    Solver,
    main,
    record_rounds,
    refined_sizes,
    self_play,
    self_play_fields,
    solve_rows,
)
from solver.training.tables import blend, deal_hands, distance, field_of, sample_hands, sample_seed

RULES = PRESETS["four-two"]
SAMPLES = 2000


def tiny(start: Solver, rounds: int, seed: int, chunks: int = 1, field: str = "strong") -> tuple[Solver, list[Round]]:
    """Self-play at heads-up on small samples, bank and training sets."""
    return self_play(RULES, 2, start, ("four-two", field), rounds, seed, None, chunks,
                     samples=SAMPLES, hands=300, bank_size=3000, hand_hands=1000)  # fmt: skip


def shipped(players: int) -> Solver:
    removal = DATA_DIR / removal_name("four-two", "strong")
    weights = read_hand_weights(removal, players)
    assert weights is not None
    tables = read_field(DATA_DIR / table_name("four-two", "strong"), players)
    return Solver(tables, read_removal(removal, players), weights)


def test_self_play_replays_exactly_whatever_the_chunking() -> None:
    start = shipped(2)
    one, log_one = tiny(start, 2, 7)
    three, log_three = tiny(start, 2, 7, chunks=3)
    assert log_one == log_three
    assert np.array_equal(one.correction, three.correction) and np.array_equal(one.weights, three.weights)
    assert np.array_equal(one.tables.back, three.tables.back)
    other, _ = tiny(start, 2, 8)
    assert not np.array_equal(one.weights, other.weights)


def test_a_round_moves_the_field_half_way_toward_the_rows_its_solver_sets() -> None:
    start = shipped(2)
    after, log = tiny(start, 1, 7)
    hands = sample_hands(SAMPLES, sample_seed(7, "four-two", 2))
    response = field_of(np.asarray(_solve(start, hands)), RULES)
    expected = blend(start.tables, response, 0.5)
    for got, want in zip(after.tables.rows(), expected.rows()):
        assert np.allclose(got, want) and np.isclose(got.sum(), 1.0)
    assert log[0].moved == pytest.approx(distance(start.tables, expected)) and log[0].moved > 0
    assert 0.0 < log[0].same < 1.0
    assert not np.array_equal(after.correction, start.correction)


def _solve(solver: Solver, hands: np.ndarray) -> np.ndarray:
    return np.asarray(_core.solve_batch(solver.model(RULES, 2), hands)[0])


def test_the_bank_starts_as_the_removal_builds_and_keeps_its_hands() -> None:
    # the bank hands are the removal build's (same generator), set as the rows say
    hands = deal_hands(3000, bank_rng(3000, 5, 2))
    keys = solve_rows(shipped(2).model(RULES, 2), hands, RULES)
    bank = bank_of(hands, keys, RULES)
    assert len(bank.keys) == 3000  # four-two has no specials and a solver never fouls
    assert np.array_equal(deal_hands(3000, bank_rng(3000, 5, 2)), hands)


def test_a_field_with_naive_players_is_refused() -> None:
    with pytest.raises(ValueError, match="holds naive players"):
        tiny(shipped(2), 1, 7, field="population")


def test_the_shipped_self_play_fields_have_had_their_rounds() -> None:
    assert self_play_fields() == [key for key, entry in sorted(shipped_plays().items()) if entry.hand_terms]
    assert self_play_fields() == [("four-two", "strong"), ("vietnamese", "strong")]
    for preset, field in self_play_fields():
        assert refined_sizes(DATA_DIR, preset, field) == list(TABLE_SIZES)
        with np.load(DATA_DIR / table_name(preset, field)) as data:
            for players in TABLE_SIZES:
                assert int(data[f"selfplay_rounds_{players}"]) == ROUNDS
                assert len(data[f"selfplay_moved_{players}"]) == ROUNDS
        for players in TABLE_SIZES:
            assert np.isclose(get_field(PRESETS[preset], players, field).back.sum(), 1.0)


def test_the_command_refuses_to_run_twice_on_the_same_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for preset, field in self_play_fields():
        shutil.copy(DATA_DIR / removal_name(preset, field), tmp_path / removal_name(preset, field))
        with np.load(DATA_DIR / table_name(preset, field)) as data:
            tables = {k: data[k] for k in data.files}
        tables["selfplay_rounds_2"] = np.int64(1)  # what a finished build records
        np.savez_compressed(tmp_path / table_name(preset, field), **tables)
    with pytest.raises(SystemExit):
        main(["build", "--out", str(tmp_path), "--sizes", "2"])
    assert "has had its self-play rounds at 2 players" in capsys.readouterr().err


def test_the_command_names_the_build_that_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["build", "--out", str(tmp_path)])
    assert "build it with `python -m solver.training.tables build` first" in capsys.readouterr().err
    for preset, field in self_play_fields():
        shutil.copy(DATA_DIR / table_name(preset, field), tmp_path / table_name(preset, field))
        with np.load(tmp_path / table_name(preset, field)) as data:
            unrefined = {k: data[k] for k in data.files if not k.startswith("selfplay_")}
        np.savez_compressed(tmp_path / table_name(preset, field), **unrefined)
    with pytest.raises(SystemExit):
        main(["build", "--out", str(tmp_path)])
    assert "build it with `python -m solver.training.removal build` first" in capsys.readouterr().err


def test_the_command_refuses_no_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["build", "--rounds", "0"])
    assert "--rounds must be at least 1" in capsys.readouterr().err


def test_the_rounds_are_recorded_in_the_manifest_after_the_builds(tmp_path: Path) -> None:
    """What the build records once its files are rewritten: the rounds' figures after the
    field's best-response build, replacing an earlier self-play record, and on the removal
    file it rewrote; the records of the shipped files are kept as they were."""
    shipped = json.loads((DATA_DIR / MANIFEST).read_text())
    preset, field = "four-two", "strong"
    for name in (table_name(preset, field), removal_name(preset, field)):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    (tmp_path / MANIFEST).write_text(json.dumps(shipped))
    with np.load(tmp_path / table_name(preset, field)) as data:
        tables = {k: data[k] for k in data.files}
    record_rounds(tmp_path, preset, field, tables, "1 s on 1 processes")
    book = json.loads((tmp_path / MANIFEST).read_text())
    for name in (table_name(preset, field), removal_name(preset, field)):
        old, new = shipped["files"][name]["builds"], book["files"][name]["builds"]
        assert new[:-1] == old[:-1] and new[-1]["build"] == "selfplay" and new[-1]["took"] == "1 s on 1 processes"
        assert new[-1]["selfplay_rounds"] == {str(p): ROUNDS for p in TABLE_SIZES}
    field_record = book["files"][table_name(preset, field)]["builds"][-1]
    assert field_record["selfplay_moved"] == {str(p): tables[f"selfplay_moved_{p}"].tolist() for p in TABLE_SIZES}
    assert book["play"] == shipped["play"]


def test_the_command_refines_only_the_presets_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert self_play_fields(["four-two", "plain"]) == [("four-two", "strong")]
    assert self_play_fields(["plain"]) == []
    with pytest.raises(SystemExit):
        main(["build", "--presets", "plain"])
    assert "fast mode plays no hand terms under plain: nothing to refine" in capsys.readouterr().err
