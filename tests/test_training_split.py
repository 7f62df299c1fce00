"""The offline builds stay out of the runtime: ``import solver`` and solving hands load no
module of :mod:`solver.training` (nor the old commands' forwarding modules), while the
documented old commands still reach the builds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

SOLVE_EVERYTHING = """
import sys
import solver
from solver import evaluate, solve, solve_many
hand = "Ah Ad 7c 7s Kd Qd 9d 5d 2c 3h 8s Tc Jh"
for preset in solver.PRESETS:
    for field in ("population", "strong", "beginners"):
        for players in (2, 3, 4):
            solve(hand, rules=preset, players=players, field=field)
solve(hand, rules="four-two", players=2, field="strong", mode="deep", seed=1)
solve_many([hand, hand], players=3, field="strong")
evaluate(hand, "Ah Ad 2c | Kd Qd 9d 5d 3h | 7c 7s Tc Jh 8s")
loaded = sorted(m for m in sys.modules if m.startswith("solver"))
print(" ".join(loaded))
"""


def run(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_importing_and_solving_loads_no_training_module() -> None:
    loaded = run(SOLVE_EVERYTHING)
    assert "solver.tables" in loaded and "solver.deep" in loaded  # the run did load and solve
    assert [m for m in loaded if m.startswith("solver.training")] == []
    assert "solver.removal" not in loaded and "solver.selfplay" not in loaded


def test_importing_solver_loads_no_command_line_machinery() -> None:
    loaded = run("import sys, solver; print(' '.join(sorted(sys.modules)))")
    assert not {"argparse", "solver.training"} & set(loaded)  # the builds' command lines


@pytest.mark.parametrize(
    "command",
    ["solver.tables", "solver.removal", "solver.selfplay"]
    + ["solver.training.tables", "solver.training.removal", "solver.training.selfplay"],
)
def test_the_old_and_new_commands_reach_the_builds(command: str, tmp_path: Path) -> None:
    """Each command (the README's old ones forward to the new) runs its build's own
    argument checks, and refuses an ``--out`` it cannot make before building anything."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    blocked = str(blocker / "data")
    out = subprocess.run(
        [sys.executable, "-m", command, "build", "--out", blocked], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 2
    assert f"--out {blocked}: cannot make that directory" in out.stderr
    assert "Traceback" not in out.stderr
