"""Many hands at once: :func:`solve_many` and its :class:`SolutionBatch`.

Programs that analyse hand histories, build tables or run computer players solve
thousands of hands; calling :func:`solver.solve` for each pays Python overhead per hand.
``solve_many`` takes the whole batch to the compiled core in one call and answers in
numpy arrays, with the same answers ``solve()`` gives hand by hand:

>>> batch = solve_many(["Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh",
...                     "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac",
...                     "Ah Ad 7c"], players=2)
>>> batch.best.shape, batch.bad.tolist()
((3, 13), [False, False, True])
>>> batch.special_names[batch.special[1]]
'dragon'
>>> batch.messages
{2: "a Mau Binh hand needs 13 cards, got 3: 'Ah Ad 7c'"}
>>> batch.solution(0) == solve("Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh", players=2)
True

Hands come as card text, lists of cards (or card strings), or an ``(n, 13)`` integer
array of card codes (``Card.code``: rank index × 4 + suit, 0..51).  A bad hand does not
fail the batch: its row is flagged in ``bad``, its reason is in ``messages`` and its
outputs are blanks (codes -1, EV and win chances NaN).

Fast mode runs the core on the calling thread, or on ``workers`` threads for large
batches (the core releases the GIL).  Deep mode (Monte Carlo, about 0.1 s a hand) runs
:func:`solver.solve` for each hand with the same ``seed``, so a hand gets the answer it
gets alone whatever the batch; ``workers`` forks that many processes (``None``: one per
core), each setting its sampled opponents on one thread (:mod:`solver.threads`).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field as default
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from . import _core, threads
from .cards import Card, InvalidCardError, InvalidHandError
from .context import Table, as_table
from .fields import DEFAULT_FIELD, FIELDS, check_field
from .handcodes import HandLike, hand_codes
from .rules import SPECIAL_NAMES, Rules
from .scoring import CARD_OF_CODE, Arrangement, check_hand
from .strategy import (
    Solution,
    aces_ev,
    check_mode,
    check_seed,
    foul_ev,
    solve,
    special_ev,
    special_values,
    strongest_back_first_codes,
)

#: Fast mode hands each thread at least this many hands before it splits a batch.
MIN_THREAD_CHUNK = 2048

IntArray = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class SolutionBatch:
    """Answers for ``n`` hands, row ``i`` for hand ``i``.

    * ``best`` (n, 13) int8: the best arrangement's codes, front 3 | middle 5 | back 5,
      each row in display order (rank high to low, suits s h d c);
    * ``ev`` (n,) float64: expected chi against the field, aces and specials included;
    * ``special`` (n,) int8: index into :attr:`special_names`, -1 for none;
    * ``row_win`` (n, 3) float64: chance to win front, middle, back against one opponent;
    * ``bad`` (n,) bool and ``messages`` {row: reason} for hands that are not hands.
    """

    best: npt.NDArray[np.int8]
    ev: FloatArray
    special: npt.NDArray[np.int8]
    row_win: FloatArray
    bad: BoolArray
    messages: dict[int, str] = default(default_factory=dict)
    players: int = 4
    mode: str = "fast"
    field: str = DEFAULT_FIELD
    special_names: ClassVar[tuple[str, ...]] = SPECIAL_NAMES

    def __len__(self) -> int:
        return len(self.ev)

    def solution(self, i: int) -> Solution:
        """Hand ``i`` as the :class:`~solver.strategy.Solution` ``solve()`` returns (top 1)."""
        if not -len(self) <= i < len(self):
            raise IndexError(f"hand {i} is outside this batch of {len(self)}")
        i %= len(self)
        if self.bad[i]:
            raise InvalidHandError(f"hand {i} is not a hand: {self.messages[i]}")
        row = self.best[i].tolist()
        best = Arrangement.from_codes(row[:3], row[3:8], row[8:])
        ev = float(self.ev[i])
        special = int(self.special[i])
        name = SPECIAL_NAMES[special] if special >= 0 else None
        pf, pm, pb = self.row_win[i].tolist()
        return Solution(best, name, ev, [(best, ev)], (pf, pm, pb), self.players, self.mode, self.field)


def check_workers(workers: object) -> int:
    """``workers`` as a count: a positive integer, or None for one per core."""
    if workers is None:
        return os.cpu_count() or 1
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a positive integer or None (one per core), got {workers!r}")
    return workers


def read_hands(hands: npt.NDArray[np.integer] | Iterable[HandLike]) -> tuple[IntArray, BoolArray, dict[int, str]]:
    """(n, 13) int32 codes (zeros on bad rows), the bad-row mask and each bad row's reason."""
    if isinstance(hands, np.ndarray):
        return _read_code_array(hands)
    if isinstance(hands, (str, bytes)):
        raise ValueError("hands must be a sequence of hands (or an (n, 13) array of codes), got one string; "
                         "wrap a single hand in a list")  # fmt: skip
    if not isinstance(hands, Iterable):
        raise ValueError(f"hands must be a sequence of hands or an (n, 13) array of card codes, got {hands!r}")
    rows: list[list[int]] = []
    messages: dict[int, str] = {}
    blank = [0] * 13
    for i, hand in enumerate(hands):
        try:
            rows.append(hand_codes(hand))
        except (InvalidCardError, InvalidHandError) as exc:
            rows.append(blank)
            messages[i] = str(exc)
    bad = np.zeros(len(rows), dtype=np.bool_)
    bad[list(messages)] = True
    return np.asarray(rows, dtype=np.int32).reshape(len(rows), 13), bad, messages


def _read_code_array(hands: npt.NDArray[np.integer]) -> tuple[IntArray, BoolArray, dict[int, str]]:
    if hands.ndim != 2 or hands.shape[1] != 13 or not np.issubdtype(hands.dtype, np.integer):
        raise ValueError(f"an array of hands must be (n, 13) integer card codes, got {hands.shape} {hands.dtype}")
    out_of_range = np.asarray(((hands < 0) | (hands > 51)).any(axis=1))
    codes = np.where(out_of_range[:, None], 0, hands).astype(np.int32)
    repeated = (np.diff(np.sort(codes, axis=1), axis=1) == 0).any(axis=1)
    bad = out_of_range | repeated
    messages = {int(i): _reason(hands[i].tolist()) for i in np.flatnonzero(bad)}
    codes[bad] = 0
    return np.ascontiguousarray(codes), bad, messages


def _reason(codes: list[int]) -> str:
    """Why a row of codes is not a hand (the checks of solver.scoring.check_hand)."""
    try:
        check_hand([Card(c) for c in codes])
    except (InvalidCardError, InvalidHandError) as exc:
        return str(exc)
    return "not a hand"  # pragma: no cover - only rows that fail the checks get here


def solve_many(
    hands: npt.NDArray[np.integer] | Iterable[HandLike],
    rules: Rules | str | None = None,
    players: int | None = None,
    mode: str = "fast",
    *,
    field: str | None = None,
    seed: int | None = None,
    workers: int | None = 1,
    table: Table | None = None,
) -> SolutionBatch:
    """Solve every hand of a batch; row ``i`` of the result is ``solve(hands[i], ...)``.

    The table is ``table``, or the one ``rules``, ``players`` and ``field`` describe (as
    in :func:`solver.solve`).  ``workers`` threads (fast mode) or processes (deep mode)
    share the work; None uses one per core.  Bad hands are flagged per row, never
    raised; bad arguments raise ``ValueError`` (or
    :class:`~solver.rules.InvalidRulesError`).
    """
    table = as_table(table, rules, players, field)
    mode = check_mode(mode)
    table = table.played_by(mode)
    seed = check_seed(seed)
    count = check_workers(workers)
    codes, bad, messages = read_hands(hands)
    n = len(codes)
    best = np.full((n, 13), -1, dtype=np.int8)
    ev = np.full(n, np.nan)
    special = np.full(n, -1, dtype=np.int8)
    row_win = np.full((n, 3), np.nan)
    good = np.flatnonzero(~bad)
    if len(good):
        solve_rows = _solve_deep if mode == "deep" else _solve_fast
        hands_ = np.ascontiguousarray(codes[good])
        arrangement, value, kind, wins = solve_rows(hands_, table, seed, count)
        best[good] = arrangement
        ev[good] = value
        special[good] = kind
        row_win[good] = wins
    return SolutionBatch(best, ev, special, row_win, bad, messages, table.players, mode, table.field)


Rows = tuple[IntArray, FloatArray, npt.NDArray[np.int8], FloatArray]


def _solve_fast(codes: IntArray, table: Table, seed: int | None, workers: int) -> Rows:
    """Fast mode over good hands: the core's split, then the terms solve() adds to it."""
    rules, players, field, model = table.rules, table.players, table.field, table.model
    n = len(codes)
    row_win = np.zeros((n, 3))
    best, ev = threads.solve_split(model, codes, min(workers, max(1, n // MIN_THREAD_CHUNK)), row_win)
    for i in np.flatnonzero(np.isneginf(ev)):
        # only under strict validity: no valid split exists; the naive setting fouls
        arrangement = strongest_back_first_codes(codes[i].tolist(), rules)
        best[i] = [c.code for c in arrangement.cards]
        ev[i] = foul_ev(rules, players, field)
        row = best[i].tolist()
        row_win[i] = _core.row_wins(model, row[:3], row[3:8], row[8:])
    special = _specials(codes, rules)
    aces = np.asarray([aces_ev(k, rules, players) for k in range(5)])[np.count_nonzero(codes >= 48, axis=1)]
    paid = np.asarray([special_ev(name, rules, players) for name in SPECIAL_NAMES])
    ev = np.where(special >= 0, paid[special] + aces, ev + aces)
    if rules.special_detection == "layout":
        # O13: a special pays only when laid out, so a hand holding one may be best set to
        # show it; solve() weighs those layouts against the core's sets (rare hands)
        for i in np.flatnonzero(special >= 0):
            sol = solve([CARD_OF_CODE[c] for c in codes[i].tolist()], table=table)
            best[i] = [c.code for c in sol.best.cards]
            ev[i] = sol.ev
            special[i] = SPECIAL_NAMES.index(sol.special) if sol.special else -1
            row_win[i] = sol.row_win
    return best, ev, special, row_win


def _specials(codes: IntArray, rules: Rules) -> npt.NDArray[np.int8]:
    """Each hand's special (index into SPECIAL_NAMES, -1 none), whatever its set."""
    if not rules.specials:
        return np.full(len(codes), -1, dtype=np.int8)
    found = _core.special_indexes(codes, special_values(rules), rules.six_pairs_rule == "strict", rules.ace_low_runs)
    return np.asarray(found, dtype=np.int8)


def _solve_deep(codes: IntArray, table: Table, seed: int | None, workers: int) -> Rows:
    """Deep mode: solve() for each hand with the same seed, over ``workers`` processes."""
    parts = min(workers, len(codes))
    jobs = [(chunk.tolist(), table, seed) for chunk in np.array_split(codes, parts)]
    if parts == 1:
        done = [_deep_job(jobs[0])]
    else:
        with multiprocessing.get_context("fork").Pool(parts, initializer=_one_thread_a_decision) as pool:
            done = pool.map(_deep_job, jobs)
    rows = [answer for answers in done for answer in answers]
    best = np.asarray([r[0] for r in rows], dtype=np.int32)
    ev = np.asarray([r[1] for r in rows])
    special = np.asarray([r[2] for r in rows], dtype=np.int8)
    row_win = np.asarray([r[3] for r in rows])
    return best, ev, special, row_win


DeepAnswer = tuple[list[int], float, int, tuple[float, float, float]]


def _one_thread_a_decision() -> None:
    """A deep worker process sets its sampled opponents on its own thread: the processes
    already take the cores."""
    threads.DECISION_THREADS = 1


def _deep_job(job: tuple[list[list[int]], Table, int | None]) -> list[DeepAnswer]:
    hands, table, seed = job
    out = []
    for codes in hands:
        sol = solve([CARD_OF_CODE[c] for c in codes], mode="deep", seed=seed, table=table)
        special = SPECIAL_NAMES.index(sol.special) if sol.special else -1
        out.append(([c.code for c in sol.best.cards], sol.ev, special, sol.row_win))
    return out


__all__ = ["FIELDS", "SolutionBatch", "check_field", "check_workers", "read_hands", "solve_many"]
