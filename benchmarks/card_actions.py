"""How many taps or drags the card table asks of a player (issue 10's action counts).

    PYTHONPATH=. python benchmarks/card_actions.py              # 1,000 hands, 200 rounds
    PYTHONPATH=. python benchmarks/card_actions.py --quick      # 200 hands, 40 rounds

(a) Practice: a hand is dealt high to low (back, middle, front) and set into the
    solver's best set (vietnamese, 4 players, fast).  In the editor one drag of a card
    onto a card of a full row swaps them, so the drags needed are the fewest swaps that
    bring every card into its row: a pair of cards that belong in each other's rows is
    one swap, three cards in a cycle over the three rows are two.  Tapping a card and
    then a card is the same swap in two taps.  Submitting is one more action.
(b) Macao: the Normal bot plays seat 0 against a Normal bot, and each of its actions is
    priced as the table would: a lit card whose play is the only one it starts is one
    tap; a play of k cards of a rank is k taps and Play; an Ace is a tap and a suit;
    Draw, Accept, Pass, Keep it are one tap each; a declared Macao! is one more.
    A turn is what seat 0 does from getting the turn to losing it.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence

import solver
from app.card_text import dealt_layout
from app.macao_table import one_tap_plays
from macao import Action, Play, PlayDrawn, Rules, State, apply, is_terminal, legal_actions, new_game, observe
from macao.bots import make_bot
from macao.simulate import offer_calls
from solver.cards import full_deck

SEED = 2026


def swaps_to_best(layout: list[list[solver.Card]], best: list[list[solver.Card]]) -> int:
    """The fewest swaps that move every card of ``layout`` into its row of ``best``."""
    goal = {card: row for row, cards in enumerate(best) for card in cards}
    wrong = [[0] * 3 for _ in range(3)]  # wrong[i][j]: cards in row i that belong in row j
    for i, cards in enumerate(layout):
        for card in cards:
            if goal[card] != i:
                wrong[i][goal[card]] += 1
    swaps = 0
    for i in range(3):
        for j in range(i + 1, 3):
            pairs = min(wrong[i][j], wrong[j][i])
            swaps += pairs
            wrong[i][j] -= pairs
            wrong[j][i] -= pairs
    left = sum(map(sum, wrong))  # what is left goes round the three rows in cycles of three
    return swaps + 2 * left // 3


def practice(hands: int) -> list[int]:
    rng = random.Random(SEED)
    drags = []
    for _ in range(hands):
        cards = rng.sample(full_deck(), 13)
        best = solver.solve(cards, rules="vietnamese", players=4, seed=2024)
        if best.special:
            continue  # a special hand wins however it is set: nothing to arrange
        drags.append(swaps_to_best(dealt_layout(cards), [list(r) for r in best.best.rows]))
    return drags


def action_taps(action: Action, state: State, legal: Sequence[Action]) -> int:
    """Taps the table needs for one action of seat 0."""
    obs = observe(state, 0)
    if isinstance(action, Play):
        hand = list(obs.hand)
        first = hand.index(action.cards[0])
        one = one_tap_plays(hand, legal, action.declare, None)[first]
        extra = 1 if action.declare else 0
        if one is not None:
            return 1 + extra
        if action.suit is not None:
            return len(action.cards) + 1 + extra  # the cards, then a suit
        return len(action.cards) + 1 + extra  # the cards, then Play
    if isinstance(action, PlayDrawn):
        return (2 if action.suit is not None else 1) + (1 if action.declare else 0)
    return 1


def macao(rounds: int) -> list[int]:
    per_turn: list[int] = []
    bots = [make_bot("normal"), make_bot("normal")]
    for n in range(rounds):
        state = new_game(Rules(players=2), f"{SEED}:{n}")
        rngs = [random.Random(f"{SEED}:{n}:{s}") for s in range(2)]
        taps = 0
        while not is_terminal(state):
            if state.exposed is not None:  # a chance to call Macao! on an exposed player (one tap)
                before = state
                state = offer_calls(state, bots, rngs)
                taps += state is not before and before.exposed == 1
            if is_terminal(state):
                break
            seat = state.current
            legal = legal_actions(state)
            action = bots[seat].choose(observe(state, seat), legal, rngs[seat])
            if seat == 0:
                taps += action_taps(action, state, legal)
            state = apply(state, action)
            if seat == 0 and (state.current != 0 or is_terminal(state)):
                per_turn.append(taps)
                taps = 0
    return per_turn


def summary(name: str, values: list[int]) -> str:
    ordered = sorted(values)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (
        f"{name:<34} n={len(values):>5}  mean {statistics.mean(values):5.2f}  median {statistics.median(values):4.1f}"
        f"  90th {p90:3d}  max {max(values):3d}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="200 hands and 40 rounds")
    args = parser.parse_args()
    hands, rounds = (200, 40) if args.quick else (1000, 200)
    drags = practice(hands)
    print(summary("practice: drags to the best set", drags))
    print(summary("practice: taps (card, card) to it", [2 * d for d in drags]))
    print(summary("practice: hands over 13 drags", [int(d > 13) for d in drags]))
    turns = macao(rounds)
    print(summary("macao: taps per turn (Normal play)", turns))


if __name__ == "__main__":
    main()
