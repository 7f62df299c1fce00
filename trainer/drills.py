"""Themed drills and the daily hand: seeded deals chosen for what they teach.

A *themed drill* deals hands in which one theme's decision matters: the Beginner's set
(strongest back first) loses more than :data:`MIN_LOSS` chi against the best set, and the
theme classifier names ``theme_id`` between the two (:func:`trainer.themes.themes`).
Hand ``number`` of the drill started by ``seed`` is the first deal of its own random
stream that qualifies, so a drill replays exactly and hand 7 does not depend on hands 1-6.

The *daily hand* is the same for everyone on a given date: :func:`daily_seed` hashes the
ISO date, and hand 1 of that seed is the day's hand, the one the Practice page deals
with ``?seed=<daily seed>`` (:func:`daily_hand`).

>>> daily_seed("2026-12-02") == daily_seed(datetime.date(2026, 12, 2))
True
>>> len(themed_deal("pair-in-front", seed=1, number=1))
13
"""

from __future__ import annotations

import datetime
import hashlib
import random

from solver import PRESETS, Card, Rules, evaluate, solve, strongest_back_first
from solver.cards import full_deck
from solver.fields import DEFAULT_FIELD, check_field
from solver.rules import get_rules
from solver.strategy import check_players
from solver.table import MAX_SEED, deal_hands

from .themes import THEME_IDS, themes

#: A drill's hand must cost the Beginner's set more than this (chi): the "good" grade's bound.
MIN_LOSS = 0.25
#: Deals a drill looks at for one hand before it gives up.
MAX_TRIES = 5000
#: Themes the Beginner's set cannot show, and why (a drill of them would find nothing).
NOT_DRILLABLE = {
    "foul": "the Beginner's set (strongest back first) never fouls",
    "weak-back": "the Beginner's set (strongest back first) always has the strongest back",
}


class NoDrillHandError(ValueError):
    """No deal of the drill's stream showed the theme within MAX_TRIES."""


def _stream(theme_id: str, seed: int, number: int) -> random.Random:
    digest = hashlib.sha256(f"mau-binh drill {theme_id} {seed} {number}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def drillable(theme_id: str, rules: Rules) -> str | None:
    """Why a drill of ``theme_id`` cannot be dealt under ``rules``, or None when it can."""
    if theme_id not in THEME_IDS:
        return f"unknown theme id {theme_id!r}; expected one of {', '.join(THEME_IDS)}"
    if theme_id in NOT_DRILLABLE:
        return f"no drill for {theme_id!r}: {NOT_DRILLABLE[theme_id]}"
    if theme_id == "missed-special" and (not rules.specials or rules.special_detection != "layout"):
        return "no drill for 'missed-special': under these rules a special hand pays however it is set"
    return None


def themed_deal(
    theme_id: str,
    seed: int,
    number: int = 1,
    rules: Rules | str | None = PRESETS["vietnamese"],
    players: int = 4,
    field: str = DEFAULT_FIELD,
) -> list[Card]:
    """The 13 cards of hand ``number`` of the ``theme_id`` drill started by ``seed``: a deal
    where the Beginner's set loses more than MIN_LOSS chi and the theme tells it from the
    best set (fast mode, these rules, table size and field)."""
    rules = get_rules(rules)
    players = check_players(players)
    field = check_field(field)
    problem = drillable(theme_id, rules)
    if problem:
        raise ValueError(problem)
    for name, value in (("seed", seed), ("number", number)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"a drill's {name} is a whole number (0 or more), got {value!r}")
    rng = _stream(theme_id, seed, number)
    deck = full_deck()
    for _ in range(MAX_TRIES):
        cards = sorted(rng.sample(deck, 13))
        best = solve(cards, rules, players, field=field)
        naive = strongest_back_first(cards, rules)
        if best.ev - evaluate(cards, naive, rules, players, field=field).ev <= MIN_LOSS:
            continue
        if any(t.id == theme_id for t in themes(cards, naive, best.best, rules, players, field)):
            return cards
    raise NoDrillHandError(f"no hand of the {theme_id!r} drill (seed {seed}, hand {number}) showed the theme in "
                           f"{MAX_TRIES} deals")  # fmt: skip


def daily_seed(date: datetime.date | str) -> int:
    """The seed of the day's hand, the same for everyone on ``date`` (a date or its ISO text).

    >>> daily_seed("2026-12-02") != daily_seed("2026-12-03")
    True
    """
    if isinstance(date, str):
        try:
            date = datetime.date.fromisoformat(date)
        except ValueError:
            raise ValueError(f"a date is written YYYY-MM-DD, got {date!r}") from None
    if isinstance(date, datetime.datetime) or not isinstance(date, datetime.date):
        raise ValueError(f"expected a date (or YYYY-MM-DD), got {date!r}")
    digest = hashlib.sha256(f"mau-binh daily {date.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (MAX_SEED + 1)


def daily_hand(date: datetime.date | str) -> list[Card]:
    """The day's 13 cards: hand 1 of :func:`daily_seed`'s drill (Practice ``?seed=<seed>``),
    sorted by card code."""
    return deal_hands(daily_seed(date) * 1000, 2)[0]


__all__ = ["MAX_TRIES", "MIN_LOSS", "NOT_DRILLABLE", "NoDrillHandError", "daily_hand", "daily_seed", "drillable",
           "themed_deal"]  # fmt: skip
