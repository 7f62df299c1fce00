"""A Macao round saved as JSON and read back is the same round (macao.snapshot)."""

from __future__ import annotations

import json
import random

import pytest

from macao import Rules, apply, interrupts, is_terminal, legal_actions, new_game
from macao.snapshot import random_from_list, random_to_list, state_from_dict, state_to_dict

OPTIONS = [
    Rules(),
    Rules(players=4, decks=2, start_cards=7, stacking="any", end_mode="first_wins"),
    Rules(players=3, jokers=False, stop=False, ace_wild=False, start_card="ignore", stacking="none"),
]


def through_json(data: object) -> object:
    return json.loads(json.dumps(data))


@pytest.mark.parametrize("rules", OPTIONS)
def test_positions_of_seeded_rounds_round_trip(rules: Rules) -> None:
    """The opening moves one by one, then every 25th position and the end of the round."""
    for game in range(6):
        rng = random.Random(game)
        state = new_game(rules, seed=f"snap:{game}")
        step = 0
        while True:
            checked = step < 40 or step % 25 == 0 or is_terminal(state)
            if checked:
                back = state_from_dict(through_json(state_to_dict(state)))  # type: ignore[arg-type]
                assert back == state
                assert back.card_counts() == state.card_counts()
            if is_terminal(state):
                break
            actions = legal_actions(state) + [a for s in range(rules.players) for a in interrupts(state, s)]
            action = rng.choice(actions)
            if checked:  # the restored round goes on exactly as the original does
                assert apply(back, action) == apply(state, action)
            state = apply(state, action)
            step += 1


def test_a_saved_generator_draws_the_same_numbers() -> None:
    rng = random.Random("seat 1")
    rng.random()
    copy = random_from_list(through_json(random_to_list(rng)))  # type: ignore[arg-type]
    assert [copy.random() for _ in range(5)] == [rng.random() for _ in range(5)]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.pop("hands"), "KeyError"),
        (lambda d: d.update(version=99), "version 1 was expected"),
        (lambda d: d.update(current=7), "current must be a seat"),
        (lambda d: d.update(stock=["Zz"]), "stock"),
        (lambda d: d["rules"].update(players=9), "players"),
    ],
)
def test_a_damaged_save_is_refused_with_a_reason(change: object, words: str) -> None:
    data = state_to_dict(new_game(Rules(), seed=3))
    change(data)  # type: ignore[operator]
    with pytest.raises(ValueError, match=words):
        state_from_dict(data)
