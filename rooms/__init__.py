"""Private rooms: 2-4 people at one Mau Binh or Macao table, each on their own phone.

No Streamlit here: :mod:`rooms.table` is a room's rules (seats, dealing, reveals,
settlement by :func:`solver.score_table`, the view one seat may see), :mod:`rooms.macao_room`
the same for a Macao match (rounds, turns, the turn timer, the Macao! call), :mod:`rooms.codes`
the room codes, seat tokens and names, and :mod:`rooms.service` keeps rooms in the store
(the same database as the profiles), every action one transaction checked against the
seat's token.  The Rooms page (``app/pages/rooms.py``) only draws a :class:`SeatView`
(or :class:`MacaoSeatView`).

    from rooms import Rooms, Settings
    from store import get_store
    service = Rooms(get_store())
    code, host = service.create(Settings(seats=3), "Lan")
    seat, guest = service.join(code, "Minh")
    service.start(code, host)
    view, version = service.view(code, guest)   # guest's 13 cards, nobody else's

See docs/rooms.md.
"""

from __future__ import annotations

from .codes import (
    CODE_BITS,
    NAME_LENGTH,
    InvalidRoomCode,
    TooManyRoomAttempts,
    clean_name,
    format_room_code,
    parse_room_code,
)
from .macao_room import MATCH_LENGTHS, TURN_TIMERS, MacaoSeatView, MacaoSettings
from .service import IDLE_SECONDS, NotSeated, RoomInfo, Rooms, UnknownRoom
from .table import (
    TIMERS,
    NotAllowed,
    RoomError,
    RoomFull,
    SeatStatus,
    SeatView,
    Settings,
    StaleAction,
)

__all__ = [
    "CODE_BITS",
    "IDLE_SECONDS",
    "MATCH_LENGTHS",
    "NAME_LENGTH",
    "TIMERS",
    "TURN_TIMERS",
    "InvalidRoomCode",
    "MacaoSeatView",
    "MacaoSettings",
    "NotAllowed",
    "NotSeated",
    "RoomError",
    "RoomFull",
    "RoomInfo",
    "Rooms",
    "SeatStatus",
    "SeatView",
    "Settings",
    "StaleAction",
    "TooManyRoomAttempts",
    "UnknownRoom",
    "clean_name",
    "format_room_code",
    "parse_room_code",
]
