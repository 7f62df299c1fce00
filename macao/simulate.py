"""Bot-versus-bot rounds and the evaluation harness of macao.md §5.4.

:func:`play_round` runs one round with a bot in every seat (Macao calls are offered
after every action, clockwise from the seat after the exposed one).  :func:`simulate`
plays many seeded rounds, rotating the seats every game, and reports each bot's win
rate, loss rate ("last with cards") and average placing, plus the game length, each
with a 95 % confidence interval (Wilson for rates, normal approximation for means), and
the CPU time per decision of each bot (mean and 95th percentile, one core: the process
clock around each ``choose``).  When a level sits in several seats, a pooled row per
level follows.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import pairwise

from .bots import Bot, make_bot
from .rules import Rules
from .state import (
    Phase,
    State,
    apply,
    interrupts,
    legal_actions,
    legal_actions_cached,
    new_game,
    observe,
    observe_unchecked,
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


def play_round(
    rules: Rules, bots: Sequence[Bot], seed: int | str, times: Sequence[list[float]] | None = None
) -> State:
    """Play one round with ``bots[seat]`` in each seat; return the final state.

    With ``times`` (one list per seat), the CPU seconds of every ``choose`` are appended
    to the list of the seat that chose.
    """
    if len(bots) != rules.players:
        raise ValueError(f"need {rules.players} bots for players={rules.players}, got {len(bots)}")
    rngs = [random.Random(f"{seed}:bot:{seat}") for seat in range(rules.players)]
    state = new_game(rules, seed)
    over = Phase.OVER
    clock = time.process_time
    # bot_step and offer_calls inlined: the engine's own states need no argument checks
    while state.phase is not over:
        seat = state.current
        if times is None:
            action = bots[seat].choose(observe_unchecked(state, seat), list(legal_actions_cached(state)), rngs[seat])
        else:
            started = clock()
            action = bots[seat].choose(observe_unchecked(state, seat), list(legal_actions_cached(state)), rngs[seat])
            times[seat].append(clock() - started)
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
    decisions: int = 0
    # CPU times differ from run to run: two runs with the same seed compare equal
    decision_ms: float = field(default=math.nan, compare=False)
    decision_p95_ms: float = field(default=math.nan, compare=False)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` by the nearest-rank method.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.95)
    5.0
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def _stats(name: str, places: Sequence[int], players: int, times: Sequence[float]) -> BotStats:
    wins = sum(1 for p in places if p == 1)
    losses = sum(1 for p in places if p == players)
    return BotStats(
        name=name,
        games=len(places),
        wins=wins,
        losses=losses,
        win_rate=wilson(wins, len(places)),
        loss_rate=wilson(losses, len(places)),
        placing=mean_estimate([float(p) for p in places]),
        decisions=len(times),
        decision_ms=1000 * sum(times) / len(times) if times else math.nan,
        decision_p95_ms=1000 * percentile(times, 0.95),
    )


@dataclass(frozen=True)
class SimulationResult:
    rules: Rules
    games: int
    seed: int | str
    bots: tuple[BotStats, ...]
    length: Estimate
    end_reasons: tuple[tuple[str, int], ...]
    levels: tuple[BotStats, ...] = ()

    def table(self) -> str:
        """A plain-text table of the results (pooled rows per level after the seats)."""
        columns = ("win rate [95% CI]", "loss rate [95% CI]", "avg place [95% CI]")
        head = (
            f"{'bot':<14} {'games':>6} "
            + " ".join(f"{c:>24}" for c in columns)
            + f" {'ms/decision':>11} {'p95 ms':>8}"
        )
        lines = [head, "-" * len(head)]
        for b in (*self.bots, *self.levels):
            lines.append(
                f"{b.name:<14} {b.games:>6} {b.win_rate!s:>24} {b.loss_rate!s:>24} {b.placing!s:>24}"
                f" {b.decision_ms:>11.3f} {b.decision_p95_ms:>8.3f}"
            )
        ends = ", ".join(f"{k}: {v}" for k, v in self.end_reasons)
        lines.append(f"game length (actions): {self.length}   endings: {ends}")
        return "\n".join(lines)


@dataclass
class Tally:
    """Raw results of some games: per bot entry its placings and decision CPU seconds."""

    places: list[list[int]]
    times: list[list[float]]
    lengths: list[float]
    reasons: Counter[str]

    def add(self, other: Tally) -> None:
        for mine, theirs in zip(self.places, other.places):
            mine.extend(theirs)
        for mine_t, theirs_t in zip(self.times, other.times):
            mine_t.extend(theirs_t)
        self.lengths.extend(other.lengths)
        self.reasons.update(other.reasons)


def play_games(rules: Rules, bots: Sequence[Bot | str], seed: int | str, games: range) -> Tally:
    """Play the games numbered ``games`` (seed ``f"{seed}:{g}"``, bot ``i`` in seat ``(i + g) % players``)."""
    players = rules.players
    bot_objs = [make_bot(b) if isinstance(b, str) else b for b in bots]
    tally = Tally([[] for _ in bot_objs], [[] for _ in bot_objs], [], Counter())
    for g in games:
        seat_of = [(i + g) % players for i in range(players)]
        by_seat: list[Bot] = [bot_objs[0]] * players
        for i, seat in enumerate(seat_of):
            by_seat[seat] = bot_objs[i]
        seat_times: list[list[float]] = [[] for _ in range(players)]
        final = play_round(rules, by_seat, f"{seed}:{g}", seat_times)
        result = placings(final)
        for i, seat in enumerate(seat_of):
            tally.places[i].append(result[seat])
            tally.times[i].extend(seat_times[seat])
        tally.lengths.append(final.moves)
        tally.reasons[final.end_reason or "?"] += 1
    return tally


def _chunks(games: int, jobs: int) -> list[range]:
    """Game numbers split into about four chunks per job, so that the jobs end together."""
    count = min(games, jobs * 4)
    bounds = [games * k // count for k in range(count + 1)]
    return [range(a, b) for a, b in pairwise(bounds) if b > a]


def simulate(
    rules: Rules, bots: Sequence[Bot | str], games: int, seed: int | str, jobs: int = 1
) -> SimulationResult:
    """Play ``games`` seeded rounds, rotating seats: bot ``i`` sits at ``(i + g) % players``.

    ``jobs`` > 1 spreads the games over that many processes; the results are the same
    (every game has its own seed), only the timings differ.

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
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    if jobs == 1:
        tally = play_games(rules, bot_objs, seed, range(games))
    else:
        tally = Tally([[] for _ in bot_objs], [[] for _ in bot_objs], [], Counter())
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            parts = [pool.submit(play_games, rules, bot_objs, seed, chunk) for chunk in _chunks(games, jobs)]
            for part in parts:
                tally.add(part.result())
    names = [b.name for b in bot_objs]
    stats = [
        _stats(name if names.count(name) == 1 else f"{name}#{i}", tally.places[i], players, tally.times[i])
        for i, name in enumerate(names)
    ]
    pooled = [
        _stats(
            f"{name} (all {names.count(name)})",
            [p for i, n in enumerate(names) if n == name for p in tally.places[i]],
            players,
            [t for i, n in enumerate(names) if n == name for t in tally.times[i]],
        )
        for name in dict.fromkeys(names)
        if names.count(name) > 1
    ]
    return SimulationResult(
        rules=rules,
        games=games,
        seed=seed,
        bots=tuple(stats),
        length=mean_estimate(tally.lengths),
        end_reasons=tuple(sorted(tally.reasons.items())),
        levels=tuple(pooled),
    )
