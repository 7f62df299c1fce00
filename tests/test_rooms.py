"""Rooms: codes and tokens, seats, dealing, reveals, settlement, the per-seat view, concurrency, expiry."""

from __future__ import annotations

import copy
import itertools
import json
import random
import threading
from collections.abc import Iterator
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command

from macao import Action, CallMacao, Play, PlayDrawn, State, apply, legal_actions, new_game, observe, placings
from macao.bots import make_bot
from macao.match import MatchScore
from rooms import (
    CODE_BITS,
    NAME_LENGTH,
    InvalidRoomCode,
    MacaoSeatView,
    MacaoSettings,
    NotAllowed,
    NotSeated,
    RoomFull,
    Rooms,
    Settings,
    StaleAction,
    TooManyRoomAttempts,
    UnknownRoom,
    clean_name,
    macao_room,
    parse_room_code,
)
from rooms import table as room_table
from rooms.codes import new_room_code, new_token
from rooms.macao_room import MacaoRoom
from rooms.secret import keyed_int, keyed_shuffle, keyed_text
from solver import Table, score_table, solve
from solver.cards import full_deck
from solver.scoring import Arrangement
from solver.table import HandRecord, split_deck
from store import Store
from store.engine import _config, create_engine


class Clock:
    def __init__(self) -> None:
        self.ms = 1_800_000_000_000

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    yield s
    s.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(store: Store, clock: Clock) -> Rooms:
    return Rooms(store, clock=clock)


def full_room(service: Rooms, people: int = 3, **settings: object) -> tuple[str, list[str]]:
    """A 4-seat room with ``people`` people (host first), started; returns (code, tokens)."""
    code, host = service.create(Settings(**settings), "Host")  # type: ignore[arg-type]
    tokens = [host]
    for n in range(1, people):
        seat, token = service.join(code, f"Guest {n}")
        assert seat == n
        tokens.append(token)
    service.start(code, host)
    return code, tokens


def state(service: Rooms, code: str) -> Any:
    with service.store.read() as connection:
        return service._row(connection, code)[0]


def mau_binh_view(service: Rooms, code: str, token: str) -> tuple[room_table.SeatView, int]:
    """``service.view`` of a Mau Binh room: the seat view, narrowed to a Mau Binh one, and the version."""
    view, version = service.view(code, token)
    assert isinstance(view, room_table.SeatView)
    return view, version


def rows_of(view: room_table.SeatView) -> list[list[str]]:
    return [list(r) for r in view.rows]


# --- codes, tokens, names -----------------------------------------------------------------------


def test_room_codes_are_random_and_carry_at_least_40_bits() -> None:
    assert CODE_BITS >= 40
    codes = {new_room_code() for _ in range(2000)}
    assert len(codes) == 2000
    assert len({new_token() for _ in range(100)}) == 100 and all(len(new_token()) >= 43 for _ in range(10))


@pytest.mark.parametrize("text", ["", "ABC", "ABCDE-FGHJK-1", "ABCDEFGHJU", 12])
def test_a_malformed_room_code_is_refused_with_the_reason(text: object) -> None:
    with pytest.raises(InvalidRoomCode, match="a room code is"):
        parse_room_code(text)  # type: ignore[arg-type]


def test_names_are_plain_text_of_limited_length() -> None:
    assert clean_name("<script>alert(1)</script>") == "<script>alert(1)</script>"[:NAME_LENGTH]
    assert clean_name("  Lan \u200b\x07 ") == "Lan"
    assert clean_name("a" * 200) == "a" * NAME_LENGTH


# --- seats ---------------------------------------------------------------------------------------


def test_the_host_sits_first_guests_take_open_seats_and_a_full_room_says_so(service: Rooms) -> None:
    code, host = service.create(Settings(seats=2), "Lan")
    assert service.lookup(code.lower()).open_seats == 1
    seat, _token = service.join(code, "Minh")
    assert seat == 1
    with pytest.raises(RoomFull, match="every seat"):
        service.join(code, "Third")
    assert service.seat_of(code, host) == 0


def test_only_the_host_chooses_computers_and_starts(service: Rooms) -> None:
    code, host = service.create(Settings(seats=4), "Lan")
    _seat, guest = service.join(code, "Minh")
    with pytest.raises(NotAllowed):
        service.start(code, guest)
    with pytest.raises(NotAllowed):
        service.set_computer(code, guest, 2, "expert")
    service.set_computer(code, host, 2, "expert")
    with pytest.raises(NotAllowed):
        service.set_computer(code, host, 1, "club")  # a person sits there
    service.start(code, host)
    room = state(service, code)
    assert [s.kind for s in room.seats] == ["person", "person", "computer", "computer"]
    assert [s.level for s in room.seats] == [None, None, "expert", "club"]
    with pytest.raises(StaleAction):
        service.start(code, host)


def test_a_forged_token_acts_for_no_seat(service: Rooms) -> None:
    code, _tokens = full_room(service)
    other_code, other = full_room(service)
    for forged in ("", "x" * 43, other[0], new_token()):
        with pytest.raises(NotSeated):
            service.view(code, forged)
        with pytest.raises(NotSeated):
            service.reveal(code, forged, 1, [])
    assert other_code != code


def test_a_wrong_or_expired_code_reads_as_no_room_and_lookups_are_rate_limited(store: Store, clock: Clock) -> None:
    service = Rooms(store, clock=clock, code_failures_per_minute=5)
    code, _host = service.create(Settings())
    clock.ms += service.idle_ms + 1
    with pytest.raises(UnknownRoom, match="expired"):
        service.lookup(code)
    assert service.expire() == 1
    for _ in range(4):
        with pytest.raises((UnknownRoom, InvalidRoomCode)):
            service.lookup(new_room_code())
    with pytest.raises(TooManyRoomAttempts, match="too many wrong room codes"):
        service.lookup(code)


def test_the_room_code_limit_holds_across_processes(tmp_path: Path, clock: Clock) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    first, second = Store(url), Store(url)  # two app processes on one database
    try:
        one, two = (Rooms(s, clock=clock, code_failures_per_minute=4) for s in (first, second))
        code, _host = one.create(Settings())
        for service in (one, two, one, two):
            with pytest.raises(UnknownRoom):
                service.lookup(new_room_code())
        for service in (one, two):
            with pytest.raises(TooManyRoomAttempts, match="try again in 60 s"):
                service.lookup(code)
        clock.ms += 60_001
        assert two.lookup(code).code == code
    finally:
        first.close()
        second.close()


# --- dealing, the view, settlement ---------------------------------------------------------------


def test_hands_are_dealt_from_the_rooms_secret(service: Rooms) -> None:
    code, tokens = full_room(service)
    room = state(service, code)
    expected = split_deck(keyed_shuffle(room.secret, "mau-binh deck 1", full_deck()), 4)
    assert room.deal is not None
    assert room.deal.hands == [" ".join(map(str, h)) for h in expected]
    view, _version = mau_binh_view(service, code, tokens[1])
    assert sorted(view.cards) == sorted(map(str, expected[1]))


def test_a_computer_seat_is_told_who_else_sits_in_the_room(service: Rooms) -> None:
    code, host = service.create(Settings(seats=3), "Lan")
    service.set_computer(code, host, 1, "expert")
    service.start(code, host)  # seat 2 was open: a Club stands in
    room = state(service, code)
    assert room.deal is not None
    table = Table("vietnamese", 3, lineup=("person", "club"))
    seed = keyed_int(room.secret, "mau-binh player 1 1")
    expert = solve(room.deal.hands[1], mode="deep", seed=seed, table=table).best
    assert room.deal.sets[1] == str(expert)


def hand_in_play(view: room_table.SeatView) -> dict[str, Any]:
    """The view without ``previous``: the hand settled before, whose cards were all revealed
    (a fresh shuffle deals the same 52 cards again, so its card codes are every seat's too)."""
    data = asdict(view)
    data.pop("previous")
    return data


def assert_previous_is_the_last_settled(view: room_table.SeatView, room: room_table.Room) -> None:
    """``previous`` is exactly the last settled record, and only while the next hand is arranged."""
    if room.phase == "arranging" and room.records:
        assert view.previous is not None and view.previous == HandRecord.from_dict(room.records[-1])
        assert view.previous.number == view.number - 1
    else:
        assert view.previous is None


def test_a_seat_view_holds_no_other_seat_cards_until_the_hand_is_settled(service: Rooms) -> None:
    code, tokens = full_room(service)
    room = state(service, code)
    assert room.deal is not None
    hands = [set(h.split()) for h in room.deal.hands]
    for number in (1, 2):
        for step in range(3):  # before any reveal, after one, after two (of three people)
            for seat, token in enumerate(tokens):
                view, _version = mau_binh_view(service, code, token)
                assert_previous_is_the_last_settled(view, room)
                text = json.dumps(hand_in_play(view))
                words = set(text.replace('"', " ").replace(",", " ").replace("|", " ").split())
                assert hands[seat] <= words
                for other, cards in enumerate(hands):
                    if other != seat:
                        assert not cards & words, (number, step, seat, other)
            view, _version = mau_binh_view(service, code, tokens[step])
            service.reveal(code, tokens[step], number, rows_of(view))
        view, _version = mau_binh_view(service, code, tokens[0])
        assert view.phase == "settled" and view.last is not None
        service.next_hand(code, tokens[1], number)
        room = state(service, code)
        assert room.deal is not None
        hands = [set(h.split()) for h in room.deal.hands]


def test_a_seat_that_polls_only_after_the_next_deal_still_sees_the_last_settlement(service: Rooms) -> None:
    """Someone deals hand 2 the moment hand 1 settles: a seat whose page had not polled in
    between still gets hand 1's reveal and settlement (score_table's) with hand 2's cards."""
    code, tokens = full_room(service, people=3, preset="vietnamese")
    for token in tokens:
        view, _version = mau_binh_view(service, code, token)
        service.reveal(code, token, 1, rows_of(view))
    settled = mau_binh_view(service, code, tokens[0])[0].last
    assert settled is not None and settled.number == 1
    service.next_hand(code, tokens[0], 1)  # seat 2 never polled while hand 1 was the latest
    view, _version = mau_binh_view(service, code, tokens[2])
    assert view.phase == "arranging" and view.number == 2 and view.last is None
    previous = view.previous
    assert previous is not None and previous == settled
    expected = score_table([Arrangement.parse(s) for s in previous.sets], "vietnamese")
    assert list(previous.totals) == list(expected.totals) and sum(previous.totals) == 0
    assert list(view.balances) == list(previous.totals)  # the running balances after hand 1
    room = state(service, code)
    assert room.deal is not None and sorted(view.cards) == sorted(room.deal.hands[2].split())
    for token in tokens:  # hand 2 settled: its own record, no previous
        view, _version = mau_binh_view(service, code, token)
        service.reveal(code, token, 2, rows_of(view))
    view, _version = mau_binh_view(service, code, tokens[2])
    assert view.previous is None and view.last is not None and view.last.number == 2


def test_the_settlement_is_score_table_of_every_seat_set_and_balances_run(service: Rooms) -> None:
    code, tokens = full_room(service, people=3, preset="vietnamese")
    totals = [0, 0, 0, 0]
    for number in (1, 2, 3):
        for token in tokens:
            view, _version = mau_binh_view(service, code, token)
            rows = rows_of(view)
            rows[1], rows[2] = rows[2], rows[1]  # a different set from the dealt layout
            service.reveal(code, token, number, rows)
        view, _version = mau_binh_view(service, code, tokens[2])
        record = view.last
        assert record is not None and record.number == number
        expected = score_table([Arrangement.parse(s) for s in record.sets], "vietnamese")
        assert list(record.totals) == list(expected.totals) and sum(record.totals) == 0
        totals = [a + b for a, b in zip(totals, record.totals)]
        assert list(view.balances) == totals
        assert record.seats[:3] == ("Host", "Guest 1", "Guest 2")
        if number < 3:
            service.next_hand(code, tokens[0], number)
    assert json.loads(service.history(code, tokens[1]))["hands"][2]["number"] == 3
    assert service.history(code, tokens[1], "csv").count("\n") == 1 + 3 * 4


def test_a_replayed_or_late_action_is_refused(service: Rooms) -> None:
    code, tokens = full_room(service, people=2)
    view, _version = mau_binh_view(service, code, tokens[0])
    service.reveal(code, tokens[0], 1, rows_of(view))
    with pytest.raises(StaleAction, match="revealed hand 1 already"):
        service.reveal(code, tokens[0], 1, rows_of(view))
    other, _ = mau_binh_view(service, code, tokens[1])
    service.reveal(code, tokens[1], 1, rows_of(other))
    with pytest.raises(StaleAction):
        service.reveal(code, tokens[1], 1, rows_of(other))
    service.next_hand(code, tokens[1], 1)
    with pytest.raises(StaleAction):
        service.next_hand(code, tokens[0], 1)
    assert state(service, code).number() == 2


def test_a_set_must_hold_the_seat_own_cards(service: Rooms) -> None:
    code, tokens = full_room(service, people=2)
    room = state(service, code)
    assert room.deal is not None
    theirs = room.deal.hands[1].split()
    with pytest.raises(NotAllowed, match="exactly the 13 cards"):
        service.reveal(code, tokens[0], 1, [theirs[:3], theirs[3:8], theirs[8:]])
    with pytest.raises(NotAllowed):
        service.save_draft(code, tokens[0], 1, [theirs[:3], theirs[3:8], theirs[8:]])


def test_the_timer_plays_the_rows_as_they_stand_and_a_reload_finds_the_draft(service: Rooms, clock: Clock) -> None:
    code, tokens = full_room(service, people=2, timer=60)
    view, _version = mau_binh_view(service, code, tokens[1])
    rows = rows_of(view)
    moved = [rows[0] + [rows[1][0]], rows[1][1:], rows[2]]  # caught mid-move: 4, 4, 5
    service.save_draft(code, tokens[1], 1, moved)
    again, _version = mau_binh_view(service, code, tokens[1])
    assert rows_of(again) == moved
    host_view, _version = mau_binh_view(service, code, tokens[0])
    service.reveal(code, tokens[0], 1, rows_of(host_view))
    assert service.view(code, tokens[0])[0].phase == "arranging"
    clock.ms += 59_000
    service.tick(code)
    assert service.view(code, tokens[0])[0].phase == "arranging"
    clock.ms += 1_000
    service.tick(code)
    record = mau_binh_view(service, code, tokens[0])[0].last
    assert record is not None
    flat = [c for row in moved for c in row]
    assert record.sets[1] == str(Arrangement(flat[:3], flat[3:8], flat[8:]))
    assert record.extra["timed_out"] == [1] and record.extra["recut"] == [1]


def test_a_person_who_leaves_is_played_by_a_computer_until_they_come_back(service: Rooms) -> None:
    code, tokens = full_room(service, people=3)
    service.leave(code, tokens[2])
    for token in tokens[:2]:
        view, _version = mau_binh_view(service, code, token)
        assert [s.status for s in view.seats][2] == "away"
        service.reveal(code, token, 1, rows_of(view))
    record = mau_binh_view(service, code, tokens[0])[0].last
    assert record is not None and record.extra["stand_in"] == [2]
    service.come_back(code, tokens[2])
    service.next_hand(code, tokens[2], 1)
    view, _version = mau_binh_view(service, code, tokens[0])
    assert [s.status for s in view.seats] == ["arranging", "arranging", "arranging", "computer"]


def test_two_processes_on_one_database_never_double_apply(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    first, second = Store(url), Store(url)
    try:
        a, b = Rooms(first), Rooms(second)
        code, tokens = full_room(a, people=4)
        views = [b.view(code, t)[0] for t in tokens]
        errors: list[Exception] = []

        def play(service: Rooms, token: str, view: room_table.SeatView) -> None:
            try:
                service.reveal(code, token, 1, rows_of(view))
            except Exception as exc:  # collected, asserted below
                errors.append(exc)

        threads = [
            threading.Thread(target=play, args=(a if i % 2 else b, t, v)) for i, (t, v) in enumerate(zip(tokens, views))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        room = state(a, code)
        assert room.phase == "settled" and len(room.records) == 1
        # both processes try to deal hand 2: one does, the other is told it is done
        outcomes: list[str] = []

        def deal(service: Rooms, token: str) -> None:
            try:
                service.next_hand(code, token, 1)
                outcomes.append("dealt")
            except StaleAction:
                outcomes.append("stale")

        threads = [threading.Thread(target=deal, args=(s, t)) for s, t in ((a, tokens[0]), (b, tokens[1]))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcomes) == ["dealt", "stale"]
        assert state(b, code).number() == 2
    finally:
        first.close()
        second.close()


# --- Macao rooms -----------------------------------------------------------------------------------


def macao_room_of(service: Rooms, **settings: object) -> tuple[str, list[str]]:
    """A 3-seat Macao room: two people and a computer player, started."""
    code, host = service.create(MacaoSettings(seats=3, **settings), "Host")  # type: ignore[arg-type]
    _seat, guest = service.join(code, "Guest")
    service.start(code, host)
    return code, [host, guest]


def test_a_macao_room_of_two_people_and_a_computer_plays_to_its_end(service: Rooms, clock: Clock) -> None:
    code, tokens = macao_room_of(service, options={"start_cards": 5})
    room = state(service, code)
    assert isinstance(room, MacaoRoom) and [s.kind for s in room.seats] == ["person", "person", "computer"]
    for _turn in range(3000):
        views = [service.view(code, t)[0] for t in tokens]
        assert all(isinstance(v, MacaoSeatView) for v in views)
        if views[0].phase == "over":
            break
        if state(service, code).call_window_ms is not None:  # the computer waits for a Macao! call
            assert not any(v.legal for v in views)  # type: ignore[union-attr]
            clock.ms = state(service, code).call_window_ms
            service.tick(code)
            continue
        mover = [v for v in views if v.legal]  # type: ignore[union-attr]
        assert len(mover) == 1, "exactly one person can move: the computer moved on its own"
        view = mover[0]
        assert isinstance(view, MacaoSeatView) and view.observation is not None
        other = tokens[1 - view.seat]
        with pytest.raises(NotAllowed, match="not this seat's turn"):
            service.play(code, other, view.number, 0)
        service.play(code, tokens[view.seat], view.number, 0)
        with pytest.raises(StaleAction):
            service.play(code, tokens[view.seat], view.number, 0)
    final = service.view(code, tokens[0])[0]
    assert isinstance(final, MacaoSeatView) and final.phase == "over"
    assert sorted(final.placings) == [1, 2, 3]
    history = json.loads(service.history(code, tokens[1]))
    room = state(service, code)
    assert history["game"] == "macao" and history["rounds"] == 1
    assert history["played"] == [
        {"round": 1, "log": [str(e) for e in macao_room.round_state(room).log], "placings": list(final.placings)}
    ]
    assert history["standings"]["winner"] == final.placings.index(1)


def test_a_macao_rounds_history_is_each_moment_of_it_replayed(service: Rooms) -> None:
    code, tokens = macao_room_of(service)
    view = service.view(code, tokens[0])[0]
    assert isinstance(view, MacaoSeatView)
    service.play(code, tokens[view.observation.current], view.number, 0)  # type: ignore[union-attr]
    room = state(service, code)
    assert isinstance(room, MacaoRoom) and len(room.moves) >= 1
    moments = macao_room.round_history(room)
    assert len(moments) == len(room.moves) + 1 and moments[-1] == macao_room.round_state(room)
    expected = new_game(room.settings.rules(), keyed_text(room.secret, "macao round 1"))  # without the cache
    for k, moment in enumerate(moments):
        assert moment == expected and moment.moves == k
        if k < len(room.moves):
            expected = apply(expected, legal_actions(expected)[room.moves[k]])


def test_a_macao_seat_sees_its_own_hand_and_only_the_sizes_of_the_others(service: Rooms) -> None:
    code, tokens = macao_room_of(service)
    room = state(service, code)
    assert isinstance(room, MacaoRoom)
    full = macao_room.round_state(room)
    for seat, token in enumerate(tokens):
        view = service.view(code, token)[0]
        assert isinstance(view, MacaoSeatView) and view.observation is not None
        assert list(view.observation.hand) == list(full.hands[seat])
        assert list(view.observation.hand_sizes) == [len(h) for h in full.hands]


def test_a_macao_turn_timer_plays_a_draw_for_the_person(service: Rooms, clock: Clock) -> None:
    code, tokens = macao_room_of(service, turn_timer=30)
    before = service.view(code, tokens[0])[0]
    assert isinstance(before, MacaoSeatView) and before.deadline_ms is not None
    mover = next(i for i, t in enumerate(tokens) if service.view(code, t)[0].legal)  # type: ignore[union-attr]
    moves = state(service, code).number()
    clock.ms = before.deadline_ms + 1
    service.tick(code)
    room = state(service, code)
    assert isinstance(room, MacaoRoom) and room.number() > moves
    prior = macao_room.round_state(replace(room, moves=room.moves[:moves]))
    after = macao_room.round_state(replace(room, moves=room.moves[: moves + 1]))
    new = after.log[len(prior.log) :]
    assert any(e.seat == mover and e.kind in ("draw", "keep", "penalty", "pass", "wait") for e in new), new


# --- Macao! calls and matches ---------------------------------------------------------------------


@pytest.fixture
def secrets_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rooms get the secrets 1, 2, 3, ... (as 64 hex digits): a test meets the same tables every run."""
    counter = iter(range(1, 10**6))
    monkeypatch.setattr("rooms.service.new_secret", lambda: f"{next(counter):064x}")


def people_room(
    service: Rooms, seats: int, computers: dict[int, str], **settings: object
) -> tuple[str, dict[int, str]]:
    """A started Macao room without a turn timer: a person in every seat but ``computers``
    (seat: level); returns the code and each person's token by seat."""
    code, host = service.create(MacaoSettings(seats=seats, turn_timer=None, **settings), "Host")  # type: ignore[arg-type]
    tokens = {0: host}
    for seat, level in computers.items():
        service.set_computer(code, host, seat, level)
    for _seat in range(seats - 1 - len(computers)):
        taken, token = service.join(code, "Guest")
        tokens[taken] = token
    service.start(code, host)
    return code, tokens


def one_card_play(view: MacaoSeatView) -> tuple[int, int] | None:
    """The indices of a play that leaves one card, without and with Macao!, if the seat has one."""
    for i, action in enumerate(view.legal):
        if isinstance(action, (Play, PlayDrawn)) and action.declare:
            return view.legal.index(replace(action, declare=False)), i
    return None


def macao_views(service: Rooms, code: str, tokens: dict[int, str]) -> dict[int, MacaoSeatView]:
    views = {seat: service.view(code, token)[0] for seat, token in tokens.items()}
    assert all(isinstance(v, MacaoSeatView) for v in views.values())
    return views  # type: ignore[return-value]


def to_one_card(service: Rooms, code: str, tokens: dict[int, str], declare: bool = True) -> MacaoSeatView | None:
    """The people play their first legal move (saying Macao! when it is a choice, unless
    ``declare`` is False) until one of them may play down to one card: that seat's view
    (None when the round ended first)."""
    for _move in range(500):
        movers = [v for v in macao_views(service, code, tokens).values() if v.legal]
        if not movers:
            return None
        view = movers[0]
        choice = one_card_play(view)
        if choice is not None and declare:
            return view
        service.play(code, tokens[view.seat], view.number, 0 if choice is None else choice[1])
    return None


def find_one_card(service: Rooms, seats: int, computers: dict[int, str]) -> tuple[str, dict[int, str], MacaoSeatView]:
    for _room in range(30):
        code, tokens = people_room(service, seats, computers)
        view = to_one_card(service, code, tokens)
        if view is not None:
            return code, tokens, view
    raise AssertionError("no room came to a play that leaves one card")


def events_since(before: State, after: State) -> list[Any]:
    return list(after.log[len(before.log) :])


@pytest.mark.usefixtures("secrets_in_order")
def test_a_person_who_forgets_macao_is_caught_and_draws_the_penalty(service: Rooms) -> None:
    """§2.8: a play that leaves one card without Macao! exposes the seat; another seat's call
    makes it draw ``macao_penalty`` (5) cards, the turn staying where it was."""
    code, tokens, view = find_one_card(service, 2, {})
    me, other = view.seat, 1 - view.seat
    forget, _say = one_card_play(view)  # type: ignore[misc]
    service.play(code, tokens[me], view.number, forget)
    views = macao_views(service, code, tokens)
    assert views[me].observation.hand_sizes[me] == 1 and views[me].observation.exposed == me  # type: ignore[union-attr]
    assert views[other].can_call and not views[me].can_call  # nobody catches themselves
    with pytest.raises(NotAllowed, match="nobody can be caught"):
        service.call_macao(code, tokens[me], views[me].number)
    before = macao_room.round_state(state(service, code))
    service.call_macao(code, tokens[other], views[other].number)
    room = state(service, code)
    after = macao_room.round_state(room)
    assert after == apply(before, CallMacao(other, me)) and room.moves[-1] == -1 - other
    assert [(e.kind, e.seat, e.target, e.amount) for e in events_since(before, after)] == [("call", other, me, 5)]
    assert len(after.hands[me]) == 6 and after.current == before.current and after.exposed is None
    with pytest.raises(StaleAction):  # a second press of Macao! on the same table
        service.call_macao(code, tokens[other], views[other].number)
    with pytest.raises(NotAllowed):
        service.call_macao(code, tokens[other], room.number())


@pytest.mark.usefixtures("secrets_in_order")
def test_a_person_who_says_macao_is_not_caught(service: Rooms) -> None:
    code, tokens, view = find_one_card(service, 2, {})
    me, other = view.seat, 1 - view.seat
    _forget, say = one_card_play(view)  # type: ignore[misc]
    service.play(code, tokens[me], view.number, say)
    views = macao_views(service, code, tokens)
    assert views[me].observation.exposed is None and not views[other].can_call  # type: ignore[union-attr]
    with pytest.raises(NotAllowed):
        service.call_macao(code, tokens[other], views[other].number)
    assert macao_room.round_state(state(service, code)).log[-1].declare  # the play was said with Macao!
    assert len(macao_room.round_state(state(service, code)).hands[me]) == 1


@pytest.mark.usefixtures("secrets_in_order")
def test_the_chance_to_catch_ends_with_the_next_move(service: Rooms) -> None:
    """§2.8 item 4: the window closes when the next player moves (plays, draws, accepts or passes)."""
    code, tokens, view = find_one_card(service, 2, {})
    me, other = view.seat, 1 - view.seat
    service.play(code, tokens[me], view.number, one_card_play(view)[0])  # type: ignore[index]
    mover = next(v for v in macao_views(service, code, tokens).values() if v.legal)
    assert mover.seat == other and mover.can_call
    service.play(code, tokens[other], mover.number, 0)  # a move instead of the call
    views = macao_views(service, code, tokens)
    assert not views[other].can_call and views[other].observation.exposed is None  # type: ignore[union-attr]
    with pytest.raises(NotAllowed):
        service.call_macao(code, tokens[other], views[other].number)


@pytest.mark.usefixtures("secrets_in_order")
@pytest.mark.parametrize("level", ["random", "normal"])
def test_a_computer_calls_macao_as_on_the_macao_page(service: Rooms, level: str) -> None:
    """A computer player is offered the call the moment a person forgets, and decides as the
    bots do on the Macao page (Random always calls, Normal with p = 0.9), drawing from the
    secret under "macao bot <round> <move>"."""
    calls = 0
    for _room in range(12):
        code, tokens = people_room(service, 2, {1: level})
        view = to_one_card(service, code, tokens)
        if view is None:
            continue
        service.play(code, tokens[0], view.number, one_card_play(view)[0])  # type: ignore[index]
        room = state(service, code)
        moves, k = room.moves, view.number + 1  # the move after the person's play
        exposed = macao_room.round_state(replace(room, moves=moves[:k]))
        assert exposed.exposed == 0
        rng = random.Random(keyed_text(room.secret, f"macao bot 1 {k}"))
        expected = make_bot(level).interrupt(observe(exposed, 1), rng)
        called = k < len(moves) and moves[k] == -2
        assert called == (expected is not None), (level, k)
        if called:
            after = macao_room.round_state(replace(room, moves=moves[: k + 1]))
            assert len(after.hands[0]) == 6 and after.log[-1].kind == "call" and after.log[-1].seat == 1
        calls += called
    assert calls >= 3 if level == "random" else calls >= 1


def window_room(service: Rooms) -> tuple[str, dict[int, str]]:
    """A room of one person and two Easy computers (which forget Macao! with p = 0.3) at the
    moment the computers wait for the person to catch one of them."""
    for _room in range(40):
        code, tokens = people_room(service, 3, {1: "easy", 2: "easy"})
        for _move in range(400):
            room = state(service, code)
            if room.call_window_ms is not None:
                return code, tokens
            view = service.view(code, tokens[0])[0]
            if not view.legal:  # type: ignore[union-attr]
                break
            choice = one_card_play(view)  # type: ignore[arg-type]
            service.play(code, tokens[0], view.number, 0 if choice is None else choice[1])
    raise AssertionError("no Easy computer forgot Macao! before the next computer's turn")


@pytest.mark.usefixtures("secrets_in_order")
def test_the_computers_wait_for_a_person_to_catch_a_computer(service: Rooms, clock: Clock) -> None:
    code, tokens = window_room(service)
    room = state(service, code)
    table = macao_room.round_state(room)
    assert table.exposed in (1, 2) and table.current in (1, 2)
    view = service.view(code, tokens[0])[0]
    assert isinstance(view, MacaoSeatView) and view.can_call and not view.legal
    assert room.call_window_ms == clock.ms + macao_room.CALL_WINDOW_SECONDS * 1000 == view.deadline_ms
    service.tick(code)  # not yet
    assert state(service, code).moves == room.moves

    late = copy.deepcopy(room)  # the same table, had the person let the window pass
    assert macao_room.time_out(late, room.call_window_ms) and late.call_window_ms is None
    assert late.number() > room.number() and not macao_room.seat_view(late, 0).can_call
    assert len(macao_room.round_state(late).hands[table.exposed]) <= 1  # not caught: the card was kept (or played)

    service.call_macao(code, tokens[0], view.number)
    after = state(service, code)
    caught = macao_room.round_state(replace(after, moves=after.moves[: len(room.moves) + 1]))
    assert after.moves[len(room.moves)] == -1 and len(caught.hands[table.exposed]) == 6
    assert after.call_window_ms is None and after.number() > room.number() + 1  # the computers went on at once


@pytest.mark.usefixtures("secrets_in_order")
def test_a_stand_in_says_macao_for_a_person_away(service: Rooms) -> None:
    """A person away is played by a Normal player, which says Macao! with every play that leaves one card."""
    said = 0
    for _room in range(6):
        code, tokens = people_room(service, 2, {})
        service.leave(code, tokens[1])
        to_one_card(service, code, {0: tokens[0]}, declare=False)
        for event in macao_room.round_state(state(service, code)).log:
            assert not (event.kind == "exposed" and event.seat == 1)
        history = macao_room.round_history(state(service, code))
        for before, after in itertools.pairwise(history):
            if before.current == 1 and len(after.hands[1]) == 1 and after.log[-1].kind == "play":
                assert after.log[-1].declare
                said += 1
    assert said >= 2


def play_out(service: Rooms, code: str, tokens: dict[int, str], clock: Clock, rng: random.Random) -> None:
    """The people play random legal moves (Macao! or not) and sometimes call, until the round is over."""
    for _move in range(5000):
        views = macao_views(service, code, tokens)
        if all(v.phase == "over" for v in views.values()):
            return
        callers = [v for v in views.values() if v.can_call]
        if callers and rng.random() < 0.5:
            service.call_macao(code, tokens[callers[0].seat], callers[0].number)
            continue
        movers = [v for v in views.values() if v.legal]
        if not movers:
            clock.ms = max(clock.ms, state(service, code).call_window_ms or clock.ms)
            service.tick(code)
            continue
        view = movers[0]
        service.play(code, tokens[view.seat], view.number, rng.randrange(len(view.legal)))
    raise AssertionError("the round did not end")


@pytest.mark.usefixtures("secrets_in_order")
def test_a_three_round_match_plays_to_its_end_scored_as_the_macao_page(service: Rooms, clock: Clock) -> None:
    """A match of 3: every round dealt from the secret under "macao round <r>", the deal passing
    clockwise (§2.1 step 3), anyone seated deals the next round, and the standings are
    :class:`macao.match.MatchScore` of the rounds' placings."""
    code, tokens = people_room(service, 3, {2: "normal"}, rounds=3)
    rng = random.Random(41)
    places: list[tuple[int, ...]] = []
    for number in (1, 2, 3):
        play_out(service, code, tokens, clock, rng)
        room = state(service, code)
        assert room.phase == "over" and room.round == number
        places.append(tuple(placings(macao_room.round_state(room))))
        view = macao_views(service, code, tokens)[1]
        assert view.match == MatchScore(3, 3, tuple(places)) and view.match_over == (number == 3)
        if number < 3:
            service.next_round(code, tokens[1], number)  # a guest deals it
            with pytest.raises(StaleAction):
                service.next_round(code, tokens[0], number)  # the host's press came second
    room = state(service, code)
    with pytest.raises(StaleAction, match="match of 3 rounds is over"):
        service.next_round(code, tokens[0], 3)
    score = MatchScore(3, 3, tuple(places))
    view = macao_views(service, code, tokens)[0]
    assert view.match is not None and view.match.totals == score.totals and view.match.winner == score.winner
    assert sum(score.totals) == 3 * (0 + 1 + 2)
    history = json.loads(service.history(code, tokens[1]))
    assert [r["placings"] for r in history["played"]] == [list(p) for p in places]
    assert history["standings"] == {"points": list(score.totals), "wins": list(score.wins),
                                    "order": score.standings(), "winner": score.winner}  # fmt: skip
    assert [r["log"] for r in history["played"]] == [[str(e) for e in s.log] for s in macao_room.rounds_played(room)]
    # every round's deal follows from the secret alone, and no two are alike
    rules = room.settings.rules()
    first_dealer = new_game(rules, keyed_text(room.secret, "macao round 1")).dealer
    deals = [macao_room.deal(room, r) for r in (1, 2, 3)]
    for r, dealt in enumerate(deals, start=1):
        dealer = (first_dealer + r - 1) % 3
        drawn = None if r == 1 else dealer  # round 1's dealer is drawn from its own seed
        assert dealt == new_game(rules, keyed_text(room.secret, f"macao round {r}"), dealer=drawn)
        assert dealt.dealer == dealer and dealt.current == (dealer + 1) % 3
    assert len({(d.hands, d.stock) for d in deals}) == 3
    # round 2's computer moves are drawn under "macao bot 2 <move>"
    moves = room.earlier[1]["moves"]
    states = [macao_room.deal(room, 2)]
    for move in moves:
        before = states[-1]
        if before.current == 2 and before.exposed is None and move >= 0:
            rng2 = random.Random(keyed_text(room.secret, f"macao bot 2 {len(states) - 1}"))
            chosen = make_bot("normal").choose(observe(before, 2), legal_actions(before), rng2)
            assert legal_actions(before).index(chosen) == move
        action: Action
        if move < 0:
            assert before.exposed is not None  # a call names the exposed seat
            action = CallMacao(-1 - move, before.exposed)
        else:
            action = legal_actions(before)[move]
        states.append(apply(before, action))
    assert states[-1] == macao_room.rounds_played(room)[1]


@pytest.mark.usefixtures("secrets_in_order")
def test_a_stale_or_early_next_round_is_refused(service: Rooms) -> None:
    code, tokens = people_room(service, 2, {1: "normal"}, rounds=3)
    view = service.view(code, tokens[0])[0]
    with pytest.raises(StaleAction):  # the round is still on
        service.next_round(code, tokens[0], 1)
    while state(service, code).phase != "over":
        view = service.view(code, tokens[0])[0]
        service.play(code, tokens[0], view.number, 0)
    number = state(service, code).number()
    with pytest.raises(StaleAction):  # not the round that is over
        service.next_round(code, tokens[0], 2)
    service.next_round(code, tokens[0], 1)
    with pytest.raises(StaleAction):
        service.next_round(code, tokens[0], 1)
    room = state(service, code)
    assert room.round == 2 and room.phase == "playing" and room.number() >= number
    with pytest.raises(StaleAction):  # a move for round 1's last table
        service.play(code, tokens[0], number - 1, 0)


def play_declaring(service: Rooms, code: str, token: str, moves: int | None = None) -> None:
    """The person plays their first legal move, with Macao! when it is a choice (so no call
    is ever made), ``moves`` times or until the round is over."""
    made = 0
    while state(service, code).phase == "playing" and (moves is None or made < moves):
        view = service.view(code, token)[0]
        assert isinstance(view, MacaoSeatView) and view.legal
        choice = one_card_play(view)
        service.play(code, token, view.number, 0 if choice is None else choice[1])
        made += 1


ROOMS_TABLE = sa.table("rooms", *(sa.column(c) for c in ("code", "game", "version", "created_ms", "updated_ms")),
                       sa.column("state", sa.JSON))  # fmt: skip


def migrate_to(connection: sa.Connection, revision: str, down: bool = False) -> None:
    config = _config()
    config.attributes["connection"] = connection
    (command.downgrade if down else command.upgrade)(config, revision)


@pytest.mark.usefixtures("secrets_in_order")
def test_an_old_macao_room_becomes_a_match_of_one_round_and_plays_on(tmp_path: Path) -> None:
    """Migration 0006: a Macao room of the single-round shape (no ``rounds``, ``round``,
    ``earlier``, ``call_window_ms``) becomes round 1 of a match of 1, its moves replaying the
    same table; downgrading keeps one round and sends a round holding a call to the lobby."""
    new = Store(f"sqlite:///{tmp_path / 'new.sqlite3'}")  # plays the rooms, then they are written as 0005 kept them
    service = Rooms(new)
    playing, playing_host = service.create(MacaoSettings(seats=2, turn_timer=None), "Host")
    service.start(playing, playing_host)
    play_declaring(service, playing, playing_host, moves=3)
    over, over_host = service.create(MacaoSettings(seats=2, turn_timer=None), "Host")
    service.start(over, over_host)
    play_declaring(service, over, over_host)
    mau_binh, mau_binh_host = service.create(Settings(seats=2), "Host")
    service.start(mau_binh, mau_binh_host)
    before = {code: macao_room.round_state(state(service, code)) for code in (playing, over)}
    with new.read() as connection:
        rows = [dict(row._mapping) for row in connection.execute(sa.select(ROOMS_TABLE))]
    new.close()
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as connection:
        migrate_to(connection, "0005")
        for row in rows:
            old = dict(row["state"])
            if old["game"] == "macao":
                assert all(m >= 0 for m in old["moves"])
                for key in ("round", "earlier", "call_window_ms"):
                    del old[key]
                old["settings"] = {k: v for k, v in old["settings"].items() if k != "rounds"}
            connection.execute(ROOMS_TABLE.insert().values({**row, "state": old}))
    engine.dispose()

    store = Store(url)
    service = Rooms(store)
    with store.read() as connection:
        versions = {row.code: row.version for row in connection.execute(sa.select(ROOMS_TABLE))}
    kept = {row["code"]: row["version"] for row in rows}
    assert versions == {**kept, playing: kept[playing] + 1, over: kept[over] + 1}  # a new version: pages redraw
    for code in (playing, over):
        room = state(service, code)
        assert isinstance(room, MacaoRoom) and room.settings.rounds == 1 and room.round == 1 and not room.earlier
        assert macao_room.round_state(room) == before[code]
    finished = service.view(over, over_host)[0]
    assert isinstance(finished, MacaoSeatView) and finished.phase == "over" and finished.match_over
    assert finished.match is not None and finished.match.results == (tuple(placings(before[over])),)
    play_declaring(service, playing, playing_host, moves=2)  # the round plays on
    assert state(service, playing).number() >= 5

    # back to 0005: a room in round 2 shows round 1 as it ended; a round with a call goes to the lobby
    match, match_host = service.create(MacaoSettings(seats=2, turn_timer=None, rounds=3), "Host")
    service.start(match, match_host)
    play_declaring(service, match, match_host)
    service.next_round(match, match_host, 1)
    round_one = state(service, match).earlier[0]["moves"]
    called = None
    for _room in range(12):
        code, tokens = people_room(service, 2, {1: "random"})  # Random always calls
        view = to_one_card(service, code, tokens)
        if view is not None:
            service.play(code, tokens[0], view.number, one_card_play(view)[0])  # type: ignore[index]
            called = code
            break
    assert called is not None and -2 in state(service, called).moves
    store.close()
    engine = create_engine(url)
    with engine.begin() as connection:
        migrate_to(connection, "0005", down=True)
        states = {row.code: row.state for row in connection.execute(sa.select(ROOMS_TABLE))}
    engine.dispose()
    for code in (playing, over, match, called):
        assert not {"round", "earlier", "call_window_ms"} & set(states[code])
        assert "rounds" not in states[code]["settings"]
    assert states[match]["phase"] == "over" and states[match]["moves"] == round_one
    assert states[called]["phase"] == "lobby" and states[called]["moves"] == []
    assert states[playing]["phase"] == "playing" and states[mau_binh] == state_of_rows(rows, mau_binh)


def state_of_rows(rows: list[dict[str, Any]], code: str) -> dict[str, Any]:
    return next(dict(row["state"]) for row in rows if row["code"] == code)


def test_no_sequence_of_actions_lets_a_seat_view_show_another_seat_cards(service: Rooms, clock: Clock) -> None:
    """Random play (drafts, reveals, leaving and coming back, timers running out, next hands):
    after every step, every seat's view of a hand being arranged holds its own 13 cards and
    none of anyone else's."""
    rng = random.Random(2026)
    settled = timed_out = stand_in = 0
    for game in range(12):
        people = rng.randint(2, 4)
        code, tokens = full_room(service, people=people, seats=4, timer=rng.choice([None, 60]))
        for _step in range(40):
            room = state(service, code)
            if room.phase == "arranging":
                hands = [set(h.split()) for h in room.deal.hands]
                for seat, token in enumerate(tokens):
                    view, _version = mau_binh_view(service, code, token)
                    assert_previous_is_the_last_settled(view, room)
                    words = set(json.dumps(hand_in_play(view)).replace('"', " ").replace("|", " ").split())
                    assert hands[seat] <= words, (game, seat)
                    assert not words & set().union(*(h for s, h in enumerate(hands) if s != seat)), (game, seat)
            seat = rng.randrange(people)
            token = tokens[seat]
            move = rng.choice(["draft", "reveal", "reveal", "leave", "back", "time", "next"])
            view, _version = mau_binh_view(service, code, token)
            try:
                if move == "draft" and view.rows:
                    rows = [list(r) for r in view.rows]
                    flat = [c for r in rows for c in r]
                    rng.shuffle(flat)
                    cut = rng.choice([(3, 8), (4, 8), (3, 9)])
                    service.save_draft(
                        code, token, view.number, [flat[: cut[0]], flat[cut[0] : cut[1]], flat[cut[1] :]]
                    )
                elif move == "reveal" and view.rows:
                    service.reveal(code, token, view.number, [list(r) for r in view.rows])
                elif move == "leave":
                    service.leave(code, token)
                elif move == "back":
                    service.come_back(code, token)
                elif move == "time":
                    clock.ms += 61_000
                    service.tick(code)
                elif move == "next":
                    service.next_hand(code, token, view.number)
            except (StaleAction, NotAllowed):
                pass
            room = state(service, code)
            for record in room.records:
                assert sum(record["totals"]) == 0
                sets = [Arrangement.parse(s) for s in record["sets"]]
                assert list(record["totals"]) == list(score_table(sets, "vietnamese").totals)
        settled += len(room.records)
        timed_out += sum(bool(r["timed_out"]) for r in room.records)
        stand_in += sum(bool(r["stand_in"]) for r in room.records)
    assert settled >= 20 and timed_out and stand_in, (settled, timed_out, stand_in)  # the walk went everywhere


def test_a_person_whose_page_went_quiet_is_played_by_a_computer_until_it_polls_again(
    service: Rooms, clock: Clock
) -> None:
    code, tokens = full_room(service, people=3)
    for token in tokens:
        service.heartbeat(code, token)
    clock.ms += 50_000
    for token in tokens[:2]:
        service.heartbeat(code, token)
    service.tick(code)
    assert [s.status for s in service.view(code, tokens[0])[0].seats][2] == "arranging"  # 50 s: still there
    clock.ms += 11_000  # seat 2 quiet for 61 s
    service.tick(code)
    assert [s.status for s in service.view(code, tokens[0])[0].seats][2] == "away"
    for token in tokens[:2]:
        view, _version = mau_binh_view(service, code, token)
        service.reveal(code, token, 1, rows_of(view))
    record = mau_binh_view(service, code, tokens[0])[0].last
    assert record is not None and record.extra["stand_in"] == [2]
    service.heartbeat(code, tokens[2])
    service.come_back(code, tokens[2])
    service.tick(code)
    assert [s.status for s in service.view(code, tokens[0])[0].seats][2] == "present"
