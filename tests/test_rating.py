"""Glicko-2 (trainer.rating): the paper's worked example, checked by hand, and the mapping
of hands to opponents and of chi lost to scores."""

from __future__ import annotations

import math

import pytest

from trainer.rating import (
    BEGINNER_RATING,
    HAND_RD,
    SCALE,
    Rating,
    hand_rating,
    hand_score,
    rate_hand,
    update,
)

#: Glickman, "Example of the Glicko-2 system" (2013), section "Example calculation".
PLAYER = Rating(1500, 200, 0.06)
GAMES = [(1400, 30, 1.0), (1550, 100, 0.0), (1700, 300, 0.0)]


def test_the_papers_worked_example() -> None:
    # the paper's intermediate values: g(φ_j) 0.9955, 0.9531, 0.7242; E 0.639, 0.432, 0.303;
    # v = 1.7785, Δ = -0.4834; then σ' = 0.05999, μ' = -0.2069, φ' = 0.8722
    after = update(PLAYER, GAMES, tau=0.5)
    assert (after.rating - 1500) / SCALE == pytest.approx(-0.2069, abs=5e-5)
    assert after.deviation / SCALE == pytest.approx(0.8722, abs=5e-5)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    assert after.rating == pytest.approx(1464.06, abs=0.02)  # the paper rounds μ' before converting
    assert after.deviation == pytest.approx(151.52, abs=0.01)


def test_the_papers_intermediate_quantities() -> None:
    # v and Δ by the paper's formulas, from the same games (a check of the steps, not the code)
    mu, phi = 0.0, 200 / SCALE
    g = [1 / math.sqrt(1 + 3 * (rd / SCALE) ** 2 / math.pi**2) for _, rd, _ in GAMES]
    e = [1 / (1 + math.exp(-gj * (mu - (r - 1500) / SCALE))) for gj, (r, _, _) in zip(g, GAMES)]
    v = 1 / sum(gj * gj * ej * (1 - ej) for gj, ej in zip(g, e))
    delta = v * sum(gj * (s - ej) for gj, ej, (_, _, s) in zip(g, e, GAMES))
    assert [round(x, 4) for x in g] == [0.9955, 0.9531, 0.7242]
    assert [round(x, 3) for x in e] == [0.639, 0.432, 0.303]
    # the paper rounds g and E before summing: its v and Δ agree to 1e-3
    assert v == pytest.approx(1.7785, abs=1e-3) and delta == pytest.approx(-0.4834, abs=1e-3)
    assert phi == pytest.approx(1.1513, abs=1e-4)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(PLAYER, [])
    assert after.rating == PLAYER.rating and after.volatility == PLAYER.volatility
    assert after.deviation == pytest.approx(SCALE * math.sqrt((200 / SCALE) ** 2 + 0.06**2))


def test_scores_and_hand_ratings() -> None:
    assert hand_score(0.0, 4) == 1.0
    assert hand_score(6.0, 4) == pytest.approx(math.exp(-1))  # 2 chi per opponent
    assert hand_score(2.0, 2) == hand_score(6.0, 4)  # chi per opponent
    assert hand_score(-0.01, 2) == 1.0  # a set a hair better than the fast solver's best
    # a hand the Beginner loses 2 ln 2 chi per opponent on is par for the Beginner
    assert hand_rating(2 * math.log(2), 2) == pytest.approx(BEGINNER_RATING)
    assert hand_rating(0.0, 4) < hand_rating(3.0, 4) < hand_rating(9.0, 4) < hand_rating(100.0, 4)
    assert hand_rating(100.0, 4) == pytest.approx(1500 + 400 * math.log10(1 / 0.01 - 1))


def test_rating_a_hand() -> None:
    start = Rating()
    hard = 12.0  # the Beginner loses 4 chi per opponent at 4 players
    best = rate_hand(start, hard, 0.0, 4)
    naive = rate_hand(start, hard, hard, 4)
    worse = rate_hand(start, hard, 30.0, 4)
    assert best.rating > start.rating > worse.rating
    assert best.rating > naive.rating > worse.rating
    assert best.deviation < start.deviation
    # the same hand played by a player who always sets like the Beginner settles near 1500
    r = Rating()
    for loss in (0.5, 3.0, 6.0, 1.2, 9.0, 4.17) * 20:
        r = rate_hand(r, loss, loss, 4)
    assert r.rating == pytest.approx(BEGINNER_RATING, abs=120)
    assert HAND_RD > 0


def test_bad_input_is_refused_with_the_value() -> None:
    with pytest.raises(ValueError, match="deviation and volatility must be positive"):
        Rating(1500, 0, 0.06)
    with pytest.raises(ValueError, match="finite number"):
        Rating(float("nan"))
    with pytest.raises(ValueError, match="score is between 0 and 1, got 2"):
        update(PLAYER, [(1500, 50, 2)])
    with pytest.raises(ValueError, match="players must be 2, 3 or 4, got 5"):
        hand_score(1.0, 5)
    with pytest.raises(ValueError, match="finite number of chi, got inf"):
        hand_rating(float("inf"), 2)
