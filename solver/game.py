"""One small game protocol, and the Mau Binh table behind it.

Every game of the project (the Mau Binh table here, Macao in :mod:`macao.game`) is
driven through the same eight calls of :class:`Game`, after OpenSpiel's game/state API
with the chance nodes hidden behind a seed:

* ``new_state(seed)``: a dealt position, the same for the same seed;
* ``num_players(state)`` and ``to_act(state)``: the seats that may act now (one seat in
  a turn-based game; every seat still to set its hand in Mau Binh, whose seats act
  simultaneously; none once the game is over);
* ``legal_actions(state, seat)``: what that seat may do, as a sequence (it may be lazy:
  the 72,072 ways to set a Mau Binh hand are not built until asked for); ``x in
  legal`` tests one action;
* ``apply(state, seat, action)``: the next state (states are immutable values); an
  action that is not legal, or a seat that may not act, raises ``ValueError``;
* ``is_terminal(state)`` and ``returns(state)``: each seat's payoff once the game is
  over, summing to zero (``ValueError`` before the end);
* ``observation(state, seat)``: what that seat may know.

``tests/test_game_protocol.py`` runs the same conformance checks on every game.

In Mau Binh an action is a set (*xếp bài*): an :class:`~solver.scoring.Arrangement` of
the seat's 13 cards.  Every split is legal, a foul included (it is settled as one); the
hands stay hidden until every seat has set, then :func:`~solver.scoring.score_table`
settles the table and ``returns`` are the seats' chi.

>>> from solver import strongest_back_first
>>> game = MauBinhGame("vietnamese", players=2)
>>> state = game.new_state(seed=7)
>>> game.to_act(state)
(0, 1)
>>> len(game.legal_actions(state, 0))
72072
>>> for seat in game.to_act(state):
...     state = game.apply(state, seat, strongest_back_first(state.hands[seat]))
>>> game.is_terminal(state), sum(game.returns(state))
(True, 0.0)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import Protocol, TypeVar, overload, runtime_checkable

from .cards import Card, InvalidHandError
from .context import check_players
from .rules import Rules, get_rules
from .scoring import Arrangement, TableResult, as_arrangement, score_table
from .table import deal_hands

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
ObservationT = TypeVar("ObservationT", covariant=True)


@runtime_checkable
class Game(Protocol[StateT, ActionT, ObservationT]):
    """A game driven by immutable states (see the module docstring for each call)."""

    def new_state(self, seed: int) -> StateT: ...

    def num_players(self, state: StateT) -> int: ...

    def to_act(self, state: StateT) -> tuple[int, ...]: ...

    def legal_actions(self, state: StateT, seat: int) -> Sequence[ActionT]: ...

    def apply(self, state: StateT, seat: int, action: ActionT) -> StateT: ...

    def is_terminal(self, state: StateT) -> bool: ...

    def returns(self, state: StateT) -> tuple[float, ...]: ...

    def observation(self, state: StateT, seat: int) -> ObservationT: ...


def check_seat(seat: object, players: int) -> int:
    """``seat`` as a seat number of a table of ``players`` (ValueError otherwise)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat must be 0..{players - 1}, got {seat!r}")
    return seat


# --- Mau Binh ------------------------------------------------------------------------------

_FRONTS = tuple(combinations(range(13), 3))
_MIDDLES = tuple(combinations(range(10), 5))


class Splits(Sequence[Arrangement]):
    """Every way to set one 13-card hand (front, middle, back), 286 x 252 = 72,072 of them,
    built one at a time when asked for; ``in`` accepts any arrangement of the hand."""

    def __init__(self, hand: Sequence[Card]) -> None:
        self.hand = tuple(sorted(hand))

    def __len__(self) -> int:
        return len(_FRONTS) * len(_MIDDLES)

    @overload
    def __getitem__(self, index: int) -> Arrangement: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Arrangement]: ...

    def __getitem__(self, index: int | slice) -> Arrangement | Sequence[Arrangement]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(f"split {index} is outside 0..{len(self) - 1}")
        f, m = divmod(index % len(self), len(_MIDDLES))
        front = [self.hand[i] for i in _FRONTS[f]]
        rest = [card for i, card in enumerate(self.hand) if i not in _FRONTS[f]]
        middle = [rest[i] for i in _MIDDLES[m]]
        back = [card for i, card in enumerate(rest) if i not in _MIDDLES[m]]
        return Arrangement(front, middle, back)

    def __iter__(self) -> Iterator[Arrangement]:
        return (self[i] for i in range(len(self)))

    def __contains__(self, value: object) -> bool:
        return isinstance(value, Arrangement) and sorted(value.cards) == list(self.hand)


@dataclass(frozen=True)
class Round:
    """One Mau Binh deal in play: every seat's 13 cards (sorted) and the sets handed in so far."""

    rules: Rules
    seed: int
    hands: tuple[tuple[Card, ...], ...]
    sets: tuple[Arrangement | None, ...]

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def revealed(self) -> bool:
        """True once every seat has set its hand (the sets are then shown and settled)."""
        return all(s is not None for s in self.sets)

    @cached_property
    def result(self) -> TableResult:
        """The table's settlement (every seat must have set)."""
        if not self.revealed:
            raise ValueError(f"seats {', '.join(map(str, self.waiting))} have not set their hands yet")
        return score_table([s for s in self.sets if s is not None], self.rules)

    @property
    def waiting(self) -> tuple[int, ...]:
        return tuple(seat for seat, s in enumerate(self.sets) if s is None)


@dataclass(frozen=True)
class RoundView:
    """What one seat knows of a :class:`Round`: its own cards and set, who has set, and,
    once every seat has, all the sets and the settlement."""

    seat: int
    hand: tuple[Card, ...]
    own_set: Arrangement | None
    has_set: tuple[bool, ...]
    sets: tuple[Arrangement, ...] | None
    result: TableResult | None


@dataclass(frozen=True, init=False)
class MauBinhGame:
    """The Mau Binh table as a :class:`Game`: ``players`` seats (2-4) under ``rules``, each
    dealt 13 cards from one deck shuffled by the state's seed (:func:`solver.table.deal_hands`,
    so ``new_state(TableConfig.deal_seed(n))`` deals hand ``n`` of a Play session)."""

    rules: Rules
    players: int

    def __init__(self, rules: Rules | str | None = None, players: int = 4) -> None:
        object.__setattr__(self, "rules", get_rules(rules))
        object.__setattr__(self, "players", check_players(players))

    def new_state(self, seed: int) -> Round:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a deal seed is a whole number 0 or more, got {seed!r}")
        hands = tuple(tuple(hand) for hand in deal_hands(seed, self.players))
        return Round(self.rules, seed, hands, (None,) * self.players)

    def num_players(self, state: Round) -> int:
        return state.players

    def to_act(self, state: Round) -> tuple[int, ...]:
        return state.waiting

    def legal_actions(self, state: Round, seat: int) -> Sequence[Arrangement]:
        seat = check_seat(seat, state.players)
        return Splits(state.hands[seat]) if state.sets[seat] is None else ()

    def apply(self, state: Round, seat: int, action: Arrangement | str) -> Round:
        """``seat`` hands in its set (an :class:`Arrangement` or its text)."""
        seat = check_seat(seat, state.players)
        if state.sets[seat] is not None:
            raise ValueError(f"seat {seat} has already set its hand")
        arrangement = as_arrangement(action)
        if sorted(arrangement.cards) != list(state.hands[seat]):
            raise InvalidHandError(
                f"seat {seat}'s set must use exactly its 13 cards ({' '.join(map(str, state.hands[seat]))}), "
                f"got {arrangement}"
            )
        sets = list(state.sets)
        sets[seat] = arrangement
        return Round(state.rules, state.seed, state.hands, tuple(sets))

    def is_terminal(self, state: Round) -> bool:
        return state.revealed

    def returns(self, state: Round) -> tuple[float, ...]:
        """Each seat's chi for the deal (score_table's totals)."""
        return tuple(float(total) for total in state.result.totals)

    def observation(self, state: Round, seat: int) -> RoundView:
        seat = check_seat(seat, state.players)
        done = state.revealed
        return RoundView(
            seat=seat,
            hand=state.hands[seat],
            own_set=state.sets[seat],
            has_set=tuple(s is not None for s in state.sets),
            sets=tuple(s for s in state.sets if s is not None) if done else None,
            result=state.result if done else None,
        )


__all__ = ["Game", "MauBinhGame", "Round", "RoundView", "Splits", "check_seat"]
