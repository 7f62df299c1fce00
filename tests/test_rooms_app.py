"""AppTest checks of the Rooms page: create, join by link, start, reveal, settlement, messages, no leak."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from streamlit.testing.v1 import AppTest

from app.room_seat import TOKENS
from rooms import Rooms, Settings
from rooms.table import Room
from solver import score_table
from solver.scoring import Arrangement
from store import get_store
from tests.app_support import no_crash, open_page

ROOMS = "app/pages/rooms.py"


def sent(at: AppTest) -> str:
    """Everything the page sent to the browser in this run, as text."""
    return "\n".join(str(element.proto) for element in at.main) + "\n".join(
        str(element.proto) for element in at.get("bidi_component")
    )


def room_code(at: AppTest) -> str:
    for element in at.get("html"):
        body: str = element.proto.body
        if "data-room-code=" in body:
            return body.split('data-room-code="')[1].split('"')[0]
    raise AssertionError("no data-room-code on the page")


def component_attrs(at: AppTest) -> dict[int, dict[str, str]]:
    found = {}
    for element in at.get("bidi_component"):
        proto = element.proto
        kind = proto.WhichOneof("data")
        if kind not in ("json", "mixed"):
            continue
        data = json.loads(proto.mixed.json if kind == "mixed" else proto.json)
        attrs = data.get("attrs") or {}
        if "data-chi" in attrs and "data-seat" in attrs:
            found[int(attrs["data-seat"])] = attrs
    return found


def last_hand_attrs(at: AppTest) -> dict[int, dict[str, str]]:
    """The last hand's seats shown under the hand being arranged (``data-last-seat``)."""
    found = {}
    for element in at.get("bidi_component"):
        proto = element.proto
        kind = proto.WhichOneof("data")
        if kind in ("json", "mixed"):
            attrs = json.loads(proto.mixed.json if kind == "mixed" else proto.json).get("attrs") or {}
            if "data-last-seat" in attrs:
                found[int(attrs["data-last-seat"])] = attrs
    return found


def test_a_wrong_code_in_the_link_shows_a_message_and_the_lobby() -> None:
    for text in ("ZZZZZZZZZZ", "<script>", "x" * 300):
        at = open_page(ROOMS, room=text)
        assert any("room" in str(e.value).lower() for e in at.error), text
        assert at.button(key="rooms_create").label == "Create a room"


def test_create_join_start_reveal_and_the_settlement_is_score_table() -> None:
    host = open_page(ROOMS)
    host.text_input(key="rooms_name").input("<b>Lan</b>")
    host.button(key="rooms_create").click().run()
    no_crash(host)
    code = room_code(host)
    assert host.query_params["room"] == [code] or host.query_params["room"] == code
    assert "&lt;b&gt;Lan&lt;/b&gt;" in "".join(e.proto.body for e in host.get("html"))
    guest = open_page(ROOMS, room=code)
    assert room_code(guest) == code
    host.run()
    host.selectbox(key=f"rooms_level_{code}_2").select("expert").run()
    host.button(key="rooms_start").click().run()
    no_crash(host)
    guest.run()
    service = Rooms(get_store())
    with service.store.read() as connection:
        room, _version = service._row(connection, code)
    assert isinstance(room, Room)
    assert room.deal is not None and [s.level for s in room.seats] == [None, None, "expert", "club"]
    hands = room.deal.hands
    for at, seat in ((host, 0), (guest, 1)):
        text = sent(at)
        hidden = [c for s, hand in enumerate(hands) if s != seat for c in hand.split()]
        assert not [c for c in hidden if f'\\"{c}\\"' in text or f'"{c}"' in text], seat
        assert all(f'\\"{c}\\"' in text for c in hands[seat].split())
    for at in (host, guest):
        at.button(key=f"rooms_reveal_{code}_1").click().run()
        no_crash(at)
    host.run()
    attrs = component_attrs(host)
    assert sorted(attrs) == [0, 1, 2, 3]
    sets = [Arrangement.parse(attrs[s]["data-rows"]) for s in range(4)]
    chis = [int(attrs[s]["data-chi"]) for s in range(4)]
    assert chis == score_table(sets, "vietnamese").totals and sum(chis) == 0
    assert host.session_state[TOKENS][code] not in str(host.query_params)
    # the host deals hand 2 before the guest's page runs again: the guest still gets hand 1's
    # reveal and settlement, marked as the last hand, under its own hand 2 and nothing else
    host.button(key=f"rooms_next_{code}_1").click().run()
    no_crash(host)
    guest.run()
    no_crash(guest)
    with service.store.read() as connection:
        room, _version = service._row(connection, code)
    assert isinstance(room, Room)
    assert room.deal is not None and room.deal.number == 2
    last = last_hand_attrs(guest)
    assert sorted(last) == [0, 1, 2, 3] and {a["data-last-hand"] for a in last.values()} == {"1"}
    assert [Arrangement.parse(last[s]["data-rows"]) for s in range(4)] == sets
    assert [int(last[s]["data-chi"]) for s in range(4)] == chis
    assert component_attrs(guest) == {}  # no [data-seat][data-chi]: hand 2 is not revealed
    current = "\n".join(
        str(e.proto) for e in [*guest.get("html"), *guest.get("bidi_component")] if "data-last-hand" not in str(e.proto)
    )
    hidden = [c for s, hand in enumerate(room.deal.hands) if s != 1 for c in hand.split()]
    assert not [c for c in hidden if f'\\"{c}\\"' in current or f'"{c}"' in current]
    assert all(f'\\"{c}\\"' in current for c in room.deal.hands[1].split())


def test_a_macao_room_shows_each_person_their_own_hand_and_whose_turn() -> None:
    from rooms import macao_room

    host = open_page(ROOMS)
    host.segmented_control(key="rooms_game").set_value("macao").run()
    host.segmented_control(key="rooms_seats").set_value(3).run()
    host.button(key="rooms_create").click().run()
    no_crash(host)
    code = room_code(host)
    guest = open_page(ROOMS, room=code)
    host.run()
    host.button(key="rooms_start").click().run()
    guest.run()
    no_crash(guest)
    service = Rooms(get_store())
    with service.store.read() as connection:
        room, _version = service._row(connection, code)
    assert isinstance(room, macao_room.MacaoRoom)
    state = macao_room.round_state(room)
    for at, seat in ((host, 0), (guest, 1)):
        tables = []
        for element in at.get("bidi_component"):
            proto = element.proto
            kind = proto.WhichOneof("data")
            if kind in ("json", "mixed"):
                data = json.loads(proto.mixed.json if kind == "mixed" else proto.json)
                if data.get("view") == "table":
                    tables.append(data)
        assert len(tables) == 1
        assert tables[0]["hand"] == [str(c) for c in state.hands[seat]]
        assert tables[0]["your_turn"] == (state.current == seat)
        others = {str(c) for s, hand in enumerate(state.hands) if s != seat for c in hand}
        assert not others & set(tables[0]["hand"])
        # the turn timer's countdown says what the timer does to this seat, not a Mau Binh set
        (feed,) = [e for e in at.get("bidi_component") if "room-events" in str(e.proto)]
        expected = "you draw when the time runs out" if state.current == seat else "until the table moves on"
        assert expected in str(feed.proto) and "your set" not in str(feed.proto)


def test_a_macao_room_is_created_as_a_match_and_offers_macao_on_your_turn() -> None:
    from rooms import macao_room

    host = open_page(ROOMS)
    host.segmented_control(key="rooms_game").set_value("macao").run()
    host.segmented_control(key="rooms_seats").set_value(2).run()
    host.segmented_control(key="rooms_macao_rounds").set_value(3).run()
    host.button(key="rooms_create").click().run()
    no_crash(host)
    code = room_code(host)
    host.button(key="rooms_start").click().run()
    no_crash(host)
    service = Rooms(get_store())
    with service.store.read() as connection:
        room, _version = service._row(connection, code)
    assert isinstance(room, macao_room.MacaoRoom) and room.settings.rounds == 3 and room.round == 1
    button = host.button(key=f"rooms_macao_call_{code}")
    assert button.label == "Macao!" and button.disabled == (macao_room.round_state(room).current != 0)
    assert "**Match**, round 1 of 3:" in "\n".join(m.value for m in host.markdown)
    if not button.disabled:  # your turn: Macao! is said with your next play
        button.click().run()
        assert "Macao! will be declared with your next play." in "\n".join(c.value for c in host.caption)


def test_a_person_page_catches_a_forgotten_macao_and_shows_the_standings(monkeypatch: Any) -> None:
    """The host (played here through the service) forgets Macao! on a play that leaves one card
    and the Easy computer lets it pass: the guest's page offers Macao! (catch Host), which
    makes the host draw 5.  When the round is over the page shows the match's score and deals
    the next round."""
    from macao import State, placings
    from rooms import MacaoSettings, macao_room

    counter = iter(range(1, 10**6))
    monkeypatch.setattr("rooms.service.new_secret", lambda: f"{next(counter):064x}")
    service = Rooms(get_store())

    def table(code: str) -> tuple[macao_room.MacaoRoom, State]:
        with service.store.read() as connection:
            room, _version = service._row(connection, code)
        assert isinstance(room, macao_room.MacaoRoom)
        return room, macao_room.round_state(room)

    for _room in range(40):
        code, host = service.create(MacaoSettings(seats=3, turn_timer=None, rounds=3), "Host")
        service.set_computer(code, host, 2, "easy")
        guest_page = open_page(ROOMS, room=code)
        guest = guest_page.session_state[TOKENS][code]
        service.start(code, host)
        caught = False
        for _move in range(300):
            room, state = table(code)
            if room.phase != "playing":
                break
            token = host if state.current == 0 else guest
            view = service.view(code, token)[0]
            said = [i for i, a in enumerate(view.legal) if getattr(a, "declare", False)]  # type: ignore[union-attr]
            if said and state.current == 0:
                forget = view.legal.index(dataclasses.replace(view.legal[said[0]], declare=False))  # type: ignore
                service.play(code, host, view.number, forget)
                room, state = table(code)
                caught = state.exposed == 0  # the Easy computer did not call first
                break
            service.play(code, token, view.number, said[0] if said else 0)
        if caught:
            break
    else:
        raise AssertionError("the host never forgot Macao! unseen by the computer")
    guest_page.run()
    no_crash(guest_page)
    button = guest_page.button(key=f"rooms_macao_call_{code}")
    assert button.label == "Macao! (catch Host)" and not button.disabled
    button.click().run()
    no_crash(guest_page)
    room, state = table(code)
    assert len(state.hands[0]) == 6 and state.log[-1].kind == "call" and state.log[-1].seat == 1

    for _move in range(2000):  # the people play on, saying Macao!, to the end of the round
        room, state = table(code)
        if room.phase != "playing":
            break
        token = host if state.current == 0 else guest
        view = service.view(code, token)[0]
        said = [i for i, a in enumerate(view.legal) if getattr(a, "declare", False)]  # type: ignore[union-attr]
        service.play(code, token, view.number, said[0] if said else 0)
    assert room.phase == "over"
    guest_page.run()
    no_crash(guest_page)
    points = macao_room.score(room).totals
    text = "\n".join(m.value for m in guest_page.markdown)
    assert "**Match** after round 1 of 3:" in text and all(f"**{p}**" in text for p in points)
    assert sorted(points) == sorted(3 - p for p in placings(state))
    guest_page.button(key=f"rooms_macao_next_{code}_1").click().run()
    no_crash(guest_page)
    room, _state = table(code)
    assert room.round == 2 and room.phase == "playing"
    assert "**Match**, round 2 of 3:" in "\n".join(m.value for m in guest_page.markdown)


def test_any_run_of_the_room_settles_a_hand_whose_time_ran_out() -> None:
    """The room is the page's only fragment and its element the clock (app/room_push.py): the
    run the element asks for just after the deadline is what settles the hand."""
    service = Rooms(get_store())
    code, host = service.create(Settings(preset="vietnamese", seats=2, field="population", timer=60), "Host")
    guest_page = open_page(ROOMS, room=code)
    service.start(code, host)
    guest_page.run()
    no_crash(guest_page)
    with service.store.read() as connection:
        room, _version = service._row(connection, code)
    assert isinstance(room, Room)
    assert room.deal is not None and room.deal.deadline_ms is not None
    feeds = [e for e in guest_page.get("bidi_component") if "room-events" in str(e.proto)]
    assert len(feeds) == 1 and str(room.deal.deadline_ms) in str(feeds[0].proto)  # the element counts down to it
    assert component_attrs(guest_page) == {}  # nothing settled yet

    def run_out(room: Any, _drafts: object, now: int) -> None:
        room.deal.deadline_ms = now - 1

    service._act(code, run_out)
    guest_page.run()
    no_crash(guest_page)
    assert sorted(component_attrs(guest_page)) == [0, 1]  # settled by this run, both seats shown
