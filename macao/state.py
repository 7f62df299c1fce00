"""The Macao engine: game state, legal actions and their effects (macao.md §2, §4.3).

Rules implemented (the normative text is ../shared/rules/macao.md §2; option names are
the fields of :class:`macao.rules.Rules`):

* Cards: 52 per deck plus BJ and RJ when ``jokers``; ``decks`` identical copies, kept in
  tuples (never sets).  Seats 0..players-1 play clockwise (seat + 1), no reversing.
* Setup (§2.1): the seeded RNG picks the dealer (or ``first_player`` fixes the first
  seat); the first player is the dealer's left.  Cards are dealt one at a time from the
  first player.  The next card is turned up; with ``start_card="redraw"`` a special card
  (2, 3, 4, A, jokers, and 7 when ``stop``) goes to the bottom of the stock and the next
  one is turned, at most ``len(stock)`` times; with ``"ignore"`` only a joker is
  replaced.  The start card's effect is never applied.
* Matching (§2.2): a card matches when the active suit is ``None``, or it has the active
  suit, or the top card is not a joker and it has the top card's rank.  Jokers are
  always wild, Aces are wild when ``ace_wild``.
* A turn (§2.3), by situation:
  (a) nothing pending: ``Play`` one or more cards of one rank (the first must match or
      be wild; jokers group with jokers), or ``Draw`` (even when a play exists), or
      ``Pass`` only when no card can be drawn at all.
  (b) ``pending_draw > 0``: counter with draw cards (2, 3, jokers) as ``stacking``
      allows, stop with 7s (when ``stop``), or ``Accept`` (draw the penalty; the turn ends).
  (c) ``pending_skip > 0``: answer with 4s or ``Accept`` (lose this turn; extra waits
      go to ``skip_turns``).
  (d) after a voluntary draw (phase ``AFTER_DRAW``): if the drawn card is a legal single
      play, ``PlayDrawn`` or ``KeepDrawn``; otherwise the turn ended with the draw.
* Effects: 2/3/BJ/RJ add 2/3/5/10 to ``pending_draw`` (the suit is the last card's, or
  free after a joker); 4s add one wait each; 7s cancel a pending draw; an Ace names the
  suit; otherwise the last card sets the suit.  The next turn goes to the next seat
  clockwise that has not finished; a seat with ``skip_turns > 0`` is passed over and its
  count decremented.  Pending effects carry to whoever takes the next turn.
* Empty stock (§2.6): keep the top discard and shuffle the rest into a new stock with
  ``random.Random(f"{seed}:{shuffle_count}")``.  A penalty larger than what exists is
  forfeited.  If every active player passes in a row, or ``max_moves`` actions were
  applied, the round ends and the players still holding cards rank by fewest cards,
  then by lower seat.
* End (§2.7): ``last_loses``: players who go out take places 1, 2, ...; the last one
  holding cards loses.  ``first_wins``: the first out wins; the others rank by hand
  size, ties by seat order after the winner.
* Macao (§2.8): a play that leaves exactly one card may ``declare``.  Without it the
  seat is ``exposed`` and any other active seat may ``CallMacao`` out of turn: the
  exposed seat draws ``macao_penalty`` cards.  The window closes with the next non-call
  action by anyone.  DECISION: only a play that leaves one card exposes; a player who
  already declared and still holds one card (e.g. after a Pass) is not exposed again.

Action encoding: macro actions (``macao.actions``).  ``Play.cards`` is ordered: the
first card must be legal, the last card sets the suit.  ``legal_actions`` lists each
play once in canonical form (first card, the middle cards sorted, last card; for Aces
and jokers, whose last card changes nothing, first card then the rest sorted), with
both ``declare`` values when the play leaves one card and one action per named suit for
Aces.  :func:`apply` accepts any order of the middle cards.  Order: plays, PlayDrawn,
Draw, KeepDrawn, Accept, Pass (see :mod:`macao.actions`).  Out-of-turn ``CallMacao``
actions come from :func:`interrupts`, never from :func:`legal_actions`.

States are immutable: :func:`apply` returns a new :class:`State` and never changes its
input.  All randomness comes from ``seed``, so ``(rules, seed, deck_order, actions)``
replays exactly whatever the global ``random`` state is.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from operator import attrgetter
from typing import NamedTuple

from solver.cards import (
    SUITS,
    Card,
    InvalidCardError,
    Suit,
    format_cards,
    full_deck,
    parse_cards,
)

from .actions import (
    Accept,
    Action,
    CallMacao,
    Draw,
    IllegalActionError,
    KeepDrawn,
    Pass,
    Play,
    PlayDrawn,
    _Action,
)
from .rules import Rules

# --------------------------------------------------------------------------- tables

#: One shared card object per code 0..53 (52, 53 the jokers): cards are immutable values.
CARD_OF_CODE = tuple(Card(i) for i in range(54))
_JOKER_GROUP = 15
#: rank 2..14 of each code, ``_JOKER_GROUP`` for both jokers (they form one group)
_GROUP_OF = tuple([c // 4 + 2 for c in range(52)] + [_JOKER_GROUP, _JOKER_GROUP])
#: suit index 0..3 of each code, -1 for jokers; and the Suit itself (None for jokers)
_SUIT_OF = tuple([c % 4 for c in range(52)] + [-1, -1])
_SUIT_OBJ: tuple[Suit | None, ...] = tuple([SUITS[c % 4] for c in range(52)] + [None, None])
_SUIT_KEY: dict[Suit | None, int] = {None: -1, **{s: i for i, s in enumerate(SUITS)}}
_DRAW_VALUE = {2: 2, 3: 3}
_JOKER_VALUE = {52: 5, 53: 10}
_ACE = 14
_code = attrgetter("code")


def _draw_value(code: int) -> int:
    if code >= 52:
        return _JOKER_VALUE[code]
    return _DRAW_VALUE.get(code // 4 + 2, 0)


def _is_draw_card(code: int) -> bool:
    return code >= 52 or code // 4 + 2 in (2, 3)


class Phase(str, Enum):
    """Where the current seat is within its turn."""

    PLAY = "play"
    AFTER_DRAW = "after_draw"
    OVER = "over"


class Event(NamedTuple):
    """One public entry of the move log.

    ``kind`` is one of: ``deal``, ``start``, ``bottom`` (start cards put under the
    stock), ``play``, ``draw`` (voluntary, card hidden), ``keep``, ``penalty`` (``amount``
    cards drawn of ``owed``), ``wait`` (``amount`` extra turns to sit out), ``skipped``,
    ``pass``, ``exposed``, ``call`` (``seat`` caught ``target``; ``amount`` cards drawn),
    ``reshuffle``, ``finish`` (``amount`` is the place), ``end`` (``text`` is the reason).
    """

    kind: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    amount: int = 0
    owed: int = 0
    suit: Suit | None = None
    declare: bool = False
    target: int | None = None
    text: str = ""

    def __str__(self) -> str:
        return self.describe()

    def describe(self, write_cards: Callable[[Sequence[Card]], str] = format_cards) -> str:
        """The event as a line of the move log; ``write_cards`` writes a list of cards
        (codes by default; the app passes one that writes suit glyphs)."""
        who = f"P{self.seat}" if self.seat is not None else ""
        k = self.kind
        if k == "deal":
            return f"dealt {self.amount} cards each; P{self.target} starts"
        if k == "start":
            return f"start card {write_cards(self.cards)}"
        if k == "bottom":
            return f"special start card(s) {write_cards(self.cards)} put under the stock"
        if k == "play":
            text = f"{who} plays {write_cards(self.cards)}"
            if self.suit is not None and self.cards and _GROUP_OF[self.cards[-1].code] == _ACE:
                text += f" and names {self.suit.name.lower()}"
            return text + (" — Macao!" if self.declare else "")
        if k == "draw":
            return f"{who} draws a card"
        if k == "keep":
            return f"{who} keeps the drawn card"
        if k == "penalty":
            extra = f" (of {self.owed}; the rest is forfeited)" if self.amount < self.owed else ""
            return f"{who} draws {self.amount} penalty card(s){extra}"
        if k == "wait":
            more = f", and sits out {self.amount} more turn(s)" if self.amount else ""
            return f"{who} loses this turn{more}"
        if k == "skipped":
            return f"{who} sits out a turn"
        if k == "pass":
            return f"{who} passes (nothing to draw)"
        if k == "exposed":
            return f"{who} has one card and did not say Macao"
        if k == "call":
            return f"{who} calls Macao on P{self.target}: P{self.target} draws {self.amount}"
        if k == "reshuffle":
            return f"the discard pile ({self.amount} cards) is shuffled into a new stock"
        if k == "finish":
            return f"{who} is out (place {self.amount})"
        if k == "end":
            return f"round over: {self.text}"
        return f"{k} {who}".strip()


@dataclass(frozen=True)
class State:
    """A complete, immutable Macao position (use :func:`new_game` or :func:`make_state`).

    ``stock[0]`` is the top of the stock; ``discard[-1]`` is the top card.  Hands are
    kept sorted by card code.  ``ranking`` (seats, best first) is set once the round is
    over; ``end_reason`` says why (``"finish"``, ``"deadlock"``, ``"max_moves"``).
    """

    rules: Rules
    seed: int | str
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    current: int = 0
    active_suit: Suit | None = None
    pending_draw: int = 0
    pending_skip: int = 0
    skip_turns: tuple[int, ...] = ()
    phase: Phase = Phase.PLAY
    drawn: Card | None = None
    exposed: int | None = None
    finished: tuple[int, ...] = ()
    shuffle_count: int = 1
    passes: int = 0
    moves: int = 0
    dealer: int = 0
    ranking: tuple[int, ...] = ()
    end_reason: str | None = None
    log: tuple[Event, ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        """Normalise a state built by hand (``State(...)`` or ``dataclasses.replace``).

        Lists become tuples, card text becomes cards and hands are sorted, so a state is
        always immutable.  (The engine builds its states without this step.)
        """
        if not isinstance(self.rules, Rules):
            raise TypeError(f"rules must be a macao Rules, got {type(self.rules).__name__}")
        n = self.rules.players
        put = object.__setattr__
        if len(self.hands) != n:
            raise ValueError(f"hands must give {n} seats for players={n}, got {len(self.hands)}")
        hands = (tuple(sorted(_cards(h, f"hand of P{i}"), key=_code)) for i, h in enumerate(self.hands))
        put(self, "hands", tuple(hands))
        put(self, "stock", _cards(self.stock, "stock"))
        put(self, "discard", _cards(self.discard, "discard"))
        if not self.discard:
            raise ValueError("the discard pile needs at least the top card")
        put(self, "skip_turns", tuple(self.skip_turns) or (0,) * n)
        if len(self.skip_turns) != n:
            raise ValueError(f"skip_turns must give {n} seats, got {self.skip_turns!r}")
        put(self, "finished", tuple(self.finished))
        put(self, "ranking", tuple(self.ranking))
        put(self, "log", tuple(self.log))
        if isinstance(self.active_suit, str) and not isinstance(self.active_suit, Suit):
            put(self, "active_suit", Suit(self.active_suit.lower()))
        put(self, "phase", Phase(self.phase))
        if self.drawn is not None and not isinstance(self.drawn, Card):
            put(self, "drawn", _cards([self.drawn], "drawn")[0])
        if not 0 <= self.current < n:
            raise ValueError(f"current must be a seat 0..{n - 1}, got {self.current!r}")

    @property
    def top(self) -> Card:
        """The face-up card everybody plays on."""
        return self.discard[-1]

    @property
    def players(self) -> int:
        return self.rules.players

    def card_counts(self) -> Counter[Card]:
        """Every card in the state (hands, stock, discard) with its number of copies."""
        total: Counter[Card] = Counter(self.stock)
        total.update(self.discard)
        for hand in self.hands:
            total.update(hand)
        return total


@dataclass(frozen=True)
class Observation:
    """What seat ``seat`` may know (macao.md §4.3 ``observe``).

    Other hands appear only as sizes and the stock only as a count; the drawn card is
    shown only to the seat that drew it.  The discard pile and the log are public.
    """

    seat: int
    rules: Rules
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    current: int
    phase: Phase
    top: Card
    active_suit: Suit | None
    pending_draw: int
    pending_skip: int
    skip_turns: tuple[int, ...]
    stock_count: int
    discard: tuple[Card, ...]
    finished: tuple[int, ...]
    exposed: int | None
    drawn: Card | None
    moves: int
    ranking: tuple[int, ...]
    log: tuple[Event, ...] = field(repr=False)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def next_active(self, seat: int | None = None) -> int:
        """The next seat clockwise after ``seat`` (default: this seat) that is still in."""
        start = self.seat if seat is None else seat
        n = self.rules.players
        for step in range(1, n + 1):
            other = (start + step) % n
            if other not in self.finished:
                return other
        return start


# --------------------------------------------------------------------------- errors


class GameNotOverError(ValueError):
    """Placings asked for before the round ended."""


def _check_state(state: object) -> State:
    if not isinstance(state, State):
        raise TypeError(f"expected a macao State, got {type(state).__name__}")
    return state


# --------------------------------------------------------------------------- matching


def _plain_match(code: int, top: int, suit: Suit | None) -> bool:
    if suit is None or _SUIT_OBJ[code] is suit:
        return True
    return top < 52 and code < 52 and _GROUP_OF[code] == _GROUP_OF[top]


def _playable_single(rules: Rules, code: int, top: int, suit: Suit | None) -> bool:
    """§2.2 with nothing pending: wild (joker; Ace if ``ace_wild``) or a plain match."""
    if code >= 52 or (rules.ace_wild and _GROUP_OF[code] == _ACE):
        return True
    return _plain_match(code, top, suit)


def _counter_ok(rules: Rules, code: int, top: int, suit: Suit | None) -> bool:
    """§2.3b: may ``code`` start a play while a draw penalty is pending?"""
    if _GROUP_OF[code] == 7:
        return rules.stop
    if not _is_draw_card(code):
        return False
    if rules.stacking == "any":
        return True
    if rules.stacking == "none":
        return False
    if code >= 52 or top >= 52:
        return True
    return _GROUP_OF[code] == _GROUP_OF[top] or (suit is not None and _SUIT_OBJ[code] is suit)


def _can_draw(stock: Sequence[Card], discard: Sequence[Card]) -> bool:
    return len(stock) > 0 or len(discard) > 1


# --------------------------------------------------------------------------- enumeration


def _new_play(cards: tuple[Card, ...], suit: Suit | None, declare: bool) -> Play:
    """A Play built from values already known to be valid (skips parsing)."""
    play = object.__new__(Play)
    play.__dict__.update(cards=cards, suit=suit, declare=declare)
    return play


def _new_play_drawn(suit: Suit | None, declare: bool) -> PlayDrawn:
    pd = object.__new__(PlayDrawn)
    object.__setattr__(pd, "suit", suit)
    object.__setattr__(pd, "declare", declare)
    return pd


_DRAW, _KEEP, _ACCEPT, _PASS = Draw(), KeepDrawn(), Accept(), Pass()


#: Plays are immutable values, so the variants of each card tuple are built once and
#: shared (bounded; it holds no per-game data).
_VARIANTS: dict[tuple[tuple[int, ...], bool], tuple[Play, ...]] = {}
_VARIANTS_LIMIT = 200_000


def _play_variants(codes: tuple[int, ...], one_left: bool) -> tuple[Play, ...]:
    """Every Play of these cards: one per named suit for Aces, both declares if one card is left."""
    cards = tuple(CARD_OF_CODE[c] for c in codes)
    suits: Sequence[Suit | None] = SUITS if _GROUP_OF[codes[-1]] == _ACE else (None,)
    declares = (False, True) if one_left else (False,)
    found = tuple(_new_play(cards, s, d) for s in suits for d in declares)
    if len(_VARIANTS) >= _VARIANTS_LIMIT:
        _VARIANTS.clear()
    _VARIANTS[(codes, one_left)] = found
    return found


#: the plays of a single card, indexed by ``[leaves one card][code]``
_SINGLE_PLAYS = tuple(tuple(_play_variants((c,), one_left) for c in range(54)) for one_left in (False, True))


def _sub_multisets(items: list[tuple[int, int]]) -> list[list[int]]:
    """All sub-multisets (as sorted code lists) of ``(code, count)`` items, empty first."""
    result: list[list[int]] = [[]]
    for code, count in items:
        result = [m + [code] * k for m in result for k in range(count + 1)]
    return result


_GROUP_CACHE: dict[tuple[tuple[int, ...], tuple[int, ...]], list[tuple[int, ...]]] = {}


def _group_plays(group: list[int], first_ok: list[int]) -> list[tuple[int, ...]]:
    """Canonical code tuples, sorted, for plays from one rank group, starting with a card in first_ok."""
    if len(group) == 1:
        return [(group[0],)]
    key = (tuple(group), tuple(first_ok))
    found = _GROUP_CACHE.get(key)
    if found is None:
        found = sorted(_enumerate_group(group, first_ok))
        if len(_GROUP_CACHE) >= _VARIANTS_LIMIT:
            _GROUP_CACHE.clear()
        _GROUP_CACHE[key] = found
    return found


def _enumerate_group(group: list[int], first_ok: list[int]) -> list[tuple[int, ...]]:
    plays: list[tuple[int, ...]] = []
    last_matters = group[0] < 52 and _GROUP_OF[group[0]] != _ACE
    for first in sorted(set(first_ok)):
        rest = list(group)
        rest.remove(first)
        counts: dict[int, int] = {}
        for c in rest:
            counts[c] = counts.get(c, 0) + 1
        for sub in _sub_multisets(sorted(counts.items())):
            if not sub:
                plays.append((first,))
            elif not last_matters:
                plays.append((first, *sub))
            else:
                for last in sorted(set(sub)):
                    middle = list(sub)
                    middle.remove(last)
                    plays.append((first, *middle, last))
    return plays


def _canonical(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    if len(cards) <= 2:
        return cards
    first = cards[0]
    if first.code >= 52 or _GROUP_OF[first.code] == _ACE:
        return (first, *sorted(cards[1:], key=_code))
    return (first, *sorted(cards[1:-1], key=_code), cards[-1])


def _compute_legal(state: State) -> tuple[Action, ...]:
    phase = state.phase
    if phase is Phase.OVER:
        return ()
    rules = state.rules
    hand = state.hands[state.current]
    size = len(hand)
    if phase is Phase.AFTER_DRAW:
        drawn = state.drawn
        assert drawn is not None
        suits: Sequence[Suit | None] = SUITS if _GROUP_OF[drawn.code] == _ACE else (None,)
        declares = (False, True) if size - 1 == 1 else (False,)
        drawn_acts: list[Action] = [_new_play_drawn(s, d) for s in suits for d in declares]
        drawn_acts.append(_KEEP)
        drawn_acts.sort()
        return tuple(drawn_acts)
    top = state.discard[-1].code
    suit = state.active_suit
    pend = state.pending_draw > 0
    skip = state.pending_skip > 0
    # §2.2, inlined for speed: a whole rank group may lead when it is wild or has the
    # top card's rank; otherwise only its cards of the active suit may lead.
    top_group = _GROUP_OF[top] if top < 52 else -1
    free = suit is None
    wild_aces = rules.ace_wild
    singles = _SINGLE_PLAYS[size == 2]
    variants = _VARIANTS
    group_of = _GROUP_OF
    acts: list[Action] = []
    # Hands are sorted by code, so each rank group is one run and the groups come in
    # ascending order: with each group's plays sorted, the whole list is sorted.
    codes = [c.code for c in hand]
    i = 0
    while i < size:
        c = codes[i]
        g = group_of[c]
        j = i + 1
        while j < size and group_of[codes[j]] == g:
            j += 1
        if pend:
            whole = False
        elif skip:
            whole = g == 4
        else:
            whole = free or g in (top_group, _JOKER_GROUP) or (g == _ACE and wild_aces)
        if j == i + 1:
            if whole:
                acts.extend(singles[c])
            elif pend:
                if _counter_ok(rules, c, top, suit):
                    acts.extend(singles[c])
            elif not skip and _SUIT_OBJ[c] is suit:
                acts.extend(singles[c])
        else:
            group = codes[i:j]
            if whole:
                ok = group
            elif pend:
                ok = [x for x in group if _counter_ok(rules, x, top, suit)]
            elif skip:
                ok = []
            else:
                ok = [x for x in group if _SUIT_OBJ[x] is suit]
            if ok:
                for codes_t in _group_plays(group, ok):
                    key = (codes_t, size - len(codes_t) == 1)
                    found = variants.get(key)
                    if found is None:
                        found = _play_variants(*key)
                    acts.extend(found)
        i = j
    if pend or skip:
        acts.append(_ACCEPT)
    elif state.stock or len(state.discard) > 1:  # _can_draw
        acts.append(_DRAW)
    else:
        acts.append(_PASS)
    return tuple(acts)  # already in sort_key order; membership keys are built on demand


def legal_actions_cached(state: State) -> tuple[Action, ...]:
    """:func:`legal_actions` as the tuple kept on the state, without the argument check:
    for searches and simulations that loop over states the engine made."""
    cached = state.__dict__.get("_legal")
    if cached is None:
        cached = _compute_legal(state)
        state.__dict__["_legal"] = cached
    return cached  # type: ignore[no-any-return]


def _is_legal(state: State, action: Action) -> bool:
    acts = legal_actions_cached(state)
    for a in acts:  # bots hand back one of the cached objects: identity is enough
        if a is action:
            return True
    keys = state.__dict__.get("_legal_keys")
    if keys is None:
        keys = frozenset(a.sort_key() for a in acts)
        state.__dict__["_legal_keys"] = keys
    return action.sort_key() in keys


def legal_actions(state: State) -> list[Action]:
    """The current seat's legal actions, sorted (empty once the round is over)."""
    return list(legal_actions_cached(_check_state(state)))


def interrupts(state: State, seat: int) -> list[CallMacao]:
    """Out-of-turn actions open to ``seat``: ``CallMacao`` on an exposed opponent (§2.8)."""
    _check_state(state)
    if state.phase is Phase.OVER or state.exposed is None:
        return []
    if not isinstance(seat, int) or not 0 <= seat < state.rules.players:
        raise ValueError(f"seat must be 0..{state.rules.players - 1}, got {seat!r}")
    if seat == state.exposed or seat in state.finished:
        return []
    return [CallMacao(seat, state.exposed)]


# --------------------------------------------------------------------------- mutation


class _Work:
    """A mutable copy of a state, used inside :func:`apply` and then frozen."""

    __slots__ = (
        "active_suit", "current", "dealer", "discard", "drawn", "end_reason", "events",
        "exposed", "finished", "hands", "log", "moves", "passes", "pending_draw", "pending_skip",
        "phase", "ranking", "rules", "seed", "shuffle_count", "skip_turns", "stock",
    )  # fmt: skip

    def __init__(self, s: State) -> None:
        self.rules = s.rules
        self.seed = s.seed
        self.hands: list[Sequence[Card]] = list(s.hands)  # tuples until a seat's hand changes
        self.stock: Sequence[Card] = s.stock  # tuples until changed (see draw and play)
        self.discard: Sequence[Card] = s.discard
        self.current = s.current
        self.active_suit = s.active_suit
        self.pending_draw = s.pending_draw
        self.pending_skip = s.pending_skip
        self.skip_turns = list(s.skip_turns)
        self.phase = s.phase
        self.drawn = s.drawn
        self.exposed = s.exposed
        self.finished = list(s.finished)
        self.shuffle_count = s.shuffle_count
        self.passes = s.passes
        self.moves = s.moves
        self.dealer = s.dealer
        self.ranking = s.ranking
        self.end_reason = s.end_reason
        self.log = s.log
        self.events: list[Event] = []

    def freeze(self) -> State:
        state = object.__new__(State)
        object.__setattr__(state, "__dict__", {  # one dict display: much faster than 21 stores
            "rules": self.rules,
            "seed": self.seed,
            "hands": tuple(map(tuple, self.hands)),  # tuple() of a tuple is the tuple itself
            "stock": tuple(self.stock),
            "discard": tuple(self.discard),
            "current": self.current,
            "active_suit": self.active_suit,
            "pending_draw": self.pending_draw,
            "pending_skip": self.pending_skip,
            "skip_turns": tuple(self.skip_turns),
            "phase": self.phase,
            "drawn": self.drawn,
            "exposed": self.exposed,
            "finished": tuple(self.finished),
            "shuffle_count": self.shuffle_count,
            "passes": self.passes,
            "moves": self.moves,
            "dealer": self.dealer,
            "ranking": self.ranking,
            "end_reason": self.end_reason,
            "log": self.log + tuple(self.events) if self.events else self.log,
        })  # fmt: skip
        return state

    # -- helpers -------------------------------------------------------------

    def hand(self, seat: int) -> list[Card]:
        """A seat's hand as a list that may be changed (copied on first change)."""
        h = self.hands[seat]
        if type(h) is not list:
            h = list(h)
            self.hands[seat] = h
        return h  # type: ignore[return-value]

    def active(self) -> list[int]:
        return [i for i in range(self.rules.players) if i not in self.finished]

    def draw(self, seat: int, n: int) -> list[Card]:
        """Move up to ``n`` cards from the stock to ``seat``, reshuffling as needed (§2.6)."""
        got: list[Card] = []
        if type(self.stock) is not list:
            self.stock = list(self.stock)
        for _ in range(n):
            if not self.stock:
                if len(self.discard) <= 1:
                    break
                rest = list(self.discard[:-1])
                self.discard = self.discard[-1:]
                random.Random(f"{self.seed}:{self.shuffle_count}").shuffle(rest)
                self.shuffle_count += 1
                self.stock = rest
                self.events.append(Event("reshuffle", amount=len(rest)))
            got.append(self.stock.pop(0))  # type: ignore[attr-defined]
        if got:
            hand = self.hand(seat)
            hand.extend(got)
            hand.sort(key=_code)
        return got

    def end_round(self, reason: str, order: list[int]) -> None:
        self.ranking = tuple(order)
        self.end_reason = reason
        self.phase = Phase.OVER
        self.drawn = None
        self.exposed = None
        self.events.append(Event("end", text=reason))

    def end_by_count(self, reason: str) -> None:
        """Deadlock / move cap: the rest rank by fewest cards, then lower seat (§2.6)."""
        rest = sorted(self.active(), key=lambda i: (len(self.hands[i]), i))
        self.end_round(reason, self.finished + rest)

    def finish(self, seat: int) -> None:
        self.finished.append(seat)
        self.events.append(Event("finish", seat, amount=len(self.finished)))
        n = self.rules.players
        if self.rules.end_mode == "first_wins":
            after = [(seat + k) % n for k in range(1, n)]
            others = sorted(after, key=lambda i: (len(self.hands[i]), after.index(i)))
            self.end_round("finish", [seat, *others])
            return
        active = self.active()
        if len(active) <= 1:
            self.end_round("finish", self.finished + active)

    def end_turn(self) -> None:
        if self.phase is Phase.OVER:
            return
        self.phase = Phase.PLAY
        self.drawn = None
        n = self.rules.players
        seat = self.current
        while True:
            seat = (seat + 1) % n
            if seat in self.finished:
                continue
            if self.skip_turns[seat] > 0:
                self.skip_turns[seat] -= 1
                self.events.append(Event("skipped", seat))
                continue
            break
        self.current = seat

    def play(self, seat: int, cards: tuple[Card, ...], suit: Suit | None, declare: bool) -> None:
        hand = self.hand(seat)
        for c in cards:
            hand.remove(c)
        self.discard = (*self.discard, *cards)
        self.passes = 0
        first = cards[0].code
        group = _GROUP_OF[first]
        last = cards[-1]
        if _is_draw_card(first):
            self.pending_draw += sum(_draw_value(c.code) for c in cards)
            self.active_suit = last.suit
        elif group == 4:
            self.pending_skip += len(cards)
            self.active_suit = last.suit
        elif group == 7 and self.pending_draw > 0:
            self.pending_draw = 0
            self.active_suit = last.suit
        elif group == _ACE:
            self.active_suit = suit
        else:
            self.active_suit = last.suit
        self.events.append(Event("play", seat, cards, suit=self.active_suit, declare=declare))
        if not hand:
            self.finish(seat)
        elif len(hand) == 1 and not declare:
            self.exposed = seat
            self.events.append(Event("exposed", seat))
        self.end_turn()


# --------------------------------------------------------------------------- apply


def apply(state: State, action: Action) -> State:
    """Apply ``action`` and return the new state; the input state is never changed.

    Raises :class:`IllegalActionError` (naming the rule) for anything not legal.
    """
    _check_state(state)
    cached = state.__dict__.get("_legal")
    if cached is not None:
        for a in cached:  # bots hand back one of the cached objects
            if a is action:
                break
        else:
            cached = None
    if cached is None:
        # not one of the cached legal action objects: check it in full
        if isinstance(action, CallMacao):
            return _apply_call(state, action)
        if not isinstance(action, _Action):
            raise IllegalActionError(
                f"expected a macao action (Play, Draw, PlayDrawn, KeepDrawn, Accept, Pass, CallMacao), got {action!r}",
                "4.3",
            )
        probe: Action = action
        if isinstance(action, Play):
            canon = _canonical(action.cards)
            if canon != action.cards:
                probe = _new_play(canon, action.suit, action.declare)
        if not _is_legal(state, probe):
            raise _diagnose(state, action)
    w = _Work(state)
    w.moves += 1
    w.exposed = None  # any non-call action closes the Macao window (§2.8 item 4)
    seat = w.current
    if isinstance(action, Play):
        w.play(seat, action.cards, action.suit, action.declare)
    elif isinstance(action, PlayDrawn):
        assert w.drawn is not None
        w.play(seat, (w.drawn,), action.suit, action.declare)
    elif isinstance(action, Draw):
        w.passes = 0
        got = w.draw(seat, 1)
        w.events.append(Event("draw", seat, amount=len(got)))
        top = w.discard[-1].code
        if got and _playable_single(w.rules, got[0].code, top, w.active_suit):
            w.phase = Phase.AFTER_DRAW
            w.drawn = got[0]
        else:
            w.end_turn()
    elif isinstance(action, KeepDrawn):
        w.events.append(Event("keep", seat))
        w.end_turn()
    elif isinstance(action, Accept):
        w.passes = 0
        if w.pending_draw > 0:
            owed = w.pending_draw
            got = w.draw(seat, owed)
            w.pending_draw = 0
            w.events.append(Event("penalty", seat, amount=len(got), owed=owed))
        else:
            extra = w.pending_skip - 1
            w.skip_turns[seat] += extra
            w.pending_skip = 0
            w.events.append(Event("wait", seat, amount=extra))
        w.end_turn()
    elif isinstance(action, Pass):
        w.passes += 1
        w.events.append(Event("pass", seat))
        if w.passes >= len(w.active()):
            w.end_by_count("deadlock")
        else:
            w.end_turn()
    if w.phase is not Phase.OVER and w.moves >= w.rules.max_moves:
        w.end_by_count("max_moves")
    return w.freeze()


def _apply_call(state: State, action: CallMacao) -> State:
    n = state.rules.players
    if state.phase is Phase.OVER:
        raise IllegalActionError("the round is over; no action is legal", "2.7")
    for name, seat in (("caller", action.caller), ("target", action.target)):
        if not 0 <= seat < n:
            raise IllegalActionError(f"CallMacao {name} must be a seat 0..{n - 1}, got {seat!r}", "2.8")
    if action.caller == action.target:
        raise IllegalActionError(f"P{action.caller} cannot call Macao on themselves", "2.8")
    if action.caller in state.finished:
        raise IllegalActionError(f"P{action.caller} has finished and cannot call Macao", "2.8")
    if state.exposed != action.target:
        who = "nobody is exposed" if state.exposed is None else f"only P{state.exposed} is exposed"
        raise IllegalActionError(
            f"CallMacao on P{action.target} is not legal: {who} (a false call is not an action)", "2.8"
        )
    w = _Work(state)
    w.moves += 1
    got = w.draw(action.target, w.rules.macao_penalty)
    w.exposed = None
    w.events.append(Event("call", action.caller, target=action.target, amount=len(got)))
    if w.phase is not Phase.OVER and w.moves >= w.rules.max_moves:
        w.end_by_count("max_moves")
    return w.freeze()


def _diagnose(state: State, action: Action) -> IllegalActionError:
    """Explain why ``action`` is not legal, naming the clause of macao.md §2."""
    seat = state.current
    if state.phase is Phase.OVER:
        return IllegalActionError("the round is over; no action is legal", "2.7")
    if state.phase is Phase.AFTER_DRAW:
        if not isinstance(action, (PlayDrawn, KeepDrawn)):
            return IllegalActionError(
                f"after a voluntary draw only PlayDrawn or KeepDrawn is legal, got {action}", "2.3d"
            )
    elif isinstance(action, (PlayDrawn, KeepDrawn)):
        return IllegalActionError(
            f"{type(action).__name__} is legal only right after a Draw that turned up a playable card", "2.3d"
        )
    hand = state.hands[seat]
    pend, skip = state.pending_draw, state.pending_skip
    if isinstance(action, Draw):
        if pend:
            return IllegalActionError(
                f"a draw penalty of {pend} is pending: counter it, stop it with a 7 or Accept it; Draw is illegal",
                "2.3b",
            )
        if skip:
            return IllegalActionError(
                f"a wait of {skip} is pending: answer with a 4 or Accept it; Draw is illegal", "2.3c"
            )
        return IllegalActionError("no card can be drawn (stock and discard pile are empty); use Pass", "2.6")
    if isinstance(action, Pass):
        if pend or skip:
            return IllegalActionError("a penalty or wait is pending: Accept it instead of passing", "2.3b")
        return IllegalActionError("Pass is legal only when no card can be drawn; use Draw", "2.3a")
    if isinstance(action, Accept):
        return IllegalActionError("Accept needs a pending draw penalty or wait; nothing is pending", "2.3a")
    if isinstance(action, PlayDrawn):
        drawn = state.drawn
        assert drawn is not None
        return _suit_declare_error(drawn, action.suit, action.declare, len(hand) - 1)
    if isinstance(action, Play):
        cards = action.cards
        missing = Counter(cards) - Counter(hand)
        if missing:
            return IllegalActionError(
                f"{format_cards(sorted(missing.elements()))} not in P{seat}'s hand ({format_cards(hand)})", "2.3"
            )
        groups = {_GROUP_OF[c.code] for c in cards}
        if len(groups) > 1:
            return IllegalActionError(
                f"a play must be cards of one rank (or only jokers), got {format_cards(cards)}", "2.5"
            )
        first = cards[0]
        top, suit = state.top, state.active_suit
        suit_text = "any suit" if suit is None else f"suit {suit.value}"
        if pend:
            if _GROUP_OF[first.code] == 7:
                return IllegalActionError("stop is off: a 7 cannot cancel a draw penalty", "2.3b stop")
            if not _is_draw_card(first.code):
                return IllegalActionError(
                    f"a draw penalty of {pend} is pending: only draw cards (2, 3, jokers)"
                    f"{' or a 7 (stop)' if state.rules.stop else ''} may be played, not {first}",
                    "2.3b",
                )
            if state.rules.stacking == "none":
                return IllegalActionError(
                    f"stacking='none': {first} cannot counter a draw penalty; Accept it", "2.3b stacking"
                )
            return IllegalActionError(
                f"stacking='matching': counter {first} must be a joker or match top {top} "
                f"by rank or {suit_text}",
                "2.3b stacking",
            )
        if skip:
            return IllegalActionError(
                f"a wait of {skip} is pending: only 4s may be played, not {first}", "2.3c"
            )
        if not _playable_single(state.rules, first.code, top.code, suit):
            why = " (ace_wild is off)" if _GROUP_OF[first.code] == _ACE else ""
            return IllegalActionError(
                f"first card {first} matches neither {suit_text} nor the rank of top {top}{why}", "2.2"
            )
        return _suit_declare_error(cards[-1], action.suit, action.declare, len(hand) - len(cards))
    return IllegalActionError(f"{action} is not legal here", "2.3")


def _suit_declare_error(last: Card, suit: Suit | None, declare: bool, left: int) -> IllegalActionError:
    if _GROUP_OF[last.code] == _ACE and suit is None:
        return IllegalActionError("an Ace names the next suit: give suit='s', 'h', 'd' or 'c'", "2.3a ace")
    if _GROUP_OF[last.code] != _ACE and suit is not None:
        return IllegalActionError(f"only an Ace names a suit; {last} cannot name {suit.value}", "2.3a ace")
    if declare and left != 1:
        return IllegalActionError(
            f"Macao may be declared only by a play that leaves exactly 1 card (this leaves {left})", "2.8"
        )
    return IllegalActionError("this play is not legal here", "2.3")


# --------------------------------------------------------------------------- setup


def _is_special_start(rules: Rules, code: int) -> bool:
    if code >= 52:
        return True
    g = _GROUP_OF[code]
    return g in (2, 3, 4, _ACE) or (g == 7 and rules.stop)


def _check_seed(seed: object) -> int | str:
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ValueError(f"seed must be an int or a str, got {seed!r}")
    return seed


def new_game(
    rules: Rules,
    seed: int | str,
    deck_order: Iterable[Card | str] | str | None = None,
    *,
    dealer: int | None = None,
) -> State:
    """Shuffle, deal and turn up the start card (§2.1).

    ``deck_order`` (for tests) fixes the top of the shuffled deck, top first: those cards
    are dealt and turned first; the remaining cards of the full deck follow in seeded
    order.  ``dealer`` fixes the dealer (the app rotates it between rounds) when
    ``rules.first_player`` is ``"random"``.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a macao Rules, got {type(rules).__name__}")
    _check_seed(seed)
    n = rules.players
    rng = random.Random(f"{seed}:0")
    if rules.first_player == "random":
        if dealer is None:
            dealer = rng.randrange(n)
        elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        first = (dealer + 1) % n
    else:
        first = int(rules.first_player)
        dealer = (first - 1) % n
    full = [CARD_OF_CODE[c.code] for c in full_deck(rules.decks, rules.jokers)]
    if deck_order is None:
        deck = list(full)
        rng.shuffle(deck)
    else:
        try:
            order = [CARD_OF_CODE[c.code] for c in parse_cards(deck_order)]
        except InvalidCardError as e:
            raise ValueError(f"deck_order: {e}") from None
        extra = Counter(order) - Counter(full)
        if extra:
            raise ValueError(
                f"deck_order has cards not in the {rules.deck_size}-card deck(s): "
                f"{format_cards(sorted(extra.elements()))}"
            )
        rest = list((Counter(full) - Counter(order)).elements())
        rest.sort(key=_code)
        rng.shuffle(rest)
        deck = order + rest
    hands: list[list[Card]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(rules.start_cards):
        for k in range(n):
            hands[(first + k) % n].append(deck[pos])
            pos += 1
    stock = deck[pos:]
    moved: list[Card] = []
    limit = len(stock)
    start = stock[0]
    for attempt in range(limit):
        start = stock.pop(0)
        bad = _is_special_start(rules, start.code) if rules.start_card == "redraw" else start.code >= 52
        if not bad or attempt == limit - 1:
            break
        stock.append(start)
        moved.append(start)
    for h in hands:
        h.sort(key=_code)
    log = [Event("deal", amount=rules.start_cards, target=first), Event("start", cards=(start,))]
    if moved:
        log.insert(1, Event("bottom", cards=tuple(moved)))
    state = object.__new__(State)
    state.__dict__.update(
        rules=rules, seed=seed, hands=tuple(tuple(h) for h in hands), stock=tuple(stock),
        discard=(start,), current=first, active_suit=start.suit, pending_draw=0,
        pending_skip=0, skip_turns=(0,) * n, phase=Phase.PLAY, drawn=None, exposed=None,
        finished=(), shuffle_count=1, passes=0, moves=0, dealer=dealer, ranking=(),
        end_reason=None, log=tuple(log),
    )  # fmt: skip
    return state


def _cards(value: Iterable[Card | str] | str, what: str) -> tuple[Card, ...]:
    try:
        return tuple(CARD_OF_CODE[c.code] for c in parse_cards(value))
    except InvalidCardError as e:
        raise ValueError(f"{what}: {e}") from None


_UNSET = object()


def make_state(
    rules: Rules | None = None,
    *,
    hands: Sequence[Iterable[Card | str] | str],
    top: Card | str | None = None,
    discard: Iterable[Card | str] | str | None = None,
    stock: Iterable[Card | str] | str | None = None,
    stock_top: Iterable[Card | str] | str = (),
    current: int = 0,
    active_suit: Suit | str | object | None = _UNSET,
    pending_draw: int = 0,
    pending_skip: int = 0,
    skip_turns: Sequence[int] | None = None,
    exposed: int | None = None,
    finished: Sequence[int] = (),
    seed: int | str = 0,
    drawn: Card | str | None = None,
) -> State:
    """Build a position directly (scenario tests, practice puzzles).

    ``hands`` gives every seat's cards; ``top`` or ``discard`` (top last) the discard
    pile.  ``stock=None`` puts the rest of the full deck(s) in the stock (seeded order,
    with ``stock_top`` on top); an explicit ``stock`` is the whole stock (top first) and
    the cards not placed anywhere are out of play.  ``active_suit`` defaults to the top
    card's suit.  ``drawn`` (a card of the current hand) starts the ``AFTER_DRAW`` phase.

    >>> s = make_state(hands=["5h Kc 9s", "Kd 8h"], top="9h")
    >>> [str(a) for a in legal_actions(s)]
    ['play 5h', 'play 9s', 'draw']
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a macao Rules, got {type(rules).__name__}")
    _check_seed(seed)
    n = rules.players
    if len(hands) != n:
        raise ValueError(f"hands must give {n} seats for players={n}, got {len(hands)}")
    hand_t = [tuple(sorted(_cards(h, f"hand of P{i}"), key=_code)) for i, h in enumerate(hands)]
    if discard is not None:
        pile = _cards(discard, "discard")
        if top is not None and pile[-1:] != _cards([top], "top"):
            raise ValueError("give top or discard (top last), not two different tops")
    elif top is not None:
        pile = _cards([top], "top")
    else:
        raise ValueError("make_state needs top or discard")
    if not pile:
        raise ValueError("the discard pile needs at least the top card")
    used: Counter[Card] = Counter(pile)
    for h in hand_t:
        used.update(h)
    full = Counter(full_deck(rules.decks, rules.jokers))
    if stock is None:
        head = _cards(stock_top, "stock_top")
        used.update(head)
        extra = used - full
        if extra:
            raise ValueError(f"cards not in the deck(s) or used too often: {format_cards(sorted(extra.elements()))}")
        rest = sorted((full - used).elements(), key=_code)
        random.Random(f"{seed}:0").shuffle(rest)
        stock_t = head + tuple(rest)
    else:
        stock_t = _cards(stock, "stock")
        used.update(stock_t)
        extra = used - full
        if extra:
            raise ValueError(f"cards not in the deck(s) or used too often: {format_cards(sorted(extra.elements()))}")
    for name, seat in (("current", current), ("exposed", exposed)):
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"{name} must be a seat 0..{n - 1}, got {seat!r}")
    if pending_draw and pending_skip:
        raise ValueError("pending_draw and pending_skip cannot both be positive (§2.3c)")
    if pending_draw < 0 or pending_skip < 0:
        raise ValueError("pending_draw and pending_skip must be >= 0")
    suit: Suit | None
    if active_suit is _UNSET:
        suit = pile[-1].suit
    elif active_suit is None or isinstance(active_suit, Suit):
        suit = active_suit
    elif isinstance(active_suit, str):
        try:
            suit = Suit(active_suit.lower())
        except ValueError:
            raise ValueError(f"active_suit must be s, h, d, c or None, got {active_suit!r}") from None
    else:
        raise ValueError(f"active_suit must be s, h, d, c or None, got {active_suit!r}")
    skips = tuple(skip_turns) if skip_turns is not None else (0,) * n
    if len(skips) != n or any(not isinstance(x, int) or x < 0 for x in skips):
        raise ValueError(f"skip_turns must be {n} non-negative integers, got {skip_turns!r}")
    fin = tuple(finished)
    if any(hand_t[i] for i in fin):
        raise ValueError("finished seats must have empty hands")
    phase = Phase.PLAY
    drawn_card: Card | None = None
    if drawn is not None:
        drawn_card = _cards([drawn], "drawn")[0]
        if drawn_card not in hand_t[current]:
            raise ValueError(f"drawn card {drawn_card} must be in the current hand")
        phase = Phase.AFTER_DRAW
    state = object.__new__(State)
    state.__dict__.update(
        rules=rules, seed=seed, hands=tuple(hand_t), stock=stock_t, discard=pile,
        current=current, active_suit=suit, pending_draw=pending_draw,
        pending_skip=pending_skip, skip_turns=skips, phase=phase, drawn=drawn_card,
        exposed=exposed, finished=fin, shuffle_count=1, passes=0, moves=0,
        dealer=(current - 1) % n, ranking=(), end_reason=None, log=(),
    )  # fmt: skip
    return state


# --------------------------------------------------------------------------- queries


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may see: its own hand, others' hand sizes, never the stock order."""
    _check_state(state)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.rules.players:
        raise ValueError(f"seat must be 0..{state.rules.players - 1}, got {seat!r}")
    return observe_unchecked(state, seat)


def observe_unchecked(state: State, seat: int) -> Observation:
    """:func:`observe` without the argument checks (for states and seats known to be valid)."""
    obs = object.__new__(Observation)  # the frozen dataclass __init__ is slow on the hot path
    object.__setattr__(obs, "__dict__", {
        "seat": seat,
        "rules": state.rules,
        "hand": state.hands[seat],
        "hand_sizes": tuple(map(len, state.hands)),
        "current": state.current,
        "phase": state.phase,
        "top": state.discard[-1],
        "active_suit": state.active_suit,
        "pending_draw": state.pending_draw,
        "pending_skip": state.pending_skip,
        "skip_turns": state.skip_turns,
        "stock_count": len(state.stock),
        "discard": state.discard,
        "finished": state.finished,
        "exposed": state.exposed,
        "drawn": state.drawn if seat == state.current else None,
        "moves": state.moves,
        "ranking": state.ranking,
        "log": state.log,
    })  # fmt: skip
    return obs


def is_terminal(state: State) -> bool:
    """True once the round is over."""
    return _check_state(state).phase is Phase.OVER


def ranking(state: State) -> list[int]:
    """Seats from first place to last (the round must be over)."""
    if not is_terminal(state):
        raise GameNotOverError("the round is not over yet; placings exist only at the end")
    return list(state.ranking)


def placings(state: State) -> list[int]:
    """The place (1 = best) of each seat, indexed by seat; the round must be over.

    >>> s = make_state(Rules(players=3), hands=["3s", "Kd 9h", "2c 5c"], top="3h")
    >>> placings(apply(s, Play("3s")))
    Traceback (most recent call last):
    ...
    macao.state.GameNotOverError: the round is not over yet; placings exist only at the end
    """
    order = ranking(state)
    places = [0] * state.rules.players
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return places
