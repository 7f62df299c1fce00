"""One test per public scenario of ../shared/rules/macao.md §3 (named after its number)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from macao import (
    Accept,
    CallMacao,
    Draw,
    IllegalActionError,
    KeepDrawn,
    Pass,
    Phase,
    Play,
    PlayDrawn,
    Rules,
    apply,
    interrupts,
    is_terminal,
    legal_actions,
    make_state,
    new_game,
    observe,
    placings,
    ranking,
)
from solver.cards import Card, Suit, full_deck, parse_card, parse_cards

C = parse_card
R3 = Rules(players=3)
R4 = Rules(players=4)


def plays(state):
    """The legal plays as (card text, ...) tuples, ignoring declare/suit variants."""
    return {tuple(str(c) for c in a.cards) for a in legal_actions(state) if isinstance(a, Play)}


def kinds(state):
    return {type(a).__name__ for a in legal_actions(state)}


def hand(state, seat):
    return Counter(state.hands[seat])


def test_scenario_01_single_plays_and_draw():
    s = make_state(hands=["5H KC 9S", "2D 6D"], top="9H", active_suit="h")
    assert plays(s) == {("5h",), ("9s",)}
    assert Draw() in legal_actions(s)
    with pytest.raises(IllegalActionError, match=r"2\.2"):
        apply(s, Play(["KC"]))


def test_scenario_02_triple_nines_with_declare():
    s = make_state(hands=["9S 9D 9C 2H", "KD 5S"], top="9H")
    s2 = apply(s, Play(parse_cards("9S 9D 9C"), declare=True))
    assert s2.active_suit is Suit.CLUBS
    assert s2.top == C("9C")
    assert s2.hands[0] == (C("2H"),)
    assert s2.exposed is None
    assert s2.current == 1


def test_scenario_03_first_card_must_match():
    s = make_state(hands=["QD QS", "KC 5S"], top="5D")
    before = s
    with pytest.raises(IllegalActionError) as err:
        apply(s, Play("QS QD"))
    assert "Qs" in str(err.value) and err.value.rule == "2.2"
    assert s == before and s.hands[0] == tuple(sorted(parse_cards("QD QS")))
    assert s.top == C("5D") and s.moves == 0 and s.current == 0


def test_scenario_04_last_card_sets_suit():
    s = make_state(hands=["QD QS", "KC 5S"], top="5D")
    s2 = apply(s, Play("QD QS"))
    assert s2.active_suit is Suit.SPADES
    assert s2.top == C("QS")


def test_scenario_05_double_two_adds_four():
    s = make_state(R3, hands=["2H 2S 8D", "KD 9H", "5C 6C"], top="2C")
    s2 = apply(s, Play("2H 2S"))
    assert s2.pending_draw == 4
    assert s2.active_suit is Suit.SPADES
    assert s2.current == 1


def test_scenario_06_accept_penalty():
    s = make_state(R3, hands=["2H 2S 8D", "KD 9H", "5C 6C"], top="2C")
    s = apply(s, Play("2H 2S"))
    assert legal_actions(s) == [Accept()]
    before = len(s.hands[1])
    s2 = apply(s, Accept())
    assert len(s2.hands[1]) == before + 4
    assert s2.pending_draw == 0
    assert s2.top == C("2S")
    assert s2.current == 2


def test_scenario_07_counter_three_on_three():
    s = make_state(R3, hands=["KD 9D", "3C 8H", "5C 6C"], top="3H", pending_draw=3, current=1)
    assert plays(s) == {("3c",)}
    assert kinds(s) == {"Play", "Accept"}
    s2 = apply(s, Play("3C"))
    assert s2.pending_draw == 6
    assert s2.active_suit is Suit.CLUBS


# Scenario 8 is referred to by 9 and 10 but is not listed; it is read as the same
# position with stacking="matching": 2H (same suit as top 3H) counters, 2S does not.
def _scenario_8(rules, p1):
    return make_state(rules, hands=["KD 9D", p1, "5C 6C"], top="3H", pending_draw=3, current=1)


def test_scenario_08_matching_counter_needs_rank_or_suit():
    s = _scenario_8(R3, "2H 2S")
    assert ("2h",) in plays(s) and ("2h", "2s") in plays(s)
    assert ("2s",) not in plays(s)
    with pytest.raises(IllegalActionError, match="matching"):
        apply(s, Play("2S"))


def test_scenario_09_stacking_any():
    s = _scenario_8(Rules(players=3, stacking="any"), "2H 2S")
    assert ("2s",) in plays(s)
    assert apply(s, Play("2S")).pending_draw == 5


def test_scenario_10_stacking_none_only_stop():
    s = _scenario_8(Rules(players=3, stacking="none"), "2H 7C")
    assert plays(s) == {("7c",)}
    assert kinds(s) == {"Play", "Accept"}
    with pytest.raises(IllegalActionError, match="stacking"):
        apply(s, Play("2H"))


def test_scenario_11_jokers_stack_on_twos():
    s = make_state(R3, hands=["2D 4C 9D", "BJ 9C", "RJ 5S"], top="2H")
    s = apply(s, Play("2D"))
    assert s.pending_draw == 2
    s = apply(s, Play("BJ"))
    assert (s.pending_draw, s.active_suit, s.current) == (7, None, 2)
    s = apply(s, Play("RJ"))
    assert s.pending_draw == 17 and s.current == 0
    assert legal_actions(s) == [Accept()]
    available = len(s.stock) + len(s.discard) - 1
    before = len(s.hands[0])
    s = apply(s, Accept())
    assert len(s.hands[0]) == before + min(17, available)
    assert s.pending_draw == 0 and s.current == 1


def test_scenario_13_anything_goes_after_a_taken_joker():
    s = make_state(R3, hands=["KH 5H", "QS 9S", "8D KC"], top="BJ", active_suit=None, current=2)
    assert plays(s) == {("8d",), ("Kc",)}


def test_scenario_14_seven_stops_penalty():
    s = make_state(R3, hands=["KD 9D", "7C 5H", "5C 6C"], top="3H", pending_draw=3, current=1)
    s2 = apply(s, Play("7C"))
    assert s2.pending_draw == 0
    assert s2.top == C("7C") and s2.active_suit is Suit.CLUBS
    assert s2.current == 2
    assert s2.hands[1] == (C("5H"),)


def test_scenario_15_no_stop_when_stop_off():
    s = make_state(Rules(players=3, stop=False), hands=["KD 9D", "7C 5H", "5C 6C"], top="3H",
                   pending_draw=3, current=1)  # fmt: skip
    assert legal_actions(s) == [Accept()]
    with pytest.raises(IllegalActionError, match="stop"):
        apply(s, Play("7C"))


def test_scenario_16_seven_without_penalty_is_plain():
    s = make_state(R3, hands=["KD 9D", "7S 5H", "5C 6C"], top="7H", current=1)
    s2 = apply(s, Play("7S"))
    assert (s2.active_suit, s2.pending_draw, s2.pending_skip, s2.current) == (Suit.SPADES, 0, 0, 2)


def test_scenario_17_only_a_four_answers_a_wait():
    s = make_state(R3, hands=["KD 9D", "7H 4S BJ AH", "5C 6C"], top="4H", pending_skip=1, current=1)
    assert plays(s) == {("4s",)}
    assert kinds(s) == {"Play", "Accept"}
    for bad in (Draw(), Play("7H"), Play("BJ"), Play("AH", suit="s")):
        with pytest.raises(IllegalActionError, match=r"2\.3c"):
            apply(s, bad)


def test_scenario_18_accepting_a_wait():
    s = make_state(R3, hands=["4H 9D", "KS 5D", "5H 6C"], top="9H")
    s = apply(s, Play("4H"))
    assert s.pending_skip == 1 and s.current == 1
    s = apply(s, Accept())
    assert s.skip_turns[1] == 0 and s.pending_skip == 0 and s.current == 2
    assert plays(s) == {("5h",)}  # P2 plays normally on 4H


def test_scenario_18_double_four_costs_an_extra_turn():
    s = make_state(R3, hands=["4H 4C 9D", "KS 5D", "5C 6C"], top="9H")
    s = apply(s, Play("4H 4C"))
    s = apply(s, Accept())
    assert s.skip_turns[1] == 1 and s.current == 2
    s = apply(s, Play("5C"))
    assert s.current == 0  # P0 plays, then P1 is passed over
    s = apply(s, Draw()) if Draw() in legal_actions(s) else s
    if s.phase is Phase.AFTER_DRAW:
        s = apply(s, KeepDrawn())
    assert s.current == 2 and s.skip_turns[1] == 0


def test_scenario_22_ace_names_suit():
    s = make_state(hands=["AC 5S", "KD 9S"], top="9H")
    s = apply(s, Play("AC", suit="d"))
    assert s.top == C("AC") and s.active_suit is Suit.DIAMONDS
    assert plays(s) == {("Kd",)}


def test_scenario_23_ace_cannot_answer_penalty():
    s = make_state(hands=["KD 9D", "AS"], top="2S", pending_draw=2, current=1)
    assert legal_actions(s) == [Accept()]


def test_scenario_25_ace_not_wild():
    s = make_state(Rules(ace_wild=False), hands=["AC AH", "KD 9D"], top="9H")
    assert ("Ah",) in plays(s) and ("Ac",) not in plays(s)
    with pytest.raises(IllegalActionError, match="ace_wild"):
        apply(s, Play("AC", suit="h"))


def test_scenario_26_play_the_drawn_card():
    s = make_state(R3, hands=["KH 5H", "KD", "5C 6D"], top="6C", stock_top="6H", current=1)
    s = apply(s, Draw())
    assert s.phase is Phase.AFTER_DRAW and s.drawn == C("6H")
    assert kinds(s) == {"PlayDrawn", "KeepDrawn"}
    s = apply(s, PlayDrawn(declare=True))
    assert s.top == C("6H") and s.active_suit is Suit.HEARTS and s.current == 2


def test_scenario_27_unplayable_drawn_card_ends_turn():
    s = make_state(R3, hands=["KH 5H", "KD", "5C 6D"], top="6C", stock_top="QD", current=1)
    s = apply(s, Draw())
    assert C("QD") in s.hands[1]
    assert s.phase is Phase.PLAY and s.current == 2


def test_scenario_28_may_draw_instead_of_playing():
    s = make_state(R3, hands=["KH 5H", "9C", "5D 6D"], top="6C", current=1)
    acts = legal_actions(s)
    assert Play("9C") in acts and Draw() in acts


def test_scenario_29_reshuffle_keeps_top():
    s = make_state(hands=["KC 5D", "8H 8C"], discard="KH 3D 9S 5S", stock="", current=1)
    total = s.card_counts()
    s2 = apply(s, Draw())
    assert s2.discard == (C("5S"),)
    drawn = (Counter(s2.hands[1]) - Counter(s.hands[1]))
    assert sum(drawn.values()) == 1
    assert Counter(s2.stock) + drawn == Counter(parse_cards("KH 3D 9S"))
    assert s2.card_counts() == total
    # the shuffle is the state's own: the same every time, independent of global random
    random.seed(99)
    assert apply(s, Draw()).stock == s2.stock


def test_scenario_31_pass_and_deadlock():
    s = make_state(hands=["KC 5D", "8H 8C"], top="2S", stock="", current=1, active_suit="s")
    assert legal_actions(s) == [Pass()]
    s = apply(s, Pass())
    assert legal_actions(s) == [Pass()]
    s = apply(s, Pass())
    assert is_terminal(s) and s.end_reason == "deadlock"
    assert ranking(s) == [0, 1]  # same size: lower seat first


def test_scenario_31_deadlock_ranks_by_fewest_cards():
    s = make_state(R3, hands=["KC 5D 6D", "8H", "9H 9C"], top="2S", stock="", active_suit="s")
    for _ in range(3):
        s = apply(s, Pass())
    assert ranking(s) == [1, 2, 0]
    assert placings(s) == [3, 1, 2]


def test_scenario_32_declared_macao_is_safe():
    s = make_state(hands=["5H 9D", "KD 7S"], top="9H")
    s = apply(s, Play("5H", declare=True))
    assert s.exposed is None
    assert interrupts(s, 1) == []
    with pytest.raises(IllegalActionError, match=r"2\.8"):
        apply(s, CallMacao(1, 0))


def test_scenario_33_forgotten_macao_is_called():
    s = make_state(hands=["5H 9D", "KD 7S"], top="9H")
    s = apply(s, Play("5H"))
    assert s.exposed == 0
    assert interrupts(s, 1) == [CallMacao(1, 0)]
    assert interrupts(s, 0) == []
    s2 = apply(s, CallMacao(1, 0))
    assert len(s2.hands[0]) == 6
    assert s2.exposed is None and s2.current == 1
    with pytest.raises(IllegalActionError):
        apply(s2, CallMacao(1, 0))


def test_scenario_33_window_closes_after_next_action():
    s = make_state(hands=["5H 9D", "KD 7S"], top="9H")
    s = apply(s, Play("5H"))
    s = apply(s, Draw())
    assert s.exposed is None and interrupts(s, 1) == []


def test_scenario_35_going_out_on_a_three_passes_the_penalty():
    s = make_state(R3, hands=["3S", "KD 9D", "5C 6C"], top="3H")
    s = apply(s, Play("3S"))
    assert s.finished == (0,)
    assert not is_terminal(s)
    assert s.pending_draw == 3 and s.current == 1


def test_scenario_37_two_players_end_at_first_finish():
    s = make_state(hands=["9S", "KD 9D"], top="9H")
    s = apply(s, Play("9S"))
    assert is_terminal(s)
    assert placings(s) == [1, 2]
    assert legal_actions(s) == []


def test_scenario_38_first_wins():
    s = make_state(Rules(players=4, end_mode="first_wins"),
                   hands=["KD 9D 5C", "QS 2D", "8H", "3C 3D"], top="9H", current=2)  # fmt: skip
    s = apply(s, Play("8H"))
    assert is_terminal(s)
    # P2 first; the others by hand size, ties in seat order after the winner (P3 before P1)
    assert ranking(s) == [2, 3, 1, 0]


def test_scenario_38_last_loses_continues():
    s = make_state(R4, hands=["KD 9D 5C", "QS 2D", "8H", "3C 3D"], top="9H", current=2)
    s = apply(s, Play("8H"))
    assert not is_terminal(s) and s.finished == (2,) and s.current == 3


def test_scenario_40_special_start_cards_go_to_the_bottom():
    rules = Rules(first_player=0)
    dealt = parse_cards("5S 6S 5H 6H 5D 6D 5C 6C 8S 8H")
    s = new_game(rules, seed=7, deck_order=[*dealt, *parse_cards("2C BJ 9D")])
    assert s.top == C("9D") and s.active_suit is Suit.DIAMONDS
    assert s.pending_draw == 0 and s.pending_skip == 0
    assert s.stock[-2:] == (C("2C"), C("BJ"))
    assert s.hands[0] == tuple(sorted(parse_cards("5S 5H 5D 5C 8S")))
    assert sum(s.card_counts().values()) == 54


def test_scenario_40_ignore_keeps_special_but_replaces_joker():
    rules = Rules(first_player=0, start_card="ignore")
    dealt = parse_cards("5S 6S 5H 6H 5D 6D 5C 6C 8S 8H")
    s = new_game(rules, seed=7, deck_order=[*dealt, *parse_cards("BJ 2C 9D")])
    assert s.top == C("2C") and s.pending_draw == 0 and s.stock[-1] == C("BJ")


def test_scenario_42_deck_sizes():
    s = new_game(Rules(decks=2), seed=3)
    counts = s.card_counts()
    assert sum(counts.values()) == 108
    assert all(counts[Card(code)] == 2 for code in range(54))
    s1 = new_game(Rules(jokers=False), seed=3)
    assert sum(s1.card_counts().values()) == 52
    assert s1.card_counts() == Counter(full_deck(1, jokers=False))


def test_scenario_44_four_players_ten_cards():
    s = new_game(Rules(players=4, start_cards=10, jokers=False), seed=5)
    assert [len(h) for h in s.hands] == [10, 10, 10, 10]
    assert len(s.discard) == 1
    assert len(s.stock) == 11


def test_scenario_45_card_not_in_hand():
    s = make_state(hands=["5H KC", "KD 7S"], top="9H")
    snapshot = (s.hands, s.stock, s.discard, s.current, s.moves, s.log)
    with pytest.raises(IllegalActionError, match="not in P0's hand") as err:
        apply(s, Play("9H"))
    assert err.value.rule == "2.3"
    assert (s.hands, s.stock, s.discard, s.current, s.moves, s.log) == snapshot


def _play_out(seed):
    s = new_game(Rules(players=3), seed=seed)
    seen = [observe(s, 0)]
    k = 0
    while not is_terminal(s):
        acts = legal_actions(s)
        s = apply(s, acts[(k * 7919) % len(acts)])  # deterministic choice, no RNG
        k += 1
        seen.append(observe(s, k % 3))
    return seen


def test_scenario_46_replay_ignores_global_random():
    import numpy as np
    random.seed(1)
    np.random.seed(1)
    first = _play_out(123)
    random.seed(2)
    np.random.seed(2)
    random.random()
    second = _play_out(123)
    assert first == second
    assert _play_out(124) != first


def test_scenario_47_observation_hides_private_information():
    s = new_game(R3, seed=11)
    obs = observe(s, 1)
    assert obs.hand == s.hands[1]
    assert obs.hand_sizes == tuple(len(h) for h in s.hands)
    assert (obs.top, obs.active_suit, obs.pending_draw, obs.pending_skip) == (
        s.top, s.active_suit, s.pending_draw, s.pending_skip)  # fmt: skip
    assert obs.skip_turns == s.skip_turns and obs.stock_count == len(s.stock)
    assert obs.discard == s.discard and obs.finished == s.finished and obs.exposed == s.exposed
    public = {k: v for k, v in vars(obs).items() if k != "hand"}
    flat = repr(public)
    for seat in (0, 2):
        assert s.hands[seat] not in public.values()
    assert "stock" not in vars(obs)
    assert repr(s.stock) not in flat


def test_scenario_47_drawn_card_is_private():
    s = make_state(R3, hands=["KH 5H", "KD", "5C 6D"], top="6C", stock_top="6H", current=1)
    s = apply(s, Draw())
    assert observe(s, 1).drawn == C("6H")
    assert observe(s, 0).drawn is None
    assert all("6h" not in str(e) for e in observe(s, 0).log)


def test_scenario_50_black_and_red_joker_together():
    s = make_state(hands=["BJ RJ 5C", "KD 7S"], top="9H")
    s = apply(s, Play("BJ RJ"))
    assert s.pending_draw == 15 and s.active_suit is None and s.current == 1
