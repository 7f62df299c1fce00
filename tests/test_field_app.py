"""AppTest checks of the opponent-field selector on Solve, Practice and Play.

The hand below has a different best set for each field ("vietnamese", 4 players), so a
page that answered for the wrong field, or from a cache entry of another field, shows a
different set and EV than ``solver.solve(..., field=...)`` gives for the field chosen.
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app.grading import grade_for, same_rows
from solver import evaluate, solve
from solver.fields import DEFAULT_FIELD, FIELDS
from solver.scoring import Arrangement
from solver.table import TableConfig
from tests.app_support import no_crash, open_page
from tests.field_support import FIELD_HAND

SEED = 2024  # the app's solver seed
LABELS = {"population": "Mixed", "strong": "Strong", "beginners": "Beginners"}


def errors(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in at.error)


def ev_metric(at: AppTest) -> tuple[float, str]:
    """The Solve page's EV (a number) and the help text under it."""
    found = [m for m in at.metric if m.label == "EV per hand"]
    assert found, [m.label for m in at.metric]
    return float(found[0].value.split()[0]), found[0].proto.help


def shown_best(at: AppTest) -> Arrangement:
    """The best set the Solve page draws (from the data it hands the card component)."""
    element = next(e for e in at.get("bidi_component") if e.key == "solve_best_rows")
    proto = element.proto
    data = json.loads(proto.mixed.json if proto.WhichOneof("data") == "mixed" else proto.json)
    return Arrangement(*(row["cards"] for row in data["rows"]))


def same_set(a: Arrangement, b: Arrangement) -> bool:
    return all(set(x) == set(y) for x, y in zip(a.rows, b.rows))


def test_the_hand_here_has_a_different_best_set_in_each_field() -> None:
    bests = {f: solve(FIELD_HAND, "vietnamese", 4, field=f, seed=SEED) for f in FIELDS}
    assert len({str(s.best) for s in bests.values()}) == 3
    assert len({round(s.ev, 2) for s in bests.values()}) == 3


# --- Solve -----------------------------------------------------------------------------------


def test_solve_follows_the_field_back_and_forth_never_showing_another_fields_answer() -> None:
    at = open_page("app/pages/solve.py", hand=FIELD_HAND, preset="vietnamese", players="4")
    assert at.segmented_control(key="solve_field").value == DEFAULT_FIELD
    assert [LABELS[f] for f in FIELDS] == list(at.segmented_control(key="solve_field").options)
    expected = {f: solve(FIELD_HAND, "vietnamese", 4, field=f, seed=SEED) for f in FIELDS}
    for field in ("population", "strong", "beginners", "population", "beginners", "strong", "population"):
        at.segmented_control(key="solve_field").set_value(field).run()
        no_crash(at)
        ev, help_text = ev_metric(at)
        assert ev == pytest.approx(expected[field].ev, abs=0.005), field
        assert same_set(shown_best(at), expected[field].best), field
        # the help names the opponents this answer assumes
        assert f"Opponents: {LABELS[field]}," in help_text
        assert at.query_params.get("field") == (None if field == DEFAULT_FIELD else field)


def test_solve_deep_mode_deals_opponents_of_the_field() -> None:
    at = open_page("app/pages/solve.py", hand=FIELD_HAND, preset="vietnamese", players="4", mode="deep")
    for field in ("strong", "beginners"):
        at.segmented_control(key="solve_field").set_value(field).run()
        no_crash(at)
        deep = solve(FIELD_HAND, "vietnamese", 4, mode="deep", top=5, seed=SEED, field=field)
        ev, help_text = ev_metric(at)
        assert ev == pytest.approx(deep.ev, abs=0.005)
        assert same_set(shown_best(at), deep.best)
        assert "Deep mode deals the unseen cards to such opponents" in help_text


@pytest.mark.parametrize("field", ["strong", "beginners"])
def test_solve_link_with_a_field_selects_it(field: str) -> None:
    at = open_page("app/pages/solve.py", hand=FIELD_HAND, preset="vietnamese", players="4", field=field)
    assert at.segmented_control(key="solve_field").value == field
    assert ev_metric(at)[0] == pytest.approx(solve(FIELD_HAND, "vietnamese", 4, field=field, seed=SEED).ev, abs=0.005)
    assert at.query_params["field"] == field  # kept in the address, so the link still reproduces it


def test_solve_link_with_an_unknown_field_warns_and_uses_the_rest_of_the_link() -> None:
    at = open_page("app/pages/solve.py", hand=FIELD_HAND, preset="plain", players="2", field="pros")
    message = errors(at)
    assert "'pros'" in message and "population / strong / beginners" in message and "Mixed" in message
    assert at.segmented_control(key="solve_field").value == DEFAULT_FIELD
    assert at.selectbox(key="solve_preset").value == "plain"  # the rest of the link still applies
    assert at.segmented_control(key="solve_players").value == 2
    expected = solve(FIELD_HAND, "plain", 2, seed=SEED)
    assert ev_metric(at)[0] == pytest.approx(expected.ev, abs=0.005)
    assert "field" not in at.query_params  # the address now holds what is shown


def test_unknown_field_warning_is_translated() -> None:
    at = open_page("app/pages/solve.py", hand=FIELD_HAND, field="pros", lang="vi")
    message = errors(at)
    assert "'pros'" in message and "liên kết" in message and "Hỗn hợp" in message


# --- Practice --------------------------------------------------------------------------------


def submit_practice(at: AppTest, hand: str, rows: Arrangement) -> dict[str, object]:
    """Put ``hand`` up as the dealt hand, set ``rows`` as the editor would, and submit."""
    at.session_state["practice_deal"] = {"seed": 0, "number": 1, "kind": "Random", "hand": hand, "note": ""}
    if "practice_result" in at.session_state:
        del at.session_state["practice_result"]
    at.session_state["practice_rows"] = [[str(c) for c in row] for row in rows.rows]
    at.run()
    at.button(key="practice_submit_button").click().run()
    no_crash(at)
    return at.session_state["practice_result"]  # type: ignore[no-any-return]


def test_practice_grades_against_the_field_chosen() -> None:
    at = open_page("app/pages/practice.py", seed="1")
    assert at.segmented_control(key="practice_field").value == DEFAULT_FIELD
    # the beginners' best set: best against beginners, a loss against the other fields
    mine = solve(FIELD_HAND, "vietnamese", 4, field="beginners", seed=SEED).best
    grades = {}
    for field in ("strong", "beginners", "population"):
        at.segmented_control(key="practice_field").set_value(field).run()
        result = submit_practice(at, FIELD_HAND, mine)
        best = solve(FIELD_HAND, "vietnamese", 4, field=field, seed=SEED)
        yours = evaluate(FIELD_HAND, mine, "vietnamese", 4, field=field, seed=SEED)
        assert result["field"] == field
        assert result["best_ev"] == pytest.approx(best.ev, abs=1e-9)
        assert result["ev"] == pytest.approx(yours.ev, abs=1e-9)
        assert Arrangement.parse(str(result["best"])) == best.best
        if field != "beginners":
            assert result["lost"] == pytest.approx(best.ev - yours.ev, abs=1e-9)
        grades[field] = result["grade"]
        assert grades[field] == grade_for(best.ev - yours.ev, yours.valid, same_rows(mine, best.best))
        assert f"Graded against these opponents: {LABELS[field]}." in "\n".join(c.value for c in at.caption)
    # best against beginners, a real loss against the other two (how much depends on the tables)
    assert grades["beginners"] == "best"
    assert grades["strong"] in ("mistake", "blunder") and grades["population"] in ("mistake", "blunder")


def test_practice_link_with_a_field_selects_it_and_keeps_it_in_the_address() -> None:
    at = open_page("app/pages/practice.py", seed="31", field="beginners")
    assert at.segmented_control(key="practice_field").value == "beginners"
    assert at.query_params["field"] == "beginners" and at.query_params["seed"] == "31"
    at.segmented_control(key="practice_field").set_value("strong").run()
    assert at.query_params["field"] == "strong"  # a change goes back into the link
    at.segmented_control(key="practice_field").set_value("population").run()
    assert "field" not in at.query_params
    # a link with only the field (no seed to deal) selects it too
    bare = open_page("app/pages/practice.py", field="strong")
    assert bare.segmented_control(key="practice_field").value == "strong"


def test_practice_link_with_an_unknown_field_warns_and_still_deals_the_hand() -> None:
    plain = open_page("app/pages/practice.py", seed="31", players="2")
    at = open_page("app/pages/practice.py", seed="31", players="2", field="pros")
    assert "'pros'" in errors(at) and "population / strong / beginners" in errors(at)
    assert at.segmented_control(key="practice_field").value == DEFAULT_FIELD
    assert at.session_state["practice_deal"]["hand"] == plain.session_state["practice_deal"]["hand"]
    assert at.session_state["practice_players"] == 2


# --- Play ------------------------------------------------------------------------------------


def reveal_play(at: AppTest) -> dict[str, object]:
    at.button(key="play_reveal_button").click().run()
    no_crash(at)
    record = at.session_state["play_records"][-1]
    return record.extra["review"]  # type: ignore[no-any-return]


def test_play_reviews_and_sets_the_computer_seats_against_the_field() -> None:
    at = open_page("app/pages/play.py", seed="4242", preset="vietnamese", players="2", levels="club", field="strong")
    assert at.segmented_control(key="play_field").value == "strong"
    table = TableConfig(seed=4242, preset="vietnamese", levels=("club",), field="strong")
    assert at.session_state["play_config"] == table
    hands = table.deal(1)
    # the Club seat plays the fast solver's best set against strong opponents
    assert at.session_state["play_hand"]["sets"] == [str(solve(hands[1], "vietnamese", 2, field="strong").best)]
    review = reveal_play(at)
    best = solve(hands[0], "vietnamese", 2, field="strong", seed=SEED)
    other = solve(hands[0], "vietnamese", 2, field=DEFAULT_FIELD, seed=SEED)
    assert review["field"] == "strong"
    assert review["best_ev"] == pytest.approx(best.ev, abs=1e-9)
    assert review["best_ev"] != pytest.approx(other.ev, abs=1e-6)  # it is not the default field's answer
    shown = "\n".join(str(m.value) for m in at.markdown)
    assert "graded against these opponents: Strong" in shown
    assert "field=strong" in shown  # the Solve and Practice links carry the field
    assert at.query_params["field"] == "strong"


def test_play_link_with_an_unknown_field_warns_and_plays_against_the_default() -> None:
    at = open_page("app/pages/play.py", seed="4242", players="2", levels="club", field="pros")
    assert "'pros'" in errors(at) and "population / strong / beginners" in errors(at)
    assert at.session_state["play_config"] == TableConfig(seed=4242, levels=("club",))  # seed and seats kept
    assert at.session_state["play_config"].field == DEFAULT_FIELD
    assert "field" not in at.query_params


def test_play_field_applies_from_the_next_session() -> None:
    at = open_page("app/pages/play.py", seed="9", players="2", levels="club")
    at.segmented_control(key="play_field").set_value("beginners").run()
    assert at.session_state["play_config"].field == DEFAULT_FIELD  # the session under way keeps its field
    at.text_input(key="play_seed_text").input("9").run()
    at.button(key="play_new").click().run()
    no_crash(at)
    assert at.session_state["play_config"] == TableConfig(seed=9, levels=("club",), field="beginners")
    assert at.query_params["field"] == "beginners"


# --- Compare ---------------------------------------------------------------------------------


def test_compare_scores_the_sets_against_the_field_chosen() -> None:
    at = open_page("app/pages/compare.py")
    sets = [solve(FIELD_HAND, "vietnamese", 4, field=f, seed=SEED).best for f in ("strong", "beginners")]
    at.text_area(key="compare_hand_text").input(FIELD_HAND).run()
    at.text_input(key="compare_set_0_0").input(str(sets[0])).run()
    at.text_input(key="compare_set_0_1").input(str(sets[1])).run()
    for field in ("strong", "beginners", "population"):
        at.segmented_control(key="compare_field").set_value(field).run()
        no_crash(at)
        table = at.table[0].value
        for column, arrangement in zip(("Set A", "Set B"), sets):
            expected = evaluate(FIELD_HAND, arrangement, "vietnamese", 4, field=field, seed=SEED).ev
            assert float(table[column][0]) == pytest.approx(expected, abs=0.005), (field, column)
        # each field's own best set leads against that field
        leader = {"strong": "Set A", "beginners": "Set B"}.get(field)
        if leader:
            assert table[leader][1] == "best"
