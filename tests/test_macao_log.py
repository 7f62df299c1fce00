"""The Macao move log in the app's languages (app/macao_log.py).

In English each line is the engine's own (``Event.describe``) with real plurals where the
engine writes ``card(s)``, except the end of a round, which says no internal word; the
reader's seat reads "You"; in Vietnamese and Khmer every kind of event reads translated.
Events come from seeded rounds between bots, so every kind the engine logs is covered.
The short notes under each seat (``last_move``) and the moves since your own last one
(``since_your_turn``) are checked on the same rounds.
"""

from __future__ import annotations

import re

import pytest

from app import i18n
from app.macao_log import MOVES, describe, last_move, short, since_your_turn
from macao import Rules
from macao.bots import make_bot
from macao.simulate import play_round
from macao.state import Event
from solver.cards import Card, Suit, format_cards

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
        if event.kind == "end":  # the engine's reason word ("finish", "deadlock") is not for players
            assert describe(event).startswith("round over") and event.text not in describe(event)
            continue
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


INTERNAL = re.compile(r"\b(finish|deadlock|max_moves|P0)\b")


def test_the_reader_is_you_and_no_internal_word_shows(events: list[Event]) -> None:
    mine = [e for e in events if e.seat == 0 or e.target == 0]
    assert {e.kind for e in mine} >= {"play", "draw", "penalty", "finish"}
    for event in events:
        line = describe(event, format_cards, you=0)
        assert not INTERNAL.search(line), (event, line)
        if event.seat == 0 and event.kind in MOVES | {"finish"}:
            assert line.startswith("You "), line
    assert describe(Event("play", seat=0, cards=tuple(Card.parse(c) for c in ("7c", "7d"))), you=0) == "You play 7c 7d"
    assert describe(Event("call", seat=2, target=0, amount=5), you=0) == "P2 calls Macao on you: you draw 5"
    assert describe(Event("deal", amount=5, target=0), you=0) == "dealt 5 cards each; you start"
    assert describe(Event("end", text="deadlock")) == "round over: nobody could play or draw"


def test_short_notes_say_each_move_in_a_few_words() -> None:
    seven = tuple(Card.parse(c) for c in ("7c", "7d"))
    assert short(Event("play", seat=1, cards=seven)) == "played 7c 7d"
    assert short(Event("play", seat=1, cards=(Card.parse("Ah"),), suit=Suit.HEARTS)) == "played Ah, named ♥"
    assert short(Event("penalty", seat=1, amount=2, owed=2)) == "drew 2"
    assert short(Event("wait", seat=1, amount=0)) == "waits 1"
    assert short(Event("wait", seat=1, amount=1)) == "waits 2"
    assert short(Event("call", seat=1, target=0), you=0) == "caught you: Macao!"
    log = [Event("deal", amount=5, target=0), Event("play", seat=0, cards=seven[:1]),
           Event("play", seat=1, cards=seven[1:]), Event("penalty", seat=2, amount=3, owed=3)]  # fmt: skip
    assert last_move(log, 1) == "played 7d" and last_move(log, 2) == "drew 3" and last_move(log, 3) == ""
    assert since_your_turn(log, 0) == log[2:]
    assert since_your_turn(log[:1], 0) == []


def test_since_your_turn_holds_every_move_of_the_others_in_real_rounds(events: list[Event]) -> None:
    for n in range(1, len(events)):
        log = events[:n]
        since = since_your_turn(log, 0)
        assert all(e.seat != 0 or e.kind not in MOVES for e in since)
        own = [i for i, e in enumerate(log) if e.seat == 0 and e.kind in MOVES]
        after = log[own[-1] + 1 :] if own else log
        assert since == [e for e in after if e.kind not in ("deal", "start", "bottom")]
        if n > 200:
            break
