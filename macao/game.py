"""Macao behind the project's game protocol (:class:`solver.game.Game`).

The same eight calls drive Macao and the Mau Binh table, so one conformance test, one
random playout and one bot harness serve both.  Macao is turn-based, with one exception
(§2.8): while a seat is exposed with one card left, any other seat still in may call
"Macao" on it out of turn.  So ``to_act`` is the current seat followed by every seat
that may call, ``legal_actions`` of the current seat are :func:`macao.legal_actions`
and those of another seat its :func:`macao.interrupts`.  ``returns`` turn the placings
into a zero-sum payoff: ``(players + 1) / 2 - place`` (first of two +0.5, last -0.5).

>>> game = MacaoGame(Rules(players=3))
>>> state = game.new_state(seed=4)
>>> while not game.is_terminal(state):
...     seat = game.to_act(state)[0]
...     state = game.apply(state, seat, game.legal_actions(state, seat)[0])
>>> sorted(game.returns(state))
[-1.0, 0.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .actions import Action, CallMacao, IllegalActionError
from .rules import Rules
from .state import Observation, State, apply, interrupts, is_terminal, legal_actions, new_game, observe, placings


def _check_seat(state: State, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.rules.players:
        raise ValueError(f"seat must be 0..{state.rules.players - 1}, got {seat!r}")
    return seat


@dataclass(frozen=True)
class MacaoGame:
    """Macao rounds under ``rules`` (a :class:`macao.Rules`; its ``players`` seats)."""

    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules must be a macao Rules, got {self.rules!r}")

    def new_state(self, seed: int) -> State:
        return new_game(self.rules, seed)

    def num_players(self, state: State) -> int:
        return state.rules.players

    def to_act(self, state: State) -> tuple[int, ...]:
        if is_terminal(state):
            return ()
        callers = (seat for seat in range(state.rules.players) if seat != state.current)
        return (state.current, *(seat for seat in callers if interrupts(state, seat)))

    def legal_actions(self, state: State, seat: int) -> Sequence[Action]:
        calls = interrupts(state, _check_seat(state, seat))  # empty once the round is over
        if seat == state.current and not is_terminal(state):
            return [*legal_actions(state), *calls]
        return calls

    def apply(self, state: State, seat: int, action: Action) -> State:
        """``seat`` acts: the current seat with any legal action, any seat with its call."""
        _check_seat(state, seat)
        if isinstance(action, CallMacao):
            if action.caller != seat:
                raise IllegalActionError(f"seat {seat} cannot make seat {action.caller}'s call", "2.8")
        elif seat != state.current:
            raise IllegalActionError(f"it is seat {state.current}'s turn, not seat {seat}'s; out of turn a seat "
                                     "may only call Macao", "2.8")  # fmt: skip
        return apply(state, action)

    def is_terminal(self, state: State) -> bool:
        return is_terminal(state)

    def returns(self, state: State) -> tuple[float, ...]:
        """``(players + 1) / 2 - place`` per seat (GameNotOverError, a ValueError, before the end)."""
        middle = (state.rules.players + 1) / 2
        return tuple(middle - place for place in placings(state))

    def observation(self, state: State, seat: int) -> Observation:
        return observe(state, seat)


__all__ = ["MacaoGame"]
