"""Card-removal corrections (solver.training.removal): the bank, the card-aware values, the
fit, and the corrected model the solver ships."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from solver import _core
from solver.fields import FIELDS
from solver.rules import PRESETS, Rules
from solver.scoring import arrangement_from_codes, chi_value, score_table
from solver.strategy import special_of_codes
from solver.tables import (
    CATEGORY_SHIFT,
    DATA_DIR,
    HAND_FEATURES,
    HAND_TERMS,
    MANIFEST,
    N_TAGS,
    TABLE_SIZES,
    TERM_PARTS,
    get_field,
    get_hand_weights,
    get_model,
    get_removal,
    hand_features,
    make_model,
    play,
    removal_by_class,
    removal_name,
    table_name,
    term_parts,
    term_slots,
)
from solver.training.removal import (
    HAND_HANDS,
    Bank,
    Gaps,
    HandGaps,
    build_hand_weights,
    build_removal,
    card_aware_values,
    fit,
    fit_hand_weights,
    main,
    plain_bank,
    recorded_passes,
)
from solver.training.tables import deal_hands, row_keys
from solver.training.tables import main as tables_main


def codes_of_mask(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


@pytest.mark.parametrize(("preset", "players", "field"), [("vietnamese", 4, "population"), ("four-two", 2, "strong")])
def test_the_bank_replays_and_holds_only_plain_hands(preset: str, players: int, field: str) -> None:
    rules = PRESETS[preset]
    bank = plain_bank(rules, players, field, 3000, seed=5)
    again = plain_bank(rules, players, field, 3000, seed=5)
    assert np.array_equal(bank.keys, again.keys) and np.array_equal(bank.masks, again.masks)
    # specials left out (the field never fouls a hand outside strict rules)
    assert (2500 < len(bank.keys) < 3000) if rules.specials else len(bank.keys) == 3000
    f, m, b = bank.keys.T
    assert np.all((b >= m) & (m >= f))
    for mask in bank.masks[:300].tolist():
        codes = codes_of_mask(mask)
        assert len(codes) == 13 and special_of_codes(codes, rules) is None
    other = plain_bank(rules, players, field, 3000, seed=6)
    assert not np.array_equal(bank.masks, other.masks)


def test_card_aware_values_settle_each_usable_hand_as_the_table_does() -> None:
    """Heads-up without aces, the value of a set is its mean total from score_table against
    the bank hands that share no card with it; hands that share one do not count."""
    rules = dataclasses.replace(PRESETS["vietnamese"], aces=False)
    hands = deal_hands(1500, np.random.default_rng(11))
    arranged, _ = _core.solve_batch(get_model(rules, 2, "strong"), hands)
    mine = arranged[0]
    keys = row_keys(arranged, rules)
    f, m, b = keys.T
    plain = (b >= m) & (m >= f) & np.asarray([special_of_codes(list(h), rules) is None for h in hands.tolist()])
    plain[0] = False
    masks = (np.uint64(1) << hands.astype(np.uint64)).sum(axis=1, dtype=np.uint64)

    bank = Bank(keys[plain], masks[plain])
    value = card_aware_values(keys[:1], [int(c) for c in mine], bank, rules, 2, scoop=0.0)
    me = arrangement_from_codes(mine[:3], mine[3:8], mine[8:])
    totals = []
    for i in np.flatnonzero(plain):
        if set(hands[i].tolist()) & set(mine.tolist()):
            continue
        them = arrangement_from_codes(arranged[i][:3], arranged[i][3:8], arranged[i][8:])
        totals.append(score_table([me, them], rules).totals[0])
    assert 0 < len(totals) < plain.sum()
    assert value[0] == pytest.approx(np.mean(totals), abs=1e-12)


def test_the_fit_recovers_a_planted_correction() -> None:
    """Gaps made of a known per-tag correction, a different offset per hand and a little
    noise: the fit gives back every within-hand difference the correction makes."""
    rng = np.random.default_rng(3)
    truth = np.zeros((3, N_TAGS))
    truth[:, :40] = rng.normal(0, 0.3, (3, 40))
    hands, per_hand = 3000, 6
    tags = rng.integers(0, 40, (hands * per_hand, 3))
    hand = np.repeat(np.arange(hands), per_hand)
    gaps = truth[np.arange(3), tags].sum(axis=1) + rng.normal(0, 1, hands)[hand] + rng.normal(0, 0.01, len(hand))
    got = fit(Gaps(tags, gaps, hand), ridge=1e-6)
    made = got[np.arange(3), tags].sum(axis=1).reshape(hands, per_hand)
    planted = truth[np.arange(3), tags].sum(axis=1).reshape(hands, per_hand)
    within = (made - made[:, :1]) - (planted - planted[:, :1])
    assert np.abs(within).max() < 0.02
    # the level follows the gaps on average (the per-hand offsets average out)
    assert abs(float(np.mean(gaps - got[np.arange(3), tags].sum(axis=1)))) < 1e-9


def term_values(rules: Rules) -> np.ndarray:
    """What winning the row of each hand term (HAND_TERMS: row, part, category * 13 + rank)
    with its category is worth, at least 1 chi."""
    return np.asarray([
        max(1.0, chi_value(j // (2 * TERM_PARTS), (j % TERM_PARTS // 13) << CATEGORY_SHIFT, rules))
        for j in range(HAND_TERMS)
    ])  # fmt: skip


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_shipped_table_has_its_correction(preset: str) -> None:
    rules = PRESETS[preset]
    for field in FIELDS:
        shipped = (DATA_DIR / removal_name(preset, field)).exists()
        assert shipped == (play(preset, field).removal is not None)
        if shipped:  # built with the passes the manifest records for it (3 under vietnamese and seed, else 1)
            assert int(np.load(DATA_DIR / removal_name(preset, field))["passes"]) == recorded_passes(preset, field)
            assert recorded_passes(preset, field) == (3 if preset in ("vietnamese", "seed") else 1)
        for players in TABLE_SIZES:
            removal = get_removal(rules, players, field)
            if not shipped:
                assert removal is None  # that field plays on the plain tables
                model = get_model(rules, players, field)
                assert np.array_equal(
                    np.asarray(model.middle),
                    np.asarray(make_model(get_field(rules, players, field), rules, players).middle),
                )
                continue
            assert removal is not None and removal.shape == (3, N_TAGS) and np.all(np.isfinite(removal))
            assert np.abs(removal).max() < 2.0  # chi per opponent: a correction, not a new table
            assert np.count_nonzero(removal[1]) > 10  # learned, not left empty
            weights = get_hand_weights(rules, players, field)
            assert (weights is not None) == (players in play(preset, field).hand_terms)
            assert (weights is not None) == (field == "strong" and preset in ("four-two", "vietnamese"))
            if weights is None:
                continue
            assert weights.shape == (HAND_FEATURES, HAND_TERMS)
            assert int(np.load(DATA_DIR / removal_name(preset, field))["hand_hands"]) == HAND_HANDS
            terms = hand_features(deal_hands(200, np.random.default_rng(players))) @ weights
            # chi per opponent and row part: less than winning that row with that category is worth
            # (vietnamese pays 8 for quads in the middle, and corrects it by up to 1.9)
            assert np.all(np.isfinite(terms)) and np.all(np.abs(terms) < term_values(rules))
            assert np.count_nonzero(weights) > 1000


@pytest.mark.parametrize(("preset", "players"), [("vietnamese", 4), ("four-two", 2), ("plain", 3)])
def test_the_corrected_search_is_exact(preset: str, players: int) -> None:
    """The pruning bounds stay bounds with the corrections in: the pruned search finds the
    same best EV as the full enumeration, and the EV is the uncorrected one plus the
    per-tag corrections and the hand terms of the three rows, times the opponents."""
    rules = PRESETS[preset]
    plain = make_model(get_field(rules, players, "strong"), rules, players)
    removal = get_removal(rules, players, "strong")
    weights = get_hand_weights(rules, players, "strong")
    # the shipped model without its re-ranking (tests/test_rerank.py covers that)
    model = make_model(get_field(rules, players, "strong"), rules, players, removal, hand_weights=weights)
    assert removal is not None and (weights is not None) == (preset in ("four-two", "vietnamese"))
    per_class = removal_by_class(removal, rules)
    hands = deal_hands(150, np.random.default_rng(21))
    for codes in hands.tolist():
        pruned = _core.solve_hand(model, codes, 1)
        full = _core.solve_hand(model, codes, 1, prune=False)
        assert pruned[0][3] == pytest.approx(full[0][3], abs=1e-9)
        f, m, b, ev = pruned[0]
        laid_out = np.asarray([[*f, *m, *b]], dtype=np.int32)
        cls = _core.row_classes(laid_out)[0]
        base = _core.arrangement_stats(plain, list(f), list(m), list(b))[0]
        shift = sum(float(c[k]) for c, k in zip(per_class, cls))
        if weights is not None:
            shift += (hand_features(laid_out)[0] @ weights)[term_slots(row_keys(laid_out, rules))].sum()
        assert ev == pytest.approx(base + shift * (players - 1), abs=1e-9)


def test_the_core_splits_row_keys_into_term_parts_as_python_does() -> None:
    for wheel_second in (False, True):
        k3, k5 = _core.class_keys(wheel_second)
        keys = np.concatenate([k3, k5])
        keys = keys[keys >= 0]
        assert np.array_equal(term_parts(keys), [_core.key_parts(int(k)) for k in keys])
    pair_of_nines = row_keys(np.asarray([[28, 29, 40, *range(10)]], dtype=np.int32), PRESETS["plain"])[0, 0]
    assert term_parts([pair_of_nines]).tolist() == [[1 * 13 + 7, 1 * 13 + 10]]  # a pair of 9s, a queen kicker


def test_the_hand_term_fit_recovers_planted_weights() -> None:
    """Gaps made of known hand-term weights on a few slots, an offset per hand and a little
    noise: the fit gives back the within-hand differences they make."""
    rng = np.random.default_rng(4)
    hands, per_hand = 4000, 6
    truth = np.zeros((HAND_FEATURES, HAND_TERMS))
    used = rng.choice(HAND_TERMS, 30, replace=False)
    truth[:, used] = rng.normal(0, 0.02, (HAND_FEATURES, 30))
    features = hand_features(deal_hands(hands, rng))
    slots = used[rng.integers(0, 30, (hands * per_hand, 3, 2))]
    hand = np.repeat(np.arange(hands), per_hand)

    def made(w: np.ndarray) -> np.ndarray:
        return np.asarray((features[hand][:, :, None] * w[:, slots.reshape(-1, 6)].transpose(1, 0, 2)).sum(axis=(1, 2)))

    gaps = made(truth) + rng.normal(0, 1, hands)[hand] + rng.normal(0, 0.005, len(hand))
    got = fit_hand_weights(HandGaps(features, slots, gaps, hand), ridge=1e-3, iterations=400)
    within = (made(got) - made(truth)).reshape(hands, per_hand)
    within -= within[:, :1]
    assert np.abs(within).max() < 0.05 and np.sqrt((within**2).mean()) < 0.01


def test_the_correction_moves_some_answers_but_not_most() -> None:
    rules = PRESETS["vietnamese"]
    hands = deal_hands(500, np.random.default_rng(8))
    new, _ = _core.solve_batch(get_model(rules, 4, "strong"), hands)
    old, _ = _core.solve_batch(make_model(get_field(rules, 4, "strong"), rules, 4), hands)
    moved = int(np.sum(np.any(new != old, axis=1)))
    assert 5 < moved < 250


def test_the_build_command_refuses_tiny_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["build", "--hands", "10"])
    assert "--hands must be at least 100" in capsys.readouterr().err


def test_the_build_command_refuses_a_tiny_hand_term_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["build", "--hand-hands", "10"])
    assert "--hand-hands must be 0 (no hand terms) or at least 1000" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["build", "--hand-hands", "0", "--only-hand-terms"])
    assert "--only-hand-terms needs --hand-hands above 0" in capsys.readouterr().err


def test_the_build_command_refuses_no_passes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["build", "--passes", "0"])
    assert "--passes must be at least 1" in capsys.readouterr().err


def test_a_corrected_bank_deals_the_same_hands_and_sets_them_with_the_correction() -> None:
    """A later pass's bank: the same seeded hands, set by the solver with the last pass's
    correction, so some of them are set differently."""
    rules = PRESETS["vietnamese"]
    correction = get_removal(rules, 4, "strong")
    assert correction is not None
    plain = plain_bank(rules, 4, "strong", 3000, seed=5)
    corrected = plain_bank(rules, 4, "strong", 3000, seed=5, removal=correction)
    assert np.array_equal(plain.masks, corrected.masks)
    changed = np.any(plain.keys != corrected.keys, axis=1).mean()
    assert 0.01 < changed < 0.5
    hands = np.asarray([codes_of_mask(m) for m in corrected.masks[:200].tolist()], dtype=np.int32)
    model = make_model(get_field(rules, 4, "strong"), rules, 4, correction)
    assert np.array_equal(row_keys(_core.solve_batch(model, hands)[0], rules), corrected.keys[:200])


def test_a_second_pass_moves_the_correction() -> None:
    rules = PRESETS["vietnamese"]
    once = build_removal(rules, 4, "strong", 300, 4000, seed=9, pool=None, chunks=1)
    twice = build_removal(rules, 4, "strong", 300, 4000, seed=9, pool=None, chunks=2, passes=2)
    assert not np.array_equal(once, twice)
    assert np.abs(once - twice).max() < np.abs(once).max()  # a refinement, not a new start


def test_a_build_replays_exactly_whatever_the_chunking() -> None:
    rules = PRESETS["vietnamese"]
    one = build_removal(rules, 4, "strong", 300, 4000, seed=9, pool=None, chunks=1)
    three = build_removal(rules, 4, "strong", 300, 4000, seed=9, pool=None, chunks=3)
    assert np.array_equal(one, three)
    assert np.count_nonzero(one) > 0
    assert not np.array_equal(one, build_removal(rules, 4, "strong", 300, 4000, seed=10, pool=None, chunks=1))


def test_a_hand_term_build_replays_exactly_whatever_the_chunking() -> None:
    rules = PRESETS["four-two"]
    correction = get_removal(rules, 2, "strong")
    assert correction is not None
    one = build_hand_weights(rules, 2, "strong", 1000, 4000, seed=9, pool=None, chunks=1, correction=correction)
    three = build_hand_weights(rules, 2, "strong", 1000, 4000, seed=9, pool=None, chunks=3, correction=correction)
    assert np.array_equal(one, three) and np.count_nonzero(one) > 1000
    other = build_hand_weights(rules, 2, "strong", 1000, 4000, seed=10, pool=None, chunks=1, correction=correction)
    assert not np.array_equal(one, other)


def test_a_hand_no_bank_hand_avoids_gets_no_value() -> None:
    rules = PRESETS["vietnamese"]
    bank = plain_bank(rules, 2, "strong", 1000, seed=5)
    crowded = Bank(bank.keys[:3], np.full(3, np.uint64(1)))  # every bank hand holds card 0, as mine does
    keys = row_keys(np.asarray([list(range(13))], dtype=np.int32), rules)
    assert np.isnan(card_aware_values(keys, list(range(13)), crowded, rules, 2, scoop=0.0)).all()


@pytest.mark.parametrize("build", [main, tables_main], ids=["removal", "tables"])
def test_a_build_refuses_an_out_directory_it_cannot_make_before_it_starts(
    build: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(SystemExit):
        build(["build", "--out", str(blocker / "data")])
    err = capsys.readouterr().err
    assert f"--out {blocker / 'data'}: cannot make that directory" in err
    assert "Traceback" not in err


def test_a_build_records_its_file_and_what_plays_it_in_the_manifest(tmp_path: Path) -> None:
    """A tiny build into an empty directory writes the manifest beside its file: the file's
    arrays, hash and build, and a play entry that plays the correction as the shipped one
    does; a hand-term build on it keeps the per-tag build's record and adds its own, and
    plays no hand terms where the shipped entry plays none."""
    from solver.training.removal import build_all, record_build

    build_all(100, 1000, 9, 1, ["plain"], ("strong",), tmp_path, hand_hands=0)
    book = json.loads((tmp_path / MANIFEST).read_text())
    name = removal_name("plain", "strong")
    entry = book["files"][name]
    with np.load(tmp_path / name) as data:
        assert entry["arrays"] == {k: list(data[k].shape) for k in data.files}
        assert [b["build"] for b in entry["builds"]] == ["removal"]
        assert {k: entry["builds"][0][k] for k in ("hands", "bank", "seed", "passes")} == {
            k: int(data[k]) for k in ("hands", "bank", "seed", "passes")
        }
    [plays] = book["play"]
    assert (plays["preset"], plays["field"], plays["removal"], plays["tables"]) == (
        "plain", "strong", name, table_name("plain", "strong"))  # fmt: skip
    assert plays["correction"] == [2, 3, 4] and plays["hand_terms"] == [] and plays["passes"] == 1
    # what a hand-term build on that file (--only-hand-terms --all-hand-terms) records
    with np.load(tmp_path / name) as data:
        arrays = {k: data[k] for k in data.files}
    arrays.update({f"hand_{p}": np.zeros((HAND_FEATURES, HAND_TERMS), np.float32) for p in TABLE_SIZES},
                  hand_hands=np.int64(1000), hand_ridge=np.float64(30), hand_iterations=np.int64(100))  # fmt: skip
    np.savez_compressed(tmp_path / name, **arrays)
    record_build(tmp_path, "plain", "strong", play("plain", "strong"), arrays, True, True, "1 s")
    again = json.loads((tmp_path / MANIFEST).read_text())
    assert [b["build"] for b in again["files"][name]["builds"]] == ["removal", "hand terms"]
    assert again["files"][name]["builds"][0] == entry["builds"][0]
    assert again["files"][name]["sha256"] != entry["sha256"]
    assert again["play"][0]["hand_terms"] == []  # measured, not played: the shipped entry plays none


def test_the_build_command_rebuilds_sizes_only_with_only_hand_terms(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["build", "--sizes", "4"])
    assert "--sizes needs --only-hand-terms (a per-tag build makes every table size)" in capsys.readouterr().err


def test_a_hand_term_build_at_some_sizes_keeps_the_other_sizes_terms(tmp_path: Path) -> None:
    name = removal_name("four-two", "strong")
    for file in (name, table_name("four-two", "strong"), MANIFEST):
        (tmp_path / file).write_bytes((DATA_DIR / file).read_bytes())
    sizes = ["--only-hand-terms", "--sizes", "2", "--hands", "100", "--bank", "1000", "--hand-hands", "1000"]
    main(["build", "--presets", "four-two", "--fields", "strong", *sizes, "--jobs", "1", "--out", str(tmp_path)])
    with np.load(tmp_path / name) as new, np.load(DATA_DIR / name) as old:
        assert sorted(new.files) == sorted(old.files)
        assert not np.array_equal(new["hand_2"], old["hand_2"])
        for kept in ("hand_3", "hand_4", "removal_2", "removal_3", "removal_4"):
            assert np.array_equal(new[kept], old[kept])
