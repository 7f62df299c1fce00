"""A Macao room as data: seats, a match of rounds kept as the moves made, turns, timers, each seat's view.

A Macao room plays a match of :data:`MATCH_LENGTHS` rounds (1, the single round, or 3, 5
or 7: :class:`MacaoSettings` ``rounds``), scored as the Macao page scores one
(:class:`macao.match.MatchScore`: a seat placing ``p`` of ``n`` scores ``n - p``).  Each
round is kept as the moves made so far over a deal drawn from the room's secret
(:mod:`rooms.secret`: round ``r``'s seed is :func:`rooms.secret.keyed_text` under
``"macao round r"``, a computer's choice on move ``m`` of round ``r`` is drawn under
``"macao bot r m"``).  A move is the index of the action in :func:`macao.legal_actions` of
the state before it, or ``-1 - caller`` for seat ``caller`` calling "Macao!" on the seat
exposed (:class:`macao.CallMacao`, out of turn).  Round 1's dealer is drawn from its seed;
the deal then passes clockwise, round by round, and the seat after the dealer starts
(macao.md §2.1 step 3).  A round is rebuilt by replaying its moves (:func:`round_state`;
:func:`round_history` gives each moment of it; each process keeps the rounds it replayed
last and replays only the moves made since), so the room's JSON stays small and a round
replays exactly, while neither the secret nor a seed made from it ever leaves the store.

* :func:`start`: the host fills the open seats with Normal computer players, deals round
  1, and the computer players move until it is a person's turn.
* :func:`play`: the person whose turn it is makes move ``index`` of the legal moves on
  the table's move ``number`` (counted over the whole match; a move for an earlier table,
  or out of turn, is refused with :class:`rooms.table.StaleAction` /
  :class:`rooms.table.NotAllowed`); then the computers move until a person's turn comes.
* "Macao!" is each person's own call (macao.md §2.8): a play that leaves one card is
  offered with and without it, and a person who plays without it is *exposed* until the
  next move that is not a call.  Meanwhile :func:`call` lets any other person still in
  catch them: the exposed seat draws ``macao_penalty`` cards (5).  Computer players say
  it and call as they do on the Macao page (:meth:`macao.bots.Bot.interrupt`, the moment
  a seat is exposed, clockwise from the seat after it).  When nobody called and a
  computer is to move next, the computers wait :data:`CALL_WINDOW_SECONDS` before they
  go on, so a person has time to call (the turn of a person holds the window open anyway).
* :func:`time_out`: when a person's turn timer has run out, a draw is played for them
  (taking a pending penalty, drawing, keeping a drawn card, or passing: none of them
  leaves one card, so a timed-out person is never exposed); when a call window ends,
  the computers go on.
* A person away is played by a Normal computer player until they come back: it says
  "Macao!" with every play that leaves one card and calls as a Normal player does.
* :func:`next_round`: once a round is over, any seated person deals the next one (a second
  request for the same round is stale) until the match is over.

:func:`seat_view` gives a page :func:`macao.observe` of its own seat: other hands as
their sizes only, the moves open to it on its turn, whether it may call "Macao!", and the
match's score.
"""

from __future__ import annotations

import json
import random
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

from macao import (
    CallMacao,
    Observation,
    Rules,
    State,
    apply,
    interrupts,
    is_terminal,
    legal_actions,
    new_game,
    observe,
    placings,
)
from macao.actions import Accept, Action, Draw, KeepDrawn, Pass
from macao.bots import BOTS, make_bot
from macao.match import MatchScore
from macao.rules import InvalidRulesError

from .secret import check_secret, keyed_text
from .table import NotAllowed, RoomError, Seat, SeatStatus, StaleAction

GAME = "macao"
#: Seconds a person has for a turn before a draw is played for them (None: no timer).
TURN_TIMERS = (None, 30, 60, 90)
#: Rounds a room's match may have (1: a single round).
MATCH_LENGTHS = (1, 3, 5, 7)
#: Seconds the computer players wait, after a seat kept one card without "Macao!", before
#: they move on (and so close the window in which a person may catch it).
CALL_WINDOW_SECONDS = 5
#: The level that fills open seats at Start and plays for a person away.
STAND_IN = "normal"
#: Macao options a room may set (the players are the room's seats).
OPTIONS = ("decks", "start_cards", "jokers", "stop", "stacking", "ace_wild", "start_card", "end_mode", "macao_penalty")


@dataclass(frozen=True)
class MacaoSettings:
    """The room's seats (2-4), the Macao options (:class:`macao.Rules` fields), the turn
    timer and the rounds of its match (:data:`MATCH_LENGTHS`)."""

    seats: int = 4
    options: dict[str, Any] = field(default_factory=dict)
    turn_timer: int | None = 60
    rounds: int = 1

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
        if isinstance(self.rounds, bool) or self.rounds not in MATCH_LENGTHS:
            raise RoomError(f"a Macao match has {', '.join(map(str, MATCH_LENGTHS))} rounds, got {self.rounds!r}")

    def rules(self) -> Rules:
        return Rules.from_dict({**self.options, "players": self.seats})


@dataclass
class MacaoRoom:
    code: str
    settings: MacaoSettings
    #: What the room is dealt from (:mod:`rooms.secret`); it never leaves the store.
    secret: str
    seats: list[Seat]
    #: "lobby", "playing" (a round is on the table) or "over" (the round on the table is
    #: over; the match too once it was the last round).
    phase: str = "lobby"
    #: The round on the table, 1 to ``settings.rounds``.
    round: int = 1
    #: The moves of the round on the table (see the module docstring).
    moves: list[int] = field(default_factory=list)
    #: The rounds before it: each one's moves and placings (indexed by seat).
    earlier: list[dict[str, list[int]]] = field(default_factory=list)
    #: When the person to play runs out of time (None: no timer, or a computer to move).
    deadline_ms: int | None = None
    #: When the computers stop waiting for a person to call "Macao!" on an exposed seat.
    call_window_ms: int | None = None

    levels = tuple(BOTS)

    def to_json(self) -> dict[str, Any]:
        return {"game": GAME, **asdict(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MacaoRoom:
        settings = data["settings"]
        return cls(
            code=data["code"],
            settings=MacaoSettings(
                settings["seats"], dict(settings["options"]), settings["turn_timer"], settings["rounds"]
            ),
            secret=check_secret(data["secret"]),
            seats=[Seat(**s) for s in data["seats"]],
            phase=data["phase"],
            round=int(data["round"]),
            moves=[int(m) for m in data["moves"]],
            earlier=[
                {"moves": [int(m) for m in r["moves"]], "placings": [int(p) for p in r["placings"]]}
                for r in data["earlier"]
            ],
            deadline_ms=data.get("deadline_ms"),
            call_window_ms=data.get("call_window_ms"),
        )

    def people(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "person"]

    def number(self) -> int:
        """How many moves the match has had (a move names the table it was made on)."""
        return sum(len(r["moves"]) for r in self.earlier) + len(self.moves)


def seat_names(room: MacaoRoom) -> list[str]:
    """Each seat's name as recorded: the person's name, else the level and the seat number."""
    return [
        (s.name or f"Player {i + 1}") if s.kind == "person" else f"{(s.level or STAND_IN).title()} {i + 1}"
        for i, s in enumerate(room.seats)
    ]


def new_room(code: str, settings: MacaoSettings, host_name: str, host_token: str, secret: str) -> MacaoRoom:
    seats = [Seat("person", host_name, token=host_token)] + [Seat() for _ in range(settings.seats - 1)]
    return MacaoRoom(code=code, settings=settings, secret=secret, seats=seats)


# --- the rounds, replayed --------------------------------------------------------------------


def _action(state: State, move: int) -> Action:
    """The action a stored move stands for (a call when negative)."""
    if move < 0:
        if state.exposed is None:
            raise RoomError(f"move {move} calls Macao! when nobody is exposed")
        return CallMacao(-1 - move, state.exposed)
    return legal_actions(state)[move]


@lru_cache(maxsize=256)
def _deal(options: str, seats: int, seed: str, dealer: int | None) -> State:
    return new_game(Rules.from_dict({**json.loads(options), "players": seats}), seed, dealer=dealer)


#: The rounds replayed last in this process (by options, seats, seed and dealer): the moves
#: replayed and the state before and after each, so a page that reads a round again replays
#: only the moves made since (a page reads its room on every change).
_TRACKS: OrderedDict[tuple[str, int, str, int | None], tuple[tuple[int, ...], tuple[State, ...]]] = OrderedDict()
_TRACKS_KEPT = 32
_TRACKS_LOCK = threading.Lock()


def _replay(options: str, seats: int, seed: str, dealer: int | None, moves: tuple[int, ...]) -> list[State]:
    """The deal, then the state after each of ``moves``: from the longest stretch already replayed."""
    key = (options, seats, seed, dealer)
    with _TRACKS_LOCK:
        made, states = _TRACKS.get(key, ((), (_deal(*key),)))
    same = 0
    while same < min(len(made), len(moves)) and made[same] == moves[same]:
        same += 1
    track = list(states[: same + 1])
    for move in moves[same:]:
        track.append(apply(track[-1], _action(track[-1], move)))
    with _TRACKS_LOCK:
        _TRACKS[key] = (moves, tuple(track))
        _TRACKS.move_to_end(key)
        while len(_TRACKS) > _TRACKS_KEPT:
            _TRACKS.popitem(last=False)
    return track


def _history(room: MacaoRoom, number: int, moves: list[int]) -> list[State]:
    """Round ``number`` at each moment, given its moves: the deal, then after each move."""
    options = json.dumps(room.settings.options, sort_keys=True)
    seats = room.settings.seats
    dealer = None  # round 1: drawn from its seed; then the deal passes clockwise (§2.1 step 3)
    if number > 1:
        dealer = (_deal(options, seats, keyed_text(room.secret, "macao round 1"), None).dealer + number - 1) % seats
    return _replay(options, seats, keyed_text(room.secret, f"macao round {number}"), dealer, tuple(moves))


def deal(room: MacaoRoom, number: int) -> State:
    """Round ``number``'s deal (before any move): drawn from the room's secret, the dealer
    rotated from round 1's."""
    return _history(room, number, [])[0]


def round_history(room: MacaoRoom) -> list[State]:
    """The round on the table at each moment: the deal, then the state after each move made
    (the last is the round as it stands)."""
    return _history(room, room.round, room.moves)


def round_state(room: MacaoRoom) -> State:
    """The round on the table as it stands: its deal replayed through every move made."""
    return round_history(room)[-1]


def rounds_played(room: MacaoRoom) -> list[State]:
    """Every round dealt so far as it stands (the earlier ones over, the last the one on the table)."""
    if room.phase == "lobby":
        return []
    earlier = [_history(room, r, past["moves"])[-1] for r, past in enumerate(room.earlier, start=1)]
    return [*earlier, round_state(room)]


def score(room: MacaoRoom) -> MatchScore:
    """The match's score: the placings of every round finished so far."""
    results = [tuple(r["placings"]) for r in room.earlier]
    if room.phase == "over":
        results.append(tuple(placings(round_state(room))))
    return MatchScore(room.settings.seats, room.settings.rounds, tuple(results))


# --- moves ----------------------------------------------------------------------------------


def _move(room: MacaoRoom, state: State, action: Action) -> State:
    if isinstance(action, CallMacao):
        room.moves.append(-1 - action.caller)
    else:
        room.moves.append(legal_actions(state).index(action))
    return apply(state, action)


def _who_moves(room: MacaoRoom, seat: int) -> str | None:
    """The computer level that moves for ``seat`` now, or None when a person does."""
    s = room.seats[seat]
    if s.kind == "computer":
        return s.level or STAND_IN
    return STAND_IN if s.away else None


def _computer_call(room: MacaoRoom, state: State, rng: random.Random) -> CallMacao | None:
    """A computer player's (or a stand-in's) call on the exposed seat, clockwise from the
    seat after it, as :func:`macao.simulate.offer_calls` offers them on the Macao page."""
    assert state.exposed is not None
    n = state.rules.players
    for step in range(1, n):
        seat = (state.exposed + step) % n
        level = _who_moves(room, seat)
        if level is None or not interrupts(state, seat):
            continue
        call = make_bot(level).interrupt(observe(state, seat), rng)
        if call is not None:
            return call
    return None


def _person_may_call(room: MacaoRoom, state: State) -> bool:
    """Whether a person at the table (not away) may catch the exposed seat."""
    return any(s.kind == "person" and not s.away and interrupts(state, i) for i, s in enumerate(room.seats))


def _advance(room: MacaoRoom, state: State, now_ms: int, *, window_over: bool = False) -> None:
    """Computer players (and stand-ins for people away) call and move until a person's
    turn, a call window (``window_over``: the one open has run out) or the end.

    Every draw for move ``m`` comes from one generator under ``"macao bot r m"``, calls
    first; so offering the calls again on the same table gives the same answers."""
    room.call_window_ms = None
    while not is_terminal(state):
        rng = random.Random(keyed_text(room.secret, f"macao bot {room.round} {len(room.moves)}"))
        if state.exposed is not None:
            call = _computer_call(room, state, rng)
            if call is not None:
                state = _move(room, state, call)
                continue
            if not window_over and _who_moves(room, state.current) is not None and _person_may_call(room, state):
                room.deadline_ms = None
                room.call_window_ms = now_ms + CALL_WINDOW_SECONDS * 1000
                return
        level = _who_moves(room, state.current)
        if level is None:
            break
        obs = observe(state, state.current)
        state = _move(room, state, make_bot(level).choose(obs, legal_actions(state), rng))
        window_over = False
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


def _check_table(room: MacaoRoom, number: int) -> None:
    if room.phase != "playing" or number != room.number():
        raise StaleAction(f"the table has moved on (move {room.number()}, not {number})")


def play(room: MacaoRoom, by: int, number: int, index: int, now_ms: int) -> None:
    """Seat ``by`` makes legal move ``index`` on the table of move ``number``."""
    _check_table(room, number)
    state = round_state(room)
    if state.current != by:
        raise NotAllowed("it is not this seat's turn")
    legal = legal_actions(state)
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(legal):
        raise NotAllowed(f"move {index!r} is not one of the {len(legal)} open to this seat")
    room.seats[by].away = False
    _advance(room, _move(room, state, legal[index]), now_ms)


def call(room: MacaoRoom, by: int, number: int, now_ms: int) -> None:
    """Seat ``by`` calls "Macao!" on the seat exposed on the table of move ``number`` (who
    draws the penalty); the turn stays where it was, and its timer runs on."""
    _check_table(room, number)
    state = round_state(room)
    calls = interrupts(state, by)
    if not calls:
        raise NotAllowed("nobody can be caught: Macao! catches a player who kept one card without saying it")
    room.seats[by].away = False
    deadline = room.deadline_ms
    after = _move(room, state, calls[0])
    _advance(room, after, now_ms)
    if room.phase == "playing" and round_state(room).current == state.current and deadline is not None:
        room.deadline_ms = deadline  # a call is no move of the seat to play: its time is not renewed


def draw_for(legal: list[Action]) -> Action:
    """The move played for a person whose time ran out: take the penalty, draw, keep, or pass."""
    for kind in (Accept, Draw, KeepDrawn, Pass):
        for action in legal:
            if isinstance(action, kind):
                return action
    return legal[0]


def is_due(room: MacaoRoom, now_ms: int) -> bool:
    """Whether the room moves on by itself now: a turn timer or a call window ran out."""
    due = [t for t in (room.deadline_ms, room.call_window_ms) if t is not None]
    return room.phase == "playing" and any(now_ms >= t for t in due)


def time_out(room: MacaoRoom, now_ms: int) -> bool:
    """The call window ran out (the computers go on), or the person to play ran out of time
    (a draw is played for them); returns whether anything happened."""
    if not is_due(room, now_ms):
        return False
    state = round_state(room)
    if room.call_window_ms is not None:
        _advance(room, state, now_ms, window_over=True)
    else:
        _advance(room, _move(room, state, draw_for(legal_actions(state))), now_ms)
    return True


def after_leave(room: MacaoRoom, now_ms: int) -> None:
    """A person left: if it was their turn, their stand-in moves now (and calls as it would)."""
    if room.phase == "playing" and room.call_window_ms is None:
        _advance(room, round_state(room), now_ms)


def next_round(room: MacaoRoom, by: int, number: int, now_ms: int) -> None:
    """Deal round ``number + 1`` once round ``number`` is over (a second request is stale)."""
    if room.seats[by].kind != "person":
        raise NotAllowed("only a seated person deals the next round")
    if room.phase != "over" or room.round != number:
        raise StaleAction(f"round {number + 1} has been dealt already")
    if room.round >= room.settings.rounds:
        raise StaleAction(f"the match of {room.settings.rounds} rounds is over")
    room.earlier.append({"moves": room.moves, "placings": placings(round_state(room))})
    room.moves = []
    room.round += 1
    room.phase = "playing"
    _advance(room, round_state(room), now_ms)


def history(room: MacaoRoom) -> dict[str, Any]:
    """What a member downloads: the options, the seats, each round's public log (what
    everyone at the table saw) and placings, and the match's score; nothing the room is
    dealt from and no move's index (which would tell what else the hand held)."""
    match = score(room)
    played = [
        {"round": r, "log": [str(e) for e in state.log], "placings": placings(state) if is_terminal(state) else None}
        for r, state in enumerate(rounds_played(room), start=1)
    ]
    return {
        "game": GAME,
        "room": room.code,
        "options": room.settings.options,
        "rounds": room.settings.rounds,
        "seats": seat_names(room),
        "played": played,
        "standings": {
            "points": list(match.totals),
            "wins": list(match.wins),
            "order": match.standings(),
            "winner": match.winner,
        },
    }


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
    #: The table's move number over the match (what an action names).
    number: int
    #: When the room moves on by itself: the turn timer, or the end of a call window.
    deadline_ms: int | None
    observation: Observation | None
    legal: tuple[Action, ...]
    placings: tuple[int, ...]
    #: The round on the table (1-based); who dealt it and who started it.
    round: int = 1
    dealer: int | None = None
    first: int | None = None
    #: Whether this seat may call "Macao!" on an exposed seat now.
    can_call: bool = False
    #: The match's score so far (:class:`macao.match.MatchScore`).
    match: MatchScore | None = None

    @property
    def match_over(self) -> bool:
        return self.match is not None and self.match.is_over


def seat_view(room: MacaoRoom, seat: int) -> MacaoSeatView:
    """What seat ``seat`` may see: :func:`macao.observe` of its own seat and, on its turn, its moves."""
    obs = None
    legal: tuple[Action, ...] = ()
    places: tuple[int, ...] = ()
    current = dealer = first = None
    can_call = False
    if room.phase != "lobby":
        moments = round_history(room)
        state = moments[-1]
        obs = observe(state, seat)
        current = state.current
        dealer, first = state.dealer, moments[0].current
        if not is_terminal(state) and state.current == seat:
            legal = tuple(legal_actions(state))
        if is_terminal(state):
            places = tuple(placings(state))
        can_call = room.seats[seat].kind == "person" and bool(interrupts(state, seat))

    def status(i: int) -> str:
        s = room.seats[i]
        if s.kind != "person":
            return s.kind
        if s.away:
            return "away"
        return "turn" if current == i and room.phase == "playing" else "present"

    playing = room.phase == "playing"
    return MacaoSeatView(
        code=room.code,
        seat=seat,
        host=seat == 0,
        phase=room.phase,
        settings=room.settings,
        seats=tuple(SeatStatus(i, s.kind, s.name, s.level, status(i)) for i, s in enumerate(room.seats)),
        number=room.number(),
        deadline_ms=(room.deadline_ms if room.deadline_ms is not None else room.call_window_ms) if playing else None,
        observation=obs,
        legal=legal,
        placings=places,
        round=room.round,
        dealer=dealer,
        first=first,
        can_call=can_call,
        match=score(room),
    )
