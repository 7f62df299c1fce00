"""AppTest checks of the Rooms page: create, join by link, start, reveal, settlement, messages, no leak."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from app.room_seat import TOKENS
from rooms import Rooms
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
        body = element.proto.body
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
