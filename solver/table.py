"""A table session: seeded deals, the computer seats' sets, settlement and a history.

A session is fixed by a :class:`TableConfig`: the rule preset, a level for each computer
seat (seat 0 is the person playing), the opponent field the Club and Expert seats play
against (:data:`solver.fields.FIELDS`) and a session seed.  Hand ``n`` of the session is
dealt from one 52-card deck shuffled by ``random.Random(seed * 1000 + n - 1)``, the first
13 cards to seat 0, the next 13 to seat 1 and so on.  That is the shuffle of hand ``n``
of the Practice page's drill with the same seed, so seat 0's hand opens there with
``?seed=<seed>&hand=<n>``.

Each hand is settled by :func:`solver.score_table` and nothing else; a
:class:`HandRecord` keeps the deal, every seat's set and the settlement (its line items,
:class:`solver.scoring.PairSettlement`, from :meth:`HandRecord.settlement`), and the history
of a session exports to JSON and CSV.  Nothing here keeps state between calls: a session
is its config plus the list of records the caller holds.

>>> config = TableConfig(seed=7, preset="vietnamese", levels=("club", "beginner"))
>>> hands = config.deal(1)
>>> [len(h) for h in hands]
[13, 13, 13]
>>> record = simulate_hand(config, 1)
>>> record.hands[0] == " ".join(map(str, hands[0]))
True
>>> sum(record.totals)
0
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any

from .cards import Card, InvalidHandError, full_deck
from .context import Table
from .fields import DEFAULT_FIELD
from .players import get_player
from .rules import PRESETS, Rules
from .scoring import Arrangement, PairSettlement, TableResult, as_arrangement, score_table

#: Session seeds are 0 .. MAX_SEED (the 9 digits leave room for the hand number in a deal seed).
MAX_SEED = 999_999_999
#: Deck seeds per session seed: hand ``n`` of the session (or Practice drill) started by
#: seed ``S`` is dealt from ``S * SEED_STRIDE + n - 1`` (:func:`deck_seed`).
SEED_STRIDE = 1000
#: Hands per session (hand numbers are 1 .. MAX_HANDS).
MAX_HANDS = SEED_STRIDE
HISTORY_VERSION = 1


def check_seed(seed: object) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a session seed is a whole number from 0 to {MAX_SEED}, got {seed!r}")
    return seed


def check_number(number: object) -> int:
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= MAX_HANDS:
        raise ValueError(f"a hand number is 1 to {MAX_HANDS}, got {number!r}")
    return number


def deck_seed(seed: int, number: int) -> int:
    """The deck seed of hand ``number`` (1, 2, ...) of the session or Practice drill
    started by ``seed``: the rule alone, unchecked (a drill may run past MAX_HANDS).

    >>> deck_seed(7, 3), seed_and_number(7002)
    (7002, (7, 3))
    """
    return seed * SEED_STRIDE + number - 1


def seed_and_number(deck: int) -> tuple[int, int]:
    """The session seed and hand number a deck seed of :func:`deck_seed` was made of."""
    seed, index = divmod(deck, SEED_STRIDE)
    return seed, index + 1


def deal_seed(seed: int, number: int) -> int:
    """The deck seed of hand ``number`` (1, 2, ...) of the session started by ``seed``."""
    return deck_seed(check_seed(seed), check_number(number))


def split_deck(deck: Sequence[Card], players: int) -> list[list[Card]]:
    """A shuffled deck dealt out: its first 13 cards to seat 0, the next 13 to seat 1 and so
    on, each hand sorted by card code."""
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise ValueError(f"a Mau Binh table seats 2, 3 or 4 players, got {players!r}")
    return [sorted(deck[13 * seat : 13 * seat + 13]) for seat in range(players)]


def deal_hands(deck_seed: int, players: int) -> list[list[Card]]:
    """13 cards per seat (:func:`split_deck`) from one deck shuffled by ``random.Random(deck_seed)``."""
    deck = full_deck()
    random.Random(deck_seed).shuffle(deck)
    return split_deck(deck, players)


@dataclass(frozen=True)
class TableConfig:
    """Rules, computer levels (seats 1, 2, ...), the field they assume and the seed of one session."""

    seed: int
    preset: str = "vietnamese"
    levels: tuple[str, ...] = ("club", "club", "club")
    field: str = DEFAULT_FIELD

    def __post_init__(self) -> None:
        check_seed(self.seed)
        if self.preset not in PRESETS:
            raise ValueError(f"unknown rule preset {self.preset!r}; expected one of {', '.join(PRESETS)}")
        if not isinstance(self.levels, tuple) or not 1 <= len(self.levels) <= 3:
            raise ValueError(f"a table has 1 to 3 computer seats, got levels {self.levels!r}")
        object.__setattr__(self, "levels", tuple(level.lower() if isinstance(level, str) else level
                                                 for level in self.levels))  # fmt: skip
        for level in self.levels:
            get_player(level)
        _ = self.table  # checks the field (and keeps the Table the computer seats play at)

    @property
    def players(self) -> int:
        return 1 + len(self.levels)

    @property
    def rules(self) -> Rules:
        return PRESETS[self.preset]

    @cached_property
    def table(self) -> Table:
        """The solver's table context of this session: its rules, seats and field."""
        return Table(self.rules, self.players, self.field)

    def deal_seed(self, number: int) -> int:
        return deal_seed(self.seed, number)

    def deal(self, number: int) -> list[list[Card]]:
        """Every seat's 13 cards for hand ``number``, seat 0 first."""
        return deal_hands(self.deal_seed(number), self.players)

    def player_seed(self, number: int, seat: int) -> int:
        """Seed handed to seat ``seat``'s player on hand ``number`` (repeatable choices)."""
        return self.deal_seed(number) * 10 + seat

    def seat_table(self, seat: int) -> Table:
        """The table as seat ``seat`` sees it: this session's, with who sits in each other
        seat (the person in seat 0, the computer levels in the others) as its lineup."""
        return self.table.seen_from(("person", *self.levels), seat)

    def computer_sets(self, hands: Sequence[Sequence[Card]], number: int) -> list[Arrangement]:
        """The sets of seats 1, 2, ... for the hands dealt on hand ``number``."""
        return [
            get_player(level).arrange(hands[seat], seed=self.player_seed(number, seat), table=self.seat_table(seat))
            for seat, level in enumerate(self.levels, start=1)
        ]

    def seat_names(self) -> list[str]:
        return ["You", *(f"{get_player(level).name} {seat}" for seat, level in enumerate(self.levels, start=1))]


@dataclass(frozen=True)
class HandRecord:
    """One settled hand: the deal, every seat's set and :func:`score_table`'s settlement."""

    number: int
    #: The deck seed the hand was dealt from; None for a room's hand, dealt from a secret.
    deal_seed: int | None
    preset: str
    seats: tuple[str, ...]
    hands: tuple[str, ...]
    sets: tuple[str, ...]
    pairs: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    fouls: tuple[bool, ...]
    specials: tuple[str | None, ...]
    scooped: tuple[tuple[bool, ...], ...]
    sap_lang: tuple[bool, ...]
    aces: tuple[int, ...]
    replay_of: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def rules(self) -> Rules:
        return PRESETS[self.preset]

    def arrangement(self, seat: int) -> Arrangement:
        return Arrangement.parse(self.sets[seat])

    @cached_property
    def result(self) -> TableResult:
        """:func:`score_table`'s settlement of this hand with its line items (worked out
        again from the sets, once: the record keeps the totals, not the items)."""
        return score_table([self.arrangement(seat) for seat in range(self.players)], self.rules)

    def settlement(self, i: int, j: int) -> PairSettlement:
        """What seats i and j settle between them, item by item (:class:`PairSettlement`)."""
        return self.result.settlement(i, j)

    def row_results(self, i: int, j: int) -> tuple[int, int, int] | None:
        """Per row (front, middle, back): 1 when seat i wins it from seat j, -1 when j does,
        0 for a tie; None when the pair is not compared row by row (a foul or a special,
        or i and j are the same seat)."""
        if i == j:
            return None
        rows = self.settlement(i, j).rows
        if not rows:
            return None
        front, middle, back = (0 if r.winner is None else 1 if r.winner == i else -1 for r in rows)
        return front, middle, back

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("extra")
        data.update(self.extra)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandRecord:
        names = {f for f in cls.__dataclass_fields__ if f != "extra"}
        missing = names - set(data) - {"replay_of", "deal_seed"}
        if missing:
            raise ValueError(f"a hand record needs {', '.join(sorted(missing))}")
        extra = {k: v for k, v in data.items() if k not in names}

        def nested(value: Any) -> tuple[tuple[Any, ...], ...]:
            return tuple(tuple(row) for row in value)

        return cls(
            number=int(data["number"]),
            deal_seed=None if data.get("deal_seed") is None else int(data["deal_seed"]),
            preset=str(data["preset"]),
            seats=tuple(data["seats"]),
            hands=tuple(data["hands"]),
            sets=tuple(data["sets"]),
            pairs=nested(data["pairs"]),
            totals=tuple(data["totals"]),
            fouls=tuple(data["fouls"]),
            specials=tuple(data["specials"]),
            scooped=nested(data["scooped"]),
            sap_lang=tuple(data["sap_lang"]),
            aces=tuple(data["aces"]),
            replay_of=data.get("replay_of"),
            extra=extra,
        )


def _check_set(seat: int, hand: Sequence[Card], arrangement: Arrangement) -> None:
    if sorted(arrangement.cards) != sorted(hand):
        missing = sorted(set(hand) - set(arrangement.cards))
        extra = sorted(set(arrangement.cards) - set(hand))
        raise InvalidHandError(
            f"seat {seat}'s set must use exactly its 13 dealt cards; missing "
            f"{' '.join(map(str, missing)) or 'none'}, not dealt to it {' '.join(map(str, extra)) or 'none'}"
        )


def record_hand(
    preset: str,
    number: int,
    seats: Sequence[str],
    hands: Sequence[Sequence[Card]],
    sets: Sequence[Arrangement | str],
    deal_seed: int | None = None,
    replay_of: int | None = None,
    **extra: Any,
) -> HandRecord:
    """Settle one hand with :func:`score_table` and record it (``extra`` is kept alongside)."""
    check_number(number)
    if len(hands) != len(seats) or len(sets) != len(seats):
        raise ValueError(f"this table has {len(seats)} seats, got {len(hands)} hands and {len(sets)} sets")
    arrangements = [as_arrangement(s) for s in sets]
    for seat, (hand, arrangement) in enumerate(zip(hands, arrangements)):
        _check_set(seat, hand, arrangement)
    result = score_table(arrangements, PRESETS[preset])
    return HandRecord(
        number=number,
        deal_seed=deal_seed,
        preset=preset,
        seats=tuple(seats),
        hands=tuple(" ".join(map(str, sorted(hand))) for hand in hands),
        sets=tuple(str(a) for a in arrangements),
        pairs=tuple(tuple(row) for row in result.pairs),
        totals=tuple(result.totals),
        fouls=tuple(result.fouls),
        specials=tuple(result.specials),
        scooped=tuple(tuple(row) for row in result.scooped),
        sap_lang=tuple(result.sap_lang),
        aces=tuple(result.aces),
        replay_of=replay_of,
        extra=dict(extra),
    )


def settle_hand(
    config: TableConfig,
    number: int,
    hands: Sequence[Sequence[Card]],
    sets: Sequence[Arrangement | str],
    replay_of: int | None = None,
    **extra: Any,
) -> HandRecord:
    """Hand ``number`` of the session ``config`` settled and recorded (:func:`record_hand`)."""
    return record_hand(config.preset, number, config.seat_names(), hands, sets, config.deal_seed(number),
                       replay_of, **extra)  # fmt: skip


def simulate_hand(config: TableConfig, number: int, me: str = "club") -> HandRecord:
    """Hand ``number`` played with seat 0 set by the computer level ``me`` too."""
    hands = config.deal(number)
    mine = get_player(me).arrange(hands[0], seed=config.player_seed(number, 0), table=config.seat_table(0))
    return settle_hand(config, number, hands, [mine, *config.computer_sets(hands, number)])


# --- the session ----------------------------------------------------------------------------


def balances(records: Sequence[HandRecord]) -> list[list[int]]:
    """Each seat's running chi balance after every counted hand (replays are not counted)."""
    out: list[list[int]] = []
    running: list[int] = []
    for record in records:
        if record.replay_of is not None:
            continue
        running = [a + b for a, b in zip(running or [0] * record.players, record.totals)]
        out.append(running)
    return out


def scoops(record: HandRecord, seat: int = 0) -> int:
    """How many opponents ``seat`` scooped (won all three rows from) on this hand."""
    return sum(1 for other, swept in enumerate(record.scooped[seat]) if swept and other != seat
               and not record.fouls[other])  # fmt: skip


def history_json(config: TableConfig, records: Sequence[HandRecord]) -> str:
    """The session as JSON: its config and every hand (deal, sets, settlement)."""
    return json.dumps(
        {"version": HISTORY_VERSION, "config": asdict(config), "hands": [r.to_dict() for r in records]},
        indent=1,
        ensure_ascii=False,
    )


def history_from_json(text: str) -> tuple[TableConfig, list[HandRecord]]:
    """Read back what :func:`history_json` wrote (ValueError with the reason otherwise)."""
    try:
        data = json.loads(text)
        config = data["config"]
        records = [HandRecord.from_dict(hand) for hand in data["hands"]]
        field = config.get("field", DEFAULT_FIELD)  # histories written before the field was kept
        return TableConfig(config["seed"], config["preset"], tuple(config["levels"]), field), records
    except (KeyError, TypeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a table history: {exc}") from None


CSV_COLUMNS = ("hand", "replay_of", "deal_seed", "preset", "seat", "player", "cards", "front", "middle", "back",
               "foul", "special", "aces", "scoops", "sap_lang", "chi")  # fmt: skip


def history_csv(records: Sequence[HandRecord]) -> str:
    """The session as CSV: one line per seat per hand, with that seat's chi for the hand."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in records:
        for seat in range(r.players):
            rows = [" ".join(map(str, row)) for row in r.arrangement(seat).rows]
            writer.writerow([r.number, "" if r.replay_of is None else r.replay_of,
                             "" if r.deal_seed is None else r.deal_seed, r.preset, seat,
                             r.seats[seat], r.hands[seat], *rows, int(r.fouls[seat]), r.specials[seat] or "",
                             r.aces[seat], scoops(r, seat), int(r.sap_lang[seat]), r.totals[seat]])  # fmt: skip
    return buffer.getvalue()


__all__ = [
    "CSV_COLUMNS",
    "MAX_HANDS",
    "MAX_SEED",
    "HandRecord",
    "TableConfig",
    "balances",
    "deal_hands",
    "deal_seed",
    "deck_seed",
    "history_csv",
    "history_from_json",
    "history_json",
    "record_hand",
    "scoops",
    "seed_and_number",
    "settle_hand",
    "simulate_hand",
    "split_deck",
]
