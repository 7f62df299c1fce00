"""Where the builds' work runs: local processes by default, or a cluster (issue 28).

Every build splits its work into seeded, self-contained jobs (a chunk of sample hands,
of training hands, of bank hands to set: the job carries its own cards, tables and
correction) and only ever calls ``pool.map(work, jobs)`` on them, so any executor with
that one method runs a build, and the build's output does not depend on where the jobs
ran.  A self-play round under "vietnamese" at 4 players is about 4 minutes on a quiet
2-core machine (docs/training.md), so four rounds at the three table sizes are most of
an hour; its jobs are independent, which is what a cluster speeds up.

``--executor`` of the removal and self-play builds names one:

* ``local`` (the default): ``--jobs`` forked processes on this machine;
* ``ray`` or ``ray://HOST:PORT``: a Ray cluster, through Ray's drop-in
  ``ray.util.multiprocessing.Pool`` (``ray`` alone joins the cluster this machine is
  part of, or starts one locally);
* ``dask://HOST:PORT``: a Dask scheduler, through ``distributed.Client.map``.

Ray and Dask are not dependencies of the project: a cluster's machines install the same
version of this package and the library (``pip install ray`` or ``pip install
distributed``), and this machine too.  Naming one that is not installed is refused with
that advice before any work starts.
"""

from __future__ import annotations

import importlib
import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

EXECUTORS = ("local", "ray", "ray://HOST:PORT", "dask://HOST:PORT")


class DaskPool:
    """``map`` over a Dask scheduler's workers, results in the jobs' order."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def map(self, work: Callable[[Any], Any], jobs: Iterable[Any]) -> list[Any]:
        return list(self.client.gather(self.client.map(work, list(jobs), pure=False)))


def check_executor(spec: str) -> str | None:
    """Why ``spec`` names no executor this machine can use, else None."""
    if spec == "local":
        return None
    if spec == "ray" or spec.startswith("ray://"):
        module, install = "ray.util.multiprocessing", "ray"
    elif spec.startswith("dask://") and len(spec) > len("dask://"):
        module, install = "distributed", "distributed"
    else:
        return f"--executor must be one of {', '.join(EXECUTORS)}, got {spec!r}"
    try:
        importlib.import_module(module)
    except ImportError:
        return (f"--executor {spec} needs the {install!r} package on this machine and on the cluster's "
                f"(pip install {install}); it is not installed here")  # fmt: skip
    return None


@contextmanager
def open_pool(spec: str, jobs: int) -> Iterator[Any]:
    """A pool with ``map(work, jobs)`` on the executor ``spec`` (see :func:`check_executor`)."""
    if problem := check_executor(spec):
        raise ValueError(problem)
    if spec == "local":
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            yield pool
    elif spec.startswith("ray"):
        ray_pool = importlib.import_module("ray.util.multiprocessing").Pool
        pool = ray_pool(ray_address=None if spec == "ray" else spec)
        try:
            yield pool
        finally:
            pool.terminate()
    else:
        client = importlib.import_module("distributed").Client("tcp://" + spec.removeprefix("dask://"))
        try:
            yield DaskPool(client)
        finally:
            client.close()
