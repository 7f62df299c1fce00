"""The Macao table's lit cards and one-tap plays (app/macao_table.py) over seeded rounds,
and the practice action counter of benchmarks/card_actions.py."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping

import pytest

from app.cards import TableEvent
from app.macao_table import action_for, table_view, why_illegal
from macao import (
    IllegalActionError,
    Play,
    PlayDrawn,
    Rules,
    State,
    apply,
    is_terminal,
    legal_actions,
    new_game,
    observe,
)
from macao.bots import make_bot
from solver import parse_cards
from solver.cards import Card

NAMES = ["You", "P1", "P2", "P3"]


def rounds(count: int, options: Mapping[str, object], players: int = 3) -> Iterator[State]:
    """Every state of seeded Normal-bot rounds (``options``: Macao rule options) in which seat 0 is to move."""
    bot = make_bot("normal")
    for n in range(count):
        state = new_game(Rules(players=players, **options), f"table:{n}")  # type: ignore[arg-type]
        rng = random.Random(n)
        while not is_terminal(state):
            if state.current == 0:
                yield state
            state = apply(state, bot.choose(observe(state, state.current), legal_actions(state), rng))


VARIANT = {"decks": 2, "ace_wild": False, "stacking": "any"}


@pytest.mark.parametrize("options", [{}, VARIANT], ids=["default", "variant"])
def test_a_card_is_lit_exactly_when_a_legal_action_starts_with_it(options: dict[str, object]) -> None:
    seen_one_tap = seen_select = 0
    for state in rounds(12, options):
        for declare in (False, True):
            facts = table_view(state, NAMES, declare)
            table, legal = facts.table, facts.legal
            hand = [Card.parse(c) for c in table.hand]
            assert [str(c) for c in state.hands[0]] == list(table.hand)
            for i, card in enumerate(hand):
                starts = [a for a in legal if isinstance(a, Play) and a.cards[0] == card]
                drawn = table.drawn_index == i and any(isinstance(a, PlayDrawn) for a in legal)
                assert table.playable[i] == (bool(starts) or drawn), (state.moves, card)
                tap = table.one_tap[i]
                if tap is None:
                    seen_select += table.playable[i]
                    continue
                seen_one_tap += 1
                action = legal[tap]
                assert table.playable[i]
                if isinstance(action, Play):
                    assert action.cards[0] == card and action.declare in (declare, False)
                    assert len({(a.cards, a.suit) for a in starts}) == 1  # the only play that card starts
                else:
                    assert isinstance(action, PlayDrawn) and drawn
                event = TableEvent(kind="action", move=state.moves, action_id=tap)
                assert action_for(state, event, declare) is action
                apply(state, action)  # legal: never raises
    assert seen_one_tap > 100 and seen_select > 5


def test_a_tap_from_an_earlier_table_is_ignored_and_a_bad_play_is_said_plainly() -> None:
    # you hold 5h 6h 8h 9h Th, the top card is 5c (the deck order of tests/test_macao_app.py)
    deck = "5H KS 6H KC 8H QS 9H QC TH JS 5C QD KD JD JC"
    state = new_game(Rules(players=2, first_player=0), "plain", deck)
    table = table_view(state, NAMES, False).table
    assert table.playable == [True, False, False, False, False]
    stale = TableEvent(kind="action", move=state.moves - 1, action_id=0)
    assert action_for(state, stale, False) is None
    play = action_for(state, TableEvent(kind="play", move=state.moves, cards=("9h",)), False)
    assert play == Play("9h")
    with pytest.raises(IllegalActionError) as refused:
        apply(state, play)  # type: ignore[arg-type]
    assert "(rule" in str(refused.value)
    text = why_illegal(state, play, str(refused.value))  # type: ignore[arg-type]
    assert text == "9♥ doesn't follow 5♣: play a ♣, a 5, an Ace or a joker."
    mixed = Play("5h 6h")
    with pytest.raises(IllegalActionError) as refused:
        apply(state, mixed)
    assert why_illegal(state, mixed, str(refused.value)) == "Cards played together must all have the same rank."


def test_swaps_to_best_counts_pairs_and_cycles() -> None:
    from benchmarks.card_actions import swaps_to_best

    rows = [parse_cards("2c 3c 4c"), parse_cards("5c 6c 7c 8c 9c"), parse_cards("Tc Jc Qc Kc Ac")]
    assert swaps_to_best(rows, rows) == 0
    swapped = [parse_cards("Tc 3c 4c"), rows[1], parse_cards("2c Jc Qc Kc Ac")]
    assert swaps_to_best(rows, swapped) == 1
    cycle = [parse_cards("5c 3c 4c"), parse_cards("Tc 6c 7c 8c 9c"), parse_cards("2c Jc Qc Kc Ac")]
    assert swaps_to_best(rows, cycle) == 2


@pytest.mark.parametrize("options", [{}, VARIANT, {"stacking": "none"}], ids=["default", "variant", "no-stacking"])
def test_every_dim_card_says_why_and_guided_hints_cover_every_lit_card(options: dict[str, object]) -> None:
    reasons: set[str] = set()
    for state in rounds(10, options):
        facts = table_view(state, NAMES, False, guided=True)
        table = facts.table
        lit = sum(table.playable)
        assert len(table.guide) == lit
        for i, code in enumerate(table.hand):
            if table.playable[i]:
                assert table.reasons[i] == ""
                continue
            reason = table.reasons[i]
            assert reason and "rule" not in reason and "Traceback" not in reason, (code, reason)
            reasons.add(reason.split(":")[0].split(" ")[-1])
            if state.phase.value == "play":  # the card alone is refused by the engine too
                with pytest.raises(IllegalActionError):
                    apply(state, Play(code))
        assert table_view(state, NAMES, False).table.guide == []  # guided hints only when asked
    assert len(reasons) > 3


def test_the_seats_last_move_is_fresh_only_when_it_came_after_yours() -> None:
    deck = "5H KS 6H KC 8H QS 9H QC TH JS 5C QD KD JD JC"
    state = new_game(Rules(players=2, first_player=0), "plain", deck)
    seat = table_view(state, NAMES, False).table.seats[0]
    assert (seat.last_move, seat.fresh) == ("", False)
    state = apply(state, Play("5h"))  # P1 now draws QD and cannot play it
    seat = table_view(state, NAMES, False).table.seats[0]
    assert (seat.last_move, seat.fresh) == ("", False)  # P1 has not moved yet
    state = apply(state, legal_actions(state)[0])
    assert state.current == 0
    seat = table_view(state, NAMES, False).table.seats[0]
    assert seat.last_move in ("drew a card", "drew a card and kept it") and seat.fresh
    state = apply(state, Play("6h"))
    assert not table_view(state, NAMES, False).table.seats[0].fresh
