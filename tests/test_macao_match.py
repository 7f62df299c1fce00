"""The match option's scoring (macao/match.py): points per round, running totals, the winner.

The rule is the project's DECISION written in the module docstring and docs/macao.md:
``players - place`` points a round, a fixed number of rounds, ties broken by round wins
and then by the last round's place.  Real rounds between bots feed it too.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from macao import Rules, placings
from macao.bots import make_bot
from macao.match import InvalidMatchError, MatchScore, round_points
from macao.simulate import play_round


def test_points_per_round_are_players_minus_place() -> None:
    assert round_points([1, 2]) == (1, 0)
    assert round_points([2, 1]) == (0, 1)
    assert round_points([3, 1, 4, 2]) == (1, 3, 0, 2)


@pytest.mark.parametrize("bad", [[1, 1], [0, 1], [1, 3], [], [2, 3, 4]])
def test_placings_that_cannot_happen_are_refused_with_the_input(bad: list[int]) -> None:
    with pytest.raises(InvalidMatchError, match=repr(bad).replace("[", r"\[").replace("]", r"\]")):
        round_points(bad)


def test_running_score_and_winner_of_a_two_player_match() -> None:
    score = MatchScore(players=2, length=5)
    assert score.totals == (0, 0) and not score.is_over and score.winner is None
    for places, totals in (([1, 2], (1, 0)), ([2, 1], (1, 1)), ([2, 1], (1, 2)), ([1, 2], (2, 2))):
        score = score.add(places)
        assert score.totals == totals
        assert score.winner is None
    score = score.add([2, 1])
    assert score.is_over and score.played == 5 and score.totals == (2, 3) and score.winner == 1
    with pytest.raises(InvalidMatchError, match="over"):
        score.add([1, 2])


def test_a_tie_on_points_goes_to_more_round_wins_then_the_last_round() -> None:
    # 4 players: seat 0 scores 3+0 = 3 (1 win), seat 2 2+2 = 4, seat 3 1+3 = 4 (1 win)
    score = MatchScore(4, 2, ((1, 4, 2, 3), (4, 3, 2, 1)))
    assert score.totals == (3, 1, 4, 4) and score.wins == (1, 0, 0, 1)
    assert score.standings() == [3, 2, 0, 1] and score.winner == 3
    # 3 players all on 3 points with one win each: the last round's places decide
    even = MatchScore(3, 3, ((1, 2, 3), (3, 1, 2), (2, 3, 1)))
    assert even.totals == (3, 3, 3) and even.wins == (1, 1, 1)
    assert even.standings() == [2, 0, 1] and even.winner == 2
    # 2 players at 2-2 after four rounds: the last round's winner takes the match
    level = MatchScore(2, 4, ((1, 2), (1, 2), (2, 1), (2, 1)))
    assert level.totals == (2, 2) and level.winner == 1


@given(st.integers(2, 4), st.integers(1, 6), st.randoms(use_true_random=False))
def test_points_add_up_and_there_is_exactly_one_winner(players: int, length: int, rng) -> None:
    score = MatchScore(players, length)
    for _ in range(length):
        places = list(range(1, players + 1))
        rng.shuffle(places)
        score = score.add(places)
    per_round = players * (players - 1) // 2
    assert sum(score.totals) == per_round * length
    assert score.is_over and score.winner is not None
    ranked = score.standings()
    assert sorted(ranked) == list(range(players))
    assert score.totals[ranked[0]] == max(score.totals)
    assert MatchScore.from_dict(score.to_dict()) == score


def test_bad_matches_and_saved_data_are_refused() -> None:
    for players, length, said in ((1, 3, "players must be 2..4, got 1"), (5, 3, "got 5"),
                                  (2, 0, "length=0"), (True, 3, "got True")):  # fmt: skip
        with pytest.raises(InvalidMatchError, match=said):
            MatchScore(players, length)  # type: ignore[arg-type]
    with pytest.raises(InvalidMatchError, match="needs 3 placings"):
        MatchScore(3, 2, ((1, 2),))
    with pytest.raises(InvalidMatchError, match="3 rounds played in a match of 2"):
        MatchScore(2, 2, ((1, 2),) * 3)
    for data in ({}, {"players": 2, "length": 3, "results": "x"}, {"players": "two", "length": 3, "results": []}):
        with pytest.raises(InvalidMatchError):
            MatchScore.from_dict(data)  # type: ignore[arg-type]


def test_a_match_of_real_bot_rounds() -> None:
    rules = Rules(players=3)
    bots = [make_bot(level) for level in ("normal", "easy", "random")]
    score = MatchScore(3, 5)
    for n in range(5):
        score = score.add(placings(play_round(rules, bots, n)))
    assert score.is_over and sum(score.totals) == 15
    assert score.winner == score.standings()[0]
