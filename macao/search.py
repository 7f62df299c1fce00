"""Determinized Monte Carlo for Macao (issue 15): the search behind the Hard bot.

A seat knows its own hand, the other hands' sizes, the stock's size and the whole
discard pile (:class:`~macao.state.Observation`).  Everything else, the *hidden* cards,
is the full deck(s) minus its hand minus the discard pile.  :func:`sample_world` deals
the hidden cards at random into the other hands (with their observed sizes) and the
stock, which gives a complete :class:`~macao.state.State` that agrees with everything
the seat has seen.  :func:`evaluate` then plays every candidate action in the same
sampled worlds, each followed by a playout with a rollout policy for every seat, and
returns each candidate's mean placing.

Common random numbers: every candidate meets the same worlds and the same playout
random streams, so the comparison between candidates is paired and the noise of the
deal mostly cancels.  A playout stops as soon as the searching seat's place is settled
(it went out, or the round ended).  The budget (:class:`Budget`) is a number of
playouts per decision, shared by the candidates still in the running: every
``min_worlds`` worlds, candidates clearly worse than the best so far are dropped.  An
optional CPU-time limit is checked between worlds.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from solver.cards import Card, full_deck

from .actions import Action, CallMacao
from .rules import Rules
from .state import CARD_OF_CODE, Observation, Phase, State, apply, legal_actions_cached, observe_unchecked


class Policy(Protocol):
    """What a playout needs from a bot (every :class:`macao.bots.Bot` fits)."""

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action: ...

    def interrupt(self, obs: Observation, rng: random.Random) -> CallMacao | None: ...


@dataclass(frozen=True)
class Budget:
    """How much search one decision may use.

    ``playouts``: playouts per decision, shared by the candidates; ``min_worlds``: the
    fewest sampled worlds every candidate meets, and how often (in worlds) candidates
    that are clearly worse than the best, by ``drop_z`` paired standard errors, are dropped;
    ``max_seconds``: stop adding worlds once this much CPU time is spent (``None``: no
    limit, fully reproducible); ``max_moves``: a playout longer than this ends and the
    seats still holding cards are ranked by hand size.
    """

    playouts: int = 128
    min_worlds: int = 8
    max_seconds: float | None = 0.3
    max_moves: int = 400
    drop_z: float = 2.0

    def __post_init__(self) -> None:
        if self.playouts < 1 or self.min_worlds < 1 or self.max_moves < 1:
            raise ValueError("playouts, min_worlds and max_moves must be positive")
        if self.max_seconds is not None and self.max_seconds <= 0:
            raise ValueError("max_seconds must be positive or None")


def hidden_codes(obs: Observation) -> list[int]:
    """Codes of the cards the seat cannot see: the full deck(s) minus its hand and the discard pile."""
    counts = [0] * 54
    for card in full_deck(obs.rules.decks, obs.rules.jokers):
        counts[card.code] += 1
    for card in obs.hand:
        counts[card.code] -= 1
    for card in obs.discard:
        counts[card.code] -= 1
    if min(counts) < 0:
        raise ValueError("the observation shows more copies of a card than the deck(s) hold")
    return [code for code in range(54) for _ in range(counts[code])]


def _ranks(rank: int) -> range:
    """The codes of the four cards of ``rank`` (2..14)."""
    return range((rank - 2) * 4, (rank - 1) * 4)


def _unplayable(rules: Rules, top: int, suit: int, kind: str) -> set[int]:
    """Codes a seat could have played instead of ``kind`` (a voluntary ``draw``, or
    accepting a ``penalty`` or a ``wait``) on top card ``top`` with active suit ``suit``
    (-1: any suit)."""
    if kind == "wait":
        return set(_ranks(4))
    if kind == "penalty":
        out = set(_ranks(7)) if rules.stop else set()
        if rules.stacking == "none":
            return out
        draw_cards = {52, 53, *_ranks(2), *_ranks(3)}
        if rules.stacking == "any" or top >= 52:
            return out | draw_cards
        top_rank = top // 4 + 2
        return out | {52, 53} | {c for c in draw_cards if c < 52 and (c // 4 + 2 == top_rank or c % 4 == suit)}
    if suit < 0:
        return set()  # anything could be played: drawing says nothing
    out = {52, 53} | {c for c in range(52) if c % 4 == suit}
    if rules.ace_wild:
        out |= set(_ranks(14))
    if top < 52:
        out |= set(_ranks(top // 4 + 2))
    return out


def inferred_voids(obs: Observation) -> dict[int, tuple[frozenset[int], int]]:
    """What the public log says the other seats do not hold, assuming they play whenever they can.

    A seat that drew voluntarily had no playable card; one that accepted a penalty had
    no counter and no stop; one that accepted a wait had no 4 (this is how Normal plays;
    a player may legally decline, so it is a belief, not a certainty).  For each other
    seat with such a clue: the codes it lacked at its latest clue (combined with earlier
    clues when it got no card in between) and how many of its current cards it has held
    since then (its hand size minus the cards it received afterwards, at least 0).
    """
    rules = obs.rules
    top, suit = -1, -1
    clues: dict[int, set[int]] = {}
    received: dict[int, int] = {}
    for event in obs.log:
        kind = event.kind
        if kind == "start" or kind == "play":
            top = event.cards[-1].code
            suit = -1 if event.suit is None else event.suit.index
            if kind == "start":
                suit = -1 if top >= 52 else top % 4
            continue
        seat = event.seat if kind != "call" else event.target
        if seat is None or seat == obs.seat:
            continue
        if kind in ("draw", "penalty", "wait") and top >= 0:
            lacked = _unplayable(rules, top, suit, kind)
            if lacked:
                if received.get(seat, 1) == 0 and seat in clues:
                    clues[seat] |= lacked
                else:
                    clues[seat] = set(lacked)
                received[seat] = 0
        if kind in ("draw", "penalty", "call") and seat in received:
            received[seat] += event.amount
    return {
        seat: (frozenset(lacked), max(0, obs.hand_sizes[seat] - received[seat]))
        for seat, lacked in clues.items()
        if seat not in obs.finished
    }


def _trailing_passes(obs: Observation) -> int:
    """Consecutive passes at the end of the log (the deadlock count, §2.6)."""
    passes = 0
    for event in reversed(obs.log):
        if event.kind == "pass":
            passes += 1
        elif event.kind in ("play", "draw", "penalty", "wait"):
            break
    return passes


def sample_world(
    obs: Observation,
    hidden: Sequence[int],
    rng: random.Random,
    voids: dict[int, tuple[frozenset[int], int]] | None = None,
) -> State:
    """A full state consistent with ``obs``: ``hidden`` dealt at random to the other hands and the stock.

    ``voids`` (from :func:`inferred_voids`) keeps the cards a seat is believed to lack
    out of the part of its hand it has held since the clue, as far as the hidden cards
    allow.  The world gets its own seed (drawn from ``rng``), so its reshuffles are random too.
    """
    cards = list(hidden)
    rng.shuffle(cards)
    sizes = obs.hand_sizes
    dealt: list[list[int]] = [[] for _ in sizes]
    if voids:
        taken = [False] * len(cards)
        for seat, (lacked, held) in voids.items():
            want = min(held, sizes[seat])
            for i, code in enumerate(cards):
                if want == 0:
                    break
                if not taken[i] and code not in lacked:
                    taken[i] = True
                    dealt[seat].append(code)
                    want -= 1
        cards = [code for i, code in enumerate(cards) if not taken[i]]
    pos = 0
    hands: list[tuple[Card, ...]] = []
    for seat, size in enumerate(sizes):
        if seat == obs.seat:
            hands.append(obs.hand)
            continue
        need = size - len(dealt[seat])
        codes = sorted(dealt[seat] + cards[pos : pos + need])
        pos += need
        hands.append(tuple(CARD_OF_CODE[c] for c in codes))
    stock = tuple(CARD_OF_CODE[c] for c in cards[pos:])
    if len(stock) != obs.stock_count:
        raise ValueError(
            f"the observation does not add up: {len(stock)} hidden cards left for a stock of {obs.stock_count}"
        )
    state = object.__new__(State)
    state.__dict__.update(
        rules=obs.rules, seed=rng.getrandbits(32), hands=tuple(hands), stock=stock,
        discard=obs.discard, current=obs.current, active_suit=obs.active_suit,
        pending_draw=obs.pending_draw, pending_skip=obs.pending_skip, skip_turns=obs.skip_turns,
        phase=obs.phase, drawn=obs.drawn, exposed=obs.exposed, finished=obs.finished,
        shuffle_count=1, passes=_trailing_passes(obs), moves=obs.moves, dealer=0, ranking=(),
        end_reason=None, log=(),
    )  # fmt: skip
    return state


def playout(state: State, seat: int, policies: Sequence[Policy], rng: random.Random, max_moves: int) -> float:
    """Play on with ``policies[s]`` in each seat until ``seat``'s place is settled; return that place.

    After ``max_moves`` actions the seats still holding cards are ranked by hand size
    (fewest first, ties shared), as a heuristic value of an unfinished round.
    """
    over = Phase.OVER
    n = state.rules.players
    for _ in range(max_moves):
        if state.phase is over:
            return float(state.ranking.index(seat) + 1)
        if seat in state.finished:
            return float(state.finished.index(seat) + 1)
        current = state.current
        action = policies[current].choose(observe_unchecked(state, current), legal_actions_cached(state), rng)
        state = apply(state, action)
        target = state.exposed
        if target is not None:
            for step in range(1, n):
                caller = (target + step) % n
                if caller in state.finished:
                    continue
                call = policies[caller].interrupt(observe_unchecked(state, caller), rng)
                if call is not None:
                    state = apply(state, call)
                    break
    if state.phase is over:
        return float(state.ranking.index(seat) + 1)
    if seat in state.finished:
        return float(state.finished.index(seat) + 1)
    mine = len(state.hands[seat])
    others = [len(state.hands[s]) for s in range(n) if s != seat and s not in state.finished]
    fewer = sum(1 for size in others if size < mine)
    ties = sum(1 for size in others if size == mine)
    return len(state.finished) + 1 + fewer + ties / 2


def _worse(mine: Sequence[float], best: Sequence[float], z: float) -> bool:
    """Is ``mine`` (placings) worse than ``best``'s in the same worlds by more than ``z``
    standard errors of the paired difference?"""
    n = len(mine)
    diffs = [m - b for m, b in zip(mine, best)]
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean > z * math.sqrt(var / n)


def evaluate(
    obs: Observation,
    candidates: Sequence[Action],
    policies: Sequence[Policy],
    rng: random.Random,
    budget: Budget,
    infer: bool = True,
    keep: int = 0,
) -> list[list[float]]:
    """The placing (1 = best) of each candidate in each sampled world, ``[candidate][world]``.

    Every candidate meets the same worlds and the same playout random streams, so the
    lists are paired (a shorter list holds the first worlds).  Successive elimination:
    after every ``min_worlds`` worlds, a candidate worse than the best so far by more
    than ``drop_z`` paired standard errors gets no more playouts, except ``keep``
    (the reference, e.g. Normal's own choice).  The search ends when the playout budget
    is spent, when only ``keep`` is left, or at the time limit.
    """
    if not candidates:
        raise ValueError("evaluate needs at least one candidate action")
    started = time.process_time()
    hidden = hidden_codes(obs)
    voids = inferred_voids(obs) if infer else None
    results: list[list[float]] = [[] for _ in candidates]
    active = list(range(len(candidates)))
    seat = obs.seat
    spent = worlds = 0
    while spent < budget.playouts or worlds < budget.min_worlds:
        world = sample_world(obs, hidden, rng, voids)
        stream = rng.getrandbits(64)
        for i in active:
            after = apply(world, candidates[i])
            results[i].append(playout(after, seat, policies, random.Random(stream), budget.max_moves))
        spent += len(active)
        worlds += 1
        if worlds % budget.min_worlds == 0 and len(active) > 1:
            best = min(active, key=lambda i: sum(results[i]))
            active = [i for i in active if i in (keep, best) or not _worse(results[i], results[best], budget.drop_z)]
            if active == [keep]:
                break
        if budget.max_seconds is not None and time.process_time() - started > budget.max_seconds:
            break
    return results
