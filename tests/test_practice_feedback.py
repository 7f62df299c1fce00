"""The Practice page's feedback after a submission: one ``data-theme`` element per theme,
the sentences and the EV parts (issue 25's contract), in every language."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

import solver
from solver import strongest_back_first
from tests.test_app_pages import new_app, no_crash, texts

#: The Beginner set of this hand loses several chi: the best set splits the back's full
#: house, puts the pair in front and keeps the trips in the middle.
HAND = "Ah Kh Qh Jd Js Th 9s 5s 3s 3h 3c 2s 2h"


def submit(lang: str, arrangement: solver.Arrangement) -> AppTest:
    at = new_app()
    at.session_state["lang"] = lang
    at.switch_page("app/pages/practice.py").run()
    at.session_state["practice_deal"] = {"seed": 0, "number": 1, "kind": "Random", "hand": HAND, "note": ""}
    at.session_state["practice_rows"] = [[str(c) for c in row] for row in arrangement.rows]
    at.run()
    at.button(key="practice_submit_button").click().run()
    no_crash(at)
    return at


@pytest.mark.parametrize("lang", ["en", "vi", "km"])
def test_a_losing_set_shows_one_data_theme_element_per_theme(lang: str) -> None:
    at = submit(lang, strongest_back_first(HAND))
    result = at.session_state["practice_result"]
    assert result["lost"] > 1.0
    ids = result["themes"]
    assert ids and all(isinstance(i, str) for i in ids)
    assert {"broken-full-house", "trips-placement", "pair-in-front"} <= set(ids)
    markup = texts(at.markdown)
    assert re.findall(r'data-theme="([a-z-]+)"', markup) == ids
    # the sentences: the leading theme, then what the gap is made of
    assert re.search(r"\d", markup)
    if lang == "en":
        assert "Worth " in markup and "chi" in markup


def test_the_best_set_shows_no_theme() -> None:
    best = solver.solve(HAND, players=4, seed=2024).best
    at = submit("en", best)
    result = at.session_state["practice_result"]
    assert result["grade"] == "best" and result["themes"] == []
    assert "data-theme" not in texts(at.markdown)


def test_a_foul_is_named() -> None:
    at = submit("en", solver.Arrangement.parse("Ah Kh Qh | 3s 3h 3c 2s 2h | Jd Js Th 9s 5s"))
    result = at.session_state["practice_result"]
    assert result["grade"] == "foul" and result["themes"] == ["foul"]
    assert 'data-theme="foul"' in texts(at.markdown)
