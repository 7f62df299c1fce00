"""Macao (Romanian "Macaua") as a library: rules, engine, computer opponents, simulation.

The rules are ../shared/rules/macao.md §2; the API follows §4.3:

>>> from macao import Rules, new_game, legal_actions, apply, is_terminal
>>> state = new_game(Rules(), seed=1)
>>> while not is_terminal(state):
...     state = apply(state, legal_actions(state)[0])
>>> sorted(placings(state))
[1, 2]
"""

from __future__ import annotations

from .actions import (
    Accept,
    Action,
    CallMacao,
    Draw,
    IllegalActionError,
    KeepDrawn,
    Pass,
    Play,
    PlayDrawn,
)
from .rules import InvalidRulesError, Rules
from .state import (
    Event,
    GameNotOverError,
    Observation,
    Phase,
    State,
    apply,
    interrupts,
    is_terminal,
    legal_actions,
    make_state,
    new_game,
    observe,
    placings,
    ranking,
)

__all__ = [
    "Accept",
    "Action",
    "CallMacao",
    "Draw",
    "Event",
    "GameNotOverError",
    "IllegalActionError",
    "InvalidRulesError",
    "KeepDrawn",
    "Observation",
    "Pass",
    "Phase",
    "Play",
    "PlayDrawn",
    "Rules",
    "State",
    "apply",
    "interrupts",
    "is_terminal",
    "legal_actions",
    "make_state",
    "new_game",
    "observe",
    "placings",
    "ranking",
]
