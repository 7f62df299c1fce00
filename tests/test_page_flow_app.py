"""AppTest checks of issue #27 on the Solve, Practice and Play pages: what the pages hand
the card component (the best set's ``data-best-set``, labelled alternatives, scrolling),
cards typed without separators, Deep mode's ± and where seeds went (Share this deal)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app.widgets import canonical_hand
from solver import parse_cards, solve
from solver.scoring import Arrangement
from tests.test_app_pages import component_data, metric, new_app, no_crash, texts

RUN = "AsKdQcJh10s9d8c7h6s5d4c3h3s"  # 13 cards typed without a separator
HAND = "As Kd Qc Jh 10s 9d 8c 7h 6s 5d 4c 3h 3s"


def solved(text: str, mode: str = "fast") -> AppTest:
    at = new_app()
    at.segmented_control(key="solve_mode").set_value(mode).run()
    at.text_area(key="solve_text").input(text).run()
    at.button(key="solve_go").click().run()
    no_crash(at)
    return at


def test_cards_typed_without_separators_are_read() -> None:
    at = solved(RUN)
    assert not at.error
    assert at.session_state["solve_hand"] == canonical_hand(parse_cards(HAND))
    best = component_data(at, "solve_best_rows")
    assert best["attrs"]["data-best-set"] == str(solve(parse_cards(HAND), "vietnamese", players=4).best)
    # a new answer asks the component to bring it into view
    assert best["scroll"] and "vietnamese" in best["scroll"]


@pytest.mark.parametrize("text", ["As Kd BJ Qc", "AsKdXx", "As Kd Qc Jh 10s 9d 8c 7h 6s 5d 4c 3h RJ"])
def test_a_card_error_never_mentions_jokers(text: str) -> None:
    at = solved(text)
    shown = texts(at.error)
    assert "not a card" in shown
    assert "joker" not in shown.lower() and "BJ / RJ" not in shown
    assert at.text_area(key="solve_text").value == text  # what was typed is kept


def test_alternatives_name_their_rows_and_hands_one_row_a_line() -> None:
    at = solved(HAND)
    alternatives = [e for e in at.get("bidi_component") if (e.key or "").startswith("solve_alt_")]
    assert len(alternatives) >= 2
    for element in alternatives:
        data = component_data(at, str(element.key))
        assert data["small"] and not data["compact"]  # one row a line, not 13 cards wrapped 8 + 5
        assert [row["label"] for row in data["rows"]] == ["Front", "Middle", "Back"]
        assert all(row["note"] for row in data["rows"])  # each row's hand name
        cards = [c for row in data["rows"] for c in row["cards"]]
        assert sorted(cards) == sorted(str(c) for c in parse_cards(HAND))


def test_deep_mode_shows_its_estimate_with_its_error_and_says_why_fast_differs() -> None:
    at = solved(HAND, mode="deep")
    value = metric(at, "EV per hand")
    assert "±" in value
    error = float(value.split("±")[1].split()[0])
    assert 0 < error < 2
    captions = texts(at.caption)
    assert "model of how such opponents' rows fall" in captions and "sampled tables" in captions
    fast = solved(HAND)
    assert "±" not in metric(fast, "EV per hand")


def test_practice_folds_its_settings_and_keeps_the_seed_behind_share() -> None:
    at = new_app()
    at.switch_page("app/pages/practice.py").run()
    at.button(key="practice_deal_button").click().run()
    no_crash(at)
    deal = at.session_state["practice_deal"]
    assert at.session_state["practice_settings_open"] is False
    assert str(deal["seed"]) not in texts(at.caption)  # no developer detail under the hand
    expanders = [e.label for e in at.expander]
    assert any("players" in label and "change" in label for label in expanders), expanders
    editor = component_data(at, "practice_editor")
    assert editor["scroll"]
    shared = texts(at.markdown)
    assert f"Seed {deal['seed']}" in shared


def test_play_keeps_the_seed_behind_share_and_its_settings_closed() -> None:
    at = new_app()
    at.query_params["seed"] = "163057"
    at.switch_page("app/pages/play.py").run()
    no_crash(at)
    assert "163057" not in texts(at.caption) and "link to replay" not in texts(at.caption)
    assert "Session seed 163057" in texts(at.markdown)
    settings = [e for e in at.expander if "change" in e.label]
    assert settings and "Vietnamese rules" in settings[0].label
    hand = at.session_state["play_hand"]
    editor = [e for e in at.get("bidi_component") if (e.key or "").startswith("play_editor_")]
    data = component_data(at, str(editor[0].key))
    assert data["scroll"] and data["deal"] == hand["start"]
    assert Arrangement(*hand["start"]).keys("vietnamese")  # a set of 3 + 5 + 5
