"""No hand of a room can be worked out from what its members see or download.

A member's whole view of a room is gathered as text: every seat view they were given at
every step, the JSON and CSV history downloads after every hand, and the Rooms page as
sent to their browser.  Then every number and every long word in it is tried as each way
the app has ever dealt (a session seed, a deck seed and its neighbours, a Macao seed): none
may reproduce any seat's cards of a hand not yet revealed to that member.  On a room dealt
from a seed (before rooms had secrets) the history's ``seed`` reproduces every later hand,
and these tests fail.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command

from macao import Rules, new_game
from rooms import MacaoSettings, Rooms, Settings, macao_room
from rooms.macao_room import MacaoRoom
from rooms.table import Room
from solver.cards import Card
from solver.table import MAX_SEED, deal_hands, deal_seed
from store import Store, get_store
from store.engine import _config, create_engine
from tests.app_support import no_crash, open_page
from tests.test_rooms import mau_binh_view
from tests.test_rooms_app import ROOMS, room_code, sent

#: Deck seeds either side of a number tried (a hand's deck seed tells its neighbours').
NEIGHBOURS = range(-3, 4)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Rooms]:
    store = Store(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    yield Rooms(store)
    store.close()


def room_of(service: Rooms, code: str) -> Room | MacaoRoom:
    with service.store.read() as connection:
        return service._row(connection, code)[0]


def numbers_in(texts: Iterable[str]) -> set[int]:
    return {int(n) for text in texts for n in re.findall(r"\d+", text)}


def words_in(texts: Iterable[str]) -> set[str]:
    """Every long run of letters and digits (a seed or digest written out as text)."""
    return {w for text in texts for w in re.findall(r"[0-9A-Za-z_-]{8,}", text)}


def mau_binh_deals(candidates: set[int], seats: int, numbers: range) -> Iterator[frozenset[str]]:
    """Every hand the ways a Mau Binh table has been dealt would give from these numbers."""
    for c in candidates:
        decks = {c + k for k in NEIGHBOURS if c + k >= 0}
        if c <= MAX_SEED:
            decks |= {deal_seed(c, n) for n in numbers}
        for deck in decks:
            for hand in deal_hands(deck, seats):
                yield frozenset(map(str, hand))


def play_and_watch(service: Rooms, hands: int) -> tuple[list[list[str]], list[list[frozenset[str]]]]:
    """A room of 3 people and an Expert plays ``hands`` hands.  Returns, per hand, the text
    a member (seat 1) had seen before that hand was dealt, and every hand's cards by seat."""
    code, host = service.create(Settings(seats=4), "Host")
    tokens = [host] + [service.join(code, f"Guest {n}")[1] for n in (1, 2)]
    service.set_computer(code, host, 3, "expert")
    service.start(code, host)
    seen: list[str] = []
    seen_before: list[list[str]] = []
    dealt: list[list[frozenset[str]]] = []
    for number in range(1, hands + 1):
        seen_before.append(list(seen))
        room = room_of(service, code)
        assert isinstance(room, Room) and room.deal is not None
        dealt.append([frozenset(h.split()) for h in room.deal.hands])
        for token in tokens:
            view, _version = mau_binh_view(service, code, token)
            if token == tokens[1]:
                seen.append(repr(view))
            service.reveal(code, token, number, [list(r) for r in view.rows])
        seen += [repr(service.view(code, tokens[1])[0]), service.history(code, tokens[1]),
                 service.history(code, tokens[1], "csv")]  # fmt: skip
        if number < hands:
            service.next_hand(code, tokens[0], number)
    return seen_before, dealt


def test_no_later_mau_binh_hand_follows_from_what_a_member_saw(service: Rooms) -> None:
    seen_before, dealt = play_and_watch(service, hands=4)
    for number in range(2, 5):
        texts = seen_before[number - 1]
        assert texts, "the member saw the hands before"
        hidden = {hand for later in dealt[number - 1 :] for seat, hand in enumerate(later) if seat != 1}
        mine_later = {later[1] for later in dealt[number - 1 :]}
        derived = set(mau_binh_deals(numbers_in(texts), 4, range(1, 6)))
        assert not derived & (hidden | mine_later), f"hand {number} follows from what seat 2 saw before it"


def test_the_room_secret_is_in_nothing_a_member_sees(service: Rooms) -> None:
    code, host = service.create(Settings(seats=2), "Host")
    _seat, guest = service.join(code, "Guest")
    service.start(code, host)
    for token in (host, guest):
        view, _version = mau_binh_view(service, code, token)
        service.reveal(code, token, 1, [list(r) for r in view.rows])
    room = room_of(service, code)
    texts = [repr(service.view(code, guest)[0]), service.history(code, guest), service.history(code, guest, "csv")]
    assert room.secret not in "".join(texts)
    history = json.loads(texts[1])
    assert "seed" not in history and "secret" not in history
    assert [hand["deal_seed"] for hand in history["hands"]] == [None]


def test_the_rooms_page_sends_nothing_a_later_hand_follows_from() -> None:
    host = open_page(ROOMS)
    host.button(key="rooms_create").click().run()
    code = room_code(host)
    guest = open_page(ROOMS, room=code)
    host.run()
    host.button(key="rooms_start").click().run()
    for at in (host, guest):
        at.run()
        at.button(key=f"rooms_reveal_{code}_1").click().run()
        no_crash(at)
    guest.run()
    page = sent(guest)  # the settlement of hand 1, the history downloads offered
    host.run()
    host.button(key=f"rooms_next_{code}_1").click().run()
    room = room_of(Rooms(get_store()), code)
    assert isinstance(room, Room) and room.deal is not None and room.deal.number == 2
    assert room.secret not in page
    later = {frozenset(h.split()) for h in room.deal.hands}
    assert not set(mau_binh_deals(numbers_in([page]), 4, range(1, 4))) & later


def macao_deals(rules: Rules, candidates: set[str]) -> Iterator[frozenset[Card]]:
    """Every hand the ways a Macao round has been dealt would give from these words and
    numbers (as the seed, with the dealer drawn from it or set to each seat)."""
    for candidate in sorted(candidates):
        for dealer in (None, *range(rules.players)):
            for hand in new_game(rules, candidate, dealer=dealer).hands:
                yield frozenset(hand)


def test_no_macao_deal_follows_from_what_a_member_saw(service: Rooms) -> None:
    """A match of 3 rounds: nothing seat 2 saw before a round was dealt (every view at every
    move, the history download between rounds) gives any hand of that round or a later one,
    and nothing it saw during round 1 gives another seat's hand of it."""
    code, host = service.create(MacaoSettings(seats=3, turn_timer=None, rounds=3), "Host")
    _seat, guest = service.join(code, "Guest")
    service.start(code, host)
    seen: list[str] = []
    seen_before: list[list[str]] = []  # what seat 2 had seen before each round was dealt
    for number in (1, 2, 3):
        seen_before.append(list(seen))
        for _turn in range(2000):
            views = [service.view(code, token)[0] for token in (host, guest)]
            seen.append(repr(views[1]))
            if views[0].phase == "over":
                break
            for token, view in zip((host, guest), views):
                if view.legal:  # type: ignore[union-attr]
                    said = [i for i, a in enumerate(view.legal) if getattr(a, "declare", False)]  # type: ignore[union-attr]
                    service.play(code, token, view.number, said[0] if said else 0)
        seen.append(service.history(code, guest))
        if number == 1:
            round_one = room_of(service, code)
            assert isinstance(round_one, MacaoRoom)
            during = seen[len(seen_before[0]) :]
            others = {frozenset(h) for s, h in enumerate(macao_room.deal(round_one, 1).hands) if s != 1}
            tried = words_in(during) | {str(n) for n in numbers_in(during)}
            derived = set(macao_deals(round_one.settings.rules(), tried))
            assert not derived & others, "another seat's round 1 hand follows from what seat 2 saw"
        if number < 3:
            service.next_round(code, guest, number)
    room = room_of(service, code)
    assert isinstance(room, MacaoRoom) and room.round == 3 and room.secret not in "".join(seen)
    history = json.loads(seen[-1])
    assert "seed" not in json.dumps(history) and "secret" not in history and len(history["played"]) == 3
    rules = room.settings.rules()
    for number in (2, 3):
        texts = seen_before[number - 1]
        later = {frozenset(h) for r in range(number, 4) for h in macao_room.deal(room, r).hands}
        derived = set(macao_deals(rules, words_in(texts) | {str(n) for n in numbers_in(texts)}))
        assert not derived & later, f"round {number} follows from what seat 2 saw before it was dealt"


def test_an_old_room_gets_a_secret_and_loses_its_seeds(tmp_path: Path) -> None:
    """Migration 0004: a room dealt from a seed gets a secret; its records lose their deck
    seeds; a Macao round in progress (rebuilt from its seed) goes back to the lobby."""
    new = Store(f"sqlite:///{tmp_path / 'new.sqlite3'}")  # plays the rooms, then they are written as 0003 kept them
    service = Rooms(new)
    code, host = service.create(Settings(seats=2), "Host")
    _seat, guest = service.join(code, "Guest")
    service.start(code, host)
    for token in (host, guest):
        view, _version = mau_binh_view(service, code, token)
        service.reveal(code, token, 1, [list(r) for r in view.rows])
    macao, macao_host = service.create(MacaoSettings(seats=2), "Host")
    service.start(macao, macao_host)
    rooms = sa.table("rooms", *(sa.column(c) for c in ("code", "game", "version", "created_ms", "updated_ms")),
                     sa.column("state", sa.JSON))  # fmt: skip
    with new.read() as connection:
        rows = [dict(row._mapping) for row in connection.execute(sa.select(rooms))]
    new.close()
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as connection:
        config = _config()
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
        for row in rows:
            state = dict(row["state"])
            state["seed"] = random.Random(row["code"]).randrange(MAX_SEED)
            del state["secret"]
            for record in state.get("records", []):
                record["deal_seed"] = deal_seed(state["seed"], record["number"])
            connection.execute(rooms.insert().values({**row, "state": state}))
    engine.dispose()

    store = Store(url)
    service = Rooms(store)
    room = room_of(service, code)
    assert isinstance(room, Room) and len(room.secret) == 64 and room.phase == "settled"
    history = json.loads(service.history(code, guest))
    assert "seed" not in room.to_json() and [h["deal_seed"] for h in history["hands"]] == [None]
    service.next_hand(code, host, 1)  # play goes on, dealt from the secret
    old_macao = room_of(service, macao)
    assert isinstance(old_macao, MacaoRoom) and old_macao.phase == "lobby" and old_macao.moves == []
    service.start(macao, macao_host)
    assert room_of(service, macao).phase == "playing"
    store.close()
