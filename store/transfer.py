"""A profile's data as one JSON file: the export format, and the checks an imported file passes.

The file (``format: "mau-binh-profile"``, ``version: 1``) holds every record of a profile
and nothing that opens it: no profile id, no code.  Each record carries its own UUID
(``uid``), so importing a file twice, or into the profile it came from, skips what is
already there.  Times are ISO 8601 in UTC with milliseconds.  ::

    {"format": "mau-binh-profile", "version": 1, "exported_at": "2026-03-01T12:00:00.000+00:00",
     "page_states": {"practice": {...}},
     "practice": [{"uid", "created_at", "preset", "players", "field", "mode", "hand", "seed",
                   "number", "kind", "played", "best", "ev", "best_ev", "chi_lost", "grade",
                   "themes", "seconds", "hints"}],
     "play": [{"uid", "created_at", "session", "hand_number", "preset", "players", "field",
               "levels", "seed", "number", "seats": [{"name", "hand", "played"}], "me",
               "settlement", "my_net", "grade", "chi_lost", "seconds", "hints"}],
     "macao": [{"uid", "created_at", "options", "seed", "players", "levels", "result",
                "my_place", "turns", "seconds"}],
     "review": [{"uid", "created_at", "updated_at", "hand", "preset", "players", "field", "mode",
                 "played", "best", "grade", "chi_lost", "reviews", "last_grade", "card"}]}

Reading a file (:func:`read_export`) checks all of it before the store writes anything:
its size, that it is JSON of this format and version, that every record has exactly the
keys above, and every record passes the same check as a live write (13 distinct valid
cards, sets that use exactly the hand's cards as 3/5/5, known grades, finite numbers).
The first problem found is raised as :class:`ImportRefused` with where it is and what is
wrong; the store then changes nothing.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from solver.messages import echo

from .records import (
    GRADES,
    NAME_CHARS,
    InvalidRecord,
    MacaoRoundRecord,
    PlayHandRecord,
    PlaySeat,
    PracticeRecord,
    canonical_hand,
    canonical_set,
    check_macao_round,
    check_play_hand,
    check_practice,
    hand_key,
    plain_values,
)
from .review import card_from_json

FORMAT = "mau-binh-profile"
#: The export format's version (a later version adds a reader for this one, never drops it).
VERSION = 1
#: Largest file an import reads: about 40,000 practice hands.
MAX_IMPORT_BYTES = 16 * 1024 * 1024
#: The sections of an export, in the order they are written.
SECTIONS = ("page_states", "practice", "play", "macao", "review")
_TOP = {"format", "version", "exported_at", *SECTIONS}


class ImportRefused(ValueError):
    """A file the import refuses; the message says where and what is wrong, and nothing was changed."""


@dataclass(frozen=True)
class ReviewExport:
    """A review item as exported: where it came from, and its FSRS card."""

    uid: str
    created_at: datetime
    updated_at: datetime
    hand: str
    preset: str
    players: int
    field: str
    mode: str
    played: str
    best: str
    grade: str
    chi_lost: float
    reviews: int
    last_grade: str | None
    card: dict[str, Any]

    @property
    def hand_key(self) -> str:
        return hand_key(self.hand)


@dataclass(frozen=True)
class ProfileExport:
    """A checked export, ready to be written."""

    page_states: dict[str, dict[str, Any]]
    practice: list[PracticeRecord]
    play: list[PlayHandRecord]
    macao: list[MacaoRoundRecord]
    review: list[ReviewExport]


# --- writing -------------------------------------------------------------------------------


def iso(when: datetime) -> str:
    return when.isoformat(timespec="milliseconds")


def _plain(record: Any) -> dict[str, Any]:
    return {k: iso(v) if isinstance(v, datetime) else v for k, v in plain_values(record).items()}


def export_document(content: ProfileExport, exported_at: datetime) -> dict[str, Any]:
    """The JSON-ready document of a profile's data (records oldest first)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": iso(exported_at),
        "page_states": content.page_states,
        "practice": [_plain(r) for r in content.practice],
        "play": [_plain(r) for r in content.play],
        "macao": [_plain(r) for r in content.macao],
        "review": [_plain(r) for r in content.review],
    }


# --- reading -------------------------------------------------------------------------------


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"


def read_export(data: bytes | str) -> ProfileExport:
    """Check a whole export file; :class:`ImportRefused` at its first problem."""
    if not isinstance(data, (bytes, str)):
        raise ImportRefused(f"an import reads the bytes or text of a file, got {type(data).__name__}")
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_IMPORT_BYTES:
        raise ImportRefused(
            f"the file is {_megabytes(len(raw))}; an import reads at most {_megabytes(MAX_IMPORT_BYTES)}"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ImportRefused(f"the file is not UTF-8 text (byte {exc.start} is {raw[exc.start]:#04x})") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportRefused(f"the file is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused(f'the file is not a Mau Binh profile export (it has no "format": "{FORMAT}")')
    version = document.get("version")
    if version != VERSION:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > VERSION
        why = "a newer version of the app made it" if newer else "this app never wrote that version"
        raise ImportRefused(
            f"the file is export format version {echo(version)}; this app reads version {VERSION} ({why})"
        )
    unknown = sorted(set(document) - _TOP)
    if unknown:
        raise ImportRefused(f"the file has keys an export never has: {', '.join(map(repr, unknown))}")
    missing = [name for name in SECTIONS if name not in document]
    if missing:
        raise ImportRefused(f"the file lacks its {', '.join(map(repr, missing))} section")
    page_states = document["page_states"]
    if not isinstance(page_states, dict):
        raise ImportRefused("'page_states' must be an object of page name to state")
    for page, state in page_states.items():
        if not 0 < len(page) <= NAME_CHARS or not isinstance(state, dict):
            raise ImportRefused(f"page state {echo(page)}: a page name of 1-{NAME_CHARS} characters and an object")
    for name in SECTIONS[1:]:
        if not isinstance(document[name], list):
            raise ImportRefused(f"'{name}' must be a list of records, got {type(document[name]).__name__}")
    return ProfileExport(
        page_states=page_states,
        practice=_each(document["practice"], "practice record", _practice),
        play=_each(document["play"], "play hand", _play),
        macao=_each(document["macao"], "macao round", _macao),
        review=_each(document["review"], "review item", _review),
    )


T = TypeVar("T")


def _each(items: list[Any], what: str, read: Callable[[dict[str, Any]], T]) -> list[T]:
    out = []
    for number, item in enumerate(items, 1):
        where = f"{what} {number}"
        if not isinstance(item, dict):
            raise ImportRefused(f"{where}: expected an object, got {echo(item)}")
        try:
            out.append(read(item))
        except (InvalidRecord, ValueError, TypeError) as exc:
            raise ImportRefused(f"{where}: {exc}") from None
    return out


def _keys(item: dict[str, Any], cls: type) -> dict[str, Any]:
    """The item's values under the dataclass's field names (all of them, nothing else)."""
    names = [f.name for f in dataclasses.fields(cls)]
    missing = [n for n in names if n not in item]
    if missing:
        raise InvalidRecord(f"missing {', '.join(map(repr, missing))}")
    unknown = sorted(set(item) - set(names))
    if unknown:
        raise InvalidRecord(f"unknown {', '.join(map(repr, unknown))}")
    return dict(item)


def _time(value: object, what: str) -> datetime:
    if isinstance(value, str):
        try:
            when = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            if when.tzinfo is not None:
                return when
    raise InvalidRecord(f"{what} must be an ISO 8601 time with its UTC offset, got {echo(value)}")


def _tuple(value: object, what: str) -> tuple[Any, ...]:
    if not isinstance(value, list):
        raise InvalidRecord(f"{what} must be a list, got {echo(value)}")
    return tuple(value)


def _practice(item: dict[str, Any]) -> PracticeRecord:
    values = _keys(item, PracticeRecord)
    values["created_at"] = _time(values["created_at"], "created_at")
    values["themes"] = _tuple(values["themes"], "themes")
    return check_practice(PracticeRecord(**values))


def _play(item: dict[str, Any]) -> PlayHandRecord:
    values = _keys(item, PlayHandRecord)
    values["created_at"] = _time(values["created_at"], "created_at")
    values["levels"] = _tuple(values["levels"], "levels")
    seats = []
    for i, seat in enumerate(_tuple(values["seats"], "seats"), 1):
        if not isinstance(seat, dict) or set(seat) != {"name", "hand", "played"}:
            raise InvalidRecord(f"seat {i} must be an object with exactly name, hand and played")
        seats.append(PlaySeat(**seat))
    values["seats"] = tuple(seats)
    return check_play_hand(PlayHandRecord(**values))


def _macao(item: dict[str, Any]) -> MacaoRoundRecord:
    values = _keys(item, MacaoRoundRecord)
    values["created_at"] = _time(values["created_at"], "created_at")
    values["levels"] = _tuple(values["levels"], "levels")
    return check_macao_round(MacaoRoundRecord(**values))


_CARD_KEYS = {"card_id", "state", "step", "stability", "difficulty", "due", "last_review"}


def _card(value: object) -> dict[str, Any]:
    if not isinstance(value, dict) or set(value) != _CARD_KEYS:
        raise InvalidRecord(f"card must be an FSRS card with exactly {', '.join(sorted(_CARD_KEYS))}")
    _time(value["due"], "the card's due")
    if value["last_review"] is not None:
        _time(value["last_review"], "the card's last_review")
    for name in ("stability", "difficulty"):
        number = value[name]
        if number is not None and (
            isinstance(number, bool) or not isinstance(number, (int, float)) or not math.isfinite(number) or number <= 0
        ):
            raise InvalidRecord(f"the card's {name} must be a positive number or null, got {echo(number)}")
    if value["state"] not in (1, 2, 3) or not (value["step"] is None or isinstance(value["step"], int)):
        raise InvalidRecord("the card's state must be 1, 2 or 3 and its step a whole number or null")
    if not isinstance(value["card_id"], int):
        raise InvalidRecord("the card's card_id must be a whole number")
    card_from_json(value)  # what the scheduler will read
    return value


def _review(item: dict[str, Any]) -> ReviewExport:
    values = _keys(item, ReviewExport)
    values["created_at"] = _time(values["created_at"], "created_at")
    values["updated_at"] = _time(values["updated_at"], "updated_at")
    values["hand"], cards = canonical_hand(values["hand"])
    values["played"] = canonical_set(values["played"], cards, "the played set")
    values["best"] = canonical_set(values["best"], cards, "the best set")
    probe = PracticeRecord(  # the table and grade pass the same checks as a practice record's
        preset=values["preset"], players=values["players"], field=values["field"], mode=values["mode"],
        hand=values["hand"], played=values["played"], best=values["best"], ev=0.0, best_ev=0.0,
        chi_lost=values["chi_lost"], grade=values["grade"], uid=values["uid"], created_at=values["created_at"],
    )  # fmt: skip
    check_practice(probe)
    if values["last_grade"] is not None and values["last_grade"] not in GRADES:
        raise InvalidRecord(f"last_grade must be one of {', '.join(GRADES)} or null, got {echo(values['last_grade'])}")
    if isinstance(values["reviews"], bool) or not isinstance(values["reviews"], int) or values["reviews"] < 0:
        raise InvalidRecord(f"reviews must be a whole number of at least 0, got {echo(values['reviews'])}")
    values["card"] = _card(values["card"])
    return ReviewExport(**values)
