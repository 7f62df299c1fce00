"""AppTest checks of the Play page: the seeded table, Reveal, the settlement, session and history."""

from __future__ import annotations

import csv
import io
import json
import re
import time

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Element

from app import engine
from app.card_text import sort_for_display
from app.terms import CLUB_OVER_BEGINNER, EXPERT_OVER_CLUB, level_label, level_strength
from solver import PRESETS, parse_cards, score_table, solve, strongest_back_first
from solver.players import EXPERT_SAMPLES, LEVELS
from solver.scoring import Arrangement, is_valid
from solver.table import TableConfig, history_csv, history_from_json, history_json
from tests.app_support import no_crash, open_page

PLAY = "app/pages/play.py"






def revealed_seats(at: AppTest) -> dict[int, tuple[Arrangement, int]]:
    """What the reveal shows for each seat: its rows and chi, read from the data- attributes
    the page hands the card component for the element that holds the seat's cards."""
    found = {}
    for element in at.get("bidi_component"):
        proto = element.proto
        kind = proto.WhichOneof("data")
        if kind not in ("json", "mixed"):
            continue
        data = json.loads(proto.mixed.json if kind == "mixed" else proto.json)
        attrs = data.get("attrs") or {}
        if "data-seat" in attrs:
            found[int(attrs["data-seat"])] = (Arrangement.parse(attrs["data-rows"]), int(attrs["data-chi"]))
    return found


def play_hand(at: AppTest, rows: Arrangement | None = None) -> None:
    """Set seat 0's rows (as the editor's moves would) and press Reveal (and, on a foul,
    Reveal anyway)."""
    if rows is not None:
        at.session_state["play_rows"] = [[str(c) for c in row] for row in rows.rows]
        at.run()
    reveal = at.button(key="play_reveal_button")
    assert reveal.label == "Reveal"
    reveal.click().run()
    no_crash(at)
    if any(button.key == "play_reveal_anyway" for button in at.button):
        at.button(key="play_reveal_anyway").click().run()
        no_crash(at)


def html_of(at: AppTest) -> str:
    """Every st.html body on the page, joined."""
    return "\n".join(element.proto.body for element in at.get("html"))


def pair_chi(at: AppTest) -> dict[tuple[int, int], int]:
    """The revealed hand's settlement blocks' pair totals, read from their data- attributes
    (the reveal comes first on the page; the history's blocks of past hands follow)."""
    found = re.findall(r'data-pair="(\d)-(\d)".*?data-pair-chi="(-?\d+)"', html_of(at), flags=re.S)
    chi: dict[tuple[int, int], int] = {}
    for i, j, value in found:
        chi.setdefault((int(i), int(j)), int(value))
    return chi


def test_link_replays_the_session_deal_and_computer_sets() -> None:
    at = open_page(PLAY, seed="4242", preset="seed", players="3", levels="beginner,club")
    table = TableConfig(seed=4242, preset="seed", levels=("beginner", "club"))
    hand = at.session_state["play_hand"]
    assert hand["number"] == 1
    assert hand["hands"] == [[str(c) for c in h] for h in table.deal(1)]
    assert hand["sets"] == [str(a) for a in table.computer_sets(table.deal(1), 1)]
    assert at.query_params["seed"] == "4242" and at.query_params["players"] == "3"
    # seat 0's hand is hand 1 of Practice's drill with the same seed
    assert sorted(engine.deal(engine.drill_seed(4242, 1))) == table.deal(1)[0]


def test_settlement_shown_is_score_table_of_the_shown_sets() -> None:
    at = open_page(PLAY, seed="77", preset="vietnamese", players="4", levels="beginner,club,expert")
    table = TableConfig(seed=77, preset="vietnamese", levels=("beginner", "club", "expert"))
    for number in (1, 2, 3):
        cards = table.deal(number)[0]
        # hand 2 is played as the beginner would; hands 1 and 3 as the solver's best
        mine = strongest_back_first(cards) if number == 2 else solve(cards, players=4).best
        play_hand(at, mine)
        seats = revealed_seats(at)
        assert sorted(seats) == [0, 1, 2, 3]
        shown = [seats[s][0] for s in range(4)]
        chis = [seats[s][1] for s in range(4)]
        assert shown[0] == mine
        assert chis == score_table(shown, "vietnamese").totals
        assert sum(chis) == 0
        record = at.session_state["play_records"][-1]
        assert list(record.totals) == chis
        # each pair's block totals score_table's pair chi, from the first seat's side
        result = score_table(shown, "vietnamese")
        assert pair_chi(at) == {(i, j): result.pairs[i][j] for i in range(4) for j in range(i + 1, 4)}
        review = record.extra["review"]
        assert review["grade"] in ("best", "good", "inaccuracy", "mistake", "blunder", "foul")
        at.button(key="play_next").click().run()
        no_crash(at)
    metrics = {m.label: m.value for m in at.metric}
    records = at.session_state["play_records"]
    assert metrics["Hands played"] == "3"
    assert metrics["Your balance"] == f"{sum(r.totals[0] for r in records):+d}".replace("+0", "0")
    assert metrics["Your fouls"] == str(sum(r.fouls[0] for r in records))


def test_a_foul_is_settled_as_one() -> None:
    at = open_page(PLAY, seed="5", preset="plain", players="2", levels="club")
    cards = TableConfig(seed=5, preset="plain", levels=("club",)).deal(1)[0]
    best = solve(cards, "plain", players=2).best
    fouled = Arrangement(best.front, best.back, best.middle)  # the stronger five in the middle
    if fouled.keys("plain")[1] == fouled.keys("plain")[2]:
        fouled = Arrangement(best.back[:3], [*best.front, *best.back[3:]], best.middle)
    at.session_state["play_rows"] = [[str(c) for c in row] for row in fouled.rows]
    at.run()
    at.button(key="play_reveal_button").click().run()
    no_crash(at)
    # Reveal on a foul asks first and reveals nothing
    assert "play_records" not in at.session_state or at.session_state["play_records"] == []
    assert not revealed_seats(at)
    assert f"foul and pays {PRESETS['plain'].foul_chi} chi to everyone" in "\n".join(str(w.value) for w in at.warning)
    at.button(key="play_keep_arranging").click().run()  # back to the cards: still nothing revealed
    assert not revealed_seats(at) and at.button(key="play_reveal_button").label == "Reveal"
    at.button(key="play_reveal_button").click().run()
    assert at.button(key="play_reveal_anyway").label == "Reveal anyway"
    at.button(key="play_reveal_anyway").click().run()
    no_crash(at)
    record = at.session_state["play_records"][-1]
    assert record.fouls[0]
    assert record.extra["review"]["grade"] == "foul"
    assert revealed_seats(at)[0][1] == record.totals[0] == score_table(list(record.sets), "plain").totals[0]


def test_history_downloads_and_replay() -> None:
    at = open_page(PLAY, seed="31", preset="four-two", players="2", levels="beginner")
    play_hand(at)
    at.button(key="play_next").click().run()
    play_hand(at)
    records = at.session_state["play_records"]
    downloads = {d.label: d for d in at.get("download_button") if isinstance(d, Element)}
    assert set(downloads) == {"Download JSON", "Download CSV"}
    # what the buttons hold: history_json / history_csv of the session (tested at API level)
    config, again = history_from_json(history_json(at.session_state["play_config"], records))
    assert config == TableConfig(seed=31, preset="four-two", levels=("beginner",))
    assert again == records
    lines = list(csv.DictReader(io.StringIO(history_csv(records))))
    assert [int(line["chi"]) for line in lines] == [t for r in records for t in r.totals]
    # replay hand 1: the same cards and computer set, not counted in the balance
    at.button(key="play_replay_0").click().run()  # the history's Replay button of hand 1
    no_crash(at)
    hand = at.session_state["play_hand"]
    assert hand["replay_of"] == 1
    assert hand["hands"] == [r.split(" ") for r in records[0].hands]
    assert hand["sets"] == list(records[0].sets[1:])
    play_hand(at)
    records = at.session_state["play_records"]
    assert records[-1].replay_of == 1
    assert {m.label: m.value for m in at.metric}["Hands played"] == "2"


def test_bad_link_and_bad_seed_are_refused_with_a_reason() -> None:
    at = open_page(PLAY, seed="12x", players="9", preset="poker")
    errors = "\n".join(str(e.value) for e in at.error)
    assert "unknown preset" in errors and "players must be 2, 3 or 4" in errors and "session seed" in errors
    assert "play_hand" in at.session_state  # a table is dealt anyway, with the other settings
    at.text_input(key="play_seed_text").set_value("not a number").run()
    at.button(key="play_new").click().run()
    no_crash(at)
    assert "A session seed is a whole number" in "\n".join(str(e.value) for e in at.error)


def test_timer_off_by_default_and_expiry_plays_the_set_as_it_stands() -> None:
    at = open_page(PLAY, seed="19", players="2", levels="club")
    assert at.session_state["play_timer"] == "Off"
    assert at.session_state["play_hand"]["deadline"] is None
    at.session_state["play_timer"] = "60 s"
    at.text_input(key="play_seed_text").set_value("19").run()
    at.button(key="play_new").click().run()
    no_crash(at)
    hand = at.session_state["play_hand"]
    assert hand["deadline"] is not None and 55 < hand["deadline"] - time.time() <= 60
    assert any("s left" in str(c.value) for c in at.caption)
    # the rows as they stand (4 + 5 + 4: mid-move) when the time runs out
    ordered = [str(c) for c in sort_for_display(parse_cards(hand["hands"][0]))]
    front, middle, back = ordered[10:], ordered[5:10], ordered[:5]  # as dealt
    at.session_state["play_rows"] = [front + back[:1], middle, back[1:]]
    hand["deadline"] = time.time() - 1
    at.session_state["play_hand"] = hand
    at.run()
    no_crash(at)
    record = at.session_state["play_records"][-1]
    assert record.extra["timed_out"] and record.extra["recut"]
    cut = [c for row in (front + back[:1], middle, back[1:]) for c in row]
    assert record.sets[0] == str(Arrangement(cut[:3], cut[3:8], cut[8:]))
    assert revealed_seats(at)[0][1] == record.totals[0]
    assert "time ran out" in "\n".join(str(m.value) for m in at.markdown)


def test_new_session_with_an_empty_seed_deals_afresh_and_keeps_the_box_empty() -> None:
    at = open_page(PLAY, seed="5", players="2", levels="club")
    play_hand(at)
    assert len(at.session_state["play_records"]) == 1
    assert at.text_input(key="play_seed_text").value == ""
    at.button(key="play_new").click().run()
    no_crash(at)
    assert at.session_state["play_config"].seed != 5  # a random seed (1 in a million to repeat)
    assert at.session_state["play_records"] == []
    assert at.text_input(key="play_seed_text").value == ""
    assert at.query_params["seed"] == str(at.session_state["play_config"].seed)


def test_a_hand_starts_from_the_beginners_set_and_as_dealt_is_a_setting() -> None:
    """The rows first shown are the beginner's set (a valid set) on every seeded deal;
    "As dealt" (high to low from the back) is kept as a setting for the next hand."""
    for seed in range(15):
        at = open_page(PLAY, seed=str(seed), preset="vietnamese", players="3", levels="club,club")
        hand = at.session_state["play_hand"]
        cards = parse_cards(hand["hands"][0])
        start = Arrangement(*hand["start"])
        assert start == strongest_back_first(cards, "vietnamese")
        assert is_valid(start, "vietnamese"), (seed, str(start))
    at.session_state["play_layout"] = "dealt"
    at.run()
    play_hand(at)
    at.button(key="play_next").click().run()
    hand = at.session_state["play_hand"]
    ordered = [str(c) for c in sort_for_display(parse_cards(hand["hands"][0]))]
    assert hand["start"] == [ordered[10:], ordered[5:10], ordered[:5]]


def test_a_hint_names_a_misplaced_card_and_is_counted_in_the_review() -> None:
    at = open_page(PLAY, seed="23", preset="vietnamese", players="2", levels="club")
    hand = at.session_state["play_hand"]
    cards = parse_cards(hand["hands"][0])
    best = solve(cards, "vietnamese", players=2).best
    start = Arrangement(*hand["start"])
    assert not all(set(a) == set(b) for a, b in zip(start.rows, best.rows)), "pick a seed where a hint helps"
    at.button(key="play_hint_button").click().run()
    no_crash(at)
    card, row = at.session_state["play_hand"]["hint"]
    assert row in (0, 1, 2) and card in [str(c) for c in best.rows[row]]
    assert card not in start.rows[row]
    assert any("belongs in your" in str(i.value) for i in at.info)
    play_hand(at, best)
    review = at.session_state["play_records"][-1].extra["review"]
    assert review["hints"] == 1 and review["grade"] == "best"
    assert "1 hint taken" in "\n".join(str(m.value) for m in at.markdown)


def test_history_draws_each_hand_as_cards_with_its_settlement() -> None:
    at = open_page(PLAY, seed="8", preset="vietnamese", players="3", levels="club,beginner")
    play_hand(at)
    at.button(key="play_next").click().run()
    play_hand(at)
    records = at.session_state["play_records"]
    for index, record in enumerate(records):
        drawn = [e for e in at.get("bidi_component") if e.key == f"play_history_cards_{index}"]
        assert len(drawn) == 1
        proto = drawn[0].proto
        data = json.loads(proto.mixed.json if proto.WhichOneof("data") == "mixed" else proto.json)
        assert [r["cards"] for r in data["rows"]] == [[str(c) for c in row] for row in record.arrangement(0).rows]
    blocks = re.findall(r'data-pair="(\d)-(\d)".*?data-pair-chi="(-?\d+)"', html_of(at), flags=re.S)
    # the reveal's 3 pairs, then each past hand's 3 pairs in the history (newest first)
    assert len(blocks) == 3 * (1 + len(records))
    assert [int(b[2]) for b in blocks[-3:]] == [records[0].pairs[0][1], records[0].pairs[0][2], records[0].pairs[1][2]]


# --- how strong each level plays (issue 28, item 4b) ------------------------------------------


def test_the_settings_say_how_strong_each_level_plays() -> None:
    """Under the seats' level choices: each level, what it does and its edge in chi a hand
    (from benchmarks/play_levels.py), in the player's language and number format."""
    at = open_page(PLAY, seed="3", players="2", levels="club")
    captions = "\n".join(str(c.value) for c in at.caption)
    for level in LEVELS:
        assert f"**{level_label(level)}**: {level_strength(level)}" in captions
    assert "**Beginner**: puts the strongest five cards in the back" in captions
    assert "About 6.5 chi a hand behind Club." in captions
    assert "About 6.5 chi a hand ahead of Beginner." in captions
    assert f"against {EXPERT_SAMPLES} random deals" in captions
    assert "About 0.08 chi a hand ahead of Club in the same seat" in captions
    assert "Measured at 4 players, Vietnamese rules." in captions
    # the rest of the settings' caption stays
    assert "Club and Expert play against the opponents chosen" in captions
    assert "the Expert also knows which level sits in each seat" in captions
    assert "apply when a new session starts" in captions

    vi = open_page(PLAY, seed="3", players="2", levels="club", lang="vi")
    captions = "\n".join(str(c.value) for c in vi.caption)
    assert "**Mới chơi**: đặt năm lá mạnh nhất vào chi đầu" in captions
    assert "Kém Trung cấp khoảng 6,5 chi mỗi ván." in captions  # the figure in the Vietnamese format
    assert "Hơn Mới chơi khoảng 6,5 chi mỗi ván." in captions
    assert f"**Cao thủ**: thử các cách xếp tốt nhất của Trung cấp với {EXPERT_SAMPLES} lần chia" in captions
    assert "Hơn Trung cấp ngồi cùng ghế khoảng 0,08 chi mỗi ván" in captions
    assert "chi a hand" not in captions

    km = open_page(PLAY, seed="3", players="2", levels="club", lang="km")
    captions = "\n".join(str(c.value) for c in km.caption)
    assert "**អ្នកជំនាញ**៖ សាកល្បងការរៀបល្អបំផុតរបស់មធ្យម" in captions
    assert "ប្រហែល 0.08 ជីក្នុងមួយដៃ" in captions and "ប្រហែល 6.5 ជីក្នុងមួយដៃ" in captions


def test_level_strength_is_a_sentence_of_its_own_for_each_level() -> None:
    sentences = {level: level_strength(level) for level in LEVELS}
    assert len(set(sentences.values())) == len(LEVELS) == 3
    assert all(s.endswith(".") and "chi a hand" in s for s in sentences.values())
    assert f"{CLUB_OVER_BEGINNER} chi" in sentences["beginner"] and f"{CLUB_OVER_BEGINNER} chi" in sentences["club"]
    assert f"{EXPERT_OVER_CLUB} chi" in sentences["expert"] and str(EXPERT_SAMPLES) in sentences["expert"]
    # the levels' edges as measured, in the order the levels are meant to play
    assert CLUB_OVER_BEGINNER > EXPERT_OVER_CLUB > 0
    for unknown in ("grandmaster", "Club", ""):  # a strength is measured, never a fallback word
        with pytest.raises(ValueError, match="no measured strength"):
            level_strength(unknown)
