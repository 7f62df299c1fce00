"""Rooms: codes and tokens, seats, dealing, reveals, settlement, the per-seat view, concurrency, expiry."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest

from macao import apply, legal_actions, new_game
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
    view, _version = service.view(code, tokens[1])
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
                view, _version = service.view(code, token)
                assert_previous_is_the_last_settled(view, room)
                text = json.dumps(hand_in_play(view))
                words = set(text.replace('"', " ").replace(",", " ").replace("|", " ").split())
                assert hands[seat] <= words
                for other, cards in enumerate(hands):
                    if other != seat:
                        assert not cards & words, (number, step, seat, other)
            view, _version = service.view(code, tokens[step])
            service.reveal(code, tokens[step], number, rows_of(view))
        view, _version = service.view(code, tokens[0])
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
        view, _version = service.view(code, token)
        service.reveal(code, token, 1, rows_of(view))
    settled = service.view(code, tokens[0])[0].last
    assert settled is not None and settled.number == 1
    service.next_hand(code, tokens[0], 1)  # seat 2 never polled while hand 1 was the latest
    view, _version = service.view(code, tokens[2])
    assert view.phase == "arranging" and view.number == 2 and view.last is None
    previous = view.previous
    assert previous is not None and previous == settled
    expected = score_table([Arrangement.parse(s) for s in previous.sets], "vietnamese")
    assert list(previous.totals) == list(expected.totals) and sum(previous.totals) == 0
    assert list(view.balances) == list(previous.totals)  # the running balances after hand 1
    room = state(service, code)
    assert room.deal is not None and sorted(view.cards) == sorted(room.deal.hands[2].split())
    for token in tokens:  # hand 2 settled: its own record, no previous
        view, _version = service.view(code, token)
        service.reveal(code, token, 2, rows_of(view))
    view, _version = service.view(code, tokens[2])
    assert view.previous is None and view.last is not None and view.last.number == 2


def test_the_settlement_is_score_table_of_every_seat_set_and_balances_run(service: Rooms) -> None:
    code, tokens = full_room(service, people=3, preset="vietnamese")
    totals = [0, 0, 0, 0]
    for number in (1, 2, 3):
        for token in tokens:
            view, _version = service.view(code, token)
            rows = rows_of(view)
            rows[1], rows[2] = rows[2], rows[1]  # a different set from the dealt layout
            service.reveal(code, token, number, rows)
        view, _version = service.view(code, tokens[2])
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
    view, _version = service.view(code, tokens[0])
    service.reveal(code, tokens[0], 1, rows_of(view))
    with pytest.raises(StaleAction, match="revealed hand 1 already"):
        service.reveal(code, tokens[0], 1, rows_of(view))
    other, _ = service.view(code, tokens[1])
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
    view, _version = service.view(code, tokens[1])
    rows = rows_of(view)
    moved = [rows[0] + [rows[1][0]], rows[1][1:], rows[2]]  # caught mid-move: 4, 4, 5
    service.save_draft(code, tokens[1], 1, moved)
    again, _version = service.view(code, tokens[1])
    assert rows_of(again) == moved
    host_view, _version = service.view(code, tokens[0])
    service.reveal(code, tokens[0], 1, rows_of(host_view))
    assert service.view(code, tokens[0])[0].phase == "arranging"
    clock.ms += 59_000
    service.tick(code)
    assert service.view(code, tokens[0])[0].phase == "arranging"
    clock.ms += 1_000
    service.tick(code)
    record = service.view(code, tokens[0])[0].last
    assert record is not None
    flat = [c for row in moved for c in row]
    assert record.sets[1] == str(Arrangement(flat[:3], flat[3:8], flat[8:]))
    assert record.extra["timed_out"] == [1] and record.extra["recut"] == [1]


def test_a_person_who_leaves_is_played_by_a_computer_until_they_come_back(service: Rooms) -> None:
    code, tokens = full_room(service, people=3)
    service.leave(code, tokens[2])
    for token in tokens[:2]:
        view, _version = service.view(code, token)
        assert [s.status for s in view.seats][2] == "away"
        service.reveal(code, token, 1, rows_of(view))
    record = service.view(code, tokens[0])[0].last
    assert record is not None and record.extra["stand_in"] == [2]
    service.come_back(code, tokens[2])
    service.next_hand(code, tokens[2], 1)
    view, _version = service.view(code, tokens[0])
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


def test_a_macao_room_of_two_people_and_a_computer_plays_to_its_end(service: Rooms) -> None:
    code, tokens = macao_room_of(service, options={"start_cards": 5})
    room = state(service, code)
    assert isinstance(room, MacaoRoom) and [s.kind for s in room.seats] == ["person", "person", "computer"]
    for _turn in range(3000):
        views = [service.view(code, t)[0] for t in tokens]
        assert all(isinstance(v, MacaoSeatView) for v in views)
        if views[0].phase == "over":
            break
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
    assert history["game"] == "macao" and history["log"] == [str(e) for e in macao_room.round_state(room).log]


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
                    view, _version = service.view(code, token)
                    assert_previous_is_the_last_settled(view, room)
                    words = set(json.dumps(hand_in_play(view)).replace('"', " ").replace("|", " ").split())
                    assert hands[seat] <= words, (game, seat)
                    assert not words & set().union(*(h for s, h in enumerate(hands) if s != seat)), (game, seat)
            seat = rng.randrange(people)
            token = tokens[seat]
            move = rng.choice(["draft", "reveal", "reveal", "leave", "back", "time", "next"])
            view, _version = service.view(code, token)
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
        view, _version = service.view(code, token)
        service.reveal(code, token, 1, rows_of(view))
    record = service.view(code, tokens[0])[0].last
    assert record is not None and record.extra["stand_in"] == [2]
    service.heartbeat(code, tokens[2])
    service.come_back(code, tokens[2])
    service.tick(code)
    assert [s.status for s in service.view(code, tokens[0])[0].seats][2] == "present"
