"""A Macao room as data: seats, the round as the list of moves made, turns, the turn timer, each seat's view.

A Macao room keeps its round as the moves made so far, each the index of the move in
:func:`macao.legal_actions` of the state before it, over a deal drawn from the room's
secret (:mod:`rooms.secret`: the round's seed is :func:`rooms.secret.keyed_text` under
``"macao round r"``, a computer's choice on move ``m`` is drawn under ``"macao bot r m"``).
The state is rebuilt by replaying the moves (:func:`round_state`, cached;
:func:`round_history` gives each moment of the round), so the room's JSON stays small and a
round replays exactly, while neither the secret nor a seed made from it ever leaves the store.

* :func:`start`: the host fills the open seats with Normal computer players, deals, and
  the computer players move until it is a person's turn.
* :func:`play`: the person whose turn it is makes move ``index`` of the legal moves on
  the table's move ``number`` (a move for an earlier table, or out of turn, is refused
  with :class:`rooms.table.StaleAction` / :class:`rooms.table.NotAllowed`); then the
  computers move until a person's turn comes.
* :func:`time_out`: when a person's turn timer has run out, a draw is played for them
  (taking a pending penalty, drawing, keeping a drawn card, or passing).
* A person away is played by a Normal computer player until they come back.
* "Macao!" is said for a person with each play that leaves one card (the room plays
  with ``declare`` on), and nobody calls another seat out.

:func:`seat_view` gives a page :func:`macao.observe` of its own seat: other hands as
their sizes only, and the moves open to it on its turn.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

from macao import Observation, Rules, State, apply, is_terminal, legal_actions, new_game, observe, placings
from macao.actions import Accept, Action, Draw, KeepDrawn, Pass
from macao.bots import BOTS, make_bot
from macao.rules import InvalidRulesError

from .secret import check_secret, keyed_text
from .table import NotAllowed, RoomError, Seat, SeatStatus, StaleAction

GAME = "macao"
#: Seconds a person has for a turn before a draw is played for them (None: no timer).
TURN_TIMERS = (None, 30, 60, 90)
#: The level that fills open seats at Start and plays for a person away.
STAND_IN = "normal"
#: Macao options a room may set (the players are the room's seats).
OPTIONS = ("decks", "start_cards", "jokers", "stop", "stacking", "ace_wild", "start_card", "end_mode", "macao_penalty")


@dataclass(frozen=True)
class MacaoSettings:
    """The room's seats (2-4), the Macao options (:class:`macao.Rules` fields) and the turn timer."""

    seats: int = 4
    options: dict[str, Any] = field(default_factory=dict)
    turn_timer: int | None = 60

    def __post_init__(self) -> None:
        if not isinstance(self.seats, int) or isinstance(self.seats, bool) or not 2 <= self.seats <= 4:
            raise RoomError(f"a Macao room seats 2, 3 or 4 players, got {self.seats!r}")
        unknown = sorted(set(self.options) - set(OPTIONS))
        if unknown:
            raise RoomError(f"unknown Macao option(s) {unknown}; a room may set {', '.join(OPTIONS)}")
        try:
            self.rules()
        except InvalidRulesError as exc:
            raise RoomError(str(exc)) from None
        if self.turn_timer not in TURN_TIMERS:
            raise RoomError(f"the turn timer is one of {TURN_TIMERS} seconds, got {self.turn_timer!r}")

    def rules(self) -> Rules:
        return Rules.from_dict({**self.options, "players": self.seats})


@dataclass
class MacaoRoom:
    code: str
    settings: MacaoSettings
    #: What the room is dealt from (:mod:`rooms.secret`); it never leaves the store.
    secret: str
    seats: list[Seat]
    phase: str = "lobby"  # "lobby", "playing", "over"
    moves: list[int] = field(default_factory=list)
    deadline_ms: int | None = None

    levels = tuple(BOTS)

    def to_json(self) -> dict[str, Any]:
        return {"game": GAME, **asdict(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MacaoRoom:
        settings = data["settings"]
        return cls(
            code=data["code"],
            settings=MacaoSettings(settings["seats"], dict(settings["options"]), settings["turn_timer"]),
            secret=check_secret(data["secret"]),
            seats=[Seat(**s) for s in data["seats"]],
            phase=data["phase"],
            moves=[int(m) for m in data["moves"]],
            deadline_ms=data.get("deadline_ms"),
        )

    def people(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "person"]

    def number(self) -> int:
        """How many moves the round has had (a move names the table it was made on)."""
        return len(self.moves)


def seat_names(room: MacaoRoom) -> list[str]:
    """Each seat's name as recorded: the person's name, else the level and the seat number."""
    return [
        (s.name or f"Player {i + 1}") if s.kind == "person" else f"{(s.level or STAND_IN).title()} {i + 1}"
        for i, s in enumerate(room.seats)
    ]


def new_room(code: str, settings: MacaoSettings, host_name: str, host_token: str, secret: str) -> MacaoRoom:
    seats = [Seat("person", host_name, token=host_token)] + [Seat() for _ in range(settings.seats - 1)]
    return MacaoRoom(code=code, settings=settings, secret=secret, seats=seats)


@lru_cache(maxsize=256)
def _replay(options: str, seats: int, seed: str, moves: tuple[int, ...]) -> State:
    if not moves:
        return new_game(Rules.from_dict({**json.loads(options), "players": seats}), seed)
    before = _replay(options, seats, seed, moves[:-1])
    return apply(before, legal_actions(before)[moves[-1]])


def round_history(room: MacaoRoom) -> list[State]:
    """The round at each moment: the deal, then the state after each move made (the last is
    the round as it stands)."""
    options = json.dumps(room.settings.options, sort_keys=True)
    seed = keyed_text(room.secret, "macao round 1")
    states = [_replay(options, room.settings.seats, seed, ())]
    for i in range(len(room.moves)):  # fill the cache one move at a time (no deep recursion)
        states.append(_replay(options, room.settings.seats, seed, tuple(room.moves[: i + 1])))
    return states


def round_state(room: MacaoRoom) -> State:
    """The round as it stands: the deal replayed through every move made."""
    return round_history(room)[-1]


def _move(room: MacaoRoom, state: State, action: Action) -> State:
    legal = legal_actions(state)
    room.moves.append(legal.index(action))
    return apply(state, action)


def _who_moves(room: MacaoRoom, seat: int) -> str | None:
    """The computer level that moves for ``seat`` now, or None when a person does."""
    s = room.seats[seat]
    if s.kind == "computer":
        return s.level or STAND_IN
    return STAND_IN if s.away else None


def _advance(room: MacaoRoom, state: State, now_ms: int) -> None:
    """Computer players (and stand-ins for people away) move until a person's turn or the end."""
    while not is_terminal(state):
        level = _who_moves(room, state.current)
        if level is None:
            break
        rng = random.Random(keyed_text(room.secret, f"macao bot 1 {len(room.moves)}"))
        obs = observe(state, state.current)
        state = _move(room, state, make_bot(level).choose(obs, legal_actions(state), rng))
    if is_terminal(state):
        room.phase = "over"
        room.deadline_ms = None
    else:
        timer = room.settings.turn_timer
        room.deadline_ms = None if timer is None else now_ms + timer * 1000


def start(room: MacaoRoom, by: int, now_ms: int) -> None:
    if by != 0:
        raise NotAllowed("only the host (seat 1) can do this")
    if room.phase != "lobby":
        raise StaleAction("this room has started already")
    for i, seat in enumerate(room.seats):
        if seat.kind == "open":
            room.seats[i] = Seat("computer", level=STAND_IN)
    room.phase = "playing"
    _advance(room, round_state(room), now_ms)


def play(room: MacaoRoom, by: int, number: int, index: int, now_ms: int) -> None:
    """Seat ``by`` makes legal move ``index`` on the table of move ``number``."""
    if room.phase != "playing" or number != room.number():
        raise StaleAction(f"the table has moved on (move {room.number()}, not {number})")
    state = round_state(room)
    if state.current != by:
        raise NotAllowed("it is not this seat's turn")
    legal = legal_actions(state)
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(legal):
        raise NotAllowed(f"move {index!r} is not one of the {len(legal)} open to this seat")
    room.seats[by].away = False
    _advance(room, _move(room, state, legal[index]), now_ms)


def draw_for(legal: list[Action]) -> Action:
    """The move played for a person whose time ran out: take the penalty, draw, keep, or pass."""
    for kind in (Accept, Draw, KeepDrawn, Pass):
        for action in legal:
            if isinstance(action, kind):
                return action
    return legal[0]


def time_out(room: MacaoRoom, now_ms: int) -> bool:
    """Play a draw for the person whose turn timer ran out; returns whether it did."""
    if room.phase != "playing" or room.deadline_ms is None or now_ms < room.deadline_ms:
        return False
    state = round_state(room)
    _advance(room, _move(room, state, draw_for(legal_actions(state))), now_ms)
    return True


def after_leave(room: MacaoRoom, now_ms: int) -> None:
    """A person left: if it was their turn, their stand-in moves now."""
    if room.phase == "playing":
        _advance(room, round_state(room), now_ms)


def history(room: MacaoRoom) -> dict[str, Any]:
    """What a member downloads: the options, the seats and the round's public log (what
    everyone at the table saw), nothing the room is dealt from and no move's index (which
    would tell what else the hand held)."""
    log = [] if room.phase == "lobby" else [str(event) for event in round_state(room).log]
    return {"game": GAME, "room": room.code, "options": room.settings.options, "seats": seat_names(room), "log": log}


# --- what one seat sees -----------------------------------------------------------------------


@dataclass(frozen=True)
class MacaoSeatView:
    """Everything one seat's page may show of a Macao room; built by :func:`seat_view` only."""

    code: str
    seat: int
    host: bool
    phase: str
    settings: MacaoSettings
    seats: tuple[SeatStatus, ...]
    number: int
    deadline_ms: int | None
    observation: Observation | None
    legal: tuple[Action, ...]
    placings: tuple[int, ...]


def seat_view(room: MacaoRoom, seat: int) -> MacaoSeatView:
    """What seat ``seat`` may see: :func:`macao.observe` of its own seat and, on its turn, its moves."""
    obs = None
    legal: tuple[Action, ...] = ()
    places: tuple[int, ...] = ()
    current = None
    if room.phase != "lobby":
        state = round_state(room)
        obs = observe(state, seat)
        current = state.current
        if not is_terminal(state) and state.current == seat:
            legal = tuple(legal_actions(state))
        if is_terminal(state):
            places = tuple(placings(state))

    def status(i: int) -> str:
        s = room.seats[i]
        if s.kind != "person":
            return s.kind
        if s.away:
            return "away"
        return "turn" if current == i and room.phase == "playing" else "present"

    return MacaoSeatView(
        code=room.code,
        seat=seat,
        host=seat == 0,
        phase=room.phase,
        settings=room.settings,
        seats=tuple(SeatStatus(i, s.kind, s.name, s.level, status(i)) for i, s in enumerate(room.seats)),
        number=room.number(),
        deadline_ms=room.deadline_ms if room.phase == "playing" else None,
        observation=obs,
        legal=legal,
        placings=places,
    )
