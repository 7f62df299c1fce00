"""Real-browser test of a room: 4 Chromium contexts at 390 px on two app processes, one database.

Three people (two on one ``streamlit run``, one on another, both on the same database) and
one computer player play three Mau Binh hands: the host creates the room, the others
open its link, the host presses Start, each person swaps two cards by tapping and
presses Reveal; one person reloads in the middle of hand 2 and must find their rows as
they left them.  Every settlement shown on every screen is checked against
``score_table``.  A fourth context opens the full room (a clear message) and a wrong code.

The leak test runs after every action: no other seat's card is anywhere in a person's
DOM (``data-card``, shadow roots included) nor in the websocket messages their browser
received since the hand was dealt, until the hand is settled.  The one exception is the
hand settled before, shown under the next one (``data-last-hand``) so no one misses its
reveal: its cards were all revealed, and since each hand deals the same 52 cards afresh
its card codes are the other seats' current codes too, so a code match cannot tell the
two apart.  The test leaves out what sits under ``data-last-hand`` (DOM elements and the
websocket messages that draw them) and checks instead that it is exactly the settled
record of that hand.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from rooms import Rooms
from rooms import table as room_table
from rooms.macao_room import MacaoRoom
from solver import score_table
from solver.scoring import Arrangement
from store import Store, database_url
from tests.browser_support import PHONE, assert_fits, streamlit_server, wait_idle

pytestmark = pytest.mark.browser
ROWS = ("front", "middle", "back")

#: Every data-card in the page, shadow roots included.
ALL_CARDS = """() => {
    const out = [];
    const visit = (root) => {
        for (const e of root.querySelectorAll('*')) {
            if (e.shadowRoot) visit(e.shadowRoot);
            if (e.hasAttribute('data-card')) out.push(e.getAttribute('data-card'));
        }
    };
    visit(document);
    return out;
}"""

#: The same, for the cards outside the last hand's block (``[data-last-hand]``), and that
#: block's seats as [hand number, seat, data-rows, data-chi].
CURRENT_CARDS = """() => {
    const out = [], last = [];
    const visit = (root) => {
        for (const e of root.querySelectorAll('*')) {
            if (e.shadowRoot) visit(e.shadowRoot);
            if (e.hasAttribute('data-last-seat')) last.push([e.getAttribute('data-last-hand'),
                e.getAttribute('data-last-seat'), e.getAttribute('data-rows'), e.getAttribute('data-chi')]);
            if (e.hasAttribute('data-card') && !e.closest('[data-last-hand]')) out.push(e.getAttribute('data-card'));
        }
    };
    visit(document);
    return [out, last];
}"""


@pytest.fixture(scope="module")
def second_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Another app process on the same database (the session's data folder)."""
    with streamlit_server("streamlit_app.py", tmp_path_factory.mktemp("streamlit2") / "server.log") as url:
        yield url


class Player:
    """One person's browser context, with every websocket message it received."""

    def __init__(self, browser: sync_api.Browser, server: str) -> None:
        self.context = browser.new_context(viewport=PHONE)
        self.page = self.context.new_page()
        self.server = server
        self.frames: list[bytes] = []
        self.page.on("websocket", self._listen)

    def _listen(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(payload if isinstance(payload, bytes)
                                                                  else payload.encode()))  # fmt: skip

    def cards_in_dom(self) -> list[str]:
        return [str(c) for c in self.page.evaluate(ALL_CARDS)]

    def row_cards(self, row: str) -> list[str]:
        return [str(c) for c in self.page.locator(f'[data-row="{row}"] [data-card]').evaluate_all(
            "nodes => nodes.map(n => n.getAttribute('data-card'))"
        )]  # fmt: skip

    def rows(self) -> list[list[str]]:
        return [self.row_cards(row) for row in ROWS]


def assert_no_leak(
    players: list[Player], seats: list[int], hands: list[str], when: str, records: list[dict[str, Any]]
) -> None:
    """No other seat's card of ``hands`` reaches a player, outside the last hand's block, which
    must be exactly one of ``records`` (the room's settled hands)."""
    for player, seat in zip(players, seats):
        hidden = {c for s, hand in enumerate(hands) if s != seat for c in hand.split()}
        current, last = player.page.evaluate(CURRENT_CARDS)
        shown = set(map(str, current))
        assert not shown & hidden, f"{when}: seat {seat} sees {sorted(shown & hidden)} in its DOM"
        for number, at, rows, chi in last:
            record = records[int(number) - 1]
            assert (rows, int(chi)) == (record["sets"][int(at)], record["totals"][int(at)]), (when, seat, number, at)
        received = b"".join(f for f in player.frames if b"data-last-hand" not in f)
        # a card travels as a JSON string of its own ("As") or at the end of a row text ("As Kd", "Qh As")
        leaked = sorted(c for c in hidden if any(f.encode() in received for f in (f'"{c}"', f'"{c} ', f' {c}"')))
        assert not leaked, f"{when}: seat {seat} received {leaked} over its websocket"


def room_state(code: str) -> room_table.Room | MacaoRoom:
    store = Store(database_url())
    try:
        with store.read() as connection:
            return Rooms(store)._row(connection, code)[0]
    finally:
        store.close()


def mau_binh_state(code: str) -> room_table.Room:
    """The state of a Mau Binh room, narrowed from ``Room | MacaoRoom``."""
    room = room_state(code)
    assert isinstance(room, room_table.Room)
    return room


def wait_for(check: Any, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def swap(player: Player) -> None:
    """Tap the first front card, then the first back card: they change places."""
    front, back = player.row_cards("front"), player.row_cards("back")
    player.page.locator(f'[data-row="front"] [data-card="{front[0]}"]').click()
    player.page.locator(f'[data-row="back"] [data-card="{back[0]}"]').click()
    wait_for(lambda: back[0] in player.row_cards("front"), "the swap to show")
    wait_idle(player.page)


def test_three_people_and_a_computer_play_three_hands(
    server: str, second_server: str, browser: sync_api.Browser, tmp_path: Path
) -> None:
    host, minh, vy = Player(browser, server), Player(browser, server), Player(browser, second_server)
    people = [host, minh, vy]
    host.page.goto(f"{server}/rooms")
    host.page.get_by_label("Your name").fill("Lan")
    host.page.get_by_role("button", name="Create a room").click()
    host.page.locator("[data-room-code]").first.wait_for(timeout=60_000)
    code = str(host.page.locator("[data-room-code]").first.get_attribute("data-room-code"))
    assert re.fullmatch(r"[0-9A-Z]{10}", code)
    assert "room=" in host.page.url and "token" not in host.page.url.lower()
    for player, name in ((minh, "Minh"), (vy, "<b>Vy</b>")):
        player.page.goto(f"{player.server}/rooms?room={code}")
        player.page.locator("[data-room-code]").first.wait_for(timeout=60_000)
        wait_idle(player.page)
        box = player.page.get_by_label("Your name")
        box.fill(name)
        box.press("Enter")
        wait_idle(player.page)
    # the host's page shows both names within a few seconds, markup as typed
    host.page.get_by_text("<b>Vy</b>").first.wait_for(timeout=15_000)
    assert host.page.locator("b", has_text=re.compile(r"^Vy$")).count() == 0
    host.page.get_by_text("Minh").first.wait_for(timeout=15_000)
    wait_idle(host.page)
    assert_fits(host.page, "rooms, lobby")
    host.page.get_by_role("button", name="Start").click()
    seats = [0, 1, 2]

    # a fourth browser: the full room and a wrong code get a clear message, no cards
    outsider = Player(browser, second_server)
    outsider.page.goto(f"{second_server}/rooms?room={code}")
    outsider.page.get_by_text("This room is full").wait_for(timeout=60_000)
    outsider.page.goto(f"{second_server}/rooms?room=ZZZZZZZZZZ")
    outsider.page.get_by_text("There is no room with this code").wait_for(timeout=60_000)
    assert outsider.page.get_by_text("Traceback").count() == 0 and outsider.cards_in_dom() == []

    for number in (1, 2, 3):
        for player in people:
            player.page.locator('[data-row="back"] [data-card]').first.wait_for(timeout=60_000)
            wait_idle(player.page)
        state = mau_binh_state(code)
        assert state.deal is not None and state.deal.number == number
        hands = state.deal.hands
        for player, seat in zip(people, seats):
            assert sorted(c for row in player.rows() for c in row) == sorted(hands[seat].split())
        assert_no_leak(people, seats, hands, f"hand {number} dealt", state.records)
        if number > 1:  # everyone still sees the hand before, however quickly the next was dealt
            for player in people:
                player.page.locator(f'[data-last-hand="{number - 1}"][data-last-seat="3"]').wait_for(timeout=60_000)
                _current, last = player.page.evaluate(CURRENT_CARDS)
                assert sorted((int(n), int(s)) for n, s, _rows, _chi in last) == [(number - 1, s) for s in range(4)]
        expected: dict[int, str] = {}
        for i, (player, seat) in enumerate(zip(people, seats)):
            swap(player)
            assert_no_leak(people, seats, hands, f"hand {number}, seat {seat} moved", state.records)
            if number == 2 and i == 2:  # a reload finds the rows as they were left
                before = player.rows()
                player.page.wait_for_timeout(500)
                player.page.reload()
                player.page.locator('[data-row="back"] [data-card]').first.wait_for(timeout=60_000)
                wait_idle(player.page)
                assert player.rows() == before
            played = player.rows()
            player.page.get_by_role("button", name="Reveal", exact=True).click()
            if i < 2:
                player.page.get_by_text("Waiting for the others").wait_for(timeout=60_000)
                wait_idle(player.page)
                assert_no_leak(people, seats, hands, f"hand {number}, seat {seat} revealed", state.records)
            expected[seat] = str(Arrangement(*played))
        # every screen shows the same settlement, score_table's
        revealed_at = time.perf_counter()
        for player in people:
            player.page.locator('[data-seat="3"][data-chi]').wait_for(timeout=60_000)
        print(f"hand {number}: Reveal -> settlement on every screen {time.perf_counter() - revealed_at:.2f} s")
        shown_by: list[tuple[list[str], list[int]]] = []
        for player in people:
            wait_idle(player.page)
            sets = [str(player.page.locator(f'[data-seat="{s}"]').get_attribute("data-rows")) for s in range(4)]
            chis = [int(str(player.page.locator(f'[data-seat="{s}"]').get_attribute("data-chi"))) for s in range(4)]
            assert chis == score_table([Arrangement.parse(s) for s in sets], "vietnamese").totals
            assert sum(chis) == 0
            shown_by.append((sets, chis))
            player.frames.clear()  # the hand is settled: its cards may be shown from here
        assert all(s == shown_by[0] for s in shown_by)
        record = mau_binh_state(code).records[-1]
        assert list(record["sets"]) == shown_by[0][0] and list(record["totals"]) == shown_by[0][1]
        assert list(record["seats"])[:3] == ["Lan", "Minh", "<b>Vy</b>"], record["seats"]  # names kept
        assert all(record["sets"][seat] == played for seat, played in expected.items())  # what each one revealed
        if number == 1:
            assert_fits(host.page, "rooms, settlement")
            host.page.screenshot(path=str(tmp_path / "rooms-390-settled.png"), full_page=True)
        if number < 3:
            minh.page.get_by_role("button", name="Deal the next hand").click()
    for player in people:
        player.context.close()
    outsider.context.close()
    print(f"screenshots in {tmp_path}")


def _enabled_button(page: sync_api.Page, name: str) -> Any | None:
    buttons = page.locator("[data-testid=stButton] button").filter(has_text=name)
    for i in range(buttons.count()):
        if buttons.nth(i).is_enabled() and buttons.nth(i).inner_text().startswith(name):
            return buttons.nth(i)
    return None


def _macao_move(page: sync_api.Page) -> bool:
    """Make this seat's move if it is its turn (a lit card, else Keep it / Accept / Draw / Pass)."""
    try:
        lit = page.locator("[data-playable='true']")
        if lit.count():
            lit.first.click(timeout=3_000)
            page.wait_for_timeout(150)
            for extra in (".suit-btn", "button.play"):
                if page.locator(extra).count():
                    page.locator(extra).first.click(timeout=3_000)
                    break
            return True
        for name in ("Keep it", "Accept", "Draw", "Pass"):
            button = _enabled_button(page, name)
            if button is not None:
                button.click(timeout=3_000)
                return True
    except sync_api.TimeoutError:  # the page redrew under the tap: look again
        return False
    return False


def test_a_macao_room_of_two_people_and_a_computer_plays_to_its_end(
    server: str, second_server: str, browser: sync_api.Browser, tmp_path: Path
) -> None:
    from macao import State, observe
    from rooms import macao_room

    host, guest = Player(browser, server), Player(browser, second_server)
    host.page.goto(f"{server}/rooms")
    host.page.locator('[data-testid="stButtonGroup"] button', has_text="Macao").click()
    wait_idle(host.page)
    host.page.locator('[data-testid="stButtonGroup"] button').filter(has_text=re.compile(r"^3$")).click()
    wait_idle(host.page)
    host.page.get_by_role("button", name="Create a room").click()
    host.page.locator("[data-room-code]").first.wait_for(timeout=60_000)
    code = str(host.page.locator("[data-room-code]").first.get_attribute("data-room-code"))
    guest.page.goto(f"{second_server}/rooms?room={code}")
    guest.page.locator("[data-room-code]").first.wait_for(timeout=60_000)
    host.page.get_by_text("Player 2").first.wait_for(timeout=15_000)
    wait_idle(host.page)
    host.page.get_by_role("button", name="Start").click()
    for player in (host, guest):
        player.page.locator("[data-playable]").first.wait_for(timeout=60_000)

    def seen(state: State, seat: int) -> set[str]:
        return {str(c) for c in (*observe(state, seat).hand, *observe(state, seat).discard)}

    # A page polls its room, so under load it may show a moment a few moves old (a card since
    # shuffled back into the stock included); what it shows must be all one moment's view of
    # its own seat, and never a moment earlier than the one it showed before.
    moment = [0, 0]
    moves = 0
    for _ in range(600):
        if all(p.page.get_by_text("Round over").count() for p in (host, guest)):
            break
        room = room_state(code)
        assert isinstance(room, macao_room.MacaoRoom)
        state = macao_room.round_state(room)
        shown = [set(p.cards_in_dom()) for p in (host, guest)]
        after = room_state(code)  # the pages may have moved on while read
        assert isinstance(after, macao_room.MacaoRoom)
        history = macao_room.round_history(after)
        for seat in (0, 1):
            fits = (k for k in range(moment[seat], len(history)) if shown[seat] <= seen(history[k], seat))
            moment[seat] = next(fits, -1)
            assert moment[seat] >= 0, (seat, sorted(shown[seat]), "fits no moment of the round since the last read")
        mover = (host, guest)[state.current] if state.current in (0, 1) and room.phase == "playing" else None
        if mover is not None:
            wait_idle(mover.page)
            moves += _macao_move(mover.page)
        else:
            host.page.wait_for_timeout(300)
    else:
        raise AssertionError(f"the round did not end after {moves} moves")
    final = room_state(code)
    assert isinstance(final, macao_room.MacaoRoom)
    assert final.phase == "over" and sorted(macao_room.seat_view(final, 0).placings) == [1, 2, 3]
    host.page.screenshot(path=str(tmp_path / "rooms-macao-390-over.png"), full_page=True)
    for player in (host, guest):
        player.context.close()
