"""Bad input: invalid rule options, malformed actions and illegal actions name what is wrong."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macao import (
    Accept,
    CallMacao,
    Draw,
    IllegalActionError,
    InvalidRulesError,
    KeepDrawn,
    Pass,
    Play,
    PlayDrawn,
    Rules,
    apply,
    is_terminal,
    legal_actions,
    make_state,
    new_game,
    placings,
)
from macao.state import GameNotOverError
from solver.cards import parse_cards


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"players": 1}, "players must be an integer 2..4, got 1"),
        ({"players": 5}, "players must be an integer 2..4, got 5"),
        ({"players": "3"}, "players must be an integer 2..4, got '3'"),
        ({"players": True}, "players must be an integer 2..4, got True"),
        ({"decks": 0}, "decks must be an integer 1..4, got 0"),
        ({"decks": 5}, "decks must be an integer 1..4, got 5"),
        ({"start_cards": 4}, "start_cards must be an integer 5..10, got 4"),
        ({"start_cards": 11}, "start_cards must be an integer 5..10, got 11"),
        ({"start_cards": 7.0}, "start_cards must be an integer 5..10, got 7.0"),
        ({"jokers": "yes"}, "jokers must be True or False, got 'yes'"),
        ({"stop": 1}, "stop must be True or False, got 1"),
        ({"ace_wild": None}, "ace_wild must be True or False, got None"),
        ({"stacking": "bombs"}, "stacking must be one of 'matching' | 'any' | 'none', got 'bombs'"),
        ({"start_card": "keep"}, "start_card must be one of 'redraw' | 'ignore', got 'keep'"),
        ({"end_mode": "first_loses"}, "end_mode must be one of 'last_loses' | 'first_wins', got 'first_loses'"),
        ({"macao_penalty": -1}, "macao_penalty must be an integer 0..20, got -1"),
        ({"first_player": 2}, "first_player must be 'random' or a seat 0..1, got 2"),
        ({"first_player": "me"}, "first_player must be 'random' or a seat 0..1, got 'me'"),
        ({"max_moves": 0}, "max_moves must be an integer 1..1000000, got 0"),
    ],
)
def test_bad_rules_are_rejected_with_clear_messages(options, fragment):
    with pytest.raises(InvalidRulesError) as err:
        Rules(**options)
    assert isinstance(err.value, ValueError)
    assert fragment in str(err.value)


def test_rules_defaults_match_the_options_table():
    r = Rules()
    assert (r.players, r.decks, r.start_cards, r.jokers, r.stop) == (2, 1, 5, True, True)
    assert (r.stacking, r.ace_wild, r.start_card, r.end_mode) == ("matching", True, "redraw", "last_loses")
    assert (r.macao_penalty, r.first_player, r.max_moves) == (5, "random", 2000)
    assert Rules(players=4, first_player=3).first_player == 3


def test_rules_from_dict_rejects_unknown_names():
    with pytest.raises(InvalidRulesError, match="unknown rule option"):
        Rules.from_dict({"player": 3})


def test_bad_new_game_arguments():
    with pytest.raises(ValueError, match="seed"):
        new_game(Rules(), seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown card 'ZZ'"):
        new_game(Rules(), seed=1, deck_order="As ZZ")
    with pytest.raises(ValueError, match="not in the 52-card deck"):
        new_game(Rules(jokers=False), seed=1, deck_order="BJ")
    with pytest.raises(ValueError, match="not in the 54-card deck"):
        new_game(Rules(), seed=1, deck_order="As As")
    with pytest.raises(TypeError):
        new_game({"players": 2}, seed=1)  # type: ignore[arg-type]


def test_malformed_actions():
    with pytest.raises(IllegalActionError, match="at least one card"):
        Play([])
    with pytest.raises(IllegalActionError, match="unknown card 'Xs'"):
        Play("Xs")
    with pytest.raises(IllegalActionError, match="suit must be one of"):
        Play("As", suit="x")
    with pytest.raises(IllegalActionError, match="declare must be True or False"):
        Play("As", declare="yes")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="seat number"):
        CallMacao("1", 0)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="expected a macao action"):
        apply(new_game(Rules(), 1), "draw")  # type: ignore[arg-type]


def _base():
    return make_state(hands=["5H AC 9D 9S 4D", "KD 7S"], top="9H")


@pytest.mark.parametrize(
    ("action", "rule", "fragment"),
    [
        (Play("KD"), "2.3", "not in P0's hand"),
        (Play("9D 5H"), "2.5", "one rank"),
        (Play("4D"), "2.2", "matches neither"),
        (Play("AC"), "2.3a ace", "names the next suit"),
        (Play("9D", suit="h"), "2.3a ace", "only an Ace names a suit"),
        (Play("9D", declare=True), "2.8", "exactly 1 card"),
        (Accept(), "2.3a", "nothing is pending"),
        (Pass(), "2.3a", "use Draw"),
        (KeepDrawn(), "2.3d", "right after a Draw"),
        (PlayDrawn(), "2.3d", "right after a Draw"),
        (CallMacao(1, 0), "2.8", "nobody is exposed"),
        (CallMacao(0, 0), "2.8", "themselves"),
        (CallMacao(3, 0), "2.8", "seat 0..1"),
    ],
)
def test_illegal_actions_name_the_rule_and_leave_state_unchanged(action, rule, fragment):
    state = _base()
    snapshot = repr(state), state.log
    with pytest.raises(IllegalActionError) as err:
        apply(state, action)
    assert err.value.rule == rule
    assert f"(rule {rule})" in str(err.value)
    assert fragment in str(err.value)
    assert (repr(state), state.log) == snapshot


def test_pending_penalty_errors():
    state = make_state(hands=["KD 9D", "2S 8H 7C"], top="3H", pending_draw=3, current=1, active_suit="h")
    with pytest.raises(IllegalActionError, match="Draw is illegal") as err:
        apply(state, Draw())
    assert err.value.rule == "2.3b"
    with pytest.raises(IllegalActionError, match="only draw cards"):
        apply(state, Play("8H"))
    with pytest.raises(IllegalActionError, match="Accept it instead"):
        apply(state, Pass())


def test_after_draw_only_play_or_keep():
    state = make_state(hands=["KD 9D", "8H 8C"], top="6C", stock_top="6H", current=1)
    state = apply(state, Draw())
    with pytest.raises(IllegalActionError, match="only PlayDrawn or KeepDrawn") as err:
        apply(state, Play("8C"))
    assert err.value.rule == "2.3d"


def test_nothing_is_legal_after_the_end():
    state = make_state(hands=["9S", "KD 9D"], top="9H")
    state = apply(state, Play("9S"))
    assert is_terminal(state)
    with pytest.raises(IllegalActionError, match="round is over") as err:
        apply(state, Draw())
    assert err.value.rule == "2.7"


def test_placings_before_the_end():
    with pytest.raises(GameNotOverError, match="not over"):
        placings(new_game(Rules(), 1))


def test_make_state_validation():
    with pytest.raises(ValueError, match="hands must give 3 seats"):
        make_state(Rules(players=3), hands=["As", "Ks"], top="2c")
    with pytest.raises(ValueError, match="used too often"):
        make_state(hands=["As", "As"], top="2c")
    with pytest.raises(ValueError, match="both be positive"):
        make_state(hands=["As", "Ks"], top="2c", pending_draw=2, pending_skip=1)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=12), st.sampled_from(["s", "h", "d", "c", None, "x", ""]), st.integers(0, 3))
def test_text_actions_either_apply_or_raise_illegal_action(text, suit, seed):
    """Fuzz: any typed play is either legal (and applies) or raises IllegalActionError."""
    state = new_game(Rules(players=2 + seed % 3), seed)
    try:
        action = Play(text, suit=suit)
    except IllegalActionError:
        return
    try:
        after = apply(state, action)
    except IllegalActionError as err:
        assert err.rule
        return
    assert after.moves == 1
    assert action in legal_actions(state) or len(action.cards) > 2


def test_hand_built_states_are_normalised_and_stay_immutable():
    import dataclasses

    base = make_state(hands=["5H 9D", "KD 7S"], top="9H")
    edited = dataclasses.replace(base, hands=[["9D", "5H", "9S"], ["KD"]], current=1)  # type: ignore[arg-type]
    assert edited.hands == (tuple(parse_cards("5h 9s 9d")), tuple(parse_cards("Kd")))
    after = apply(edited, Draw())
    assert edited.hands[1] == tuple(parse_cards("Kd")) and len(after.hands[1]) == 2
    with pytest.raises(ValueError, match="hands must give 2 seats"):
        dataclasses.replace(base, hands=[["9D"]])  # type: ignore[arg-type]
