"""Bots (macao.md §5.3) and the simulation harness (§5.4)."""

from __future__ import annotations

import random

import pytest

from macao import CallMacao, KeepDrawn, Play, PlayDrawn, Rules, apply, legal_actions, make_state, observe
from macao.bots import Bot, EasyBot, NormalBot, RandomBot, best_suit, make_bot
from macao.simulate import mean_estimate, play_round, simulate, wilson
from solver.cards import Suit, parse_cards


class Spy(Bot):
    """Wraps a bot and records what it is given, to prove it only sees observations."""

    def __init__(self, bot):
        self.bot, self.name, self.seen = bot, bot.name, []

    def choose(self, obs, legal, rng):
        self.seen.append(type(obs).__name__)
        action = self.bot.choose(obs, legal, rng)
        assert action in legal
        return action

    def interrupt(self, obs, rng):
        self.seen.append(type(obs).__name__)
        return self.bot.interrupt(obs, rng)


@pytest.mark.parametrize("level", ["random", "easy", "normal"])
def test_bots_choose_legal_actions_from_observations_only(level):
    for seed in range(15):
        rules = Rules(players=2 + seed % 3, decks=1 + seed % 2)
        bots = [Spy(make_bot(level)) for _ in range(rules.players)]
        final = play_round(rules, bots, seed)
        assert final.end_reason
        assert {name for b in bots for name in b.seen} == {"Observation"}


def test_play_round_is_deterministic_and_ignores_global_random():
    rules = Rules(players=3)
    random.seed(1)
    a = play_round(rules, [make_bot("normal"), make_bot("easy"), make_bot("random")], 77)
    random.seed(2)
    b = play_round(rules, [make_bot("normal"), make_bot("easy"), make_bot("random")], 77)
    assert a == b


def test_normal_counters_with_the_cheapest_draw_card():
    s = make_state(hands=["KD 9D 5C 6C 8C", "RJ 2H 3C 9C"], top="3H", pending_draw=3, current=1)
    choice = NormalBot().choose(observe(s, 1), legal_actions(s), random.Random(0))
    assert choice == Play("2H")


def test_normal_stops_with_a_seven_when_it_cannot_counter():
    s = make_state(hands=["KD 9D 5C 6C 8C", "7C 7S 9S 5S"], top="3H", pending_draw=3, current=1)
    choice = NormalBot().choose(observe(s, 1), legal_actions(s), random.Random(0))
    assert choice == Play("7S")  # spades are the suit it holds most


def test_normal_goes_out_when_it_can():
    s = make_state(hands=["9S 9C", "KD 7S 5C"], top="9H")
    choice = NormalBot().choose(observe(s, 0), legal_actions(s), random.Random(0))
    assert isinstance(choice, Play) and sorted(choice.cards) == sorted(parse_cards("9S 9C"))


def test_normal_names_the_suit_it_holds_most():
    s = make_state(hands=["AC 5D 9D KD 2S 6S", "KH 7S 5C"], top="9H", active_suit="h")
    choice = NormalBot().choose(observe(s, 0), legal_actions(s), random.Random(0))
    if isinstance(choice, Play) and choice.cards[-1].rank == 14:
        assert choice.suit is Suit.DIAMONDS
    assert best_suit(parse_cards("5D 9D KD 2S 6S")) is Suit.DIAMONDS
    assert best_suit(parse_cards("2S 9D")) is Suit.DIAMONDS  # tie: more plain cards


def test_normal_keeps_a_drawn_wild_card_with_a_big_hand():
    s = make_state(hands=["KD 9D", "4C 5C 6C 8S BJ"], top="9H", drawn="BJ", current=1)
    assert NormalBot().choose(observe(s, 1), legal_actions(s), random.Random(0)) == KeepDrawn()
    s = make_state(hands=["KD 9D", "8S 9H"], top="9C", drawn="9H", current=1)
    choice = NormalBot().choose(observe(s, 1), legal_actions(s), random.Random(0))
    assert choice == PlayDrawn(declare=True)


def test_random_always_declares_and_easy_sometimes_forgets():
    s = make_state(hands=["5H 9D", "KD 7S"], top="9H")
    legal = legal_actions(s)
    rng = random.Random(3)
    assert all(getattr(RandomBot().choose(observe(s, 0), legal, rng), "declare", True) for _ in range(50))
    easy = [EasyBot().choose(observe(s, 0), legal, rng) for _ in range(400)]
    forgot = sum(1 for a in easy if isinstance(a, Play) and not a.declare)
    assert 60 < forgot < 180  # p = 0.3


def test_interrupt_hooks_call_an_exposed_opponent():
    s = apply(make_state(hands=["5H 9D", "KD 7S"], top="9H"), Play("5H"))
    obs = observe(s, 1)
    assert RandomBot().interrupt(obs, random.Random(0)) == CallMacao(1, 0)
    assert RandomBot(always_call=False).interrupt(obs, random.Random(0)) is None
    calls = sum(NormalBot().interrupt(obs, random.Random(i)) is not None for i in range(200))
    assert 160 < calls <= 200
    assert NormalBot().interrupt(observe(s, 0), random.Random(0)) is None  # never on oneself


def test_simulate_rotates_seats_and_reports_intervals():
    result = simulate(Rules(players=3), ["normal", "easy", "random"], games=30, seed=4)
    assert [b.games for b in result.bots] == [30, 30, 30]
    assert sum(b.wins for b in result.bots) == 30
    assert sum(b.losses for b in result.bots) == 30
    for b in result.bots:
        assert b.win_rate.low <= b.win_rate.value <= b.win_rate.high
        assert 1 <= b.placing.value <= 3
    assert "win rate" in result.table() and "normal" in result.table()
    assert simulate(Rules(players=3), ["normal", "easy", "random"], games=30, seed=4) == result


def test_normal_beats_random_heads_up():
    result = simulate(Rules(), ["normal", "random"], games=200, seed=11)
    assert result.bots[0].win_rate.low > 0.6


def test_confidence_intervals():
    est = wilson(50, 100)
    assert est.value == 0.5
    assert est.low == pytest.approx(0.4038, abs=1e-3) and est.high == pytest.approx(0.5962, abs=1e-3)
    m = mean_estimate([1.0, 2.0, 3.0, 4.0])
    assert m.value == 2.5 and m.low < 2.5 < m.high


def test_bad_bot_names_and_counts():
    with pytest.raises(ValueError, match="unknown bot 'expert'"):
        make_bot("expert")
    with pytest.raises(ValueError, match="need 2 bots"):
        simulate(Rules(), ["normal"], games=3, seed=1)
    with pytest.raises(ValueError, match="games must be a positive integer"):
        simulate(Rules(), ["normal", "random"], games=0, seed=1)
