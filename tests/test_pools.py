"""Where the builds' work runs (solver.training.pools): the local pool by default, a
cluster by name, and a clear refusal of what this machine cannot use."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from solver.rules import PRESETS
from solver.training.pools import check_executor, open_pool
from solver.training.removal import build_removal
from solver.training.removal import main as removal_main
from solver.training.selfplay import main as selfplay_main


def test_the_local_pool_gives_what_no_pool_gives() -> None:
    rules = PRESETS["vietnamese"]
    alone = build_removal(rules, 2, "strong", 200, 3000, seed=4, pool=None, chunks=3)
    with open_pool("local", 2) as pool:
        pooled = build_removal(rules, 2, "strong", 200, 3000, seed=4, pool=pool, chunks=3)
    assert np.array_equal(alone, pooled) and np.count_nonzero(alone) > 0


@pytest.mark.parametrize("spec", ["", "slurm", "dask://", "ray:host", "local:2"])
def test_an_unknown_executor_is_named_in_the_refusal(spec: str) -> None:
    problem = check_executor(spec)
    assert problem is not None and repr(spec) in problem and "local, ray, ray://HOST:PORT, dask://HOST:PORT" in problem
    with pytest.raises(ValueError, match="--executor must be one of"), open_pool(spec, 1):
        pass


@pytest.mark.parametrize(("spec", "package"), [("ray", "ray"), ("ray://10.0.0.5:10001", "ray"),
                                               ("dask://10.0.0.5:8786", "distributed")])  # fmt: skip
def test_a_cluster_library_that_is_missing_is_named_with_how_to_install_it(spec: str, package: str) -> None:
    if importlib.util.find_spec(package) is not None:
        assert check_executor(spec) is None
        return
    assert check_executor(spec) == (
        f"--executor {spec} needs the {package!r} package on this machine and on the cluster's "
        f"(pip install {package}); it is not installed here"
    )


@pytest.mark.parametrize("command", [removal_main, selfplay_main])
def test_the_build_commands_refuse_an_executor_before_any_work(command, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        command(["build", "--executor", "slurm"])
    assert "--executor must be one of local, ray" in capsys.readouterr().err
