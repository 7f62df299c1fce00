"""A Macao position as plain JSON data, and back: how a round in progress is saved.

:func:`state_to_dict` writes every field of a :class:`~macao.state.State` with cards as
their codes (``"Qd"``, ``"BJ"``), suits as their letters and the phase as its name, so
``json.dumps`` takes it as it is; :func:`state_from_dict` reads it back through the
``State`` constructor, which checks it.  The round trip is exact (``state_from_dict(
state_to_dict(s)) == s``), so a saved round goes on with the same cards and the same
reshuffles.  No pickle: data read back is never code.

>>> from macao import Rules, new_game
>>> state = new_game(Rules(players=3), seed=7)
>>> state_from_dict(state_to_dict(state)) == state
True

A random generator (a bot's) is saved the same way with :func:`random_to_list` and
:func:`random_from_list` (its ``getstate()`` as lists of ints).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import asdict
from typing import Any

from solver.cards import Card, Suit, parse_cards

from .rules import Rules
from .state import Event, Phase, State

#: Version of the layout below; :func:`state_from_dict` refuses any other.
SNAPSHOT_VERSION = 1


def _codes(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _suit(suit: Suit | None) -> str | None:
    return None if suit is None else suit.value


def _event_to_dict(event: Event) -> dict[str, Any]:
    """An event with only the fields that differ from their defaults (a long round's log
    stays small)."""
    data = {name: value for name, value in event._asdict().items() if value != Event._field_defaults.get(name)}
    if event.cards:
        data["cards"] = _codes(event.cards)
    if event.suit is not None:
        data["suit"] = _suit(event.suit)
    return data


def _event_from_dict(data: Mapping[str, Any]) -> Event:
    suit = data.get("suit")
    return Event(
        kind=str(data["kind"]),
        seat=data.get("seat"),
        cards=tuple(parse_cards(list(data.get("cards", ())))),
        amount=int(data.get("amount", 0)),
        owed=int(data.get("owed", 0)),
        suit=None if suit is None else Suit(suit),
        declare=bool(data.get("declare", False)),
        target=data.get("target"),
        text=str(data.get("text", "")),
    )


def state_to_dict(state: State) -> dict[str, Any]:
    """Every field of ``state`` as JSON-ready data."""
    return {
        "version": SNAPSHOT_VERSION,
        "rules": asdict(state.rules),
        "seed": state.seed,
        "hands": [_codes(hand) for hand in state.hands],
        "stock": _codes(state.stock),
        "discard": _codes(state.discard),
        "current": state.current,
        "active_suit": _suit(state.active_suit),
        "pending_draw": state.pending_draw,
        "pending_skip": state.pending_skip,
        "skip_turns": list(state.skip_turns),
        "phase": state.phase.value,
        "drawn": None if state.drawn is None else str(state.drawn),
        "exposed": state.exposed,
        "finished": list(state.finished),
        "shuffle_count": state.shuffle_count,
        "passes": state.passes,
        "moves": state.moves,
        "dealer": state.dealer,
        "ranking": list(state.ranking),
        "end_reason": state.end_reason,
        "log": [_event_to_dict(e) for e in state.log],
    }


def state_from_dict(data: Mapping[str, Any]) -> State:
    """The state :func:`state_to_dict` wrote; ``ValueError`` naming what is wrong otherwise."""
    if not isinstance(data, Mapping):
        raise ValueError(f"a saved Macao round is a mapping, got {type(data).__name__}")
    if data.get("version") != SNAPSHOT_VERSION:
        raise ValueError(f"a saved Macao round of version {SNAPSHOT_VERSION} was expected, got {data.get('version')!r}")
    try:
        return State(
            rules=Rules.from_dict(dict(data["rules"])),
            seed=data["seed"],
            hands=tuple(tuple(hand) for hand in data["hands"]),
            stock=tuple(data["stock"]),
            discard=tuple(data["discard"]),
            current=int(data["current"]),
            active_suit=None if data["active_suit"] is None else Suit(data["active_suit"]),
            pending_draw=int(data["pending_draw"]),
            pending_skip=int(data["pending_skip"]),
            skip_turns=tuple(int(n) for n in data["skip_turns"]),
            phase=Phase(data["phase"]),
            drawn=None if data["drawn"] is None else parse_cards(data["drawn"])[0],
            exposed=data["exposed"],
            finished=tuple(int(s) for s in data["finished"]),
            shuffle_count=int(data["shuffle_count"]),
            passes=int(data["passes"]),
            moves=int(data["moves"]),
            dealer=int(data["dealer"]),
            ranking=tuple(int(s) for s in data["ranking"]),
            end_reason=data["end_reason"],
            log=tuple(_event_from_dict(e) for e in data["log"]),
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a saved Macao round: {type(exc).__name__} {exc}") from None


def random_to_list(rng: random.Random) -> list[Any]:
    """A generator's state as JSON-ready lists."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def random_from_list(data: list[Any]) -> random.Random:
    """A generator in the state :func:`random_to_list` wrote."""
    try:
        version, internal, gauss = data
        rng = random.Random()
        rng.setstate((int(version), tuple(int(n) for n in internal), gauss))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not a saved random generator: {exc}") from None
    return rng
