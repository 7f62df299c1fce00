"""Computer opponents of macao.md §5.3: Random, Easy and Normal, and Hard (issue 15).

A bot sees only an :class:`~macao.state.Observation` (its own hand, hand sizes, the
table and the public log) plus the legal actions, and draws every random choice from
the ``random.Random`` it is handed, so games with bots replay exactly from a seed.

``choose(observation, legal, rng)`` picks one of ``legal``; ``interrupt(observation,
rng)`` may return a :class:`~macao.actions.CallMacao` while an opponent is exposed.

* **Random**: uniform over the legal actions; always declares and always calls
  (both configurable).
* **Easy**: plays whenever it can (uniform over plays), forgets to declare with
  p = 0.3 and calls an exposed opponent with p = 0.3.
* **Normal** ("greedy-defensive"): counters a penalty with its cheapest draw card, else
  stops it with a 7, else accepts; answers a wait with a 4; goes out when it can;
  otherwise scores each play (+2 per card shed, +1 per remaining card that will match,
  -3 for spending a wild card while holding more than 2 cards, -1 per special spent
  while the next opponent holds 4 or more, +3 for an attack card against an opponent
  down to 2 or fewer), names the suit it holds most, draws when it cannot play, always
  declares and calls an exposed opponent with p = 0.9.
* **Hard**: determinized Monte Carlo (:mod:`macao.search`): it samples the cards it
  cannot see, consistently with what it has seen, plays each candidate action followed
  by Normal playouts in the same sampled worlds, and leaves Normal's choice only for an
  action whose paired placings are better by a margin; always declares and calls.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from solver.cards import SUITS, Card, Suit

from .actions import Accept, Action, CallMacao, Draw, KeepDrawn, Play, PlayDrawn
from .search import Budget, evaluate
from .state import Observation, Phase


def _rank(card: Card) -> int:
    """2..14, or 15 for a joker."""
    return 15 if card.code >= 52 else card.code // 4 + 2


def _is_draw_card(card: Card) -> bool:
    return card.code >= 52 or _rank(card) in (2, 3)


def _is_special(card: Card) -> bool:
    return card.code >= 52 or _rank(card) in (2, 3, 4, 7, 14)


def _left_after(obs: Observation, action: Action) -> int:
    if isinstance(action, Play):
        return len(obs.hand) - len(action.cards)
    if isinstance(action, PlayDrawn):
        return len(obs.hand) - 1
    return len(obs.hand)


def _without_forgetting(obs: Observation, legal: Sequence[Action]) -> list[Action]:
    """Drop the ``declare=False`` variants of plays that leave one card.

    In sorted order a ``declare=True`` play directly follows its ``declare=False`` twin.
    """
    out: list[Action] = []
    for a in legal:
        if getattr(a, "declare", False):
            out[-1] = a
        else:
            out.append(a)
    return out


def _with_declare(obs: Observation, legal: Sequence[Action], declare: bool) -> list[Action]:
    """Keep one declare variant per play: ``declare`` where it is an option."""
    return [
        a
        for a in legal
        if not (isinstance(a, (Play, PlayDrawn)) and _left_after(obs, a) == 1 and a.declare != declare)
    ]


def _call(obs: Observation, rng: random.Random, probability: float) -> CallMacao | None:
    target = obs.exposed
    if target is None or target == obs.seat or obs.seat in obs.finished or obs.is_terminal:
        return None
    if probability >= 1 or rng.random() < probability:
        return CallMacao(obs.seat, target)
    return None


class Bot:
    """Base class: subclasses implement :meth:`choose`; :meth:`interrupt` never calls."""

    name = "bot"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        raise NotImplementedError

    def interrupt(self, obs: Observation, rng: random.Random) -> CallMacao | None:
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Uniform over legal actions (the baseline)."""

    name = "random"

    def __init__(self, always_declare: bool = True, always_call: bool = True) -> None:
        self.always_declare = always_declare
        self.always_call = always_call

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        options = _without_forgetting(obs, legal) if self.always_declare else list(legal)
        return rng.choice(options)

    def interrupt(self, obs: Observation, rng: random.Random) -> CallMacao | None:
        return _call(obs, rng, 1.0) if self.always_call else None


class EasyBot(Bot):
    """Random, but plays whenever it can; forgetful about Macao."""

    name = "easy"
    forget_declare = 0.3
    call_probability = 0.3

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        declare = rng.random() >= self.forget_declare
        options = _with_declare(obs, legal, declare)
        plays = [a for a in options if isinstance(a, (Play, PlayDrawn))]
        return rng.choice(plays or options)

    def interrupt(self, obs: Observation, rng: random.Random) -> CallMacao | None:
        return _call(obs, rng, self.call_probability)


#: per card code: a suited card of no special rank (not 2, 3, 4, 7 or A)
_PLAIN = tuple(c < 52 and c // 4 + 2 not in (2, 3, 4, 7, 14) for c in range(54))


def _best_suit_index(codes: Sequence[int]) -> int:
    """:func:`best_suit` on card codes, as a suit index."""
    total = [0, 0, 0, 0]
    plain = [0, 0, 0, 0]
    for c in codes:
        if c < 52:
            total[c & 3] += 1
            if _PLAIN[c]:
                plain[c & 3] += 1
    best, key = 0, (total[0], plain[0])
    for i in (1, 2, 3):
        if (total[i], plain[i]) > key:  # strictly: the earlier suit wins a tie
            best, key = i, (total[i], plain[i])
    return best


def best_suit(cards: Sequence[Card]) -> Suit:
    """The suit held most; ties go to more plain (non-special) cards, then suit order."""
    return SUITS[_best_suit_index([c.code for c in cards])]


_DRAW_COST = {2: 0, 3: 1}


def _draw_cost(card: Card) -> int:
    if card.code >= 52:
        return 2 if card.code == 52 else 3
    return _DRAW_COST.get(_rank(card), 9)


class NormalBot(Bot):
    """Greedy-defensive heuristics of macao.md §5.3."""

    name = "normal"
    call_probability = 0.9

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        options = _without_forgetting(obs, legal)
        plays = [a for a in options if isinstance(a, Play)]
        hand = obs.hand
        victim = obs.next_active()
        victim_cards = obs.hand_sizes[victim]

        if obs.phase is Phase.AFTER_DRAW:
            drawn = obs.drawn
            assert drawn is not None
            if (drawn.code >= 52 or _rank(drawn) == 14) and len(hand) > 2:
                return KeepDrawn()
            rest = list(hand)
            rest.remove(drawn)
            suit = best_suit(rest) if _rank(drawn) == 14 else None
            for a in options:
                if isinstance(a, PlayDrawn) and a.suit == suit:
                    return a
            return KeepDrawn()

        if obs.pending_draw > 0:
            counters = [p for p in plays if _is_draw_card(p.cards[0])]
            if counters:
                cheapest = min(_draw_cost(p.cards[0]) for p in counters)
                counters = [p for p in counters if _draw_cost(p.cards[0]) == cheapest]
                size = max(len(p.cards) for p in counters) if victim_cards <= 2 else 1
                counters = [p for p in counters if len(p.cards) == size] or counters
                return rng.choice(counters)
            stops = [p for p in plays if len(p.cards) == 1 and _rank(p.cards[0]) == 7]
            if stops:
                held = Counter(c.suit for c in hand)
                most = max(held[p.cards[0].suit] for p in stops)
                return rng.choice([p for p in stops if held[p.cards[0].suit] == most])
            return Accept()

        if obs.pending_skip > 0:
            fours = [p for p in plays if _rank(p.cards[0]) == 4]
            if fours:
                size = max(len(p.cards) for p in fours) if victim_cards <= 2 else 1
                return rng.choice([p for p in fours if len(p.cards) == size] or fours)
            return Accept()

        out = [p for p in plays if len(p.cards) == len(hand)]
        if out:
            return out[0]

        if plays:
            scored: list[tuple[float, float, Play]] = []
            best_cache: dict[tuple[int, ...], int] = {}
            for p in plays:
                score = self._score(p, hand, victim_cards, best_cache)
                if score is None:
                    continue
                scored.append((score, rng.random(), p))
            if scored:
                scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
                return scored[0][2]
        for a in options:
            if isinstance(a, Draw):
                return a
        return options[0]

    @staticmethod
    def _score(
        play: Play, hand: Sequence[Card], victim_cards: int, best_cache: dict[tuple[int, ...], int] | None = None
    ) -> float | None:
        """Normal's value of a play (``None``: an Ace naming a suit other than the best).

        ``best_cache`` remembers the best suit of each played card tuple within one turn.
        """
        cards = play.cards
        codes = [c.code for c in cards]
        rest = [c.code for c in hand]
        for c in codes:
            rest.remove(c)
        last = codes[-1]
        rank = 15 if last >= 52 else last // 4 + 2
        if rank == 14:
            key = tuple(codes)
            best = None if best_cache is None else best_cache.get(key)
            if best is None:
                best = _best_suit_index(rest or codes)
                if best_cache is not None:
                    best_cache[key] = best
            assert play.suit is not None
            if play.suit.index != best:
                return None  # only the best suit is worth considering
            new_suit = best
        else:
            new_suit = -1 if last >= 52 else last & 3
        score = 2.0 * len(codes)
        for c in rest:
            if c >= 52 or new_suit < 0 or c & 3 == new_suit or (last < 52 and c // 4 + 2 == rank):
                score += 1
        first = codes[0]
        first_rank = 15 if first >= 52 else first // 4 + 2
        if first_rank >= 14 and len(hand) > 2:
            score -= 3
        if victim_cards >= 4:
            score -= sum(1 for c in codes if c >= 52 or c // 4 + 2 in (2, 3, 4, 7))
        if victim_cards <= 2 and first_rank in (2, 3, 4, 15):
            score += 3
        return score

    def interrupt(self, obs: Observation, rng: random.Random) -> CallMacao | None:
        return _call(obs, rng, self.call_probability)


def _distinct(obs: Observation, options: Sequence[Action]) -> list[Action]:
    """One action per outcome: plays that put down the same cards and leave the same
    top card and active suit lead to the same position whatever the order of the rest."""
    seen: set[tuple[tuple[int, ...], int, object]] = set()
    out: list[Action] = []
    for a in options:
        if isinstance(a, Play):
            key = (tuple(sorted(c.code for c in a.cards)), a.cards[-1].code, a.suit)
            if key in seen:
                continue
            seen.add(key)
        out.append(a)
    return out


def _worth_naming(obs: Observation, play: Play | PlayDrawn) -> bool:
    """Aces: name only a suit still held after the play (or the best suit when none is)."""
    if play.suit is None:
        return True
    if isinstance(play, Play):
        rest = list(obs.hand)
        for c in play.cards:
            rest.remove(c)
    else:
        rest = list(obs.hand)
        assert obs.drawn is not None
        rest.remove(obs.drawn)
    held = {c.suit for c in rest if c.suit is not None}
    return play.suit in held if held else play.suit == best_suit(rest or list(obs.hand))


def _significant_gain(base: Sequence[float], other: Sequence[float], z: float) -> float:
    """How much better (lower) ``other``'s placings are than ``base``'s in the same
    worlds, minus ``z`` standard errors of the paired difference; 0 when not better."""
    n = len(base)
    diffs = [b - o for b, o in zip(base, other)]
    mean = sum(diffs) / n
    if n < 2 or mean <= 0:
        return 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return max(0.0, mean - z * math.sqrt(var / n))


class HardBot(Bot):
    """Determinized Monte Carlo (:mod:`macao.search`) over Normal playouts.

    From the observation only, it samples the hidden cards into the other hands and the
    stock, plays each candidate action followed by Normal playouts for every seat, and
    picks the best mean placing (ties go to Normal's own choice).  Candidates: every
    distinct legal outcome, always declaring Macao, Aces naming only suits still held;
    with more than ``max_candidates`` the plays Normal scores lowest are dropped.  No
    search when a single candidate is left, or when a play empties the hand.  It always
    calls an exposed opponent.
    """

    name = "hard"

    def __init__(
        self, budget: Budget | None = None, max_candidates: int = 6, infer: bool = True, confidence: float = 1.0
    ) -> None:
        self.budget = budget or Budget()
        self.confidence = confidence
        self.max_candidates = max_candidates
        self.infer = infer
        self.normal = NormalBot()

    def candidates(self, obs: Observation, legal: Sequence[Action]) -> list[Action]:
        """The actions worth searching, Normal's preferred order first."""
        options = [
            a
            for a in _distinct(obs, _without_forgetting(obs, legal))
            if not isinstance(a, (Play, PlayDrawn)) or _worth_naming(obs, a)
        ]
        if len(options) <= self.max_candidates:
            return options
        victim_cards = obs.hand_sizes[obs.next_active()]
        plays = [a for a in options if isinstance(a, Play)]
        others = [a for a in options if not isinstance(a, Play)]
        scored = sorted(plays, key=lambda p: -(NormalBot._score(p, obs.hand, victim_cards) or -99.0))
        return scored[: max(1, self.max_candidates - len(others))] + others

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        options = self.candidates(obs, legal)
        if len(options) == 1:
            return options[0]
        out = [a for a in options if isinstance(a, Play) and len(a.cards) == len(obs.hand)]
        if out:
            return out[0]
        preferred = self.normal.choose(obs, legal, rng)
        if preferred not in options:
            options.append(preferred)
        policies = [self.normal] * obs.players
        keep = options.index(preferred)
        results = evaluate(obs, options, policies, rng, self.budget, self.infer, keep)
        base = results[keep]
        best, best_gain = preferred, 0.0
        for action, placed in zip(options, results):
            if len(placed) < len(base):
                continue  # dropped during the search
            gain = _significant_gain(base, placed, self.confidence)
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def interrupt(self, obs: Observation, rng: random.Random) -> CallMacao | None:
        return _call(obs, rng, 1.0)


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "easy": EasyBot, "normal": NormalBot, "hard": HardBot}


def make_bot(name: str) -> Bot:
    """A bot by level name: ``random``, ``easy``, ``normal`` or ``hard``.

    >>> make_bot("Normal").name
    'normal'
    """
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in BOTS:
        raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(BOTS)}")
    return BOTS[key]()
