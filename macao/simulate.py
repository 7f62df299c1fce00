"""Bot-versus-bot rounds and the evaluation harness of macao.md §5.4.

:func:`play_round` runs one round with a bot in every seat (Macao calls are offered
after every action, clockwise from the seat after the exposed one).  :func:`simulate`
plays many seeded rounds, rotating the seats every game, and reports each bot's win
rate, loss rate ("last with cards") and average placing, plus the game length, each
with a 95 % confidence interval (Wilson for rates, normal approximation for means).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .bots import Bot, make_bot
from .rules import Rules
from .state import (
    Phase,
    State,
    _legal_cached,
    _observe,
    apply,
    interrupts,
    legal_actions,
    new_game,
    observe,
    placings,
)

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A value with its 95 % confidence interval."""

    value: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


def wilson(successes: int, n: int) -> Estimate:
    """Rate with the Wilson 95 % interval.

    >>> str(wilson(60, 100))
    '0.600 [0.502, 0.691]'
    """
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan)
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_estimate(values: Sequence[float]) -> Estimate:
    """Mean with a normal-approximation 95 % interval."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half)


def offer_calls(state: State, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> State:
    """Let the bots call Macao on an exposed seat, clockwise from the seat after it."""
    if state.exposed is None:
        return state
    n = state.rules.players
    for step in range(1, n):
        seat = (state.exposed + step) % n
        if not interrupts(state, seat):
            continue
        call = bots[seat].interrupt(observe(state, seat), rngs[seat])
        if call is not None:
            return apply(state, call)
    return state


def bot_step(state: State, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> State:
    """The current seat's bot chooses and its action is applied."""
    seat = state.current
    action = bots[seat].choose(observe(state, seat), legal_actions(state), rngs[seat])
    return apply(state, action)


def play_round(rules: Rules, bots: Sequence[Bot], seed: int | str) -> State:
    """Play one round with ``bots[seat]`` in each seat; return the final state."""
    if len(bots) != rules.players:
        raise ValueError(f"need {rules.players} bots for players={rules.players}, got {len(bots)}")
    rngs = [random.Random(f"{seed}:bot:{seat}") for seat in range(rules.players)]
    state = new_game(rules, seed)
    over = Phase.OVER
    # bot_step and offer_calls inlined: the engine's own states need no argument checks
    while state.phase is not over:
        seat = state.current
        action = bots[seat].choose(_observe(state, seat), list(_legal_cached(state)), rngs[seat])
        state = apply(state, action)
        if state.exposed is not None:
            state = offer_calls(state, bots, rngs)
    return state


@dataclass(frozen=True)
class BotStats:
    """Results of one bot (one entry of the ``bots`` list) over all games."""

    name: str
    games: int
    wins: int
    losses: int
    win_rate: Estimate
    loss_rate: Estimate
    placing: Estimate


@dataclass(frozen=True)
class SimulationResult:
    rules: Rules
    games: int
    seed: int | str
    bots: tuple[BotStats, ...]
    length: Estimate
    end_reasons: tuple[tuple[str, int], ...]

    def table(self) -> str:
        """A plain-text table of the results."""
        columns = ("win rate [95% CI]", "loss rate [95% CI]", "avg place [95% CI]")
        head = f"{'bot':<10} {'games':>6} " + " ".join(f"{c:>24}" for c in columns)
        lines = [head, "-" * len(head)]
        for b in self.bots:
            lines.append(
                f"{b.name:<10} {b.games:>6} {b.win_rate!s:>24} {b.loss_rate!s:>24} {b.placing!s:>24}"
            )
        ends = ", ".join(f"{k}: {v}" for k, v in self.end_reasons)
        lines.append(f"game length (actions): {self.length}   endings: {ends}")
        return "\n".join(lines)


def simulate(
    rules: Rules, bots: Sequence[Bot | str], games: int, seed: int | str
) -> SimulationResult:
    """Play ``games`` seeded rounds, rotating seats: bot ``i`` sits at ``(i + g) % players``.

    >>> r = simulate(Rules(), ["normal", "random"], games=4, seed=1)
    >>> [b.games for b in r.bots]
    [4, 4]
    """
    players = rules.players
    bot_objs = [make_bot(b) if isinstance(b, str) else b for b in bots]
    if len(bot_objs) != players:
        raise ValueError(f"need {players} bots for players={players}, got {len(bot_objs)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    places: list[list[int]] = [[] for _ in bot_objs]
    lengths: list[float] = []
    reasons: Counter[str] = Counter()
    for g in range(games):
        seat_of = [(i + g) % players for i in range(players)]
        by_seat: list[Bot] = [bot_objs[0]] * players
        for i, seat in enumerate(seat_of):
            by_seat[seat] = bot_objs[i]
        final = play_round(rules, by_seat, f"{seed}:{g}")
        result = placings(final)
        for i, seat in enumerate(seat_of):
            places[i].append(result[seat])
        lengths.append(final.moves)
        reasons[final.end_reason or "?"] += 1
    stats = []
    for i, bot in enumerate(bot_objs):
        ps = places[i]
        wins = sum(1 for p in ps if p == 1)
        losses = sum(1 for p in ps if p == players)
        stats.append(
            BotStats(
                name=f"{bot.name}" if [b.name for b in bot_objs].count(bot.name) == 1 else f"{bot.name}#{i}",
                games=len(ps),
                wins=wins,
                losses=losses,
                win_rate=wilson(wins, len(ps)),
                loss_rate=wilson(losses, len(ps)),
                placing=mean_estimate([float(p) for p in ps]),
            )
        )
    return SimulationResult(
        rules=rules,
        games=games,
        seed=seed,
        bots=tuple(stats),
        length=mean_estimate(lengths),
        end_reasons=tuple(sorted(reasons.items())),
    )
