"""Computer players for a Mau Binh table: three levels behind one :class:`Player` protocol.

A player sees only its own 13 cards, the rules and how many sit at the table, and
returns the set it plays.  The levels, weakest first:

* **Beginner** sets the strongest five cards in the back, the best five of the rest in
  the middle and the last three in front (:func:`solver.strongest_back_first`): what a
  new player does, never a foul under non-strict rules.
* **Club** plays the fast solver's best set (:func:`solver.solve`, field tables).
* **Expert** plays deep mode: the fast solver's best candidates re-scored by Monte Carlo
  against opponents dealt from the unseen cards and settled exactly
  (:mod:`solver.deep`), with :data:`EXPERT_SAMPLES` opponent deals per decision, and
  up to :data:`solver.deep.EXTRA_SAMPLES` more while the best two sets are close (at a
  table of Beginners, :data:`solver.deep.CHEAP_ROUNDS`: they cost next to nothing to deal).

Club and Expert play against the opponents ``field`` names (:data:`solver.fields.FIELDS`,
"population" unless told); Beginner sets the same whoever sits at the table.  Each takes
the table as a :class:`solver.context.Table` (``table=``) or as ``rules``, ``players``
and ``field``.  Given a table with a ``lineup`` (who sits in each other seat), the
Expert deals each opponent's sampled hands as that opponent plays: a Beginner's
strongest back first, a Club's or Expert's the fast solver's set, a person's as the
field.  The Play page and rooms give their computer players the lineup: knowing who
sits where is most of the Expert's edge over Club (``benchmarks/play_levels.py``,
``docs/benchmarks.md``).

Every level is deterministic for a given seed, so a seeded table replays exactly.

>>> hand = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"
>>> str(LEVELS["beginner"].arrange(hand, "vietnamese", 4, seed=1))
'8s 3h 2c | Ah Jh Tc 7s 7c | Ad Kd Qd 9d 5d'
>>> sorted(LEVELS)
['beginner', 'club', 'expert']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from .cards import Card
from .context import Table, as_table
from .deep import DEFAULT_CANDIDATES, DEFAULT_SAMPLES, EXTRA_SAMPLES
from .rules import Rules
from .scoring import Arrangement
from .strategy import solve, strongest_back_first

CardsLike = Iterable[Card | str] | str

#: Opponent deals the Expert's deep mode settles per decision (deep mode's default), for
#: each of its candidate sets; at 4 seats a decision takes well under a second.
EXPERT_SAMPLES = DEFAULT_SAMPLES
#: How many of the fast solver's best sets the Expert re-scores.
EXPERT_CANDIDATES = DEFAULT_CANDIDATES


@runtime_checkable
class Player(Protocol):
    """Something that sets a 13-card hand for a table of ``players`` seats."""

    name: str
    description: str

    def arrange(
        self,
        cards: CardsLike,
        rules: Rules | str | None = None,
        players: int | None = None,
        seed: int | None = None,
        field: str | None = None,
        *,
        table: Table | None = None,
    ) -> Arrangement:
        """The set this player plays with ``cards`` at ``table`` (or the table ``rules``,
        ``players`` and ``field`` describe, as in :func:`solver.solve`); ``seed`` makes a
        random choice repeatable."""
        ...


class Beginner:
    """Strongest back first: the best five in the back, the best five left in the middle."""

    name = "Beginner"
    description = "sets the strongest five cards in the back, then the best five of the rest in the middle"

    def arrange(
        self,
        cards: CardsLike,
        rules: Rules | str | None = None,
        players: int | None = None,
        seed: int | None = None,
        field: str | None = None,
        *,
        table: Table | None = None,
    ) -> Arrangement:
        return strongest_back_first(cards, as_table(table, rules, players, field).rules)


class Club:
    """The fast solver's best set against the field."""

    name = "Club"
    description = "plays the fast solver's best set (highest expected chi against the field)"

    def arrange(
        self,
        cards: CardsLike,
        rules: Rules | str | None = None,
        players: int | None = None,
        seed: int | None = None,
        field: str | None = None,
        *,
        table: Table | None = None,
    ) -> Arrangement:
        return solve(cards, rules, players, "fast", field=field, table=table).best


class Expert:
    """Deep mode: the fast solver's best candidates settled exactly against sampled tables."""

    name = "Expert"
    description = (
        f"plays deep mode: the fast solver's {EXPERT_CANDIDATES} best sets, each settled exactly "
        f"against the same {EXPERT_SAMPLES} sampled tables of opponents (up to "
        f"{EXPERT_SAMPLES + EXTRA_SAMPLES} while the best two are close, and more at a table of "
        "Beginners), each opponent setting as it "
        "plays when the table names who sits where, and the best of them"
    )

    def arrange(
        self,
        cards: CardsLike,
        rules: Rules | str | None = None,
        players: int | None = None,
        seed: int | None = None,
        field: str | None = None,
        *,
        table: Table | None = None,
    ) -> Arrangement:
        return solve(cards, rules, players, "deep", seed=seed, field=field, table=table).best


#: The levels by their lower-case name, weakest first.
LEVELS: dict[str, Player] = {"beginner": Beginner(), "club": Club(), "expert": Expert()}


def get_player(level: str) -> Player:
    """The computer player of a level name (``"beginner"``, ``"club"`` or ``"expert"``)."""
    if not isinstance(level, str) or level.lower() not in LEVELS:
        raise ValueError(f"unknown player level {level!r}; expected one of {', '.join(LEVELS)}")
    return LEVELS[level.lower()]


__all__ = ["EXPERT_CANDIDATES", "EXPERT_SAMPLES", "LEVELS", "Beginner", "Club", "Expert", "Player", "get_player"]
