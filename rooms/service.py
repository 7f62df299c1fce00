"""Rooms kept in the store: every action one transaction, checked against the seat's token.

:class:`Rooms` works on the store's engine (the same database as the profiles: SQLite by
default, PostgreSQL by URL), so any number of app processes serve the same room.  A room
is one row of ``rooms`` (its :class:`rooms.table.Room` as JSON and a ``version``); the
rows a person is arranging are one row of ``room_drafts`` per seat, saved on every move
without touching the room's version (so a move does not make the other pages redraw).

An action reads the room, applies one of :mod:`rooms.table`'s rules to it (computer
players' sets are computed here, outside any lock) and writes it back with
``UPDATE ... WHERE version = <the version read>``.  When another process got there
first, nothing is written and the action runs again on the new state, so no action is
ever applied twice or lost; one that no longer applies (a second Reveal) is refused with
:class:`rooms.table.StaleAction`.

Every action but taking a seat names the seat by its **token**; the room keeps only the
token's digest.  A token that names no seat of the room is refused with
:class:`NotSeated`.  Looking a room up by code is rate limited across every process on the
database (:mod:`store.limits`); a wrong code and an expired room read the same.

A person whose page has not polled for :data:`ABSENT_SECONDS` (a closed tab, a lost
connection) is marked away, as if they had pressed Leave: a computer player plays for them
until their page opens the room again.

Each action that changes a room raises its version and announces it (:mod:`rooms.notify`):
pages watching the room are told the new version, and nothing else, at once; the page of
the seat that acted is told the change is its own (the rerun of its action draws it).

Rooms no action touched for :data:`IDLE_SECONDS` expire: :meth:`Rooms.expire` deletes
them (it runs whenever a room is created), and a lookup treats them as gone.  Until then a
room keeps its whole history, which its members can export (:meth:`Rooms.history`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa

from solver.table import history_csv
from store import Store
from store.limits import FailureLimit, now_ms
from store.schema import room_drafts, room_seen, rooms

from . import macao_room, notify, table
from .codes import (
    InvalidName,
    InvalidRoomCode,
    TooManyRoomAttempts,
    clean_name,
    new_room_code,
    new_token,
    parse_room_code,
    same_digest,
    token_digest,
)
from .macao_room import MacaoRoom, MacaoSeatView, MacaoSettings
from .secret import new_secret
from .table import Room, RoomError, Rows, SeatView, Settings

AnyRoom = Room | MacaoRoom

#: A room no action touched for this long (6 hours) expires.
IDLE_SECONDS = 6 * 3600
#: A person whose page has not polled the room for this long (60 s) is marked away.
ABSENT_SECONDS = 60
#: Wrong room codes all processes together accept per minute before lookups are refused for a while.
CODE_FAILURES_PER_MINUTE = 20
#: How often an action is retried when other processes keep changing the room under it.
_ATTEMPTS = 50

T = TypeVar("T")


class UnknownRoom(RoomError):
    """No room has this code (never had, or it expired)."""


class NotSeated(RoomError):
    """A seat token that names no seat of this room (forged, or from another room)."""


@dataclass(frozen=True)
class RoomInfo:
    """What anyone holding the code may learn before taking a seat."""

    code: str
    game: str
    seats: int
    open_seats: int
    phase: str


class Rooms:
    """The rooms of one database (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        idle_seconds: int = IDLE_SECONDS,
        code_failures_per_minute: int = CODE_FAILURES_PER_MINUTE,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.store = store
        self.idle_ms = idle_seconds * 1000
        self.limiter = FailureLimit(store, "room", code_failures_per_minute, clock, refusal=TooManyRoomAttempts,
                                    what="room codes")  # fmt: skip
        self.clock = clock

    # --- reading --------------------------------------------------------------------------

    def _row(self, connection: sa.Connection, code: str) -> tuple[AnyRoom, int]:
        found = connection.execute(
            sa.select(rooms.c.state, rooms.c.version, rooms.c.updated_ms).where(rooms.c.code == code)
        ).first()
        if found is None or found.updated_ms < self.clock() - self.idle_ms:
            raise UnknownRoom(f"there is no room {code} (a wrong code, or the room expired)")
        return load_room(found.state), int(found.version)

    def lookup(self, text: str) -> RoomInfo:
        """The room a typed or linked code names (rate limited: see the module docstring)."""
        self.limiter.check()
        try:
            code = parse_room_code(text)
            with self.store.read() as connection:
                room, _version = self._row(connection, code)
        except (InvalidRoomCode, UnknownRoom):
            self.limiter.fail()
            raise
        return RoomInfo(
            code=code,
            game=macao_room.GAME if isinstance(room, MacaoRoom) else table.GAME,
            seats=len(room.seats),
            open_seats=sum(1 for s in room.seats if s.kind == "open"),
            phase=room.phase,
        )

    def version(self, code: str) -> int:
        """The room's version: it changes with every action (pages poll it)."""
        with self.store.read() as connection:
            return self._row(connection, code)[1]

    def seat_of(self, code: str, token: str) -> int:
        with self.store.read() as connection:
            room, _version = self._row(connection, code)
        return _seat(room, token)

    def view(self, code: str, token: str) -> tuple[SeatView | MacaoSeatView, int]:
        """What the token's seat may see, and the room's version it was read at."""
        with self.store.read() as connection:
            room, version = self._row(connection, code)
            seat = _seat(room, token)
            if isinstance(room, MacaoRoom):
                return macao_room.seat_view(room, seat), version
            draft = self._draft(connection, code, seat, room.number())
        return table.seat_view(room, seat, draft), version

    def history(self, code: str, token: str, kind: str = "json") -> str:
        """The room's settled hands (JSON or CSV), for a member of the room only."""
        with self.store.read() as connection:
            room, _version = self._row(connection, code)
        _seat(room, token)
        if isinstance(room, MacaoRoom):
            return json.dumps(macao_room.history(room), indent=1, ensure_ascii=False)
        if kind == "csv":
            return history_csv(table.records(room))
        return json.dumps(table.history(room), indent=1, ensure_ascii=False)

    @staticmethod
    def _draft(connection: sa.Connection, code: str, seat: int, number: int) -> Rows | None:
        found = connection.execute(
            sa.select(room_drafts.c.rows).where(
                room_drafts.c.code == code, room_drafts.c.seat == seat, room_drafts.c.hand == number
            )
        ).first()
        return None if found is None else [list(r) for r in found.rows]

    # --- writing --------------------------------------------------------------------------

    def create(self, settings: Settings | MacaoSettings, name: str = "") -> tuple[str, str]:
        """A new room with its host in seat 0; returns (code, the host's seat token)."""
        self.expire()
        token = new_token()
        room: AnyRoom
        if isinstance(settings, MacaoSettings):
            room = macao_room.new_room("", settings, _name(name), token_digest(token), new_secret())
        else:
            room = table.new_room("", settings, _name(name), token_digest(token), new_secret())
        now = self.clock()
        while True:
            room.code = new_room_code()
            state = room.to_json()
            with self.store.write() as connection:
                taken = connection.execute(sa.select(rooms.c.code).where(rooms.c.code == room.code)).first()
                if taken is None:
                    connection.execute(
                        rooms.insert().values(
                            code=room.code, game=state["game"], version=1, state=state, created_ms=now, updated_ms=now,
                        )
                    )  # fmt: skip
                    return room.code, token

    def join(self, code: str, name: str = "") -> tuple[int, str]:
        """Take the first open seat; returns (seat, its token).  RoomFull when none is left."""
        token = new_token()
        cleaned = _name(name)
        seat = self._act(code, lambda room, _drafts, _now: table.take_seat(room, cleaned, token_digest(token)))
        return seat, token

    def rename(self, code: str, token: str, name: str) -> None:
        cleaned = _name(name)
        self._act(code, lambda room, _d, _n: table.rename(room, _seat(room, token), cleaned), by=token)

    def set_computer(self, code: str, token: str, seat: int, level: str | None) -> None:
        self._act(code, lambda room, _d, _n: table.set_computer(room, _seat(room, token), seat, level), by=token)

    def start(self, code: str, token: str) -> None:
        def begin(room: AnyRoom, _drafts: dict[int, Rows], now: int) -> None:
            if isinstance(room, MacaoRoom):
                macao_room.start(room, _seat(room, token), now)
            else:
                table.start(room, _seat(room, token), now)

        self._act(code, begin, by=token)

    def play(self, code: str, token: str, number: int, index: int) -> None:
        """A Macao move: legal move ``index`` on the table of move ``number``."""
        self._act(
            code, lambda room, _d, now: macao_room.play(_macao(room), _seat(room, token), number, index, now), by=token
        )

    def call_macao(self, code: str, token: str, number: int) -> None:
        """A Macao call: catch the seat that kept one card without "Macao!" on the table of move ``number``."""
        self._act(code, lambda room, _d, now: macao_room.call(_macao(room), _seat(room, token), number, now), by=token)

    def next_round(self, code: str, token: str, number: int) -> None:
        """Deal the next round of a Macao match once round ``number`` is over (a second request is stale)."""
        self._act(
            code, lambda room, _d, now: macao_room.next_round(_macao(room), _seat(room, token), number, now), by=token
        )

    def save_draft(self, code: str, token: str, number: int, rows: object) -> None:
        """Keep the rows seat ``token`` is arranging on hand ``number`` (a reload finds them)."""
        with self.store.read() as connection:
            room, _version = self._row(connection, code)
        seat = _seat(room, token)
        room = _mau_binh(room)
        if room.phase != "arranging" or room.number() != number:
            raise table.StaleAction(f"hand {number} is not being arranged")
        checked = table.check_rows(room, seat, rows)
        values = {"code": code, "seat": seat, "hand": number, "rows": checked, "updated_ms": self.clock()}
        with self.store.write() as connection:
            done = connection.execute(
                room_drafts.update()
                .where(room_drafts.c.code == code, room_drafts.c.seat == seat)
                .values(hand=number, rows=checked, updated_ms=values["updated_ms"])
            )
            if done.rowcount == 0:
                connection.execute(room_drafts.insert().values(**values))

    def reveal(self, code: str, token: str, number: int, rows: object) -> None:
        self._act(
            code,
            lambda room, drafts, now: table.reveal(_mau_binh(room), _seat(room, token), number, rows, drafts, now),
            by=token,
        )

    def next_hand(self, code: str, token: str, number: int) -> None:
        self._act(
            code, lambda room, _d, now: table.next_hand(_mau_binh(room), _seat(room, token), number, now), by=token
        )

    def leave(self, code: str, token: str) -> None:
        self._act(code, lambda room, drafts, now: _leave(room, _seat(room, token), drafts, now), by=token)

    def come_back(self, code: str, token: str) -> None:
        self._act(code, lambda room, _d, _n: table.come_back(room, _seat(room, token)), by=token)

    def heartbeat(self, code: str, token: str) -> None:
        """Note that seat ``token``'s page is open (pages call this every few seconds)."""
        with self.store.read() as connection:
            room, _version = self._row(connection, code)
        seat = _seat(room, token)
        now = self.clock()
        with self.store.write() as connection:
            done = connection.execute(
                room_seen.update().where(room_seen.c.code == code, room_seen.c.seat == seat).values(seen_ms=now)
            )
            if done.rowcount == 0:
                connection.execute(room_seen.insert().values(code=code, seat=seat, seen_ms=now))

    def tick(self, code: str) -> int:
        """Settle the hand in play if its timer ran out (a Macao room: play a draw for the person
        whose time ran out, or let the computers go on once a call window closed), or hand a
        quiet page's seat to a computer player; return the room's version (pages call this on
        every poll, so a room moves on without a process of its own)."""
        with self.store.read() as connection:
            room, version = self._row(connection, code)
            cutoff = self.clock() - ABSENT_SECONDS * 1000
            quiet = {
                int(row.seat)
                for row in connection.execute(
                    sa.select(room_seen.c.seat).where(room_seen.c.code == code, room_seen.c.seen_ms < cutoff)
                )
            }
        if any(room.seats[i].kind == "person" and not room.seats[i].away for i in quiet):
            self._act(code, lambda r, drafts, now: _mark_away(r, quiet, drafts, now))
            return self.version(code)
        if isinstance(room, MacaoRoom):
            if macao_room.is_due(room, self.clock()):
                self._act(code, lambda r, _d, now: macao_room.time_out(_macao(r), now))
                return self.version(code)
            return version
        deal = room.deal
        due = deal is not None and deal.deadline_ms is not None and self.clock() >= deal.deadline_ms
        if room.phase == "arranging" and due:
            self._act(code, lambda r, drafts, now: table.settle_if_due(_mau_binh(r), drafts, now))
            return self.version(code)
        return version

    def expire(self) -> int:
        """Delete the rooms idle for longer than the idle time; return how many."""
        with self.store.write() as connection:
            cutoff = self.clock() - self.idle_ms
            old = [row.code for row in connection.execute(sa.select(rooms.c.code).where(rooms.c.updated_ms < cutoff))]
            if old:
                connection.execute(room_drafts.delete().where(room_drafts.c.code.in_(old)))
                connection.execute(room_seen.delete().where(room_seen.c.code.in_(old)))
                connection.execute(rooms.delete().where(rooms.c.code.in_(old)))
            return len(old)

    def _act(self, code: str, action: Callable[[AnyRoom, dict[int, Rows], int], T], *, by: str | None = None) -> T:
        """Apply ``action`` to the room in one optimistic transaction (see the module docstring);
        ``by`` is the token of the seat acting, whose own page is told the change is its own."""
        for _attempt in range(_ATTEMPTS):
            with self.store.read() as connection:
                room, version = self._row(connection, code)
                drafts = {
                    int(row.seat): [list(r) for r in row.rows]
                    for row in connection.execute(
                        sa.select(room_drafts.c.seat, room_drafts.c.rows).where(
                            room_drafts.c.code == code, room_drafts.c.hand == room.number()
                        )
                    )
                }
            before = copy.deepcopy(room.to_json())
            actor = None if by is None else _seat(room, by)  # before the action: Leave gives the seat up
            now = self.clock()
            result = action(room, drafts, now)
            after = room.to_json()
            if after == before:
                return result
            with self.store.write() as connection:
                done = connection.execute(
                    rooms.update()
                    .where(rooms.c.code == code, rooms.c.version == version)
                    .values(state=after, version=version + 1, updated_ms=now)
                )
                if done.rowcount == 1:
                    notify.announce(connection, code, version + 1, actor)
            if done.rowcount == 1:
                notify.published(code, version + 1, actor)
                return result
        raise RoomError("this room is too busy right now; try again")


def load_room(data: dict[str, Any]) -> AnyRoom:
    """A room from its JSON, of its game."""
    return MacaoRoom.from_json(data) if data.get("game") == macao_room.GAME else Room.from_json(data)


def _mau_binh(room: AnyRoom) -> Room:
    if not isinstance(room, Room):
        raise RoomError("this is a Macao room: it has no Mau Binh hands")
    return room


def _macao(room: AnyRoom) -> MacaoRoom:
    if not isinstance(room, MacaoRoom):
        raise RoomError("this is a Mau Binh room: it has no Macao moves")
    return room


def _seat(room: AnyRoom, token: str) -> int:
    if not isinstance(token, str) or not token:
        raise NotSeated("this browser holds no seat in this room")
    digest = token_digest(token)
    found = [i for i, s in enumerate(room.seats) if s.token is not None and same_digest(s.token, digest)]
    if not found:
        raise NotSeated("this browser holds no seat in this room")
    return found[0]


def _mark_away(room: AnyRoom, seats: set[int], drafts: dict[int, Rows], now: int) -> None:
    for seat in sorted(seats):
        if room.seats[seat].kind == "person":
            _leave(room, seat, drafts, now)


def _leave(room: AnyRoom, seat: int, drafts: dict[int, Rows], now: int) -> None:
    table.leave(room, seat)
    if isinstance(room, MacaoRoom):
        macao_room.after_leave(room, now)
    else:
        table.settle_if_due(room, drafts, now)


def _name(text: str) -> str:
    try:
        return clean_name(text)
    except InvalidName:
        return ""
