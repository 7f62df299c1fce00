"""Themed drills and the daily hand (trainer.drills): seeded, deterministic, and each
hand of a drill shows its theme between the Beginner's set and the best set."""

from __future__ import annotations

import datetime

import pytest

from solver import PRESETS, Rules, evaluate, solve, strongest_back_first
from solver.table import deal_hands
from trainer.drills import MIN_LOSS, NOT_DRILLABLE, daily_hand, daily_seed, drillable, themed_deal
from trainer.themes import THEME_IDS, themes

FAST_THEMES = ["broken-straight", "broken-flush", "broken-full-house", "trips-placement", "split-two-pair",
               "pair-in-front", "scoop-risk", "weak-front", "weak-middle"]  # fmt: skip


def shows(theme_id: str, cards: list, rules: Rules = PRESETS["vietnamese"], players: int = 4) -> bool:  # type: ignore[type-arg]
    best = solve(cards, rules, players)
    naive = strongest_back_first(cards, rules)
    assert best.ev - evaluate(cards, naive, rules, players).ev > MIN_LOSS
    return theme_id in {t.id for t in themes(cards, naive, best.best, rules, players)}


@pytest.mark.parametrize("theme_id", FAST_THEMES)
def test_a_drill_hand_shows_its_theme_and_replays(theme_id: str) -> None:
    first = themed_deal(theme_id, seed=11, number=1)
    assert len(set(first)) == 13 and shows(theme_id, first)
    assert themed_deal(theme_id, seed=11, number=1) == first  # the same seed and number: the same hand
    assert themed_deal(theme_id, seed=11, number=2) != first  # the next hand of the drill
    assert themed_deal(theme_id, seed=12, number=1) != first  # another drill


def test_a_drill_at_other_rules_and_table_sizes() -> None:
    cards = themed_deal("split-two-pair", seed=3, number=1, rules="plain", players=2)
    assert shows("split-two-pair", cards, PRESETS["plain"], 2)
    layout = Rules.from_options({"special_detection": "layout"})
    special = themed_deal("missed-special", seed=3, number=1, rules=layout, players=4)
    assert shows("missed-special", special, layout, 4)


def test_drills_that_cannot_exist_are_refused_with_the_reason() -> None:
    for theme_id in NOT_DRILLABLE:
        with pytest.raises(ValueError, match="no drill for"):
            themed_deal(theme_id, seed=1)
    with pytest.raises(ValueError, match="pays however it is set"):
        themed_deal("missed-special", seed=1)  # the default rules pay a special automatically
    with pytest.raises(ValueError, match="unknown theme id 'nope'"):
        themed_deal("nope", seed=1)
    with pytest.raises(ValueError, match="number is a whole number"):
        themed_deal("kicker", seed=1, number=-1)
    assert all(drillable(t, PRESETS["vietnamese"]) is None for t in FAST_THEMES + ["kicker", "bonus-row"])
    assert set(NOT_DRILLABLE) < set(THEME_IDS)


def test_the_daily_seed_is_the_same_for_everyone_on_a_date() -> None:
    day = datetime.date(2026, 12, 2)
    assert daily_seed(day) == daily_seed("2026-12-02")
    seeds = {daily_seed(day + datetime.timedelta(days=k)) for k in range(365)}
    assert len(seeds) == 365  # a new hand every day of a year
    assert all(0 <= s <= 999_999_999 for s in seeds)
    # a fixed value: the hash of the ISO date does not depend on the process or the machine
    assert daily_seed("2026-12-02") == daily_seed("2026-12-02") == 275_114_642
    hand = daily_hand(day)
    assert hand == deal_hands(daily_seed(day) * 1000, 4)[0]  # the Practice page's ?seed=<seed> hand 1
    with pytest.raises(ValueError, match="YYYY-MM-DD, got '2 December'"):
        daily_seed("2 December")
    with pytest.raises(ValueError, match="expected a date"):
        daily_seed(datetime.datetime(2026, 12, 2, 10, 0))
