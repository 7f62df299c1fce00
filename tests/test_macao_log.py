"""The Macao move log in the app's languages (app/macao_log.py).

In English each line is the engine's own (``Event.describe``) with real plurals where the
engine writes ``card(s)``; in Vietnamese and Khmer every kind of event reads translated.
Events come from seeded rounds between bots, so every kind the engine logs is covered.
"""

from __future__ import annotations

import re

import pytest

from app import i18n
from app.macao_log import describe
from macao import Rules
from macao.bots import make_bot
from macao.simulate import play_round
from macao.state import Event
from solver.cards import format_cards

KINDS = {"deal", "start", "bottom", "play", "draw", "keep", "penalty", "wait", "skipped",
         "pass", "exposed", "call", "reshuffle", "finish", "end"}  # fmt: skip


def logged_events() -> list[Event]:
    events: list[Event] = []
    for seed in range(40):
        rules = Rules(players=2 + seed % 3, decks=1 + seed % 2, start_cards=5 + seed % 4)
        bots = [make_bot(level) for level in ("random", "easy", "normal", "random")]
        events.extend(play_round(rules, bots[: rules.players], seed).log)
    return events


@pytest.fixture(scope="module")
def events() -> list[Event]:
    return logged_events()


def plural_free(text: str) -> str:
    """The engine's ``card(s)`` and the app's ``card`` / ``cards`` read alike here."""
    return re.sub(r"\(s\)|(?<=card)s\b|(?<=turn)s\b", "", text)


def test_english_log_is_the_engines(events: list[Event]) -> None:
    seen = {e.kind for e in events}
    assert seen >= KINDS - {"exposed", "call", "bottom", "pass"}, KINDS - seen
    for event in events:
        assert plural_free(describe(event)) == plural_free(event.describe()), event
    one = Event("penalty", seat=1, amount=1, owed=1)
    assert describe(one) == "P1 draws 1 penalty card"
    assert describe(one._replace(amount=5, owed=5)) == "P1 draws 5 penalty cards"


def test_every_kind_is_written_by_the_app() -> None:
    """A kind the app falls back to the engine for would stay English in every language."""
    samples = [Event(kind, seat=1, amount=2, owed=3, target=2, text="finish") for kind in sorted(KINDS)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(i18n, "current_language", lambda: "vi")
        for event in samples:
            assert describe(event, format_cards) != event.describe(), event.kind


@pytest.mark.parametrize("lang", ["vi", "km"])
def test_log_reads_translated(events: list[Event], lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "current_language", lambda: lang)
    english_words = re.compile(r"\b(draws|plays|turn|card|stock|names|passes|keeps|round over|dealt|starts)\b")
    for event in events[:400]:
        line = describe(event)
        assert not english_words.search(line), (event, line)
        assert "Macao" in line or "Macao" not in event.describe()  # the game's word is kept
