"""Random playouts over every option combination, checking invariants after every action.

The default run plays a few hundred seeded games; the ``slow`` test plays many more.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macao import (
    Action,
    CallMacao,
    IllegalActionError,
    Phase,
    Play,
    Rules,
    State,
    apply,
    interrupts,
    is_terminal,
    legal_actions,
    new_game,
    observe,
    placings,
)
from solver.cards import full_deck

CORE = list(itertools.product((2, 3, 4), (1, 2, 3, 4), (True, False), (True, False), ("matching", "any", "none")))
EXTRA = list(itertools.product((True, False), ("redraw", "ignore"), ("last_loses", "first_wins")))


def rules_for(index: int, core: tuple[int, int, bool, bool, str]) -> Rules:
    players, decks, jokers, stop, stacking = core
    ace_wild, start_card, end_mode = EXTRA[index % len(EXTRA)]
    return Rules(
        players=players, decks=decks, jokers=jokers, stop=stop, stacking=stacking, ace_wild=ace_wild,
        start_card=start_card, end_mode=end_mode, start_cards=5 + index % 6,
        first_player="random" if index % 3 else index % players,
    )  # fmt: skip


def all_codes(state) -> list[int]:
    codes = [c.code for c in state.stock] + [c.code for c in state.discard]
    for hand in state.hands:
        codes.extend(c.code for c in hand)
    codes.sort()
    return codes


def check_invariants(state, expected: list[int]) -> None:
    assert all_codes(state) == expected, "cards are not conserved"
    acts = legal_actions(state)
    if is_terminal(state):
        assert acts == []
        assert sorted(placings(state)) == list(range(1, state.rules.players + 1))
        return
    assert acts, "no legal action in a live state"
    assert acts == sorted(acts), "legal actions are not sorted"
    assert len(set(acts)) == len(acts)
    assert not (state.pending_draw and state.pending_skip)
    assert state.current not in state.finished
    assert state.moves <= state.rules.max_moves
    for seat, hand in enumerate(state.hands):
        assert list(hand) == sorted(hand)
        if seat in state.finished:
            assert not hand
        for act in interrupts(state, seat):
            assert isinstance(act, CallMacao) and act.caller == seat and act.target == state.exposed
    if state.phase is Phase.AFTER_DRAW:
        assert state.drawn in state.hands[state.current]


def play_random_game(rules: Rules, seed: int, check: bool = True) -> tuple[list[Action], State]:
    """Play uniformly random legal actions (with random Macao calls); return the actions and end state."""
    rng = random.Random(f"playout:{seed}")
    state = new_game(rules, seed)
    expected = sorted(c.code for c in full_deck(rules.decks, rules.jokers))
    history: list[Action] = []
    if check:
        check_invariants(state, expected)
    while not is_terminal(state):
        calls = [c for seat in range(rules.players) for c in interrupts(state, seat)]
        action = rng.choice(calls) if calls and rng.random() < 0.5 else rng.choice(legal_actions(state))
        before = state
        state = apply(state, action)
        assert before is not state
        history.append(action)
        if check:
            check_invariants(state, expected)
        assert len(history) <= rules.max_moves
    return history, state


def replay(rules: Rules, seed: int, history: list[Action]) -> State:
    state = new_game(rules, seed)
    for action in history:
        state = apply(state, action)
    return state


@pytest.mark.parametrize("core", CORE, ids=lambda c: "p{}d{}j{:d}s{:d}{}".format(*c))
def test_random_playouts_every_combination(core):
    for k in range(2):
        index = CORE.index(core) * 2 + k
        rules = rules_for(index, core)
        history, end = play_random_game(rules, seed=index)
        assert end.end_reason in ("finish", "deadlock", "max_moves")
        assert end.moves == len(history) <= rules.max_moves


def test_fixed_seed_replays_identically_despite_global_random():
    rules = Rules(players=4, decks=2)
    random.seed(0)
    history, end = play_random_game(rules, seed=42)
    for disturbance in (1, 2, 3):
        random.seed(disturbance)
        random.random()
        assert replay(rules, 42, history) == end
        assert new_game(rules, 42) == new_game(rules, 42)
    assert new_game(rules, 43) != new_game(rules, 42)


def test_max_moves_cap_ends_the_round():
    rules = Rules(players=3, max_moves=25)
    for seed in range(10):
        history, end = play_random_game(rules, seed)
        assert len(history) <= 25
        if len(history) == 25 and end.end_reason == "max_moves":
            assert end.ranking and sorted(placings(end)) == [1, 2, 3]


def test_every_legal_action_applies_and_reordered_middles_are_accepted():
    rng = random.Random(5)
    for seed in range(30):
        rules = Rules(players=2 + seed % 3, decks=1 + seed % 4)
        state = new_game(rules, seed)
        while not is_terminal(state):
            acts = legal_actions(state)
            for act in acts:
                apply(state, act)  # must not raise
                if isinstance(act, Play) and len(act.cards) > 3:
                    middle = list(act.cards[1:-1])
                    rng.shuffle(middle)
                    apply(state, Play([act.cards[0], *middle, act.cards[-1]], act.suit, act.declare))
            state = apply(state, rng.choice(acts))


def test_illegal_single_card_plays_raise_with_rule():
    """Every single-card play not listed as legal is rejected with a named rule."""
    rng = random.Random(8)
    checked = 0
    for seed in range(40):
        rules = Rules(players=3, stacking=("matching", "any", "none")[seed % 3], stop=seed % 2 == 0)
        state = new_game(rules, seed)
        while not is_terminal(state):
            acts = legal_actions(state)
            legal_set = set(acts)
            if state.phase is Phase.PLAY:
                for card in set(state.hands[state.current]):
                    left = len(state.hands[state.current]) - 1
                    suit = "s" if card.rank == 14 else None
                    candidate = Play([card], suit=suit, declare=left == 1)
                    if candidate in legal_set:
                        continue
                    with pytest.raises(IllegalActionError) as err:
                        apply(state, candidate)
                    assert err.value.rule
                    checked += 1
            state = apply(state, rng.choice(acts))
    assert checked > 100


def test_observation_never_shows_other_hands():
    for seed in range(20):
        rules = Rules(players=4)
        history, _ = play_random_game(rules, seed, check=False)
        state = new_game(rules, seed)
        for action in history[:40]:
            state = apply(state, action)
            for seat in range(4):
                obs = observe(state, seat)
                assert obs.hand == state.hands[seat]
                others = [state.hands[o] for o in range(4) if o != seat and state.hands[o]]
                assert all(h is not v and h != v for h in others for k, v in vars(obs).items() if k != "hand")


@pytest.mark.slow
def test_random_playouts_many_games_every_combination():
    for i, core in enumerate(CORE):
        for k in range(len(EXTRA) * 3):
            index = i * 1000 + k
            rules = rules_for(k, core)
            play_random_game(rules, seed=index)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**9),
    st.sampled_from(CORE),
    st.sampled_from(EXTRA),
    st.integers(5, 10),
)
def test_property_cards_conserved_and_games_end(seed, core, extra, start_cards):
    players, decks, jokers, stop, stacking = core
    ace_wild, start_card, end_mode = extra
    rules = Rules(players=players, decks=decks, jokers=jokers, stop=stop, stacking=stacking, ace_wild=ace_wild,
                  start_card=start_card, end_mode=end_mode, start_cards=start_cards, max_moves=600)  # fmt: skip
    history, end = play_random_game(rules, seed)
    assert is_terminal(end) and len(history) <= 600


def test_clone_and_serialise_round_trip_mid_game():
    import copy
    import pickle

    rules = Rules(players=3, decks=2)
    history, _ = play_random_game(rules, seed=17, check=False)
    state = new_game(rules, 17)
    for step, action in enumerate(history[: len(history) // 2]):
        state = apply(state, action)
        if step % 10:
            continue
        legal_actions(state)  # fills the cache, which must not disturb equality
        for clone in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
            assert clone == state
            assert legal_actions(clone) == legal_actions(state)
    rest = history[len(history) // 2 :]
    a, b = state, pickle.loads(pickle.dumps(state))
    for action in rest:
        a, b = apply(a, action), apply(b, action)
    assert a == b and is_terminal(a)
