"""One conformance test, run by every game behind solver.game.Game (issue #29, item 4):
seeded random playouts that check the protocol's invariants after every action."""

from __future__ import annotations

import random
from typing import Any

import pytest

import macao
from macao.game import MacaoGame
from solver import InvalidHandError, strongest_back_first
from solver.game import Game, MauBinhGame, Round, Splits

GAMES: dict[str, Game[Any, Any, Any]] = {
    "mau-binh-2": MauBinhGame("vietnamese", 2),
    "mau-binh-4": MauBinhGame("four-two", 4),
    "macao-2": MacaoGame(macao.Rules()),
    "macao-4": MacaoGame(macao.Rules(players=4)),
}
#: Seeded playouts per game (random Macao rounds run long, so fewer of them).
PLAYOUTS = {"mau-binh-2": 40, "mau-binh-4": 40, "macao-2": 30, "macao-4": 10}


def playout(game: Game[Any, Any, Any], seed: int) -> tuple[list[tuple[int, Any]], tuple[float, ...]]:
    """A seeded random game, checking the protocol on every state; its actions and returns."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    players = game.num_players(state)
    history = []
    while not game.is_terminal(state):
        seats = game.to_act(state)
        assert seats and len(set(seats)) == len(seats) and all(0 <= s < players for s in seats)
        with pytest.raises(ValueError):
            game.returns(state)  # no payoff before the end
        for seat in range(players):
            game.observation(state, seat)
            if seat not in seats:
                assert len(game.legal_actions(state, seat)) == 0
        seat = rng.choice(seats)
        legal = game.legal_actions(state, seat)
        assert len(legal) > 0
        action = legal[rng.randrange(len(legal))]
        assert action in legal
        before = state
        state = game.apply(state, seat, action)
        assert game.to_act(before) == seats  # states are values: applying changed nothing in place
        history.append((seat, action))
    assert game.to_act(state) == ()
    returns = game.returns(state)
    assert len(returns) == players
    assert sum(returns) == pytest.approx(0.0)
    for seat in range(players):
        game.observation(state, seat)
        assert len(game.legal_actions(state, seat)) == 0
    return history, returns


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_playouts_keep_the_protocol(name: str) -> None:
    game = GAMES[name]
    assert isinstance(game, Game)
    for seed in range(PLAYOUTS[name]):
        history, returns = playout(game, seed)
        assert playout(game, seed) == (history, returns)  # a seed replays exactly


@pytest.mark.parametrize("name", sorted(GAMES))
def test_bad_seats_and_actions_are_value_errors(name: str) -> None:
    game = GAMES[name]
    state = game.new_state(3)
    players = game.num_players(state)
    for seat in (-1, players, "0"):  # "0": not an int, refused as the out-of-range seats are
        with pytest.raises(ValueError):
            game.legal_actions(state, seat)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            game.observation(state, seat)  # type: ignore[arg-type]
    seat = game.to_act(state)[0]
    with pytest.raises(ValueError):
        game.apply(state, seat, "not an action")
    idle = [s for s in range(players) if s not in game.to_act(state)]
    if idle:  # a seat that may not act now cannot take the acting seat's action
        with pytest.raises(ValueError):
            game.apply(state, idle[0], game.legal_actions(state, seat)[0])


# --- each game's own part of the contract ---------------------------------------------------------


def test_mau_binh_sets_stay_hidden_until_every_seat_has_set() -> None:
    game = MauBinhGame("vietnamese", 3)
    state = game.new_state(11)
    mine = strongest_back_first(state.hands[0])
    state = game.apply(state, 0, mine)
    view = game.observation(state, 1)
    assert view.has_set == (True, False, False) and view.sets is None and view.own_set is None
    assert game.observation(state, 0).own_set == mine
    with pytest.raises(ValueError, match="already set"):
        game.apply(state, 0, mine)
    with pytest.raises(InvalidHandError, match="exactly its 13 cards"):
        game.apply(state, 1, mine)
    for seat in (1, 2):
        state = game.apply(state, seat, str(strongest_back_first(state.hands[seat])))
    done = game.observation(state, 2)
    assert done.sets is not None and done.result is not None
    assert game.returns(state) == tuple(float(t) for t in done.result.totals)


def test_mau_binh_legal_sets_are_every_split_once() -> None:
    hand = MauBinhGame(players=2).new_state(5).hands[0]
    splits = Splits(hand)
    seen = {str(splits[i]) for i in range(0, len(splits), 97)}
    assert len(seen) == len(range(0, len(splits), 97))
    assert all(sorted(a.cards) == list(hand) for a in splits[:50])
    assert splits[-1] == splits[len(splits) - 1]
    with pytest.raises(IndexError):
        splits[len(splits)]
    rows = {(a.front, a.middle) for a in splits[:2000]}
    assert len(rows) == 2000


def test_mau_binh_deals_as_the_play_session() -> None:
    from solver.table import TableConfig

    config = TableConfig(seed=9, preset="seed", levels=("beginner",))
    state = MauBinhGame("seed", 2).new_state(config.deal_seed(4))
    assert isinstance(state, Round)
    assert [list(h) for h in state.hands] == config.deal(4)


def test_macao_returns_follow_the_placings() -> None:
    game = MacaoGame(macao.Rules(players=3))
    _, returns = playout(game, 2)
    assert sorted(returns) == [-1.0, 0.0, 1.0]


def test_macao_search_and_simulation_use_only_public_names() -> None:
    import ast
    from pathlib import Path

    package = Path(macao.__file__).resolve().parent
    for name in ("search.py", "simulate.py", "game.py"):
        tree = ast.parse((package / name).read_text(encoding="utf-8"))
        private = [alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level
                   for alias in node.names if alias.name.startswith("_")]  # fmt: skip
        assert private == [], name
