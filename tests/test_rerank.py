"""Re-ranking fast mode's best sets (solver.training.rerank and ``_rerank`` in the core):
the features, the re-ranked search, the fit and the build."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from solver import _core
from solver.cards import Card
from solver.context import Table
from solver.deep import settle_sums
from solver.rules import PRESETS
from solver.tables import (
    DATA_DIR,
    RERANK_FEATURES,
    RERANKED,
    Rerank,
    get_field,
    get_hand_weights,
    get_model,
    get_removal,
    make_model,
    play,
    read_manifest,
    read_rerank,
    removal_name,
)
from solver.training.rerank import RIDGES, Sample, cross_validated, deal_hand, fit, main, regret_in_list

RULES = PRESETS["vietnamese"]
PLAYERS = 4


def base() -> _core.Model:
    """The shipped vietnamese strong model at 4 players, without its re-ranking."""
    return make_model(get_field(RULES, PLAYERS, "strong"), RULES, PLAYERS, get_removal(RULES, PLAYERS, "strong"),
                      hand_weights=get_hand_weights(RULES, PLAYERS, "strong"))  # fmt: skip


def with_weights(weights: np.ndarray, margin: float = np.inf) -> _core.Model:
    return make_model(get_field(RULES, PLAYERS, "strong"), RULES, PLAYERS, get_removal(RULES, PLAYERS, "strong"),
                      hand_weights=get_hand_weights(RULES, PLAYERS, "strong"),
                      rerank=Rerank(weights, margin))  # fmt: skip


def listed(model: _core.Model, codes: list[int], top: int = RERANKED) -> tuple[np.ndarray, np.ndarray]:
    found = _core.solve_hand(model, codes, top)
    return np.asarray([[*f, *m, *b] for f, m, b, _ in found], dtype=np.int32), np.asarray([e for *_, e in found])


def reference_features(model: _core.Model, sets: np.ndarray) -> np.ndarray:
    """The features as _rerank_features documents them, from the model's row tables."""
    classes = _core.row_classes(sets)
    rows = [t[classes[:, r]] for r, t in enumerate((model.front, model.middle, model.back))]
    p = np.stack([r[:, 0] for r in rows], 1)
    q = np.stack([r[:, 1] for r in rows], 1)
    pp = np.prod([r[:, 7] for r in rows], axis=0)
    qq = np.prod([r[:, 8] for r in rows], axis=0)
    mb = RULES.majority_bonus
    cols = [pp, qq, pp * (sum(r[:, 3] for r in rows) + mb), (sum(r[:, 9] for r in rows) + mb) * qq, pp**2, qq**2]
    cols += [p[:, k] for k in range(3)] + [q[:, k] for k in range(3)]
    cols += [p[:, 0] * p[:, 1], p[:, 0] * p[:, 2], p[:, 1] * p[:, 2], q[:, 0] * q[:, 1], q[:, 0] * q[:, 2],
             q[:, 1] * q[:, 2]]  # fmt: skip
    return np.stack(cols, 1)


@pytest.mark.parametrize("hand", range(5))
def test_the_core_computes_the_documented_features(hand: int) -> None:
    model = base()
    sets, _ = listed(model, deal_hand(7, PLAYERS, hand))
    got = _core.rerank_features(model, sets)
    assert got.shape == (len(sets), RERANK_FEATURES) == (len(sets), 18)
    assert np.allclose(got, reference_features(model, sets), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("hand", range(12))
def test_the_search_plays_the_best_of_the_objectives_eight_after_the_correction(hand: int) -> None:
    weights = np.random.default_rng(hand).normal(0, 0.3, RERANK_FEATURES)
    codes = deal_hand(11, PLAYERS, hand)
    plain, reranked = base(), with_weights(weights)
    sets, evs = listed(plain, codes)
    corrections = _core.rerank_features(plain, sets) @ weights
    order = np.argsort(-(evs + corrections), kind="stable")
    # ranked by the corrected objective; the best keeps its objective, the others lie
    # below it by their corrected differences
    anchored = evs + corrections - corrections[order[0]]
    got, got_evs = listed(reranked, codes)
    assert np.array_equal(got, sets[order]) and np.allclose(got_evs, anchored[order])
    arrs, best = _core.solve_batch(reranked, np.asarray([codes], dtype=np.int32))
    assert np.array_equal(arrs[0], sets[order[0]]) and np.isclose(best[0], evs[order[0]])
    # a listed set's value is on the search's scale: its correction less the best's
    for i in order[:2]:
        assert np.isclose(value(reranked, sets[i]), anchored[i])
    # a set the search does not list keeps its objective, as the best does
    further, further_evs = listed(plain, codes, 12)
    assert np.isclose(value(reranked, further[-1]), further_evs[-1])
    assert len(listed(reranked, codes, 1)[0]) == 1


def value(model: _core.Model, rows: np.ndarray) -> float:
    return float(_core.arrangement_stats(model, rows[:3].tolist(), rows[3:8].tolist(), rows[8:].tolist())[0])


@pytest.mark.parametrize("hand", range(12))
def test_the_best_set_alone_is_sought_within_the_margin(hand: int) -> None:
    weights = np.random.default_rng(100 + hand).normal(0, 0.3, RERANK_FEATURES)
    codes = deal_hand(13, PLAYERS, hand)
    sets, evs = listed(base(), codes)
    corrected = evs + _core.rerank_features(base(), sets) @ weights
    for margin in (1e-9, 0.05, 0.3):
        within = evs >= evs[0] - margin
        pick = int(np.flatnonzero(within)[np.argmax(corrected[within])])
        arrs, best = _core.solve_batch(with_weights(weights, margin), np.asarray([codes], dtype=np.int32))
        assert np.array_equal(arrs[0], sets[pick]) and np.isclose(best[0], evs[pick])
    # a list of sets is not cut by the margin: the alternatives stay the re-ranked 8
    got, _ = listed(with_weights(weights, 1e-9), codes)
    assert np.array_equal(got, sets[np.argsort(-corrected, kind="stable")])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_pruned_search_picks_what_the_full_scan_picks(players: int) -> None:
    model = get_model(RULES, players, "strong")
    for hand in range(60):
        codes = deal_hand(17, players, hand)
        pruned, full = _core.solve_hand(model, codes, 1), _core.solve_hand(model, codes, 1, prune=False)
        assert pruned[0][3] == pytest.approx(full[0][3], abs=1e-9)
        assert pruned[0][3] == max(e for *_, e in _core.solve_hand(model, codes, RERANKED))


def test_zero_weights_change_nothing() -> None:
    zero = with_weights(np.zeros(RERANK_FEATURES))
    for hand in range(6):
        codes = deal_hand(3, PLAYERS, hand)
        sets, evs = listed(base(), codes)
        got, got_evs = listed(zero, codes)
        assert np.array_equal(got, sets) and np.allclose(got_evs, evs)


def test_weights_of_the_wrong_shape_or_no_margin_are_refused() -> None:
    with pytest.raises(ValueError, match=r"re-ranking weights must be \(18,\)"):
        with_weights(np.zeros(17))
    with pytest.raises(ValueError, match="margin must be positive"):
        with_weights(np.zeros(RERANK_FEATURES), 0.0)


def test_the_fit_learns_a_ranking_it_was_shown() -> None:
    """Sets whose means are the objective plus a hidden linear correction: the fitted
    weights play (nearly) the best set of hands it never saw, the objective alone does not."""
    rng = np.random.default_rng(5)
    truth = rng.normal(0, 1, 6)

    def samples(n: int) -> list[Sample]:
        out = []
        for _ in range(n):
            x = rng.normal(0, 0.1, (8, 6))
            objective = rng.normal(0, 0.1, 8)
            out.append(Sample(x, objective, objective + x @ truth + rng.normal(0, 0.005, 8)))
        return out

    weights = fit(samples(400), ridge=0.001)
    test = samples(200)
    assert regret_in_list(test, weights) < 0.2 * regret_in_list(test, None)
    assert np.corrcoef(weights, truth)[0, 1] > 0.95


def test_cross_validation_plays_every_hand_once_with_weights_not_fitted_on_it() -> None:
    rng = np.random.default_rng(9)
    samples = [Sample(rng.normal(0, 0.1, (8, 3)), rng.normal(0, 0.1, 8), rng.normal(0, 0.1, 8)) for _ in range(60)]
    # noise only: nothing to learn, so weights fitted elsewhere play no better than chance,
    # while weights fitted on the very hands (in-sample) would look better than they are
    assert cross_validated(samples, RIDGES[0]) > regret_in_list(samples, fit(samples, RIDGES[0]))


@pytest.mark.parametrize("field", ["strong", "population"])
def test_vietnamese_ships_weights_at_every_table_size(field: str) -> None:
    entry = play("vietnamese", field)
    assert entry.rerank == {2, 3, 4}
    for players in (2, 3, 4):
        model = get_model(RULES, players, field)
        assert model.rerank is not None and model.rerank.shape == (RERANK_FEATURES,)
        assert 0 < model.rerank_margin < 2
    assert get_model(PRESETS["four-two"], 4, field).rerank is None
    assert get_model(RULES, 4, "beginners").rerank is None


def test_deep_mode_sets_its_sampled_opponents_without_the_re_ranking() -> None:
    table = Table(RULES, PLAYERS, "strong")
    assert table.model.rerank is not None and table.opponent_model.rerank is None
    codes = deal_hand(23, PLAYERS, 0)
    sets, _ = listed(table.model, codes)
    cards = [Card(c) for c in codes]
    no_special = np.full(len(sets), -1, dtype=np.int32)
    default = settle_sums(cards, sets, no_special, table, 9, 200)
    plain = settle_sums(cards, sets, no_special, table, 9, 200, model=table.opponent_model)
    reranked = settle_sums(cards, sets, no_special, table, 9, 200, model=table.model)
    assert np.array_equal(default[0], plain[0])
    assert not np.array_equal(default[0], reranked[0])  # the two solvers set some sampled hands apart


def test_the_build_writes_weights_and_records_itself(tmp_path: Path) -> None:
    out = tmp_path / "data"
    shutil.copytree(DATA_DIR, out)
    assert main(["build", "--preset", "four-two", "--field", "strong", "--sizes", "2", "--hands", "30",
                 "--deals", "100", "--out", str(out), "--jobs", "1"]) == 0  # fmt: skip
    path = out / removal_name("four-two", "strong")
    rerank = read_rerank(path, 2)
    assert rerank is not None and rerank.weights.shape == (RERANK_FEATURES,) and np.isfinite(rerank.weights).all()
    assert rerank.margin > 0
    book = read_manifest(out)
    entry = next(e for e in book["play"] if (e["preset"], e["field"]) == ("four-two", "strong"))
    assert entry["rerank"] == [2]
    record = book["files"][path.name]["builds"][-1]
    assert record["build"] == "rerank" and record["figures"]["2"]["hands"] <= 30
    # the same build again replays exactly
    assert main(["build", "--preset", "four-two", "--field", "strong", "--sizes", "2", "--hands", "30",
                 "--deals", "100", "--out", str(out), "--jobs", "1"]) == 0  # fmt: skip
    again = read_rerank(path, 2)
    assert again is not None and np.array_equal(again.weights, rerank.weights) and again.margin == rerank.margin
    # valued against the mixture of opponent policies, the same hands teach other weights
    assert main(["build", "--preset", "four-two", "--field", "strong", "--sizes", "2", "--hands", "30",
                 "--deals", "100", "--out", str(out), "--jobs", "1", "--against", "mixture"]) == 0  # fmt: skip
    mixed = read_rerank(path, 2)
    assert mixed is not None and not np.array_equal(mixed.weights, rerank.weights)
    assert read_manifest(out)["files"][path.name]["builds"][-1]["command"].endswith("--against mixture")


def test_the_build_names_what_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["build", "--out", str(tmp_path)])
    assert "is missing" in capsys.readouterr().err
