"""The data manifest (solver/data/manifest.json): it lists exactly the files beside it,
each entry agrees with its file (hash, arrays, the figures its builds recorded), and its
play entries are what the runtime loads for every preset, field and table size."""

from __future__ import annotations

import json

import numpy as np
import pytest

from solver.fields import FIELDS, NAIVE_SHARE
from solver.rules import PRESETS
from solver.tables import (
    DATA_DIR,
    MANIFEST,
    TABLE_SIZES,
    get_hand_weights,
    get_removal,
    get_rerank,
    play,
    read_manifest,
    removal_name,
    table_name,
)
from solver.training import manifest
from solver.training.removal import training_seed
from solver.training.tables import sample_seed
from tests.conftest import ROOT

BOOK = read_manifest()
SIZES = [str(p) for p in TABLE_SIZES]
#: The module of each build a record names.
MODULES = {"tables": "tables", "removal": "removal", "hand terms": "removal", "selfplay": "selfplay",
           "rerank": "rerank"}  # fmt: skip


def arrays_of(name: str) -> dict[str, np.ndarray]:
    with np.load(DATA_DIR / name) as data:
        return {k: data[k] for k in data.files}


def test_the_manifest_lists_exactly_the_files_beside_it() -> None:
    on_disk = {p.name for p in DATA_DIR.iterdir() if p.name != MANIFEST}
    assert set(BOOK["files"]) == on_disk
    assert BOOK["format"] == manifest.FORMAT


def test_the_manifest_is_stored_as_the_builds_write_it() -> None:
    assert (DATA_DIR / MANIFEST).read_text(encoding="utf-8") == manifest.dumps(BOOK)


def test_the_manifest_ships_with_the_package() -> None:
    [line] = [x for x in (ROOT / "pyproject.toml").read_text().splitlines() if x.startswith("solver = [")]
    assert '"data/manifest.json"' in line and '"data/*.npz"' in line  # the package data of solver


@pytest.mark.parametrize("name", sorted(BOOK["files"]))
def test_each_entry_agrees_with_its_file(name: str) -> None:
    entry = BOOK["files"][name]
    kind, preset, field = entry["kind"], entry["preset"], entry["field"]
    assert kind in manifest.KINDS and preset in PRESETS and field in FIELDS
    assert name == (table_name if kind == "field" else removal_name)(preset, field)
    assert entry["sha256"] == manifest.sha256(DATA_DIR / name)
    arrays = arrays_of(name)
    assert entry["arrays"] == {k: list(v.shape) for k, v in arrays.items()}
    assert entry["holds"] == manifest.holds(kind, preset, field, entry["arrays"])
    for record in entry["builds"]:
        assert record["command"].startswith(f"python -m solver.training.{MODULES[record['build']]} build")
        assert record["took"]
        for key, value in record.items():  # every figure named after an array equals it
            if key in arrays:
                assert value == arrays[key].item(), (name, key)
            elif isinstance(value, dict) and f"{key}_{TABLE_SIZES[0]}" in arrays:
                assert value == {p: arrays[f"{key}_{p}"].tolist() for p in SIZES}, (name, key)


@pytest.mark.parametrize("name", sorted(n for n, e in BOOK["files"].items() if e["kind"] == "field"))
def test_a_field_file_records_its_best_response_build_and_any_self_play(name: str) -> None:
    entry, arrays = BOOK["files"][name], arrays_of(name)
    tables, *later = entry["builds"]
    assert tables["build"] == "tables"
    assert (tables["samples"], tables["seed"]) == (int(arrays["samples"]), int(arrays["seed"]))
    assert tables["naive_share"] == float(arrays["naive_share"]) == NAIVE_SHARE[entry["field"]]
    assert tables["sample_seeds"] == {p: sample_seed(tables["seed"], entry["preset"], int(p)) for p in SIZES}
    assert tables["moves"] == {p: arrays[f"moves_{p}"].tolist() for p in SIZES}
    for moves in tables["moves"].values():  # stopped on the tolerance or the iteration limit; beginners: no moves
        if tables["naive_share"] == 1.0:
            assert moves == []
        else:
            assert 0 < len(moves) <= tables["max_iter"]
            assert len(moves) == tables["max_iter"] or moves[-1] < tables["tol"]
    if later:
        [selfplay] = later
        assert selfplay["build"] == "selfplay"
        assert all(f"selfplay_{k}" in selfplay for k in ("rounds", "moved", "same"))
    else:
        assert not any(k.startswith("selfplay_") for k in arrays)


@pytest.mark.parametrize("name", sorted(n for n, e in BOOK["files"].items() if e["kind"] == "removal"))
def test_a_removal_file_records_its_builds(name: str) -> None:
    entry, arrays = BOOK["files"][name], arrays_of(name)
    builds = {b["build"]: b for b in entry["builds"]}
    assert [b["build"] for b in entry["builds"]] == [
        b for b in ("removal", "hand terms", "selfplay", "rerank") if b in builds]  # fmt: skip
    removal = builds["removal"]
    assert {k: removal[k] for k in ("hands", "bank", "seed", "passes")} == {
        k: int(arrays[k]) for k in ("hands", "bank", "seed", "passes")}  # fmt: skip
    assert removal["ridge"] == float(arrays["ridge"])
    assert removal["training_seeds"] == {
        p: training_seed(removal["seed"], entry["preset"], entry["field"], int(p)) for p in SIZES}  # fmt: skip
    assert ("hand terms" in builds) == ("hand_2" in arrays)
    if "hand terms" in builds:
        assert builds["hand terms"]["hand_hands"] == int(arrays["hand_hands"])
    if "rerank" in builds:  # the re-ranking build learned the weights and margins of these sizes
        figures = builds["rerank"]["figures"]
        assert sorted(figures) == [str(p) for p in SIZES if f"rerank_{p}" in arrays]
        assert all(figures[p]["margin"] == round(float(arrays[f"rerank_margin_{p}"]), 4) for p in figures)
    if "selfplay" in builds:  # self-play rewrote this file and the field's together
        field_file = BOOK["files"][table_name(entry["preset"], entry["field"])]
        assert field_file["builds"][-1]["selfplay_rounds"] == builds["selfplay"]["selfplay_rounds"]


def test_every_preset_and_field_has_one_play_entry_that_names_its_files() -> None:
    keys = [(e["preset"], e["field"]) for e in BOOK["play"]]
    assert sorted(keys) == sorted((p, f) for p in PRESETS for f in FIELDS)
    for entry in BOOK["play"]:
        preset, field = entry["preset"], entry["field"]
        tables = BOOK["files"][entry["tables"]]
        assert (tables["kind"], tables["preset"], tables["field"]) == ("field", preset, field)
        assert entry["why"]
        assert set(entry["hand_terms"]) <= set(entry["correction"]) <= set(TABLE_SIZES)
        if entry["removal"] is None:
            assert entry["correction"] == [] and entry["hand_terms"] == [] and entry["passes"] is None
            continue
        removal = BOOK["files"][entry["removal"]]
        assert (removal["kind"], removal["preset"], removal["field"]) == ("removal", preset, field)
        assert all(f"removal_{p}" in removal["arrays"] for p in entry["correction"])
        assert all(f"hand_{p}" in removal["arrays"] for p in entry["hand_terms"])
        assert all(f"rerank_{p}" in removal["arrays"] for p in entry.get("rerank", []))
        assert entry["passes"] == removal["builds"][0]["passes"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_runtime_plays_what_the_manifest_says(preset: str) -> None:
    rules = PRESETS[preset]
    for field in FIELDS:
        entry = play(preset, field)
        for players in TABLE_SIZES:
            removal, weights = get_removal(rules, players, field), get_hand_weights(rules, players, field)
            assert (removal is not None) == (players in entry.correction)
            assert (weights is not None) == (players in entry.hand_terms)
            assert (get_rerank(rules, players, field) is not None) == (players in entry.rerank)
            if removal is not None:
                assert np.array_equal(removal, arrays_of(str(entry.removal))[f"removal_{players}"])


def test_a_manifest_with_no_entry_for_a_field_is_named() -> None:
    with pytest.raises(LookupError, match="no play entry for preset 'nope'"):
        play("nope", "strong")
    assert json.loads(manifest.dumps(BOOK)) == BOOK
