"""The Hard bot (issue 15): determinized Monte Carlo from observations only."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from macao import Accept, CallMacao, Play, Rules, apply, legal_actions, make_state, new_game, observe
from macao.bots import Bot, HardBot, NormalBot, make_bot
from macao.search import Budget, evaluate, hidden_codes, inferred_voids, playout, sample_world
from macao.simulate import play_round, simulate
from solver.cards import parse_cards

SMALL = Budget(playouts=8, min_worlds=2, max_seconds=None)


class Spy(Bot):
    """Wraps a bot: records what it is given and checks every choice is legal."""

    def __init__(self, bot):
        self.bot, self.name, self.seen, self.choices = bot, bot.name, set(), 0

    def choose(self, obs, legal, rng):
        self.seen.add(type(obs).__name__)
        action = self.bot.choose(obs, legal, rng)
        assert action in legal, f"{action} is not among the legal actions {legal}"
        self.choices += 1
        return action

    def interrupt(self, obs, rng):
        self.seen.add(type(obs).__name__)
        return self.bot.interrupt(obs, rng)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(players=4),
        Rules(players=3, decks=2, jokers=True),
        Rules(start_cards=7, stacking="any"),
        Rules(players=2, stop=False, stacking="none", ace_wild=False),
    ],
    ids=["default", "4p", "3p-2decks", "7cards-any", "strict"],
)
def test_hard_chooses_only_legal_actions_from_observations(rules):
    for seed in range(1):
        hard = Spy(HardBot(SMALL))
        bots = [hard, *(Spy(NormalBot()) for _ in range(rules.players - 1))]
        final = play_round(rules, bots, f"hard:{seed}")
        assert final.end_reason
        assert hard.choices > 0
        assert hard.seen == {"Observation"}


def test_hard_is_reproducible_without_a_time_limit():
    rules = Rules(players=3)
    a = play_round(rules, [HardBot(SMALL), NormalBot(), make_bot("easy")], 5)
    b = play_round(rules, [HardBot(SMALL), NormalBot(), make_bot("easy")], 5)
    assert a == b


def test_sampled_worlds_agree_with_the_observation():
    rules = Rules(players=3, decks=2)
    state = new_game(rules, 9)
    rng = random.Random(0)
    for _ in range(25):  # walk into the round a little, with Normal moves
        obs = observe(state, state.current)
        state = apply(state, NormalBot().choose(obs, legal_actions(state), rng))
    obs = observe(state, 1)
    hidden = hidden_codes(obs)
    for k in range(20):
        world = sample_world(obs, hidden, random.Random(k), inferred_voids(obs))
        assert world.hands[1] == state.hands[1]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert len(world.stock) == len(state.stock)
        assert world.discard == state.discard
        assert world.card_counts() == state.card_counts()
        assert legal_actions(world) == legal_actions(state) or state.current != 1


def test_inferred_voids_hold_for_normal_players():
    """Normal draws only when it cannot play and accepts only when it cannot answer."""
    rules = Rules()
    checked = 0
    for seed in range(30):
        state = new_game(rules, seed)
        rng = random.Random(seed)
        while not state.ranking:
            obs = observe(state, state.current)
            for seat, (lacked, held) in inferred_voids(obs).items():
                real = [c.code for c in state.hands[seat]]
                assert sum(1 for c in real if c not in lacked) >= held
                checked += 1
            state = apply(state, NormalBot().choose(obs, legal_actions(state), rng))
    assert checked > 100


def test_a_drawing_opponent_lacks_the_suit_and_the_rank():
    rules = Rules()
    state = make_state(rules, hands=["5c 6c 7d", "9h Kh"], top="9s", current=1, stock_top="2d")
    state = apply(state, Play("9h"))  # P1 plays on 9s; suit hearts
    state = apply(state, legal_actions(state)[-1])  # P0 draws: it holds no heart, no 9, no A, no joker
    voids = inferred_voids(observe(state, 1))
    lacked, held = voids[0]
    assert held == 3  # 4 cards now, 1 drawn since the clue
    assert {c.code for c in parse_cards("2h Kh 9c As BJ RJ")} <= lacked
    assert not {c.code for c in parse_cards("5c 7d Ks")} & lacked


def test_playout_returns_the_place_of_the_searching_seat():
    state = make_state(Rules(), hands=["9s", "Kd 8h 5c"], top="9h")
    assert playout(apply(state, Play("9s")), 0, [NormalBot()] * 2, random.Random(0), 400) == 1.0
    # truncated at once: ranked by hand size
    assert playout(state, 1, [NormalBot()] * 2, random.Random(0), 0) == 2.0


def test_evaluate_pairs_the_candidates_in_the_same_worlds():
    state = make_state(Rules(), hands=["9s 9d Kc 5c 2c", "Kd 8h 5h 4d"], top="9h")
    obs = observe(state, 0)
    legal = legal_actions(state)
    budget = Budget(playouts=30, min_worlds=4, max_seconds=None)
    results = evaluate(obs, legal[:3], [NormalBot()] * 2, random.Random(1), budget, keep=1)
    assert len(results) == 3
    assert len(results[1]) >= 4 and all(len(r) <= len(results[1]) for r in results)
    assert all(1.0 <= p <= 2.0 for r in results for p in r)


def test_hard_skips_search_with_one_candidate_and_goes_out_when_it_can():
    only_accept = make_state(Rules(), hands=["Kd 8h", "9s 5c"], top="2h", pending_draw=2)
    assert HardBot(SMALL).choose(observe(only_accept, 0), legal_actions(only_accept), random.Random(0)) == Accept()
    going_out = make_state(Rules(), hands=["9s 9d", "Kd 8h 5c"], top="9h")
    choice = HardBot(SMALL).choose(observe(going_out, 0), legal_actions(going_out), random.Random(0))
    assert isinstance(choice, Play) and len(choice.cards) == 2


def test_hard_candidates_drop_equivalent_plays_and_forgetting():
    state = make_state(Rules(), hands=["9s 9d 9c Kc 5h", "Kd 8h 5c"], top="9h")
    obs = observe(state, 0)
    legal = legal_actions(state)
    candidates = HardBot().candidates(obs, legal)
    outcomes = Counter((tuple(sorted(c.cards)), c.cards[-1]) for c in candidates if isinstance(c, Play))
    assert max(outcomes.values()) == 1
    assert len(candidates) < len(legal)
    assert not any(getattr(c, "declare", False) for c in candidates)  # nothing leaves one card here


def test_hard_always_calls_an_exposed_opponent():
    state = make_state(Rules(), hands=["5h", "Kd 8h"], top="9h", exposed=0, current=1)
    assert HardBot().interrupt(observe(state, 1), random.Random(0)) == CallMacao(1, 0)


def test_simulate_reports_decision_times_per_level():
    result = simulate(Rules(players=3), [HardBot(SMALL), "normal", "normal"], games=3, seed=2)
    hard, *_ = result.bots
    assert hard.name == "hard" and hard.decisions > 0
    assert hard.decision_ms > 0 and hard.decision_p95_ms >= 0
    assert [level.name for level in result.levels] == ["normal (all 2)"]
    assert result.levels[0].games == 6
    assert "ms/decision" in result.table()
