"""A Mau Binh room as data: seats, the hand being arranged, reveals, settlement, and each seat's view.

A :class:`Room` is plain data kept as JSON in the store (:mod:`rooms.service` loads it,
applies one action and writes it back in one transaction).  The functions here are the
room's rules, free of any database or page:

* :func:`new_room`: the host takes seat 0; the other seats are open.
* :func:`take_seat`: a person takes the first open seat under a name (:func:`rename` changes it).
* :func:`set_computer`: the host puts a computer player (Beginner, Club, Expert) in an
  open seat, or opens a computer's seat again.
* :func:`start`: the host fills the open seats with Club players and deals hand 1.
* :func:`reveal`: a person's set for hand ``n``; once every person present has revealed
  (or the timer ran out, :func:`settle_if_due`) the hand is settled by
  :func:`solver.score_table` (through :func:`solver.table.settle_hand`).
* :func:`next_hand`: anyone seated deals hand ``n + 1`` after hand ``n`` is settled.
* :func:`leave` / :func:`come_back`: a person away is played by a Club player (on
  the hand in play too, unless they revealed) until they come back.

Dealing is from the room's secret (:mod:`rooms.secret`), never from a seed: hand ``n`` is
the 52-card deck in the order of :func:`rooms.secret.keyed_shuffle` under ``"mau-binh deck
n"``, 13 cards to each seat from seat 0 (:func:`solver.table.split_deck`), and a computer
seat's player on hand ``n`` is seeded by :func:`rooms.secret.keyed_int` under
``"mau-binh player n seat"``.  So a room's hands replay exactly from its store row, and
nothing a member sees or downloads (a record keeps no deck seed) lets anyone work out a
hand not yet revealed.

Every action names the hand it is for, so a stale or replayed one (a second Reveal, a
Reveal for a hand already settled, a double "next hand") is refused with
:class:`StaleAction` instead of being applied twice.

:func:`seat_view` is the only thing a page gets: it holds the cards of the seat it is for
and no other seat's cards or sets until the hand is settled.  While the next hand is being
arranged it also holds the hand settled last (every seat's set and the settlement): those
cards were all revealed, and the next deal is a fresh shuffle, so they tell nothing of
anyone's new cards.  So a person who polls only after someone dealt the next hand still
sees the reveal and settlement everyone else saw.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from solver import parse_cards
from solver.cards import Card, full_deck
from solver.context import Table
from solver.fields import DEFAULT_FIELD, check_field
from solver.players import LEVELS, get_player
from solver.rules import PRESETS
from solver.scoring import ROW_SIZES, Arrangement
from solver.table import MAX_HANDS, HandRecord, balances, record_hand, split_deck

from .secret import check_secret, keyed_int, keyed_shuffle

GAME = "mau_binh"
#: Seconds per hand a room may set (None: no timer).
TIMERS = (None, 60, 90, 120, 180)
#: The level that plays a seat filled at Start or a person's seat while they are away.
STAND_IN = "club"

Rows = list[list[str]]


class RoomError(ValueError):
    """An action a room refuses (the message says why)."""


class StaleAction(RoomError):
    """An action for a hand or phase that is over: replayed, late, or sent twice."""


class NotAllowed(RoomError):
    """An action this seat may not take (only the host starts, a seat acts only for itself)."""


class RoomFull(RoomError):
    """No open seat is left."""


@dataclass(frozen=True)
class Settings:
    """What the host chose: rules preset, seats (2-4), the field the computers assume, the timer."""

    preset: str = "vietnamese"
    seats: int = 4
    field: str = DEFAULT_FIELD
    timer: int | None = None

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise RoomError(f"unknown rule preset {self.preset!r}; expected one of {', '.join(PRESETS)}")
        if not isinstance(self.seats, int) or isinstance(self.seats, bool) or not 2 <= self.seats <= 4:
            raise RoomError(f"a Mau Binh room seats 2, 3 or 4 players, got {self.seats!r}")
        check_field(self.field)
        if self.timer not in TIMERS:
            raise RoomError(f"the timer is one of {', '.join(str(t) for t in TIMERS)} seconds, got {self.timer!r}")


@dataclass
class Seat:
    """One seat: open, a person (known by the digest of their token) or a computer player."""

    kind: str = "open"  # "open", "person", "computer"
    name: str = ""
    level: str | None = None  # a computer's level
    token: str | None = None  # a person's token digest
    away: bool = False


@dataclass
class Deal:
    """The hand being arranged: every seat's cards and the sets played so far."""

    number: int
    hands: list[str]
    sets: list[str | None]
    deadline_ms: int | None = None
    revealed: list[bool] = field(default_factory=list)


@dataclass
class Room:
    code: str
    settings: Settings
    #: What the room is dealt from (:mod:`rooms.secret`); it never leaves the store.
    secret: str
    seats: list[Seat]
    phase: str = "lobby"  # "lobby", "arranging", "settled"
    deal: Deal | None = None
    records: list[dict[str, Any]] = field(default_factory=list)

    #: The computer players a seat may hold.
    levels = tuple(LEVELS)

    def to_json(self) -> dict[str, Any]:
        return {"game": GAME, **asdict(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Room:
        deal = data.get("deal")
        return cls(
            code=data["code"],
            settings=Settings(**data["settings"]),
            secret=check_secret(data["secret"]),
            seats=[Seat(**s) for s in data["seats"]],
            phase=data["phase"],
            deal=None if deal is None else Deal(**deal),
            records=list(data.get("records", [])),
        )

    def people(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "person"]

    def number(self) -> int:
        """The number of the hand in play or last settled (0 before the first deal)."""
        return 0 if self.deal is None else self.deal.number


class Seated(Protocol):
    """What every room has, whatever its game: seats, a phase, its computer levels."""

    seats: list[Seat]
    phase: str
    levels: tuple[str, ...]


def new_room(code: str, settings: Settings, host_name: str, host_token: str, secret: str) -> Room:
    seats = [Seat("person", host_name, token=host_token)] + [Seat() for _ in range(settings.seats - 1)]
    return Room(code=code, settings=settings, secret=secret, seats=seats)


def take_seat(room: Seated, name: str, token: str) -> int:
    """Seat a person in the first open seat; return it."""
    free = [i for i, s in enumerate(room.seats) if s.kind == "open"]
    if not free:
        raise RoomFull("every seat of this room is taken")
    room.seats[free[0]] = Seat("person", name, token=token)
    return free[0]


def rename(room: Seated, by: int, name: str) -> None:
    """Seat ``by`` is called ``name`` from now on (already cleaned: :func:`rooms.codes.clean_name`)."""
    room.seats[by].name = name


def set_computer(room: Seated, by: int, seat: int, level: str | None) -> None:
    """The host puts a computer player at ``level`` in ``seat`` (None opens the seat again)."""
    _host_only(room, by)
    if room.phase != "lobby":
        raise StaleAction("seats are chosen before the first hand")
    if not 0 <= seat < len(room.seats) or room.seats[seat].kind == "person":
        raise NotAllowed(f"seat {seat + 1} is not open for a computer player")
    if level is None:
        room.seats[seat] = Seat()
    elif level in room.levels:
        room.seats[seat] = Seat("computer", level=level)
    else:
        raise RoomError(f"a computer player is {', '.join(room.levels)}, got {level!r}")


def start(room: Room, by: int, now_ms: int) -> None:
    """The host fills the open seats with computer players and deals hand 1."""
    _host_only(room, by)
    if room.phase != "lobby":
        raise StaleAction("this room has started already")
    for i, seat in enumerate(room.seats):
        if seat.kind == "open":
            room.seats[i] = Seat("computer", level=STAND_IN)
    _deal(room, 1, now_ms)


def seat_names(room: Room) -> list[str]:
    """Each seat's name as recorded: the person's name, else the level and the seat number."""
    names = []
    for i, seat in enumerate(room.seats):
        if seat.kind == "person":
            names.append(seat.name or f"Player {i + 1}")
        else:
            names.append(f"{get_player(seat.level or STAND_IN).name} {i + 1}")
    return names


def _arrange(room: Room, seat: int, level: str, hand: list[Card], number: int) -> str:
    s = room.settings
    player_seed = keyed_int(room.secret, f"mau-binh player {number} {seat}")
    everyone = ["person" if other.kind == "person" else other.level or STAND_IN for other in room.seats]
    table = Table(s.preset, s.seats, s.field).seen_from(everyone, seat)
    return str(get_player(level).arrange(hand, seed=player_seed, table=table))


def _deal(room: Room, number: int, now_ms: int) -> None:
    if number > MAX_HANDS:
        raise RoomError(f"a room deals at most {MAX_HANDS} hands")
    hands = split_deck(keyed_shuffle(room.secret, f"mau-binh deck {number}", full_deck()), room.settings.seats)
    sets: list[str | None] = [
        _arrange(room, i, seat.level or STAND_IN, hands[i], number) if seat.kind == "computer" else None
        for i, seat in enumerate(room.seats)
    ]
    timer = room.settings.timer
    room.deal = Deal(
        number=number,
        hands=[" ".join(map(str, hand)) for hand in hands],
        sets=sets,
        deadline_ms=None if timer is None else now_ms + timer * 1000,
        revealed=[seat.kind == "computer" for seat in room.seats],
    )
    room.phase = "arranging"


def dealt_rows(hand: str) -> Rows:
    """How a new hand is laid out for its player (as on Play): high to low from the back."""
    ordered = sorted(parse_cards(hand), key=lambda c: (-(c.code // 4), c.code % 4))
    return [[str(c) for c in ordered[10:]], [str(c) for c in ordered[5:10]], [str(c) for c in ordered[:5]]]


def check_rows(room: Room, seat: int, rows: object) -> Rows:
    """``rows`` as three lists of card codes holding exactly this seat's 13 cards."""
    assert room.deal is not None
    if not isinstance(rows, (list, tuple)) or len(rows) != 3 or not all(isinstance(r, (list, tuple)) for r in rows):
        raise RoomError("a set is three rows of cards")
    out = [[str(c) for c in row] for row in rows]
    dealt = sorted(room.deal.hands[seat].split())
    if sorted(c for row in out for c in row) != dealt:
        raise NotAllowed("a set must hold exactly the 13 cards dealt to this seat")
    return out


def as_set(rows: Rows) -> tuple[str, bool]:
    """The set of these rows; rows of the wrong size (caught mid-move) are cut again 3 + 5 + 5
    in the order shown (as Play does).  Returns (set, was recut)."""
    if tuple(len(r) for r in rows) == ROW_SIZES:
        return str(Arrangement(rows[0], rows[1], rows[2])), False
    flat = [c for row in rows for c in row]
    return str(Arrangement(flat[:3], flat[3:8], flat[8:])), True


def _expect_hand(room: Room, number: int) -> None:
    if room.phase != "arranging" or room.deal is None or room.deal.number != number:
        raise StaleAction(f"hand {number} is not being arranged (this room is at hand {room.number()}, {room.phase})")


def reveal(room: Room, by: int, number: int, rows: object, drafts: dict[int, Rows], now_ms: int) -> None:
    """Seat ``by`` plays ``rows`` on hand ``number``; settles the hand when it was the last one."""
    _expect_hand(room, number)
    assert room.deal is not None
    if room.deal.revealed[by]:
        raise StaleAction(f"seat {by + 1} has revealed hand {number} already")
    played, _recut = as_set(check_rows(room, by, rows))
    room.deal.sets[by] = played
    room.deal.revealed[by] = True
    room.seats[by].away = False
    settle_if_due(room, drafts, now_ms)


def waiting_for(room: Room) -> list[int]:
    """The people present who have not revealed the hand in play."""
    if room.phase != "arranging" or room.deal is None:
        return []
    return [i for i in room.people() if not room.deal.revealed[i] and not room.seats[i].away]


def settle_if_due(room: Room, drafts: dict[int, Rows], now_ms: int) -> bool:
    """Settle the hand in play when every person present has revealed or the timer ran out.

    A person who did not reveal in time plays the rows they were arranging (``drafts``,
    else the dealt layout); a person away is played by a Club player.  Returns whether it
    settled the hand.
    """
    deal = room.deal
    if room.phase != "arranging" or deal is None:
        return False
    timed_out = deal.deadline_ms is not None and now_ms >= deal.deadline_ms
    if waiting_for(room) and not timed_out:
        return False
    hands = [parse_cards(h) for h in deal.hands]
    late, recut, stand_in = [], [], []
    for i in room.people():
        if deal.revealed[i]:
            continue
        if room.seats[i].away:
            deal.sets[i] = _arrange(room, i, STAND_IN, hands[i], deal.number)
            stand_in.append(i)
            continue
        try:
            rows = check_rows(room, i, drafts[i]) if i in drafts else dealt_rows(deal.hands[i])
        except RoomError:
            rows = dealt_rows(deal.hands[i])
        deal.sets[i], was_recut = as_set(rows)
        late.append(i)
        if was_recut:
            recut.append(i)
    sets = [s for s in deal.sets if s is not None]
    assert len(sets) == len(room.seats)
    record = record_hand(room.settings.preset, deal.number, seat_names(room), hands, sets,
                         timed_out=late, recut=recut, stand_in=stand_in)  # fmt: skip
    room.records.append(record.to_dict())
    room.phase = "settled"
    return True


def next_hand(room: Room, by: int, number: int, now_ms: int) -> None:
    """Deal hand ``number + 1`` once hand ``number`` is settled (a second request is stale)."""
    if room.seats[by].kind != "person":
        raise NotAllowed("only a seated person deals the next hand")
    if room.phase != "settled" or room.deal is None or room.deal.number != number:
        raise StaleAction(f"hand {number + 1} has been dealt already")
    _deal(room, number + 1, now_ms)


def leave(room: Seated, by: int) -> None:
    room.seats[by].away = True


def come_back(room: Seated, by: int) -> None:
    room.seats[by].away = False


def _host_only(room: Seated, by: int) -> None:
    if by != 0:
        raise NotAllowed("only the host (seat 1) can do this")


def records(room: Room) -> list[HandRecord]:
    return [HandRecord.from_dict(r) for r in room.records]


def history(room: Room) -> dict[str, Any]:
    """What a member downloads: the settings, the seats and every settled hand (its cards,
    sets and settlement; :class:`HandRecord` with no deck seed), nothing the room is dealt from."""
    return {"game": GAME, "room": room.code, "settings": asdict(room.settings), "seats": seat_names(room),
            "hands": room.records}  # fmt: skip


# --- what one seat sees -----------------------------------------------------------------------


@dataclass(frozen=True)
class SeatStatus:
    """What everyone sees of a seat: who sits there and what they are doing."""

    seat: int
    kind: str
    name: str
    level: str | None
    status: str  # "open", "arranging", "revealed", "away", "computer"


@dataclass(frozen=True)
class SeatView:
    """Everything one seat's page may show; built by :func:`seat_view` only.

    ``cards`` and ``rows`` are this seat's own; ``last`` (every seat's set and the
    settlement) is there only while the hand it settled is the latest one; ``previous``
    is the hand settled last while the next one is being arranged (its cards are public).
    """

    code: str
    seat: int
    host: bool
    phase: str
    settings: Settings
    seats: tuple[SeatStatus, ...]
    number: int
    deadline_ms: int | None
    cards: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    revealed: bool
    last: HandRecord | None
    previous: HandRecord | None
    balances: tuple[int, ...]
    hands_played: int


def _status(room: Room, i: int) -> str:
    seat = room.seats[i]
    if seat.kind != "person":
        return seat.kind
    if seat.away:
        return "away"
    if room.phase == "arranging" and room.deal is not None and not room.deal.revealed[i]:
        return "arranging"
    return "revealed" if room.phase == "arranging" else "present"


def seat_view(room: Room, seat: int, draft: Rows | None) -> SeatView:
    """What seat ``seat`` may see.  Before a hand is settled this holds no card another seat
    holds in it: only ``room.deal.hands[seat]`` and this seat's own ``draft`` are read from
    the deal; the only records read are settled ones (the hand in play's, else the one before)."""
    deal = room.deal
    cards: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    revealed = False
    if room.phase == "arranging" and deal is not None:
        own = deal.hands[seat]
        cards = tuple(own.split())
        revealed = deal.revealed[seat]
        if revealed:
            played = deal.sets[seat]
            assert played is not None
            shown = [row.split() for row in played.split(" | ")]
        else:
            mine = draft is not None and sorted(c for r in draft for c in r) == sorted(cards)
            shown = draft if draft is not None and mine else dealt_rows(own)
        rows = tuple(tuple(r) for r in shown)
    latest = HandRecord.from_dict(room.records[-1]) if room.records else None
    last = latest if room.phase == "settled" else None
    previous = latest if room.phase == "arranging" else None
    running = balances(records(room))
    return SeatView(
        code=room.code,
        seat=seat,
        host=seat == 0,
        phase=room.phase,
        settings=room.settings,
        seats=tuple(SeatStatus(i, s.kind, s.name, s.level, _status(room, i)) for i, s in enumerate(room.seats)),
        number=room.number(),
        deadline_ms=deal.deadline_ms if deal is not None and room.phase == "arranging" else None,
        cards=cards,
        rows=rows,
        revealed=revealed,
        last=last,
        previous=previous,
        balances=tuple(running[-1]) if running else (0,) * len(room.seats),
        hands_played=len(room.records),
    )
