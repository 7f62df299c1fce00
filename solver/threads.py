"""The fast solver over a batch of hands on several threads at once.

The core's :func:`solver._core.solve_batch` releases the GIL while it searches and reads
its model only, so slices of one batch can be solved on as many threads, each hand
getting the set it gets alone.  Two callers split their batches:

* ``solve_many`` in fast mode, with its ``workers`` threads on large batches
  (:data:`solver.batch.MIN_THREAD_CHUNK` hands a thread at least);
* deep mode, which sets each decision's sampled opponents (up to 4,800 hands, nearly all
  of its time) on :data:`DECISION_THREADS` threads, so that a decision takes about half
  the time on a machine with two idle cores.
"""

from __future__ import annotations

import itertools
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import numpy.typing as npt

from . import _core

IntArray = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float64]

#: Threads for the sampled opponents of one deep-mode decision: two where the machine has
#: two cores or more [choice: a third halves nothing on the 2-core servers this runs on,
#: and leaves more cores to the other people on the app].
DECISION_THREADS = min(2, os.cpu_count() or 1)
#: Below this many hands a batch stays on the calling thread: a thread's start (tens of
#: microseconds) is no longer small beside its share.
MIN_SPLIT = 64


def solve_split(
    model: _core.Model, codes: IntArray, parts: int, row_win: FloatArray | None = None
) -> tuple[IntArray, FloatArray]:
    """:func:`solver._core.solve_batch` of ``codes`` (n, 13) cut into ``parts`` slices,
    one thread each (the calling thread alone for one part or fewer than
    :data:`MIN_SPLIT` hands); the answers, and ``row_win`` when given, in the hands' order."""
    codes = np.ascontiguousarray(codes, dtype=np.int32)
    n = len(codes)
    if parts <= 1 or n < MIN_SPLIT:
        best, ev = _core.solve_batch(model, codes, None, row_win)
        return np.asarray(best), np.asarray(ev)
    bounds = np.linspace(0, n, parts + 1).astype(int).tolist()
    slices = [slice(a, b) for a, b in itertools.pairwise(bounds)]

    def solve(part: slice) -> tuple[IntArray, FloatArray]:
        wins = None if row_win is None else row_win[part]
        best, ev = _core.solve_batch(model, codes[part], None, wins)
        return np.asarray(best), np.asarray(ev)

    with ThreadPoolExecutor(parts) as pool:
        done = list(pool.map(solve, slices))
    return np.concatenate([d[0] for d in done]), np.concatenate([d[1] for d in done])
