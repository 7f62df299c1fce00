"""The feedback's words (app/feedback.py): every theme has a name and a sentence in
English, Vietnamese and Khmer, and the sentence of what a gap is worth lists its parts."""

from __future__ import annotations

import re

import pytest

import app.i18n
from app import feedback
from solver import solve, strongest_back_first
from tests.test_themes import EXAMPLES, example_sets, found
from trainer.ev_parts import ev_parts
from trainer.themes import THEME_IDS, Theme

LANGS = ("en", "vi", "km")


@pytest.fixture
def speak(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def choose(lang: str) -> None:
        monkeypatch.setattr(app.i18n, "current_language", lambda: lang)

    return choose


def example_themes() -> list[Theme]:
    """The themes of every hand-made example, played and best both ways round."""
    out = []
    for theme_id, hand, played, better, rules, _side, _row in EXAMPLES:
        better = better or str(solve(hand, rules).best)
        out += [t for t in found(hand, played, better, rules) if t.id == theme_id]
        out += list(found(hand, better, played, rules))
    return out


def test_the_examples_give_every_theme_on_every_sentence_path() -> None:
    themes = example_themes()
    assert {t.id for t in themes} == set(THEME_IDS)
    assert {t.id for t in themes if t.side == "played"} >= {"broken-straight", "broken-flush", "split-two-pair",
                                                              "pair-in-front", "broken-full-house"}  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_every_theme_has_a_name_and_a_sentence(lang: str, speak) -> None:  # type: ignore[no-untyped-def]
    english = {}
    speak("en")
    themes = example_themes()
    for t in themes:
        english[t] = feedback.theme_sentence(t)
    names_en = feedback.theme_names()
    speak(lang)
    names = feedback.theme_names()
    assert set(names) == set(THEME_IDS)
    for t in themes:
        text = feedback.theme_sentence(t)
        assert text and "{" not in text and "}" not in text, text
        assert text.rstrip().endswith((".", "។")), text
        if lang != "en":
            assert text != english[t], f"{t.id} is not translated into {lang}: {text}"
            assert names[t.id] != names_en[t.id]


@pytest.mark.parametrize("lang", LANGS)
def test_the_worth_sentence_lists_the_largest_parts(lang: str, speak) -> None:  # type: ignore[no-untyped-def]
    speak(lang)
    hand, naive, best = example_sets(7)
    text = feedback.worth_sentence(ev_parts(hand, naive), ev_parts(hand, best))
    assert "{" not in text
    # front: 3-3 in front wins 61 % instead of 11 % (EN, VI and KM all write the percentages)
    assert re.search(r"61\s?%", text) and re.search(r"11\s?%", text), text
    if lang == "en":
        assert text.startswith("Worth 2.") and "from the front (wins 61% instead of 11%)" in text


def test_analyse_keeps_plain_data_that_reads_back() -> None:
    hand = EXAMPLES[4][1]
    naive, best = str(strongest_back_first(hand)), str(solve(hand).best)
    data = feedback.analyse(hand, naive, best, "vietnamese", 4, "population")
    assert data["themes"] == [t["id"] for t in data["facts"]]
    assert [t.id for t in feedback.themes_of(data)] == data["themes"]
    played, top = feedback.parts_of(data["played"]), feedback.parts_of(data["best"])
    assert played == ev_parts(hand, naive) and top == ev_parts(hand, best)
    sentences = feedback.sentences(data)
    assert len(sentences) == 2 and sentences[0] == feedback.theme_sentence(feedback.themes_of(data)[0])
    table = feedback.parts_table(played, top)
    assert table[-1][1] == pytest.approx(played.total) and table[-1][2] == pytest.approx(top.total)
