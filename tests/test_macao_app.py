"""AppTest checks of the Macao page (app/pages/macao_round.py): start, play, draw, finish a round."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
PAGE = str(ROOT / "app" / "pages" / "macao_round.py")
# 2 players, you (P0) start: you get 5H 6H 8H 9H TH, the bot KS KC QS QC JS, the start
# card is 5C and the bot's draws are QD KD JD JC, none of which it can play.
SCRIPT = "5H KS 6H KC 8H QS 9H QC TH JS 5C QD KD JD JC"


def new_page(deck: str | None = SCRIPT, first: int | None = 0, **options: object) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state["macao_seed"] = 1
    at.session_state["macao_speed"] = "Instant"
    if deck is not None:
        at.session_state["macao_deck_order"] = deck
    if first is not None:
        at.session_state["macao_first_player"] = first
    for key, value in options.items():
        at.session_state[f"macao_{key}"] = value
    at.run()
    assert not at.exception
    return at


def state(at: AppTest):
    return at.session_state["macao_game"]["state"]


def hand_text(at: AppTest) -> list[str]:
    return [str(c) for c in state(at).hands[0]]


def table(at: AppTest) -> dict[str, Any]:
    """What the page handed to the card component's table (AppTest draws a placeholder)."""
    found = [e for e in at.get("bidi_component") if e.key == "macao_table"]
    assert found, "no table drawn"
    return json.loads(found[0].proto.json)  # type: ignore[no-any-return]


def tap(at: AppTest, text: str) -> None:
    """One tap on a card of your hand, as the component sends it (a one-tap play)."""
    view = table(at)
    i = view["hand"].index(text)
    assert view["playable"][i], f"{text} is not lit"
    assert view["one_tap"][i] is not None, f"{text} needs more than one tap"
    at.session_state["macao_event"] = {"kind": "action", "action_id": view["one_tap"][i], "move": view["move"]}
    at.run()
    assert not at.exception


def play(at: AppTest, *cards: str, suit: str | None = None) -> None:
    """Selected cards and the component's Play button (or a suit for an Ace)."""
    at.session_state["macao_event"] = {"kind": "play", "cards": list(cards), "suit": suit, "move": state(at).moves}
    at.run()
    assert not at.exception


def ok(at: AppTest) -> None:
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]


def test_page_starts_with_options_and_no_round():
    at = new_page(deck=None, first=None)
    labels = {w.label for w in at.slider} | {w.label for w in at.toggle} | {w.label for w in at.selectbox}
    for expected in ("Players", "Decks", "Starting cards", "Jokers", "Stop (7 cancels a penalty)", "Stacking",
                     "Ace is wild", "Start card", "End of round", "Bot level", "Game speed"):  # fmt: skip
        assert expected in labels
    assert any("New round" in i.value for i in at.info)


def test_start_play_and_finish_a_scripted_round():
    at = new_page()
    at.button(key="macao_new").click().run()
    ok(at)
    assert hand_text(at) == ["5h", "6h", "8h", "9h", "Th"]
    assert str(state(at).top) == "5c"
    view = table(at)
    assert view["playable"] == [True, False, False, False, False]  # only 5h follows 5c
    for card, bot_draws_to in (("5h", 6), ("6h", 7), ("8h", 8)):
        tap(at, card)
        ok(at)
        assert state(at).current == 0  # the bot drew and could not play
        assert len(state(at).hands[1]) == bot_draws_to
    # two cards left: say Macao! with the next play
    at.button(key="macao_call").click().run()
    assert at.session_state["macao_declare"] is True
    tap(at, "9h")
    ok(at)
    assert state(at).exposed is None and hand_text(at) == ["Th"]
    tap(at, "Th")
    ok(at)
    assert state(at).end_reason == "finish"
    assert any("You won the round" in s.value for s in at.success)
    assert any("Placings" in m.value for m in at.markdown)
    stats = at.session_state["macao_stats"]
    assert len(stats) == 1 and stats[0]["place"] == 1
    assert {m.label for m in at.metric} >= {"Rounds", "Wins", "Average placing"}
    # a new round keeps the statistics
    at.button(key="macao_new").click().run()
    ok(at)
    assert len(at.session_state["macao_stats"]) == 1 and at.session_state["macao_round_no"] == 2


def test_draw_and_keep():
    # you may always draw, even holding a playable card
    at = new_page(deck="2S KS 3S KC 4S QS 6S QC 8S JS 5C 9D")
    at.button(key="macao_new").click().run()
    ok(at)
    before = len(hand_text(at))
    at.button(key="macao_draw").click().run()
    ok(at)
    assert len(state(at).hands[0]) == before + 1  # 9D cannot be played on 5C: the turn ended
    assert state(at).current == 0  # and the bot has moved
    assert "You draw a card" in at.code[0].value  # the log calls you "You", as the table does


def test_illegal_play_is_explained_and_round_kept():
    at = new_page()
    at.button(key="macao_new").click().run()
    assert table(at)["playable"][3] is False  # 9h is not lit
    play(at, "9h")  # 9H does not match 5C: say so in plain words, with glyphs, no rule number
    errors = " ".join(e.value for e in at.error).replace("\\", "")  # the markdown escapes
    assert "9♥ doesn't follow 5♣: play a ♣, a 5, an Ace or a joker" in errors
    assert "rule" not in errors
    assert hand_text(at) == ["5h", "6h", "8h", "9h", "Th"]
    assert "Traceback" not in "".join(e.value for e in at.error)


def test_selecting_several_cards_of_one_rank():
    at = new_page(deck="5H KS 5D KC 5S QS 9H QC TH JS 5C QD KD JD JC")
    at.button(key="macao_new").click().run()
    view = table(at)
    fives = [view["hand"].index(c) for c in ("5d", "5h", "5s")]
    # a five alone or with the others: lit, but one tap cannot know which, so it selects
    assert all(view["playable"][i] and view["one_tap"][i] is None for i in fives)
    play(at, "5d", "5h", "5s")
    ok(at)
    assert "You play 5♦ 5♥ 5♠" in at.code[0].value  # the log writes suit glyphs
    assert [str(c) for c in state(at).discard[:4]] == ["5c", "5d", "5h", "5s"]


def test_ace_asks_for_a_suit_and_bad_options_show_an_error():
    at = new_page(deck="AH KS 6H KC 8H QS 9H QC TH JS 5C QD KD JD JC")
    at.button(key="macao_new").click().run()
    view = table(at)
    ace = view["hand"].index("Ah")
    assert view["playable"][ace] and view["one_tap"][ace] is None  # the suit is still to name
    play(at, "Ah", suit="s")
    ok(at)
    assert "You play A♥ and name spades" in at.code[0].value
    at2 = new_page(deck="ZZ")
    at2.button(key="macao_new").click().run()
    assert not at2.exception
    assert any("Could not start a round" in e.value for e in at2.error)


def test_bots_play_a_whole_three_player_round_to_the_end():
    at = new_page(deck=None, first=None, players=3, level="Random")
    at.button(key="macao_new").click().run()
    for _ in range(400):
        ok(at)
        s = state(at)
        if s.end_reason:
            break
        assert s.current == 0  # the page always hands the turn back to you
        if s.phase.value == "after_draw":
            at.button(key="macao_keep").click().run()
        elif any(b.key == "macao_accept" for b in at.button):
            at.button(key="macao_accept").click().run()
        elif not at.button(key="macao_draw").disabled:
            at.button(key="macao_draw").click().run()
        else:
            at.button(key="macao_pass").click().run()
    assert state(at).end_reason
    assert at.session_state["macao_stats"][-1]["players"] == 3


def test_reruns_and_option_changes_keep_the_round():
    at = new_page()
    at.button(key="macao_new").click().run()
    tap(at, "5h")
    before = state(at)
    at.run()
    at.run()
    assert state(at) == before
    at.slider(key="macao_players").set_value(4).run()
    ok(at)
    assert state(at) == before and state(at).rules.players == 2  # options apply from the next round
    at.button(key="macao_new").click().run()
    ok(at)
    assert state(at).rules.players == 4 and [s["seat"] for s in table(at)["seats"]] == [1, 2, 3]


def test_a_penalty_left_by_the_winning_card_is_not_shown_after_the_round():
    # the scripted round again, but your last card is a 2: the round ends with "draw 2" open
    at = new_page(deck="5H KS 6H KC 8H QS 9H QC 2H JS 5C QD KD JD JC")
    at.button(key="macao_new").click().run()
    for card in ("5h", "6h", "8h"):
        tap(at, card)
    at.button(key="macao_call").click().run()
    for card in ("9h", "2h"):
        tap(at, card)
    ok(at)
    assert state(at).end_reason == "finish" and state(at).pending_draw == 2
    assert any("You won the round" in s.value for s in at.success)
    assert table(at)["pending_text"] == ""


def test_a_round_saved_before_a_code_reload_asks_for_a_new_round():
    # Streamlit re-imports the project's modules when a source file changes; a round saved
    # earlier then holds a State of the old class, which the engine refuses with TypeError
    at = new_page()
    at.button(key="macao_new").click().run()
    at.session_state["macao_stats"] = [{"round": 1, "players": 2, "place": 1, "bots": "normal", "moves": 9,
                                        "end": "finish"}]  # fmt: skip
    game = at.session_state["macao_game"]
    at.session_state["macao_game"] = {**game, "state": SimpleNamespace(**vars(game["state"]))}
    at.run()
    assert not at.exception
    assert any("New round" in e.value for e in at.error)
    assert "macao_game" not in at.session_state and len(at.session_state["macao_stats"]) == 1
    at.button(key="macao_new").click().run()
    ok(at)
    assert hand_text(at) == ["5h", "6h", "8h", "9h", "Th"]


def test_engine_messages_show_cards_as_on_the_page() -> None:
    from app.macao_widgets import glyph_text

    assert glyph_text("Qd, Th not in P0's hand (BJ 2c) (rule 2.3d)") == "Q♦, 10♥ not in P0's hand (🃏BJ 2♣) (rule 2.3d)"
    assert glyph_text("Draw is legal only now") == "Draw is legal only now"


def test_seats_show_their_last_move_and_dim_cards_say_why() -> None:
    at = new_page()
    at.button(key="macao_new").click().run()
    view = table(at)
    assert view["seats"][0]["last_move"] == ""  # P1 has not moved yet
    assert view["reasons"][0] == ""  # 5h is lit: no reason needed
    assert view["reasons"][3] == "9♥ doesn't follow 5♣: play a ♣, a 5, an Ace or a joker."
    tap(at, "5h")
    view = table(at)
    seat = view["seats"][0]
    assert seat["last_move"] == "drew a card" and seat["fresh"]  # the bot drew QD and could not play it
    assert any("Since your last move: P1 draws a card" in c.value for c in at.caption)
    tap(at, "6h")
    tap(at, "8h")
    assert table(at)["seats"][0]["last_move"] == "drew a card"


def test_guided_hints_say_why_a_card_is_lit_in_the_first_round_only() -> None:
    at = new_page()
    at.button(key="macao_new").click().run()
    assert at.toggle(key="macao_guided").value is True
    assert table(at)["guide"] == ["5♥: same rank as 5♣."]
    at.toggle(key="macao_guided").set_value(False).run()
    assert table(at)["guide"] == []
    at.toggle(key="macao_guided").set_value(True).run()
    # the player chose them: they stay on in the second round too
    at.button(key="macao_new").click().run()
    assert at.toggle(key="macao_guided").value is True
    untouched = new_page()
    untouched.button(key="macao_new").click().run()
    untouched.button(key="macao_new").click().run()
    assert untouched.toggle(key="macao_guided").value is False
    assert table(untouched)["guide"] == []


def test_the_macao_hint_says_to_press_the_button_before_the_play() -> None:
    at = new_page()
    at.button(key="macao_new").click().run()
    for card in ("5h", "6h", "8h"):
        tap(at, card)
    assert "press Macao! first, then play, or you may draw 5" in table(at)["hint"]
    at.button(key="macao_call").click().run()
    assert table(at)["hint"] == "Macao! is on: it is said with your play."


def win_scripted_round(at: AppTest) -> None:
    at.button(key="macao_new").click().run()
    for card in ("5h", "6h", "8h"):
        tap(at, card)
    at.button(key="macao_call").click().run()
    for card in ("9h", "Th"):
        tap(at, card)
    ok(at)


def test_a_match_keeps_a_running_score_and_names_the_winner() -> None:
    at = new_page(match_length=3)
    win_scripted_round(at)
    assert at.session_state["macao_match"] == {"players": 2, "length": 3, "results": [[1, 2]]}
    assert any("**Match** after round 1 of 3: You **1** · P1 · Normal **0**" in m.value for m in at.markdown)
    at.button(key="macao_new").click().run()
    assert any("**Match**, round 2 of 3: You **1**" in m.value for m in at.markdown)
    # the next two rounds: you only draw, keep and accept, whatever the bot does
    for number in (2, 3):
        for _step in range(300):
            if state(at).end_reason:
                break
            enabled = [b.key for b in at.button if not b.disabled]
            move = next(k for k in ("macao_keep", "macao_accept", "macao_draw", "macao_pass") if k in enabled)
            at.button(key=move).click().run()
            ok(at)
        assert state(at).end_reason
        if number == 2:
            at.button(key="macao_new").click().run()
    score = at.session_state["macao_match"]
    assert score["results"][0] == [1, 2] and len(score["results"]) == 3
    totals = [sum(2 - r[s] for r in score["results"]) for s in (0, 1)]
    winner = "You won the match!" if totals[0] > totals[1] else "P1 · Normal won the match."
    assert any(winner in m.value for m in (*at.success, *at.warning))
    # the next deal starts a new match
    at.button(key="macao_new").click().run()
    assert at.session_state["macao_match"]["results"] == []


def test_single_rounds_keep_no_match_score() -> None:
    at = new_page()
    win_scripted_round(at)
    assert at.session_state.get("macao_match") is None
    assert not any("Match" in m.value for m in at.markdown)


def test_the_card_design_is_chosen_once_and_drawn_by_the_component() -> None:
    at = new_page()
    at.button(key="macao_new").click().run()
    assert table(at)["skin"] == {"face": "classic", "back": "green"}
    at.selectbox(key="macao_card_face").set_value("night").run()
    at.selectbox(key="macao_card_back").set_value("gold").run()
    assert at.session_state["card_skin"] == {"face": "night", "back": "gold"}
    assert table(at)["skin"] == {"face": "night", "back": "gold"}
    at.session_state["card_skin"] = {"face": "paisley", "back": 7}  # a value no design has
    at.run()
    assert table(at)["skin"] == {"face": "classic", "back": "green"}


RULES_PAGE = str(ROOT / "app" / "pages" / "rules.py")


def rules_page(lang: str) -> AppTest:
    at = AppTest.from_file(RULES_PAGE, default_timeout=60)
    at.session_state["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    return at


def macao_part(at: AppTest, title: str) -> list[str]:
    """The Markdown of the Rules page from the Macao header on (the section's rules)."""
    assert title in [h.value for h in at.header]
    texts = [m.value for m in at.markdown]
    return texts[-5:]  # the section ends the page: five groups of rules


@pytest.mark.parametrize(
    ("lang", "title", "words"),
    [
        ("en", "Rules of Macao", ("joker", "Macao!", "stock", "Match", "9♥ 9♠ 9♣", "A♣ naming ♦")),
        ("vi", "Luật chơi Macao", ("Joker", "Macao!", "nọc", "Trận đấu", "9♥ 9♠ 9♣", "A♣ gọi ♦")),
        ("km", "ច្បាប់លេង Macao", ("ចូកឃ័រ", "Macao!", "គំនរបៀ", "ការប្រកួត", "9♥ 9♠ 9♣", "A♣ ហៅ ♦")),
    ],
)
def test_the_rules_page_has_a_macao_section_in_every_language(lang: str, title: str, words: tuple[str, ...]) -> None:
    at = rules_page(lang)
    section = macao_part(at, title)
    text = "\n".join(section)
    for word in words:
        assert word in text, (lang, word)
    # every special card has its rule, with the same cards as examples in every language
    for card in ("**2", "**4", "7 (stop)**", "2♥", "4♠ 4♦"):
        assert card in text, (lang, card)
    assert len([s for s in at.subheader if s.value]) >= 5
    if lang != "en":
        english = "\n".join(macao_part(rules_page("en"), "Rules of Macao"))
        for line, original in zip(text.splitlines(), english.splitlines()):
            assert line != original, f"not translated: {original}"


def test_every_page_that_draws_cards_honours_the_card_design() -> None:
    """The component reads card_skin itself: the Rules page's examples show the chosen design too."""
    at = AppTest.from_file(RULES_PAGE, default_timeout=60)
    at.session_state["card_skin"] = {"face": "jumbo", "back": "blue"}
    at.run()
    drawn = [json.loads(e.proto.json) for e in at.get("bidi_component") if e.key == "rules_examples"]
    assert drawn and drawn[0]["skin"] == {"face": "jumbo", "back": "blue"}
