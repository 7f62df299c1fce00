"""The records the store keeps, as frozen values, and the checks every record passes.

One check per kind of record (:func:`check_practice`, :func:`check_play_hand`,
:func:`check_macao_round`) serves both a live write and an imported file, so a file can
hold nothing the app could not have written: hands of 13 distinct cards, sets that use
exactly the hand's cards as 3/5/5, known grades, finite numbers, JSON-ready dicts.  A
check returns the record with its card text in canonical form (``"As Kd ..."``) or raises
:class:`InvalidRecord` naming the field, what it expected and what it got.

Times are timezone-aware UTC datetimes in Python and integer milliseconds since the epoch
in the database (portable: a day is an integer division on SQLite and PostgreSQL alike).
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any, TypeVar

from solver.cards import Card, format_cards, full_deck, parse_cards
from solver.messages import echo
from solver.scoring import ROW_NAMES, ROW_SIZES, check_hand

#: Grades of a set, best first (the Practice and Play pages grade by chi lost).
GRADES = ("best", "good", "inaccuracy", "mistake", "blunder", "foul")
#: Grades that put a hand in the player's review queue.
REVIEW_GRADES = frozenset({"mistake", "blunder", "foul"})
#: Longest text of a name-like field (preset, field, mode, kind, theme, level, session).
NAME_CHARS = 64
#: Most themes one hand carries.
MAX_THEMES = 32
_NAME = re.compile(r"[A-Za-z0-9 _.:/+-]+")
_INT64 = 2**63


class InvalidRecord(ValueError):
    """A record (written or imported) that breaks the store's rules; the message says which."""


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def to_ms(when: datetime) -> int:
    """Milliseconds since the epoch of an aware datetime (how the database keeps times)."""
    if when.tzinfo is None:
        raise InvalidRecord(f"a record's time must carry its timezone (UTC), got the naive {when.isoformat()}")
    return round(when.timestamp() * 1000)


def from_ms(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, timezone.utc)


def new_uid() -> str:
    """A record's own id (a random UUID), the same in every export of it."""
    return str(uuid.uuid4())


@dataclass(frozen=True)
class Profile:
    """An anonymous player: ``id`` stays in the browser, ``code`` (XXXX-XXXX-XXXX-XXXX) opens it elsewhere."""

    id: str
    code: str
    created_at: datetime


@dataclass(frozen=True)
class PracticeRecord:
    """One submitted Practice hand: the deal, the rules, the player's set against the best one."""

    preset: str
    players: int
    field: str
    hand: str
    played: str
    best: str
    ev: float
    best_ev: float
    chi_lost: float
    grade: str
    mode: str = "fast"
    seed: int | None = None
    number: int | None = None
    kind: str = "Random"
    themes: tuple[str, ...] = ()
    seconds: float = 0.0
    hints: int = 0
    created_at: datetime = dataclasses.field(default_factory=utc_now)
    uid: str = dataclasses.field(default_factory=new_uid)


@dataclass(frozen=True)
class PlaySeat:
    """One seat of a Play hand: who sat there, the 13 cards dealt and the set they played."""

    name: str
    hand: str
    played: str


@dataclass(frozen=True)
class PlayHandRecord:
    """One hand of a Play session: every seat's hand and set, the settlement, my result."""

    session: str
    hand_number: int
    preset: str
    players: int
    field: str
    seats: tuple[PlaySeat, ...]
    settlement: Mapping[str, Any]
    my_net: float
    me: int = 0
    levels: tuple[str, ...] = ()
    seed: int | None = None
    number: int | None = None
    grade: str | None = None
    chi_lost: float | None = None
    seconds: float = 0.0
    hints: int = 0
    created_at: datetime = dataclasses.field(default_factory=utc_now)
    uid: str = dataclasses.field(default_factory=new_uid)


@dataclass(frozen=True)
class MacaoRoundRecord:
    """One Macao round: its options, the table, the result (placings, turns) and my place."""

    options: Mapping[str, Any]
    seed: int | None
    players: int
    result: Mapping[str, Any]
    levels: tuple[str, ...] = ()
    my_place: int | None = None
    turns: int = 0
    seconds: float = 0.0
    created_at: datetime = dataclasses.field(default_factory=utc_now)
    uid: str = dataclasses.field(default_factory=new_uid)


@dataclass(frozen=True)
class ReviewItem:
    """A hand in the review queue: the hand, its table, the set first played and when it is due."""

    id: int
    hand: str
    preset: str
    players: int
    field: str
    mode: str
    played: str
    best: str
    grade: str
    chi_lost: float
    due: datetime
    reviews: int
    last_grade: str | None
    created_at: datetime


@dataclass(frozen=True)
class ImportSummary:
    """What an import added, and how many records it skipped as already present (same uid)."""

    practice: int = 0
    play: int = 0
    macao: int = 0
    review: int = 0
    page_states: int = 0
    skipped: int = 0


@dataclass(frozen=True)
class PracticeSummary:
    """All of a profile's Practice hands (since a time) in one row; the times are None without hands."""

    hands: int
    chi_lost: float
    mean_chi_lost: float
    good: int
    mistakes: int
    mean_seconds: float
    hints: int
    first: datetime | None
    last: datetime | None


@dataclass(frozen=True)
class DayStats:
    """Practice on one day (in the timezone asked for): hands, chi lost, and hands set best or good."""

    day: date
    hands: int
    chi_lost: float
    mean_chi_lost: float
    good: int


@dataclass(frozen=True)
class ThemeStats:
    """Practice hands of one theme: how many, the chi they cost, and how many were mistakes or worse."""

    theme: str
    hands: int
    chi_lost: float
    mean_chi_lost: float
    mistakes: int


def plain_values(record: Any) -> dict[str, Any]:
    """A record's fields as plain values: tuples as lists, seats and mappings as dicts (times kept)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        if isinstance(value, tuple):
            value = [vars(v) if isinstance(v, PlaySeat) else v for v in value]
        elif isinstance(value, Mapping):
            value = dict(value)
        out[f.name] = value
    return out


# --- checks -------------------------------------------------------------------------------

R = TypeVar("R", PracticeRecord, PlayHandRecord, MacaoRoundRecord)


#: Each card by its canonical text: the fast path for text the app wrote (anything else is parsed).
_CARD_OF_TEXT = {str(card): card for card in full_deck()}


def _cards(text: str) -> list[Card]:
    tokens = text.split()
    if all(token in _CARD_OF_TEXT for token in tokens):
        return [_CARD_OF_TEXT[token] for token in tokens]
    return parse_cards(text)


def canonical_hand(text: str, what: str = "the hand") -> tuple[str, frozenset[Card]]:
    """The canonical text of a 13-card hand and its cards; :class:`InvalidRecord` otherwise."""
    if not isinstance(text, str):
        raise InvalidRecord(f"{what} must be card text, got {echo(text)}")
    try:
        cards = _cards(text)
        if len(cards) != 13 or len(set(cards)) != 13:
            cards = check_hand(text)  # for its message
    except ValueError as exc:
        raise InvalidRecord(f"{what}: {exc}") from None
    return format_cards(cards), frozenset(cards)


def hand_key(text: str) -> str:
    """The 13 cards of a hand in code order: the same key whatever order they were dealt in.

    >>> hand_key("2c As Kd 3h 4s 5s 6s 7s 8s 9s Ts Js Qs")
    '2c 3h 4s 5s 6s 7s 8s 9s Ts Js Qs Kd As'
    """
    return format_cards(sorted(_cards(text)))


def canonical_set(text: str, hand: frozenset[Card], what: str) -> str:
    """The canonical ``front | middle | back`` of a set that uses exactly ``hand`` as 3/5/5."""
    if not isinstance(text, str):
        raise InvalidRecord(f"{what} must be text 'front | middle | back', got {echo(text)}")
    parts = re.split(r"[|/]", text)
    if len(parts) != 3:
        raise InvalidRecord(f"{what} needs 3 rows separated by '|' (front | middle | back), got {len(parts)}")
    rows = []
    for name, size, part in zip(ROW_NAMES, ROW_SIZES, parts):
        try:
            row = _cards(part)
        except ValueError as exc:
            raise InvalidRecord(f"{what}, {name} row: {exc}") from None
        if len(row) != size:
            raise InvalidRecord(f"{what}: the {name} row has {len(row)} cards, expected {size}: {echo(part.strip())}")
        rows.append(row)
    used = [c for row in rows for c in row]
    if len(set(used)) != len(used):
        repeated = sorted({c for c in used if used.count(c) > 1})
        raise InvalidRecord(f"{what} uses {format_cards(repeated)} twice")
    foreign = sorted(set(used) - hand)
    if foreign:
        raise InvalidRecord(f"{what} uses {format_cards(foreign)}, not in the hand")
    return " | ".join(format_cards(row) for row in rows)


def _name(value: object, what: str, optional: bool = False) -> None:
    if optional and value is None:
        return
    if not isinstance(value, str) or not value or len(value) > NAME_CHARS or not _NAME.fullmatch(value):
        raise InvalidRecord(f"{what} must be a name of 1-{NAME_CHARS} letters, digits or _.:/+- , got {echo(value)}")


def _int(value: object, what: str, low: int, high: int, optional: bool = False) -> None:
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidRecord(f"{what} must be a whole number from {low} to {high}, got {echo(value)}")


def _number(value: object, what: str, optional: bool = False, low: float = -math.inf) -> None:
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < low:
        bound = "" if low == -math.inf else f" of at least {low:g}"
        raise InvalidRecord(f"{what} must be a finite number{bound}, got {echo(value)}")


def _grade(value: object, what: str, optional: bool = False) -> None:
    if optional and value is None:
        return
    if value not in GRADES:
        raise InvalidRecord(f"{what} must be one of {', '.join(GRADES)}, got {echo(value)}")


def _time(value: object, what: str) -> None:
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise InvalidRecord(f"{what} must be a timezone-aware datetime, got {echo(value)}")


def _uid(value: object) -> None:
    try:
        uuid.UUID(str(value))
    except ValueError:
        raise InvalidRecord(f"a record's uid must be a UUID, got {echo(value)}") from None
    if not isinstance(value, str):
        raise InvalidRecord(f"a record's uid must be a UUID, got {echo(value)}")


def _names(values: object, what: str, most: int) -> tuple[str, ...]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise InvalidRecord(f"{what} must be a list of names, got {echo(values)}")
    if len(values) > most:
        raise InvalidRecord(f"{what} holds at most {most} names, got {len(values)}")
    for value in values:
        _name(value, f"each of {what}")
    return tuple(values)


def json_ready(value: object, what: str) -> None:
    """Raise :class:`InvalidRecord` unless ``value`` is a dict that JSON can hold exactly."""
    if not isinstance(value, Mapping):
        raise InvalidRecord(f"{what} must be a dict, got {echo(value)}")
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidRecord(f"{what} must be JSON-ready: {exc}") from None


def _common(record: PracticeRecord | PlayHandRecord | MacaoRoundRecord) -> None:
    _uid(record.uid)
    _time(record.created_at, "created_at")
    _number(record.seconds, "seconds", low=0)


def _ms(record: PracticeRecord | PlayHandRecord | MacaoRoundRecord) -> datetime:
    """The record's time as stored (whole milliseconds, UTC)."""
    return from_ms(to_ms(record.created_at))


def check_practice(record: PracticeRecord) -> PracticeRecord:
    """The record with canonical card text, or :class:`InvalidRecord`."""
    _common(record)
    _name(record.preset, "preset")
    _int(record.players, "players", 2, 4)
    _name(record.field, "field")
    _name(record.mode, "mode")
    _name(record.kind, "kind")
    _int(record.seed, "seed", -_INT64, _INT64 - 1, optional=True)
    _int(record.number, "number", 0, 2**31 - 1, optional=True)
    hand, cards = canonical_hand(record.hand)
    played = canonical_set(record.played, cards, "the played set")
    best = canonical_set(record.best, cards, "the best set")
    for name in ("ev", "best_ev", "chi_lost"):
        _number(getattr(record, name), name)
    _grade(record.grade, "grade")
    themes = _names(record.themes, "themes", MAX_THEMES)
    _int(record.hints, "hints", 0, 10_000)
    return dataclasses.replace(record, hand=hand, played=played, best=best, themes=themes, created_at=_ms(record))


def check_play_hand(record: PlayHandRecord) -> PlayHandRecord:
    """The record with canonical card text, or :class:`InvalidRecord`."""
    _common(record)
    _name(record.session, "session")
    _int(record.hand_number, "hand_number", 0, 2**31 - 1)
    _name(record.preset, "preset")
    _int(record.players, "players", 2, 4)
    _name(record.field, "field")
    levels = _names(record.levels, "levels", 4)
    _int(record.seed, "seed", -_INT64, _INT64 - 1, optional=True)
    _int(record.number, "number", 0, 2**31 - 1, optional=True)
    if not isinstance(record.seats, Sequence) or len(record.seats) != record.players:
        got = len(record.seats) if isinstance(record.seats, Sequence) else echo(record.seats)
        raise InvalidRecord(f"a hand of {record.players} players needs {record.players} seats, got {got}")
    seats = []
    dealt: set[Card] = set()
    for i, seat in enumerate(record.seats, 1):
        if not isinstance(seat, PlaySeat):
            raise InvalidRecord(f"seat {i} must be a PlaySeat(name, hand, played), got {echo(seat)}")
        if not isinstance(seat.name, str) or len(seat.name) > NAME_CHARS:
            raise InvalidRecord(f"seat {i}'s name must be text of at most {NAME_CHARS} characters")
        hand, cards = canonical_hand(seat.hand, f"seat {i}'s hand")
        if dealt & cards:
            raise InvalidRecord(f"seat {i}'s hand repeats {format_cards(sorted(dealt & cards))} of another seat")
        dealt |= cards
        seats.append(PlaySeat(seat.name, hand, canonical_set(seat.played, cards, f"seat {i}'s set")))
    _int(record.me, "me (my seat, from 0)", 0, record.players - 1)
    json_ready(record.settlement, "settlement")
    _number(record.my_net, "my_net")
    _grade(record.grade, "grade", optional=True)
    _number(record.chi_lost, "chi_lost", optional=True)
    _int(record.hints, "hints", 0, 10_000)
    return dataclasses.replace(record, seats=tuple(seats), levels=levels, created_at=_ms(record))


def check_macao_round(record: MacaoRoundRecord) -> MacaoRoundRecord:
    """The record (its time in whole milliseconds), or :class:`InvalidRecord`."""
    _common(record)
    json_ready(record.options, "options")
    _int(record.seed, "seed", -_INT64, _INT64 - 1, optional=True)
    _int(record.players, "players", 2, 8)
    levels = _names(record.levels, "levels", 8)
    json_ready(record.result, "result")
    _int(record.my_place, "my_place", 1, record.players, optional=True)
    _int(record.turns, "turns", 0, 1_000_000)
    return dataclasses.replace(record, levels=levels, created_at=_ms(record))
