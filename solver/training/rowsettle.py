"""One-on-one settlement of plain rows, vectorised over any number of seats.

What two valid hands without a special settle between them depends on their row keys
alone (:mod:`solver.hands`): each row won pays the winner's chi for that row (D7, O6),
winning two rows of three adds the majority bonus, and sweeping all three multiplies
the pair's net by the sweep multiplier and adds the sweep bonus (D8).  Fouls, specials,
aces and sập làng are the caller's.  The regret oracle (benchmarks/solver_regret.py)
and the card-removal corrections (:mod:`solver.training.removal`) both settle through here;
a test compares the oracle built on it with :func:`solver.scoring.score_table`.
"""

from __future__ import annotations

import numpy as np

from ..rules import Rules
from ..tables import TAG_SHIFT, tag_chi_values


def win_values(keys: np.ndarray, rules: Rules) -> np.ndarray:
    """Chi received for winning each row (..., 3) with these keys (D7, O6)."""
    by_tag = tag_chi_values(rules).astype(np.int64)
    return np.stack([by_tag[row][keys[..., row] >> TAG_SHIFT] for row in range(3)], axis=-1)


def valid_rows(keys: np.ndarray, rules: Rules) -> np.ndarray:
    """Whether row keys (..., 3) make a valid set (D3, D6; strict rules need each row
    strictly stronger than the one before)."""
    f, m, b = keys[..., 0], keys[..., 1], keys[..., 2]
    return (b > m) & (m > f) if rules.strict else (b >= m) & (m >= f)


def rows_net(mine: np.ndarray, theirs: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seat 0's net against one opponent from the rows alone, for row keys (..., 3) that
    broadcast: (net with majority bonus and scoop multiplier, I scoop, they scoop)."""
    # O5: seat 0 owns the table and takes a tied row at its own value
    win = mine >= theirs if rules.ties == "owner" else mine > theirs
    lose = mine < theirs
    net = (win * win_values(mine, rules) - lose * win_values(theirs, rules)).sum(axis=-1)
    won, lost = win.sum(axis=-1), lose.sum(axis=-1)
    net = net + rules.majority_bonus * ((won >= 2).astype(np.int64) - (lost >= 2))
    scoop_me, scoop_them = won == 3, lost == 3
    scooped = net * rules.sweep_mult + np.where(net > 0, rules.sweep_bonus, -rules.sweep_bonus)
    return np.where(scoop_me | scoop_them, scooped, net), scoop_me, scoop_them
