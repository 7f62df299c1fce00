"""A player's rating: Glicko-2, each hand played an opponent rated by how hard it is.

Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013) keeps three numbers per
player: a rating ``r`` (1500 to start), a rating deviation ``RD`` (how unsure the rating
is; 350 to start) and a volatility ``σ`` (how erratic the player's results are; 0.06).
After a rating period it moves them by the games of that period, as in the paper:

1. to the Glicko-2 scale: ``μ = (r − 1500) / 173.7178``, ``φ = RD / 173.7178``;
2. for each opponent ``j``: ``g(φ_j) = 1 / sqrt(1 + 3 φ_j² / π²)`` and the expected score
   ``E_j = 1 / (1 + exp(−g(φ_j) (μ − μ_j)))``;
3. the estimated variance ``v = 1 / Σ g(φ_j)² E_j (1 − E_j)`` and the improvement
   ``Δ = v Σ g(φ_j) (s_j − E_j)``;
4. the new volatility ``σ'``: the root of
   ``f(x) = e^x (Δ² − φ² − v − e^x) / (2 (φ² + v + e^x)²) − (x − ln σ²) / τ²``,
   found by the Illinois variant of regula falsi (step 5 of the paper), ``σ' = e^(x/2)``;
5. ``φ* = sqrt(φ² + σ'²)``, ``φ' = 1 / sqrt(1 / φ*² + 1 / v)``,
   ``μ' = μ + φ'² Σ g(φ_j) (s_j − E_j)``; back to ``r' = 173.7178 μ' + 1500``,
   ``RD' = 173.7178 φ'``.

A period without games only widens the deviation: ``φ' = sqrt(φ² + σ²)``.

**Hands as opponents.**  Every hand the player sets is one game of a one-game period.
How much the hand is worth beating comes from the Beginner level (strongest back first):

* the *score* of a set that loses ``lost`` chi against the solver's best set at a table
  of ``players`` is ``s = exp(−lost / (players − 1) / SCORE_SCALE)``: 1 for the best set,
  0.78 for 0.5 chi per opponent, 0.37 for 2 chi per opponent, near 0 for a foul.  Chi per
  opponent, because a loss grows with the number of opponents it is paid to.
* the hand's *rating* is the one at which the Beginner's score on it is the expected
  one for a player rated :data:`BEGINNER_RATING`: with the Beginner's score ``s_B`` (the
  same formula, on the chi the Beginner's set loses), ``R = 1500 + 400 log10(1/s_B − 1)``,
  ``s_B`` held within [0.01, 0.99].  A hand the Beginner sets right is easy (about 700);
  one where the Beginner loses 2 chi per opponent is rated about 1590, 4 chi about 1820.  Its deviation is
  :data:`HAND_RD` (a hand's difficulty is computed, not guessed).

So 1500 means "sets hands as well as strongest back first", and a player who finds the
best set on every hand climbs above every hand they meet.  ``SCORE_SCALE`` = 2 chi per
opponent makes the median hand rated about 1500 at the Vietnamese rules (median Beginner
loss 1.39 chi per opponent over 600 seeded hands, heads-up and at 4 players alike).

>>> r = update(Rating(1500, 200, 0.06), [(1400, 30, 1.0), (1550, 100, 0.0), (1700, 300, 0.0)])
>>> round(r.rating, 1), round(r.deviation, 2), round(r.volatility, 4)
(1464.1, 151.52, 0.06)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The Glicko-2 scale factor 400 / ln 10 (the paper's 173.7178).
SCALE = 400 / math.log(10)
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
#: The system constant τ: how fast the volatility may change (the paper suggests 0.3-1.2).
TAU = 0.5
#: Convergence tolerance of the volatility iteration (the paper's ε).
EPSILON = 1e-6
#: The Beginner level's rating: a hand's rating is where the Beginner's result is par.
BEGINNER_RATING = 1500.0
#: Chi per opponent that takes a hand's score from 1 to 1/e.
SCORE_SCALE = 2.0
#: The deviation every hand (as an opponent) is rated with.
HAND_RD = 50.0
#: The Beginner's score is held within these bounds when a hand is rated (finite ratings).
HAND_SCORE_BOUNDS = (0.01, 0.99)

Game = tuple[float, float, float]  # opponent rating, opponent deviation, score 0..1


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating, deviation and volatility (on the familiar 1500 scale)."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    def __post_init__(self) -> None:
        for name in ("rating", "deviation", "volatility"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
                raise ValueError(f"a rating's {name} must be a finite number, got {value!r}")
        if self.deviation <= 0 or self.volatility <= 0:
            raise ValueError(f"a rating's deviation and volatility must be positive, got {self.deviation!r} and "
                             f"{self.volatility!r}")  # fmt: skip


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(rating: Rating, games: Sequence[Game], tau: float = TAU) -> Rating:
    """The rating after one rating period with ``games`` (opponent rating, deviation, score).

    No games: only the deviation grows (the player's rating is less certain).
    """
    mu, phi = (rating.rating - START_RATING) / SCALE, rating.deviation / SCALE
    if not games:
        return Rating(rating.rating, SCALE * math.sqrt(phi * phi + rating.volatility**2), rating.volatility)
    for _opponent, deviation, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a game's score is between 0 and 1, got {score!r}")
        if deviation <= 0:
            raise ValueError(f"an opponent's deviation must be positive, got {deviation!r}")
    terms = []
    for opponent, deviation, score in games:
        g_j = _g(deviation / SCALE)
        terms.append((g_j, _expected(mu, (opponent - START_RATING) / SCALE, g_j), score))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in terms)
    gain = sum(g * (s - e) for g, e, s in terms)
    sigma = _volatility(rating.volatility, phi, v, v * gain, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    return Rating(SCALE * mu_new + START_RATING, SCALE * phi_new, sigma)


def _check_loss(value: float, what: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number of chi, got {value!r}")
    return max(0.0, float(value))


def _check_players(players: int) -> int:
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    return players


def hand_score(lost: float, players: int) -> float:
    """The score (0..1) of a set that loses ``lost`` chi against the best set.

    >>> hand_score(0.0, 4), round(hand_score(6.0, 4), 3)
    (1.0, 0.368)
    """
    per_opponent = _check_loss(lost, "the chi lost") / (_check_players(players) - 1)
    return math.exp(-per_opponent / SCORE_SCALE)


def hand_rating(naive_loss: float, players: int) -> float:
    """The rating of a hand on which the Beginner's set loses ``naive_loss`` chi.

    >>> round(hand_rating(0.0, 2)), round(hand_rating(2 * math.log(2), 2))
    (702, 1500)
    """
    low, high = HAND_SCORE_BOUNDS
    score = min(high, max(low, hand_score(_check_loss(naive_loss, "the Beginner's loss"), players)))
    return BEGINNER_RATING + 400.0 * math.log10(1.0 / score - 1.0)


def rate_hand(rating: Rating, naive_loss: float, lost: float, players: int, tau: float = TAU) -> Rating:
    """The player's rating after setting one hand (a one-game rating period)."""
    return update(rating, [(hand_rating(naive_loss, players), HAND_RD, hand_score(lost, players))], tau)


__all__ = [
    "BEGINNER_RATING",
    "HAND_RD",
    "SCORE_SCALE",
    "TAU",
    "Rating",
    "hand_rating",
    "hand_score",
    "rate_hand",
    "update",
]
