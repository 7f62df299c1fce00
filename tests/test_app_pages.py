"""AppTest checks of every page of the Streamlit app (no browser needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from streamlit.testing.v1 import AppTest

import solver
from solver import Arrangement

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")
HAND = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s 10c Jh"
CANONICAL = "Ah Ad Kd Qd Jh Tc 9d 8s 7s 7c 5d 3h 2c"
DRAGON = "As Kd Qc Jh 10s 9d 8c 7h 6s 5d 4c 3h 2s"
PAIRS_HAND = "Ah Ad Kc Ks 9h 9c 7d 7s 5c 4d 3h 2s 2c"
HOSTILE = [
    "<script>alert('x')</script>",
    "<img src=x onerror=alert(1)> As Kd",
    "**bold** [link](javascript:alert(1)) :red[x] $x^2$",
    "As As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h",  # a repeated card
    "As Kd Qc",  # too few
    "As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s 2d",  # too many
    "BJ Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s",  # a joker
    "As Kd " * 700,  # absurdly long: refused with a message
    "\x00\u202e\ufffd",
    "",
]


def new_app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    return at


def texts(elements: object) -> str:
    return "\n".join(str(e.value) for e in elements)  # type: ignore[attr-defined]


def no_crash(at: AppTest) -> None:
    assert not at.exception, at.exception
    assert "Something went wrong" not in texts(at.error)


def metric(at: AppTest, label: str) -> str:
    found = [m.value for m in at.metric if m.label == label]
    assert found, f"no metric {label!r}: {[m.label for m in at.metric]}"
    return str(found[0])


def component_data(at: AppTest, key: str) -> dict[str, Any]:
    """The data a page handed to the card component (AppTest draws it as a placeholder)."""
    found = [e for e in at.get("bidi_component") if e.key == key]
    assert found, f"no card component {key!r}"
    proto = found[0].proto
    return json.loads(proto.mixed.json if proto.WhichOneof("data") == "mixed" else proto.json)  # type: ignore[no-any-return]


# --- Solve -----------------------------------------------------------------------------------


def test_solve_shows_three_rows_ev_and_alternatives() -> None:
    at = new_app()
    at.text_area(key="solve_text").input(HAND).run()
    at.button(key="solve_go").click().run()
    no_crash(at)
    assert not at.error
    html = texts(at.markdown)
    best_rows = component_data(at, "solve_best_rows")["rows"]
    assert [r["label"] for r in best_rows] == ["Front", "Middle", "Back"]
    assert sorted(c for r in best_rows for c in r["cards"]) == sorted(CANONICAL.split())
    ev = metric(at, "EV per hand")
    assert ev.endswith("chi")
    expected = solver.solve(HAND, players=4, seed=2024)
    assert float(ev.split()[0]) == pytest.approx(expected.ev, abs=0.01)
    for row in best_rows:  # each row names its hand and its chance to win
        assert re.fullmatch(r"[a-z ]+ \([^)]*\) · wins \d+%", row["note"]), row
    assert "Top alternatives" in texts(at.subheader)
    assert "vs best" in html
    # the hand and settings went into the URL
    assert at.query_params["hand"] == CANONICAL
    assert at.query_params["preset"] == "vietnamese"
    assert at.query_params["players"] == "4"


def test_solve_alternatives_are_different_plans() -> None:
    from app import engine

    rules = solver.PRESETS["vietnamese"]
    pool = solver.solve(HAND, players=4, top=64, seed=2024).alternatives
    listed = engine.plans(pool, rules, 5)
    shapes = [tuple(k >> 20 for k in a.keys(rules)) for a, _ in listed]
    assert len(listed) == 5 and len(set(shapes)) == 5
    assert listed[0] == pool[0]  # the best set leads
    evs = [ev for _, ev in listed]
    assert evs == sorted(evs, reverse=True)
    # the plain top five of this hand has kicker swaps that the plans leave out
    plain = [tuple(k >> 20 for k in a.keys(rules)) for a, _ in pool[:5]]
    assert len(set(plain)) < 5
    # each left-out set shares its plan with a better listed one
    for arrangement, ev in pool:
        shape = tuple(k >> 20 for k in arrangement.keys(rules))
        if shape in shapes:
            assert ev <= evs[shapes.index(shape)]
    page = engine.solve_hand(CANONICAL, "vietnamese", 4, "fast", "population")
    assert [t for t, _ in page["alternatives"]] == [str(a) for a, _ in listed]


def test_solve_link_reopens_the_same_result() -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["hand"] = CANONICAL
    at.query_params["preset"] = "plain"
    at.query_params["players"] = "2"
    at.run()
    no_crash(at)
    assert at.text_area(key="solve_text").value == CANONICAL
    assert at.selectbox(key="solve_preset").value == "plain"
    assert at.segmented_control(key="solve_players").value == 2
    expected = solver.solve(HAND, rules=solver.PRESETS["plain"], players=2, seed=2024)
    assert float(metric(at, "EV per hand").split()[0]) == pytest.approx(expected.ev, abs=0.01)


def test_solve_special_hand_banner() -> None:
    at = new_app()
    at.text_area(key="solve_text").input("2c 2d 5c 5d 7h 7s 9c 9d Jh Js Kc Kd Ah").run()
    at.button(key="solve_go").click().run()
    no_crash(at)
    banner = texts(at.success)
    assert "six pairs" in banner and "12 chi" in banner


def test_solve_deal_random_and_picker_agree() -> None:
    at = new_app()
    at.button(key="solve_deal").click().run()
    no_crash(at)
    dealt = at.text_area(key="solve_text").value
    assert dealt is not None
    typed = solver.parse_cards(dealt)
    assert len(set(typed)) == 13
    picked = component_data(at, "solve_picker")["value"]["selected"]
    assert sorted(picked) == sorted(str(c) for c in typed)
    assert metric(at, "EV per hand").endswith("chi")


@pytest.mark.parametrize("bad", HOSTILE)
def test_solve_bad_input_shows_an_error_and_keeps_the_text(bad: str) -> None:
    at = new_app()
    at.text_area(key="solve_text").input(bad).run()
    at.button(key="solve_go").click().run()
    no_crash(at)
    assert at.error, f"no error for {bad[:40]!r}"
    assert at.text_area(key="solve_text").value == bad
    assert "<script>" not in texts(at.markdown)
    if len(bad) > 300:
        assert "limit" in texts(at.error)


def test_solve_bad_link_parameters_do_not_crash() -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["hand"] = "<b>" * 500
    at.query_params["preset"] = "nonsense"
    at.query_params["players"] = "99"
    at.run()
    no_crash(at)
    assert "not usable" in texts(at.error)


# --- Practice --------------------------------------------------------------------------------


def deal_practice(at: AppTest, seed: str, kind: str = "Random") -> None:
    at.switch_page("app/pages/practice.py").run()
    at.segmented_control(key="practice_kind").set_value(kind).run()
    at.text_input(key="practice_seed").input(seed).run()
    at.button(key="practice_deal_button").click().run()
    no_crash(at)


def test_practice_seeded_drill_repeats() -> None:
    at = new_app()
    deal_practice(at, "1234")
    first = at.session_state["practice_deal"]["hand"]
    at.button(key="practice_deal_button").click().run()  # the drill goes on: hand 2
    second = at.session_state["practice_deal"]
    assert second["hand"] != first and second["seed"] == 1234 and second["number"] == 2
    again = new_app()  # another player, same seed: the same hands in the same order
    deal_practice(again, "1234")
    assert again.session_state["practice_deal"]["hand"] == first
    again.button(key="practice_deal_button").click().run()
    assert again.session_state["practice_deal"]["hand"] == second["hand"]
    again.button(key="practice_restart").click().run()
    assert again.session_state["practice_deal"]["hand"] == first
    # a random hand shows its seed; typing that seed replays it
    rnd = new_app()
    deal_practice(rnd, "")
    shown = rnd.session_state["practice_deal"]
    replay = new_app()
    deal_practice(replay, str(shown["seed"]))
    assert replay.session_state["practice_deal"]["hand"] == shown["hand"]


def test_practice_editor_gets_the_deal_and_follows_the_rows() -> None:
    at = new_app()
    deal_practice(at, "42")
    data = component_data(at, "practice_editor")
    assert data["view"] == "editor" and [len(r) for r in data["deal"]] == [3, 5, 5]
    assert data["value"]["rows"] == at.session_state["practice_rows"] == data["deal"]
    assert data["labels"]["front"] == "Front" and len(data["categories"]) == 9
    assert data["wheel"] == "second" and data["strict"] is False
    assert at.button(key="practice_submit_button").label == "Submit my set"
    assert not at.button(key="practice_submit_button").disabled
    # a page (or the browser, through the editor's callback) that changes the rows moves the cards
    rows = at.session_state["practice_rows"]
    at.session_state["practice_rows"] = [rows[0] + rows[2][:1], rows[1], rows[2][1:]]
    at.run()
    no_crash(at)
    assert [len(r) for r in component_data(at, "practice_editor")["value"]["rows"]] == [4, 5, 4]
    assert at.button(key="practice_submit_button").disabled  # 4 + 5 + 4 is not a set


def test_practice_link_with_a_seed_deals_the_same_hand() -> None:
    first = new_app()
    first.query_params["seed"] = "31"
    first.query_params["players"] = "2"
    first.switch_page("app/pages/practice.py").run()
    no_crash(first)
    hand = first.session_state["practice_deal"]["hand"]
    assert first.session_state["practice_players"] == 2
    assert first.query_params["seed"] == "31" and first.query_params["players"] == "2"
    again = new_app()
    again.query_params["seed"] = "31"
    again.query_params["players"] = "2"
    again.switch_page("app/pages/practice.py").run()
    assert again.session_state["practice_deal"]["hand"] == hand
    other = new_app()
    other.query_params["seed"] = "32"
    other.switch_page("app/pages/practice.py").run()
    assert other.session_state["practice_deal"]["hand"] != hand


def test_practice_submit_grades_and_counts_the_session() -> None:
    at = new_app()
    deal_practice(at, "7")
    hand = at.session_state["practice_deal"]["hand"]
    # first hand: play the solver's best set -> graded best, nothing lost
    best = solver.solve(hand, players=4, seed=2024).best
    at.session_state["practice_rows"] = [[str(c) for c in row] for row in best.rows]
    at.run()
    at.button(key="practice_submit_button").click().run()
    no_crash(at)
    result = at.session_state["practice_result"]
    assert result["grade"] == "best" and result["lost"] == 0
    assert "Best" in texts(at.success)
    # second hand: submit a deliberate foul -> graded foul
    at.button(key="practice_deal_button").click().run()
    at.session_state["practice_rows"] = [
        ["Ah", "Ad", "Ac"],
        ["2c", "3d", "4h", "6s", "7c"],
        ["9s", "Jd", "Qc", "5h", "8d"],
    ]
    at.session_state["practice_deal"] = {
        "seed": 0,
        "number": 1,
        "kind": "Random",
        "hand": "Ah Ad Ac Qc Jd 9s 8d 7c 6s 5h 4h 3d 2c",
        "note": "",
    }
    at.run()
    at.button(key="practice_submit_button").click().run()
    no_crash(at)
    assert at.session_state["practice_result"]["grade"] == "foul"
    assert "Foul" in texts(at.error)
    assert metric(at, "Hands") == "2"
    assert metric(at, "Best plays") == "50%"
    assert len(at.get("vega_lite_chart")) == 1  # the session chart
    assert "blunder" in texts(at.markdown)  # thresholds documented on the page


def test_practice_hard_deal() -> None:
    at = new_app()
    deal_practice(at, "5", kind="Hard")
    assert at.session_state["practice_deal"]["kind"] == "Hard"
    assert len(at.session_state["practice_rows"][2]) == 5


def test_practice_bad_seed_shows_an_error() -> None:
    at = new_app()
    deal_practice(at, "<script>1</script>")
    assert "seed" in texts(at.error).lower()
    assert at.text_input(key="practice_seed").value == "<script>1</script>"


# --- Compare ---------------------------------------------------------------------------------


def test_compare_two_sets_side_by_side() -> None:
    at = new_app()
    at.switch_page("app/pages/compare.py").run()
    at.text_area(key="compare_hand_text").input(PAIRS_HAND).run()
    good = "2s 2c 3h | 9h 9c 7d 7s 5c | Ah Ad Kc Ks 4d"
    foul = "2s 2c 3h | Ah Ad Kc Ks 4d | 9h 9c 7d 7s 5c"
    at.text_input(key="compare_set_0_0").input(good).run()
    at.text_input(key="compare_set_0_1").input(foul).run()
    no_crash(at)
    assert not at.error
    table = at.table[0].value
    assert list(table.columns)[1:] == ["Set A", "Set B"]
    assert "FOUL" in list(table["Set B"])
    expected = solver.evaluate(PAIRS_HAND, Arrangement.parse(good), players=4, seed=2024).ev
    assert float(table["Set A"][0]) == pytest.approx(expected, abs=0.01)
    assert table["Set A"][1] == "best"
    assert float(table["Set B"][1]) < 0


def test_compare_shows_rows_high_to_low_whatever_the_typed_order() -> None:
    at = new_app()
    at.switch_page("app/pages/compare.py").run()
    at.text_area(key="compare_hand_text").input(PAIRS_HAND).run()
    at.text_input(key="compare_set_0_0").input("3h 2s 2c | 5c 9h 7d 9c 7s | 4d Ks Ah Kc Ad").run()
    at.text_input(key="compare_set_0_1").input("2s 2c 3h | 9h 9c 7d 7s 5c | Ah Ad Kc Ks 4d").run()
    no_crash(at)
    shown = [[c for row in component_data(at, f"compare_set_rows_{x}")["rows"] for c in row["cards"]] for x in "AB"]
    assert shown[0] == shown[1]
    assert shown[0][:3] == ["3h", "2s", "2c"]


def test_compare_adds_a_solver_alternative() -> None:
    at = new_app()
    at.switch_page("app/pages/compare.py").run()
    at.text_area(key="compare_hand_text").input(HAND).run()
    at.button(key="compare_add_alt").click().run()
    at.selectbox(key="compare_pick").set_value(1).run()
    at.button(key="compare_add_alt").click().run()
    no_crash(at)
    assert len([s for s in at.session_state["compare_sets"] if s]) == 2
    assert list(at.table[0].value.columns)[1:] == ["Set A", "Set B"]


@pytest.mark.parametrize("bad", HOSTILE[:3] + ["As Kd Qc | Jh Ts 9d 8c 7h | 6s 5d 4c 3h 3h", "a | b"])
def test_compare_bad_input_shows_an_error(bad: str) -> None:
    at = new_app()
    at.switch_page("app/pages/compare.py").run()
    at.text_input(key="compare_set_0_0").input(bad).run()
    no_crash(at)
    assert at.error
    assert at.text_input(key="compare_set_0_0").value == bad


def test_compare_set_of_another_hand_is_refused() -> None:
    at = new_app()
    at.switch_page("app/pages/compare.py").run()
    at.text_area(key="compare_hand_text").input(HAND).run()
    at.text_input(key="compare_set_0_0").input("Ah Ad 3h | 9h 9c 7d 7s 5c | 2s 2c Kc Ks 4d").run()
    no_crash(at)
    assert "not the same hand" in texts(at.error)


# --- Rules and navigation ---------------------------------------------------------------------


def test_rules_page_names_hands_in_three_languages() -> None:
    at = new_app()
    at.switch_page("app/pages/rules.py").run()
    no_crash(at)
    tables = [t.value for t in at.table]
    names = next(t for t in tables if "Khmer" in t.columns and "English" in t.columns)
    assert "straight flush" in list(names["English"])
    assert "thùng phá sảnh" in list(names["Vietnamese"])
    assert "ធុងបំផ្លាញសាញ់" in list(names["Khmer"])
    presets = tables[-1]
    assert {"Vietnamese", "Seed", "Plain", "Four-two"} <= set(presets.columns)
    specials = next(t for t in tables if "Special hand" in t.columns)
    # three wrapping columns, the value right after the name: no sideways scroll on a phone
    assert list(specials.columns) == ["Special hand", "Chi from each", "What it is"]
    assert "39" in list(specials["Chi from each"])
    # the specials' Vietnamese and Khmer names are in a names table of their own
    listed = list(specials["Special hand"])
    special_names = next(t for t in tables if "English" in t.columns and list(t["English"]) == listed)
    assert list(special_names.columns) == ["English", "Vietnamese", "Khmer"]
    assert all(special_names["Khmer"])
    at.toggle(key="rules_show_all").set_value(True).run()
    every_option = at.table[-1].value
    assert len(every_option) > len(presets)
    assert "None" not in every_option.to_string()  # input aliases are not options
    # one example row of each category, strongest first, drawn as cards
    examples = component_data(at, "rules_examples")["rows"]
    assert [r["label"].lower() for r in examples] == [e for e, _, _ in reversed(solver.hands.CATEGORY_NAMES)]
    assert all(len(r["cards"]) == 5 for r in examples)


def test_state_survives_a_page_switch() -> None:
    at = new_app()
    at.text_area(key="solve_text").input("As Kd").run()
    at.switch_page("app/pages/rules.py").run()
    at.switch_page("app/pages/solve.py").run()
    assert at.text_area(key="solve_text").value == "As Kd"


def test_solve_sends_its_top_sets_to_compare() -> None:
    at = new_app()
    at.text_area(key="solve_text").input(HAND).run()
    at.button(key="solve_go").click().run()
    at.button(key="solve_to_compare").click().run()
    no_crash(at)
    assert at.title[0].value == "Compare sets"
    assert at.text_area(key="compare_hand_text").value == CANONICAL
    table = at.table[0].value
    assert list(table.columns)[1:] == ["Set A", "Set B", "Set C"]
    assert table["Set A"][1] == "best"


def test_compare_scores_the_sets_at_the_table_solve_found_them_for() -> None:
    at = new_app()
    at.switch_page("app/pages/compare.py").run()  # Compare has settings of its own before
    at.switch_page("app/pages/solve.py").run()
    at.text_area(key="solve_text").input(HAND).run()
    at.selectbox(key="solve_preset").select("four-two").run()
    at.segmented_control(key="solve_players").set_value(2).run()
    at.segmented_control(key="solve_field").set_value("strong").run()
    at.button(key="solve_go").click().run()
    best = solver.solve(solver.parse_cards(HAND), solver.PRESETS["four-two"], 2, field="strong").best
    at.button(key="solve_to_compare").click().run()
    no_crash(at)
    assert at.selectbox(key="compare_preset").value == "four-two"
    assert at.segmented_control(key="compare_players").value == 2
    assert at.segmented_control(key="compare_mode").value == "fast"
    assert at.segmented_control(key="compare_field").value == "strong"
    chosen = at.text_input(key="compare_set_1_0").value
    assert chosen is not None and Arrangement.parse(chosen) == best


# --- whatever is typed ---------------------------------------------------------------------------

PIECES = ["As", "10h", "T♦", "k♣", "|", "/", ",", " ", "<b>", "</script>", "**", ":red[", "$", "\n", "BJ", "1s", "Zz"]
TYPED = hs.one_of(hs.text(max_size=80), hs.lists(hs.sampled_from(PIECES), max_size=30).map("".join))


def test_no_traceback_whatever_is_typed() -> None:
    at = new_app()
    compare = new_app()
    compare.switch_page("app/pages/compare.py").run()

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(TYPED)
    def check(text: str) -> None:
        at.text_area(key="solve_text").input(text).run()
        at.button(key="solve_go").click().run()
        no_crash(at)
        compare.text_input(key="compare_set_0_0").input(text).run()
        compare.text_input(key="compare_set_0_1").input(text + " | x").run()
        no_crash(compare)

    check()


def test_ten_practice_hands_fill_the_statistics() -> None:
    at = new_app()
    deal_practice(at, "99")
    for n in range(10):
        if n:
            at.button(key="practice_next").click().run()
        at.button(key="practice_submit_button").click().run()
        no_crash(at)
        assert at.session_state["practice_result"]["grade"] in {
            "best", "good", "inaccuracy", "mistake", "blunder", "foul"
        }  # fmt: skip
    assert metric(at, "Hands") == "10"
    from store import get_store  # the statistics are the profile's recorded hands

    history = list(reversed(get_store().practice_records(at.session_state["profile_id"])))
    assert [h.number for h in history] == list(range(1, 11))
    assert len({h.seed for h in history}) == 1  # one drill
    average = sum(h.chi_lost for h in history) / 10
    assert metric(at, "Avg chi lost") == f"{average:.2f}"


def test_a_10000_character_paste_reaches_the_page_and_is_refused_with_a_message() -> None:
    # Streamlit drops a paste longer than a widget's max_chars without a word, so no text
    # box may have a cap: the pages themselves refuse long text and say why.
    long = "As Kd " * 1667
    at = new_app()
    assert not at.text_area(key="solve_text").proto.max_chars
    at.text_area(key="solve_text").input(long).run()
    at.button(key="solve_go").click().run()
    no_crash(at)
    assert "10,002 characters long" in texts(at.error)
    at.switch_page("app/pages/compare.py").run()
    assert not at.text_area(key="compare_hand_text").proto.max_chars
    assert not at.text_input(key="compare_set_0_0").proto.max_chars
    at.text_input(key="compare_set_0_0").input(long).run()
    no_crash(at)
    assert "limit" in texts(at.error)
    at.switch_page("app/pages/practice.py").run()
    assert not at.text_input(key="practice_seed").proto.max_chars


def test_chi_gaps_never_read_minus_zero() -> None:
    from app.formats import chi_gap

    assert [chi_gap(d) for d in (0.0, -0.0017, 0.001, -0.05, -1.234)] == ["±0.00", "-<0.01", "+<0.01", "-0.05", "-1.23"]
    # this hand's top sets differ by kicker swaps worth under 0.01 chi (they read "-0.00" before)
    at = new_app()
    at.segmented_control(key="solve_players").set_value(2).run()
    at.selectbox(key="solve_preset").set_value("plain").run()
    at.text_area(key="solve_text").input(HAND).run()
    at.button(key="solve_go").click().run()
    no_crash(at)
    html = texts(at.markdown)
    assert "vs best" in html and not re.search(r"[-+]0\.00 chi vs best", html)


def test_four_colour_deck_reaches_every_card_and_survives_a_page_switch() -> None:
    at = new_app()
    at.text_area(key="solve_text").input(HAND).run()
    at.button(key="solve_go").click().run()
    assert component_data(at, "solve_picker")["four_colour"] is False
    at.toggle(key="solve_four_colour").set_value(True).run()
    no_crash(at)
    assert component_data(at, "solve_picker")["four_colour"] is True
    assert component_data(at, "solve_best_rows")["four_colour"] is True
    deal_practice(at, "8")
    assert component_data(at, "practice_editor")["four_colour"] is True
    assert at.toggle(key="practice_four_colour").value is True
