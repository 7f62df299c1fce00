"""Cached calls from the app into the solver, returning plain data.

Results are cached with ``st.cache_data`` keyed on canonical strings (the hand sorted,
the arrangement's text, the preset name, the number of players, the mode and the
opponent field), so the same hand typed in any order, by any user, is solved once for
each field, and a switch of field never shows an answer worked out for another one.
The cached values are plain dicts of strings and floats: nothing user-specific lives at
module level, and nothing here depends on the solver's result classes being picklable.
"""

from __future__ import annotations

import math
import random
import secrets
import statistics
from functools import lru_cache
from typing import Any

import streamlit as st

import solver
from app.i18n import _
from solver import PRESETS, Card, Table, parse_cards, strongest_back_first
from solver.cards import full_deck
from solver.deep import DEFAULT_SAMPLES, score_candidates
from solver.fields import FIELDS
from solver.scoring import Arrangement
from solver.strategy import MODES as MODES
from solver.table import deck_seed

PLAYERS = (2, 3, 4)
TOP = 5
#: Seed handed to the solver so a shared link reproduces the same numbers.
SOLVER_SEED = 2024


def deal(seed: int) -> list[Card]:
    """13 cards from a shuffled deck, reproducible from the seed."""
    rng = random.Random(seed)
    deck = full_deck()
    rng.shuffle(deck)
    return deck[:13]


def drill_seed(seed: int, number: int) -> int:
    """Deal seed of hand ``number`` (1, 2, ...) of the drill started by ``seed`` (the Play
    page's rule, so hand n of a session opens in Practice)."""
    return deck_seed(seed, number)


def new_seed() -> int:
    """A fresh seed for a random deal (shown to the player so they can repeat it)."""
    return secrets.randbelow(1_000_000)


def check_settings(preset: str, players: int, mode: str, field: str) -> Table:
    """The solver's table for these settings, each checked with a message in the player's
    language (a bad one raises ValueError)."""
    if preset not in PRESETS:
        raise ValueError(
            _("unknown rule preset {preset}; expected one of {presets}").format(
                preset=repr(preset), presets=", ".join(PRESETS)
            )
        )
    if players not in PLAYERS:
        raise ValueError(_("players must be 2, 3 or 4, got {players}").format(players=repr(players)))
    if mode not in MODES:
        raise ValueError(_("mode must be fast or deep, got {mode}").format(mode=repr(mode)))
    if field not in FIELDS:
        raise ValueError(
            _("unknown opponents {field}; expected one of {fields}").format(field=repr(field), fields=", ".join(FIELDS))
        )
    return _table(preset, players, field)


@lru_cache(maxsize=64)
def _table(preset: str, players: int, field: str) -> Table:
    """One Table per settings, shared by every session (a frozen value)."""
    return Table(PRESETS[preset], players, field)


def _arrangement_text(arrangement: Arrangement) -> str:
    return str(arrangement)


#: Fast mode looks this deep for alternatives that are different plans (see :func:`plans`).
FAST_POOL = 64


Ranked = list[tuple[Arrangement, float]]


def plans(alternatives: Ranked, rules: solver.Rules, top: int) -> Ranked:
    """The best set of each plan, best first, at most ``top``.

    A plan is what each row is made of: its category and main rank (pair of kings, ace
    high, ...), so sets that differ only in where the kickers go are listed once.
    """
    seen: set[tuple[int, ...]] = set()
    out = []
    for arrangement, ev in alternatives:
        plan = tuple(key >> 20 for key in arrangement.keys(rules))  # category and top digit
        if plan not in seen:
            seen.add(plan)
            out.append((arrangement, ev))
            if len(out) == top:
                break
    return out


@st.cache_data(max_entries=4096, show_spinner=False)
def solve_hand(hand: str, preset: str, players: int, mode: str, field: str, top: int = TOP) -> dict[str, Any]:
    """The best set and the top alternatives (different plans in fast mode) for a canonical
    hand string, against the opponents ``field`` names.  Deep mode refines every candidate
    it lists, so it keeps the plain top."""
    table = check_settings(preset, players, mode, field)
    pool = FAST_POOL if mode == "fast" else top
    sol = solver.solve(parse_cards(hand), mode=mode, top=pool, seed=SOLVER_SEED, table=table)
    return {
        "hand": hand,
        "best": _arrangement_text(sol.best),
        "special": sol.special,
        "ev": float(sol.ev),
        "row_win": [float(p) for p in sol.row_win],
        "alternatives": [(_arrangement_text(a), float(ev)) for a, ev in plans(sol.alternatives, table.rules, top)],
    }


@st.cache_data(max_entries=8192, show_spinner=False)
def evaluate_set(hand: str, arrangement: str, preset: str, players: int, mode: str, field: str) -> dict[str, Any]:
    """EV, per-row win chances, validity and special of one arrangement of a hand against
    the opponents ``field`` names."""
    table = check_settings(preset, players, mode, field)
    cards, arr = parse_cards(hand), Arrangement.parse(arrangement)
    ev = solver.evaluate(cards, arr, mode=mode, seed=SOLVER_SEED, table=table)
    return {
        "arrangement": _arrangement_text(ev.arrangement),
        "ev": float(ev.ev),
        "row_win": [float(p) for p in ev.row_win],
        "valid": bool(ev.valid),
        "special": ev.special,
    }


#: Independent batches of sampled tables that measure deep mode's Monte Carlo error.
ERROR_BATCHES = 12


@st.cache_data(max_entries=1024, show_spinner=False)
def deep_error(hand: str, arrangement: str, preset: str, players: int, field: str) -> float:
    """One standard error of deep mode's EV of ``arrangement`` (its ± on the Solve page).

    Deep mode's EV is a mean over ``DEFAULT_SAMPLES`` sampled tables.  Its error is measured
    the plain way: ERROR_BATCHES further batches of tables (other seeds) give the spread of
    one table's chi, and that spread over the square root of the sample count is the error.
    """
    table = check_settings(preset, players, "deep", field)
    cards, arr = parse_cards(hand), Arrangement.parse(arrangement)
    size = DEFAULT_SAMPLES // ERROR_BATCHES
    means = [
        score_candidates(cards, [arr], table, SOLVER_SEED + 1 + batch, size)[0]
        for batch in range(ERROR_BATCHES)
    ]
    spread = statistics.stdev(means) * math.sqrt(size)  # one sampled table's standard deviation
    return spread / math.sqrt(DEFAULT_SAMPLES)


# --- practice deals ------------------------------------------------------------------------

#: A "hard" hand is one where the naive set (strongest back first) loses at least this much.
HARD_MIN_LOSS = 1.0
#: How many candidate deals a hard deal looks at before taking the hardest it found.
HARD_TRIES = 12


def hard_deal(seed: int, preset: str, players: int, field: str) -> tuple[list[Card], float]:
    """A deal (reproducible from the seed) where the naive set costs the most chi against
    the opponents ``field`` names (the ones the grades assume).

    Looks at up to HARD_TRIES deals and stops at the first that loses HARD_MIN_LOSS chi;
    returns the cards and what the naive set loses against the best one.
    """
    rng = random.Random(seed)
    hardest: tuple[list[Card], float] | None = None
    for _attempt in range(HARD_TRIES):
        cards = deal(rng.randrange(2**31))
        hand = " ".join(str(c) for c in cards)
        best = solve_hand(hand, preset, players, "fast", field, 1)
        if best["special"]:
            continue
        naive = evaluate_set(hand, str(strongest_back_first(cards, preset)), preset, players, "fast", field)
        loss = best["ev"] - naive["ev"]
        if hardest is None or loss > hardest[1]:
            hardest = (cards, loss)
        if loss >= HARD_MIN_LOSS:
            break
    return hardest if hardest is not None else (cards, 0.0)
